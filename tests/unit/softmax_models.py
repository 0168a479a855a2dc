"""int8 SOFTMAX models of any depth, input scale and beta, made by npu-opt's exporter."""
from __future__ import annotations

OUT = "!quant.uniform<i8:f32, 0.00390625:-128>"
"""The output type TFLite requires of an int8 softmax: scale 1/256, zero point -128."""


def softmax_model(rows: int, depth: int, scale: float, zero_point: int, beta: float) -> bytes:
    """A [rows, depth] int8 SOFTMAX as a .tflite, exported from MLIR text by npu-opt's exporter."""
    from npu_opt.dialects.tfl.tflite import export_tflite
    from npu_opt.ir.diagnostics import DiagnosticEngine
    from npu_opt.ir.parser import parse_module
    from npu_opt.ir.verifier import verify

    t_in = f"tensor<{rows}x{depth}x!quant.uniform<i8:f32, {scale!r}:{zero_point}>>"
    t_out = f"tensor<{rows}x{depth}x{OUT}>"
    text = (f"module {{\n  func.func @main(%x: {t_in}) -> {t_out} "
            f'attributes {{tf.entry_function = {{inputs = "x", outputs = "probs"}}}} {{\n'
            f'    %0 = "tfl.softmax"(%x) <{{beta = {beta!r} : f32}}> : ({t_in}) -> {t_out} loc("probs")\n'
            f"    return %0 : {t_out}\n  }}\n}}\n")
    module = parse_module(text, "softmax.mlir")
    assert verify(module, DiagnosticEngine())
    return export_tflite(module)
