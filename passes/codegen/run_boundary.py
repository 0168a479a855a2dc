"""What crosses the boundary of an NPU run: the feature maps it reads from outside and writes for
outside, the views it takes in, and where each shared feature map lies in the arena; what
npu-outline makes a tfl.ethos_u op of (docs/deployable_tflite.md, From a schedule to ethos-u operators)."""
from __future__ import annotations

from dataclasses import dataclass, field

from npu_opt.dialects.npu.execution_order import is_view
from npu_opt.dialects.npu.ops_common import NpuOp, encoding_of
from npu_opt.dialects.npu.ops_memory import ConcatOp, ReshapeOp
from npu_opt.dialects.npu.schedule_attrs import ALLOC_ATTR, ARG_ALLOC_ATTR, AllocAttr
from npu_opt.hardware.target import Target
from npu_opt.ir.attributes import ArrayAttr
from npu_opt.ir.core import Block, BlockArgument, OpResult, Operation, Value
from npu_opt.ir.traits import ConstantLike
from npu_opt.passes.codegen.weight_bytes import LoweringError


OFFLINE_OFFSET_MAX = (1 << 31) - 1
"""The largest arena offset TFLite Micro's OfflineMemoryAllocation metadata holds (an int32)."""


class OutlineError(LoweringError):
    """A run whose boundary a tfl.ethos_u op cannot express (raised with the op at fault)."""


@dataclass(eq=False)
class RunBoundary:
    """One NPU run (its executed ops in order) and its boundary: the values it reads from
    outside (first read first), those it writes that are read outside (in the order it writes
    them, as Vela lists them), and every op it takes in (its ops and views)."""

    ops: list[Operation]
    inputs: list[Value] = field(default_factory=list)
    outputs: list[Value] = field(default_factory=list)
    taken: set[Operation] = field(default_factory=set)


def aliased(value: Value) -> list[Value]:
    """The non-view values ``value`` aliases (through views), constants left out."""
    found: list[Value] = []
    work = [value]
    while work:
        current = work.pop()
        producer = current.op if isinstance(current, OpResult) else None
        if producer is not None and producer.has_trait(ConstantLike):
            continue
        if producer is not None and is_view(producer):
            work.extend(producer.operands)
        else:
            found.append(current)
    return found


def run_boundaries(block: Block, runs: list[list[Operation]]) -> list[RunBoundary]:
    """The boundary of each run of ``block``. A view belongs to the run every value it aliases
    comes from (its result may be the run's output); a view of values from outside that only one
    run reads is taken in by that run (its inputs are the values viewed). OutlineError for an npu
    op no run takes in (a view the CPU reads) or a view read inside and outside a run."""
    boundaries = [RunBoundary(list(ops)) for ops in runs]
    owner: dict[Operation, RunBoundary] = {op: run for run in boundaries for op in run.ops}
    for op in block.ops:
        if is_view(op):
            owners = {owner.get(v.op) if isinstance(v, OpResult) else None for v in aliased(op.results[0])}
            if len(owners) == 1 and None not in owners:
                owner[op] = owners.pop()  # type: ignore[assignment]
    for run in boundaries:
        run.taken = {op for op, found in owner.items() if found is run}
        for op in run.ops:
            for operand in op.operands:
                _read(run, op, operand, owner)
        position = {op: index for index, op in enumerate(run.ops)}

        def written(value: Value) -> int:  # when the run writes it: the first op of those it aliases
            return min(position.get(v.op, len(position)) for v in aliased(value))  # type: ignore[union-attr]
        found = [result for op in block.ops if op in run.taken for result in op.results
                 if any(user not in run.taken for user in result.users())]
        run.outputs = sorted(found, key=written)
    taken = set().union(*(run.taken for run in boundaries))
    for op in block.ops:
        if isinstance(op, NpuOp) and op not in taken:
            raise OutlineError(op, "a view no NPU run reads (the CPU reads it) is not outlined yet")
    return boundaries


def _read(run: RunBoundary, reader: Operation, value: Value, owner: dict[Operation, RunBoundary]) -> None:
    """Note that ``reader`` (of ``run``) reads ``value``: an input unless the run or a constant
    defines it; a view of outside values is taken in and its operands read instead."""
    producer = value.op if isinstance(value, OpResult) else None
    if producer is not None and (producer.has_trait(ConstantLike) or owner.get(producer) is run):
        return
    if producer is not None and is_view(producer) and producer not in owner:
        outside = [user for user in producer.results[0].users()
                   if owner.get(user) is not run and not (is_view(user) and user not in owner)]
        if outside:
            raise OutlineError(producer, f"a view read by the NPU run of '{reader.name}' and by "
                                         f"'{outside[0].name}' outside it is not outlined yet")
        run.taken.add(producer)
        for operand in producer.operands:
            _read(run, reader, operand, owner)
        return
    if value not in run.inputs:
        run.inputs.append(value)


def arena_offset(value: Value, func: Operation, target: Target) -> int:
    """The arena offset of a feature map the CPU and the NPU share (through reshape views, its
    storage's allocation; a concatenation's own; -1 when it has none). OutlineError if it lies
    outside the arena, is not NHWC, or is a slice."""
    while isinstance(value, OpResult) and is_view(value.op) and not isinstance(value.op, ConcatOp):
        if not isinstance(value.op, ReshapeOp):
            raise OutlineError(value.op, "a feature map crossing the NPU/CPU boundary through a slice "
                                         "view is not outlined yet")
        value = value.op.operands[0]
    if isinstance(value, BlockArgument):
        allocs = func.attr(ARG_ALLOC_ATTR)
        elements = list(allocs.elements) if isinstance(allocs, ArrayAttr) else []
        alloc = elements[value.index] if value.index < len(elements) else None
        holder = func
    else:
        holder = value.op
        alloc = holder.attr(ALLOC_ATTR)
    if not isinstance(alloc, AllocAttr):
        return -1
    if alloc.area != target.feature_map_storage_area:
        raise OutlineError(holder, f"a feature map the CPU shares lies in {alloc.area}, not in the arena "
                                   f"({target.feature_map_storage_area}) where TFLite Micro can reach it")
    encoding = encoding_of(value)
    if encoding is not None and encoding.format != "NHWC":
        raise OutlineError(holder, f"a feature map the CPU shares is stored {encoding.format}; the CPU reads NHWC")
    if alloc.offset > OFFLINE_OFFSET_MAX:
        raise OutlineError(holder, f"a feature map the CPU shares at arena offset {alloc.offset} cannot be written: "
                                   f"OfflineMemoryAllocation holds offsets up to {OFFLINE_OFFSET_MAX}")
    return alloc.offset


__all__ = ["OFFLINE_OFFSET_MAX", "OutlineError", "RunBoundary", "aliased", "arena_offset", "run_boundaries"]
