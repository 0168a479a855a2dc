"""Hill-climbing allocation: place ranges in a priority order, then improve the order by a bounded,
deterministic search (Vela's default allocator).

Design notes: docs/scheduler_design.md, section Hill-climbing allocation (alloc_hillclimb)."""
from __future__ import annotations

import heapq
import random
from bisect import bisect_right
from dataclasses import dataclass
from typing import Sequence

from npu_opt.passes.schedule.alloc_greedy import greedy_allocate
from npu_opt.passes.schedule.live_ranges import Interval, align

MAX_ITERATIONS = 20000
"""Default cap on search iterations."""
PATIENCE = 500
"""Default number of iterations without improvement after which the search stops once it fits."""
SEED = 20240611
"""The fixed seed of the search's choices (any constant: it only has to be the same every run)."""


@dataclass
class HillClimbStats:
    """How the search went (for statistics and tests)."""

    iterations: int = 0
    initial: int = 0
    """Highest end address of the first placement."""
    final: int = 0
    bound: int = 0
    greedy_won: bool = False


def urgencies(first: list[int], last: list[int], size: list[int]) -> list[int]:
    """Per range, the most bytes live at one time while it is live (range-maximum queries on the
    usage at each distinct start time, through a sparse table)."""
    starts = sorted(set(first))
    if not starts:
        return []
    where = {t: k for k, t in enumerate(starts)}
    delta = [0] * (len(starts) + 1)
    for f, l, s in zip(first, last, size):
        delta[where[f]] += s
        delta[bisect_right(starts, l)] -= s
    usage: list[int] = []
    live = 0
    for d in delta[:-1]:
        live += d
        usage.append(live)
    table = [usage]
    step = 1
    while step * 2 <= len(usage):
        prev = table[-1]
        table.append([max(prev[k], prev[k + step]) for k in range(len(prev) - step)])
        step *= 2
    result = []
    for f, l in zip(first, last):
        lo, hi = where[f], bisect_right(starts, l) - 1  # the starts within [f, l]
        level = (hi - lo + 1).bit_length() - 1
        row = table[level]
        result.append(max(row[lo], row[hi - (1 << level) + 1]))
    return result


def neighbour_sets(first: list[int], last: list[int], active_ids: list[int]) -> list[list[int]]:
    """For each range, the ranges live at a common time (a sweep over start times)."""
    neighbours: list[list[int]] = [[] for _ in first]
    live: list[int] = []
    for i in sorted(active_ids, key=lambda k: (first[k], k)):
        live = [j for j in live if last[j] >= first[i]]
        for j in live:
            neighbours[i].append(j)
            neighbours[j].append(i)
        live.append(i)
    return neighbours


class _Search:
    """Placement state of one hill-climb: an order and the offsets it gives."""

    def __init__(self, size: list[int], neighbours: list[list[int]], order: list[int]) -> None:
        self.size = size
        self.neighbours = neighbours
        self.order = order
        self.turn = [0] * len(size)
        for position, i in enumerate(order):
            self.turn[i] = position
        self.offset = [0] * len(size)
        self.end = list(size)
        self.blocker = [-1] * len(size)
        for i in order:
            self._set(i)

    def _lowest(self, i: int) -> tuple[int, int]:
        """The lowest free address for ``i`` among its earlier-placed neighbours, and the
        neighbour it was pushed above last (-1 if none)."""
        turn = self.turn[i]
        below = sorted((self.offset[j], self.end[j], j) for j in self.neighbours[i] if self.turn[j] < turn)
        address, blocker, need = 0, -1, self.size[i]
        for start, end, j in below:
            if start >= address + need:
                break
            if end > address:
                address, blocker = end, j
        return address, blocker

    def _set(self, i: int) -> None:
        self.offset[i], self.blocker[i] = self._lowest(i)
        self.end[i] = self.offset[i] + self.size[i]

    def cost(self) -> int:
        return max(self.end, default=0)

    def swap(self, a: int, b: int) -> None:
        ta, tb = self.turn[a], self.turn[b]
        self.order[ta], self.order[tb] = b, a
        self.turn[a], self.turn[b] = tb, ta

    def replace(self, moved: list[int], ceiling: int) -> list[tuple[int, int, int]] | None:
        """Place again what the turn changes of ``moved`` can affect, in turn order. Returns the
        undo log, or None (already undone) when some range would end above ``ceiling``."""
        low = min(self.turn[i] for i in moved)
        high = max(self.turn[i] for i in moved)
        queue: list[tuple[int, int]] = []
        queued: set[int] = set()
        for i in moved:
            for j in (i, *self.neighbours[i]):
                if j not in queued and (j in moved or low < self.turn[j] <= high):
                    queued.add(j)
                    queue.append((self.turn[j], j))
        heapq.heapify(queue)
        undo: list[tuple[int, int, int]] = []
        while queue:
            turn, i = heapq.heappop(queue)
            offset, blocker = self._lowest(i)
            if offset == self.offset[i] and blocker == self.blocker[i]:
                continue
            undo.append((i, self.offset[i], self.blocker[i]))
            changed = offset != self.offset[i]
            self.offset[i], self.blocker[i], self.end[i] = offset, blocker, offset + self.size[i]
            if self.end[i] > ceiling:
                self.undo(undo)
                return None
            if changed:
                for j in self.neighbours[i]:
                    if self.turn[j] > turn and j not in queued:
                        queued.add(j)
                        heapq.heappush(queue, (self.turn[j], j))
        return undo

    def undo(self, log: list[tuple[int, int, int]]) -> None:
        for i, offset, blocker in reversed(log):
            self.offset[i], self.blocker[i], self.end[i] = offset, blocker, offset + self.size[i]

    def chain(self, i: int) -> list[int]:
        """``i`` and the blockers below it, bottom last (bounded: blockers end lower each step)."""
        found = [i]
        while self.blocker[found[-1]] >= 0 and len(found) <= len(self.size):
            found.append(self.blocker[found[-1]])
        return found


def hillclimb_allocate(ranges: Sequence[Interval], alignment: int = 16, limit: int | None = None,
                       max_iterations: int = MAX_ITERATIONS, patience: int = PATIENCE,
                       stats: HillClimbStats | None = None) -> list[int]:
    """One offset per range (same order), each a multiple of ``alignment`` (module docstring).
    ``limit``: bytes available; the search gives up early (``patience``) only once it fits."""
    stats = stats if stats is not None else HillClimbStats()
    size = [align(r.size, alignment) for r in ranges]
    first = [r.first for r in ranges]
    last = [r.last for r in ranges]
    used = [i for i, s in enumerate(size) if s > 0]  # empty ranges stay at 0, in nobody's way
    if not used:
        return [0] * len(ranges)
    urgency = urgencies([first[i] for i in used], [last[i] for i in used], [size[i] for i in used])
    stats.bound = max(urgency)
    neighbours = neighbour_sets(first, last, used)
    # the priority order: Vela's live-range times when every range has them (its placements then)
    spans = [getattr(r, "vela", None) for r in ranges]
    start, end = (first, last) if None in spans else ([v[0] for v in spans], [v[1] for v in spans])  # type: ignore[index]
    if start is not first:
        urgency = urgencies([start[i] for i in used], [end[i] for i in used], [size[i] for i in used])
    urgency_of = dict(zip(used, urgency))
    order = sorted(used, key=lambda i: (-urgency_of[i], start[i] - end[i], start[i], -size[i], i))
    search = _Search(size, neighbours, order)
    best = stats.initial = search.cost()
    # Every kept change ends no higher than ``best``, so the current placement is always a best one.
    rng = random.Random(SEED)
    stuck = 0
    while stats.iterations < max_iterations and best > stats.bound:
        if stuck >= patience and (limit is None or best <= limit):
            break
        stats.iterations += 1
        top = search.end.index(best)
        chain = search.chain(top)
        partners = chain + neighbours[top]
        moved: list[tuple[int, int]] = []
        for _ in range(2 if stuck > patience // 2 else 1):
            a, b = rng.choice(chain), rng.choice(partners)
            if a == b:
                b = rng.choice(used)
            if a != b:
                search.swap(a, b)
                moved.append((a, b))
        log = search.replace([i for pair in moved for i in pair], best) if moved else None
        if log is None:
            for a, b in reversed(moved):
                search.swap(a, b)
            stuck += 1
            continue
        cost = search.cost()
        stuck = 0 if cost < best else stuck + 1
        best = cost
    stats.final = best
    greedy = greedy_allocate(ranges, alignment)
    greedy_cost = max((o + s for o, s in zip(greedy, size)), default=0)
    if greedy_cost < best:
        stats.greedy_won = True
        stats.final = greedy_cost
        return greedy
    return [search.offset[i] if size[i] > 0 else 0 for i in range(len(ranges))]


__all__ = ["HillClimbStats", "hillclimb_allocate", "neighbour_sets", "urgencies", "MAX_ITERATIONS", "PATIENCE"]
