"""npu-search-schedule: the frontier it records is what the passes build, the point it picks is the
fastest within the budget, its Vela-equivalent ends equal the plain pipelines, every frontier
point comes back when asked for by its SRAM, and each such schedule passes npu-check-schedule."""
from __future__ import annotations

import io

import pytest

import npu_opt.dialects  # noqa: F401
import npu_opt.passes  # noqa: F401
from npu_opt.dialects.npu.perf.ir_attrs import TOTALS_ATTR
from npu_opt.dialects.npu.schedule_policy import POLICY_ATTR, schedule_policy
from npu_opt.dialects.npu.schedule_attrs import SCHEDULE_ATTR, SEARCH_ATTR, USAGE_ATTR, ScheduleAttr, SearchAttr
from npu_opt.ir.diagnostics import DiagnosticEngine
from npu_opt.ir.parser import parse_module
from npu_opt.ir.pass_manager import PassManager
from npu_opt.ir.pass_registry import parse_pipeline
from npu_opt.ir.printer import print_op
from npu_opt.passes.schedule.search import Knobs, Point, choose, frontier
from targeted_import import imported_with_target, run_pipeline

SHARED = ("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram", None)
DEDICATED = ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram", 16384)


def _schedule(model: str, target: tuple, pipeline: str):
    """(module, error text) after ``pipeline`` on a tests/data model."""
    module = imported_with_target(model, *target)
    return module, run_pipeline(module, pipeline)


def _cycles_and_sram(module) -> tuple[int, int]:
    return round(module.attr(TOTALS_ATTR).cycle("total")), module.attr(USAGE_ATTR).used("Sram")


def _point(cycles: int, sram: int, target: int = 0) -> Point:
    return Point(Knobs("Performance", target), cycles, sram)


def test_frontier_keeps_the_non_dominated_points_fastest_first() -> None:
    points = [_point(100, 50, 1), _point(90, 60, 2), _point(95, 70, 3), _point(90, 60, 4), _point(120, 10, 5)]
    kept = frontier(points)
    assert [(p.cycles, p.sram) for p in kept] == [(90, 60), (100, 50), (120, 10)]
    assert kept[0].knobs.sram_target == 2  # of two equal points, the first tried stands for both


def test_choose_takes_the_fastest_within_the_budget() -> None:
    points = [_point(100, 50), _point(90, 60), _point(120, 10)]
    assert choose(points, 55) == _point(100, 50)
    assert choose(points, 60) == _point(90, 60)
    assert choose(points, 9) is None


@pytest.mark.parametrize("model,target", [("branches", DEDICATED), ("weight_stream", SHARED)])
def test_the_ends_are_the_vela_equivalent_pipelines(model: str, target: tuple) -> None:
    searched, errors = _schedule(model, target, "schedule{sram-budget=100000000}")
    assert not errors
    search = searched.attr(SEARCH_ATTR)
    performance, _ = _schedule(model, target, "schedule")
    size, _ = _schedule(model, target, "schedule{optimise=Size}")
    assert search.performance == _cycles_and_sram(performance)
    assert search.size == _cycles_and_sram(size)
    # the goal of the search: nothing slower than Vela's Performance in its SRAM, nor than Size in Size's
    fitting_performance = choose([_point(p.cycles, p.sram) for p in search.points], search.performance[1])
    fitting_size = choose([_point(p.cycles, p.sram) for p in search.points], search.size[1])
    assert fitting_performance.cycles <= search.performance[0]
    assert fitting_size.cycles <= search.size[0]


def test_every_frontier_point_comes_back_under_its_own_budget() -> None:
    # (directed at its budget alone: the default, monotone search finds a point at a budget of its
    # grid, which a budget below that budget but above the point's SRAM does not run)
    first, errors = _schedule("branches", DEDICATED, "schedule{sram-budget=8000 monotone=false}")
    assert not errors
    search: SearchAttr = first.attr(SEARCH_ATTR)
    assert len(search.points) >= 4
    chosen = search.points[search.chosen]
    assert chosen.sram <= 8000 and all(p.cycles >= chosen.cycles for p in search.points if p.sram <= 8000)
    assert _cycles_and_sram(first) == (chosen.cycles, chosen.sram)  # the schedule is the point promised
    for strategy, cycles, sram in ((point.strategy, point.cycles, point.sram) for point in search.points):
        module, errors = _schedule("branches", DEDICATED, f"schedule{{sram-budget={sram} monotone=false}}")
        assert not errors
        # the point promised, or one the new budget's own candidates found at least as good
        got_cycles, got_sram = _cycles_and_sram(module)
        assert got_cycles <= cycles and got_sram <= sram
        # the knobs may differ (another SRAM target can make the same point), and the strategy
        # too when the new budget's candidates found a strictly better point (Size filling a
        # larger budget: at the Performance point's 15,536 B, 26,543 cycles in 11,680 B)
        assert schedule_policy(module).strategy == strategy or (got_cycles, got_sram) != (cycles, sram)
        text = print_op(module)
        again = parse_module(text, "searched.mlir")
        assert print_op(again) == text
        stream = io.StringIO()
        engine = DiagnosticEngine(stream=stream)
        PassManager(parse_pipeline("npu-check-schedule"), engine).run(again)
        assert not engine.has_errors, stream.getvalue()


@pytest.mark.parametrize("model, budget, valued", [("wide_image", 78336, "width_bands = 4"),
                                                   ("fire", 89552, "buffer_limit = 85552")])
def test_a_frontier_point_records_the_numbers_of_its_knobs(model: str, budget: int, valued: str) -> None:
    # in a shared SRAM, wide_image fits 78,336 B only in column bands and fire is fastest with
    # Size's cascades filling the budget: each point writes its band count or buffer limit, so
    # it names the whole npu.schedule that made it (the chosen one is the module's)
    module, errors = _schedule(model, SHARED, f"schedule{{sram-budget={budget}}}")
    assert not errors
    search: SearchAttr = module.attr(SEARCH_ATTR)
    chosen = search.points[search.chosen]
    schedule: ScheduleAttr = schedule_policy(module)
    # npu.schedule is the point's; npu.policy too but the SRAM target (under Size, npu-form-cascades
    # writes its cascaded MIN schedule's peak)
    assert module.attr(SCHEDULE_ATTR) == chosen.schedule(schedule.arena_cache_size)
    assert chosen.schedule(schedule.arena_cache_size).replaced(sram_target=schedule.sram_target) == schedule
    assert valued in str(search)
    assert SearchAttr.parse(str(search)[len("#npu.search<"):-1]) == search


def test_the_search_is_deterministic() -> None:
    one, _ = _schedule("kernels", SHARED, "schedule{sram-budget=20000}")
    two, _ = _schedule("kernels", SHARED, "schedule{sram-budget=20000}")
    assert print_op(one) == print_op(two)


def test_a_budget_nothing_fits_is_one_error() -> None:
    _, errors = _schedule("conv", SHARED, "schedule{sram-budget=100}")
    assert errors.count("error:") == 1
    assert "no schedule fits the SRAM budget of 100 bytes" in errors
    assert "needs 384 bytes" in errors
    # what the user can act on: the op at the smallest schedule's peak, the bytes live there and
    # the tensors that make them, and what would make room
    assert "384 bytes are live at once while 'tfl.depthwise_conv_2d' runs" in errors
    assert "the result of 'conv' (npu.conv2d): 128 bytes" in errors
    assert "a memory mode with a dedicated SRAM" in errors



def _tail_after(model: str, target: tuple, schedule: ScheduleAttr | None, tail: str):
    """The head of the schedule pipeline, then ``schedule`` written as npu.schedule (if any), then ``tail``."""
    from npu_opt.passes.schedule.pipeline import SCHEDULE_HEAD

    module, errors = _schedule(model, target, SCHEDULE_HEAD)
    assert not errors
    if schedule is not None:
        module.attributes[SCHEDULE_ATTR] = schedule
    assert run_pipeline(module, tail) == ""
    return module


def test_the_knobs_beyond_vela_are_read_from_npu_schedule() -> None:
    """stripe_growth = full and prefetch_overlap in npu.schedule do what the passes' options do,
    and full growth never gives a cascade a shorter stripe than Vela's scan."""
    from npu_opt.dialects.npu.schedule_attrs import STRIPE_ATTR
    from npu_opt.passes.schedule.pipeline import SCHEDULE_TAIL

    knobs = ScheduleAttr.build(strategy="Performance", arena_cache_size=16384, sram_target=8192, stripe_growth="full",
                                prefetch_overlap=True)
    by_ir = _tail_after("branches", DEDICATED, knobs, SCHEDULE_TAIL)
    by_options = _tail_after("branches", DEDICATED, ScheduleAttr("Performance", 16384, 8192), SCHEDULE_TAIL.replace(
        "npu-form-cascades", "npu-form-cascades{stripe-growth=full}").replace(
        "npu-allocate", "npu-allocate{prefetch-overlap=true}"))
    for name in (SCHEDULE_ATTR, POLICY_ATTR):  # (the only difference: the knobs' record)
        by_options.attributes[name] = by_ir.attr(name)
    assert print_op(by_ir) == print_op(by_options)
    vela = _tail_after("branches", DEDICATED, ScheduleAttr("Performance", 16384, 8192), SCHEDULE_TAIL)
    heights = [[op.attr(STRIPE_ATTR).shape[0] for op in m.walk() if op.attr(STRIPE_ATTR) is not None]
               for m in (vela, by_ir)]
    assert heights[0] and len(heights[0]) == len(heights[1])
    assert all(full >= plain for plain, full in zip(*heights)) and heights[1] != heights[0]


def _variants_tried(budget: int, outcome, reorders: bool = False, extra: tuple[Point, ...] = ()) -> list[Knobs]:
    """The knobs ``_variants`` tries after a ladder of three Performance points (SRAM 900, 600
    and 300 bytes for targets 3, 2 and 1) and the ``extra`` points, each trial answered by
    ``outcome(knobs)``; ``reorders``: the memory-aware order differs from the module's."""
    from npu_opt.passes.schedule.search import SearchSchedule

    tried: dict[Knobs, Point | None] = {p.knobs: p for p in (_point(100, 900, 3), _point(200, 600, 2),
                                                             _point(300, 300, 1), *extra)}
    asked: list[Knobs] = []

    def trials(batch: list[Knobs]) -> list[Point | None]:
        for knobs in batch:
            if knobs not in tried:
                asked.append(knobs)
                tried[knobs] = outcome(knobs)
        return [tried[knobs] for knobs in batch]

    SearchSchedule(sram_budget=budget)._variants(trials, tried, arena=1000, reorders=reorders, joins=True)
    return asked


def test_fastest_blocks_are_tried_on_each_strategys_best_point_and_one_step_down_when_they_overflow() -> None:
    def fastest_tried(asked: list[Knobs]) -> list[Knobs]:
        return [k for k in asked if "fastest_blocks" in k.flags]

    # Fastest blocks fitting on the best Performance point (target 2 within 700 bytes): no second
    # try; Size (the variant keeping every prefetch, 600 bytes) gets its own, and so does the
    # other point of the staircase within the budget (target 1, 300 bytes).
    def fits(knobs: Knobs) -> Point:  # (every other variant slower than the ladder's points)
        return Point(knobs, 150 if "fastest_blocks" in knobs.flags else 999, 600)
    assert fastest_tried(_variants_tried(700, fits)) == [Knobs("Performance", 2, ("fastest_blocks",)),
                                                          Knobs("Size", 1000, ("fastest_blocks",)),
                                                          Knobs("Performance", 1, ("fastest_blocks",))]
    # Fastest blocks taking the best Performance point over the budget: the best one with less SRAM next.
    def grows(knobs: Knobs) -> Point:
        if "fastest_blocks" not in knobs.flags:
            return Point(knobs, 999, 900)
        return Point(knobs, 150, 650 if knobs.sram_target == 2 else 320)
    assert fastest_tried(_variants_tried(620, grows)) == [Knobs("Performance", 2, ("fastest_blocks",)),
                                                           Knobs("Performance", 1, ("fastest_blocks",))]


def test_fastest_blocks_are_tried_on_the_staircase_within_the_budget_only() -> None:
    """Each non-dominated point within the budget gets its fastest-blocks variant (a smaller
    target's schedule may gain more from blocks than the best one's); points over the budget and
    dominated points do not."""
    def slow(knobs: Knobs) -> Point:  # (every variant dominated: slower and bigger than the ladder)
        return Point(knobs, 150 if "fastest_blocks" in knobs.flags else 999, 950)
    # within 1000 bytes the whole ladder is the staircase; within 700 only targets 2 and 1
    assert {k.sram_target for k in _variants_tried(1000, slow) if "fastest_blocks" in k.flags
            and k.strategy == "Performance"} == {3, 2, 1}
    assert {k.sram_target for k in _variants_tried(700, slow) if "fastest_blocks" in k.flags
            and k.strategy == "Performance"} == {2, 1}


def test_the_memory_order_is_tried_only_where_it_reorders() -> None:
    """On the best point within the budget, on Size and on the cheapest faster point; and on none
    where the memory-aware order is the module's own (a chain)."""
    def slow(knobs: Knobs) -> Point:
        return Point(knobs, 999, 600)
    assert not [k for k in _variants_tried(700, slow) if "memory_order" in k.flags]
    memory = [k for k in _variants_tried(700, slow, reorders=True) if "memory_order" in k.flags]
    assert memory[:3] == [Knobs("Performance", 2, ("memory_order",)),
                          Knobs("Size", 1000, ("prefetch_overlap", "memory_order")),
                          Knobs("Performance", 3, ("memory_order",))]


def test_the_memory_order_is_tried_on_size_filling_the_budget_too() -> None:
    """Size's cascades filling the budget get the memory-aware order even where a Performance
    point is the best within the budget (ic_resnet8 in config A: fewer bytes live left its
    buffers room for 20 % fewer cycles, found only at budgets where it was the best)."""
    filled = Knobs("Size", 1000, ("prefetch_overlap",), 650)
    memory = [k for k in _variants_tried(700, lambda knobs: Point(knobs, 999, 950), reorders=True,
                                         extra=(Point(filled, 250, 640),)) if "memory_order" in k.flags]
    assert Knobs("Performance", 2, ("memory_order",)) in memory  # (the best within the budget)
    assert filled.with_flags("memory_order") in memory


def test_variants_that_cannot_change_their_point_are_skipped() -> None:
    """Full growth where no cascade grew, cascade joins or branches without a joinable op, cascade
    concats without a concatenation, prefetch overlap where nothing is prefetched: each would give
    its point again, so it is not materialised."""
    from npu_opt.passes.schedule.search import SearchSchedule

    def ladder(growable: int | None, prefetches: int | None) -> dict[Knobs, Point | None]:
        points = [Point(Knobs("Performance", target), cycles, sram, growable, prefetches)
                  for target, cycles, sram in ((3, 100, 900), (2, 200, 600), (1, 300, 300))]
        points.append(Point(Knobs("Size", 1000, ("prefetch_overlap",)), 400, 200, growable, prefetches))
        return {p.knobs: p for p in points}

    def asked(tried: dict[Knobs, Point | None], joins: bool, concats: bool = False,
              banded: bool = False) -> tuple[list[Knobs], int]:
        new: list[Knobs] = []

        def trials(batch: list[Knobs]) -> list[Point | None]:
            for knobs in batch:
                if knobs not in tried:
                    new.append(knobs)
                    tried[knobs] = Point(knobs, 999, 600)
            return [tried[knobs] for knobs in batch]
        skipped = SearchSchedule(sram_budget=700)._variants(trials, tried, arena=1000, reorders=False, joins=joins,
                                                            concats=concats, banded=banded)
        return new, skipped

    everything, skipped = asked(ladder(None, None), joins=True, concats=True)  # (nothing known: every variant tried)
    assert {Knobs("Performance", 2, ("full_growth",)), Knobs("Performance", 2, ("cascade_joins",)), Knobs("Size", 1000),
            Knobs("Size", 1000, ("prefetch_overlap", "cascade_branches")),
            Knobs("Size", 1000, ("prefetch_overlap", "cascade_concats")), Knobs("Performance", 2, ("cascade_concats",)),
            Knobs("Performance", 3, ("prefetch_overlap",)),
            Knobs("Performance", 3, ("full_growth", "prefetch_overlap")),
            Knobs("Performance", 2, ("cost_growth",)), Knobs("Size", 1000, ("cost_growth", "prefetch_overlap"))} <= set(everything)
    assert skipped == 6  # (the memory-aware order: the order is the module's; column bands: no chain)
    nothing, skipped = asked(ladder(0, 0), joins=False)
    assert [k for k in nothing if "fastest_blocks" not in k.flags] == []
    assert skipped == 16  # (Size with cascade branches too: no joinable op; both concat variants: no concatenation)
    # a chain to cut, but Size fits the budget: bands (paid in cycles) are not tried
    banded, skipped = asked(ladder(0, 0), joins=False, banded=True)
    assert not any(k.bands > 1 for k in banded) and skipped == 16
    # Size over the budget: Size in 2 and 4 bands, and the best point in 2
    tried = ladder(0, 0)
    size = Knobs("Size", 1000, ("prefetch_overlap",))
    tried[size] = Point(size, 400, 800, 0, 0)
    banded, skipped = asked(tried, joins=False, banded=True)
    assert {size.with_bands(2), size.with_bands(4), Knobs("Performance", 2).with_bands(2)} <= set(banded)
    assert skipped == 13
    # Size refused by the later passes (a limit its cascades cannot meet): bands may still fit
    tried = ladder(0, 0)
    tried[size] = None
    banded, _ = asked(tried, joins=False, banded=True)
    assert {size.with_bands(2), size.with_bands(4)} <= set(banded)


def test_size_fills_the_budget_and_lowers_its_limit_when_the_schedule_overflows() -> None:
    """Size's cascades with a buffer limit: the budget itself first (at most the arena cache
    size, even above the Performance schedule's SRAM); when that schedule overflows the budget,
    the limit is lowered by the overshoot (at most ``refine`` times, never to Size's SRAM); no
    limit is tried when Size leaves no room."""
    from npu_opt.passes.schedule.search import SearchSchedule

    def run(budget: int, sram_of_limit, size_sram: int = 300) -> list[Knobs]:
        tried: dict[Knobs, Point | None] = {Knobs("Performance", 1000): Point(Knobs("Performance", 1000), 100, 900)}
        asked: list[Knobs] = []

        def trials(batch: list[Knobs]) -> list[Point | None]:
            for knobs in batch:
                if knobs not in tried:
                    asked.append(knobs)
                    sram = size_sram if not knobs.buffer_limit else sram_of_limit(knobs.buffer_limit)
                    tried[knobs] = Point(knobs, 500 - knobs.buffer_limit // 10, sram)
            return [tried[knobs] for knobs in batch]

        SearchSchedule(sram_budget=budget, refine=3)._fill(trials, tried, 1000, branches=True)
        return asked

    flags = ("prefetch_overlap", "cascade_branches")
    assert run(700, lambda limit: limit) == [Knobs("Size", 1000, flags), Knobs("Size", 1000, flags, 688)]
    # (the budget is aligned down to 16 bytes; above the arena cache size, that size)
    assert run(5000, lambda limit: limit)[1:] == [Knobs("Size", 1000, flags, 992)]
    # a schedule using less than its limit: tried again with its own SRAM as the limit
    assert [k.buffer_limit for k in run(700, lambda limit: limit - 100)] == [0, 688, 576]
    overflow = run(700, lambda limit: limit + 100)
    assert [k.buffer_limit for k in overflow] == [0, 688, 592]  # (688 + 100 is 88 over: 600, aligned; fits exactly)
    growing = run(700, lambda limit: limit + 100 + (688 - limit) * 2)  # (each step overshoots again)
    assert [k.buffer_limit for k in growing] == [0, 688, 592, 400]  # (then 16, under Size's 300: stop)
    assert run(250, lambda limit: limit) == [Knobs("Size", 1000, flags)]


@pytest.mark.parametrize("model,target,pipeline", [
    ("weight_stream", SHARED, "schedule{optimise=Size}"),
    ("weight_stream", SHARED, "schedule{optimise=Performance prefetch-overlap=true}"),
    ("kernels", SHARED, "schedule"),
    ("branches", DEDICATED, "schedule{optimise=Size}"),
])
def test_a_points_cascades_and_prefetches_are_read_from_its_ir(model: str, target: tuple, pipeline: str) -> None:
    # What the search reads of a candidate (the cascades its IR holds, the prefetches
    # npu-buffer-weights made, dropped ones included) agrees with what the passes counted.
    from npu_opt.ir.pass_manager import Statistics
    from npu_opt.passes.schedule.search import _cascades_and_prefetches
    module = imported_with_target(model, *target)
    statistics = Statistics()
    PassManager(parse_pipeline(pipeline), DiagnosticEngine(stream=io.StringIO()), instrumentations=[statistics]).run(module)
    last = {pass_.NAME: counts for pass_, counts, _ in statistics.runs}
    cascades, prefetches = _cascades_and_prefetches(module)
    assert prefetches == last["npu-buffer-weights"]["prefetch"]
    assert (cascades > 0) == (last["npu-form-cascades"]["grown"] > 0)
    assert cascades <= last["npu-form-cascades"]["cascades"]


def test_every_knob_is_declared_by_the_pass_that_reads_it_and_the_table_uses_declared_values() -> None:
    from npu_opt.dialects.npu.schedule_attrs import KNOBS, POINT_FLAGS, SearchPoint, search_point
    from npu_opt.passes.schedule.search import VARIANTS, declared_knobs

    declared = declared_knobs()
    assert sorted(declared) == sorted(param.name for param in KNOBS)
    assert all(param.meta["reader"] for param in KNOBS)
    for _, rows in VARIANTS:
        for settings, _ in rows:
            for name, value in settings:
                assert value in (False, "*", "first") or value in declared[name].values
    for flag in POINT_FLAGS:  # each knob a point names comes back from the schedule it makes
        values = {"buffer_limit": 64} if flag == "buffer_limit" else {"width_bands": 2} if flag == "width_bands" else {}
        point = search_point("Size", 16, 100, 200, (flag,), **values)
        assert point.flags == (flag,) and point.schedule(1024).point_flags() == (flag,)
        assert SearchPoint.parse(str(point)[1:-1]) is point
