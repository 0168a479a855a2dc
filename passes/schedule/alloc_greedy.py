"""Greedy best-fit allocation in order of start time.

Ranges are taken by start time (a longer range first among equal starts). Before each one,
the ranges that ended earlier give their bytes back; the range then goes into the smallest gap
between the allocations still live that holds it (the lowest such gap on a tie), or on top of
them. It is fast and usually within tens of percent of the lower bound; the hill-climb
allocator (alloc_hillclimb.py) starts from a different order and searches for a better one.

The live allocations are kept sorted by address (``bisect``), and expired ones leave through a
heap ordered by last time, so one placement costs a scan of the allocations live at that time.
"""
from __future__ import annotations

import bisect
import heapq
from typing import Sequence

from npu_opt.passes.schedule.live_ranges import Interval, align


def greedy_allocate(ranges: Sequence[Interval], alignment: int = 16) -> list[int]:
    """One offset per range (same order), each a multiple of ``alignment``."""
    offsets = [0] * len(ranges)
    by_start = sorted(range(len(ranges)), key=lambda i: (ranges[i].first, -ranges[i].last, i))
    live: list[tuple[int, int, int]] = []  # (offset, end address, index), by offset
    expiry: list[tuple[int, int]] = []  # (last time, index)
    for index in by_start:
        r = ranges[index]
        while expiry and expiry[0][0] < r.first:
            _, gone = heapq.heappop(expiry)
            entry = (offsets[gone], offsets[gone] + align(ranges[gone].size, alignment), gone)
            del live[bisect.bisect_left(live, entry)]
        reserve = align(r.size, alignment)
        if reserve == 0:
            continue  # takes no bytes: offset 0, never in anyone's way
        best: int | None = None
        best_gap = 0
        below = 0  # highest end address of the allocations scanned so far
        for start, end, _ in live:
            gap = start - below
            if gap >= reserve and (best is None or gap < best_gap):
                best, best_gap = below, gap
            below = max(below, end)
        offset = below if best is None else best
        offsets[index] = offset
        bisect.insort(live, (offset, offset + reserve, index))
        heapq.heappush(expiry, (r.last, index))
    return offsets


__all__ = ["greedy_allocate"]
