"""ai-edge-litert in a child process (tools/litert_process.py): results and user errors come back,
a child that dies is one error naming the signal, and npu-run turns LiteRT's real abort (its
reference int8 softmax on a row of exponentials summing to 512 or more) into that one line."""
from __future__ import annotations

import os
import signal

import numpy as np
import pytest

from npu_opt.ir.diagnostics import UserError
from npu_opt.tools.litert_process import death_text, run_in_child


def _sum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a + b


def _refuse(name: str) -> None:
    raise UserError(f"no model named '{name}'")


def _abort() -> None:
    os.abort()


def _bug() -> None:
    raise KeyError("oops")


def test_result_and_user_error_come_back() -> None:
    assert run_in_child(_sum, (np.arange(3), np.ones(3, dtype=np.int64)), "m", "reference").tolist() == [1, 2, 3]
    with pytest.raises(UserError, match="no model named 'x'"):
        run_in_child(_refuse, ("x",), "m", "reference")


def test_death_by_signal_is_one_user_error_with_the_hint() -> None:
    with pytest.raises(UserError) as caught:
        run_in_child(_abort, (), "net.tflite", "reference")
    assert caught.value.diagnostic.message == (
        "ai-edge-litert crashed running 'net.tflite' with its reference kernels (killed by signal SIGABRT); "
        "its optimised kernels may run it: --tflite-kernels=builtin")
    with pytest.raises(UserError) as caught:
        run_in_child(_abort, (), "net.tflite", "optimised")
    assert caught.value.diagnostic.message.endswith("with its optimised kernels (killed by signal SIGABRT)")


def test_a_bug_in_the_child_is_not_a_user_error() -> None:
    with pytest.raises(RuntimeError, match="KeyError"):
        run_in_child(_bug, (), "m", "reference")


def test_death_text() -> None:
    assert death_text(-signal.SIGSEGV) == "killed by signal SIGSEGV"
    assert death_text(3) == "exited with status 3 without a result"


def test_npu_run_reports_litert_aborting(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    """A 1000-class softmax at input scale 1/256: LiteRT's reference kernels abort on npu-run's
    random inputs; npu-run prints one error and exits 1, with no output file. Its optimised
    kernels run the model, and the NPU's softmax equals them."""
    pytest.importorskip("ai_edge_litert.interpreter")
    from softmax_models import softmax_model

    from npu_opt.tools.npu_run import main

    model = tmp_path / "probs.tflite"
    model.write_bytes(softmax_model(1, 1000, 1 / 256, 0, 1.0))
    out = tmp_path / "out.npz"
    assert main([str(model), "--compare-tflite", "-o", str(out)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [
        f"npu-run: error: ai-edge-litert crashed running '{model}' with its reference kernels (killed by signal "
        "SIGABRT); its optimised kernels may run it: --tflite-kernels=builtin"]
    assert not out.exists()
    assert main([str(model), "--compare-tflite", "--tflite-kernels=builtin", "--pipeline=estimate",
                 "--target=ethos-u55-128", "-o", str(out)]) == 0
    assert "compare 0 'probs': max abs diff 0, 0 of 1000 elements differ" in capsys.readouterr().out
    assert out.exists()
