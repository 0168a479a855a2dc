"""tools/api.py: the Python API gives what the CLI gives, and fails with the CLI's diagnostics."""
from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from npu_opt.tools import api
from npu_opt.tools.npu_opt import main

DATA = Path(__file__).resolve().parents[2] / "data"
BRANCHES = str(DATA / "branches.tflite")
U65 = dict(system_config="Ethos_U65_High_End", memory_mode="Dedicated_Sram", arena_cache_size=16384)
U65_FLAGS = ["--target=ethos-u65-256", "--system-config=Ethos_U65_High_End", "--memory-mode=Dedicated_Sram",
             "--arena-cache-size=16384"]


def _cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_scheduled_ir_and_summary_are_the_clis(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = api.load(BRANCHES).set_target("ethos-u65-256", **U65).run("schedule{optimise=Size}")
    cli_ir, cli_csv = tmp_path / "cli.mlir", tmp_path / "cli.csv"
    code, out, _ = _cli([BRANCHES, "--pass=schedule{optimise=Size}", *U65_FLAGS, "--summary", "-o", str(cli_ir),
                         f"--summary-csv={cli_csv}"], capsys)
    assert code == 0
    assert model.summary_text() == out
    model.write(str(tmp_path / "api.mlir"))
    assert (tmp_path / "api.mlir").read_text() == cli_ir.read_text()
    model.write_summary_csv(str(tmp_path / "api.csv"))
    assert (tmp_path / "api.csv").read_text() == cli_csv.read_text()
    row = next(csv.DictReader(io.StringIO(cli_csv.read_text())))
    assert float(row["cycles_total"]) == pytest.approx(model.summary()["cycles_total"])


def test_frontier_is_the_pareto_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = api.load(BRANCHES).set_target("ethos-u65-256", **U65).run("schedule{sram-budget=8000}")
    frontier = model.frontier()
    assert frontier.budget == 8000 and len(frontier.points) >= 2
    chosen = frontier.points[frontier.chosen]
    assert chosen.sram <= 8000
    assert all(p.cycles >= chosen.cycles for p in frontier.points if p.sram <= 8000)
    table = tmp_path / "cli.csv"
    assert _cli([BRANCHES, "--pass=schedule{sram-budget=8000}", *U65_FLAGS, f"--pareto={table}", "-o", "/dev/null"],
                capsys)[0] == 0
    model.write_pareto(str(tmp_path / "api.csv"))
    assert (tmp_path / "api.csv").read_text() == table.read_text()


def test_perf_rows_and_text_of_an_mlir_model() -> None:
    model = api.load(DATA.parent / "lit" / "Inputs" / "scheduled-two-convs.mlir")
    model.run("npu-estimate")
    rows = model.perf_rows()
    assert rows and all(row["total_cycles"] > 0 for row in rows)
    assert "npu.target" in model.text() and "loc(" not in model.text(debuginfo=False).split("module")[0]


def test_tflite_written_back_reads_the_same(tmp_path: Path) -> None:
    model = api.load(BRANCHES)
    out = tmp_path / "again.tflite"
    model.write(str(out))
    assert api.load(out).text() == model.text()


def test_set_target_on_a_module_fills_vela_defaults() -> None:
    model = api.parse("func.func @f() {\n  return\n}\n", "t.mlir")
    api.set_target(model.module, "ethos-u55-64")
    assert str(model.module.attr("npu.target")) == (
        '#npu.target<"ethos-u55-64", system_config = "Ethos_U55_High_End_Embedded", memory_mode = "Shared_Sram">')


def _error(call: object) -> str:
    with pytest.raises(api.NpuOptError) as caught:
        call()  # type: ignore[operator]
    return str(caught.value)


def test_errors_are_the_clis_diagnostics(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _cli([BRANCHES, "--target=ethos-u55-100"], capsys)
    assert code == 1
    assert _error(lambda: api.load(BRANCHES).set_target("ethos-u55-100")) + "\n" == err
    code, _, err = _cli([BRANCHES, "--pass=schedul"], capsys)
    assert code == 1 and _error(lambda: api.load(BRANCHES).run("schedul")) + "\n" == err
    missing = str(DATA / "no-such-model.tflite")
    code, _, err = _cli([missing], capsys)
    assert code == 1 and _error(lambda: api.load(missing)) + "\n" == err


def test_a_failing_pass_raises_its_diagnostic_with_the_source_line(capsys: pytest.CaptureFixture[str]) -> None:
    text = '"test.unknown_op"() : () -> ()\n'
    message = _error(lambda: api.parse(text, "bad.mlir"))
    assert message.startswith("bad.mlir:1:") and "error:" in message
    model = api.load(BRANCHES)
    assert "needs the ops costed" in _error(model.summary)
    assert "no 'npu.search' attribute" in _error(model.frontier)
    code, _, err = _cli([BRANCHES, "--pass=estimate"], capsys)
    assert code == 1 and _error(lambda: model.run("estimate")) + "\n" == err


def test_negative_arena_cache_size_is_refused() -> None:
    message = _error(lambda: api.load(BRANCHES).set_target("ethos-u55-128", arena_cache_size=-1))
    assert "arena_cache_size must not be negative, not -1" in message


def test_a_config_file_defines_the_target_as_on_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    ini = str(DATA.parent / "lit" / "Inputs" / "npu-target.ini")
    names = dict(system_config="Test_Fast_Dram", memory_mode="Test_Dedicated_1MB")
    model = api.load(BRANCHES).set_target("ethos-u65-256", config=[ini], **names)
    code, out, _ = _cli([BRANCHES, "--target=ethos-u65-256", f"--config={ini}", "--system-config=Test_Fast_Dram",
                         "--memory-mode=Test_Dedicated_1MB"], capsys)
    assert code == 0 and model.text() == out
    assert "Test_Fast_Dram" in str(model.module.attr("npu.target"))


def test_warnings_of_a_run_are_kept_on_the_model() -> None:
    model = api.load(BRANCHES).set_target("ethos-u55-128", arena_cache_size=1024).run("schedule")
    assert any(d.severity == "warning" for d in model.diagnostics)


def test_run_passes_is_the_step_the_cli_and_run_share() -> None:
    """``run_passes`` verifies, runs the passes with the CLI's instrumentations, and answers False
    (the errors given to the engine) for a module that does not verify or a pass that fails."""
    from npu_opt.ir.diagnostics import DiagnosticEngine
    from npu_opt.ir.pass_manager import Statistics, Timer

    model = api.load(BRANCHES).set_target("ethos-u65-256", **U65)
    seen: list = []
    engine = DiagnosticEngine()
    engine.handler = seen.append
    stats, timer = Statistics(), Timer()
    assert api.run_passes(model.module, api.parse_pipelines(["estimate"]), engine, instrumentations=[stats],
                          timer=timer)
    assert [p.NAME for p, _, _ in stats.runs][-1] == "npu-estimate" and "(V) Verifier" in timer.report()
    broken = api.parse('func.func @f() -> i32 {\n  return\n}\n')
    assert not api.run_passes(broken.module, [], engine) and seen[-1].severity == "error"
    assert not api.run_passes(model.module, api.parse_pipelines(["test-error{op-name=npu.conv2d}"]), engine)
    assert seen[-1].message == "test-error: found 'npu.conv2d'"
