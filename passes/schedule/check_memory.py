"""The memory rules of npu-check-schedule: allocations (rule 3) and memory limits (rule 4), checked
by one O(N log N) sweep over time.

Design notes: docs/scheduler_design.md, section Checker: memory rules (check_memory)."""
from __future__ import annotations

import heapq
from bisect import bisect_left
from dataclasses import dataclass, field
from typing import Callable, Sequence

from npu_opt.dialects.npu.ops_common import element_bytes, encoding_of, shape_of
from npu_opt.dialects.npu.ops_elementwise import BinaryElementwiseOp, LutOp, UnaryElementwiseOp
from npu_opt.dialects.npu.ops_memory import DmaOp
from npu_opt.dialects.npu.perf.weight_dma import is_prefetched
from npu_opt.dialects.npu.schedule_attrs import (
    ALLOC_ATTR, ARG_ALLOC_ATTR, CASCADE_ATTR, SECOND_BUFFER_ATTR, STREAM_ATTR, AllocAttr, CascadeAttr, StreamAttr,
)
from npu_opt.ir.attributes import ArrayAttr
from npu_opt.ir.core import BlockArgument, OpResult, Operation, Value
from npu_opt.ir.traits import ReturnLike
from npu_opt.dialects.npu.execution_order import is_executed, is_view, storage_home
from npu_opt.passes.schedule.check_rules import FunctionSchedule, Report, label, transfer_start
from npu_opt.passes.schedule.live_ranges import rolling_concat

IN_PLACE_OPS = (BinaryElementwiseOp, UnaryElementwiseOp, LutOp)
"""Ops that may write their OFM over an IFM they read."""


# --- the sweep ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Rect:
    """An allocation as a rectangle: live times [first, last] (inclusive) x bytes [offset, end)."""

    first: int
    last: int
    offset: int
    end: int
    late_from: int | None = None
    """Holds data from the second half of this time on (a prefetch under that op's last slice)."""
    early_end: bool = False
    """Free in the second half of ``last`` (a double buffer its stream's last slice does not read)."""

    @property
    def start2(self) -> int:
        """The first half step at which the rectangle holds data."""
        return 2 * self.first if self.late_from is None else 2 * max(self.first, self.late_from) + 1

    @property
    def stop2(self) -> int:
        """The last half step at which the rectangle holds data."""
        return 2 * self.last + (0 if self.early_end else 1)


@dataclass
class SweepResult:
    conflicts: list[tuple[int, int]] = field(default_factory=list)
    """(earlier, later) indices: ``later`` overlaps ``earlier``, which was live first."""
    shared: list[tuple[int, int]] = field(default_factory=list)
    """(before, after) pairs accepted by ``may_share`` (``after`` took ``before``'s bytes)."""
    comparisons: int = 0


def sweep(rects: Sequence[Rect], may_share: Callable[[int, int], bool] | None = None) -> SweepResult:
    """Rectangles (of one memory area) that overlap a rectangle live before them.

    In order of (first, offset, index), each non-empty rectangle is compared with the live
    rectangles next to it by offset. If it overlaps one, that is reported as a conflict and the
    rectangle is not made live, unless it has the same bytes as the one it overlaps, starts when
    that one ends (or is identical to it), and ``may_share(that, it)``: then it replaces that one. So the live set never
    holds two overlapping rectangles, and a rectangle is reported iff it overlaps a rectangle
    made live before it (the result is empty iff no two rectangles overlap, shared pairs aside)."""
    result = SweepResult()
    order = sorted((i for i, r in enumerate(rects) if r.end > r.offset), key=lambda i: (rects[i].start2, rects[i].offset, i))
    offsets: list[int] = []
    live: list[int] = []
    expiry: list[tuple[int, int, int]] = []  # (last half step, offset, index)
    for index in order:
        rect = rects[index]
        while expiry and expiry[0][0] < rect.start2:
            _, offset, gone = heapq.heappop(expiry)
            at = bisect_left(offsets, offset)
            if at < len(live) and live[at] == gone:
                del offsets[at], live[at]
        at = bisect_left(offsets, rect.offset)
        other = -1
        result.comparisons += 1
        if at > 0 and rects[live[at - 1]].end > rect.offset:
            other, at = live[at - 1], at - 1
        elif at < len(live):
            result.comparisons += 1
            if rects[live[at]].offset < rect.end:
                other = live[at]
        if other < 0:
            offsets.insert(at, rect.offset)
            live.insert(at, index)
        else:
            before = rects[other]
            if ((before.offset, before.end) == (rect.offset, rect.end) and (before.last == rect.first or before == rect)
                    and may_share is not None and may_share(other, index)):
                live[at] = index
                result.shared.append((other, index))
            else:
                result.conflicts.append((other, index))
                continue
        heapq.heappush(expiry, (rect.stop2, rect.offset, index))
    return result


# --- storage groups ------------------------------------------------------------------------------------
def storage_bytes(value: Value) -> int:
    """Bytes ``value`` occupies: elements x storage width (at least a byte), NHCWB16 rounding the
    depth up to 16."""
    shape = list(shape_of(value)) or [1]
    encoding = encoding_of(value)
    if encoding is not None and encoding.format == "NHCWB16":
        shape[-1] = (shape[-1] + 15) // 16 * 16
    count = 1
    for dim in shape:
        count *= dim
    return count * element_bytes(value)


def required_bytes(value: Value, second: bool = False) -> tuple[int, str]:
    """(bytes an allocation of ``value`` must reserve, why); ``second``: of the second buffer of
    the double-buffered weight stream ``value`` is (``npu.second_buffer``)."""
    concat = rolling_concat(value)
    if concat is not None:
        # a part of a concatenation rolling in a cascade: written into the concatenation's buffer
        needed, why = required_bytes(concat.results[0])
        return needed, f"a part of {label(concat)}, {why}"
    op = value.op if isinstance(value, OpResult) else None
    cascade = op.attr(CASCADE_ATTR) if op is not None else None
    if isinstance(cascade, CascadeAttr) and cascade.rolling is not None:
        h, w, d = cascade.rolling
        encoding = encoding_of(value)
        if encoding is not None and encoding.format == "NHCWB16":
            d = (d + 15) // 16 * 16
        shape = shape_of(value)
        batch = shape[0] if len(shape) == 4 else 1
        return batch * h * w * d * element_bytes(value), f"the rolling buffer {h}x{w}x{cascade.rolling[2]}"
    stream = op.attr(STREAM_ATTR) if isinstance(op, DmaOp) else None
    if isinstance(stream, StreamAttr):
        if len(stream.buffers) == 2 and isinstance(op.attr(SECOND_BUFFER_ATTR), AllocAttr):
            which = 1 if second else 0
            return stream.buffers[which], f"the {('first', 'second')[which]} buffer of its double-buffered weight stream"
        return stream.buffer_bytes, f"its {stream.buffering}-buffered weight stream"
    shape = "x".join(map(str, shape_of(value))) or "scalar"
    encoding = encoding_of(value)
    return storage_bytes(value), f"{shape}{' NHCWB16' if encoding is not None and encoding.format == 'NHCWB16' else ''}"


@dataclass
class Allocation:
    value: Value
    attr: AllocAttr
    at: Operation
    """Where errors about it are reported (the defining op, or the function for an argument)."""
    name: str


@dataclass
class Group:
    """A storage group: its home, allocations, writers and readers."""

    home: Value
    allocations: list[Allocation] = field(default_factory=list)
    members: list[Value] = field(default_factory=list)
    written: int | None = None
    read: int | None = None
    returned: bool = False
    second: bool = False
    """The second buffer of a double-buffered weight stream (``home`` is the DMA's result; the
    group has no members: it holds no value, only the slices the reader reads from it)."""


@dataclass(frozen=True)
class SecondBuffer:
    """The key of a weight stream's second buffer among the storage groups (its DMA's result
    keys the first)."""

    dma: Value


def _value_name(value: Value, sched: FunctionSchedule) -> str:
    if isinstance(value, BlockArgument):
        return f"argument #{value.index}"
    return label(value.op)  # type: ignore[attr-defined]


def collect(sched: FunctionSchedule, report: Report) -> dict[Value | SecondBuffer, Group]:
    """The function's storage groups with their allocations (reporting malformed ``npu.arg_alloc``)."""
    groups: dict[Value | SecondBuffer, Group] = {}

    def group_of(value: Value) -> Group:
        root = storage_home(value)
        group = groups.get(root)
        if group is None:
            group = groups[root] = Group(root)
        group.members.append(value)
        return group

    args = sched.block.args
    arg_allocs = sched.func.attr(ARG_ALLOC_ATTR)
    entries = list(arg_allocs.elements) if isinstance(arg_allocs, ArrayAttr) else []
    if arg_allocs is not None and len(entries) != len(args):
        report(3, f"npu.arg_alloc has {len(entries)} entries for {len(args)} arguments", sched.func)
    for arg, entry in zip(args, entries):
        if isinstance(entry, AllocAttr):
            group_of(arg).allocations.append(Allocation(arg, entry, sched.func, f"argument #{arg.index}"))
    for arg in args[len(entries):]:
        group_of(arg)
    read_until = _read_times(sched)
    for op in sched.block.ops:
        if not op.results or op.has_trait(ReturnLike):
            continue
        attr = op.attr(ALLOC_ATTR)
        for result in op.results:
            group = group_of(result)
            if isinstance(attr, AllocAttr) and result.index == 0:
                group.allocations.append(Allocation(result, attr, op, label(op)))
        second = op.attr(SECOND_BUFFER_ATTR)
        if isinstance(second, AllocAttr):
            group = groups[SecondBuffer(op.results[0])] = Group(op.results[0], second=True)
            group.allocations.append(Allocation(op.results[0], second, op, f"the second buffer of {label(op)}"))
            readers = [user for user in op.results[0].users() if user in sched.time]
            if readers:
                group.written = min(sched.time[user] for user in readers)
                group.read = max(read_until[user] for user in readers)
    for group in groups.values():
        for value in group.members:  # (none in a second buffer's group: its times are its reader's)
            owner = value.op if isinstance(value, OpResult) else None
            if owner is not None and owner in sched.time:
                group.written = _min(group.written, sched.time[owner])
            elif isinstance(value, BlockArgument):
                group.written = _min(group.written, sched.start)
            for user in value.users():
                if user.has_trait(ReturnLike):
                    group.returned = True
                elif user in sched.time:
                    time = read_until[user]
                    group.read = time if group.read is None else max(group.read, time)
    return groups


def _read_times(sched: FunctionSchedule) -> dict[Operation, int]:
    """Until when each timed op reads its operands: its time, or for a cascade member
    (``#npu.cascade<ID>``) the time of its cascade's last member."""
    ends: dict[int, int] = {}
    for op, time in sched.time.items():
        cascade = op.attr(CASCADE_ATTR)
        if isinstance(cascade, CascadeAttr):
            ends[cascade.id] = max(ends.get(cascade.id, time), time)
    result: dict[Operation, int] = {}
    for op, time in sched.time.items():
        cascade = op.attr(CASCADE_ATTR)
        result[op] = ends[cascade.id] if isinstance(cascade, CascadeAttr) else time
    return result


def _min(a: int | None, b: int) -> int:
    return b if a is None else min(a, b)


# --- rule 3 --------------------------------------------------------------------------------------------
def check_allocations(sched: FunctionSchedule, groups: dict[Value | SecondBuffer, Group], report: Report) -> None:
    """Rule 3 for each allocation on its own: size, live range, placement inside its group's home;
    and every executed op's result (and argument) has an allocation when the function has any."""
    any_alloc = any(group.allocations for group in groups.values())
    for group in groups.values():
        if not group.allocations:
            if any_alloc and _needs_allocation(group):
                where = group.home.op if isinstance(group.home, OpResult) else sched.func
                report(3, f"{_value_name(group.home, sched)} has no npu.alloc", where)
            continue
        home_alloc = next((a for a in group.allocations if a.value is group.home), None)
        last = sched.end if group.returned else group.read
        for alloc in group.allocations:
            attr = alloc.attr
            needed, why = required_bytes(alloc.value, group.second)
            if attr.size < needed:
                report(3, f"{alloc.name} needs {needed} bytes ({why}) but its allocation reserves {attr.size}", alloc.at)
            written = group.written if group.second else _written(alloc.value, sched, group)
            if written is not None and attr.first > written:
                what = ("its reader starts" if group.second else "its transfer starts"
                        if isinstance(alloc.value.owner, DmaOp) else "it is written")
                report(3, f"the allocation of {alloc.name} is live from time {attr.first}, after {what} at time "
                          f"{written}", alloc.at)
            until = last if last is not None else written
            if until is not None and attr.last < until:
                reader = "the end of the function" if group.returned else f"its last reader at time {until}"
                report(3, f"the allocation of {alloc.name} is live until time {attr.last}, before {reader}", alloc.at)
            if home_alloc is not None and alloc is not home_alloc:
                outer = home_alloc.attr
                if attr.area != outer.area or attr.offset < outer.offset or attr.end > outer.end:
                    report(3, f"{alloc.name} shares the storage of {home_alloc.name} ({outer.area} bytes "
                              f"{outer.offset}..{outer.end - 1}) but is allocated at {attr.area} bytes "
                              f"{attr.offset}..{attr.end - 1}", alloc.at)


def _needs_allocation(group: Group) -> bool:
    """An argument or the (first) result of an executed op lives in the group: it needs storage.
    Further results of multi-result (CPU) ops are not required, as ``npu.alloc`` names one tensor."""
    return any(isinstance(v, BlockArgument) or (isinstance(v, OpResult) and v.index == 0 and is_executed(v.op))
               for v in group.members)


def _written(value: Value, sched: FunctionSchedule, group: Group) -> int | None:
    if isinstance(value, BlockArgument):
        return sched.start
    owner = value.op  # type: ignore[attr-defined]
    if isinstance(owner, DmaOp):
        return transfer_start(sched, owner)
    if owner in sched.time:
        return sched.time[owner]
    return group.written


def _half_step_ends(group: Group, first: int, last: int, sched: FunctionSchedule | None
                    ) -> tuple[int | None, bool]:
    """(late from, early end) of a weight stream's buffer (module docstring, "Half steps")."""
    dma = group.home.op if isinstance(group.home, OpResult) else None
    stream = dma.attr(STREAM_ATTR) if isinstance(dma, DmaOp) else None
    if sched is None or not isinstance(stream, StreamAttr):
        return None, False
    times = [sched.time[user] for user in group.home.users() if user in sched.time]
    if not times:
        return None, False
    previous = sched.previous_op(min(times))
    # (only a DMA issued after the op it fills under: one issued before copies before that op runs)
    late = (previous[0] if is_prefetched(dma) and not group.second and previous is not None and first < min(times)
            and dma in sched.time and sched.time[dma] > previous[0] else None)
    early = False
    if stream.buffering == "double" and last == max(times):
        last_reads_second = (len(stream.slices) - 1) % 2 == 0
        early = last_reads_second != group.second
    return late, early


def hulls(groups: dict[Value | SecondBuffer, Group], sched: FunctionSchedule | None = None
          ) -> tuple[list[Rect], list[Group], list[str]]:
    """One rectangle per group with allocations (its members' hull), the groups and areas; with
    ``sched``, weight buffers carry their half-step ends."""
    rects, owners, areas = [], [], []
    for group in groups.values():
        if not group.allocations:
            continue
        attrs = [a.attr for a in group.allocations]
        first, last = min(a.first for a in attrs), max(a.last for a in attrs)
        rects.append(Rect(first, last, min(a.offset for a in attrs), max(a.end for a in attrs),
                          *_half_step_ends(group, first, last, sched)))
        owners.append(group)
        areas.append(_home_alloc(group).attr.area)
    return rects, owners, areas


def _home_alloc(group: Group) -> Allocation:
    """The allocation of the group's home, else its first (a group in the sweep has one)."""
    return next((a for a in group.allocations if a.value is group.home), group.allocations[0])


def check_overlaps(sched: FunctionSchedule, groups: dict[Value | SecondBuffer, Group],
                   report: Report) -> dict[str, tuple[list[Rect], SweepResult]]:
    """Rule 3: no two groups live at the same time share a byte of one area (in place aside).
    Returns per area the rectangles and the sweep, for the usage check."""
    rects, owners, areas = hulls(groups, sched)
    by_area: dict[str, list[int]] = {}
    for index, area in enumerate(areas):
        by_area.setdefault(area, []).append(index)
    swept: dict[str, tuple[list[Rect], SweepResult]] = {}
    for area, indices in by_area.items():
        local = [rects[i] for i in indices]
        result = sweep(local, lambda a, b: _in_place(owners[indices[a]], owners[indices[b]], sched))
        swept[area] = (local, result)
        for a, b in result.conflicts:
            first, second = owners[indices[a]], owners[indices[b]]
            ra, rb = local[a], local[b]
            alloc = _home_alloc(second)
            writer = _in_place_writer(first, second) if (ra.offset, ra.end) == (rb.offset, rb.end) else None
            later = _later_reader(first, writer, sched) if writer is not None else None
            if writer is not None and later is not None:
                reader = ("the function returns it" if later[0].has_trait(ReturnLike)
                          else f"{label(later[0], False)} reads it at time {later[1]}")
                report(3, f"{label(writer, False)} writes {alloc.name} in place over {_home_alloc(first).name} "
                          f"({area} bytes {ra.offset}..{ra.end - 1}) at time {sched.time[writer]}, but {reader}",
                       alloc.at)
                continue
            report(3, f"{alloc.name} ({area} bytes {rb.offset}..{rb.end - 1}, live {rb.first}..{rb.last}) overlaps "
                      f"{_home_alloc(first).name} ({area} bytes {ra.offset}..{ra.end - 1}, live {ra.first}..{ra.last})",
                   alloc.at)
    return swept


def _in_place_writer(before: Group, after: Group) -> Operation | None:
    """The elementwise op that writes ``after`` and reads ``before`` (a candidate for writing in
    place over it), if any."""
    inputs = {id(v) for v in before.members}
    for value in after.members:
        writer = value.op if isinstance(value, OpResult) else None
        if isinstance(writer, IN_PLACE_OPS) and any(id(o) in inputs for o in _through_views(writer)):
            return writer
    return None


def _later_reader(before: Group, writer: Operation, sched: FunctionSchedule) -> tuple[Operation, int] | None:
    """An executed op reading ``before`` after ``writer`` runs ((op, time); the function's return
    at its end), which an output written in place over ``before`` would have overwritten."""
    time = sched.time.get(writer)
    if time is None:
        return None
    for value in before.members:
        for user in value.users():
            if user.has_trait(ReturnLike):
                return user, sched.end
            if user is not writer and sched.time.get(user, time) > time:
                return user, sched.time[user]
    return None


def _in_place(before: Group, after: Group, sched: FunctionSchedule) -> bool:
    """Whether ``after`` is written in place over ``before`` by an elementwise op reading it,
    which no later op reads (nor the function returns)."""
    writer = _in_place_writer(before, after)
    return writer is not None and _later_reader(before, writer, sched) is None


def _through_views(op: Operation) -> list[Value]:
    values, work = [], list(op.operands)
    while work:
        value = work.pop()
        values.append(value)
        owner = value.op if isinstance(value, OpResult) else None
        if owner is not None and is_view(owner) and len(owner.operands) == 1:
            work.extend(owner.operands)
    return values


# --- rule 4 --------------------------------------------------------------------------------------------
def check_limits(groups: dict[Value | SecondBuffer, Group], limits: Callable[[str], tuple[int, str]], report: Report) -> None:
    """Rule 4: each allocation ends within its memory (``limits(area)`` = (bytes, what they are))."""
    for group in groups.values():
        for alloc in group.allocations:
            limit, what = limits(alloc.attr.area)
            if alloc.attr.end > limit:
                report(4, f"{alloc.name} ends at byte {alloc.attr.end} of {alloc.attr.area}, beyond {what} of "
                          f"{limit} bytes", alloc.at)


def peak_bytes(rects: Sequence[Rect], shared: Sequence[tuple[int, int]]) -> int:
    """The most bytes live at one half step; a shared (in-place) pair counts once at its
    common time (throughout when the two rectangles are identical)."""
    ends_early = {before for before, after in shared if rects[before] != rects[after]}
    merged = {before for before, after in shared if rects[before] == rects[after]}
    events: list[tuple[int, int]] = []
    for index, rect in enumerate(rects):
        if rect.end <= rect.offset or index in merged:
            continue
        events.append((rect.start2, rect.end - rect.offset))
        events.append((rect.stop2 + (-1 if index in ends_early else 1), rect.offset - rect.end))
    events.sort(key=lambda e: (e[0], e[1]))
    peak = live = 0
    for _, delta in events:
        live += delta
        peak = max(peak, live)
    return peak


__all__ = ["Allocation", "Group", "IN_PLACE_OPS", "Rect", "SecondBuffer", "SweepResult", "check_allocations", "check_limits",
           "check_overlaps", "collect", "hulls", "peak_bytes", "required_bytes", "storage_bytes", "sweep"]
