"""Bottleneck search: place ranges lowest-first in a priority order, then swap, at random, the turns
of ranges that held the highest one up, keeping every order that is no worse. It is Vela 5.2's
allocator search move for move (the same seed, draws and stopping rule), so Vela's live ranges get
Vela's addresses.

Design notes: docs/scheduler_design.md, section Bottleneck search (alloc_bottleneck)."""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Sequence

from npu_opt.passes.schedule.alloc_hillclimb import neighbour_sets, urgencies

SEED = 1
"""The seed of the Mersenne Twister drawing the moves (Vela seeds Python's with 1 per allocation)."""
SIDE_PERCENT = 30
"""Of the 101 draws 0..100, those below this take the first range to swap from the culprits not
live with the bottleneck (when there are any)."""
WIDEN_AFTER = 50
"""Iterations without improvement after which each iteration makes a second swap, among the
culprits widened by the neighbours of those not live with the bottleneck."""
PATIENCE = 500
"""Iterations without improvement after which the search stops (once within the limit)."""
MAX_ITERATIONS = 99999
"""Iterations after which a search still above the limit gives up."""


@dataclass(frozen=True)
class Span:
    """A range as the search sees it: inclusive start and end times and its bytes (not rounded)."""

    start: int
    end: int
    size: int


@dataclass
class BottleneckStats:
    """How the search went (for tests)."""

    iterations: int = 0
    initial: int = 0
    """Highest end address (unrounded sizes) of the first placement."""
    final: int = 0
    bound: int = 0
    """Most bytes (unrounded) live at one time."""


class _Board:
    """The placement state: where each range sits, what it sits on, in which turn it was placed.
    A range not placed by the last (cut short) placement keeps its end, support and turn from
    the placement before: the culprits of the next move are read from that state."""

    def __init__(self, spans: Sequence[Span], alignment: int) -> None:
        self.spans = spans
        self.alignment = alignment
        self.size = [span.size for span in spans]
        # neighbours by the first time they share with the range, then by input position
        self.near = [sorted(group, key=lambda j, s=span.start: (max(spans[j].start, s), j))
                     for span, group in zip(spans, neighbour_sets([s.start for s in spans],
                                                                   [s.end for s in spans], range(len(spans))))]
        self.at: list[int | None] = [None] * len(spans)
        self.top = [0] * len(spans)
        self.support = [-1] * len(spans)
        self.turn = [0] * len(spans)
        self.order: list[int] = []
        """The order last placed; ``placed`` of its turns were, ``cut`` if it stopped early."""
        self.placed = 0
        self.cut = False
        self.peaks = [0] * len(spans)
        """The highest end over the turns up to each one, in the last placement."""
        self.placements = 0
        """Ranges placed so far (the search's work)."""

    def lowest(self, i: int) -> tuple[int, int]:
        """The address ``i`` takes among its placed neighbours, and the last one it was lifted
        over (-1 if none): sweep the neighbours in order, lifting ``i`` above each it would
        overlap, until a sweep lifts it no more."""
        size, at, top, quantum = self.size[i], self.at, self.top, self.alignment
        address, support = 0, -1
        lifted = True
        while lifted:
            lifted = False
            for j in self.near[i]:
                below = at[j]
                if below is None or top[j] <= address or below >= address + size:
                    continue
                address, support, lifted = top[j] + (-top[j] % quantum), j, True
        return address, support

    def place(self, order: list[int], ceiling: int | None) -> int:
        """Place the ranges in ``order``, as afresh; stop as soon as one ends above ``ceiling``.
        Returns the highest end address reached. The turns before the first one where ``order``
        differs from the last order placed keep their places: each depends only on those before."""
        keep = 0
        limit = min(len(order), self.placed - (1 if self.cut else 0))
        while keep < limit and order[keep] == self.order[keep]:
            keep += 1
        for i in self.order[keep:self.placed]:
            self.at[i] = None
        peak = self.peaks[keep - 1] if keep else 0
        self.order, self.placed, self.cut = list(order), keep, False
        for turn in range(keep, len(order)):
            i = order[turn]
            address, self.support[i] = self.lowest(i)
            self.at[i] = address
            self.top[i] = address + self.size[i]
            self.turn[i] = turn
            peak = max(peak, self.top[i])
            self.peaks[turn] = peak
            self.placed = turn + 1
            self.placements += 1
            if ceiling is not None and peak > ceiling:
                self.cut = True
                break
        return peak

    def meets(self, i: int, j: int) -> bool:
        """Whether ranges ``i`` and ``j`` are live at a common time."""
        a, b = self.spans[i], self.spans[j]
        return a.start <= b.end and b.start <= a.end

    def culprits(self, bottleneck: int) -> tuple[list[int], set[int]]:
        """The turns of the bottleneck, its neighbours and the ranges each of them sits on, down
        to address 0, in the order found (first seen first), and the same as a set."""
        found: list[int] = []
        seen: set[int] = set()
        for start in (bottleneck, *self.near[bottleneck]):
            i, steps = start, 0
            while i >= 0 and steps <= len(self.spans):  # (a support is placed earlier: no cycle)
                if self.turn[i] not in seen:
                    seen.add(self.turn[i])
                    found.append(self.turn[i])
                i, steps = self.support[i], steps + 1
        return found, seen


def _move(board: _Board, order: list[int], stuck: int, rng: random.Random) -> bool:
    """Swap turns in ``order`` by the search's draws; False when there is nothing to swap."""
    tops = board.top
    bottleneck = tops.index(max(tops))
    turns, seen = board.culprits(bottleneck)
    if len(turns) < 2:
        return False
    apart = [t for t in turns if not board.meets(bottleneck, order[t])]
    side = rng.randrange(101) < SIDE_PERCENT
    one = rng.choice(apart if side and apart else turns)
    other = turns[rng.randrange(len(turns) - 1)]
    if other == one:
        other = turns[-1]
    order[one], order[other] = order[other], order[one]
    if stuck > WIDEN_AFTER:
        for t in apart:
            for j in board.near[order[t]]:
                if board.turn[j] not in seen:
                    seen.add(board.turn[j])
                    turns.append(board.turn[j])
        one, other = rng.choice(turns), rng.choice(turns)
        order[one], order[other] = order[other], order[one]
    return True


PLACEMENTS_KEPT = 256
"""Searches ``bottleneck_allocate`` remembers (all are forgotten when the table is full)."""
_PLACED: dict[tuple, tuple[int, ...]] = {}
"""Per (spans, alignment, limit, iteration and work bounds), the addresses found: the search is a
function of those alone (its draws are seeded), and a schedule search's candidates often allocate
the same spans (docs/schedule_search.md, Caches)."""


def bottleneck_allocate(spans: Sequence[Span], alignment: int = 16, limit: int | None = None,
                        max_iterations: int = MAX_ITERATIONS, max_placements: int | None = None,
                        stats: BottleneckStats | None = None) -> list[int]:
    """One address per span (same order, which is the tie-break and the neighbour order), each a
    multiple of ``alignment``; ``limit``: the bytes available (the search goes on past its
    patience while above it); ``max_placements``: a bound on the work (ranges placed), past
    which the best placement so far is returned (no longer Vela's if Vela would go on). Without
    ``stats`` the answer of an earlier search of the same arguments is given again."""
    if stats is not None:
        return _search(spans, alignment, limit, max_iterations, max_placements, stats)
    key = (tuple(spans), alignment, limit, max_iterations, max_placements)
    found = _PLACED.get(key)
    if found is None:
        if len(_PLACED) >= PLACEMENTS_KEPT:
            _PLACED.clear()
        found = _PLACED[key] = tuple(_search(spans, alignment, limit, max_iterations, max_placements,
                                             BottleneckStats()))
    return list(found)


def _search(spans: Sequence[Span], alignment: int, limit: int | None, max_iterations: int,
            max_placements: int | None, stats: BottleneckStats) -> list[int]:
    """``bottleneck_allocate`` without its memo."""
    if not spans:
        return []
    starts, ends, sizes = [s.start for s in spans], [s.end for s in spans], [s.size for s in spans]
    urgency = urgencies(starts, ends, sizes)
    stats.bound = max(urgency)
    order = sorted(range(len(spans)), key=lambda i: (-urgency[i], starts[i] - ends[i], starts[i], -sizes[i], i))
    board = _Board(spans, alignment)
    best = stats.initial = board.place(order, None)
    best_at = list(board.at)
    rng = random.Random(SEED)
    iteration = improved = 0
    while best > stats.bound and ((limit is not None and best > limit and iteration < max_iterations)
                                  or iteration - improved < PATIENCE):
        if max_placements is not None and board.placements >= max_placements:
            break
        trial = list(order)
        if not _move(board, trial, iteration - improved, rng):
            break
        found = board.place(trial, best)
        if found <= best:
            if found < best:
                improved = iteration
            best, order, best_at = found, trial, list(board.at)
        iteration += 1
    stats.iterations, stats.final = iteration, best
    return [a if a is not None else 0 for a in best_at]


__all__ = ["BottleneckStats", "Span", "bottleneck_allocate", "MAX_ITERATIONS", "PATIENCE", "SEED"]
