"""Legalisations that must compute exactly what ai-edge-litert's reference kernels compute,
checked through the reference interpreter.

Here: an AVERAGE_POOL whose width stride (4 or more) the NPU cannot run becomes a convolution with
a ones kernel of one input per group, whose width is then folded into depth. The folded IFM holds
channel c of column j at j*C + c, so the op carries ``width_fold`` and its groups read their
channels interleaved; the weights stay [C, kh, kw/f, f] (no zeros written out over the IFM depth).
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest

import npu_opt.dialects  # noqa: F401 - registers the dialects
import npu_opt.passes  # noqa: F401 - registers the passes and pipelines
from npu_opt.ir.interpreter import run_function
from npu_opt.ir.parser import parse_module
from npu_opt.ir.printer import print_op
from tflite_arith import tflite_rescale

ACCELERATOR = "ethos-u55-128"


def _pool_model(ifm: tuple[int, int, int, int], window: tuple[int, int], zero_point: int) -> str:
    """tfl IR of one VALID AVERAGE_POOL_2D with stride = window over an int8 IFM of ``ifm``."""
    n, h, w, c = ifm
    out = (n, (h - window[0]) // window[0] + 1, (w - window[1]) // window[1] + 1, c)
    quant = f"!quant.uniform<i8:f32, 0.05:{zero_point}>"
    t_in = f"tensor<{'x'.join(map(str, ifm))}x{quant}>"
    t_out = f"tensor<{'x'.join(map(str, out))}x{quant}>"
    attrs = (f"filter_height = {window[0]} : i32, filter_width = {window[1]} : i32, "
             f'fused_activation_function = "NONE", padding = "VALID", '
             f"stride_h = {window[0]} : i32, stride_w = {window[1]} : i32")
    return (f"module {{\n  func.func @main(%x: {t_in}) -> {t_out} "
            f'attributes {{tf.entry_function = {{inputs = "x", outputs = "pool"}}}} {{\n'
            f'    %0 = "tfl.average_pool_2d"(%x) <{{{attrs}}}> : ({t_in}) -> {t_out} loc("pool")\n'
            f"    return %0 : {t_out}\n  }}\n}}\n")


def _after(data: bytes, pipeline: str):
    """The flatbuffer ``data`` imported, targeted and run through ``pipeline``."""
    from npu_opt.dialects.tfl.tflite import import_tflite
    from npu_opt.ir.diagnostics import DiagnosticEngine, SourceManager
    from npu_opt.tools.api import set_target
    from npu_opt.tools.npu_run import transform

    module = set_target(import_tflite(data, "pool.tflite"), ACCELERATOR)
    assert transform(module, [pipeline], DiagnosticEngine(SourceManager()))
    return module


@pytest.mark.parametrize("ifm, window, zero_point, fold", [
    ((1, 6, 10, 6), (3, 5), -7, 5),   # the whole stride 5 folds: IFM 6x2x30, kernel 3x1x5
    ((1, 4, 8, 16), (2, 4), 3, 4),    # stride 4 over width 8, 16 groups of 4 folded inputs
])
def test_width_folded_strided_average_pool_is_bit_exact_against_litert(ifm, window, zero_point, fold):
    """The pool legalised (estimate) and scheduled equals litert's AVERAGE_POOL on random inputs,
    with the weights one input per group and the fold recorded on the op."""
    pytest.importorskip("ai_edge_litert")
    from npu_opt.dialects.tfl.tflite import export_tflite
    from npu_opt.tools.litert_compare import run_litert_here as run_litert  # (in-process: many small runs)

    data = export_tflite(parse_module(_pool_model(ifm, window, zero_point), "pool.mlir"))
    rng = np.random.default_rng(14)
    inputs = [rng.integers(-128, 128, ifm).astype(np.int8) for _ in range(3)]
    inputs.append(np.full(ifm, 127, dtype=np.int8))
    expected = [run_litert(data, "pool.tflite", [x]).outputs[0][1].astype(np.int64) for x in inputs]
    for pipeline in ("estimate", "schedule"):
        module = _after(data, pipeline)
        conv = next(op for op in module.walk() if op.name == "npu.conv2d")
        assert conv.width_fold == fold
        assert conv.operands[0].type.shape[3] == ifm[3] * fold
        assert conv.operands[1].type.shape == (ifm[3], window[0], window[1] // fold, fold)
        for x, theirs in zip(inputs, expected):
            ours = np.asarray(run_function(module, [x])[0], dtype=np.int64)
            assert ours.reshape(theirs.shape).tolist() == theirs.tolist(), pipeline


def _grouped(ifm_depth: int, weight_depth: int, fold: str) -> str:
    """An npu.conv2d 1x1 over a 1x2x2xD IFM with four outputs and weights of ``weight_depth``
    inputs; ``fold`` is the text of its width_fold entry (or empty)."""
    t_x = f"tensor<1x2x2x{ifm_depth}x!quant.uniform<i8:f32, 0.5:4>>"
    t_w = f"tensor<4x1x1x{weight_depth}x!quant.uniform<i8:f32, 0.25:1>>"
    t_o = "tensor<1x2x2x4x!quant.uniform<i8:f32, 2.0:-2>>"
    kernel = "#npu.kernel<1x1, stride = 1x1, dilation = 1x1, padding = [0, 0, 0, 0]>"
    return (f"func.func @main(%x: {t_x}, %w: {t_w}, %b: tensor<4xi32>) -> {t_o} {{\n"
            f'  %0 = "npu.conv2d"(%x, %w, %b) <{{kernel = {kernel}{fold}}}> : ({t_x}, {t_w}, tensor<4xi32>) -> {t_o}\n'
            f"  func.return %0 : {t_o}\n}}\n")


def test_width_fold_groups_read_the_channels_of_their_unfolded_convolution():
    """A folded 1x1 convolution (IFM depth 8 = 2 columns x 4 channels, weights 4 = 2 columns x
    2 inputs, 2 groups of 2 outputs) computes the grouped 1x2 convolution with stride 2 over the
    unfolded IFM [1, 2, 4, 4], whose groups are contiguous: evaluated here by direct loops."""
    rng = np.random.default_rng(7)
    x = rng.integers(-128, 128, (1, 2, 2, 8))
    w = rng.integers(-127, 128, (4, 1, 1, 4))
    b = rng.integers(-300, 300, 4)
    module = parse_module(_grouped(8, 4, ", width_fold = 2 : i64"), "fold.mlir")
    ours = np.asarray(run_function(module, [x, w, b])[0], dtype=np.int64)
    unfolded_x = x.reshape(1, 2, 2, 2, 4).reshape(1, 2, 4, 4)  # column 2w + j, channel c
    unfolded_w = w.reshape(4, 1, 1, 2, 2).reshape(4, 1, 2, 2)  # kernel column j, input i
    from npu_opt.dialects.npu.quant import quantise_scale
    multiplier, shift = quantise_scale(0.5 * 0.25 / 2.0)
    expected = np.zeros((1, 2, 2, 4), dtype=np.int64)
    for oy, ox, o in itertools.product(range(2), range(2), range(4)):
        group = o // 2
        acc = int(b[o])
        for kx, i in itertools.product(range(2), range(2)):
            value = int(unfolded_x[0, oy, ox * 2 + kx, group * 2 + i]) - 4
            acc += value * (int(unfolded_w[o, 0, kx, i]) - 1)
        expected[0, oy, ox, o] = min(max(tflite_rescale(acc, multiplier, shift) - 2, -128), 127)
    assert ours.tolist() == expected.tolist()
    plain = np.asarray(run_function(parse_module(_grouped(8, 4, ""), "plain.mlir"), [x, w, b])[0])
    assert plain.tolist() != ours.tolist()  # contiguous groups read other channels


def _verify_messages(text: str) -> list[str]:
    from npu_opt.ir.diagnostics import DiagnosticEngine
    from npu_opt.ir.verifier import verify

    engine = DiagnosticEngine()
    seen: list[str] = []
    engine.handler = lambda d: seen.append(d.message)
    verify(parse_module(text, "fold.mlir"), engine)
    return seen


def test_width_fold_prints_parses_and_is_verified():
    """``width_fold`` prints as written and reparses to the same text; a fold that does not
    divide both depths, or one on a convolution with a single group, is refused."""
    printed = print_op(parse_module(_grouped(8, 4, ", width_fold = 2 : i64"), "fold.mlir"))
    assert "width_fold = 2 : i64" in printed
    assert print_op(parse_module(printed, "again.mlir")) == printed
    assert _verify_messages(printed) == []
    bad = _verify_messages(_grouped(12, 4, ", width_fold = 3 : i64"))
    assert any("width_fold 3 must divide the IFM depth 12 and the weights' input depth 4" in m for m in bad)
    single = _verify_messages(_grouped(4, 4, ", width_fold = 2 : i64"))
    assert any("width_fold 2 on a convolution with one group" in m for m in single)
    one = _verify_messages(_grouped(8, 4, ", width_fold = 1 : i64"))
    assert any("width_fold" in m for m in one)
