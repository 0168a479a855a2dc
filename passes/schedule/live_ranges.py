"""Storage live ranges of a scheduled function: which tensors need bytes, where, how many, and when;
what npu-allocate packs and the limit checks sum.

Design notes: docs/scheduler_design.md, section Storage live ranges (live_ranges)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Hashable, Iterable, Literal, Protocol, Sequence

from npu_opt.dialects.npu.interfaces import costed
from npu_opt.hardware.op_kind import OpKind
from npu_opt.dialects.npu.ops_common import NpuOp, element_bytes, encoding_of, feature_map, is_constant
from npu_opt.dialects.npu.perf.weight_dma import is_prefetched
from npu_opt.dialects.npu.schedule_attrs import CASCADE_ATTR, STREAM_ATTR, TIME_ATTR, CascadeAttr, StreamAttr
from npu_opt.ir.attributes import IntegerAttr
from npu_opt.ir.core import Block, OpResult, Operation, Value
from npu_opt.ir.traits import ReturnLike
from npu_opt.ir.types import RankedTensorType
from npu_opt.dialects.npu.execution_order import concat_user, execution_order, on_cpu, storage_home
from npu_opt.passes.schedule.vela_spans import remembered_weight_dmas, vela_ranks, vela_span, vela_steps

RangeKind = Literal["input", "output", "feature_map", "rolling", "weights"]
"""What a range holds: a graph input, a graph output, an intermediate feature map, a cascade's
rolling buffer, or weights copied into fast storage by a DMA."""


class Interval(Protocol):
    """What an allocator needs of a range: when it is live and how many bytes it takes.
    ``content``: ranges with equal non-None contents hold the same data (copies of one constant)."""

    first: int
    last: int
    size: int
    content: Hashable | None


@dataclass
class LiveRange:
    """One piece of storage and the values sharing it (``values[0]`` owns it)."""

    values: list[Value]
    area: str
    size: int
    """Storage bytes (not yet rounded to the allocation alignment)."""
    first: int
    last: int
    kind: RangeKind = "feature_map"
    content: Hashable | None = None
    """Equal non-None contents mean identical, unchanging data: a DMA copy of a whole constant
    (a stream cut into several slices refills its buffer, so it has none)."""
    prefetch_from: int | None = None
    """Only with ``prefetch_overlap``, for a prefetched weight stream (whose range then starts at
    its first reader): when its transfer would start, the earlier of the DMA's time and the
    previous NPU op's."""
    second: bool = False
    """The second buffer of a double-buffered weight stream (its owner is the DMA's result, whose
    own range is the first buffer): live from the reader's time."""
    late_from: int | None = None
    """For a prefetched weight buffer starting before its reader, the time of the NPU op it fills
    under: it holds data from the second half of that time on, while that op computes its last
    slice (module docstring)."""
    fills_under: int | None = None
    """Only with ``prefetch_overlap``, for a prefetched weight buffer: the time of the NPU op it
    fills under (the settling may let it take that op's freed double-buffer tail)."""
    early_end: bool = False
    """The buffer of a double-buffered weight stream its last slice does not read: free in the
    second half of its last time (module docstring)."""
    vela: tuple[int, int] | None = None
    """Its (start, end) in Vela's live-range time, which orders the hill-climb allocation as
    Vela's (passes/schedule/vela_spans.py)."""
    vela_rank: int | None = None
    """The order in which Vela's live-range walk first meets it (``vela_ranks``): the allocation's
    tie-break and neighbour order."""

    @property
    def owner(self) -> Value:
        return self.values[0]

    def overlaps(self, other: "Interval") -> bool:
        """Whether both are live at some common time."""
        return self.first <= other.last and other.first <= self.last


def half_steps(r: Interval) -> tuple[int, int]:
    """The first and last half step (two per time index) at which ``r`` holds data: a range
    with ``late_from`` starts in the second half of that time, an ``early_end`` one ends with the
    first half of its last."""
    late = getattr(r, "late_from", None)
    return (2 * r.first if late is None else 2 * max(r.first, late) + 1,
            2 * r.last + (0 if getattr(r, "early_end", False) else 1))


def in_half_steps(ranges: Sequence[Interval]) -> list[SimpleRange]:
    """``ranges`` with their times in half steps (``half_steps``), for allocators and usage."""
    return [SimpleRange(*half_steps(r), r.size, r.content) for r in ranges]


def tail_sharing(ranges: Sequence[Interval]) -> list[tuple[int, int]]:
    """(early, late) index pairs: a buffer free in the second half of its last time and a
    prefetched buffer starting then, the only ranges whose half steps keep them apart though
    their time indices meet."""
    ends: dict[int, list[int]] = {}
    for i, r in enumerate(ranges):
        if getattr(r, "early_end", False):
            ends.setdefault(r.last, []).append(i)
    return [(e, i) for i, r in enumerate(ranges) if getattr(r, "late_from", None) is not None
            for e in ends.get(max(r.first, r.late_from), ())]  # type: ignore[attr-defined]


@dataclass(frozen=True)
class SimpleRange:
    """An ``Interval`` without IR values (unit tests, benchmarks)."""

    first: int
    last: int
    size: int
    content: Hashable | None = None


def align(size: int, alignment: int) -> int:
    """``size`` rounded up to a multiple of ``alignment``."""
    return -(-size // alignment) * alignment if alignment > 1 else size


# --- per-value facts -----------------------------------------------------------------------------
def storage_bytes(value: Value) -> int:
    """Bytes ``value`` takes in memory (NHCWB16: depth rounded up to 16)."""
    t = value.type
    shape = list(t.shape) if isinstance(t, RankedTensorType) else []
    shape = shape or [1]
    enc = encoding_of(value)
    if enc is not None and enc.format == "NHCWB16":
        shape[-1] = align(shape[-1], 16)
    count = 1
    for dim in shape:
        count *= max(dim, 0)
    return count * element_bytes(value)


def rolling_bytes(value: Value, rolling: tuple[int, int, int]) -> int:
    """Bytes of a cascade's rolling buffer of shape ``rolling`` (HxWxD, NHCWB16) for ``value``."""
    height, width, depth = rolling
    return height * width * align(depth, 16) * element_bytes(value)


def _stored(value: Value) -> bool:
    """Whether ``value`` is a tensor that may need scratch storage (constants do not)."""
    return isinstance(value.type, RankedTensorType) and not is_constant(value)


def _shape4(value: Value) -> tuple[int, ...]:
    shape = tuple(value.type.shape)  # type: ignore[attr-defined]
    return (1,) * (4 - len(shape)) + shape if len(shape) <= 4 else shape


def op_times(block: Block) -> tuple[list[Operation], dict[Operation, int]]:
    """The executed ops of ``block`` in schedule order, and each one's time index (``npu.time``,
    or the position in IR order when npu-order has not run). ValueError as ``execution_order``."""
    order = execution_order(block)
    times: dict[Operation, int] = {}
    for index, op in enumerate(order):
        attr = op.attr(TIME_ATTR)
        times[op] = attr.value if isinstance(attr, IntegerAttr) else index  # type: ignore[assignment]
    return order, times


def op_at(block: Block, time: int, order: list[Operation] | None = None) -> Operation | None:
    """The executed op of ``block`` whose time index is ``time`` (None: no op runs then); with
    ``order``, the op at that position of it."""
    if order is not None:
        return order[time] if 0 <= time < len(order) else None
    order, times = op_times(block)
    return next((op for op in order if times[op] == time), None)


# --- extraction ---------------------------------------------------------------------------------
@dataclass
class _Home:
    """A range under construction."""

    values: dict[Value, None] = field(default_factory=dict)
    first: int | None = None
    last: int = 0
    kind: RangeKind = "feature_map"


class _Extraction:
    """The state of one ``live_ranges`` call (see the module docstring for the rules)."""

    def __init__(self, block: Block, target: object, prefetch_overlap: bool = False,
                 order: list[Operation] | None = None) -> None:
        self.block = block
        self.target = target
        self.prefetch_overlap = prefetch_overlap
        if order is None:
            self.order, self.times = op_times(block)
        else:
            self.order, self.times = order, {op: index for index, op in enumerate(order)}
        self.position = {op: index for index, op in enumerate(self.order)}
        self.end = max(self.times.values(), default=0)
        self.homes: dict[Value, _Home] = {}
        self._home_of: dict[Value, Value] = {}
        """Each value's storage home once looked up (the IR does not change during one call)."""
        self.seconds: list[LiveRange] = []
        """The second buffers of double-buffered weight streams, made by ``build``."""
        self.cascade_start: dict[int, int] = {}  # cascade id -> time of its first member
        self.cascade_end: dict[int, int] = {}
        for op in self.order:
            cascade = op.attr(CASCADE_ATTR)
            if isinstance(cascade, CascadeAttr):
                time = self.times[op]
                self.cascade_start[cascade.id] = min(self.cascade_start.get(cascade.id, time), time)
                self.cascade_end[cascade.id] = max(self.cascade_end.get(cascade.id, time), time)

    def span(self, op: Operation) -> tuple[int, int]:
        """When ``op`` writes (first) and reads (last): a cascade member runs over the cascade."""
        cascade = op.attr(CASCADE_ATTR)
        if isinstance(cascade, CascadeAttr):
            return self.cascade_start[cascade.id], self.cascade_end[cascade.id]
        time = self.times[op]
        return time, time

    def home(self, value: Value) -> Value:
        """``storage_home(value)``, looked up once per value in this call."""
        found = self._home_of.get(value)
        if found is None:
            found = self._home_of[value] = storage_home(value)
        return found

    def entry(self, value: Value) -> tuple[Value, _Home]:
        key = self.home(value)
        record = self.homes.get(key)
        if record is None:
            record = self.homes[key] = _Home()
            record.values[key] = None
        record.values.setdefault(value, None)
        return key, record

    def touch(self, value: Value, first: int | None, last: int) -> None:
        if not _stored(value):
            return
        _, record = self.entry(value)
        if first is not None:
            record.first = first if record.first is None else min(record.first, first)
        record.last = max(record.last, last)

    def collect(self) -> None:
        for arg in self.block.args:
            self.touch(arg, 0, 0)
            if _stored(arg):
                self.entry(arg)[1].kind = "input"
        for op in self.order:
            first, last = self.span(op)
            for value in op.operands:
                self.touch(value, None, last)
            for value in op.results:
                self.touch(value, first, first)
        terminator = self.block.last
        if terminator is not None and terminator.has_trait(ReturnLike):
            for value in terminator.operands:
                if _stored(value):
                    self.touch(value, None, self.end)
                    record = self.entry(value)[1]
                    if record.kind == "feature_map":
                        record.kind = "output"

    def prefetch_start(self, dma: Operation) -> int:
        """The time of the NPU op (not a DMA) running just before ``dma``'s first reader when
        earlier than the DMA's own time (npu-check-schedule's transfer start), else the DMA's."""
        under = self.prefetched_under(dma)
        return self.times[dma] if under is None else min(under, self.times[dma])

    def prefetched_under(self, dma: Operation) -> int | None:
        """The time of the NPU op (not a DMA) running just before ``dma``'s first reader, if any
        (not across a CPU op): the op a prefetch of ``dma`` fills under."""
        readers = [self.position[op] for op in dma.results[0].users() if op in self.position]
        start = min(readers, default=self.position[dma])
        for index in range(start - 1, -1, -1):
            earlier = self.order[index]
            if on_cpu(earlier):
                break
            interface = costed(earlier)
            if isinstance(earlier, NpuOp) and (interface is None or interface.kind is not OpKind.DMA):
                return self.times[earlier]
        return None

    def build(self, value: Value, record: _Home) -> LiveRange:
        """The LiveRange of one home, with the size and start its producer's attributes give."""
        first = record.first if record.first is not None else record.last
        size = storage_bytes(value)
        kind = record.kind
        area = feature_map(value, self.target).area
        content: Hashable | None = None
        prefetch_from: int | None = None
        late_from: int | None = None
        fills_under: int | None = None
        early_end = False
        producer = value.op if isinstance(value, OpResult) else None
        if producer is not None:
            cascade = producer.attr(CASCADE_ATTR)
            if isinstance(cascade, CascadeAttr) and cascade.rolling is not None:
                size = rolling_bytes(value, cascade.rolling)
                kind = "rolling"
                first = min(first, self.cascade_start[cascade.id])
                record.last = max(record.last, self.cascade_end[cascade.id])
            interface = costed(producer)
            if interface is not None and interface.kind is OpKind.DMA:
                source = producer.operands[0]
                stream = producer.attr(STREAM_ATTR)
                if isinstance(stream, StreamAttr):
                    size = stream.buffer_bytes
                    readers = [self.times[op] for op in value.users() if op in self.times]
                    if is_prefetched(producer) and producer in self.times:
                        start = min(first, self.prefetch_start(producer))
                        if not self.prefetch_overlap:
                            first = start
                            under = self.prefetched_under(producer)
                            if readers and start < min(readers) and under is not None:
                                late_from = under
                        elif readers and min(readers) > start:
                            first, prefetch_from = min(readers), start
                            fills_under = self.prefetched_under(producer)
                    if stream.buffering == "double" and len(stream.buffers) == 2 and readers:
                        size = stream.buffers[0]  # (the first buffer; the second is live from its reader)
                        filled = max(first, min(readers))
                        last_reads_second = (len(stream.slices) - 1) % 2 == 0
                        early_end = last_reads_second
                        self.seconds.append(LiveRange([value], area, stream.buffers[1], filled,
                                                      max(filled, record.last), "weights", second=True,
                                                      early_end=not last_reads_second))
                if is_constant(source):
                    kind = "weights"
                    if not isinstance(stream, StreamAttr) or len(stream.slices) == 2:
                        content = (id(source), size)  # the whole constant: identical bytes
        return LiveRange(list(record.values), area, size, first, max(first, record.last), kind, content,
                         prefetch_from, late_from=late_from, early_end=early_end, fills_under=fills_under)


def rolling_concat(value: Value) -> Operation | None:
    """The concatenation ``value`` is a part of when that concatenation rolls in a cascade
    (``#npu.cascade<ID, rolling = ...>`` on the ``npu.concat``: cascade concats): the part is
    written into its rolling buffer. None otherwise."""
    concat = concat_user(value)
    cascade = concat.attr(CASCADE_ATTR) if concat is not None else None
    return concat if isinstance(cascade, CascadeAttr) and cascade.rolling is not None else None


def _storage_type(value: Value) -> object:
    """The element type as stored: a quantised type's storage integer (an OFM overwrites an IFM
    of another quantisation, as Vela compares data types only)."""
    element = getattr(value.type, "element_type", value.type)
    return getattr(element, "storage_type", element)


def _fusable_ifm(op: Operation, ranges: dict[Value, LiveRange], other_run: set[Value] = frozenset(),
                 home: Callable[[Value], Value] = storage_home) -> Value | None:
    """The IFM whose storage ``op``'s OFM may overwrite in place, if any (module docstring);
    ``other_run``: values an earlier NPU run handed over, never overwritten; ``home``: how a
    value's storage home is found."""
    interface = costed(op)
    if (not isinstance(op, NpuOp) or interface is None or len(op.results) != 1
            or not (interface.kind.is_elementwise or interface.kind is OpKind.DMA)
            or op.attr(STREAM_ATTR) is not None or op.attr(CASCADE_ATTR) is not None):
        return None
    ofm = op.results[0]
    out = ranges.get(ofm)
    if out is None or out.kind not in ("feature_map", "output") or home(ofm) is not ofm:
        return None
    for ifm in op.operands[:2]:
        source = ranges.get(ifm)
        if source is None or home(ifm) is not ifm or source.kind not in ("feature_map", "input"):
            continue
        if len(ifm.uses) != 1 or source.area != out.area or ifm in other_run:
            continue
        if _shape4(ifm) != _shape4(ofm) or _storage_type(ifm) != _storage_type(ofm):
            continue
        in_fmt = getattr(encoding_of(ifm), "format", "NHWC")
        if in_fmt != getattr(encoding_of(ofm), "format", "NHWC"):
            continue
        return ifm
    return None


def _handed_over(order: list[Operation]) -> set[Value]:
    """Results of NPU ops that an NPU op of a later run reads (an NPU run's output passed
    through the CPU's side, which Vela keeps write-protected for every later reader)."""
    run: dict[Operation, int] = {}
    current = 0
    for op in order:
        if on_cpu(op):
            current += 1
        else:
            run[op] = current
    return {value for op in run for value in op.operands
            if isinstance(value, OpResult) and value.op in run and run[value.op] != run[op]}


def live_ranges(block: Block, target: object, fuse_in_place: bool = True,
                prefetch_overlap: bool = False, order: list[Operation] | None = None) -> list[LiveRange]:
    """The storage live ranges of the function body ``block`` on ``target`` (a ``Target``), in
    order of first time, then of first appearance (arguments, then ops in schedule order).

    ``fuse_in_place``: let elementwise ops write over their IFM; ``prefetch_overlap``: start a
    prefetched weight buffer at its first reader, keeping the transfer's start as
    ``prefetch_from`` (module docstring); ``order``: the executed ops in the order to plan for
    (each one's position its time), instead of the order ``npu.time`` records. Raises ValueError
    when only some executed ops carry ``npu.time``."""
    state = _Extraction(block, target, prefetch_overlap, order)
    state.collect()
    built = {value: state.build(value, record) for value, record in state.homes.items()}
    if fuse_in_place:
        merged: dict[Value, LiveRange] = {}  # a home -> the range it joined
        handed = _handed_over(state.order)
        for op in state.order:
            view = {v: merged.get(v, r) for v, r in ((v, built.get(v)) for v in (*op.operands, *op.results))
                    if r is not None}
            ifm = _fusable_ifm(op, view, handed, state.home)
            if ifm is None:
                continue
            into, gone = view[ifm], view[op.results[0]]
            into.values.extend(v for v in gone.values if v not in into.values)
            into.first, into.last = min(into.first, gone.first), max(into.last, gone.last)
            into.size = max(into.size, gone.size)
            if gone.kind == "output":
                into.kind = "output"
            for value in gone.values:
                merged[value] = into
        result = [r for v, r in built.items() if v not in merged]
    else:
        result = list(built.values())
    result += state.seconds  # (the second buffers, which ``build`` made)
    weight_dma = remembered_weight_dmas()
    steps, end = vela_steps(state.order, weight_dma)
    at = {time: op for op, time in state.times.items()}
    for r, rank in zip(result, vela_ranks(block, state.order, result, weight_dma, state.home)):
        r.vela = vela_span(r, at, steps, end, weight_dma)
        r.vela_rank = rank
    position = {id(r): i for i, r in enumerate(result)}
    return sorted(result, key=lambda r: (r.first, position[id(r)]))


# --- usage --------------------------------------------------------------------------------------
def memory_usage(ranges: Iterable[Interval], area: str | None = None, alignment: int = 1,
                 length: int | None = None) -> list[int]:
    """Bytes live at each time 0..max(last) of ``ranges`` in ``area`` (every range when None),
    sizes rounded up to ``alignment``; ``length`` fixes the list's length."""
    chosen = [r for r in ranges if area is None or getattr(r, "area", area) == area]
    size = length if length is not None else max((r.last for r in chosen), default=-1) + 1
    change = [0] * (size + 1)
    for r in chosen:
        if r.first < size:
            change[max(r.first, 0)] += align(r.size, alignment)
            change[min(r.last, size - 1) + 1] -= align(r.size, alignment)
    usage: list[int] = []
    live = 0
    for delta in change[:size]:
        live += delta
        usage.append(live)
    return usage


def lower_bound(ranges: Iterable[Interval], area: str | None = None, alignment: int = 1) -> int:
    """The most bytes live at one time: no allocation of ``ranges`` in ``area`` can use less."""
    return max(memory_usage(ranges, area, alignment), default=0)


def live_at(ranges: Sequence[LiveRange], time: int) -> list[LiveRange]:
    """The ranges holding data at ``time``."""
    return [r for r in ranges if r.first <= time <= r.last]


__all__ = ["Interval", "LiveRange", "RangeKind", "SimpleRange", "align", "half_steps", "in_half_steps", "live_at",
           "live_ranges", "lower_bound", "memory_usage", "op_times", "rolling_bytes", "rolling_concat", "storage_bytes",
           "tail_sharing"]
