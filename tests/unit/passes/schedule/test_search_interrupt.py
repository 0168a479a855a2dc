"""An interrupted or terminated search ends every process it started, at once, with exit 130
(SIGINT) or 143 (SIGTERM) and no output file: whether the signal reaches the npu-opt process
alone (``kill``, ``timeout``) or its whole process group (Ctrl-C in a terminal). The command runs
as a user runs it, on a chain deep enough that the search forks its candidate workers
(passes/schedule/candidate_pool.py); each test waits for the workers, then signals."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from npu_opt.passes.schedule.candidate_pool import available_cores, can_fork

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "data"))

pytestmark = pytest.mark.skipif(
    not can_fork() or available_cores() < 2 or not Path(f"/proc/self/task/{os.getpid()}/children").exists(),
    reason="candidate workers are forked only on Linux with two cores or more (and /proc lists children)")

LAYERS = 640
"""Convolutions in the chain: enough that a candidate costs well over the pool's 0.25 s of CPU (0.39 s at
320 layers, too near it: a quiet machine built the candidates in-process)."""


def _chain(path: Path) -> None:
    """A chain of 3x3 convolutions and depthwise convolutions on a 1x16x16x16 int8 image."""
    import make_models as mm

    rng = np.random.default_rng(7)
    shape = (1, 16, 16, 16)
    f = mm.Func("main", [("input", mm.t(shape, mm.q8(mm.A, 0)))], rng)
    x = ("%arg0", mm.t(shape, mm.q8(mm.A, 0)))
    for layer in range(LAYERS):
        x = mm._conv(f, x, mm.t(shape, mm.q8(mm.A, 0)), (3, 3), (16, 16), mm.A, f"layer{layer}",
                     depthwise=layer % 2 == 1, act="RELU")
    path.write_text(mm.module(f.text([x])), encoding="utf-8")


@pytest.fixture(scope="module")
def chain(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("interrupt") / "chain.mlir"
    _chain(path)
    return path


def _children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (gone, or a zombie its new parent has not reaped)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except OSError:
        return True


@pytest.mark.parametrize("signum, to_group, code, words", [
    (signal.SIGINT, False, 130, "interrupted"),
    (signal.SIGINT, True, 130, "interrupted"),
    (signal.SIGTERM, False, 143, "terminated"),
    (signal.SIGTERM, True, 143, "terminated"),
])
def test_a_signal_ends_the_search_and_its_workers(chain: Path, tmp_path: Path, signum: int, to_group: bool,
                                                  code: int, words: str) -> None:
    output = tmp_path / "out.mlir"
    command = [sys.executable, "-m", "npu_opt.tools.npu_opt", str(chain), "--target", "ethos-u55-128",
               "--pass=schedule{sram-budget=20000 jobs=2}", "-o", str(output)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)  # (its own group, as a shell's job)
    try:
        deadline = time.monotonic() + 60
        while len(workers := _children(process.pid)) < 2 and process.poll() is None:
            assert time.monotonic() < deadline, "the search forked no workers"
            time.sleep(0.05)
        assert process.poll() is None, "the search ended before its workers could be signalled"
        began = time.monotonic()
        if to_group:
            os.killpg(process.pid, signum)
        else:
            os.kill(process.pid, signum)
        _, errors = process.communicate(timeout=10)
        took = time.monotonic() - began
        deadline = time.monotonic() + 1
        while not all(_gone(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.02)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert process.returncode == code, errors
    assert errors.strip() == f"npu-opt: {words}"
    assert took < 1.0
    assert all(_gone(pid) for pid in workers)
    assert not output.exists()
