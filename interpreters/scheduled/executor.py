"""Run a scheduled function the way its schedule says: in time order, stripe by stripe, with
every tensor in a byte array per memory area at its allocated offset.

Design notes: docs/interpreter_design.md, section The executor's run order (schedule_exec/executor)."""
from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from npu_opt.dialects.npu.ops_common import NpuComputeOp
from npu_opt.dialects.npu.ops_memory import ConcatOp, DmaOp
from npu_opt.dialects.npu.perf.weight_dma import is_prefetched
from npu_opt.dialects.npu.schedule_attrs import (
    ALLOC_ATTR, CASCADE_ATTR, SECOND_BUFFER_ATTR, STREAM_ATTR, STRIPE_ATTR, TIME_ATTR, AllocAttr, CascadeAttr, StreamAttr, StripeAttr,
)
from npu_opt.interpreters.scheduled.layout import gather, scatter
from npu_opt.interpreters.scheduled.placement import Placements, is_constant_value, is_reshape_view
from npu_opt.interpreters.scheduled.weights import WeightStream, channel_slice, output_axis
from npu_opt.ir.attributes import IntegerAttr
from npu_opt.ir.core import OpResult, Operation, Value
from npu_opt.ir.interpreter import (
    InterpretError, Interpreter, Observer, check_sizes, fail, kernel_for, storage_dtype,
)
from npu_opt.ir.traits import ConstantLike, IsTerminator, MemoryOnly
from npu_opt.ir.types import RankedTensorType

FEATURE_MAPS = ("ifm", "ifm2")
"""Operand roles holding feature maps, read row by row when an op runs in stripes."""

FILL_SEED = 0x5EED
"""Seed of the pattern memory starts with (bytes nobody wrote)."""


def _rows_needed(op: Operation, first: int, last: int) -> tuple[int, int]:
    """Rows [lo, hi) of its striped feature maps that OFM rows [first, last) of ``op`` read: the
    npu kernels' window rule for a windowed op; the same rows for any other (an elementwise op
    reads the OFM's rows of every operand of the OFM's height, whichever operand is a broadcast
    row or scalar: those are passed whole, see ``_reads_rows``)."""
    from npu_opt.interpreters.npu.windows import ifm_rows_needed, is_windowed
    if not is_windowed(op):
        return (first, last) if last > first else (first, first)
    return ifm_rows_needed(op, first, last)


def _reads_rows(op: Operation, value: Value, role: str) -> bool:
    """Whether a stripe of ``op`` gets only the window's rows of feature map ``value``: a 4-D
    operand of more than one row (a one-row operand is broadcast, and passed whole), and the
    IFM of a windowed op always (its window may hold no row at all)."""
    from npu_opt.interpreters.npu.windows import is_windowed
    if not _four_d(value):
        return False
    return value.type.shape[1] > 1 or (role == "ifm" and is_windowed(op))


def _roles(op: Operation) -> list[str]:
    """The declared name of each operand of ``op`` (ifm, ifm2, weights, bias, lut ...)."""
    defs = getattr(type(op), "_operand_defs", ())
    names = [d.name for d in defs]
    return [names[i] if i < len(names) else f"operand{i}" for i in range(len(op.operands))]


def _time(op: Operation) -> int:
    attr = op.attr(TIME_ATTR)
    if not isinstance(attr, IntegerAttr):
        raise InterpretError(f"'{op.name}' runs but has no npu.time, so it has no place in the schedule",
                             op.diag_location())
    return attr.value


def _is_executed(op: Operation) -> bool:
    return not (op.has_trait(ConstantLike) or op.has_trait(IsTerminator) or op.has_trait(MemoryOnly))


def _four_d(value: Value) -> bool:
    t = value.type
    return isinstance(t, RankedTensorType) and len(t.shape) == 4


@dataclass
class _OpRun:
    """A compute op's progress through its OFM: rows produced so far and weight copies used."""

    op: Operation
    height: int
    stripe: int | None
    """OFM rows per step (None: the whole OFM in one step, not striped)."""
    stream: WeightStream | None
    produced: int = 0
    copy: int = 0
    full: np.ndarray | None = None
    inputs: list["_OpRun"] = field(default_factory=list)
    """Cascade members whose OFM this op reads (it pulls their stripes)."""

    @property
    def finished(self) -> bool:
        return self.produced >= self.height

    def next_rows(self) -> tuple[int, int]:
        step = self.height if self.stripe is None else self.stripe
        return self.produced, min(self.produced + step, self.height)


MAX_AREA_BYTES = 1 << 28
"""The most bytes of one memory area a run models (a byte array each): beyond any real
accelerator's SRAM and any model's arena, well within a machine's memory."""


class ScheduledRun:
    """One run of a scheduled function (see the module docstring)."""

    def __init__(self, module: Operation, observer: Observer | None = None, func_name: str | None = None) -> None:
        self.func = Interpreter(module).function(func_name)
        block = self.func.regions[0].entry
        assert block is not None
        self.block = block
        self.observer = observer
        self.places = Placements(self.func)
        self.constants: dict[Value, np.ndarray] = {}
        self.memory: dict[str, np.ndarray] = {}
        self.streams: dict[Value, WeightStream] = {}
        self.done: set[Operation] = set()
        self.transfer_time: dict[int, int] = {}
        """id of a weight stream -> the time its DMA's transfer starts."""

    # --- set-up -----------------------------------------------------------------------------------
    def _load_constants(self) -> None:
        for op in self.block.ops:
            if op.has_trait(ConstantLike):
                for value, array in zip(op.results, kernel_for(op)(op, [])):
                    self.constants[value] = array

    def _make_memory(self) -> None:
        ends: dict[str, int] = {}
        for owner in self.places.owners():
            area, end = self.places.extent(owner)
            ends[area] = max(ends.get(area, 0), end)
        for op in self.block.ops:
            for alloc in (op.attr(ALLOC_ATTR), op.attr(SECOND_BUFFER_ATTR)):
                if isinstance(alloc, AllocAttr):
                    ends[alloc.area] = max(ends.get(alloc.area, 0), alloc.end)
        for area, end in sorted(ends.items()):
            if end > MAX_AREA_BYTES:
                raise InterpretError(f"the schedule's allocations span {end} bytes of {area}, more than the "
                                     f"{MAX_AREA_BYTES} bytes a run models per memory area", self.func.diag_location())
        rng = np.random.default_rng(FILL_SEED)
        self.memory = {area: rng.integers(0, 256, size=end, dtype=np.uint8) for area, end in ends.items()}

    def _make_streams(self) -> None:
        for op in self.block.ops:
            stream = op.attr(STREAM_ATTR)
            if not (isinstance(op, DmaOp) and isinstance(stream, StreamAttr)):
                continue
            alloc = self.places.alloc_of(op.results[0])
            consumer = next((u for u in op.results[0].users() if isinstance(u, NpuComputeOp)), None)
            if consumer is None:
                raise fail(op, "its weight stream has no NPU compute op reading it")
            roles = _roles(consumer)
            bias = None
            if "bias" in roles:
                bias_value = consumer.operands[roles.index("bias")]
                bias = self.constants.get(bias_value)
            second = op.attr(SECOND_BUFFER_ATTR)
            self.streams[op.results[0]] = WeightStream(stream, alloc, self._array(op.operands[0]), bias,
                                                       output_axis(consumer.name), self.memory[alloc.area],
                                                       second if isinstance(second, AllocAttr) else None)

    def _write_inputs(self, inputs: Sequence[Any]) -> None:
        if len(inputs) != len(self.block.args):
            raise InterpretError(f"the function takes {len(self.block.args)} input(s), but {len(inputs)} were given",
                                 self.func.diag_location())
        for arg, given in zip(self.block.args, inputs):
            t = arg.type
            array = np.asarray(given)
            if isinstance(t, RankedTensorType):
                if array.size != t.num_elements():
                    raise InterpretError(f"an input of {array.size} element(s) was given for an argument of type "
                                         f"{t} ({t.num_elements()} elements)", self.func.diag_location())
                dtype = storage_dtype(t)
                if dtype.kind in "iu" and array.dtype.kind in "iu" and array.size:
                    info = np.iinfo(dtype)
                    if array.min() < info.min or array.max() > info.max:
                        raise InterpretError(f"an input holds values outside {dtype} for an argument of type {t}",
                                             self.func.diag_location())
                array = array.astype(dtype).reshape(t.shape)
            self._store(arg, array)

    # --- memory access ----------------------------------------------------------------------------
    def _array(self, value: Value, rows: tuple[int, int] | None = None) -> np.ndarray:
        """``value`` (rows [lo, hi) of its H axis when given) as memory holds it now."""
        if is_constant_value(value):
            array = self.constants[value]
            return array[:, rows[0]:rows[1]] if rows is not None else array
        place = self.places.place(value)
        addresses = place.addresses if rows is None else place.addresses[:, rows[0]:rows[1]]
        return gather(self.memory[place.area], addresses, place.dtype)

    def _store(self, value: Value, array: np.ndarray, rows: tuple[int, int] | None = None,
               channels: tuple[int, int] | None = None) -> None:
        place = self.places.place(value)
        addresses = place.addresses
        if rows is not None:
            addresses = addresses[:, rows[0]:rows[1]]
        if channels is not None:
            addresses = addresses[..., channels[0]:channels[1]]
        array = np.asarray(array)
        if array.shape != addresses.shape:
            owner = value.op if isinstance(value, OpResult) else self.func
            raise fail(owner, f"its kernel gave a block of shape {list(array.shape)} where the schedule writes "
                              f"{list(addresses.shape)}")
        scatter(self.memory[place.area], addresses, array.astype(place.dtype, copy=False))

    # --- the timeline -----------------------------------------------------------------------------
    def run(self, inputs: Sequence[Any]) -> list[np.ndarray]:
        check_sizes(self.func)
        self._load_constants()
        self._make_memory()
        self._make_streams()
        self._write_inputs(inputs)
        executed = sorted((op for op in self.block.ops if _is_executed(op)), key=_time)
        step_of = self._step_times(executed)
        fills = self._transfer_starts(executed, step_of)
        for op in executed:
            try:
                self._step(op, executed, step_of, fills)
            except IndexError as err:  # a layout reaching past its memory area: a broken schedule
                raise fail(op, str(err)) from None
        terminator = self.block.last
        assert terminator is not None
        return [np.array(self._array(v)) for v in terminator.operands]

    def _step(self, op: Operation, executed: list[Operation], step_of: dict[Operation, int],
              fills: dict[int, list[WeightStream]]) -> None:
        """The schedule reaches ``op``'s time: start the transfers due, then run it (with its
        whole cascade when it starts one) unless it already ran."""
        if step_of[op] == _time(op):  # a step starts: transfers starting under it begin first
            for stream in fills.pop(step_of[op], []):
                if not stream.written(0):
                    stream.fill(0)
        if op in self.done:
            return
        cascade = op.attr(CASCADE_ATTR)
        if isinstance(cascade, CascadeAttr):
            members = [m for m in executed
                       if step_of[m] == step_of[op] and isinstance(m.attr(CASCADE_ATTR), CascadeAttr)]
            end = _time(members[-1])
            for other in executed:  # ops timed inside the cascade (its DMAs) run before its stripes
                if step_of[op] < _time(other) <= end and other not in members \
                        and not isinstance(other.attr(CASCADE_ATTR), CascadeAttr):
                    self._step(other, executed, step_of, fills)
            self._run_cascade(members)
        elif isinstance(op, DmaOp):
            self._run_dma(op)
        elif isinstance(op, NpuComputeOp):
            self._run_compute(op)
        else:
            self._run_whole(op)

    @staticmethod
    def _step_times(executed: list[Operation]) -> dict[Operation, int]:
        """The time of the step each op runs in: a cascade member's is its cascade's start (the
        time of its first member)."""
        start: dict[int, int] = {}
        for op in executed:
            if isinstance(cascade := op.attr(CASCADE_ATTR), CascadeAttr):
                start[cascade.id] = min(start.get(cascade.id, _time(op)), _time(op))
        return {op: (start[cascade.id] if isinstance(cascade := op.attr(CASCADE_ATTR), CascadeAttr) else _time(op))
                for op in executed}

    def _transfer_starts(self, executed: list[Operation],
                         step_of: dict[Operation, int]) -> dict[int, list[WeightStream]]:
        """Per step time, the weight streams whose first slice is copied as the step starts: the
        DMA's time, or for a prefetched stream the previous non-DMA op's when that is earlier."""
        fills: dict[int, list[WeightStream]] = {}
        compute_times = [_time(op) for op in executed if not isinstance(op, DmaOp)]  # sorted
        at_time = {_time(op): op for op in executed}
        for op in executed:
            stream = self.streams.get(op.results[0]) if isinstance(op, DmaOp) else None
            if stream is None:
                continue
            start = _time(op)
            readers = [_time(u) for u in op.results[0].users() if _is_executed(u)]
            if is_prefetched(op) and readers and start < min(readers):  # (issued after it: no prefetch)
                index = bisect_left(compute_times, min(readers)) - 1
                # (a prefetch issued after the op it fills under copies under that op's last slice,
                # into bytes that slice does not read: run whole here, that op has finished)
                if index >= 0 and compute_times[index] > start:
                    start = compute_times[index]
            fills.setdefault(step_of[at_time[start]], []).append(stream)
            self.transfer_time[id(stream)] = start
        return fills

    # --- ops --------------------------------------------------------------------------------------
    def _notify(self, op: Operation, results: Sequence[np.ndarray]) -> None:
        if self.observer is not None:
            self.observer(op, list(results))

    def _run_whole(self, op: Operation) -> None:
        """A CPU op: its operands from memory, its kernel, its results back to memory."""
        args = [self._array(v) for v in op.operands]
        results = kernel_for(op)(op, args)
        if len(results) != len(op.results):
            raise fail(op, f"its kernel gave {len(results)} result(s) for {len(op.results)}")
        for value, array in zip(op.results, results):
            self._store(value, np.asarray(array).reshape(value.type.shape))
        self.done.add(op)
        self._notify(op, results)

    def _run_dma(self, op: Operation) -> None:
        stream = self.streams.get(op.results[0])
        if stream is not None:
            if not stream.written(0):
                stream.fill(0)
            self.done.add(op)
            self._notify(op, [stream.weights])
            return
        array = self._array(op.operands[0])
        self._store(op.results[0], array)
        self.done.add(op)
        self._notify(op, [array])

    def _op_run(self, op: Operation) -> _OpRun:
        result = op.results[0]
        stripe = op.attr(STRIPE_ATTR)
        four_d = _four_d(result)
        height = result.type.shape[1] if four_d else 1
        rows = stripe.shape[0] if isinstance(stripe, StripeAttr) and four_d else None
        roles = _roles(op)
        stream = None
        if "weights" in roles:
            stream = self.streams.get(op.operands[roles.index("weights")])
        run = _OpRun(op, height, rows, stream)
        if self.observer is not None:
            run.full = np.zeros(result.type.shape, dtype=storage_dtype(result.type))
        return run

    def _run_compute(self, op: Operation) -> None:
        run = self._op_run(op)
        while not run.finished:
            self._stripe(run)
        self._finish(run)

    def _finish(self, run: _OpRun) -> None:
        self.done.add(run.op)
        if run.full is not None:
            self._notify(run.op, [run.full])

    def _run_cascade(self, members: list[Operation]) -> None:
        runs = {op: self._op_run(op) for op in members}
        for run in runs.values():
            for value in run.op.operands:
                while is_reshape_view(value):
                    value = value.op.operands[0]  # type: ignore[attr-defined]
                # a concatenation rolling in the cascade: its parts' writers (same rows, other channels)
                concat = isinstance(value, OpResult) and isinstance(value.op, ConcatOp)
                written = value.op.operands if concat else [value]  # type: ignore[union-attr]
                for part in written:
                    if isinstance(part, OpResult) and part.op in runs:
                        run.inputs.append(runs[part.op])
        last = runs[members[-1]]
        while not last.finished:
            self._pull(last)
        for op in members:  # rows no consumer needed (kept so every member's OFM is complete)
            while not runs[op].finished:
                self._stripe(runs[op])
        for op in members:
            self._finish(runs[op])

    def _pull(self, run: _OpRun) -> None:
        """One stripe of ``run``, after the cascade members it reads have produced its rows."""
        if run.inputs and run.stripe is not None:
            first, last = run.next_rows()
            _, hi = _rows_needed(run.op, first, last)
            for producer in run.inputs:
                while producer.produced < min(hi, producer.height) and not producer.finished:
                    self._pull(producer)
        elif run.inputs:
            for producer in run.inputs:
                while not producer.finished:
                    self._pull(producer)
        self._stripe(run)

    def _stripe(self, run: _OpRun) -> None:
        """Compute ``run``'s next stripe (every weight slice of it) and write it to memory."""
        first, last = run.next_rows()
        rows = (first, last) if run.stripe is not None else None
        stream = run.stream
        if stream is None or stream.copies_per_pass == 1:
            weights = None if stream is None else self._slice_weights(run)
            self._compute(run, rows, None, weights)
        else:
            for c0, c1 in stream.depth_slices:
                self._compute(run, rows, (c0, c1), self._slice_weights(run))
        run.produced = last

    def _slice_weights(self, run: _OpRun) -> tuple[np.ndarray, np.ndarray | None]:
        """The weights of ``run``'s next slice copy from its buffer (copying it, and the next
        one under double buffering, first). The first copy is the DMA's transfer: made when its
        start time's step begins, or at the latest just before the first stripe reading it (a
        DMA timed inside a cascade); a DMA timed after its reader has not run, and the buffer's
        stale bytes are read."""
        stream = run.stream
        assert stream is not None
        copy = 0 if stream.copies_per_pass == 1 else run.copy
        total = None
        if stream.copies_per_pass > 1:
            steps = -(-run.height // run.stripe) if run.stripe is not None else 1
            total = steps * stream.copies_per_pass
            run.copy += 1
        if not stream.written(copy) and (copy > 0 or self.transfer_time[id(stream)] < _time(run.op)):
            stream.fill(copy)
        if stream.stream.buffering == "double" and total is not None and copy + 1 < total \
                and not stream.written(copy + 1):
            stream.fill(copy + 1)
        return stream.read(copy)

    def _compute(self, run: _OpRun, rows: tuple[int, int] | None, channels: tuple[int, int] | None,
                 weights: tuple[np.ndarray, np.ndarray | None] | None) -> None:
        op = run.op
        roles = _roles(op)
        window = _rows_needed(op, *rows) if rows is not None else None
        args: list[np.ndarray | None] = []
        for value, role in zip(op.operands, roles):
            if role in FEATURE_MAPS:
                sliced = window is not None and _reads_rows(op, value, role)
                args.append(self._array(value, window if sliced else None))
            elif role == "weights" and weights is not None:
                args.append(weights[0])
            elif role == "bias" and weights is not None and weights[1] is not None:
                args.append(weights[1])
            elif role in ("weights", "bias") and channels is not None:
                axis = output_axis(op.name) if role == "weights" else 0
                array = self._array(value)
                args.append(channel_slice(array, axis, *channels))
            else:
                args.append(self._array(value))
        keywords: dict[str, tuple[int, int]] = {}
        if rows is not None:
            keywords["ofm_rows"] = rows
        if channels is not None:
            keywords["ofm_channels"] = channels
        results = kernel_for(op)(op, args, **keywords)
        block = np.asarray(results[0])
        self._store(op.results[0], block, rows, channels)
        if run.full is not None:
            r0, r1 = rows if rows is not None else (0, run.height)
            c0, c1 = channels if channels is not None else (0, run.full.shape[-1])
            if _four_d(op.results[0]):
                run.full[:, r0:r1, :, c0:c1] = block
            else:
                run.full[...] = block.reshape(run.full.shape)


def run_scheduled(module: Operation, inputs: Sequence[Any], observer: Observer | None = None,
                  func_name: str | None = None) -> list[np.ndarray]:
    """Run ``module``'s scheduled function (the first, or ``func_name``) on ``inputs`` stripe by
    stripe in memory, and return its outputs as memory holds them at the end."""
    return ScheduledRun(module, observer, func_name).run(inputs)


__all__ = ["ScheduledRun", "run_scheduled"]
