"""The tfl data-movement kernels (interpreters/tfl/{shape,slicing,resize}.py) against
ai-edge-litert's reference kernels, bit for bit.

Each case is a small function written as tfl IR with the builders of tests/data/make_models.py,
exported to a .tflite by npu-opt's exporter, run by litert (BUILTIN_REF op resolver: TFLite's
reference kernels) on seeded inputs, imported back and run by the interpreter; every output
must be equal, element type and all.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from npu_opt.ir.interpreter import InterpretError, run_function

litert = pytest.importorskip("ai_edge_litert.interpreter")

DATA = Path(__file__).resolve().parents[3] / "data"
_spec = importlib.util.spec_from_file_location("make_models", DATA / "make_models.py")
mm = importlib.util.module_from_spec(_spec)
assert _spec.loader is not None
_spec.loader.exec_module(mm)
Func, t, q8, module = mm.Func, mm.t, mm.q8, mm.module

A = 0.0625
Q = q8(A, 3)


def _inputs(interpreter, seed: int) -> list[np.ndarray]:
    """Seeded inputs spanning each input's whole integer range (standard normals for floats)."""
    rng = np.random.default_rng(seed)
    inputs = []
    for detail in interpreter.get_input_details():
        dtype, shape = detail["dtype"], detail["shape"]
        if np.issubdtype(dtype, np.floating):
            inputs.append(rng.standard_normal(shape).astype(dtype))
        else:
            info = np.iinfo(dtype)
            inputs.append(rng.integers(info.min, info.max, size=shape, endpoint=True).astype(dtype))
    return inputs


def _compare(f, results, seed: int = 0) -> None:
    """Export ``f`` returning ``results``, run it in litert and in the interpreter, and require
    every output to be identical."""
    from npu_opt.dialects.tfl.tflite import export_tflite, import_tflite
    from npu_opt.ir.diagnostics import DiagnosticEngine
    from npu_opt.ir.parser import parse_module
    from npu_opt.ir.verifier import verify

    parsed = parse_module(module(f.text(results)), "case.mlir")
    assert verify(parsed, DiagnosticEngine())  # its errors go to stderr
    model = export_tflite(parsed)
    reference = litert.Interpreter(model_content=model,
                                   experimental_op_resolver_type=litert.OpResolverType.BUILTIN_REF)
    reference.allocate_tensors()
    inputs = _inputs(reference, seed)
    for detail, value in zip(reference.get_input_details(), inputs):
        reference.set_tensor(detail["index"], value)
    reference.invoke()
    outputs = reference.get_output_details()
    got = run_function(import_tflite(model, "case.tflite"), inputs)
    assert len(got) == len(outputs)
    for detail, ours in zip(outputs, got):
        theirs = reference.get_tensor(detail["index"])
        assert ours.dtype == theirs.dtype, detail["name"]
        assert ours.shape == theirs.shape, detail["name"]
        assert np.array_equal(ours, theirs), (detail["name"], ours, theirs)


def _strided(f, x, begin, end, strides, result, masks=(0, 0, 0, 0, 0), name="ss"):
    """A strided slice with (begin, ellipsis, end, new_axis, shrink_axis) masks."""
    b, el, e, n, s = masks
    props = (f"begin_mask = {b} : i32, ellipsis_mask = {el} : i32, end_mask = {e} : i32, "
             f"new_axis_mask = {n} : i32, offset = false, shrink_axis_mask = {s} : i32")
    return f.op("tfl.strided_slice", [x, f.i32(begin), f.i32(end), f.i32(strides)], [result], props, name)[0]


@pytest.mark.parametrize("elem", [Q, "f32", "!quant.uniform<i16:f32, 0.001>"])
def test_reshapes_transpose_pack_unpack_concat_shape_arg_max(elem):
    s = t((1, 3, 4, 5), elem)
    f = Func("main", [("x", s)], np.random.default_rng(1))
    x = ("%arg0", s)
    r = f.op("tfl.reshape", [x, f.i32([3, 1, 20])], [t((3, 1, 20), elem)], "", "reshape")[0]
    sq = f.op("tfl.squeeze", [r], [t((3, 20), elem)], "squeeze_dims = [1]", "squeeze")[0]
    outs = [f.op("tfl.expand_dims", [sq, f.i32([-1], ())], [t((3, 20, 1), elem)], "", "expand")[0],
            f.op("tfl.squeeze", [x], [t((3, 4, 5), elem)], "", "squeeze_all")[0],
            f.op("tfl.transpose", [x, f.i32([2, 0, 3, 1])], [t((4, 1, 5, 3), elem)], "", "transpose")[0],
            f.op("tfl.concatenation", [x, x, x], [t((1, 9, 4, 5), elem)],
                 'axis = -3 : i32, fused_activation_function = "NONE"', "concat")[0]]
    packed = f.op("tfl.pack", [sq, sq, sq], [t((3, 20, 3), elem)], "axis = -1 : i32, values_count = 3 : i32",
                  "pack")[0]
    outs.append(packed)
    outs.extend(f.op("tfl.unpack", [x], [t((1, 3, 5), elem)] * 4, "axis = 2 : i32, num = 4 : i32",
                     [f"unpack_{i}" for i in range(4)]))
    outs.append(f.op("tfl.shape", [x], [t((4,), "i32")], "", "shape")[0])
    if "i16" not in elem:  # TFLite's ARG_MAX takes no int16 input
        outs.append(f.op("tfl.arg_max", [x, f.i32([3], (1,))], [t((1, 3, 4), "i32")], "", "arg_max")[0])
        outs.append(f.op("tfl.arg_max", [x, f.i32([-3], ())], [t((1, 4, 5), "i64")], "", "arg_max_1")[0])
    _compare(f, outs)


def test_arg_max_ties_take_the_first_index():
    s = t((2, 3, 6), "i8")
    f = Func("main", [("x", s)], np.random.default_rng(2))
    out = f.op("tfl.arg_max", [("%arg0", s), f.i32([2], ())], [t((2, 3), "i32")], "", "arg_max")[0]
    from npu_opt.dialects.tfl.tflite import export_tflite, import_tflite
    from npu_opt.ir.parser import parse_module
    model = export_tflite(parse_module(module(f.text([out])), "case.mlir"))
    ties = np.array([[[1, 5, 5, 2, 5, 0]] * 3, [[-7, -7, -7, -7, -7, -7]] * 3], dtype=np.int8)
    assert run_function(import_tflite(model), [ties])[0].tolist() == [[1, 1, 1], [0, 0, 0]]


def test_concatenation_of_uint8_inputs_requantises_like_tflite():
    out_elem = "!quant.uniform<u8:f32, 0.05:128>"
    a_elem, b_elem = "!quant.uniform<u8:f32, 0.0173:100>", "!quant.uniform<u8:f32, 0.11:7>"
    f = Func("main", [("a", t((2, 3, 4), a_elem)), ("b", t((2, 2, 4), b_elem)), ("c", t((2, 1, 4), out_elem))],
             np.random.default_rng(3))
    cat = f.op("tfl.concatenation", [("%arg0", t((2, 3, 4), a_elem)), ("%arg1", t((2, 2, 4), b_elem)),
                                     ("%arg2", t((2, 1, 4), out_elem))], [t((2, 6, 4), out_elem)],
               'axis = 1 : i32, fused_activation_function = "NONE"', "concat")[0]
    _compare(f, [cat], seed=4)


@pytest.mark.parametrize("elem", [Q, "f32"])
def test_pad_padv2_slice_split(elem):
    s = t((2, 5, 6, 3), elem)
    f = Func("main", [("x", s)], np.random.default_rng(5))
    x = ("%arg0", s)
    pads = f.i32([[1, 0], [0, 2], [3, 1], [0, 0]], (4, 2))
    outs = [f.op("tfl.pad", [x, pads], [t((3, 7, 10, 3), elem)], "", "pad")[0]]
    if elem == "f32":
        value = f.const(np.array(-2.5, dtype=np.float32), "f32")
    else:
        value = f.const(np.array(-100, dtype=np.int8), elem, "i8")
    outs.append(f.op("tfl.padv2", [x, pads, value], [t((3, 7, 10, 3), elem)], "", "padv2")[0])
    outs.append(f.op("tfl.slice", [x, f.i32([1, 2, 0, 1]), f.i32([-1, 3, 4, -1])], [t((1, 3, 4, 2), elem)],
                     "", "slice")[0])
    outs.extend(f.op("tfl.split", [f.i32([-2], ()), x], [t((2, 5, 2, 3), elem)] * 3, "num_splits = 3 : i32",
                     ["split_0", "split_1", "split_2"]))
    outs.extend(f.op("tfl.split_v", [x, f.i32([2, -1, 1]), f.i32([1], ())],
                     [t((2, 2, 6, 3), elem), t((2, 2, 6, 3), elem), t((2, 1, 6, 3), elem)],
                     "num_splits = 3 : i32", ["split_v_0", "split_v_1", "split_v_2"]))
    _compare(f, outs)


@pytest.mark.parametrize("elem", [Q, "f32"])
def test_strided_slice_masks_and_negative_strides(elem):
    s = t((2, 5, 6, 3), elem)
    f = Func("main", [("x", s)], np.random.default_rng(6))
    x = ("%arg0", s)
    outs = [
        _strided(f, x, [0, 1, 0, 0], [2, 5, 6, 3], [1, 2, 2, 1], t((2, 2, 3, 3), elem), name="steps"),
        _strided(f, x, [1, -1, 5, 2], [0, 0, 0, 0], [-1, -2, -1, -1], t((1, 2, 5, 2), elem), name="backwards"),
        _strided(f, x, [0, 4, 0, 0], [0, 0, 0, 0], [1, -1, 3, 1], t((2, 5, 2, 3), elem), (13, 0, 15, 0, 0),
                 name="masks"),
        _strided(f, x, [1, 0, -2, 0], [2, 5, 6, 2], [1, 1, 1, 1], t((5, 2), elem), (0, 0, 0, 0, 0b101),
                 name="shrink"),
        _strided(f, x, [-100, 2], [100, -1], [1, 1], t((2, 2, 6, 3), elem), name="clamped_partial"),
        _strided(f, x, [0, 3, -1], [0, 0, -7], [1, -1, -2], t((2, 3, 3, 3), elem), (1, 0, 1, 0, 0),
                 name="neg_end"),
    ]
    _compare(f, outs)


def test_strided_slice_ellipsis_and_new_axis():
    s = t((2, 5, 6, 3), Q)
    f = Func("main", [("x", s)], np.random.default_rng(7))
    x = ("%arg0", s)
    outs = [
        _strided(f, x, [0, 1], [0, 3], [1, 1], t((2, 5, 6, 2), Q), (0, 1, 0, 0, 0), name="ellipsis_first"),
        _strided(f, x, [1, 0, 2], [2, 0, 4], [1, 1, 1], t((1, 5, 6, 1), Q), (0, 2, 0, 0, 0), name="ellipsis_mid"),
        _strided(f, x, [0, 0, 0], [1, 2, 0], [1, 1, 1], t((1, 2, 6, 3), Q), (0, 0, 4, 0, 0), name="short_spec"),
        _strided(f, x, [0, 0, 1], [1, 0, 3], [1, 1, 1], t((1, 1, 2, 6, 3), Q), (0, 0, 0, 2, 0), name="new_axis"),
    ]
    _compare(f, outs)


@pytest.mark.parametrize("elem", [q8(0.125, -5), "!quant.uniform<i16:f32, 0.0005>", "f32",
                                  "!quant.uniform<u8:f32, 0.02:120>"])
def test_resize_bilinear_and_nearest_neighbor_in_every_mode(elem):
    s = t((2, 5, 7, 3), elem)
    f = Func("main", [("x", s)], np.random.default_rng(8))
    x = ("%arg0", s)
    outs = []
    modes = {"plain": "align_corners = false, half_pixel_centers = false",
             "corners": "align_corners = true, half_pixel_centers = false",
             "half": "align_corners = false, half_pixel_centers = true"}
    for kind in ("bilinear", "nearest_neighbor"):
        for mode, props in modes.items():
            for h, w in ((11, 13), (3, 4), (1, 1)):
                outs.append(f.op(f"tfl.resize_{kind}", [x, f.i32([h, w])], [t((2, h, w, 3), elem)], props,
                                 f"{kind}_{mode}_{h}x{w}")[0])
    _compare(f, outs, seed=9)


def _run_text(body: str, inputs: list[np.ndarray]) -> list[np.ndarray]:
    """Run a function written directly as tfl IR text (for cases litert cannot check)."""
    from npu_opt.ir.parser import parse_module
    return run_function(parse_module(body, "case.mlir"), inputs)


def test_strided_slice_offset_makes_end_relative_to_begin():
    # litert crashes on offset = true, so the expectation is numpy's x[1:3, 1:5:2].
    body = """func.func @main(%x: tensor<4x6x2xf32>) -> tensor<2x2x2xf32> {
  %b = "tfl.pseudo_const"() <{value = dense<[1, 1]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %e = "tfl.pseudo_const"() <{value = dense<[2, 4]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %s = "tfl.pseudo_const"() <{value = dense<[1, 2]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %0 = "tfl.strided_slice"(%x, %b, %e, %s) <{begin_mask = 0 : i32, ellipsis_mask = 0 : i32, end_mask = 0 : i32, new_axis_mask = 0 : i32, offset = true, shrink_axis_mask = 0 : i32}> : (tensor<4x6x2xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<2x2x2xf32>
  func.return %0 : tensor<2x2x2xf32>
}
"""
    x = np.arange(48, dtype=np.float32).reshape(4, 6, 2)
    assert np.array_equal(_run_text(body, [x])[0], x[1:3, 1:5:2])


def test_int8_concatenation_requantises_inputs_quantised_differently():
    # Output scale 0.5, zero point 1. Input a: scale 0.25, zero point -2, so stored x becomes
    # round_half_away((x + 2) / 2) + 1; input b: scale 1.0, zero point 0, becomes 2x + 1 (clamped).
    body = """func.func @main(%a: tensor<5x!quant.uniform<i8:f32, 0.25:-2>>, %b: tensor<3x!quant.uniform<i8:f32, 1.0>>)
    -> tensor<8x!quant.uniform<i8:f32, 0.5:1>> {
  %0 = "tfl.concatenation"(%a, %b) <{axis = 0 : i32, fused_activation_function = "NONE"}> : (tensor<5x!quant.uniform<i8:f32, 0.25:-2>>, tensor<3x!quant.uniform<i8:f32, 1.0>>) -> tensor<8x!quant.uniform<i8:f32, 0.5:1>>
  func.return %0 : tensor<8x!quant.uniform<i8:f32, 0.5:1>>
}
"""
    a = np.array([-128, -5, -3, 1, 127], dtype=np.int8)
    b = np.array([-100, 3, 100], dtype=np.int8)
    (out,) = _run_text(body, [a, b])
    assert out.dtype == np.int8
    assert out.tolist() == [-62, -1, 0, 3, 66, -128, 7, 127]


@pytest.mark.parametrize("op_text, message", [
    ('"tfl.custom"(%x) <{custom_code = "MyCustomOp", version = 1 : i32}>', "custom operator 'MyCustomOp'"),
    ('"tfl.unsupported"(%x) <{builtin_code = 36 : i32, opcode = "GATHER", version = 1 : i32}>',
     "builtin operator GATHER"),
])
def test_opaque_operators_are_located_errors_naming_the_operator(op_text, message):
    body = f"""func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {{
  %0 = {op_text} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}}
"""
    with pytest.raises(InterpretError, match=message) as info:
        _run_text(body, [np.zeros(4, np.float32)])
    location = info.value.diagnostic.location
    assert (location.file, location.line) == ("case.mlir", 2)


def test_index_operands_out_of_range_are_errors_naming_the_value():
    body = """func.func @main(%x: tensor<2x3xf32>, %b: tensor<2xi32>, %s: tensor<2xi32>) -> tensor<?x?xf32> {
  %0 = "tfl.slice"(%x, %b, %s) : (tensor<2x3xf32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x?xf32>
  func.return %0 : tensor<?x?xf32>
}
"""
    x = np.arange(6, dtype=np.float32)
    assert _run_text(body, [x, [0, 1], [2, -1]])[0].tolist() == [[1, 2], [4, 5]]
    with pytest.raises(InterpretError, match=r"slice \[2, 4\) of dimension 1 is outside its size 3"):
        _run_text(body, [x, [0, 2], [1, 2]])
