"""The tfl dialect's declarations and shape helpers: every TFLite operator the importer handles has an op,
valid IR with dynamic dimensions verifies, and the window arithmetic matches TFLite's."""
from __future__ import annotations

import io

import pytest

import npu_opt.dialects  # noqa: F401
from npu_opt.dialects.tfl import OPS_BY_BUILTIN, TFL
from npu_opt.dialects.tfl.shapes import broadcast, conv_output_size
from npu_opt.ir.diagnostics import DiagnosticEngine
from npu_opt.ir.opdef import VerifyError
from npu_opt.ir.parser import parse_module
from npu_opt.ir.types import DYNAMIC
from npu_opt.ir.verifier import verify

ISSUE_OPERATORS = """CONV_2D DEPTHWISE_CONV_2D TRANSPOSE_CONV FULLY_CONNECTED AVERAGE_POOL_2D MAX_POOL_2D ADD SUB MUL
MINIMUM MAXIMUM ABS LEAKY_RELU RELU RELU6 RELU_N1_TO_1 RELU_0_TO_1 TANH LOGISTIC HARD_SWISH SOFTMAX QUANTIZE
CONCATENATION RESHAPE SQUEEZE EXPAND_DIMS PAD PADV2 MEAN RESIZE_BILINEAR RESIZE_NEAREST_NEIGHBOR SPLIT SPLIT_V SLICE
STRIDED_SLICE PACK UNPACK TRANSPOSE ARG_MAX EXP LOG RSQRT SQUARED_DIFFERENCE SHAPE DEQUANTIZE""".split()


def test_every_operator_of_the_issue_has_an_op():
    assert set(ISSUE_OPERATORS) <= set(OPS_BY_BUILTIN)
    for name in ("tfl.pseudo_const", "tfl.pseudo_qconst", "tfl.no_value", "tfl.custom", "tfl.unsupported"):
        assert name in TFL.ops
    assert OPS_BY_BUILTIN["CONV_2D"].OP_NAME == "tfl.conv_2d"


@pytest.mark.parametrize("size,kernel,stride,dilation,padding,expected", [
    (8, 3, 2, 1, "SAME", 4), (8, 3, 2, 1, "VALID", 3), (8, 3, 1, 2, "VALID", 4), (7, 3, 2, 1, "SAME", 4),
    (2, 3, 1, 1, "VALID", 0), (224, 3, 2, 1, "SAME", 112), (49, 10, 2, 1, "SAME", 25), (DYNAMIC, 3, 1, 1, "SAME", DYNAMIC),
])
def test_window_output_size(size, kernel, stride, dilation, padding, expected):
    assert conv_output_size(size, kernel, stride, dilation, padding) == expected


def test_broadcast():
    assert broadcast((1, 4, 4, 8), (8,)) == (1, 4, 4, 8)
    assert broadcast((2, 1), (1, 3)) == (2, 3)
    assert broadcast((DYNAMIC, 3), (5, 1)) == (5, 3)
    with pytest.raises(VerifyError):
        broadcast((2, 3), (4,))


def test_dynamic_and_unranked_shapes_verify():
    source = """
    func.func @f(%x: tensor<?x8x8x3xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>, %u: tensor<*xf32>,
                 %s: tensor<2xi32>) -> tensor<?x4x4x4xf32> {
      %0 = "tfl.conv_2d"(%x, %w, %b) <{dilation_h_factor = 1 : i32, dilation_w_factor = 1 : i32, fused_activation_function = "NONE", padding = "SAME", stride_h = 2 : i32, stride_w = 2 : i32}> : (tensor<?x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<?x4x4x4xf32>
      %1 = "tfl.add"(%0, %u) <{fused_activation_function = "NONE"}> : (tensor<?x4x4x4xf32>, tensor<*xf32>) -> tensor<?x4x4x4xf32>
      %2 = "tfl.reshape"(%1, %s) : (tensor<?x4x4x4xf32>, tensor<2xi32>) -> tensor<?x64xf32>
      return %1 : tensor<?x4x4x4xf32>
    }"""
    stream = io.StringIO()
    assert verify(parse_module(source, "t.mlir"), DiagnosticEngine(stream=stream)), stream.getvalue()
