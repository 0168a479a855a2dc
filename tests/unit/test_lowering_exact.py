"""Legalisations that must stay bit-exact against ai-edge-litert's reference kernels (issue 9):
an average pool with a width stride of 4 or more, run as a convolution whose width stride is
folded into depth (the fold must keep each output reading its own channel of every folded
column), and the int16 softmax tables (TFLite's midpoint-corrected LUTs)."""
from __future__ import annotations

import argparse

import numpy as np
import pytest

import npu_opt.dialects  # noqa: F401 - registers the dialects
import npu_opt.passes  # noqa: F401 - registers the passes
from npu_opt.ir.parser import parse_module

_IFM = "tensor<1x4x8x8x!quant.uniform<i8:f32, 0.0625:-128>>"
_OFM = "tensor<1x2x2x8x!quant.uniform<i8:f32, 0.0625:-128>>"
_STRIDED_AVG_POOL = f"""module {{
  func.func @main(%arg0: {_IFM}) -> ({_OFM}) attributes {{tf.entry_function = {{inputs = "x", outputs = "pool"}}}} {{
    %v0 = "tfl.average_pool_2d"(%arg0) <{{filter_height = 2 : i32, filter_width = 4 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 2 : i32, stride_w = 4 : i32}}> : ({_IFM}) -> {_OFM} loc("pool")
    return %v0 : {_OFM}
  }}
}}
"""


def _legalised(data: bytes, path: str):
    """The model imported, targeted at ethos-u55-128 and run through the estimate pipeline."""
    from npu_opt.dialects.tfl.tflite import import_tflite
    from npu_opt.ir.diagnostics import DiagnosticEngine, SourceManager
    from npu_opt.tools.npu_run import transform
    from npu_opt.tools.target_options import apply_target, prepare_target

    module = import_tflite(data, path)
    apply_target(module, prepare_target(argparse.Namespace(target="ethos-u55-128", config=[], system_config=None,
                                                           memory_mode=None, arena_cache_size=None)))
    assert transform(module, ["estimate"], DiagnosticEngine(SourceManager()))
    return module


def test_width_folded_average_pool_convolution_is_bit_exact():
    """AVERAGE_POOL 2x4 / stride 2x4 becomes a ones convolution with weights [.., 4, 1, C]; the
    width fold views the IFM as [1, 4, 2, 4C]. Each output must still average only its own
    channel of the four folded columns, as litert does (a window of 8 divides exactly, so the
    rounding of the 1/(h*w) scale plays no part)."""
    pytest.importorskip("ai_edge_litert")
    from npu_opt.dialects.tfl.tflite import export_tflite
    from npu_opt.ir.interpreter import run_function
    from npu_opt.tools.litert_compare import run_litert

    data = export_tflite(parse_module(_STRIDED_AVG_POOL, "pool.mlir"))
    module = _legalised(data, "pool.tflite")
    convs = [op for op in module.walk() if op.name == "npu.conv2d"]
    assert len(convs) == 1
    assert convs[0].operands[0].type.shape[3] == 32  # the width was folded into depth
    rng = np.random.default_rng(9)
    for _ in range(3):
        x = rng.integers(-128, 128, (1, 4, 8, 8)).astype(np.int8)
        ours = run_function(module, [x])[0]
        theirs = run_litert(data, "pool.tflite", [x]).outputs[0][1]
        assert ours.astype(np.int64).tolist() == theirs.astype(np.int64).tolist()


def test_int16_softmax_tables_match_vela_listing():
    """The generated exp and 1/(1+x) tables equal the ones Vela lists (TFLite's LUTs in the NPU's
    base + slope format), entry for entry."""
    vela_softmax = pytest.importorskip("ethosu.vela.softmax")
    from npu_opt.passes.npu_lowering.softmax import _int16_table

    listed = vela_softmax.SoftMax
    assert _int16_table(np.exp, -10.0, 0.0) == list(listed.EXP_LUT)
    assert _int16_table(lambda x: 1.0 / (1.0 + x), 0.0, 1.0) == list(listed.ONE_OVER_ONE_PLUS_X_LUT)
