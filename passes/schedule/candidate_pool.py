"""Materialising a batch of search candidates at once, in forked worker processes.

npu-search-schedule costs each candidate by running the scheduling passes on a copy of the
module, and the candidates of one batch (the SRAM ladder, the knob variants) do not depend on
each other. On a machine with several cores they run in worker processes forked from this one:
a fork shares the module, its analyses and the weight encodings made so far without copying or
pickling them, and a worker sends back only the small result. What a batch returns does not
depend on how it ran (each candidate is built from the same module by the same passes), so the
search stays deterministic whatever ``jobs`` is.

Where ``fork`` is not available (it is the Linux default; macOS and Windows start processes
afresh), in a daemonic process (which may have no children) or with ``jobs`` 1, the batch runs
here, one candidate after the other.
"""
from __future__ import annotations

import multiprocessing
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Callable, Generic, Hashable, TypeVar

K = TypeVar("K", bound=Hashable)
R = TypeVar("R")

_CRASHED = "crashed"
"""What a worker answers for a candidate whose passes raised: the caller builds it again here,
where the failure is reported as any other (a crash reproducer, a message)."""

_worker_build: Callable | None = None
"""The build function of this worker process (set once, when it is forked)."""


def _start_worker(build: Callable) -> None:
    global _worker_build
    _worker_build = build


def _build_in_worker(key: Hashable) -> object:
    assert _worker_build is not None
    try:
        return _worker_build(key)
    except BaseException:  # noqa: BLE001 - reported when the caller builds it again
        return _CRASHED


def available_cores() -> int:
    """The CPU cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def can_fork() -> bool:
    """Whether worker processes can be forked safely here (Linux: ``fork`` is the default), and
    may be at all: not in a daemonic process, such as a ``multiprocessing.Pool`` worker of a
    user's own parallel build, which multiprocessing forbids children."""
    return (sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()
            and not multiprocessing.current_process().daemon)


class CandidatePool(Generic[K, R]):
    """``build`` applied to batches of keys, in up to ``jobs`` forked workers (0: one per core).
    The workers are forked at the first batch of two or more, so they see the state of that time,
    and only when the first build took ``min_seconds`` of CPU or more: a worker starts with what
    the parent had at the fork and fills its own memo tables, which costs more than it saves on
    cheap builds (measured: mobilenet_v2_035_96's 0.2 s candidates gained 4 % in wall time for 34 %
    more CPU; a 3,000-op chain's 1 s candidates 31 % at the same CPU). Use as a context manager:
    leaving it ends the workers."""

    def __init__(self, build: Callable[[K], R], jobs: int, min_seconds: float = 0.25) -> None:
        self.build = build
        self.jobs = jobs if jobs > 0 else available_cores()
        self._executor: ProcessPoolExecutor | None = None
        self.min_seconds = min_seconds
        self._sequential = not can_fork()
        self._warm = False

    def __enter__(self) -> "CandidatePool[K, R]":
        return self

    def __exit__(self, *exc: object) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None

    def map(self, keys: list[K]) -> list[R]:
        """``build`` of each key, in order. The first key of all is built here, before any
        worker is forked: the memo tables and encodings it fills are then every worker's."""
        if not self._warm and keys:
            self._warm = True
            began = time.process_time()
            first = self.build(keys[0])
            self._sequential = self._sequential or time.process_time() - began < self.min_seconds
            return [first] + self.map(keys[1:])
        if self.jobs < 2 or len(keys) < 2 or self._sequential:
            return [self.build(key) for key in keys]
        if self._executor is None:
            self._executor = ProcessPoolExecutor(min(self.jobs, available_cores()),
                                                 mp_context=multiprocessing.get_context("fork"),
                                                 initializer=_start_worker, initargs=(self.build,))
        try:
            answers = list(self._executor.map(_build_in_worker, keys))
        except BrokenProcessPool:  # a worker died (killed, out of memory): go on without workers
            self._sequential = True
            return [self.build(key) for key in keys]
        return [self.build(key) if isinstance(answer, str) else answer for key, answer in zip(keys, answers)]


__all__ = ["CandidatePool", "available_cores", "can_fork"]
