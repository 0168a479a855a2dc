"""bench/perf_fidelity.py says where the corpus comes from when it is missing, rejects unknown
configs and models with one message (exit 1, no traceback), and verifies each imported model."""
from __future__ import annotations

from pathlib import Path

import pytest

from bench_loader import load_bench_script

DATA = Path(__file__).resolve().parents[2] / "data"


def load():
    return load_bench_script("perf_fidelity")


def test_missing_corpus_is_one_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bench = load()
    assert bench.main(["--corpus", str(tmp_path), "--out", str(tmp_path / "out.md")]) == 1
    err = capsys.readouterr().err
    assert "missing input" in err and "../shared/corpus" in err and "README.md" in err and "--corpus DIR" in err
    assert not (tmp_path / "out.md").exists()


def test_unknown_config_and_model_are_one_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bench = load()
    (tmp_path / "models").mkdir()
    (tmp_path / "vela_reports").mkdir()
    assert bench.main(["--corpus", str(tmp_path), "--configs", "Z"]) == 1
    assert "unknown config Z" in capsys.readouterr().err
    assert bench.main(["--corpus", str(tmp_path), "--models", "nothing", "--out", str(tmp_path / "out.md")]) == 1
    err = capsys.readouterr().err
    assert "missing input" in err and "nothing.tflite" in err


def test_a_model_the_verifier_rejects_is_reported_not_costed(monkeypatch: pytest.MonkeyPatch) -> None:
    bench = load()
    data = (DATA / "conv.tflite").read_bytes()
    assert bench.estimate_rows(data, "conv", "A")  # the imported model verifies: rows

    def rejecting(module, engine) -> bool:
        from npu_opt.ir.diagnostics import Diagnostic
        engine.emit(Diagnostic("error", "'tfl.transpose_conv' op expected 4 operands, but found 3", None))
        return False
    monkeypatch.setattr(bench, "verify", rejecting)
    with pytest.raises(bench.ModelError, match="does not go through the pipeline:\n.*expected 4 operands"):
        bench.estimate_rows(data, "conv", "A")
