"""bench/compile_time.py says where the corpus comes from when it is missing (exit 1, no
traceback), and its report renders medians and ratios."""
from __future__ import annotations

from pathlib import Path

import pytest

from bench_loader import load_bench_script


def load():
    return load_bench_script("compile_time")


def test_missing_corpus_is_one_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bench = load()
    assert bench.main(["--corpus", str(tmp_path), "--out", str(tmp_path / "out.md")]) == 1
    err = capsys.readouterr().err
    assert "missing input" in err and "kws_dscnn.tflite" in err and "../shared/corpus" in err and "--corpus" in err
    assert not (tmp_path / "out.md").exists()


def test_bad_options_are_one_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bench = load()
    assert bench.main(["--configs", "Z"]) == 1
    assert "unknown config 'Z'" in capsys.readouterr().err


def test_report_shows_medians_and_paired_ratios() -> None:
    bench = load()
    ours = [bench.Usage(1.0, 100.0, 0), bench.Usage(3.0, 120.0, 0), bench.Usage(2.0, 110.0, 0)]
    vela = [bench.Usage(2.0, 50.0, 0), bench.Usage(2.0, 50.0, 0), bench.Usage(8.0, 50.0, 0)]
    row = bench.Row("m", "A", ours, vela)
    assert row.median("ours", "cpu") == 2.0 and row.ratio == 0.5  # ratios 0.5, 1.5, 0.25
    text = bench.render([row], 3)
    assert "| m | A | 2.00 | 110 | 2.00 | 50 | 0.50 | yes |" in text
