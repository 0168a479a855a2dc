"""The fast-storage selection keeps what an exhaustive keep/evict search keeps (the search Vela
runs per group), found by dynamic programming instead; checked against that search written out
as a test oracle on random live ranges."""
from __future__ import annotations

import random

from npu_opt.passes.schedule.fast_storage_choice import (
    GROUP_LIMIT, Candidate, choose_fast_storage,
)


def _exhaustive_group(group, base, total, limit):
    """Oracle: try keep before evict for each candidate in order; a later pattern replaces the
    best only with a strictly higher score. Returns the winning keep pattern."""
    best = [-1, None]
    pattern = []

    def visit(i, score):
        if i == len(group):
            if score > best[0]:
                best[0], best[1] = score, list(pattern)
            return
        c = group[i]
        span = range(c.first, c.last + 1)
        if max(base[t] for t in span) + c.size <= limit:
            for t in span:
                base[t] += c.size
            pattern.append(True)
            visit(i + 1, score + c.score)
            pattern.pop()
            for t in span:
                base[t] -= c.size
        if max(total[t] for t in span) > limit:
            for t in span:
                total[t] -= c.size
            pattern.append(False)
            visit(i + 1, score)
            pattern.pop()
            for t in span:
                total[t] += c.size

    visit(0, 0)
    return best[1]


def _oracle(candidates, usage, limit):
    """The whole selection with the exhaustive group search."""
    total = list(usage)
    if max(total) <= limit:
        return {c.key for c in candidates}
    base = list(total)
    for c in candidates:
        for t in range(c.first, c.last + 1):
            base[t] -= c.size
    kept, competing = set(), []
    rest = []
    for c in candidates:
        if max(base[c.first:c.last + 1]) + c.size > limit:
            for t in range(c.first, c.last + 1):
                total[t] -= c.size
        else:
            rest.append(c)
    for c in rest:
        if max(total[c.first:c.last + 1]) <= limit:
            kept.add(c.key)
            for t in range(c.first, c.last + 1):
                base[t] += c.size
        else:
            competing.append(c)
    competing.sort(key=lambda c: (c.first, c.last + 1, c.size))
    if len(competing) > GROUP_LIMIT:
        drop = [c for i, c in enumerate(competing) if c.last - c.first >= 20
                and c.last > competing[min(i + GROUP_LIMIT, len(competing) - 1)].last + 20]
        for c in drop:
            for t in range(c.first, c.last + 1):
                total[t] -= c.size
        competing = [c for c in competing if c not in drop]
    groups, reach = [], -1
    for c in competing:
        if groups and c.first <= reach and len(groups[-1]) < GROUP_LIMIT:
            groups[-1].append(c)
            reach = max(reach, c.last)
        else:
            groups.append([c])
            reach = c.last
    for group in groups:
        pattern = _exhaustive_group(group, base, total, limit)
        for c, stays in zip(group, pattern):
            span = range(c.first, c.last + 1)
            if stays:
                kept.add(c.key)
                for t in span:
                    base[t] += c.size
            else:
                for t in span:
                    total[t] -= c.size
    return kept


def _random_case(rng: random.Random, count: int, horizon: int, long_ranges: bool):
    other = [rng.choice([0, 0, 64, 128]) for _ in range(horizon)]
    candidates = []
    for key in range(count):
        first = rng.randrange(horizon)
        span = rng.randrange(30) if long_ranges and rng.random() < 0.2 else rng.randrange(4)
        last = min(horizon - 1, first + span)
        candidates.append(Candidate(key, first, last, rng.choice([16, 32, 48, 64, 96, 128, 256]),
                                    rng.choice([0, 10, 20, 50, 100, 100, 400])))
    usage = list(other)
    for c in candidates:
        for t in range(c.first, c.last + 1):
            usage[t] += c.size
    limit = rng.randrange(max(1, max(other)), max(usage) + 2)
    return candidates, usage, limit


def test_matches_the_exhaustive_search_on_random_ranges():
    rng = random.Random(20261124)
    for case in range(400):
        candidates, usage, limit = _random_case(rng, rng.randrange(1, 14), rng.randrange(4, 24), case % 3 == 0)
        choice = choose_fast_storage(candidates, usage, limit)
        assert set(choice.kept) == _oracle(candidates, usage, limit), case


def test_long_chains_with_outliers_match_too():
    rng = random.Random(7)
    for case in range(40):
        candidates, usage, limit = _random_case(rng, rng.randrange(22, 40), 60, True)
        choice = choose_fast_storage(candidates, usage, limit)
        assert set(choice.kept) == _oracle(candidates, usage, limit), case


def test_the_kept_set_fits_and_every_candidate_is_accounted_for():
    rng = random.Random(3)
    for _ in range(200):
        candidates, usage, limit = _random_case(rng, 12, 16, False)
        choice = choose_fast_storage(candidates, usage, limit)
        keys = [c.key for c in candidates]
        decided = [*choice.kept, *choice.evicted_never_fit, *choice.evicted_outlier, *choice.evicted_by_choice]
        assert sorted(decided) == sorted(keys)
        other = list(usage)
        for c in candidates:
            for t in range(c.first, c.last + 1):
                other[t] -= c.size
        if max(usage) > limit:
            for c in candidates:
                if c.key in choice.kept:
                    for t in range(c.first, c.last + 1):
                        other[t] += c.size
            assert max(other) <= limit


def test_a_long_chain_of_small_overlaps_is_decided_without_exponential_work():
    # 3,000 candidates, each overlapping its neighbours: groups of 20 at a time, few open states.
    candidates = [Candidate(i, i, i + 1, 64 + (i % 5) * 16, 100 + (i % 7)) for i in range(3000)]
    usage = [0] * 3002
    for c in candidates:
        for t in range(c.first, c.last + 1):
            usage[t] += c.size
    choice = choose_fast_storage(candidates, usage, 150)
    assert len(choice.kept) + len(choice.evicted_by_choice) + len(choice.evicted_never_fit) == 3000
    assert choice.kept and choice.evicted_by_choice


def test_everything_fits_keeps_everything():
    candidates = [Candidate("a", 0, 1, 10, 1), Candidate("b", 1, 2, 10, 1)]
    assert choose_fast_storage(candidates, [10, 20, 10], 20).kept == {"a", "b"}
