"""``npu-search-schedule``: the fastest schedule within an SRAM budget, chosen from a frontier of
candidates the later passes materialise (docs/schedule_search.md says how and why)."""
from __future__ import annotations

import functools
import io
from dataclasses import dataclass
from typing import Any, Callable, NamedTuple

from npu_opt.hardware.perf.arch import perf_target
from npu_opt.dialects.npu.perf.ir_adapter import OpDescription, is_costed
from npu_opt.dialects.npu.perf.ir_attrs import TOTALS_ATTR
from npu_opt.dialects.npu.perf.weight_dma import is_weight_dma
from npu_opt.dialects.npu.perf.weight_streams import WeightStreams
from npu_opt.dialects.npu.schedule_attrs import (
    CASCADE_ATTR, POINT_FLAGS, SCHEDULE_ATTR, SEARCH_ATTR, STREAM_ATTR, UNHIDDEN_ATTR, USAGE_ATTR, CascadeAttr,
    ScheduleAttr, SearchAttr, SearchKnob, StreamAttr, UsageAttr, knob_phrases, point_word, search_point,
)
from npu_opt.dialects.npu.target_attr import target_of
from npu_opt.ir.analysis import AnalysisManager
from npu_opt.ir.clone import clone
from npu_opt.ir.core import Operation
from npu_opt.ir.diagnostics import DiagnosticEngine
from npu_opt.ir.dominance import DominanceInfo
from npu_opt.ir.pass_manager import PassContext, PassCrash, PassFailure, PassManager, Statistics
from npu_opt.ir.pass_registry import Pass, option, parse_pipeline, register_pass
from npu_opt.passes.memory_order import memory_aware_order
from npu_opt.dialects.npu.execution_order import execution_order, graph_blocks
from npu_opt.passes.schedule.candidate_pool import CandidatePool
from npu_opt.passes.schedule.costed_candidates import COSTED, module_key
from npu_opt.passes.schedule.fast_storage_usage import FastStorageUsage
from npu_opt.passes.schedule.cascade_ops import channel_concat, joinable
from npu_opt.passes.schedule.sram_peak import no_fit_message
from npu_opt.passes.schedule.width_bands import has_chain

SRAM = "Sram"
"""The memory area whose bytes the budget limits (Vela's "SRAM used")."""

ALIGNMENT = 16
"""SRAM targets tried are multiples of this (the allocation quantum)."""


class _Context(NamedTuple):
    """What the module offers the knobs beyond Vela's (a knob that cannot change a point is not tried)."""

    joins: bool
    concats: bool
    reorders: bool
    banded: bool
    below_size: bool
    """Size's schedule does not fit the budget (or was not built)."""


_Useful = Callable[["Point | None", _Context], bool]
VARIANTS: tuple[tuple[str, tuple[tuple[tuple[tuple[str, Any], ...], _Useful], ...]], ...] = (
    # the best point within the budget and its twins (the same schedule made under other SRAM targets)
    ("twins", (((("stripe_growth", "full"),), lambda p, c: p.growable != 0),
               ((("stripe_growth", "cost"),), lambda p, c: p.growable != 0 and "full_growth" not in p.knobs.flags),
               ((("cascade_joins", True),), lambda p, c: c.joins and "cascade_branches" not in p.knobs.flags))),
    # Size as schedule{optimise=Size} builds it (None: not built)
    ("size", (((("prefetch_overlap", False),), lambda p, c: p is None or p.prefetches != 0),
              ((("stripe_growth", "cost"),), lambda p, c: p is None or p.growable != 0),
              ((("cascade_branches", True),), lambda p, c: c.joins),
              ((("cascade_concats", True),), lambda p, c: c.concats))),
    ("best", (((("cascade_concats", True),), lambda p, c: c.concats),)),
    # the cheapest point faster than the best, which less SRAM may bring within the budget
    ("nearest", (((("prefetch_overlap", True),), lambda p, c: p.prefetches != 0),
                 ((("prefetch_overlap", True), ("stripe_growth", "full")), lambda p, c: p.growable != 0))),
    # the best point, Size, that faster point and Size filling the budget, each once
    ("reorderable", (((("memory_order", True),), lambda p, c: c.reorders),)),
    ("size", (((("width_bands", "*"),), lambda p, c: c.banded and c.below_size),)),
    ("best", (((("width_bands", "first"),), lambda p, c: c.banded and c.below_size and p.knobs.bands == 1),)),
)
"""Which knobs the search tries on which points, in order, each with when it can change the point:
the points varied, then (settings, useful) pairs; a width_bands of ``*`` stands for each count the
pass declares, ``first`` for the first (see docs/schedule_search.md)."""


@dataclass(frozen=True)
class Knobs:
    """What the later passes read from ``npu.schedule``: the strategy, the SRAM target and the
    flags of dialects/npu/schedule_attrs.py POINT_FLAGS (full stripe growth, prefetch overlap,
    cascade joins, fastest block configs)."""

    strategy: str
    sram_target: int
    flags: tuple[str, ...] = ()
    buffer_limit: int = 0
    """Size: the fast storage the passes after the cascades may fill (npu.schedule's buffer_limit)."""
    bands: int = 1
    """Column bands each chain of windowed ops is cut into (npu.schedule's width_bands)."""

    def with_flags(self, *flags: str) -> "Knobs":
        """These knobs with ``flags`` set too (kept in POINT_FLAGS order, so equal knobs compare equal)."""
        return Knobs(self.strategy, self.sram_target, tuple(f for f in POINT_FLAGS if f in flags or f in self.flags),
                     self.buffer_limit, self.bands)

    def with_bands(self, bands: int) -> "Knobs":
        """These knobs with every chain of windowed ops cut into ``bands`` column bands."""
        return Knobs(self.strategy, self.sram_target, self.flags, self.buffer_limit, bands)

    def without(self, flag: str) -> "Knobs":
        """These knobs without ``flag``."""
        return Knobs(self.strategy, self.sram_target, tuple(f for f in self.flags if f != flag), self.buffer_limit,
                     self.bands)

    def schedule(self, arena: int) -> ScheduleAttr:
        """The ``npu.schedule`` that makes the later passes build this candidate."""
        return ScheduleAttr.for_point(self.strategy, arena, self.sram_target, self.flags, buffer_limit=self.buffer_limit,
                                      width_bands=self.bands)

    def point_flags(self) -> tuple[str, ...]:
        """The flags a frontier point records: those of the ``npu.schedule`` it makes."""
        return self.schedule(0).point_flags()

    def describe(self) -> str:
        """The knobs in words, for remarks."""
        extra = "".join(f", {words}" for words in knob_phrases(self.point_flags(), self.buffer_limit, self.bands))
        return f"{self.strategy} with an SRAM target of {self.sram_target} bytes{extra}"


@dataclass(frozen=True)
class Point:
    """One materialised candidate: its knobs, total cycles (rounded) and SRAM bytes used; and
    what its schedule says of the knobs it lacks (None: not known), so a variant that cannot
    change it is not materialised: ``growable``, the cascades its IR holds (none: a growth mode
    changes nothing), and ``prefetches``, the weight buffers npu-buffer-weights prefetched, dropped
    ones included (none: prefetch overlap changes nothing)."""

    knobs: Knobs
    cycles: int
    sram: int
    growable: int | None = None
    prefetches: int | None = None


Trials = Callable[[list[Knobs]], list["Point | None"]]
"""Materialise candidates (those not tried yet) and give their points, in order."""


@functools.cache
def declared_knobs() -> dict[str, SearchKnob]:
    """The npu.schedule knobs the passes after the search declare they read (``KNOBS``), by name."""
    from npu_opt.passes.schedule.pipeline import SCHEDULE_TAIL

    return {knob.name: knob for pass_ in parse_pipeline(SCHEDULE_TAIL) for knob in getattr(type(pass_), "KNOBS", ())}


def _varied(knobs: Knobs, settings: tuple[tuple[str, Any], ...], bands: list[int]) -> list[Knobs]:
    """``knobs`` with VARIANTS' ``settings`` (a flag added by its point word, False removing it;
    width_bands ``*`` gives one variant per count in ``bands``, ``first`` the first)."""
    if settings[0][0] == "width_bands":
        counts = bands if settings[0][1] == "*" else bands[:1]
        return [knobs.with_bands(count) for count in counts]
    for name, value in settings:
        declared = declared_knobs()[name]  # (a knob a pass reads, with a value it declares)
        if value is False:
            knobs = knobs.without(name)
            continue
        if value not in declared.values:
            raise ValueError(f"VARIANTS sets {name} = {value!r}, which its pass does not declare")
        knobs = knobs.with_flags(point_word(name, value))
    return [knobs]


def frontier(points: list[Point]) -> list[Point]:
    """The non-dominated points, fastest first; of points equal in both, the one with the
    smallest buffer limit (none first: the knobs that say the least), then the fewest column
    bands, then the first tried."""
    kept: list[Point] = []
    for point in sorted(points, key=lambda p: (p.cycles, p.sram, p.knobs.buffer_limit, p.knobs.bands)):
        if kept and kept[-1].sram <= point.sram:
            continue
        kept.append(point)
    return kept


def choose(points: list[Point], budget: int) -> Point | None:
    """The fastest point whose SRAM fits ``budget`` (ties: less SRAM, then as ``frontier``), or None."""
    fitting = [p for p in points if p.sram <= budget]
    return min(fitting, key=lambda p: (p.cycles, p.sram, p.knobs.buffer_limit, p.knobs.bands)) if fitting else None


GROWTH = 1.125
"""Above the larger end's SRAM, the budgets the search is directed at grow by
this factor, up to ``REACH`` times that SRAM (Size's cascades with buffers filling more, or a
point's fastest blocks needing a few bytes more, can still pay)."""

REACH = 1.5


def budget_grid(ends: list[Point], size: Point | None, limit: int, least: int | None = None) -> list[int]:
    """The budgets the search is directed at, those up to ``limit``, smallest first. They depend
    on the points of Size and Performance (``ends``) but never on the budget, so that a larger
    budget's search runs every step a smaller one's does: the SRAM of each end (a whole step:
    where the quality bench compares with Vela), half Size's SRAM (below it column bands may fit),
    3/4, 7/8 and 15/16 of Performance's (where a product's SRAM falls a little short of it), twice
    Size's SRAM, four times, and so on below 3/4 of Performance's (where the ends are far apart); above
    the largest, ``GROWTH`` times more at each step, up to ``REACH`` times it; and ``least``, the
    smallest SRAM of the ladder's points (so that the smallest point gets its fastest blocks where
    it is given its own SRAM as the budget)."""
    grid = {p.sram for p in ends}
    if not grid:
        return []
    if least is not None:
        grid.add(least)
    if size is not None:
        grid.add(_aligned(size.sram / 2))
    grid |= {_aligned(end.sram * k / 16) for end in ends for k in (12, 14, 15) if end is not size}
    if size is not None and size.sram > 0:  # (a wide gap between the ends, as with a dedicated SRAM)
        step = 2 * size.sram
        while any(step < end.sram * 12 / 16 for end in ends if end is not size):
            grid.add(_aligned(step))
            step *= 2
    step = top = max(grid)
    while (step := max(_aligned(step * GROWTH), step + ALIGNMENT)) <= REACH * max(top, ALIGNMENT):
        grid.add(step)
    return sorted(g for g in grid if g <= limit)


def _aligned(value: float) -> int:
    """``value`` rounded down to the allocation quantum, at least one quantum."""
    return max(ALIGNMENT, int(value) // ALIGNMENT * ALIGNMENT)


@register_pass("npu-search-schedule", statistics={
    "candidates": "schedules materialised and costed",
    "reused": "candidates costed by an earlier search of the same module in this process (not built again)",
    "frontier": "points on the (cycles, SRAM) frontier",
    "failed": "candidates the later passes refused (a limit they cannot meet)",
    "directed": "budgets of the grid (up to the budget) the search was directed at",
    "skipped": "variants not materialised: their knob cannot change the point they vary, or (column bands) "
               "Size's schedule fits the budget",
})
class SearchSchedule(Pass):
    """Choose the strategy and SRAM target of the fastest schedule within ``sram-budget`` bytes
    of SRAM by materialising candidates on copies of the module (see the module docstring);
    write them as ``npu.schedule`` and the frontier as ``npu.search``."""

    PRESERVES = (WeightStreams, OpDescription, DominanceInfo, FastStorageUsage)
    """Only the module's npu.schedule and npu.search change: no op, operand or weight value."""

    sram_budget: int = option(-1, "SRAM bytes the schedule may use (-1: no search; the pipeline schedules as Vela)")
    steps: int = option(6, "SRAM targets tried evenly between the Size and Performance schedules' SRAM")
    refine: int = option(4, "bisection steps towards the largest SRAM target whose schedule fits the budget")
    jobs: int = option(0, "processes materialising candidates at once (0: one per CPU core; 1: all in this one; "
                          "the result is the same)")
    max_bands: int = option(4, "most column bands a chain of windowed ops is cut into by a candidate (1: none; "
                               "tried only where Size's schedule does not fit the budget)")
    monotone: bool = option(True, "direct the search at the budgets up to the budget of a grid that Size's and "
                                  "Performance's SRAM fix (see budget_grid), never at the budget itself, so a larger "
                                  "budget never answers slower than a smaller one (false: directed at the budget "
                                  "alone, fewer candidates, but a larger budget may answer slower)")
    variants: bool = option(True, "also try the knobs beyond Vela's that the later passes declare (see VARIANTS)")

    def run(self, module: Operation, ctx: PassContext) -> None:
        if self.sram_budget == -1:
            return
        if self.sram_budget < 0:
            ctx.error(f"sram-budget must be a number of bytes (or -1: no search), not {self.sram_budget}", module)
            return
        if self.steps < 0 or self.refine < 0 or self.max_bands < 1:
            ctx.error(f"steps and refine must not be negative and max-bands must be at least 1 (steps = {self.steps}, "
                      f"refine = {self.refine}, max-bands = {self.max_bands})")
            return
        target = target_of(module)
        space = target.accelerator.max_address_offset
        if self.sram_budget > space:  # (npu.search records it: a 64-bit integer, as --arena-cache-size)
            ctx.error(f"sram-budget {self.sram_budget} is larger than the address space of {target.accelerator.name} "
                      f"(at most {space} bytes)", module)
            return
        arena = target.arena_cache_size
        # every weight stream is encoded once, for the original and all its copies
        ctx.analyses.get(WeightStreams, module).prepare(perf_target(target))
        from npu_opt.passes.schedule.pipeline import SCHEDULE_TAIL

        tail = parse_pipeline(SCHEDULE_TAIL)  # (one set of pass instances serves every candidate)
        tried: dict[Knobs, Point | None] = {}
        costed = COSTED.table(module_key(module))  # (what earlier searches of this module found)
        reused = 0
        with CandidatePool(lambda knobs: self._materialise(module, knobs, tail, ctx), self.jobs) as pool:
            def trials(batch: list[Knobs]) -> list[Point | None]:
                """Each candidate's point, materialising those not tried yet (at once, in ``pool``)
                unless an earlier search of this module costed them."""
                nonlocal reused
                new = [knobs for knobs in dict.fromkeys(batch) if knobs not in tried]
                known = [knobs for knobs in new if knobs in costed]
                reused += len(known)
                tried.update((knobs, costed[knobs]) for knobs in known)  # type: ignore[misc]
                built = [knobs for knobs in new if knobs not in costed]
                answers = pool.map(built)
                costed.update(zip(built, answers))
                tried.update(zip(built, answers))
                return [tried[knobs] for knobs in batch]

            # Size as schedule{optimise=Size} builds it (with prefetch overlap)
            performance, size = trials([Knobs("Performance", arena), Knobs("Size", arena, ("prefetch_overlap",))])
            ends = [p for p in (size, performance) if p is not None]
            if ends:
                low = min(p.sram for p in ends)
                high = max(p.sram for p in ends)
                ladder = sorted({_aligned(low + (high - low) * k / (self.steps + 1)) for k in range(1, self.steps + 1)}
                                | {ALIGNMENT})
                trials([Knobs("Performance", t) for t in ladder if t < arena])
                joins = _has_join(module, ctx)
                concats = _has_concat(module)
                reorders = _memory_order_differs(module) if self.variants else False
                banded = has_chain(module)
                # (monotone: directed only at the budgets of a grid the two ends fix, never at the
                # budget itself, so that a larger budget's search runs the steps of a smaller one's
                # and more, and tries every candidate it does: whole steps at the ends' SRAM, light
                # ones between; else one whole step at the budget alone)
                base = tuple(p for p in tried.values() if p is not None)
                grid = (budget_grid(ends, size, self.sram_budget, min(p.sram for p in base)) if self.monotone
                        else [self.sram_budget])
                whole = {p.sram for p in ends} if self.monotone else set(grid)
                skipped = 0
                for budget in grid:
                    trials([Knobs("Performance", _aligned(budget))] if _aligned(budget) < arena else [])
                    if budget in whole:
                        self._refine(trials, tried, arena, budget)
                    if self.variants:
                        self._fill(trials, tried, arena, budget, branches=joins, concats=concats)
                        skipped += self._variants(trials, tried, arena, budget, reorders=reorders, joins=joins,
                                                  concats=concats, banded=banded, light=budget not in whole,
                                                  base=base if self.monotone else ())
                ctx.stat("skipped", skipped)
                ctx.stat("directed", len(grid))
        points = [p for p in tried.values() if p is not None]
        ctx.stat("candidates", len(tried))
        ctx.stat("reused", reused)
        ctx.stat("failed", sum(p is None for p in tried.values()))
        best = choose(points, self.sram_budget)
        if best is None:
            if not points:
                ctx.error(f"no schedule fits the SRAM budget of {self.sram_budget} bytes: the later passes "
                          "refused every candidate", module)
                return
            smallest = min(points, key=lambda p: (p.sram, p.cycles))
            built = self._build(module, smallest.knobs, tail, ctx)  # (again, for its peak)
            ctx.error(no_fit_message(self.sram_budget, len(points), built, smallest.sram, smallest.knobs.describe(),
                                     None if size is None else size.sram), module)
            return
        front = frontier(points)
        if best not in front:  # equal in both to a point tried earlier: that one stands for it
            best = next(p for p in front if (p.cycles, p.sram) == (best.cycles, best.sram))
        ctx.stat("frontier", len(front))
        for point in sorted(points, key=lambda p: (p.knobs.strategy, p.knobs.sram_target, p.knobs.flags,
                                                   p.knobs.buffer_limit, p.knobs.bands)):
            where = "on the frontier" if point in front else "dominated"
            ctx.remark(f"candidate {point.knobs.describe()}: {point.cycles} cycles, {point.sram} bytes of SRAM "
                       f"({where})", module)
        ctx.remark(f"chose {best.knobs.describe()}: the fastest of {len(points)} schedules within the budget of "
                   f"{self.sram_budget} bytes ({best.cycles} cycles, {best.sram} bytes)", module)
        ctx.rewriter.set_attr(module, SCHEDULE_ATTR, best.knobs.schedule(arena))
        ends = [None if p is None else (p.cycles, p.sram) for p in (performance, size)]
        ctx.rewriter.set_attr(module, SEARCH_ATTR, SearchAttr(
            self.sram_budget, front.index(best), ends[0], ends[1],
            tuple(search_point(p.knobs.strategy, p.knobs.sram_target, p.cycles, p.sram, p.knobs.point_flags(),
                               buffer_limit=p.knobs.buffer_limit, width_bands=p.knobs.bands) for p in front)))

    def _refine(self, trials: Trials, tried: dict[Knobs, Point | None], arena: int, budget: int | None = None) -> None:
        """Bisect the Performance SRAM target between the largest one whose schedule fits the
        budget and the smallest larger one whose schedule does not, ``refine`` times: the largest
        target that still fits is usually the fastest schedule within the budget."""
        budget = self.sram_budget if budget is None else budget
        def fits(knobs: Knobs) -> bool:
            point = tried.get(knobs)
            return point is not None and point.sram <= budget

        performance = sorted(k.sram_target for k in tried if k.strategy == "Performance" and not k.flags)
        fitting = [t for t in performance if fits(Knobs("Performance", t))]
        low = max(fitting, default=None)
        if low is None:
            return
        high = min((t for t in performance if t > low), default=arena)
        for _ in range(self.refine):
            middle = _aligned((low + high) / 2)
            if not low < middle < high or Knobs("Performance", middle) in tried:
                return
            trials([Knobs("Performance", middle)])
            if fits(Knobs("Performance", middle)):
                low = middle
            else:
                high = middle

    def _fill(self, trials: Trials, tried: dict[Knobs, Point | None], arena: int, budget: int | None = None, *, branches: bool,
              concats: bool = False) -> None:
        """Size's cascades (the fewest bytes for feature maps; whole residual blocks with
        ``branches``) with the passes after them filling the budget (npu.schedule's buffer_limit:
        weight buffers, feature maps kept in fast storage) rather than the MIN schedule's peak:
        the budget itself (at most the arena cache size; more than the Performance schedule's
        SRAM can pay, as Size's cascades leave feature maps fewer bytes); when that schedule
        overflows the budget (the limit bounds what the passes plan, not the allocation's span),
        the limit is lowered by the overshoot and tried again, at most ``refine`` times; a
        schedule that fits with bytes to spare is tried once more with its own SRAM as the
        limit. With ``concats``, concatenations roll in Size's cascades too."""
        budget = self.sram_budget if budget is None else budget
        flags = ("prefetch_overlap",) + (("cascade_branches",) if branches else ()) \
            + (("cascade_concats",) if concats else ())
        size = trials([Knobs("Size", arena, flags)])[0]  # (with branches: also one of the variants)
        if size is None or size.sram >= budget:
            return  # no room beyond Size's own
        limit = _aligned(min(budget, arena))
        for _ in range(1 + self.refine):
            if limit <= size.sram:
                return
            point = trials([Knobs("Size", arena, flags, limit)])[0]
            if point is None:
                return
            if point.sram <= budget:
                # the limit the schedule actually fills: the buffers are chosen again without the
                # room they did not use, which can place them better (the passes are greedy)
                tighter = _aligned(point.sram)
                if size.sram < tighter < limit:
                    trials([Knobs("Size", arena, flags, tighter)])
                return
            # the passes overshot the limit by this much: aim that far below the budget
            limit = _aligned(limit - max(point.sram - budget, ALIGNMENT))

    def _variants(self, trials: Trials, tried: dict[Knobs, Point | None], arena: int, budget: int | None = None, *, reorders: bool,
                  joins: bool, concats: bool = False, banded: bool = False, light: bool = False,
                  base: tuple[Point, ...] = ()) -> int:
        """Try the knobs beyond Vela's on the points VARIANTS names where they can change them, then
        the fastest blocks of the best points (docs/schedule_search.md); returns how many were skipped."""
        budget = self.sram_budget if budget is None else budget
        points = [p for p in tried.values() if p is not None]
        best = choose(points, budget)
        # (the staircase before the variants: a variant may dominate a point whose fastest
        # blocks would have beaten it, so those points keep their fastest-blocks twin)
        earlier = frontier([p for p in points if p.sram <= budget])
        if not light:  # (and the ladder's own: points the light steps found may dominate them)
            earlier += [p for p in frontier([p for p in base if p.sram <= budget]) if p not in earlier]
        faster = [p for p in points if p.sram > budget and (best is None or p.cycles < best.cycles)]
        size_knobs = Knobs("Size", arena, ("prefetch_overlap",))  # (Size as schedule{optimise=Size} builds it)
        size = tried.get(size_knobs)
        nearest = min(faster, key=lambda p: (p.sram, p.cycles)) if faster else None
        # (and on Size filling the budget: fewer bytes live leave its buffers more room, however
        # the Performance ladder compares with it at this budget)
        filled = choose([p for p in points if p.knobs.buffer_limit], budget)
        twins = ([p for p in points if p.sram <= self.sram_budget and (p.cycles, p.sram) == (best.cycles, best.sram)
                  and (p.knobs.strategy, p.knobs.flags) == (best.knobs.strategy, best.knobs.flags)]
                 if best is not None else [])
        bases: dict[str, list[tuple[Knobs, Point | None]]] = {
            "twins": [(p.knobs, p) for p in twins], "size": [(size_knobs, size)],
            "best": [(best.knobs, best)] if best is not None else [],
            "nearest": [(nearest.knobs, nearest)] if nearest is not None else [],
            "reorderable": [(knobs, None) for knobs in dict.fromkeys((
                best and best.knobs, size_knobs, nearest and nearest.knobs, filled and filled.knobs)) if knobs]}
        context = _Context(joins, concats, reorders, banded, size is None or size.sram > budget)
        bands = [b for b in declared_knobs()["width_bands"].values if b <= self.max_bands]
        wanted: list[tuple[Knobs, bool]] = []  # each variant, and whether it can change its point
        for base, rows in VARIANTS:
            for knobs, point in bases[base]:
                for settings, useful in rows:
                    for varied in _varied(knobs, settings, bands):
                        wanted.append((varied, useful(point, context)))
        if light:
            wanted = [(knobs, useful) for knobs, useful in wanted if knobs.bands > 1]
        trials([knobs for knobs, useful in wanted if useful])
        points = [p for p in tried.values() if p is not None]
        groups = (("Performance", False), ("Size", False), ("Size", True))  # (Size filling the budget apart)
        bests = [best for strategy, filled in groups  # each strategy's best so far
                 if (best := choose([p for p in points if p.knobs.strategy == strategy
                                     and bool(p.knobs.buffer_limit) == filled], budget)) is not None]
        # and every other point of the staircase within the budget: blocks can reorder it (a smaller
        # target's cascades may gain more from them than a larger one's)
        staircase = [p for p in dict.fromkeys(frontier([p for p in points if p.sram <= budget]) + earlier)
                     if p not in bests]
        if light:  # (a light step: the fastest blocks of the best point that lacks them, no more)
            plain = choose([p for p in points if "fastest_blocks" not in p.knobs.flags], budget)
            bests, staircase = [plain] if plain is not None else [], []
        # each op on its fastest block
        fastest = trials([p.knobs.with_flags("fastest_blocks") for p in bests + staircase])
        below = [choose([p for p in points if p.knobs.strategy == best.knobs.strategy
                         and bool(p.knobs.buffer_limit) == bool(best.knobs.buffer_limit) and p.sram < best.sram],
                        budget)
                 for best, point in zip(bests, fastest) if not light and (point is None or point.sram > budget)]
        trials([p.knobs.with_flags("fastest_blocks") for p in below if p is not None])  # blocks moved buffers over
        return sum(not useful for _, useful in wanted)

    @staticmethod
    def _materialise(module: Operation, knobs: Knobs, tail: list[Pass], ctx: PassContext) -> Point | None:
        """Cycles and SRAM of the schedule the later passes build with ``knobs``, built on a
        copy of ``module``; None when they refuse it (a hard limit not met)."""
        built = SearchSchedule._build(module, knobs, tail, ctx)
        if built is None:
            return None
        totals = built.attr(TOTALS_ATTR)
        usage = built.attr(USAGE_ATTR)
        if totals is None:
            return None
        sram = usage.used(SRAM) if isinstance(usage, UsageAttr) else 0
        return Point(knobs, int(round(totals.cycle("total"))), sram, *_cascades_and_prefetches(built))

    @staticmethod
    def _build(module: Operation, knobs: Knobs, tail: list[Pass], ctx: PassContext) -> Operation | None:
        """The later passes run with ``knobs`` on a copy of ``module``: the copy's root, or None
        when they refuse it."""
        copy = clone(module)
        manager = AnalysisManager()
        manager.seed(ctx.analyses.get(WeightStreams, module).copied_to(copy, manager))
        manager.seed(ctx.analyses.get(FastStorageUsage, module).copied_to(copy, manager))
        for original, copied in copy.ops.items():
            if is_costed(original):
                manager.seed(ctx.analyses.get(OpDescription, original).copied_to(copied))
        copy.root.attributes[SCHEDULE_ATTR] = knobs.schedule(target_of(module).arena_cache_size)  # (a scratch copy)
        engine = DiagnosticEngine(stream=io.StringIO())
        engine.show_remarks = False
        try:
            PassManager(tail, engine, verify_each=False, instrumentations=[Statistics()],
                        analyses=manager).run(copy.root)
        except PassFailure:
            return None
        except PassCrash as crash:
            raise crash.error from None
        return copy.root


def _cascades_and_prefetches(module: Operation) -> tuple[int, int]:
    """The cascades a scheduled module holds (``npu.cascade`` identities per function) and its
    prefetched weight DMAs (``npu.stream`` with prefetch, or dropped by npu-allocate: ``npu.unhidden``)."""
    cascades: set[tuple[Operation | None, int]] = set()
    prefetches = 0
    for op in module.walk():
        cascade = op.attr(CASCADE_ATTR)
        if isinstance(cascade, CascadeAttr):
            cascades.add((op.parent_op(), cascade.id))
        stream = op.attr(STREAM_ATTR)
        if (isinstance(stream, StreamAttr) and stream.prefetch) or op.attr(UNHIDDEN_ATTR) is not None:
            prefetches += 1
    return len(cascades), prefetches


def _has_join(module: Operation, ctx: PassContext) -> bool:
    """Whether some op could join a cascade with cascade joins (a binary elementwise op of two
    feature maps of its shape): only then is the knob worth a candidate."""
    return any(is_costed(op) and (desc := ctx.analyses.get(OpDescription, op).desc) is not None
               and joinable(op, desc) for op in module.walk())


def _has_concat(module: Operation) -> bool:
    """Whether some concatenation could roll in a cascade with cascade concats (one along the
    channels): only then is the knob worth a candidate."""
    return any(channel_concat(op) for op in module.walk())


def _memory_order_differs(module: Operation) -> bool:
    """Whether npu-order's memory-aware order differs from the module's in some function (it
    cannot on a chain): only then is it a knob worth a candidate."""
    for block in graph_blocks(module):
        order = [op for op in execution_order(block) if not is_weight_dma(op)]
        if memory_aware_order(order) != order:
            return True
    return False


__all__ = ["Knobs", "Point", "SearchSchedule", "choose", "frontier"]
