"""The allocators of npu-allocate (passes/schedule/alloc_*.py) and the pass's option handling."""
from __future__ import annotations

import random
import time

import pytest

import npu_opt.passes  # noqa: F401
from npu_opt.ir.pass_registry import PipelineError, parse_pipeline
from npu_opt.passes.schedule.alloc_greedy import greedy_allocate
from npu_opt.passes.schedule.alloc_hillclimb import HillClimbStats, hillclimb_allocate
from npu_opt.passes.schedule.alloc_linear import linear_allocate
from npu_opt.passes.schedule.live_ranges import SimpleRange, align, lower_bound

ALLOCATORS = {"linear": linear_allocate, "greedy": greedy_allocate, "hillclimb": hillclimb_allocate}


def _random_ranges(seed: int) -> list[SimpleRange]:
    rnd = random.Random(seed)
    ranges = []
    for _ in range(rnd.randint(1, 80)):
        first = rnd.randint(0, 40)
        content = rnd.choice([None, None, None, "lut-a", "lut-b"])
        size = {"lut-a": 256, "lut-b": 512}.get(content, rnd.randint(0, 6000))  # type: ignore[arg-type]
        ranges.append(SimpleRange(first, first + rnd.randint(0, 10), size, content))
    return ranges


def _conflicts(ranges: list[SimpleRange], offsets: list[int]) -> list[tuple[int, int]]:
    """Pairs live at a common time whose bytes overlap (equal contents may share)."""
    found = []
    for i, a in enumerate(ranges):
        for j in range(i):
            b = ranges[j]
            if not (a.first <= b.last and b.first <= a.last) or not (a.size and b.size):
                continue
            if a.content is not None and a.content == b.content and offsets[i] == offsets[j]:
                continue
            if offsets[i] < offsets[j] + align(b.size, 16) and offsets[j] < offsets[i] + align(a.size, 16):
                found.append((j, i))
    return found


def _used(ranges: list[SimpleRange], offsets: list[int]) -> int:
    return max((o + align(r.size, 16) for o, r in zip(offsets, ranges)), default=0)


@pytest.mark.parametrize("name", sorted(ALLOCATORS))
def test_no_two_ranges_overlap_in_time_and_address(name: str) -> None:
    for seed in range(60):
        ranges = _random_ranges(seed)
        offsets = ALLOCATORS[name](ranges)
        assert len(offsets) == len(ranges)
        assert all(o % 16 == 0 and o >= 0 for o in offsets)
        assert _conflicts(ranges, offsets) == [], (name, seed)


def test_each_allocator_at_least_the_lower_bound_and_hillclimb_no_worse_than_greedy() -> None:
    for seed in range(60):
        ranges = [r for r in _random_ranges(seed) if r.content is None]
        bound = lower_bound(ranges, alignment=16)
        used = {name: _used(ranges, fn(ranges)) for name, fn in ALLOCATORS.items()}
        assert min(used.values()) >= bound, seed
        assert used["hillclimb"] <= used["greedy"], seed


def test_linear_only_grows_and_shares_equal_constants() -> None:
    ranges = [SimpleRange(0, 1, 100, "lut"), SimpleRange(2, 3, 50), SimpleRange(4, 5, 100, "lut")]
    assert linear_allocate(ranges) == [0, 112, 0]


def test_greedy_best_fit_fills_gaps_left_by_ended_ranges() -> None:
    # P ends at 1, leaving [0, 64) free below Q at time 2: Z (48 bytes) fits it, and Z2 then
    # takes the 16 bytes left between Z and Q rather than the top.
    ranges = [SimpleRange(0, 1, 64), SimpleRange(1, 3, 32), SimpleRange(2, 3, 48), SimpleRange(2, 3, 16)]
    assert greedy_allocate(ranges) == [0, 64, 0, 48]


def test_deterministic() -> None:
    for seed in range(10):
        ranges = _random_ranges(seed)
        for fn in ALLOCATORS.values():
            assert fn(ranges) == fn(list(ranges))


def test_hillclimb_reaches_the_bound_on_random_cases() -> None:
    reached = 0
    for seed in range(30):
        ranges = [r for r in _random_ranges(seed) if r.content is None]
        stats = HillClimbStats()
        offsets = hillclimb_allocate(ranges, stats=stats)
        reached += _used(ranges, offsets) == lower_bound(ranges, alignment=16)
        assert stats.iterations <= 20000
    assert reached >= 25


def test_hillclimb_long_chain_is_fast() -> None:
    ranges = [SimpleRange(i, i + 1, 1000 + (i * 37) % 500) for i in range(30000)]
    start = time.perf_counter()
    offsets = hillclimb_allocate(ranges)
    elapsed = time.perf_counter() - start
    assert _used(ranges, offsets) <= 1.2 * lower_bound(ranges, alignment=16)
    assert elapsed < 20  # ~2 s on the 2-vCPU VM; generous for loaded CI
    for i in range(len(ranges) - 1):  # neighbours only: a chain overlaps its successor
        a, b = offsets[i], offsets[i + 1]
        assert a + align(ranges[i].size, 16) <= b or b + align(ranges[i + 1].size, 16) <= a


def test_bad_allocator_option_suggests_a_name() -> None:
    with pytest.raises(PipelineError, match="did you mean 'greedy'"):
        parse_pipeline("npu-allocate{allocator=gready}")
    assert parse_pipeline("npu-allocate{allocator=linear}")[0].allocator == "linear"  # type: ignore[attr-defined]
