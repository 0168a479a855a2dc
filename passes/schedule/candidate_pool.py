"""Materialising a batch of search candidates at once, in forked worker processes that share the
module and its analyses without copying them.

Design notes: docs/scheduler_design.md, section Candidate pool (candidate_pool)."""
from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Callable, Generic, Hashable, TypeVar

from npu_opt.ir.interrupts import Terminated

K = TypeVar("K", bound=Hashable)
R = TypeVar("R")

_CRASHED = "crashed"
"""What a worker answers for a candidate whose passes raised: the caller builds it again here,
where the failure is reported as any other (a crash reproducer, a message)."""

_STOPS = {signal.SIGINT, signal.SIGTERM}
"""The signals that stop a run (blocked while workers are forked and while they are ended)."""

_MISSING = object()


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


def single_threaded() -> bool:
    """Whether this process runs one thread (native ones counted, where /proc tells), so that a
    fork copies no lock another thread holds."""
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return threading.active_count() == 1


def _serve(build: Callable, conn: Connection, inherited: list[Connection], mask: set) -> None:
    """A worker: build each key the parent sends, send back the answer, until the pipe closes."""
    for other in inherited:  # (the parent's ends, copied by the fork: the pipe must close when it does)
        other.close()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles an interrupt and ends us
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, mask)
    while True:
        try:
            key = conn.recv()
        except (EOFError, OSError):
            return
        try:
            answer = build(key)
        except BaseException:  # noqa: BLE001 - reported when the caller builds it again
            answer = _CRASHED
        try:
            conn.send(answer)
        except (OSError, ValueError):  # the parent has gone
            return
        except Exception:  # noqa: BLE001 - an answer that does not pickle: built again there
            conn.send(_CRASHED)


@dataclass
class _Worker:
    process: BaseProcess
    conn: Connection


class CandidatePool(Generic[K, R]):
    """``build`` applied to batches of keys, in up to ``jobs`` forked workers (0: one per core).
    The workers are forked at the first batch of two or more, so they see the state of that time,
    and only when the first build took ``min_seconds`` of CPU or more: a worker starts with what
    the parent had at the fork and fills its own memo tables, which costs more than it saves on
    cheap builds (measured: mobilenet_v2_035_96's 0.2 s candidates gained 4 % in wall time for 34 %
    more CPU; a 3,000-op chain's 1 s candidates 31 % at the same CPU). Use as a context manager:
    leaving it ends the workers (killed at once when it is left by an exception)."""

    def __init__(self, build: Callable[[K], R], jobs: int, min_seconds: float = 0.25) -> None:
        self.build = build
        self.jobs = jobs if jobs > 0 else available_cores()
        self._workers: list[_Worker] = []
        self.min_seconds = min_seconds
        self._sequential = not can_fork()
        self._warm = False

    def __enter__(self) -> "CandidatePool[K, R]":
        return self

    def __exit__(self, kind: type | None, *exc: object) -> None:
        self._end(abrupt=kind is not None)

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
        if not self._workers:
            if not single_threaded():
                self._sequential = True
                return [self.build(key) for key in keys]
            self._start(min(self.jobs, available_cores()))
        answers = self._dispatch(keys)
        return [self.build(key) if answer is _MISSING or (isinstance(answer, str) and answer == _CRASHED)
                else answer for key, answer in zip(keys, answers)]

    def _start(self, count: int) -> None:
        """Fork ``count`` workers, with SIGINT and SIGTERM held until each has set its handlers."""
        context = multiprocessing.get_context("fork")
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
        try:
            for _ in range(count):
                here, there = context.Pipe()
                inherited = [w.conn for w in self._workers] + [here]
                process = context.Process(target=_serve, args=(self.build, there, inherited, mask), daemon=True)
                process.start()
                there.close()
                self._workers.append(_Worker(process, here))
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)

    def _dispatch(self, keys: list[K]) -> list[object]:
        """Each key's answer from the workers, one key per idle worker at a time; _MISSING for
        those not built when a worker crashed (then every worker is ended)."""
        answers: list[object] = [_MISSING] * len(keys)
        todo = list(reversed(range(len(keys))))
        idle = list(self._workers)
        busy: dict[Connection, int] = {}
        while todo or busy:
            while idle and todo:
                worker = idle.pop()
                index = todo.pop()
                worker.conn.send(keys[index])
                busy[worker.conn] = index
            for conn in wait(list(busy)):
                index = busy.pop(conn)  # type: ignore[call-overload]
                try:
                    answers[index] = conn.recv()  # type: ignore[union-attr]
                except (EOFError, OSError):
                    self._lost(next(w for w in self._workers if w.conn is conn))
                    return answers
                idle.append(next(w for w in self._workers if w.conn is conn))
        return answers

    def _lost(self, worker: _Worker) -> None:
        """A worker's pipe closed mid-build: raise the interruption that ended it, or (a crash)
        end every worker and go on here."""
        worker.process.join(1.0)
        code = worker.process.exitcode
        if code == -signal.SIGINT:
            raise KeyboardInterrupt()
        if code == -signal.SIGTERM:
            raise Terminated()
        self._end(abrupt=True)
        self._sequential = True

    def _end(self, abrupt: bool) -> None:
        """End the workers: close their pipes (an idle worker then exits) and, when ``abrupt`` or
        one lingers, kill them; wait for each. SIGINT and SIGTERM wait until they are gone."""
        if not self._workers:
            return
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
        try:
            workers, self._workers = self._workers, []
            for worker in workers:
                worker.conn.close()
                if abrupt:
                    worker.process.kill()
            for worker in workers:
                worker.process.join(None if abrupt else 5.0)
                if worker.process.exitcode is None:
                    worker.process.kill()
                    worker.process.join()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)


__all__ = ["CandidatePool", "available_cores", "can_fork", "single_threaded"]
