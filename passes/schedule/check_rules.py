"""The graph rules of npu-check-schedule: execution times (1), DMA completion (2), rolling buffers
(5) and weight slices (6), derived from the IR and the rules alone.

Design notes: docs/scheduler_design.md, section Checker: graph rules (check_rules)."""
from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field
from typing import Callable, Iterator

from npu_opt.dialects.npu.attrs import KernelAttr
from npu_opt.dialects.npu.ops_common import NpuComputeOp, shape_of
from npu_opt.dialects.npu.ops_memory import ConcatOp, DmaOp
from npu_opt.hardware.codec.weight_size import SCALE_RECORD_BYTES
from npu_opt.dialects.npu.perf.weight_dma import is_prefetched
from npu_opt.dialects.npu.schedule_attrs import (
    CASCADE_ATTR, STREAM_ATTR, STRIPE_ATTR, TIME_ATTR, CascadeAttr, StreamAttr, StripeAttr,
)
from npu_opt.ir.attributes import IntegerAttr, StringAttr
from npu_opt.ir.core import Block, OpResult, Operation, Value
from npu_opt.ir.traits import ReturnLike
from npu_opt.dialects.npu.execution_order import is_executed, is_view, on_cpu
from npu_opt.passes.schedule.rolling_rows import Member, Window, live_rows, same_rows, window

Report = Callable[[int, str, Operation], None]
"""``report(rule, message, op)``: one violation of ``rule`` located at ``op``."""

SLICE_ALIGN = 16
"""Weight slice boundaries (but the last) are multiples of this OFM depth (the NPU's OFM block
depth granule)."""


@dataclass
class FunctionSchedule:
    """One function's executed ops, their times and the dataflow the rules read."""

    func: Operation
    block: Block
    executed: list[Operation]
    time: dict[Operation, int] = field(default_factory=dict)
    """Executed ops that carry an integer ``npu.time``."""
    _computes: list[tuple[int, Operation]] | None = None

    def previous_op(self, time: int) -> tuple[int, Operation] | None:
        """(time, op) of the last executed non-DMA op issued before ``time``."""
        if self._computes is None:
            self._computes = sorted(((t, op) for op, t in self.time.items() if not isinstance(op, DmaOp)),
                                    key=lambda p: p[0])
        index = bisect_left(self._computes, time, key=lambda p: p[0]) - 1
        return self._computes[index] if index >= 0 else None

    @property
    def start(self) -> int:
        return min(self.time.values(), default=0)

    @property
    def end(self) -> int:
        return max(self.time.values(), default=0)


def function_schedule(block: Block) -> FunctionSchedule:
    """The schedule of the function whose body is ``block``."""
    func = block.parent_op()
    executed = [op for op in block.ops if is_executed(op)]
    sched = FunctionSchedule(func if func is not None else block.last, block, executed)  # type: ignore[arg-type]
    for op in executed:
        attr = op.attr(TIME_ATTR)
        if isinstance(attr, IntegerAttr):
            sched.time[op] = attr.value
    return sched


def label(op: Operation, timed: bool = True) -> str:
    """How a message names an op: its ``name`` (Vela's tensor name), else its op name and (when
    ``timed`` and the message does not say it already) its time."""
    name = op.attr("name")
    if isinstance(name, StringAttr):
        return f"'{name.value}'"
    time = op.attr(TIME_ATTR)
    return f"'{op.name}'" + (f" (time {time.value})" if timed and isinstance(time, IntegerAttr) else "")


def stream_of(op: Operation) -> StreamAttr | None:
    stream = op.attr(STREAM_ATTR)
    return stream if isinstance(stream, StreamAttr) else None


def transfer_start(sched: FunctionSchedule, dma: Operation) -> int | None:
    """When a DMA's transfer starts: its time, or for a prefetched stream the time of the op
    before its (first) reader when that is earlier (see the module docstring)."""
    time = sched.time.get(dma)
    stream = stream_of(dma)
    if time is None or stream is None or not is_prefetched(dma):
        return time
    times = [sched.time[r] for r in readers(dma.results[0])[0] if r in sched.time]
    previous = sched.previous_op(min(times)) if times else None
    return time if previous is None else min(time, previous[0])


def read_producers(op: Operation) -> Iterator[Operation]:
    """The executed ops whose results ``op`` reads, directly or through views (each once)."""
    seen: set[int] = set()
    work = list(op.operands)
    while work:
        value = work.pop()
        producer = value.op if isinstance(value, OpResult) else None
        if producer is None or id(producer) in seen:
            continue
        seen.add(id(producer))
        if is_view(producer):
            work.extend(producer.operands)
        elif is_executed(producer):
            yield producer


def readers(value: Value) -> tuple[list[Operation], bool]:
    """(executed ops reading ``value`` directly or through views, whether a view of it or it
    is returned by the function)."""
    found: list[Operation] = []
    returned = False
    seen: set[int] = set()
    work = [value]
    while work:
        for user in work.pop().users():
            if id(user) in seen:
                continue
            seen.add(id(user))
            if is_view(user):
                work.extend(user.results)
            elif user.has_trait(ReturnLike):
                returned = True
            elif is_executed(user):
                found.append(user)
    return found, returned


def _reads_via(op: Operation, producer: Operation) -> Value | None:
    """The operand of ``op`` through which it reads a result of ``producer`` (through views)."""
    for operand in op.operands:
        work = [operand]
        while work:
            value = work.pop()
            owner = value.op if isinstance(value, OpResult) else None
            if owner is producer:
                return operand
            if owner is not None and is_view(owner):
                work.extend(owner.operands)
    return None


# --- rule 1: every executed op has a unique time after its producers' ----------------------------
def check_times(sched: FunctionSchedule, report: Report) -> None:
    """Rule 1 (DMA producers are rule 2's)."""
    owner: dict[int, Operation] = {}
    for op in sched.executed:
        if op not in sched.time:
            found = op.attr(TIME_ATTR)
            what = "no npu.time" if found is None else f"a non-integer npu.time ({found})"
            report(1, f"{label(op)} is executed but has {what}", op)
            continue
        time = sched.time[op]
        if time in owner:
            report(1, f"{label(op, False)} has time {time}, already the time of {label(owner[time], False)}", op)
        else:
            owner[time] = op
    for op in sched.block.ops:
        if not is_executed(op) and op.attr(TIME_ATTR) is not None and not op.has_trait(ReturnLike):
            report(1, f"{label(op)} does not execute (a view or constant) but has an npu.time", op)
    for op, time in sched.time.items():
        for producer in read_producers(op):
            if isinstance(producer, DmaOp) or producer not in sched.time:
                continue
            if sched.time[producer] > time:  # an equal time is a duplicate, reported above
                report(1, f"{label(op, False)} runs at time {time} but reads the result of {label(producer, False)}, "
                          f"which runs at time {sched.time[producer]}", op)


# --- rule 2: every DMA completes before its readers ----------------------------------------------
def check_dmas(sched: FunctionSchedule, report: Report) -> None:
    """Rule 2: a DMA's time is smaller than each reader's; with ``prefetch`` an NPU op runs
    before the reader to overlap the transfer (see the module docstring)."""
    for dma in sched.executed:
        if not isinstance(dma, DmaOp) or dma not in sched.time:
            continue
        time = sched.time[dma]
        stream = stream_of(dma)
        prefetch = stream is not None and is_prefetched(dma)
        for reader in readers(dma.results[0])[0]:
            if reader not in sched.time:
                continue
            when = sched.time[reader]
            if time >= when:
                report(2, f"DMA {label(dma, False)} runs at time {time}, so it has not completed when "
                          f"{label(reader, False)} reads it at time {when}", dma)
                continue
            if not prefetch:
                continue
            found = sched.previous_op(when)
            previous = found[1] if found is not None else None
            if previous is None or on_cpu(previous):
                before = "nothing runs" if previous is None else f"the op before it is the CPU op {label(previous)}"
                report(2, f"DMA {label(dma)} prefetches the weights of {label(reader)} but {before}, so no NPU op "
                          "hides the transfer", dma)


# --- rule 5: stripes and rolling buffers ----------------------------------------------------------
def _ofm_hwd(op: Operation) -> tuple[int, int, int] | None:
    """Height, width and depth of an op's (4-D) OFM."""
    if not op.results:
        return None
    shape = shape_of(op.results[0])
    return (shape[1], shape[2], shape[3]) if len(shape) == 4 else None


def _stripe_height(op: Operation) -> int | None:
    """The OFM rows an op writes per step: its stripe's height, else its whole OFM's."""
    stripe = op.attr(STRIPE_ATTR)
    if isinstance(stripe, StripeAttr):
        return stripe.shape[0]
    hwd = _ofm_hwd(op)
    return hwd[0] if hwd is not None else None


def input_rows(ofm_h: int, stripe_h: int, kernel: KernelAttr | None, in_h: int,
               upscale: int = 1) -> tuple[int, int, int]:
    """(rows, first, last): the most IFM rows one OFM stripe of ``stripe_h`` rows reads, and
    which. OFM row ``o`` reads rows ``o * stride - pad_top`` .. ``+ dilated kernel height - 1``
    of the (upscaled) padded IFM; rows in the padding are not read, and an upscaled row ``u``
    is IFM row ``u // upscale``."""
    rows = _window(kernel, in_h, upscale)
    best = (0, 0, -1)
    for first_out in range(0, ofm_h, stripe_h):
        low, high = rows(first_out, min(first_out + stripe_h, ofm_h))
        if high - low > best[0]:
            best = (high - low, low, high - 1)
    return best


def _window(kernel: KernelAttr | None, in_h: int, upscale: int) -> Window:
    """The input rows a run of OFM rows reads through ``kernel`` (None: 1x1, unpadded)."""
    if kernel is None:
        return window(1, 1, in_h, upscale)
    return window(kernel.stride_h, kernel.dilated_height, in_h, upscale, (kernel.pad_top, kernel.pad_top))


def _upscale(op: Operation) -> int:
    mode = op.attr("resampling")
    return 1 if mode is None or getattr(mode, "value", "none") == "none" else 2


def check_cascades(sched: FunctionSchedule, report: Report) -> None:
    """Rule 5: stripes fit their OFM; a function's cascade ids count from 0 in the order the
    cascades start; a rolling buffer is read only by members of its cascade and holds the rows the reader's stripe needs
    plus the producer's stripe (at most the producer's whole OFM)."""
    first_of: dict[int, tuple[int, Operation]] = {}
    for op in sched.executed:
        hwd = _ofm_hwd(op)
        stripe = op.attr(STRIPE_ATTR)
        if isinstance(stripe, StripeAttr) and hwd is not None and any(s > o for s, o in zip(stripe.shape, hwd)):
            report(5, f"{label(op)} has stripe {'x'.join(map(str, stripe.shape))}, larger than its OFM "
                      f"{'x'.join(map(str, hwd))}", op)
        elif isinstance(stripe, StripeAttr) and hwd is not None and stripe.shape[1:] != hwd[1:]:
            # (an op steps down its OFM's rows only: a stripe narrower or shallower leaves columns unwritten)
            report(5, f"{label(op)} has stripe {'x'.join(map(str, stripe.shape))}, which does not cover the width "
                      f"and depth of its OFM {'x'.join(map(str, hwd))} (stripes step down the rows only)", op)
        cascade = op.attr(CASCADE_ATTR)
        if not isinstance(cascade, CascadeAttr):
            continue
        if op in sched.time and (cascade.id not in first_of or sched.time[op] < first_of[cascade.id][0]):
            first_of[cascade.id] = (sched.time[op], op)
        if cascade.rolling is not None and hwd is not None:
            _check_rolling(sched, op, cascade, hwd, report)
    for op in sched.block.ops:
        cascade = op.attr(CASCADE_ATTR)
        if isinstance(op, ConcatOp) and isinstance(cascade, CascadeAttr):
            _check_concat_rolling(sched, op, cascade, report)
    for index, (cid, (time, op)) in enumerate(sorted(first_of.items(), key=lambda item: item[1][0])):
        if cid != index:
            report(5, f"cascade {cid} starts with {label(op)} at time {time}, so its id should be {index} (a "
                      "function's cascades are numbered 0, 1, ... in the order they start)", op)


def _check_rolling(sched: FunctionSchedule, producer: Operation, cascade: CascadeAttr,
                   hwd: tuple[int, int, int], report: Report) -> None:
    rolling = cascade.rolling
    assert rolling is not None
    if rolling[1] != hwd[1] or rolling[2] not in (hwd[2], -(-hwd[2] // 16) * 16):
        # (depth: the OFM's, or the same rounded up to whole 16-channel bricks, as NHCWB16 stores it)
        report(5, f"the rolling buffer of {label(producer)} is {rolling[1]} wide and {rolling[2]} deep but its OFM "
                  f"is {hwd[1]} wide and {hwd[2]} deep", producer)
    produced = _stripe_height(producer) or hwd[0]
    reading = readers(producer.results[0])[0]
    members = [r for r in reading if _member(r, cascade.id)]
    if len(members) > 1:
        needed = min(_cascade_rows(sched, producer, cascade.id) + 1, hwd[0])
        if rolling[0] < needed:
            names = " and ".join(label(r) for r in members)
            report(5, f"{names} read the rolling buffer of {label(producer)} (cascade {cascade.id}) at different "
                      f"rows: the last of them still needs {needed - 1} rows written while the others run ahead "
                      f"(one more is kept, as for any rolling buffer), but it holds {rolling[0]} rows "
                      f"(needs {needed})", producer)
            return
    for reader in reading:
        if not _member(reader, cascade.id):
            report(5, f"{label(reader)} reads the rolling buffer of {label(producer)} (cascade {cascade.id}) but is "
                      "not a member of that cascade", reader)
            continue
        operand = _reads_via(reader, producer)
        window = _stripe_window(reader, shape_of(operand)) if operand is not None else None
        if window is None:
            continue
        rows, low, high = window
        needed = min(rows + produced, hwd[0])
        if rolling[0] < needed:
            stripe_h = _stripe_height(reader)
            kernel = reader.attr("kernel")
            kernel = kernel if isinstance(kernel, KernelAttr) else None
            k = "1x1" if kernel is None else f"{kernel.height}x{kernel.width}"
            stride = 1 if kernel is None else kernel.stride_h
            report(5, f"{label(reader)} reads rows {low}..{high} of its input ({rows} rows: stripe {stripe_h}, "
                      f"stride {stride}, kernel {k}) while {label(producer)} writes stripes of {produced} rows, "
                      f"but the rolling buffer holds {rolling[0]} rows (needs {needed})", reader)


def _member(op: Operation, cascade: int) -> bool:
    """Whether ``op`` is a member of cascade ``cascade``."""
    theirs = op.attr(CASCADE_ATTR)
    return isinstance(theirs, CascadeAttr) and theirs.id == cascade


def _stripe_window(reader: Operation, input_shape: tuple[int, ...]) -> tuple[int, int, int] | None:
    """``input_rows`` of one stripe of ``reader`` over its 4-D input of ``input_shape`` (the
    most rows a stripe reads, and which); None for a reader without a 4-D OFM or input."""
    out, stripe_h = _ofm_hwd(reader), _stripe_height(reader)
    if out is None or stripe_h is None or len(input_shape) != 4:
        return None
    kernel = reader.attr("kernel")
    return input_rows(out[0], stripe_h, kernel if isinstance(kernel, KernelAttr) else None, input_shape[1],
                      _upscale(reader))


def _check_concat_rolling(sched: FunctionSchedule, concat: ConcatOp, cascade: CascadeAttr, report: Report) -> None:
    """A concatenation rolling in a cascade (npu-form-cascades' ``cascade-concats``): its parts'
    writers and its readers are members; the buffer has the result's width and depth and, for
    each writer, the rows a reader's stripe reads plus the writer's stripe, and one more than
    the rows written and not yet read while the cascade runs."""
    hwd = _ofm_hwd(concat)
    rolling = cascade.rolling
    if hwd is None or rolling is None:
        report(5, f"{label(concat)} is in cascade {cascade.id} without a rolling buffer shape (a concatenation "
                  "belongs to a cascade only to roll in it)", concat)
        return
    if rolling[1] != hwd[1] or rolling[2] not in (hwd[2], -(-hwd[2] // 16) * 16):
        report(5, f"the rolling buffer of {label(concat)} is {rolling[1]} wide and {rolling[2]} deep but the "
                  f"concatenation is {hwd[1]} wide and {hwd[2]} deep", concat)
    writers = [part.op for part in concat.operands if isinstance(part, OpResult)]
    for writer in writers:
        if not _member(writer, cascade.id):
            report(5, f"{label(writer)} writes a part of {label(concat)}, which rolls in cascade {cascade.id}, but "
                      "is not a member of that cascade", writer)
            return
    reading, _ = readers(concat.results[0])
    for reader in reading:
        if not _member(reader, cascade.id):
            report(5, f"{label(reader)} reads {label(concat)}, which rolls in cascade {cascade.id}, but is not a "
                      "member of that cascade", reader)
            return
    for writer in writers:
        produced = _stripe_height(writer) or hwd[0]
        needed = min(_cascade_rows(sched, writer, cascade.id) + 1, hwd[0])
        why = "rows written and not yet read while the cascade runs, and one more"
        for reader in reading:
            window = _stripe_window(reader, shape_of(concat.results[0]))
            if window is None:
                continue
            rows = window[0]
            if rows + produced > needed:
                needed = min(rows + produced, hwd[0])
                why = f"{label(reader)} reads {rows} rows per stripe while {label(writer)} writes {produced}"
        if rolling[0] < needed:
            report(5, f"the rolling buffer of {label(concat)} (cascade {cascade.id}) holds {rolling[0]} rows but "
                      f"{label(writer)} needs {needed}: {why}", concat)
            return


def _cascade_rows(sched: FunctionSchedule, producer: Operation, cascade: int) -> int:
    """The most rows of ``producer``'s OFM written and not yet read when the members of its
    cascade from it to the last run stripe by stripe (passes/schedule/rolling_rows.py), with
    each reader's exact window (kernel, stride, top padding, upscaling)."""
    span = sorted((op for op in sched.time if _member(op, cascade) and sched.time[producer] <= sched.time[op]),
                  key=lambda op: sched.time[op])
    position = {op: i for i, op in enumerate(span)}
    members: list[Member] = []
    for op in span:
        hwd = _ofm_hwd(op)
        height = hwd[0] if hwd is not None else 1
        inputs = []
        for source in span[:position[op]]:
            operand = _reads_via(op, source)
            if operand is None or len(shape_of(operand)) != 4:
                continue
            kernel = op.attr("kernel")
            rows = _window(kernel, shape_of(operand)[1], _upscale(op)) if isinstance(kernel, KernelAttr) else same_rows
            inputs.append((position[source], rows))
        members.append(Member(height, _stripe_height(op) or height, tuple(inputs)))
    return live_rows(members)[0] if members else 0


# --- rule 6: weight slices ---------------------------------------------------------------------------
def check_streams(sched: FunctionSchedule, report: Report) -> None:
    """Rule 6: a weight stream's slices start at 0, increase, end at the consumer's OFM depth,
    have boundaries on multiples of 16 (but the last), and double buffering has >= 2 slices."""
    for dma in sched.executed:
        stream = dma.attr(STREAM_ATTR)
        if not isinstance(stream, StreamAttr):
            continue
        slices = stream.slices
        consumers = [op for op in readers(dma.results[0])[0] if isinstance(op, NpuComputeOp)] if dma.results else []
        if not consumers:
            report(6, f"{label(dma)} streams weights but no NPU compute op reads them", dma)
            continue
        consumer = consumers[0]
        depth = shape_of(consumer.results[0])[-1]
        problems: list[str] = []  # (the buffers are checked on slices that keep the rules above)
        if slices[0] != 0 or any(b <= a for a, b in zip(slices, slices[1:])):
            problems.append(f"the weight slices {list(slices)} of {label(consumer)} must start at 0 and increase")
        if slices[-1] != depth:
            problems.append(f"the weight slices of {label(consumer)} end at depth {slices[-1]} but its OFM depth is "
                            f"{depth}")
        odd = [b for b in slices[1:-1] if b % SLICE_ALIGN]
        if odd:
            problems.append(f"weight slice boundary {odd[0]} of {label(consumer)} is not a multiple of {SLICE_ALIGN}")
        if stream.buffering == "double" and len(slices) - 1 < 2:
            problems.append(f"{label(dma)} double-buffers the weights of {label(consumer)} in {len(slices) - 1} "
                            "slice (double buffering needs at least 2)")
        for message in problems:
            report(6, message, dma)
        if not problems:
            _check_stream_buffers(dma, consumer, stream, report)


def _check_stream_buffers(dma: Operation, consumer: Operation, stream: StreamAttr, report: Report) -> None:
    """Rule 6: slice ``i`` goes to buffer ``i mod buffers``, so the buffers hold each slice (at
    least its channels' scale records, which no encoding shrinks) and, slice by slice, the
    stream's bytes (the bytes are the slices' sum)."""
    buffers, slices = stream.buffers, stream.slices
    held = sum(buffers[i % len(buffers)] for i in range(len(slices) - 1))
    if held < stream.bytes:
        report(6, f"the weight stream of {label(consumer)} is {stream.bytes} bytes but its {len(slices) - 1} "
                  f"slice(s) in buffers of {list(buffers)} bytes hold at most {held}", dma)
        return
    for index, (d0, d1) in enumerate(zip(slices, slices[1:])):
        records = SCALE_RECORD_BYTES * (d1 - d0)
        if records > buffers[index % len(buffers)]:
            report(6, f"weight slice {d0}..{d1} of {label(consumer)} needs at least {records} bytes (its "
                      f"{d1 - d0} channels' scale records) but its buffer holds {buffers[index % len(buffers)]}", dma)
            return


__all__ = ["FunctionSchedule", "Report", "check_cascades", "check_dmas", "check_streams", "check_times",
           "function_schedule", "input_rows", "label", "read_producers", "readers", "stream_of", "transfer_start"]
