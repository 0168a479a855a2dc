"""Prefetch overlap for npu-allocate: where a prefetched weight buffer may share bytes the previous
op frees, and which prefetches to keep, move or drop.

Design notes: docs/scheduler_design.md, section Prefetch overlap (prefetch_overlap)."""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field, replace
from typing import Callable

from npu_opt.dialects.npu.schedule_attrs import STREAM_ATTR, UNHIDDEN_ATTR, StreamAttr
from npu_opt.ir.attributes import UNIT
from npu_opt.ir.core import BlockArgument, OpResult, Operation
from npu_opt.ir.pass_manager import PassContext
from npu_opt.passes.schedule.live_ranges import LiveRange, align

ALIGNMENT = 16
"""Bytes every address and reserved size is a multiple of (npu-allocate's quantum)."""

REPAIR_TRIALS = 8
"""Most repackings tried after prefetches were dropped (each one allocation of the area)."""


@dataclass(frozen=True)
class Drop:
    """A prefetch that cannot stay: the range at ``index`` meets ``clash`` at time ``when``."""

    index: int
    clash: int
    when: int


@dataclass
class Settled:
    """One packing of an area with prefetch overlap: the ranges (copies, settled: kept prefetches
    start at their transfers), their offsets, the prefetches dropped and how many moved."""

    ranges: list[LiveRange]
    offsets: list[int]
    drops: list[Drop]
    moved: int
    tails: list[int] = field(default_factory=list)
    """Indices of the prefetched buffers that take the bytes of a double buffer the op they fill
    under frees for its last slice (Vela's live ranges allow it): their DMAs wait for that op."""
    repacks: int = 0
    """Repackings kept (each dropped fewer buffer bytes in no more space)."""

    @property
    def top(self) -> int:
        """The bytes the packing spans."""
        return max((offset + align(r.size, ALIGNMENT) for r, offset in zip(self.ranges, self.offsets)), default=0)

    @property
    def dropped_bytes(self) -> int:
        """Buffer bytes whose transfers are no longer hidden."""
        return sum(self.ranges[d.index].size for d in self.drops)


def pack_with_overlap(ranges: list[LiveRange], pack: Callable[[list[LiveRange]], list[int]]) -> Settled:
    """Pack ``ranges`` (one area, as live_ranges gives them with prefetch overlap) with ``pack``,
    settle the prefetches and repair the packing while that drops fewer bytes in no more space
    (module docstring): each round holds whole every stream dropped so far, else one of them,
    the largest first."""
    best = _settle(ranges, pack, frozenset())
    safe: frozenset[int] = frozenset()
    trials = 0
    while best.drops and trials < REPAIR_TRIALS:
        dropped = sorted({d.index for d in best.drops}, key=lambda i: -ranges[i].size)
        options = [safe | set(dropped)] + ([safe | {i} for i in dropped] if len(dropped) > 1 else [])
        for option in options[:REPAIR_TRIALS - trials]:
            trials += 1
            trial = _settle(ranges, pack, option)
            if trial.top <= best.top and trial.dropped_bytes < best.dropped_bytes:
                trial.repacks = best.repacks + 1
                best, safe = trial, option
                break
        else:
            break
    return best


def _settle(ranges: list[LiveRange], pack: Callable[[list[LiveRange]], list[int]], safe: frozenset[int]) -> Settled:
    """Pack copies of ``ranges`` with the prefetched streams at ``safe`` indices starting at their
    transfers, then settle the other prefetches in order of start, each against the ranges as
    settled so far (so two extended buffers never meet either)."""
    copies = [replace(r) for r in ranges]
    for index in safe:
        r = copies[index]
        if r.prefetch_from is not None:
            # kept whole from its transfer: no longer Vela's range, so the packing takes our order
            r.first, r.prefetch_from, r.vela = r.prefetch_from, None, None
    offsets = pack(copies)
    pending = sorted((i for i, r in enumerate(copies) if r.prefetch_from is not None), key=lambda i: copies[i].first)
    settled = Settled(copies, offsets, [], 0)
    if not pending:
        return settled
    # query times: each prefetch's transfer (for clashes) through its last reader (for free bytes)
    times = sorted({t for i in pending
                    for t in range(copies[i].prefetch_from, copies[i].last + 1)})  # type: ignore[arg-type]
    live: dict[int, list[int]] = {t: [] for t in times}  # query time -> indices of ranges live then

    def occupy(index: int, first: int, last: int) -> None:
        for t in times[bisect_left(times, first):bisect_right(times, last)]:
            live[t].append(index)

    for index, r in enumerate(copies):
        occupy(index, r.first, r.last)
    top = settled.top
    for index in pending:
        r = copies[index]
        early = r.prefetch_from
        assert early is not None

        def first_clash(begin: int, tails: frozenset[int] = frozenset()) -> tuple[int | None, int]:
            """The first range ``r`` meets from ``begin`` to its reader (but ``tails`` while the op
            it fills under runs), and when."""
            for when in times[bisect_left(times, begin):bisect_left(times, r.first)]:
                found = next((j for j in live[when] if j != index and not (when == r.fills_under and j in tails)
                              and meets(r, offsets[index], copies[j], offsets[j])), None)
                if found is not None:
                    return found, when
            return None, begin

        clash, when = first_clash(early)
        r.prefetch_from = None
        under = r.fills_under
        if clash is not None and under is not None and under in live:
            tails = frozenset(j for j in live[under] if copies[j].early_end and copies[j].last == under)
            if tails and first_clash(under, tails)[0] is None:
                # filled while the op it fills under computes its last slice, as in Vela's ranges
                occupy(index, under, r.first - 1)
                r.first, r.late_from = under, under
                settled.tails.append(index)
                continue
        if clash is None:
            moved = None
        else:
            window = times[bisect_left(times, early):bisect_right(times, r.last)]
            around = {j for t in window for j in live[t]}
            moved = _free_offset(index, early, copies, offsets, top, around)
        if moved is not None:
            offsets[index] = moved
            settled.moved += 1
        if clash is None or moved is not None:
            occupy(index, early, r.first - 1)
            r.first = early
            continue
        settled.drops.append(Drop(index, clash, when))
    return settled


def byte_span(r: LiveRange, offset: int) -> tuple[int, int]:
    """[start, end) of the bytes ``r`` reserves at ``offset``."""
    return offset, offset + align(r.size, ALIGNMENT)


def meets(a: LiveRange, a_offset: int, b: LiveRange, b_offset: int) -> bool:
    """Whether ``a`` and ``b`` (placed at the offsets) share bytes holding different data."""
    (a0, a1), (b0, b1) = byte_span(a, a_offset), byte_span(b, b_offset)
    return a0 < b1 and b0 < a1 and not (a.content is not None and a.content == b.content)


def _free_offset(index: int, first: int, ranges: list[LiveRange], offsets: list[int], top: int,
                 around: set[int]) -> int | None:
    """The lowest offset at which ``ranges[index]``, live from ``first`` to its last time, meets no
    other range and ends at or below ``top``; None when there is none. ``around``: the indices of
    the ranges live at some time of that span (the others cannot meet it), found by the caller's
    index of live ranges per time rather than by a scan of all of them."""
    r = ranges[index]
    size = align(r.size, ALIGNMENT)
    taken = sorted(byte_span(ranges[j], offsets[j]) for j in around
                   if j != index and ranges[j].first <= r.last and first <= ranges[j].last)
    cursor = 0
    for low, high in taken:
        if low - cursor >= size:
            break
        cursor = max(cursor, high)
    return cursor if cursor + size <= top else None


def tensor_name(r: LiveRange, name: Callable[[Operation], str]) -> str:
    """How a remark names the tensor of a range: its owner's defining op, or the argument."""
    owner = r.owner
    if isinstance(owner, BlockArgument):
        return f"argument #{owner.index}"
    return f"the result of {name(owner.op)}" if isinstance(owner, OpResult) else "a tensor"


def apply_drops(settled: Settled, name: Callable[[Operation], str], ctx: PassContext) -> list[Operation]:
    """Mark each dropped range's DMA ``npu.unhidden`` (its ``npu.stream`` keeps the prefetch npu-buffer-weights chose),
    with a remark naming the DMA, the tensor whose bytes it shares and those bytes; count the
    moved and dropped prefetches. Returns the DMAs."""
    if settled.moved:
        ctx.stat("prefetch-moved", settled.moved)
    if settled.repacks:
        ctx.stat("prefetch-repacks", settled.repacks)
    dmas = []
    for drop in settled.drops:
        r, other = settled.ranges[drop.index], settled.ranges[drop.clash]
        mine, theirs = byte_span(r, settled.offsets[drop.index]), byte_span(other, settled.offsets[drop.clash])
        dma = r.owner.op if isinstance(r.owner, OpResult) else None
        assert dma is not None and isinstance(dma.attr(STREAM_ATTR), StreamAttr)
        ctx.rewriter.set_attr(dma, UNHIDDEN_ATTR, UNIT)
        low, high = max(mine[0], theirs[0]), min(mine[1], theirs[1])
        ctx.remark(f"prefetch dropped: the weight buffer of DMA {name(dma)} ({r.area} bytes {mine[0]}..{mine[1] - 1}) "
                   f"shares bytes {low}..{high - 1} ({high - low} bytes) with {tensor_name(other, name)} (live "
                   f"{other.first}..{other.last}) at time {drop.when}, before its reader at time {r.first}; the DMA "
                   "waits for the previous op to end and its transfer is not hidden", dma)
        ctx.stat("prefetch-dropped")
        dmas.append(dma)
    return dmas


__all__ = ["REPAIR_TRIALS", "Drop", "Settled", "apply_drops", "meets", "pack_with_overlap", "tensor_name"]
