"""The bottleneck search (passes/schedule/alloc_bottleneck.py): small cases whose first placement
is above the lower bound, and the addresses of Vela 5.2's own allocator on random cases."""
from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from npu_opt.passes.schedule.alloc_bottleneck import BottleneckStats, Span, bottleneck_allocate


def _overlapping(spans: list[Span], addresses: list[int]) -> list[tuple[int, int]]:
    return [(i, j) for i in range(len(spans)) for j in range(i)
            if spans[i].start <= spans[j].end and spans[j].start <= spans[i].end
            and addresses[i] < addresses[j] + spans[j].size and addresses[j] < addresses[i] + spans[i].size]


def _random_spans(rng: random.Random, count: int) -> list[Span]:
    spans = []
    for _ in range(count):
        start = rng.randint(0, 2 * count)
        spans.append(Span(start, start + rng.randint(0, 6), rng.choice((16, 48, 100, 160, 256, 512, 1000))))
    return spans


def test_one_swap_reaches_the_bound():
    """The longer range 2 (times 0-2) goes first and pushes range 3 (1-3) up to 16, so range 1 (3-4)
    must sit above it: 128 bytes. Swapping the turns of 2 and 3 puts 3 at 0, and all fit in 112."""
    spans = [Span(1, 1, 80), Span(3, 4, 96), Span(0, 2, 16), Span(1, 3, 16)]
    stats = BottleneckStats()
    addresses = bottleneck_allocate(spans, 16, stats=stats)
    assert (stats.initial, stats.bound, stats.final, stats.iterations) == (128, 112, 112, 1)
    assert addresses == [32, 16, 16, 0]
    assert not _overlapping(spans, addresses)


def test_a_first_placement_at_the_bound_is_kept_without_search():
    spans = [Span(0, 3, 64), Span(2, 5, 32), Span(4, 6, 64)]
    stats = BottleneckStats()
    assert bottleneck_allocate(spans, 16, stats=stats) == [0, 64, 0]
    assert stats.iterations == 0 and stats.initial == stats.bound == 96


def test_addresses_are_aligned_and_unrounded_sizes_raise_the_search_s_target():
    """Vela does not round a rolling buffer's bytes: two 40-byte ranges live together need 80
    bytes by the bound but 96 once the second starts on a 16-byte boundary, so the search runs
    to its patience and keeps the first placement."""
    spans = [Span(0, 1, 40), Span(1, 2, 40)]
    stats = BottleneckStats()
    assert bottleneck_allocate(spans, 16, stats=stats) == [0, 48]
    assert (stats.bound, stats.final) == (80, 88)
    assert stats.iterations == 500


@pytest.mark.parametrize("seed", range(3))
def test_no_two_live_ranges_share_bytes(seed: int):
    rng = random.Random(seed)
    for _ in range(20):
        spans = _random_spans(rng, rng.randint(2, 25))
        addresses = bottleneck_allocate(spans, 16)
        assert all(a % 16 == 0 for a in addresses)
        assert not _overlapping(spans, addresses)


@dataclass
class _VelaRange:
    """What Vela's hill-climb allocator reads of its LiveRange."""

    start_time: int
    end_time: int
    size: int

    def get_alignment(self) -> int:
        return 16


def test_the_addresses_are_those_of_vela_s_allocator():
    """On random cases (many with a first placement above the bound, so the search runs), the
    addresses equal those of Vela 5.2's hill-climb allocator on the same ranges in the same order."""
    hillclimb = pytest.importorskip("ethosu.vela.hillclimb_allocation", reason="ethos-u-vela is not installed")
    rng = random.Random(7)
    searched = 0
    for _ in range(60):
        spans = _random_spans(rng, rng.randint(3, 18))
        stats = BottleneckStats()
        ours = bottleneck_allocate(spans, 16, limit=1 << 40, stats=stats)
        vela = hillclimb.allocate_live_ranges([_VelaRange(s.start, s.end, s.size) for s in spans], None, 1 << 40)
        assert ours == vela, spans
        searched += stats.iterations > 0
    assert searched >= 20


def test_a_work_bound_stops_the_search_with_its_best_placement():
    """Bounded to the 4 placements of its first order, the search of test_one_swap_reaches_the_bound
    makes no move: the first placement (128 bytes) comes back, still valid."""
    spans = [Span(1, 1, 80), Span(3, 4, 96), Span(0, 2, 16), Span(1, 3, 16)]
    stats = BottleneckStats()
    addresses = bottleneck_allocate(spans, 16, max_placements=4, stats=stats)
    assert stats.iterations == 0 and stats.final == stats.initial == 128
    assert not _overlapping(spans, addresses)


def test_a_search_of_the_same_spans_is_answered_again_as_it_was_found() -> None:
    import npu_opt.passes.schedule.alloc_bottleneck as module

    spans = _random_spans(random.Random(7), 40)
    module._PLACED.clear()
    first = bottleneck_allocate(spans, 16, limit=2000)
    assert len(module._PLACED) == 1
    first.append(-1)  # (the caller's list is its own)
    again = bottleneck_allocate(list(spans), 16, limit=2000)
    assert len(module._PLACED) == 1
    assert again == first[:-1] == bottleneck_allocate(spans, 16, limit=2000, stats=BottleneckStats())
    bottleneck_allocate(spans, 16, limit=1000)  # (another limit: another search)
    assert len(module._PLACED) == 2
