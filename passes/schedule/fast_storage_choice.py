"""Which feature maps stay in fast storage under a byte limit: the selection behind
npu-place-fast-storage, as a pure function of live ranges, sizes and access scores.

Design notes: docs/scheduler_design.md, section Fast-storage choice (fast_storage_choice)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

GROUP_LIMIT = 20
"""At most this many candidates are decided together (Vela's bound on one exhaustive search)."""

LONG_LIFE = 20
"""Candidates living this many steps or more may be evicted outright as outliers (step 3)."""


@dataclass(frozen=True)
class Candidate:
    """A feature map that may stay in fast storage: live over time steps [first, last]
    (inclusive), ``size`` bytes, and ``score``, the element accesses that would hit fast storage."""

    key: object
    first: int
    last: int
    size: int
    score: int


@dataclass(frozen=True)
class Choice:
    """The outcome: which candidates stay in fast storage and which go back, and why."""

    kept: frozenset
    evicted_never_fit: tuple
    """Keys that do not fit even next to the non-candidate bytes (step 1)."""
    evicted_outlier: tuple
    """Keys of long-lived candidates set aside before the groups are decided (step 3)."""
    evicted_by_choice: tuple
    """Keys that lost within their group (step 4)."""


def choose_fast_storage(candidates: Sequence[Candidate], usage: Sequence[int], limit: int) -> Choice:
    """Decide ``candidates`` given ``usage[t]``, the bytes live at each time step with every
    candidate in fast storage, and the fast-storage ``limit`` in bytes."""
    total = list(usage)
    if not candidates or max(total, default=0) <= limit:
        return Choice(frozenset(c.key for c in candidates), (), (), ())
    base = list(total)
    for c in candidates:
        _add(base, c, -c.size)
    never: list = []
    open_: list[Candidate] = []
    for c in candidates:
        if max(base[c.first:c.last + 1]) + c.size > limit:
            never.append(c.key)
            _add(total, c, -c.size)
        else:
            open_.append(c)
    kept: set = set()
    competing: list[Candidate] = []
    for c in open_:
        if max(total[c.first:c.last + 1]) <= limit:
            kept.add(c.key)
            _add(base, c, c.size)
        else:
            competing.append(c)
    competing.sort(key=lambda c: (c.first, c.last + 1, c.size))
    outliers = _outliers(competing)
    for c in outliers:
        _add(total, c, -c.size)
    outlier_keys = {c.key for c in outliers}
    competing = [c for c in competing if c.key not in outlier_keys]
    lost: list = []
    for group in _groups(competing):
        keep = _best_subset(group, base, total, limit)
        for c, stays in zip(group, keep):
            if stays:
                kept.add(c.key)
                _add(base, c, c.size)
            else:
                lost.append(c.key)
                _add(total, c, -c.size)
    return Choice(frozenset(kept), tuple(never), tuple(c.key for c in outliers), tuple(lost))


def _add(usage: list[int], c: Candidate, delta: int) -> None:
    for t in range(c.first, c.last + 1):
        usage[t] += delta


def _outliers(ordered: list[Candidate]) -> list[Candidate]:
    """Step 3: long-lived candidates that end far later than the one GROUP_LIMIT places on."""
    if len(ordered) <= GROUP_LIMIT:
        return []
    found = []
    for i, c in enumerate(ordered):
        if c.last - c.first < LONG_LIFE:
            continue
        later = ordered[min(i + GROUP_LIMIT, len(ordered) - 1)]
        if c.last > later.last + LONG_LIFE:
            found.append(c)
    return found


def _groups(ordered: list[Candidate]) -> list[list[Candidate]]:
    """Step 4's cut: runs of candidates overlapping the run so far, at most GROUP_LIMIT long."""
    groups: list[list[Candidate]] = []
    reach = -1
    for c in ordered:
        if groups and c.first <= reach and len(groups[-1]) < GROUP_LIMIT:
            groups[-1].append(c)
            reach = max(reach, c.last)
        else:
            groups.append([c])
            reach = c.last
    return groups


def _best_subset(group: list[Candidate], base: list[int], total: list[int], limit: int) -> tuple[bool, ...]:
    """The keep pattern of highest total score that fits the limit next to ``base``; among equal
    scores the pattern keeping earlier candidates (keep before evict, candidate by candidate).

    Table: best[(i, open)] = (score, pattern) for candidates i.. given ``open``, the kept
    candidates before i still live at or after candidate i's first step. Whether i fits depends
    only on ``base`` and ``open``; keeping i adds it to the open set of later candidates.
    ``total`` (bytes with every undecided candidate present) only prunes: a candidate that fits
    with all of them is kept, which never loses score (Vela skips its evict branch too)."""
    n = len(group)
    memo: dict[tuple[int, frozenset[int]], tuple[int, tuple[bool, ...]]] = {}
    peak_base = [max(base[c.first:c.last + 1]) for c in group]

    def fits(i: int, open_set: frozenset[int]) -> bool:
        c = group[i]
        if not open_set:
            return peak_base[i] + c.size <= limit
        return all(base[t] + c.size + sum(group[j].size for j in open_set if group[j].last >= t) <= limit
                   for t in range(c.first, c.last + 1))

    def still_open(open_set: frozenset[int], i: int) -> frozenset[int]:
        nxt = group[i].first if i < n else None
        return frozenset(j for j in open_set if nxt is not None and group[j].last >= nxt)

    # Bottom-up over i (no recursion: groups are short, but modules are not), states found forward.
    states: list[set[frozenset[int]]] = [set() for _ in range(n + 1)]
    states[0].add(frozenset())
    always = [max(total[c.first:c.last + 1]) <= limit for c in group]
    for i in range(n):
        for open_set in states[i]:
            if fits(i, open_set):
                states[i + 1].add(still_open(open_set | {i}, i + 1))
            if not always[i]:
                states[i + 1].add(still_open(open_set, i + 1))
    for open_set in states[n]:
        memo[(n, open_set)] = (0, ())
    for i in range(n - 1, -1, -1):
        for open_set in states[i]:
            options = []
            if fits(i, open_set):
                score, rest = memo[(i + 1, still_open(open_set | {i}, i + 1))]
                options.append((score + group[i].score, (True,) + rest))
            if not always[i]:
                score, rest = memo[(i + 1, still_open(open_set, i + 1))]
                options.append((score, (False,) + rest))
            memo[(i, open_set)] = max(options)
    return memo[(0, frozenset())][1]


__all__ = ["Candidate", "Choice", "GROUP_LIMIT", "LONG_LIFE", "choose_fast_storage"]
