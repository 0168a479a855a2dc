"""The interpreter kernel of ``tfl.ethos_u``: its feature maps placed in the arena at their
offsets, as TFLite Micro's Ethos-U driver sees them, and its program run by the simulator.

Design notes: docs/simulator_design.md, section Regions and base pointers."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

import numpy as np

from npu_opt.dialects.tfl.common import TFL
from npu_opt.dialects.tfl.ops_ethosu import ARENA_OFFSETS, EthosUOp
from npu_opt.interpreters.ethosu.memory import FAST_SCRATCH, READ_ONLY, SCRATCH, SHRAM, Memory, Region, SimulatorError
from npu_opt.interpreters.ethosu.program import Tracer, run_program
from npu_opt.interpreters.ethosu.weights import accelerator_of
from npu_opt.ir.core import BlockArgument, Operation, OpResult, Value
from npu_opt.ir.diagnostics import location_prefix
from npu_opt.ir.interpreter import InterpretError, fail, storage_dtype

_TRACERS: list[Tracer] = []
_CHECKS: list[str] = []
SIM_CHECKS = ("strict", "order")
"""``strict``: the waits are checked (a command touching bytes a DMA or NPU operation in flight
uses is an error); ``order``: commands run in stream order and the waits are not looked at."""


@contextmanager
def tracing(tracer: Tracer) -> Iterator[None]:
    """Within the block, every simulated op reports one line to ``tracer`` (npu-run --trace)."""
    _TRACERS.append(tracer)
    try:
        yield
    finally:
        _TRACERS.remove(tracer)


@contextmanager
def sim_checks(mode: str) -> Iterator[None]:
    """Within the block, the simulator checks as ``mode`` says (npu-run --sim-check; strict outside)."""
    if mode not in SIM_CHECKS:
        raise ValueError(f"simulator check mode '{mode}' is not one of {', '.join(SIM_CHECKS)}")
    _CHECKS.append(mode)
    try:
        yield
    finally:
        _CHECKS.pop()


def _offsets(attr: Any) -> list[int]:
    return [int(getattr(a, "value", a)) for a in attr] if attr is not None else []


def arena_offset(value: Value) -> int | None:
    """The arena offset the compiled model gives a feature map (None where TFLite Micro places it)."""
    if isinstance(value, OpResult):
        offsets = _offsets(value.op.attr(ARENA_OFFSETS))
    elif isinstance(value, BlockArgument):
        owner = value.owner.parent.parent if value.owner.parent is not None else None
        offsets = _offsets(owner.attr(ARENA_OFFSETS)) if owner is not None else []
    else:
        offsets = []
    offset = offsets[value.index] if value.index < len(offsets) else -1
    return offset if offset >= 0 else None


def _placed(op: Operation, values: list[Value]) -> list[int]:
    placed = []
    for value in values:
        offset = arena_offset(value)
        if offset is None:
            raise fail(op, f"feature map {value} has no arena offset: the simulator places feature maps where "
                           f"the compiled model's OfflineMemoryAllocation does")
        placed.append(offset)
    return placed


@TFL.kernel(EthosUOp)
def ethos_u(op: Operation, args: list[Any]) -> list[np.ndarray]:
    program = op.program  # type: ignore[attr-defined]
    if program is None:
        raise fail(op, "its command stream did not decode into an ethosu.program; the simulator runs programs")
    scratch_offset = int(op.attr("scratch_offset").value)  # type: ignore[union-attr]
    inputs, outputs = _placed(op, list(op.operands)), _placed(op, list(op.results))
    ends = [scratch_offset + int(op.attr("scratch_size").value)]  # type: ignore[union-attr]
    ends += [o + np.asarray(a).nbytes for o, a in zip(inputs, args)]
    ends += [o + np.dtype(storage_dtype(r.type)).itemsize * int(np.prod(r.type.shape))  # type: ignore[attr-defined]
             for o, r in zip(outputs, op.results)]
    read_only = bytes(np.asarray(op.attr("read_only").as_array()).tobytes())  # type: ignore[union-attr]
    arena = Region(SCRATCH, max(ends) - scratch_offset)
    try:
        accelerator = accelerator_of(int(op.attr("npu_config").value))  # type: ignore[union-attr]
    except ValueError as error:
        raise fail(op, str(error)) from None
    names = [str(getattr(n, "value", n)) for n in (op.attr("tensor_names") or [])]
    # one tensor named as both scratch areas (Vela's default core without a fast scratch): one base pointer
    fast = arena if len(names) == 4 and names[2] == names[3] else \
        Region(FAST_SCRATCH, int(op.attr("fast_scratch_size").value))  # type: ignore[union-attr]
    regions = {READ_ONLY: Region(READ_ONLY, len(read_only), read_only), SCRATCH: arena, FAST_SCRATCH: fast,
               SHRAM: Region(SHRAM, accelerator.shram_bytes)}
    memory = Memory(regions)
    try:
        memory.where = "placing the inputs"
        for offset, array in zip(inputs, args):
            memory.write_bytes(SCRATCH, offset - scratch_offset, np.ascontiguousarray(array).tobytes(), "an input")
        tracer = _TRACERS[-1] if _TRACERS else None
        if tracer is not None:
            tracer(f"# tfl.ethos_u {location_prefix(op.diag_location())} ({accelerator.name})")
        run_program(program, memory, accelerator, tracer, check_waits=(_CHECKS or ["strict"])[-1] == "strict")
        memory.where = "reading the outputs"
        results = []
        for offset, result in zip(outputs, op.results):
            dtype = np.dtype(storage_dtype(result.type))
            count = int(np.prod(result.type.shape))  # type: ignore[attr-defined]
            data = memory.read_bytes(SCRATCH, offset - scratch_offset, count * dtype.itemsize, "an output")
            results.append(np.frombuffer(data, dtype=dtype).reshape(result.type.shape).copy())  # type: ignore[attr-defined]
    except (SimulatorError, ValueError) as error:
        raise InterpretError(f"its ethos-u program: {error}", op.diag_location()) from None
    return results


__all__ = ["SIM_CHECKS", "arena_offset", "ethos_u", "sim_checks", "tracing"]
