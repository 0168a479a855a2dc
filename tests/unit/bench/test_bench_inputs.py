"""A bench without its inputs says which one is missing in one line, exits 1 and leaves its
committed result alone; a bench asked for part of its run does not overwrite the full result
(bench/bench_inputs.py, used by every bench that reads the corpus or runs Vela)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench_loader import BENCH, load_bench_script

EMPTY_CORPUS_RUNS = [("width_bands", "WIDTH_BANDS.md", []), ("budget_sweep", "BUDGET_SWEEP.md", []),
                     ("tflite_io", "TFLITE_IO.md", []), ("size_peak", "SIZE_PEAK.md", []),
                     ("summary_csv_fidelity", "SUMMARY_CSV_FIDELITY.md", []), ("codec_speed", "CODEC_SPEED.md", []),
                     ("codegen", "CODEGEN.md", []), ("simulator", "SIMULATOR.md", []),
                     ("vela_cores", "VELA_CORES.md", [])]
"""(bench, its committed result, extra arguments): benches run whole against an empty corpus."""


def run_bench(name: str, args: list[str], corpus: Path) -> subprocess.CompletedProcess[str]:
    """``python bench/NAME.py ARGS`` as a user runs it, with ``NPU_OPT_CORPUS`` at ``corpus``."""
    env = {**os.environ, "NPU_OPT_CORPUS": str(corpus)}
    return subprocess.run([sys.executable, str(BENCH / f"{name}.py"), *args], capture_output=True, text=True,
                          env=env, timeout=120)


@pytest.mark.parametrize("name, result, args", EMPTY_CORPUS_RUNS)
def test_an_empty_corpus_is_one_line_and_the_result_is_untouched(tmp_path: Path, name: str, result: str,
                                                                 args: list[str]) -> None:
    committed = BENCH / result
    before = (committed.read_bytes(), committed.stat().st_mtime_ns)
    done = run_bench(name, args, tmp_path)
    assert done.returncode == 1
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr
    assert lines[0].startswith(f"{name}.py: missing input '{tmp_path}")
    assert f"nothing written to bench/{result}" in lines[0] and "NPU_OPT_CORPUS=DIR" in lines[0]
    assert (committed.read_bytes(), committed.stat().st_mtime_ns) == before


@pytest.mark.parametrize("name, result, args", [("width_bands", "WIDTH_BANDS.md", ["--models", "kws_dscnn"]),
                                                ("random_networks", "RANDOM_NETWORKS.md", ["--seeds", "0:2"])])
def test_part_of_a_run_does_not_overwrite_the_full_result(tmp_path: Path, name: str, result: str,
                                                          args: list[str]) -> None:
    committed = BENCH / result
    before = committed.read_bytes()
    done = run_bench(name, args, tmp_path)
    assert done.returncode == 1
    assert done.stderr.strip() == (f"{name}.py: {' '.join(args)} runs part of the bench, which would overwrite "
                                   f"the full result bench/{result}; nothing written (give --out FILE for a "
                                   "partial result)")
    assert committed.read_bytes() == before


def test_a_partial_run_elsewhere_checks_only_its_own_inputs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_bench_script("width_bands")
    out = tmp_path / "part.md"
    assert bench.main(["--corpus", str(tmp_path), "--models", "kws_dscnn", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert f"missing input '{tmp_path / 'models' / 'kws_dscnn.tflite'}';" in err  # only the one model asked for
    assert f"nothing written to {out}" in err and not out.exists()


def test_a_missing_program_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    inputs = load_bench_script("bench_inputs")
    monkeypatch.setenv("PATH", str(tmp_path))  # no vela here
    out = tmp_path / "out.md"
    assert not inputs.inputs_present("some_bench.py", out, [], ["vela"])
    assert capsys.readouterr().err == (f"some_bench.py: missing input 'vela' on PATH; nothing written to {out} "
                                       "(pip install ethos-u-vela==5.2.0)\n")
    assert inputs.inputs_present("some_bench.py", out, [tmp_path])


def test_the_corpus_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    inputs = load_bench_script("bench_inputs")
    monkeypatch.setenv("NPU_OPT_CORPUS", str(tmp_path))
    assert inputs.default_corpus() == tmp_path
    monkeypatch.delenv("NPU_OPT_CORPUS")
    assert inputs.default_corpus() == BENCH.parent.parent / "shared" / "corpus"
