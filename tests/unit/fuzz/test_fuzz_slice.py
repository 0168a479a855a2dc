"""A fixed slice of the fuzz campaign (tests/fuzz), run in-process: no mutated input may end in an
internal error, and print -> parse must be a fixed point on every one that parses.

The full campaign (100,000+ cases, two workers, a hang watchdog) is
``python -m tests.fuzz.campaign``; its last result is tests/fuzz/RESULTS.md.
"""
from __future__ import annotations

import resource
import tempfile

import pytest

from tests.fuzz.case import make_case, run_case
from tests.fuzz.seeds import load_seeds

CASES = 500
SEED = 20261124


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@pytest.fixture(scope="module")
def seeds():
    return load_seeds()


def test_fuzz_slice_has_no_internal_errors(seeds, tmp_path):
    findings: list[str] = []
    verdicts: dict[str, int] = {}
    slowest = (0.0, -1)
    for index in range(CASES):
        began = _cpu()
        outcome = run_case(make_case(index, SEED, seeds), str(tmp_path))
        slowest = max(slowest, (_cpu() - began, index))
        verdicts[outcome.verdict] = verdicts.get(outcome.verdict, 0) + 1
        if outcome.verdict in ("internal", "roundtrip"):
            findings.append(f"case {index}: {outcome.signature}: {outcome.detail} [{' / '.join(outcome.stages)}]")
    assert not findings, "\n".join(findings[:10])
    # both outcomes a well-formed input can have are exercised, not just rejections
    assert verdicts.get("ok", 0) > CASES // 20 and verdicts.get("user", 0) > CASES // 2
    assert slowest[0] < 5.0, f"case {slowest[1]} took {slowest[0]:.1f} s of CPU"


def test_scheduled_cases(seeds, tmp_path):
    """Cases on scheduled IR (semantic mutations through npu-run, passes alone, npu-run, the
    search's options): no internal error, and no mutated schedule that the checker accepts
    computes something else."""
    from tests.fuzz.case import _scheduled_case
    import random
    assert seeds.scheduled and seeds.unscheduled
    findings: list[str] = []
    actions: dict[tuple[str, str], int] = {}
    for index in range(40):
        case = _scheduled_case(index, random.Random(f"{SEED}:sched:{index}"), seeds)
        outcome = run_case(case, str(tmp_path))
        actions[case.action, outcome.verdict] = actions.get((case.action, outcome.verdict), 0) + 1
        if outcome.verdict not in ("ok", "user"):
            findings.append(f"case {index}: {outcome.verdict}: {outcome.signature}: {outcome.detail}")
    assert not findings, "\n".join(findings[:10])
    assert actions.get(("semantic", "user"), 0) > 0  # the checker refuses broken schedules


def test_cases_are_reproducible(seeds):
    """Case N of seed S is the same input on every run (the campaign's --only N relies on it)."""
    first = [make_case(index, SEED, seeds).data for index in range(50)]
    again = [make_case(index, SEED, seeds).data for index in range(50)]
    assert first == again
    assert len(set(first)) > 45


def test_watchdog_kills_a_hanging_case(seeds, monkeypatch):
    """The pool answers each case, and kills (and reports) one that runs past its CPU limit."""
    from tests.fuzz import campaign
    monkeypatch.setattr(campaign, "SEEDS", seeds)
    monkeypatch.setattr(campaign, "_SCRATCH", tempfile.mkdtemp(prefix="npu-fuzz-test-"))
    summary, timed_out = campaign.run_pool(list(range(4)), SEED, 2, 60.0, False)
    assert summary.cases == 4 and not timed_out
    def spin(case, workdir):
        while True:  # a hang that burns CPU, as a runaway regex does
            pass
    monkeypatch.setattr(campaign, "run_case", spin)  # forked workers inherit it
    summary, timed_out = campaign.run_pool([7, 8], SEED, 2, 0.5, False)
    assert sorted(timed_out) == [7, 8] and summary.cases == 0


def test_a_semantic_mutation_skips_numerals_python_cannot_read():
    """A text mutation may leave a 20,000-digit numeral in an allocation (past int()'s 4,300-digit
    limit); the semantic mutation then changes another fact instead of raising in the harness."""
    import random

    from tests.fuzz.scheduled import semantic_mutation

    huge = "1" * 20000
    text = (f'%0 = "npu.add"(%x, %x) {{npu.alloc = #npu.alloc<Sram, offset = {huge}, size = 1024, live = [0, 2]>, '
            'npu.time = 0 : i64}')
    for seed in range(20):
        assert huge in semantic_mutation(random.Random(seed), text)
