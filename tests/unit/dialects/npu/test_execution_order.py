"""npu-order: Vela's execution order as npu.time, and the DMA slack chain that follows it.

The order cases are small tfl graphs legalised and ordered in-process; the model cases check the
order against the layer order of Vela's own per-layer reports (tests/data/vela, made by Vela
5.2.0's legacy core), for the models built to exercise it (branches, two outputs, a CPU op in
the middle) and for elementwise.tflite, whose outputs Vela runs last to first.
"""
from __future__ import annotations

import csv
from pathlib import Path

import pytest

import npu_opt.dialects  # noqa: F401
import npu_opt.passes  # noqa: F401
from npu_opt.dialects.tfl.tflite import import_tflite
from npu_opt.ir.core import Operation
from npu_opt.ir.diagnostics import DiagnosticEngine
from npu_opt.ir.parser import parse_module
from npu_opt.ir.pass_manager import PassManager
from npu_opt.ir.pass_registry import parse_pipeline
from npu_opt.dialects.npu.schedule_attrs import TIME_ATTR
from npu_opt.dialects.npu.execution_order import ExecutionOrder, execution_order, graph_blocks, npu_runs
from npu_opt.ir.analysis import AnalysisManager
from npu_opt.tools.perf_report import collect_rows
from npu_opt.tools.api import set_target

DATA = Path(__file__).resolve().parents[3] / "data"
Q = "!quant.uniform<i8:f32, 0.5>"
FM = f"tensor<1x4x4x8x{Q}>"


def _run(module: Operation, pipeline: str) -> Operation:
    engine = DiagnosticEngine()
    PassManager(parse_pipeline(pipeline), engine, True, [], None).run(module)
    return module


def _times(text: str) -> list[str]:
    """Names (locations) of the executed ops of @f in npu.time order, after legalize + order."""
    module = _run(parse_module(text, "t.mlir"), "npu-legalize,npu-order")
    block = next(iter(graph_blocks(module)))
    return [str(getattr(op.attr("name"), "value", "") or getattr(op.location, "name", "")) for op in
            execution_order(block)]


def _unary(name: str, x: str, out: str) -> str:
    return f'    %{out} = "tfl.relu"(%{x}) : ({FM}) -> {FM} loc("{name}")\n'


def _add(name: str, a: str, b: str, out: str) -> str:
    return (f'    %{out} = "tfl.add"(%{a}, %{b}) <{{fused_activation_function = "NONE"}}> : ({FM}, {FM}) -> {FM} '
            f'loc("{name}")\n')


def _cpu(name: str, x: str, out: str) -> str:
    """PADV2 of zero padding: an int8 op Vela leaves to the CPU."""
    return (f'    %{out}p = "tfl.pseudo_const"() <{{value = dense<0> : tensor<4x2xi32>}}> : () -> tensor<4x2xi32>\n'
            f'    %{out}v = "tfl.pseudo_qconst"() <{{qtype = tensor<{Q}>, value = dense<0> : tensor<i8>}}> : '
            f'() -> tensor<{Q}>\n'
            f'    %{out} = "tfl.padv2"(%{x}, %{out}p, %{out}v) : ({FM}, tensor<4x2xi32>, tensor<{Q}>) -> {FM} '
            f'loc("{name}")\n')


def _func(body: str, results: list[str]) -> str:
    types = ", ".join([FM] * len(results))
    return (f"func.func @f(%x: {FM}) -> ({types}) {{\n{body}    return "
            f"{', '.join('%' + r for r in results)} : {types}\n}}\n")


def test_branch_feeding_the_later_operand_runs_first() -> None:
    body = _unary("stem", "x", "s") + _unary("left", "s", "l") + _unary("right", "s", "r") + _add("join", "l", "r", "j")
    assert _times(_func(body, ["j"])) == ["stem_avgpool", "right_avgpool", "left_avgpool", "join"]


def test_last_output_runs_first() -> None:
    body = _unary("a", "x", "a") + _unary("b", "x", "b") + _unary("c", "a", "c")
    assert _times(_func(body, ["c", "b"])) == ["b_avgpool", "a_avgpool", "c_avgpool"]


def test_a_value_used_twice_is_released_once_both_uses_are_placed() -> None:
    body = _unary("a", "x", "a") + _unary("b", "x", "b") + _add("twice", "a", "a", "t")
    assert _times(_func(body, ["t", "b"])) == ["b_avgpool", "a_avgpool", "twice"]


def _dequantize(name: str, x: str, out: str) -> str:
    return f'    %{out} = "tfl.dequantize"(%{x}) : ({FM}) -> tensor<1x4x4x8xf32> loc("{name}")\n'


def test_cpu_op_on_graph_inputs_moves_first() -> None:
    # Backward walk: cpu (first output), then npu -> order npu, cpu; the CPU op reads only the
    # graph input, so it goes to the front (and, in front, does not sink).
    text = (f"func.func @f(%x: {FM}) -> (tensor<1x4x4x8xf32>, {FM}) {{\n" + _dequantize("cpu", "x", "c")
            + _unary("npu", "x", "n") + f"    return %c, %n : tensor<1x4x4x8xf32>, {FM}\n}}\n")
    assert _times(text) == ["cpu", "npu_avgpool"]


def test_cpu_op_sinks_to_the_end_past_npu_ops_that_do_not_read_it() -> None:
    # Backward walk: b (first output), cpu (second), a -> order a, cpu, b; b does not read the
    # CPU op's result and is last, so the CPU op moves after it.
    body = _unary("a", "x", "a") + _cpu("cpu", "a", "c") + _unary("b", "a", "b")
    assert _times(_func(body, ["b", "c"])) == ["a_avgpool", "b_avgpool", "cpu"]


def test_cpu_op_stays_when_an_npu_op_before_the_end_reads_it() -> None:
    # Order a, cpu, b, join: b does not read the CPU op but join does, and the CPU op moves only
    # to the end or to the next CPU op.
    body = (_unary("a", "x", "a") + _cpu("cpu", "a", "c") + _unary("b", "x", "b")
            + _add("join", "b", "c", "j"))
    assert _times(_func(body, ["j"])) == ["a_avgpool", "cpu", "b_avgpool", "join"]


def test_concat_writers_split_by_a_cpu_op_are_regrouped() -> None:
    # Vela order: a, cat0 writer, cpu, cat1 writer; the first writer then moves next to the
    # second, so the concatenation is written within one command stream.
    cat = "tensor<1x4x4x16x!quant.uniform<i8:f32, 0.5>>"
    text = (f"func.func @f(%x: {FM}) -> {cat} {{\n" + _unary("a", "x", "a") + _cpu("cpu", "x", "c")
            + f'    %j = "tfl.concatenation"(%a, %c) <{{axis = 3 : i32, fused_activation_function = "NONE"}}> : '
            f'({FM}, {FM}) -> {cat} loc("cat")\n    return %j : {cat}\n}}\n')
    assert _times(text) == ["a_avgpool", "cpu", "cat0_avgpool", "cat1_avgpool"]


def test_npu_runs_split_at_cpu_ops() -> None:
    body = _unary("a", "x", "a") + _cpu("cpu", "a", "c") + _unary("b", "c", "b")
    module = _run(parse_module(_func(body, ["b"]), "t.mlir"), "npu-legalize,npu-order")
    runs = npu_runs(next(iter(graph_blocks(module))))
    assert [[op.attr("name").value for op in run] for run in runs] == [["a_avgpool"], ["b_avgpool"]]


def test_partial_numbering_is_an_error_not_a_guess() -> None:
    body = _unary("a", "x", "a") + _unary("b", "a", "b")
    module = _run(parse_module(_func(body, ["b"]), "t.mlir"), "npu-legalize,npu-order")
    block = next(iter(graph_blocks(module)))
    first = next(op for op in block.ops if op.attr(TIME_ATTR) is not None)
    del first.attributes[TIME_ATTR]
    with pytest.raises(ValueError, match="npu.time"):
        execution_order(block)


def test_the_execution_order_analysis_is_computed_once_until_a_pass_changes_the_ir() -> None:
    body = _unary("a", "x", "a") + _cpu("cpu", "a", "c") + _unary("b", "c", "b")
    module = _run(parse_module(_func(body, ["b"]), "t.mlir"), "npu-legalize,npu-order")
    block = next(iter(graph_blocks(module)))
    manager = AnalysisManager()
    found = ExecutionOrder.of(block, manager)
    assert found.error is None and found.order == execution_order(block) and found.runs == npu_runs(block)
    assert ExecutionOrder.of(block, manager) is found and manager.computed["ExecutionOrder"] == 1
    manager.invalidate()  # (what the pass manager does after a pass that changed the IR)
    ExecutionOrder.of(block, manager)
    assert manager.computed["ExecutionOrder"] == 2
    first = next(op for op in block.ops if op.attr(TIME_ATTR) is not None)
    del first.attributes[TIME_ATTR]
    manager.invalidate()
    assert "npu.time" in (ExecutionOrder.of(block, manager).error or "")


def _vela_layers(model: str, config: str) -> list[str]:
    path = DATA / "vela" / f"{model}.csv"
    if not path.exists():
        pytest.skip(f"no Vela report {path} (python tests/data/vela/make_reports.py)")
    with path.open(encoding="utf-8") as handle:
        return [row["name"] for row in csv.DictReader(handle) if row["config"] == config]


@pytest.mark.parametrize("model", ["branches", "two_outputs", "cpu_middle", "elementwise"])
def test_report_rows_follow_vela_layer_order(model: str) -> None:
    vela = _vela_layers(model, "u55-128")
    module = set_target(import_tflite((DATA / f"{model}.tflite").read_bytes(), model), "ethos-u55-128",
                        system_config="Ethos_U55_High_End_Embedded", memory_mode="Shared_Sram")
    rows = [row["name"] for row in collect_rows(_run(module, "estimate"))]
    assert [name for name in rows if name in set(vela)] == vela


def _lut(name: str, x: str, out: str) -> str:
    return f'    %{out} = "tfl.tanh"(%{x}) : ({FM}) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.0078125>> loc("{name}")\n'


def _estimate_rows(text: str) -> dict[str, dict]:
    module = set_target(parse_module(text, "t.mlir"), "ethos-u55-64", system_config="Ethos_U55_High_End_Embedded",
                        memory_mode="Shared_Sram")
    return {row["name"]: row for row in collect_rows(_run(module, "estimate"))}


def test_dma_chain_restarts_after_a_cpu_op() -> None:
    """A LUT load after an NPU op hides under that op's compute; after a CPU op it cannot."""
    out = "tensor<1x4x4x8x!quant.uniform<i8:f32, 0.0078125>>"
    after_npu = _estimate_rows(f"func.func @f(%x: {FM}) -> {out} {{\n" + _unary("a", "x", "a") + _unary("b", "a", "b")
                               + _lut("t", "b", "t") + f"    return %t : {out}\n}}\n")
    after_cpu = _estimate_rows(f"func.func @f(%x: {FM}) -> {out} {{\n" + _unary("a", "x", "a") + _cpu("cpu", "a", "b")
                               + _lut("t", "b", "t") + f"    return %t : {out}\n}}\n")
    hidden, exposed = after_npu["t_lut_tanh"]["npu_cycles"], after_cpu["t_lut_tanh"]["npu_cycles"]
    assert exposed > hidden
    alone = _estimate_rows(f"func.func @f(%x: {FM}) -> {out} {{\n" + _lut("t", "x", "t") + f"    return %t : {out}\n}}\n")
    assert exposed == alone["t_lut_tanh"]["npu_cycles"]


CORPUS = Path(__file__).resolve().parents[5] / "shared" / "corpus"


@pytest.mark.parametrize("model", ["ic_resnet8", "mobilenet_v2_035_96", "kws_dscnn"])
def test_corpus_models_run_in_vela_layer_order(model: str) -> None:
    """Residual networks from the shared corpus: our schedule lists the layers as Vela's report does
    (their file order already is Vela's: this guards against moving what needs no move)."""
    report = CORPUS / "vela_reports" / f"{model}_A_Performance_legacy_per_layer.csv"
    if not report.exists():
        pytest.skip(f"no shared corpus at {CORPUS} (see ../shared/corpus/README.md)")
    with report.open(encoding="utf-8") as handle:
        vela = [row["Name"] for row in csv.DictReader(handle)]
    module = _run(import_tflite((CORPUS / "models" / f"{model}.tflite").read_bytes(), model), "npu-legalize,npu-order")
    ours = [op.attr("name").value for block in graph_blocks(module) for op in execution_order(block)
            if op.attr("name") is not None]
    assert [name for name in ours if name in set(vela)] == vela
