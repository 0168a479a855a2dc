"""Shrink a crashing fuzz input while it still fails with the same signature (delta debugging)."""
from __future__ import annotations

import shutil
import tempfile
import time
from typing import Callable

from tests.fuzz.case import Case, run_case


def minimise_case(fresh: Callable[[], Case], signature: str, budget: float = 60.0) -> bytes:
    """The smallest input found within ``budget`` seconds that still fails as ``signature``.

    ``fresh`` rebuilds the case, so each attempt makes the same tool choices as the original.
    """
    workdir = tempfile.mkdtemp(prefix="npu-fuzz-min-")
    deadline = time.monotonic() + budget

    def fails(data: bytes) -> bool:
        case = fresh()
        case.data = data
        outcome = run_case(case, workdir)
        return outcome.signature == signature

    try:
        return _shrink(fresh().data, fails, deadline)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def _shrink(data: bytes, fails: Callable[[bytes], bool], deadline: float) -> bytes:
    """Remove ever smaller chunks of ``data`` while ``fails`` stays true (until ``deadline``)."""
    chunk = max(1, len(data) // 2)
    while chunk >= 1 and time.monotonic() < deadline:
        start = 0
        shrunk = False
        while start < len(data) and time.monotonic() < deadline:
            candidate = data[:start] + data[start + chunk:]
            if candidate and fails(candidate):
                data = candidate
                shrunk = True
            else:
                start += chunk
        if not shrunk:
            chunk //= 2
    return data
