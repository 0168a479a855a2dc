"""The cost model's IR side: #npu.block / #npu.cost attributes, the npu-op adapter, the passes and
the perf report (dialects/npu/perf/ir_attrs.py, ir_adapter.py, passes/npu_perf.py,
tools/perf_report.py)."""
from __future__ import annotations

import csv
import io
import json

import pytest

import npu_opt.dialects  # noqa: F401  (registers the dialects)
import npu_opt.passes  # noqa: F401  (registers the passes)
from npu_opt.hardware.perf import OpKind, Shape4
from npu_opt.dialects.npu.perf.ir_adapter import describe_op, op_weights_hwio, report_name
from npu_opt.dialects.npu.perf.ir_attrs import BlockAttr, CostAttr
from npu_opt.dialects.npu.target_attr import target_of
from npu_opt.ir.diagnostics import DiagnosticEngine, SourceManager
from npu_opt.ir.parser import ParseOptions, parse_module
from npu_opt.ir.pass_manager import PassManager
from npu_opt.ir.pass_registry import parse_pipeline
from npu_opt.ir.printer import print_op
from npu_opt.tools.perf_report import COLUMNS, collect_rows, render

HEADER = ('module attributes {npu.target = #npu.target<"ethos-u55-128", system_config = '
          '"Ethos_U55_High_End_Embedded", memory_mode = "Sram_Only">} {\n')


def parse(body: str):
    return parse_module(HEADER + body + "}\n", "test.mlir", ParseOptions(False))


def run(module, pipeline: str) -> None:
    PassManager(parse_pipeline(pipeline), DiagnosticEngine(SourceManager())).run(module)


def test_block_attr_round_trip() -> None:
    attr = BlockAttr((13, 6, 16), (32, 8, 8), 32, "part_kernel")
    assert str(attr) == "#npu.block<13x6x16, ifm = 32x8x8, acc = 32, traversal = part_kernel>"
    assert BlockAttr.parse(str(attr)[len("#npu.block<"):-1]) is attr
    assert attr.ofm_block == Shape4(1, 13, 6, 16) and attr.is_partkernel
    for body, message in (("13x6", "HxWxD"), ("13x6x16, ifm = 1x1x8, acc = 33, traversal = depth_first", "33"),
                          ("13x6x16, ifm = 1x1x8, acc = 32, traversal = sideways", "traversal"),
                          ("13x6x16, ifm = 1x1x8, acc = 32", "missing field 'traversal'"), ("13x6x16, x = 1", "unknown field 'x'")):
        with pytest.raises(ValueError, match=message):
            BlockAttr.parse(body)


def test_cost_attr_round_trip_and_sum() -> None:
    a = CostAttr.from_parts((320.0, 288.0, 288.0, 0.0, 320.0, 0.0, 0.0, 16588.8), 1024, 1024, (1024.0, 0.0, 0.0, 0.0),
                 (256.0, 0.0, 0.0, 0.0))
    text = str(a)
    assert text.startswith("#npu.cost<total = 320, npu = 288, compute = 288, dma = 0, sram = 320, dram = 0, "
                           "on_chip_flash = 0, off_chip_flash = 16588.8, macs = 1024, hw_macs = 1024, "
                           "read = [1024, 0, 0, 0], written = [256, 0, 0, 0]>")
    assert CostAttr.parse(text[len("#npu.cost<"):-1]) is a
    total = CostAttr.summed([a, a])
    assert total.cycle("npu") == 576 and total.macs == 2048 and total.read[0] == 2048
    with pytest.raises(ValueError, match="missing"):
        CostAttr.parse("total = 1")
    with pytest.raises(ValueError, match=r"read takes 4 values, not \[1.0, 2.0\]"):
        CostAttr.parse(text[len("#npu.cost<"):-1].replace("read = [1024, 0, 0, 0]", "read = [1, 2]"))



def test_cost_attr_split_and_weights_round_trip_and_sum() -> None:
    """The purpose split and the weight sizes print after the byte lists, parse back and add up;
    text without them parses as not recorded (split None), a partial split is an error."""
    cycles = (100.0, 100.0, 90.0, 10.0, 50.0, 0.0, 0.0, 20.0)
    split = ((64.0, 0.0, 0.0, 0.0), (32.0, 0.0, 0.0, 0.0), (40.0, 0.0, 0.0, 48.0), (48.0, 0.0, 0.0, 0.0))
    a = CostAttr.from_parts(cycles, 10, 12, (114.0, 0.0, 0.0, 48.0), (80.0, 0.0, 0.0, 0.0), split, 40, (0, 0, 0, 80), 36)
    text = str(a)
    assert text.endswith("read = [114, 0, 0, 48], written = [80, 0, 0, 0], fm_read = [64, 0, 0, 0], "
                         "fm_written = [32, 0, 0, 0], weight_read = [40, 0, 0, 48], weight_written = [48, 0, 0, 0], "
                         "original_weights = 36, encoded_weights = 40, stored = [0, 0, 0, 80]>")
    assert CostAttr.parse(text[len("#npu.cost<"):-1]) is a
    total = CostAttr.summed([a, a])
    assert total.part("weight_read") == (80.0, 0.0, 0.0, 96.0) and total.encoded_weights == 80
    assert total.stored == (0, 0, 0, 160) and total.original_weights == 72
    plain = CostAttr.from_parts(cycles, 10, 12, (114.0, 0.0, 0.0, 48.0), (80.0, 0.0, 0.0, 0.0))
    assert plain.split is None and plain.part("fm_read") is None and "fm_read" not in str(plain)
    assert CostAttr.summed([a, plain]).split is None
    body = text[len("#npu.cost<"):-1]
    with pytest.raises(ValueError, match="come together"):
        CostAttr.parse(body.replace(", fm_written = [32, 0, 0, 0]", ""))
    with pytest.raises(ValueError, match="expected an integer, found '0.5'"):
        CostAttr.parse(body.replace("stored = [0, 0, 0, 80]", "stored = [0, 0, 0, 0.5]"))

def test_attributes_parse_in_ir() -> None:
    module = parse('  func.func @f() attributes {npu.block = #npu.block<2x2x8, ifm = 4x4x8, acc = 40, '
                   'traversal = depth_first>} {\n    return\n  }\n')
    assert "#npu.block<2x2x8, ifm = 4x4x8, acc = 40, traversal = depth_first>" in print_op(module)


BINARY = '''  func.func @f(%a: tensor<1x4x4x16xi8>) -> tensor<1x4x4x16xi8> {
    %c = "tfl.pseudo_const"() <{value = dense<3> : tensor<1x4x4x16xi8>}> : () -> tensor<1x4x4x16xi8>
    %s = "tfl.pseudo_const"() <{value = dense<2> : tensor<i8>}> : () -> tensor<i8>
    %0 = "npu.sub"(%c, %a) <{name = "swapped"}> : (tensor<1x4x4x16xi8>, tensor<1x4x4x16xi8>) -> tensor<1x4x4x16xi8>
    %1 = "npu.mul"(%s, %0) <{name = "scalar"}> : (tensor<i8>, tensor<1x4x4x16xi8>) -> tensor<1x4x4x16xi8>
    return %1 : tensor<1x4x4x16xi8>
  }
'''


def test_adapter_swaps_constant_operands_and_finds_scalars() -> None:
    module = parse(BINARY)
    target = target_of(module)
    sub, mul = [op for op in module.walk() if op.name in ("npu.sub", "npu.mul")]
    d = describe_op(sub, target)
    assert d is not None and d.kind is OpKind.ELEMENTWISE_BINARY and d.elementwise == "sub"
    # The constant first operand becomes IFM2 and stays in permanent storage (the on-chip flash).
    assert d.ifm.memory == "Sram" and d.ifm2 is not None and d.ifm2.memory == "OnChipFlash"
    m = describe_op(mul, target)
    assert m is not None and m.ifm2_scalar and m.ifm2 is not None and m.ifm2.shape == Shape4(1, 1, 1, 1)
    assert report_name(sub) == "swapped"
    # A placement override moves one tensor (what a scheduler asks).
    moved = describe_op(sub, target, placement={sub.operands[1]: "Dram"})
    assert moved is not None and moved.ifm.memory == "Dram"


CONV = '''  func.func @f(%x: tensor<1x8x8x2xi8>) -> tensor<1x8x8x2xi8> {
    %w = "tfl.pseudo_const"() <{value = dense<[[[[1, 2]]], [[[3, 4]]]]> : tensor<2x1x1x2xi8>}> : () -> tensor<2x1x1x2xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<2xi32>}> : () -> tensor<2xi32>
    %0 = "npu.conv2d"(%x, %w, %b) <{kernel = #npu.kernel<1x1>}> : (tensor<1x8x8x2xi8>, tensor<2x1x1x2xi8>, tensor<2xi32>) -> tensor<1x8x8x2xi8>
    %1 = "npu.avg_pool"(%0) <{kernel = #npu.kernel<1x1>, name = "pool"}> : (tensor<1x8x8x2xi8>) -> tensor<1x8x8x2xi8>
    return %x : tensor<1x8x8x2xi8>
  }
'''


def test_adapter_weights_layout() -> None:
    module = parse(CONV)
    conv = next(op for op in module.walk() if op.name == "npu.conv2d")
    hwio = op_weights_hwio(conv)
    assert hwio is not None and hwio.shape == (1, 1, 2, 2) and hwio[0, 0, :, 1].tolist() == [3, 4]
    d = describe_op(conv, target_of(module))
    assert d is not None and d.weights is not None and d.weights.raw_elements == 4
    assert d.weights.memory == "OnChipFlash" and d.kernel.elements_wh() == 1


def test_passes_annotate_ops_and_module() -> None:
    module = parse(CONV)
    run(module, "npu-select-block-config,npu-estimate")
    conv, pool = [op for op in module.walk() if op.name in ("npu.conv2d", "npu.avg_pool")]
    assert isinstance(conv.attr("npu.block"), BlockAttr) and isinstance(pool.attr("npu.cost"), CostAttr)
    totals = module.attr("npu.cost_totals")
    assert isinstance(totals, CostAttr)
    assert totals.cycle("npu") == conv.attr("npu.cost").cycle("npu") + pool.attr("npu.cost").cycle("npu")
    rows = collect_rows(module)
    assert [r["op"] for r in rows] == ["npu.conv2d", "npu.avg_pool"]
    assert rows[1]["name"] == "pool" and rows[0]["nn_macs"] == 8 * 8 * 2 * 2
    text = render(rows, "out.csv")
    table = list(csv.DictReader(io.StringIO(text)))
    assert list(table[0]) == list(COLUMNS) and table[-1]["name"] == "TOTAL"
    assert float(table[-1]["npu_cycles"]) == totals.cycle("npu")
    data = json.loads(render(rows, "out.JSON"))
    assert data[-1]["total_cycles"] == pytest.approx(sum(r["total_cycles"] for r in rows))
