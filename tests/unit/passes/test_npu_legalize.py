"""npu-legalize: the support checks, the padding and stride arithmetic, the lookup tables, and the
pass run on small modules (placement marks, remarks, statistics, names, options)."""
from __future__ import annotations

import math

import pytest

import npu_opt.dialects  # noqa: F401  (registers the dialects)
import npu_opt.passes  # noqa: F401  (registers the passes)
from npu_opt.dialects.npu.ops_common import NpuOp
from npu_opt.ir.diagnostics import Diagnostic, DiagnosticEngine
from npu_opt.ir.parser import parse_module
from npu_opt.ir.pass_manager import PassManager, Statistics
from npu_opt.ir.pass_registry import parse_pipeline
from npu_opt.passes.npu_legalize import LOWERINGS, PLACEMENT_ATTR
from npu_opt.passes.npu_lowering import support, tables
from npu_opt.passes.npu_lowering.padding import explicit_axis, kernel_padding, needed_total_padding, upscaled_padding
from npu_opt.passes.npu_lowering.support import LOWERED, MEMORY_ONLY, VELA_ONLY, resize_factor

Q = "!quant.uniform<i8:f32, 0.5>"


def legalize(text: str, pipeline: str = "npu-legalize") -> tuple[object, dict[str, int], list[Diagnostic]]:
    """Run ``pipeline`` on the module in ``text``: (module, statistics, diagnostics)."""
    module = parse_module(text)
    engine = DiagnosticEngine()
    diags: list[Diagnostic] = []
    engine.handler = diags.append
    stats = Statistics()
    PassManager(parse_pipeline(pipeline), engine, instrumentations=[stats]).run(module)
    return module, dict(stats.runs[-1][1]), diags


def func(args: str, body: str, results: str) -> str:
    return f"func.func @f({args}) -> {results} {{\n{body}\n}}\n"


# -- arithmetic --------------------------------------------------------------------------------
@pytest.mark.parametrize("size, stride, kernel, total", [(8, 2, 3, 1), (5, 2, 3, 2), (7, 1, 3, 2), (4, 4, 1, 0)])
def test_needed_total_padding(size: int, stride: int, kernel: int, total: int):
    assert needed_total_padding(size, stride, kernel) == total


def test_kernel_padding_modes():
    assert kernel_padding("SAME", (8, 8), (3, 3), (2, 2)) == (0, 0, 1, 1)
    assert kernel_padding("SAME", (7, 7), (3, 3), (1, 1)) == (1, 1, 1, 1)
    assert kernel_padding("VALID", (7, 7), (3, 3), (1, 1)) == (0, 0, 0, 0)
    # explicit padding keeps the leading amount and trims the trailing one to the stride
    assert explicit_axis(8, 2, 3, 1, 1) == (1, 0)
    assert kernel_padding("EXPLICIT", (8, 8), (3, 3), (1, 1), (1, 2, 1, 0)) == (1, 2, 1, 0)


def test_upscaled_padding():
    assert upscaled_padding("SAME", (4, 4), (3, 3), (2, 2)) == (2, 2, 0, 0)
    assert upscaled_padding("VALID", (4, 4), (3, 3), (2, 2)) == (2, 2, 1, 1)
    assert upscaled_padding("SAME", (4, 4), (4, 4), (2, 2)) == (2, 2, 1, 1)


@pytest.mark.parametrize("width, stride, expected", [(96, 2, (2, 1)), (224, 2, (2, 1)), (5, 5, (5, 1)),
                                                      (133, 14, (7, 2)), (10, 4, (2, 2)), (7, 4, (1, 4)),
                                                      (9, 6, (3, 2))])
def test_resize_factor(width: int, stride: int, expected: tuple[int, int]):
    assert resize_factor(width, stride) == expected


def test_tables():
    tanh = tables.lut8(math.tanh, (0.5, 0), (1 / 128, 0), unsigned=False)
    assert len(tanh) == 256 and tanh[0] == -128 and tanh[-1] == 127 and tanh[128] == 0
    assert tanh == sorted(tanh)
    sigmoid = tables.lut8(tables.sigmoid, (0.1, 3), (1 / 256, -128), unsigned=False)
    assert sigmoid[0] == -128 + round(256 * tables.sigmoid(0.1 * (-128 - 3)))
    unsigned = tables.lut8(math.tanh, (0.5, 128), (1 / 128, 128), unsigned=True)
    assert min(unsigned) == 0 and max(unsigned) == 255
    hswish = tables.hardswish_lut((0.05, 0), (0.05, 0), unsigned=False)
    assert hswish[128] == 0 and hswish[128 + 100] == 100  # x >= 3: hard_swish(x) == x
    lrelu = tables.lrelu_lut((0.5, 0), (0.5, 0), 0.25, unsigned=False)
    assert lrelu[128 + 10] == 10 and lrelu[128 - 8] == -2
    exp = tables.softmax_exp_lut(1.0, 0.125)
    assert len(exp) == 256 and exp[-1] == (1 << 31) - 1 and exp[0] == 0 and exp == sorted(exp)
    assert tables.exp_on_negative_values(-(1 << 26)) == pytest.approx(math.exp(-1) * 2 ** 31, rel=1e-6)


def test_every_lowered_op_has_a_lowering():
    for name in LOWERED:
        assert name in LOWERINGS or name in MEMORY_ONLY, name
    assert not set(LOWERED) & set(VELA_ONLY)


# -- support checks on single ops ---------------------------------------------------------------
def _op(text: str):
    module = parse_module(text)
    return next(op for op in module.walk() if op.dialect == "tfl" and "const" not in op.name
                and op.name != "tfl.no_value")


def test_check_accepts_and_rejects():
    ok = _op(func(f"%x: tensor<1x4x4x8x{Q}>", f'  %0 = "tfl.relu"(%x) : (tensor<1x4x4x8x{Q}>) -> tensor<1x4x4x8x{Q}>\n'
                  f'  return %0 : tensor<1x4x4x8x{Q}>', f"tensor<1x4x4x8x{Q}>"))
    assert support.check(ok) is None
    pool = _op(func(f"%x: tensor<1x8x8x8x{Q}>",
                    f'  %0 = "tfl.max_pool_2d"(%x) <{{filter_height = 1 : i32, filter_width = 1 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 4 : i32, stride_w = 4 : i32}}> : (tensor<1x8x8x8x{Q}>) -> tensor<1x2x2x8x{Q}>\n'
                    f'  return %0 : tensor<1x2x2x8x{Q}>', f"tensor<1x2x2x8x{Q}>"))
    reason = support.check(pool)
    assert reason is not None and reason.key == "stride" and "4x4" in reason.message


def test_global_pool_stride_fixup_makes_it_supported():
    pool = _op(func(f"%x: tensor<1x5x5x8x{Q}>",
                    f'  %0 = "tfl.max_pool_2d"(%x) <{{filter_height = 5 : i32, filter_width = 5 : i32, fused_activation_function = "NONE", padding = "SAME", stride_h = 5 : i32, stride_w = 5 : i32}}> : (tensor<1x5x5x8x{Q}>) -> tensor<1x1x1x8x{Q}>\n'
                    f'  return %0 : tensor<1x1x1x8x{Q}>', f"tensor<1x1x1x8x{Q}>"))
    assert support.check(pool) is None
    assert support.pool_strides(support.view_of(pool)) == (1, 1, "VALID")


# -- the pass ----------------------------------------------------------------------------------
def test_cpu_op_is_marked_with_a_remark_and_counted():
    text = func(f"%x: tensor<1x4x4x8x{Q}>",
                f'  %p = "tfl.pseudo_const"() <{{value = dense<[0, 2, 1, 3]> : tensor<4xi32>}}> : () -> tensor<4xi32>\n'
                f'  %0 = "tfl.transpose"(%x, %p) : (tensor<1x4x4x8x{Q}>, tensor<4xi32>) -> tensor<1x4x4x8x{Q}> loc("my_t")\n'
                f'  %1 = "tfl.relu"(%0) : (tensor<1x4x4x8x{Q}>) -> tensor<1x4x4x8x{Q}> loc("my_relu")\n'
                f'  return %1 : tensor<1x4x4x8x{Q}>', f"tensor<1x4x4x8x{Q}>")
    module, stats, diags = legalize(text)
    cpu_op = next(op for op in module.walk() if op.name == "tfl.transpose")
    assert cpu_op.attr(PLACEMENT_ATTR).value == "cpu"
    assert [d.severity for d in diags] == ["remark"]
    assert diags[0].message == ("TRANSPOSE 'my_t' runs on the CPU: Vela runs TRANSPOSE on the NPU, but "
                                "npu-legalize does not lower it yet")
    assert stats["cpu-ops"] == 1 and stats["cpu-unimplemented"] == 1 and stats["tfl-ops-lowered"] == 1
    nop = next(op for op in module.walk() if isinstance(op, NpuOp))
    # the ReLU's producer is on the CPU: it needs a 1x1 average pool of its own
    assert nop.name == "npu.avg_pool" and nop.attr("name").value == "my_relu_avgpool"
    assert stats["npu-ops-created"] == 1


def test_names_fall_back_to_op_kind_and_position():
    text = func(f"%x: tensor<1x4x4x8x{Q}>",
                f'  %0 = "tfl.max_pool_2d"(%x) <{{filter_height = 2 : i32, filter_width = 2 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 2 : i32, stride_w = 2 : i32}}> : (tensor<1x4x4x8x{Q}>) -> tensor<1x2x2x8x{Q}>\n'
                f'  return %0 : tensor<1x2x2x8x{Q}>', f"tensor<1x2x2x8x{Q}>")
    module, _, _ = legalize(text)
    pool = next(op for op in module.walk() if op.name == "npu.max_pool")
    assert pool.attr("name").value == "max_pool_2d_0"


def test_asymmetric_weights_need_the_option():
    wq = "!quant.uniform<i8:f32, 0.1:3>"
    text = func(f"%x: tensor<1x4x4x8x{Q}>",
                f'  %w = "tfl.pseudo_qconst"() <{{qtype = tensor<2x1x1x8x{wq}>, value = dense<1> : tensor<2x1x1x8xi8>}}> : () -> tensor<2x1x1x8x{wq}>\n'
                '  %n = "tfl.no_value"() <{value}> : () -> none\n'
                f'  %0 = "tfl.conv_2d"(%x, %w, %n) <{{dilation_h_factor = 1 : i32, dilation_w_factor = 1 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 1 : i32, stride_w = 1 : i32}}> : (tensor<1x4x4x8x{Q}>, tensor<2x1x1x8x{wq}>, none) -> tensor<1x4x4x2x{Q}>\n'
                f'  return %0 : tensor<1x4x4x2x{Q}>', f"tensor<1x4x4x2x{Q}>")
    _, stats, _ = legalize(text)
    assert stats["cpu-asymmetric-weights"] == 1
    module, stats, _ = legalize(text, "npu-legalize{force-symmetric-int-weights=true}")
    assert stats.get("cpu-ops", 0) == 0
    conv = next(op for op in module.walk() if op.name == "npu.conv2d")
    assert conv.operands[1].type.element_type.zero_points == (0,)  # Vela zeroes the zero points


def test_no_tfl_compute_op_survives_on_the_npu():
    text = func(f"%x: tensor<1x8x8x8x{Q}>, %y: tensor<1x8x8x8x{Q}>",
                f'  %0 = "tfl.add"(%x, %y) <{{fused_activation_function = "NONE"}}> : (tensor<1x8x8x8x{Q}>, tensor<1x8x8x8x{Q}>) -> tensor<1x8x8x8x{Q}>\n'
                f'  %1 = "tfl.relu6"(%0) : (tensor<1x8x8x8x{Q}>) -> tensor<1x8x8x8x{Q}>\n'
                f'  %2 = "tfl.average_pool_2d"(%1) <{{filter_height = 2 : i32, filter_width = 2 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 2 : i32, stride_w = 2 : i32}}> : (tensor<1x8x8x8x{Q}>) -> tensor<1x4x4x8x{Q}>\n'
                f'  %3 = "tfl.logistic"(%2) : (tensor<1x4x4x8x{Q}>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.00390625:-128>>\n'
                f'  return %3 : tensor<1x4x4x8x!quant.uniform<i8:f32, 0.00390625:-128>>',
                "tensor<1x4x4x8x!quant.uniform<i8:f32, 0.00390625:-128>>")
    module, stats, diags = legalize(text)
    assert not diags
    names = [op.name for op in module.walk() if op.dialect in ("tfl", "npu")]
    # ReLU6 fused into the add, the sigmoid table into the pool
    assert names == ["npu.add", "tfl.pseudo_const", "npu.avg_pool"]
    assert stats["activations-fused"] == 2 and stats["tfl-ops-lowered"] == 4


def test_second_run_changes_nothing():
    text = func(f"%x: tensor<1x4x4x8x{Q}>",
                f'  %p = "tfl.pseudo_const"() <{{value = dense<[0, 2, 1, 3]> : tensor<4xi32>}}> : () -> tensor<4xi32>\n'
                f'  %0 = "tfl.transpose"(%x, %p) : (tensor<1x4x4x8x{Q}>, tensor<4xi32>) -> tensor<1x4x4x8x{Q}>\n'
                f'  %1 = "tfl.relu"(%0) : (tensor<1x4x4x8x{Q}>) -> tensor<1x4x4x8x{Q}>\n'
                f'  return %1 : tensor<1x4x4x8x{Q}>', f"tensor<1x4x4x8x{Q}>")
    from npu_opt.ir.printer import print_op
    module, _, diags = legalize(text)
    first = print_op(module)
    again, stats, diags2 = legalize(first)
    assert print_op(again) == first and not diags2 and stats.get("tfl-ops-lowered", 0) == 0
    assert len(diags) == 1


def test_hand_placed_ops_stay_on_the_cpu():
    text = func(f"%x: tensor<1x4x4x8x{Q}>",
                f'  %0 = "tfl.relu"(%x) {{npu.placement = "cpu"}} : (tensor<1x4x4x8x{Q}>) -> tensor<1x4x4x8x{Q}>\n'
                f'  return %0 : tensor<1x4x4x8x{Q}>', f"tensor<1x4x4x8x{Q}>")
    module, stats, diags = legalize(text)
    assert [op.name for op in module.walk() if op.dialect == "tfl"] == ["tfl.relu"] and not diags
