"""Linear allocation: every live range gets fresh bytes above the previous one.

Addresses only grow, so nothing is ever reused over time; the one exception is ranges holding
identical, unchanging data (equal non-None ``content``, e.g. two DMA copies of one constant),
which share the first one's address. It is the right allocator for storage that lives for the
whole network (Vela lays out permanent storage this way) and a worst case for scratch, kept as
a reference point and for debugging an allocation problem.
"""
from __future__ import annotations

from typing import Hashable, Sequence

from npu_opt.passes.schedule.live_ranges import Interval, align


def linear_allocate(ranges: Sequence[Interval], alignment: int = 16) -> list[int]:
    """One offset per range (same order), each a multiple of ``alignment``."""
    offsets: list[int] = []
    placed: dict[Hashable, tuple[int, int]] = {}  # content -> (offset, reserved bytes)
    top = 0
    for r in ranges:
        reserve = align(r.size, alignment)
        known = placed.get(r.content) if r.content is not None else None
        if known is not None and known[1] >= reserve:
            offsets.append(known[0])
            continue
        offsets.append(top)
        if r.content is not None:
            placed[r.content] = (top, reserve)
        top += reserve
    return offsets


__all__ = ["linear_allocate"]
