"""A standard output that cannot be written (a closed pipe, a full disk) is one diagnostic and
exit code 1 in npu-opt, npu-run and npu-translate, never a traceback or an internal error."""
from __future__ import annotations

import errno
import io
import os
import subprocess
import sys

import pytest

from npu_opt.tools import npu_opt, npu_run, npu_translate
from npu_opt.tools.stdout_guard import StdoutError, guard_stdout

DATA = os.path.join(os.path.dirname(__file__), "..", "..", "data")
QUICKSTART = os.path.join(os.path.dirname(__file__), "..", "..", "..", "examples", "quickstart.mlir")


class _Failing(io.StringIO):
    """A stdout whose writes fail as a full disk's (or a closed pipe's) do."""

    def __init__(self, code: int) -> None:
        super().__init__()
        self.code = code

    def write(self, text: str) -> int:
        raise OSError(self.code, os.strerror(self.code))

    @property
    def buffer(self) -> "_Failing":
        return self


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EPIPE])
@pytest.mark.parametrize("tool, argv", [
    (npu_opt.main, [QUICKSTART]),
    (npu_opt.main, ["--list-passes"]),
    (npu_translate.main, ["--mlir-to-dot", QUICKSTART]),
    (npu_run.main, [os.path.join(DATA, "conv.tflite")]),
])
def test_a_failing_stdout_is_one_error(tool, argv, code, monkeypatch, capsys) -> None:
    failing = _Failing(code)
    monkeypatch.setattr(sys, "stdout", failing)
    assert tool(argv) == 1
    err = capsys.readouterr().err
    program = {npu_opt.main: "npu-opt", npu_translate.main: "npu-translate", npu_run.main: "npu-run"}[tool]
    assert err == f"{program}: error: cannot write to standard output: {os.strerror(code)}\n"
    assert sys.stdout is failing  # restored


def test_guard_passes_the_code_and_restores_stdout(capsys) -> None:
    before = sys.stdout
    assert guard_stdout("x", lambda: 3) == 3
    assert sys.stdout is before


def test_the_error_keeps_the_systems_reason() -> None:
    assert StdoutError(OSError(errno.ENOSPC, "No space left on device")).reason == "No space left on device"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("module, argv", [
    ("npu_opt.tools.npu_opt", [QUICKSTART]),
    ("npu_opt.tools.npu_translate", ["--mlir-to-dot", QUICKSTART]),
    ("npu_opt.tools.npu_run", [os.path.join(DATA, "conv.tflite")]),
])
def test_dev_full_exits_1_with_one_line(module, argv) -> None:
    with open("/dev/full", "wb") as full:
        done = subprocess.run([sys.executable, "-m", module, *argv], stdout=full, stderr=subprocess.PIPE,
                              text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    assert done.stderr.endswith("error: cannot write to standard output: No space left on device\n"), done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
