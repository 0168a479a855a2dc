"""passes/schedule/candidate_pool.py: batches built in forked workers give what building them
here gives, in order; a build that raises in a worker raises here; cheap builds never fork; and
the schedule search chooses the same schedule with workers as without."""
from __future__ import annotations

import functools
import multiprocessing
import os
import signal

import pytest

import npu_opt.dialects  # noqa: F401
import npu_opt.passes  # noqa: F401
from npu_opt.ir.interrupts import Terminated
from npu_opt.ir.printer import print_op
from npu_opt.passes.schedule import search
from npu_opt.passes.schedule.candidate_pool import CandidatePool, can_fork, single_threaded
from npu_opt.passes.schedule.costed_candidates import COSTED
from targeted_import import imported_with_target, run_pipeline

needs_fork = pytest.mark.skipif(not can_fork() or not single_threaded(),
                                reason="worker processes are forked only on Linux, from a process of one thread "
                                       "(a pytest-xdist worker has more)")


@needs_fork
def test_a_batch_in_workers_is_what_it_is_here_in_order() -> None:
    built_here: list[int] = []

    def build(key: int) -> tuple[int, int]:
        built_here.append(key)
        return key * key, os.getpid()

    with CandidatePool(build, jobs=2, min_seconds=0.0) as pool:
        first = pool.map([3])
        answers = pool.map(list(range(8)))
    assert first == [(9, os.getpid())]  # the first build of all runs here (it warms the memo tables)
    assert [value for value, _ in answers] == [k * k for k in range(8)]
    assert {pid for _, pid in answers} != {os.getpid()}  # ... the later ones in workers
    assert built_here == [3]


@needs_fork
def test_a_build_raising_in_a_worker_raises_here() -> None:
    def build(key: int) -> int:
        if key == 5:
            raise ValueError(f"cannot build {key}")
        return key

    with CandidatePool(build, jobs=2, min_seconds=0.0) as pool:
        assert pool.map([0]) == [0]
        with pytest.raises(ValueError, match="cannot build 5"):
            pool.map([1, 5, 2])


def test_cheap_builds_and_one_job_never_fork() -> None:
    def build(key: int) -> int:
        return os.getpid()

    with CandidatePool(build, jobs=2) as pool:  # (each build far under the 0.25 s threshold)
        assert set(pool.map(list(range(6)))) == {os.getpid()}
    with CandidatePool(build, jobs=1, min_seconds=0.0) as pool:
        assert set(pool.map(list(range(6)))) == {os.getpid()}


@needs_fork
def test_a_process_with_a_second_thread_builds_here_instead_of_forking() -> None:
    # a fork copies only the forking thread: a lock another thread held stays held in the child
    import threading

    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        with CandidatePool(lambda key: os.getpid(), jobs=2, min_seconds=0.0) as pool:
            assert set(pool.map(list(range(4)))) == {os.getpid()}
    finally:
        release.set()
        other.join()


def _pids_of_a_forking_pool(_: int) -> set[int]:
    """In a daemonic worker: the processes a pool that would fork (every build "slow") built in."""
    with CandidatePool(lambda key: os.getpid(), jobs=2, min_seconds=0.0) as pool:
        return set(pool.map(list(range(4))))


@needs_fork
def test_a_daemonic_process_builds_here_instead_of_forking() -> None:
    # multiprocessing forbids a daemonic process children: a search run in a user's own
    # multiprocessing.Pool worker crashed ("daemonic processes are not allowed to have children")
    # where its first candidate took long enough for the pool to fork
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(1) as outer:
        pids = outer.map(_pids_of_a_forking_pool, [0])[0]
    assert len(pids) == 1 and os.getpid() not in pids


@needs_fork
def test_the_search_chooses_the_same_schedule_with_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Candidates materialised in forked workers (forced, as these are cheap) give the schedule,
    frontier and remarks-free IR that materialising them here gives."""
    texts = {}
    for jobs in (1, 2):
        COSTED.clear()  # (each search builds its candidates, none taken from the other's)
        monkeypatch.setattr(search, "CandidatePool", functools.partial(CandidatePool, min_seconds=0.0))
        module = imported_with_target("branches", "ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram")
        assert run_pipeline(module, f"schedule{{sram-budget=8000 jobs={jobs}}}") == ""
        texts[jobs] = print_op(module)
    assert texts[1] == texts[2]
    assert "npu.search" in texts[2]


@needs_fork
def test_a_worker_that_dies_is_a_crash_and_its_keys_are_built_here() -> None:
    parent = os.getpid()

    def build(key: int) -> tuple[int, int]:
        if key == 2 and os.getpid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)  # (as the out-of-memory killer would)
        return key, os.getpid()

    with CandidatePool(build, jobs=2, min_seconds=0.0) as pool:
        pool.map([0])
        answers = pool.map([1, 2, 3, 4])
        assert [key for key, _ in answers] == [1, 2, 3, 4]
        assert dict(answers)[2] == parent
        assert {pid for _, pid in pool.map([5, 6])} == {parent}  # (no workers after a crash)


@needs_fork
@pytest.mark.parametrize("signum, raised", [(signal.SIGTERM, Terminated), (signal.SIGINT, KeyboardInterrupt)])
def test_a_worker_ended_by_a_stop_signal_is_an_interruption_not_a_crash(signum: int, raised: type) -> None:
    parent = os.getpid()

    def build(key: int) -> int:
        if key == 2 and os.getpid() != parent:
            signal.signal(signum, signal.SIG_DFL)  # (a worker ignores SIGINT: the parent's to handle)
            os.kill(os.getpid(), signum)
        return key

    with pytest.raises(raised):
        with CandidatePool(build, jobs=2, min_seconds=0.0) as pool:
            pool.map([0])
            pool.map([1, 2, 3])
    assert multiprocessing.active_children() == []  # (every worker ended and waited for)
