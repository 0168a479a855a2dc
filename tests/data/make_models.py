"""Generate the small .tflite models under tests/data from MLIR text, with npu-opt's own exporter.

    python tests/data/make_models.py              # rewrite every model
    python tests/data/make_models.py fire.tflite  # rewrite only the models named
    python tests/data/make_models.py --check      # exit 1 if a committed model differs

Together the models use every op of the tfl dialect: int8 (per-channel weights, int32 biases),
float, broadcasting, optional operands (tfl.no_value), several subgraphs, a CUSTOM operator and
a builtin outside the dialect (tfl.unsupported). Weights come from a seeded generator, so the
output is byte-for-byte reproducible. Every model except custom.tflite runs in the TFLite
interpreter (custom.tflite holds a custom operator no interpreter has).
"""
from __future__ import annotations

import argparse
import re
import struct
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

import npu_opt.dialects  # noqa: E402,F401  (registers the tfl dialect)
from npu_opt.ir.diagnostics import DiagnosticEngine  # noqa: E402
from npu_opt.ir.parser import parse_module  # noqa: E402
from npu_opt.ir.verifier import verify  # noqa: E402
from npu_opt.dialects.tfl.tflite import export_tflite  # noqa: E402


def q8(scale: float, zp: int = 0) -> str:
    """A per-tensor int8 quantised element type."""
    return f"!quant.uniform<i8:f32, {scale!r}:{zp}>" if zp else f"!quant.uniform<i8:f32, {scale!r}>"


def t(shape: tuple[int, ...], elem: str) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + elem + ">"


class Func:
    """Collects the ops of one function as generic-form MLIR lines."""

    def __init__(self, name: str, args: list[tuple[str, str]], rng: np.random.Generator) -> None:
        self.name = name
        self.args = args  # (tensor name, type)
        self.lines: list[str] = []
        self.count = 0
        self.rng = rng

    def op(self, name: str, operands: list[tuple[str, str]], results: list[str], props: str = "",
           loc: str | list[str] | None = None) -> list[tuple[str, str]]:
        """Append ``name``; operands/results are (ssa, type) pairs / types; returns the results."""
        ssa = f"%v{self.count}"
        self.count += 1
        head = f"{ssa} = " if len(results) == 1 else (f"{ssa}:{len(results)} = " if results else "")
        ins = ", ".join(v for v, _ in operands)
        sig = "(" + ", ".join(ty for _, ty in operands) + ") -> " + (
            results[0] if len(results) == 1 else "(" + ", ".join(results) + ")")
        attrs = f" <{{{props}}}>" if props else ""
        if isinstance(loc, list):
            where = " loc(fused[" + ", ".join(f'"{n}"' for n in loc) + "])"
        else:
            where = f' loc("{loc or name.split(".")[1] + str(self.count)}")'
        self.lines.append(f'    {head}"{name}"({ins}){attrs} : {sig}{where}')
        if len(results) == 1:
            return [(ssa, results[0])]
        return [(f"{ssa}#{i}", ty) for i, ty in enumerate(results)]

    def const(self, array: np.ndarray, elem: str, storage: str | None = None) -> tuple[str, str]:
        """A constant: ``elem`` is the result element type, ``storage`` the stored one if quantised."""
        data = np.ascontiguousarray(array)
        literal = f'"0x{data.astype(data.dtype.newbyteorder("<")).tobytes().hex().upper()}"'
        if storage is None:
            ty = t(array.shape, elem)
            return self.op("tfl.pseudo_const", [], [ty], f"value = dense<{literal}> : {ty}")[0]
        ty = t(array.shape, elem)
        return self.op("tfl.pseudo_qconst", [], [ty],
                       f"qtype = {ty}, value = dense<{literal}> : {t(array.shape, storage)}")[0]

    def i32(self, values: list[int] | np.ndarray, shape: tuple[int, ...] | None = None) -> tuple[str, str]:
        arr = np.asarray(values, dtype=np.int32)
        return self.const(arr.reshape(shape if shape is not None else arr.shape), "i32")

    def weights(self, shape: tuple[int, ...], axis: int, scales: list[float]) -> tuple[str, str]:
        """Symmetric per-channel int8 weights in [-127, 127]."""
        elem = (f"!quant.uniform<i8<-127:127>:f32:{axis}, {{" + ",".join(repr(s) for s in scales) + "}>")
        return self.const(self.rng.integers(-127, 128, size=shape, dtype=np.int8), elem, "i8")

    def bias(self, scales: list[float]) -> tuple[str, str]:
        elem = "!quant.uniform<i32:f32:0, {" + ",".join(repr(s) for s in scales) + "}>"
        values = self.rng.integers(-2000, 2000, size=(len(scales),), dtype=np.int32)
        return self.const(values, elem, "i32")

    def text(self, results: list[tuple[str, str]]) -> str:
        """The function, returning ``results``; tf.entry_function lists the tensor names."""
        outs = ", ".join(ty for _, ty in results)
        inputs = ",".join(n for n, _ in self.args)
        outputs = ",".join(self.result_name(v) for v, _ in results)
        args = ", ".join(f"%arg{i}: {ty}" for i, (_, ty) in enumerate(self.args))
        body = "\n".join(self.lines)
        return (f"  func.func @{self.name}({args}) -> ({outs}) attributes {{tf.entry_function = "
                f"{{inputs = \"{inputs}\", outputs = \"{outputs}\"}}}} {{\n{body}\n"
                f"    return {', '.join(v for v, _ in results)} : {outs}\n  }}")

    def result_name(self, value: str) -> str:
        """The location name given to the op result ``value`` (``%v3`` or ``%v3#1``)."""
        base, _, number = value.partition("#")
        for line in self.lines:
            if line.strip().startswith((base + " =", base + ":")):
                names = re.findall(r'"([^"]*)"', line.rsplit(" loc(", 1)[1])
                return names[int(number or 0)]
        raise ValueError(f"no op defines {value}")


def module(*funcs: str) -> str:
    return "module {\n" + "\n".join(funcs) + "\n}\n"


# ---------------------------------------------------------------------------------------------
# The models
A = 0.0625  # activation scale (exact in f32)


def conv_model(rng: np.random.Generator) -> str:
    """conv_2d, depthwise_conv_2d, max/average pool, transpose_conv, reshape, fully_connected."""
    f = Func("main", [("input", t((1, 8, 8, 3), q8(A, -1)))], rng)
    x = ("%arg0", t((1, 8, 8, 3), q8(A, -1)))
    w = f.weights((8, 3, 3, 3), 0, [0.015625 * (1 + i % 3) for i in range(8)])
    b = f.bias([A * 0.015625 * (1 + i % 3) for i in range(8)])
    y = f.op("tfl.conv_2d", [x, w, b], [t((1, 4, 4, 8), q8(0.125, 3))],
             'dilation_h_factor = 1 : i32, dilation_w_factor = 1 : i32, fused_activation_function = "RELU", '
             'padding = "SAME", stride_h = 2 : i32, stride_w = 2 : i32', "conv")[0]
    w = f.weights((1, 3, 3, 16), 3, [0.03125] * 16)
    b = f.bias([0.125 * 0.03125] * 16)
    y = f.op("tfl.depthwise_conv_2d", [y, w, b], [t((1, 4, 4, 16), q8(0.25, -5))],
             'depth_multiplier = 2 : i32, dilation_h_factor = 2 : i32, dilation_w_factor = 2 : i32, '
             'fused_activation_function = "RELU6", padding = "SAME", stride_h = 1 : i32, stride_w = 1 : i32',
             "depthwise")[0]
    pooled = f.op("tfl.max_pool_2d", [y], [t((1, 2, 2, 16), q8(0.25, -5))],
                  'filter_height = 2 : i32, filter_width = 2 : i32, fused_activation_function = "NONE", '
                  'padding = "VALID", stride_h = 2 : i32, stride_w = 2 : i32', "maxpool")[0]
    avg = f.op("tfl.average_pool_2d", [pooled], [t((1, 2, 2, 16), q8(0.25, -5))],
               'filter_height = 2 : i32, filter_width = 2 : i32, fused_activation_function = "NONE", '
               'padding = "SAME", stride_h = 1 : i32, stride_w = 1 : i32', "avgpool")[0]
    shape = f.i32([1, 4, 4, 4])
    w = f.weights((4, 3, 3, 16), 0, [0.0078125] * 4)
    none = f.op("tfl.no_value", [], ["none"], "value")[0]
    up = f.op("tfl.transpose_conv", [shape, w, avg, none], [t((1, 4, 4, 4), q8(0.5, 2))],
              'fused_activation_function = "NONE", padding = "SAME", stride_h = 2 : i32, stride_w = 2 : i32',
              "transpose_conv")[0]
    flat = f.op("tfl.reshape", [up, f.i32([1, 64])], [t((1, 64), q8(0.5, 2))], "", "flatten")[0]
    w = f.weights((10, 64), 0, [0.015625] * 10)
    b = f.bias([0.5 * 0.015625] * 10)
    out = f.op("tfl.fully_connected", [flat, w, b], [t((1, 10), q8(0.25, 0))],
               'fused_activation_function = "NONE", keep_num_dims = false, weights_format = "DEFAULT"',
               "logits")[0]
    return module(f.text([out]))


def conv_float_model(rng: np.random.Generator) -> str:
    """A float conv_2d + fully_connected with keep_num_dims, f32 constants inline and as blobs."""
    f = Func("main", [("image", t((1, 6, 6, 2), "f32"))], rng)
    x = ("%arg0", t((1, 6, 6, 2), "f32"))
    w = f.const(rng.standard_normal((4, 3, 3, 2)).astype(np.float32), "f32")
    b = f.const(np.array([0.5, -0.25, 0.125, 1.0], dtype=np.float32), "f32")
    y = f.op("tfl.conv_2d", [x, w, b], [t((1, 4, 4, 4), "f32")],
             'dilation_h_factor = 1 : i32, dilation_w_factor = 1 : i32, fused_activation_function = "TANH", '
             'padding = "VALID", stride_h = 1 : i32, stride_w = 1 : i32', "conv")[0]
    w = f.const(rng.standard_normal((3, 4)).astype(np.float32), "f32")
    none = f.op("tfl.no_value", [], ["none"], "value")[0]
    out = f.op("tfl.fully_connected", [y, w, none], [t((1, 4, 4, 3), "f32")],
               'fused_activation_function = "RELU", keep_num_dims = true, weights_format = "DEFAULT"',
               "dense")[0]
    return module(f.text([out]))


def elementwise_model(rng: np.random.Generator) -> str:
    """Broadcasting binary ops and the int8 activations the TFLite interpreter supports."""
    s = t((1, 4, 4, 8), q8(A, 1))
    f = Func("main", [("a", s), ("b", t((1, 1, 1, 8), q8(0.125, -2)))], rng)
    a, b = ("%arg0", s), ("%arg1", t((1, 1, 1, 8), q8(0.125, -2)))
    outs = []
    act = 'fused_activation_function = "NONE"'
    outs.append(f.op("tfl.add", [a, b], [t((1, 4, 4, 8), q8(0.25, 0))], act, "add")[0])
    outs.append(f.op("tfl.sub", [a, b], [t((1, 4, 4, 8), q8(0.25, 0))], 'fused_activation_function = "RELU"', "sub")[0])
    outs.append(f.op("tfl.mul", [a, b], [t((1, 4, 4, 8), q8(0.125, 0))], act, "mul")[0])
    outs.append(f.op("tfl.minimum", [a, a], [s], "", "minimum")[0])
    outs.append(f.op("tfl.maximum", [a, a], [s], "", "maximum")[0])
    outs.append(f.op("tfl.squared_difference", [a, b], [t((1, 4, 4, 8), q8(1.0, -128))], "", "squared_difference")[0])
    outs.append(f.op("tfl.abs", [a], [t((1, 4, 4, 8), q8(A, 0))], "", "abs")[0])
    outs.append(f.op("tfl.relu", [a], [s], "", "relu")[0])
    outs.append(f.op("tfl.relu6", [a], [s], "", "relu6")[0])
    outs.append(f.op("tfl.relu_n1_to_1", [a], [s], "", "relu_n1_to_1")[0])
    outs.append(f.op("tfl.tanh", [a], [t((1, 4, 4, 8), q8(0.0078125, 0))], "", "tanh")[0])
    outs.append(f.op("tfl.logistic", [a], [t((1, 4, 4, 8), q8(0.00390625, -128))], "", "logistic")[0])
    outs.append(f.op("tfl.hard_swish", [a], [t((1, 4, 4, 8), q8(0.125, -10))], "", "hard_swish")[0])
    outs.append(f.op("tfl.leaky_relu", [a], [s], "alpha = 0.125 : f32", "leaky_relu")[0])
    outs.append(f.op("tfl.softmax", [a], [t((1, 4, 4, 8), q8(0.00390625, -128))], "beta = 1.0 : f32", "softmax")[0])
    outs.append(f.op("tfl.quantize", [a], [t((1, 4, 4, 8), q8(0.125, 4))],
                     f"qtype = {t((1, 4, 4, 8), q8(0.125, 4))}", "requantize")[0])
    outs.append(f.op("tfl.dequantize", [a], [t((1, 4, 4, 8), "f32")], "", "dequantize")[0])
    return module(f.text(outs))


def math_model(rng: np.random.Generator) -> str:
    """Float element-wise math: exp, log, rsqrt, relu_0_to_1, and quantize from f32."""
    s = t((2, 3), "f32")
    f = Func("main", [("x", s)], rng)
    x = ("%arg0", s)
    outs = [f.op(f"tfl.{name}", [x], [s], "", name)[0] for name in ("exp", "log", "rsqrt", "relu_0_to_1")]
    outs.append(f.op("tfl.quantize", [x], [t((2, 3), q8(A, 3))], f"qtype = {t((2, 3), q8(A, 3))}", "quantize")[0])
    return module(f.text(outs))


def shape_model(rng: np.random.Generator) -> str:
    """Data movement: reshape, squeeze, expand_dims, transpose, concatenation, pack, unpack, shape,
    arg_max, pad, padv2, mean, resize_bilinear/nearest_neighbor, split, split_v, slice,
    strided_slice."""
    elem = q8(A, 1)
    s = t((1, 4, 4, 8), elem)
    f = Func("main", [("x", s)], rng)
    x = ("%arg0", s)
    outs = []
    r = f.op("tfl.reshape", [x, f.i32([4, 1, 32])], [t((4, 1, 32), elem)], "", "reshape")[0]
    sq = f.op("tfl.squeeze", [r], [t((4, 32), elem)], "squeeze_dims = [1]", "squeeze")[0]
    outs.append(f.op("tfl.expand_dims", [sq, f.i32([0], ())], [t((1, 4, 32), elem)], "", "expand_dims")[0])
    outs.append(f.op("tfl.transpose", [x, f.i32([0, 3, 1, 2])], [t((1, 8, 4, 4), elem)], "", "transpose")[0])
    outs.append(f.op("tfl.concatenation", [x, x], [t((1, 4, 4, 16), elem)],
                     'axis = -1 : i32, fused_activation_function = "NONE"', "concat")[0])
    packed = f.op("tfl.pack", [sq, sq], [t((4, 2, 32), elem)], "axis = 1 : i32, values_count = 2 : i32", "pack")[0]
    outs.extend(f.op("tfl.unpack", [packed], [t((4, 32), elem)] * 2, "axis = 1 : i32, num = 2 : i32",
                     ["unpack_0", "unpack_1"]))
    outs.append(f.op("tfl.shape", [x], [t((4,), "i32")], "", "shape")[0])
    outs.append(f.op("tfl.arg_max", [x, f.i32([3], (1,))], [t((1, 4, 4), "i32")], "", "arg_max")[0])
    pads = f.i32([[0, 0], [1, 1], [2, 0], [0, 0]], (4, 2))
    outs.append(f.op("tfl.pad", [x, pads], [t((1, 6, 6, 8), elem)], "", "pad")[0])
    value = f.const(np.array([5], dtype=np.int8).reshape(()), elem, "i8")
    outs.append(f.op("tfl.padv2", [x, pads, value], [t((1, 6, 6, 8), elem)], "", "padv2")[0])
    outs.append(f.op("tfl.mean", [x, f.i32([1, 2])], [t((1, 1, 1, 8), elem)], "keep_dims = true", "mean")[0])
    size = f.i32([8, 6])
    outs.append(f.op("tfl.resize_bilinear", [x, size], [t((1, 8, 6, 8), elem)],
                     "align_corners = false, half_pixel_centers = true", "resize_bilinear")[0])
    outs.append(f.op("tfl.resize_nearest_neighbor", [x, size], [t((1, 8, 6, 8), elem)],
                     "align_corners = true, half_pixel_centers = false", "resize_nearest")[0])
    outs.extend(f.op("tfl.split", [f.i32([3], ()), x], [t((1, 4, 4, 4), elem)] * 2, "num_splits = 2 : i32",
                     ["split_0", "split_1"]))
    outs.extend(f.op("tfl.split_v", [x, f.i32([1, -1, 2]), f.i32([2], ())],
                     [t((1, 4, 1, 8), elem), t((1, 4, 1, 8), elem), t((1, 4, 2, 8), elem)],
                     "num_splits = 3 : i32", ["split_v_0", "split_v_1", "split_v_2"]))
    outs.append(f.op("tfl.slice", [x, f.i32([0, 1, 0, 2]), f.i32([1, 2, -1, 4])], [t((1, 2, 4, 4), elem)],
                     "", "slice")[0])
    outs.append(f.op("tfl.strided_slice", [x, f.i32([0, 0, 1, 0]), f.i32([1, 4, 4, 8]), f.i32([1, 2, 1, 3])],
                     [t((2, 3, 3), elem)],
                     "begin_mask = 0 : i32, ellipsis_mask = 0 : i32, end_mask = 2 : i32, new_axis_mask = 0 : i32, "
                     "offset = false, shrink_axis_mask = 1 : i32", "strided_slice")[0])
    return module(f.text(outs))


def _raw_table(fields: list[tuple[int, bytes]], slots: int) -> np.ndarray:
    """A raw options table (vtable, then the object) as tfl.unsupported keeps it."""
    body = bytearray(4)
    offsets = [0] * slots
    for slot, data in fields:
        offsets[slot] = len(body)
        body += data
    vtable = struct.pack(f"<HH{slots}H", 4 + 2 * slots, len(body), *offsets)
    pad = (-len(vtable)) % 4
    body[0:4] = struct.pack("<i", len(vtable) + pad)
    return np.frombuffer(vtable + b"\0" * pad + bytes(body), dtype=np.uint8)


def generic_model(rng: np.random.Generator) -> str:
    """Two subgraphs; the first holds a builtin outside the dialect (GATHER, as tfl.unsupported
    with its raw GatherOptions), the second a float add."""
    f = Func("main", [("params", t((4, 6), "f32")), ("indices", t((3,), "i32"))], rng)
    p, idx = ("%arg0", t((4, 6), "f32")), ("%arg1", t((3,), "i32"))
    options = _raw_table([(0, struct.pack("<i", 1)), (1, struct.pack("<i", 0))], 2)
    literal = "[" + ", ".join(str(int(v)) for v in options) + "]"
    gathered = f.op("tfl.unsupported", [p, idx], [t((4, 3), "f32")],
                    f"builtin_code = 36 : i32, builtin_options = dense<{literal}> : tensor<{len(options)}xui8>, "
                    f'builtin_options_type = 23 : i32, opcode = "GATHER", version = 1 : i32', "gather")[0]
    g = Func("helper", [("h", t((2, 2), "f32"))], rng)
    h = ("%arg0", t((2, 2), "f32"))
    doubled = g.op("tfl.add", [h, h], [t((2, 2), "f32")], 'fused_activation_function = "NONE"', "double")[0]
    return module(f.text([gathered]), g.text([doubled]))


def custom_model(rng: np.random.Generator) -> str:
    """A CUSTOM operator (tfl.custom) with option bytes and a version."""
    f = Func("main", [("x", t((4, 3), "f32"))], rng)
    x = ("%arg0", t((4, 3), "f32"))
    custom = f.op("tfl.custom", [x], [t((4, 3), "f32")],
                  'custom_code = "MyCustomOp", custom_option = dense<[1, 2, 3]> : tensor<3xui8>, version = 2 : i32',
                  "custom")[0]
    return module(f.text([custom]))


# ---------------------------------------------------------------------------------------------
# Models for the Vela reference reports (tests/data/vela): shapes and options the cost model
# treats specially. Small, so that the per-layer comparison stays fast.

def q16(scale: float) -> str:
    """A per-tensor int16 quantised element type (16x8 networks: zero point 0)."""
    return f"!quant.uniform<i16:f32, {scale!r}>"


def bias64(f: Func, scales: list[float]) -> tuple[str, str]:
    """An int64 per-channel bias, as 16x8 convolutions carry."""
    elem = "!quant.uniform<i64:f32:0, {" + ",".join(repr(s) for s in scales) + "}>"
    return f.const(f.rng.integers(-20000, 20000, size=(len(scales),), dtype=np.int64), elem, "i64")


def _conv(f: Func, x: tuple[str, str], out: str, kernel: tuple[int, int], channels: tuple[int, int], scale: float,
          name: str, stride: tuple[int, int] = (1, 1), dilation: tuple[int, int] = (1, 1), padding: str = "SAME",
          act: str = "NONE", depthwise: bool = False, wide_bias: bool = False) -> tuple[str, str]:
    """A conv_2d (or depthwise_conv_2d, multiplier 1) with per-channel weights of scale 1/64 x (1, 2, 3)."""
    cin, cout = channels
    w_scales = [0.015625 * (1 + i % 3) for i in range(cout)]
    if depthwise:
        w = f.weights((1, *kernel, cout), 3, w_scales)
    else:
        w = f.weights((cout, *kernel, cin), 0, w_scales)
    b_scales = [scale * s for s in w_scales]
    b = bias64(f, b_scales) if wide_bias else f.bias(b_scales)
    props = (f"dilation_h_factor = {dilation[0]} : i32, dilation_w_factor = {dilation[1]} : i32, "
             f'fused_activation_function = "{act}", padding = "{padding}", stride_h = {stride[0]} : i32, '
             f"stride_w = {stride[1]} : i32")
    if depthwise:
        props = "depth_multiplier = 1 : i32, " + props
    return f.op("tfl.depthwise_conv_2d" if depthwise else "tfl.conv_2d", [x, w, b], [out], props, name)[0]


def _pool(f: Func, kind: str, x: tuple[str, str], out: str, size: int, stride: int, padding: str,
          name: str) -> tuple[str, str]:
    """A square max or average pool (``kind`` is "max" or "average")."""
    return f.op(f"tfl.{kind}_pool_2d", [x], [out],
                f'filter_height = {size} : i32, filter_width = {size} : i32, fused_activation_function = "NONE", '
                f'padding = "{padding}", stride_h = {stride} : i32, stride_w = {stride} : i32', name)[0]


def _dense(f: Func, x: tuple[str, str], out: str, inputs: int, outputs: int, scale: float, name: str,
           wide_bias: bool = False) -> tuple[str, str]:
    """A fully_connected layer with per-channel weights of scale 1/64."""
    w = f.weights((outputs, inputs), 0, [0.015625] * outputs)
    b = bias64(f, [scale * 0.015625] * outputs) if wide_bias else f.bias([scale * 0.015625] * outputs)
    return f.op("tfl.fully_connected", [x, w, b], [out],
                'fused_activation_function = "NONE", keep_num_dims = false, weights_format = "DEFAULT"', name)[0]


def int16_model(rng: np.random.Generator) -> str:
    """A 16x8 network (int16 activations, int8 weights, int64 biases): conv, depthwise, pools, add, dense."""
    s = 0.0078125
    f = Func("main", [("input", t((1, 8, 8, 8), q16(s)))], rng)
    x = ("%arg0", t((1, 8, 8, 8), q16(s)))
    y = _conv(f, x, t((1, 8, 8, 16), q16(0.03125)), (3, 3), (8, 16), s, "conv16", act="RELU", wide_bias=True)
    y = _conv(f, y, t((1, 8, 8, 16), q16(0.0625)), (3, 3), (16, 16), 0.03125, "depthwise16", depthwise=True,
              wide_bias=True)
    y = _pool(f, "max", y, t((1, 4, 4, 16), q16(0.0625)), 2, 2, "VALID", "maxpool16")
    z = _pool(f, "average", y, t((1, 4, 4, 16), q16(0.0625)), 3, 1, "SAME", "avgpool16")
    y = f.op("tfl.add", [y, z], [t((1, 4, 4, 16), q16(0.125))],
             'fused_activation_function = "NONE", pot_scale_int16 = false', "add16")[0]
    flat = f.op("tfl.reshape", [y, f.i32([1, 256])], [t((1, 256), q16(0.125))], "", "flatten16")[0]
    out = _dense(f, flat, t((1, 12), q16(0.25)), 256, 12, 0.125, "dense16", wide_bias=True)
    return module(f.text([out]))


def dilation_model(rng: np.random.Generator) -> str:
    """Dilated kernels: conv dilation 2, depthwise dilation 3, conv dilation 4, and 2x3 mixed."""
    f = Func("main", [("input", t((1, 16, 16, 8), q8(A, -1)))], rng)
    y = ("%arg0", t((1, 16, 16, 8), q8(A, -1)))
    y = _conv(f, y, t((1, 16, 16, 16), q8(0.125, 2)), (3, 3), (8, 16), A, "dilated2", dilation=(2, 2), act="RELU")
    y = _conv(f, y, t((1, 16, 16, 16), q8(0.25, -3)), (3, 3), (16, 16), 0.125, "dilated3", dilation=(3, 3),
              depthwise=True)
    y = _conv(f, y, t((1, 8, 8, 24), q8(0.25, 0)), (3, 3), (16, 24), 0.25, "dilated4", dilation=(4, 4),
              padding="VALID")
    out = _conv(f, y, t((1, 8, 8, 24), q8(0.5, 1)), (3, 3), (24, 24), 0.25, "dilated2x3", dilation=(2, 3),
                depthwise=True)
    return module(f.text([out]))


def stride3_model(rng: np.random.Generator) -> str:
    """Stride 3: a first conv on a 3-channel image, a depthwise, a 3x2-strided conv and a 3x3/3 max pool."""
    f = Func("main", [("image", t((1, 27, 27, 3), q8(A, 5)))], rng)
    y = ("%arg0", t((1, 27, 27, 3), q8(A, 5)))
    y = _conv(f, y, t((1, 9, 9, 16), q8(0.125, -2)), (3, 3), (3, 16), A, "stride3_conv", stride=(3, 3),
              padding="VALID", act="RELU6")
    a = _conv(f, y, t((1, 3, 3, 16), q8(0.25, 0)), (3, 3), (16, 16), 0.125, "stride3_depthwise", stride=(3, 3),
              depthwise=True)
    b = _conv(f, y, t((1, 3, 5, 8), q8(0.25, 1)), (5, 5), (16, 8), 0.125, "stride3x2_conv", stride=(3, 2))
    c = _pool(f, "max", y, t((1, 3, 3, 16), q8(0.125, -2)), 3, 3, "VALID", "stride3_maxpool")
    return module(f.text([a, b, c]))


def odd_channels_model(rng: np.random.Generator) -> str:
    """Channel counts that are not multiples of 8 or 16 (3, 7, 13, 33) and an odd-sized feature map."""
    f = Func("main", [("input", t((1, 9, 11, 3), q8(A, 0)))], rng)
    y = ("%arg0", t((1, 9, 11, 3), q8(A, 0)))
    y = _conv(f, y, t((1, 9, 11, 7), q8(0.125, 1)), (3, 3), (3, 7), A, "odd_conv7", act="RELU")
    y = _conv(f, y, t((1, 9, 11, 7), q8(0.25, -1)), (3, 3), (7, 7), 0.125, "odd_depthwise7", depthwise=True)
    y = _conv(f, y, t((1, 9, 11, 13), q8(0.25, 3)), (1, 1), (7, 13), 0.25, "odd_conv13")
    y = _pool(f, "max", y, t((1, 8, 10, 13), q8(0.25, 3)), 2, 1, "VALID", "odd_maxpool13")
    y = _conv(f, y, t((1, 4, 5, 33), q8(0.5, 0)), (3, 3), (13, 33), 0.25, "odd_conv33", stride=(2, 2))
    y = f.op("tfl.add", [y, y], [t((1, 4, 5, 33), q8(1.0, 0))], 'fused_activation_function = "NONE"', "odd_add33")[0]
    flat = f.op("tfl.reshape", [y, f.i32([1, 660])], [t((1, 660), q8(1.0, 0))], "", "odd_flatten")[0]
    out = _dense(f, flat, t((1, 7), q8(0.5, 0)), 660, 7, 1.0, "odd_dense7")
    return module(f.text([out]))


def weight_stream_model(rng: np.random.Generator) -> str:
    """Convolutions whose weights (tens of KB) are streamed from flash into SRAM while the NPU runs."""
    f = Func("main", [("input", t((1, 10, 10, 32), q8(A, 0)))], rng)
    y = ("%arg0", t((1, 10, 10, 32), q8(A, 0)))
    y = _conv(f, y, t((1, 10, 10, 48), q8(0.125, 0)), (3, 3), (32, 48), A, "stream_conv1", act="RELU")
    y = _conv(f, y, t((1, 10, 10, 64), q8(0.25, 0)), (3, 3), (48, 64), 0.125, "stream_conv2", act="RELU")
    y = _conv(f, y, t((1, 5, 5, 32), q8(0.25, 0)), (3, 3), (64, 32), 0.25, "stream_conv3", stride=(2, 2))
    out = _conv(f, y, t((1, 5, 5, 64), q8(0.5, 0)), (1, 1), (32, 64), 0.25, "stream_conv4")
    return module(f.text([out]))


# Models whose execution order differs from file order: parallel branches (joined by an add or a
# concatenation), several outputs and a CPU op between NPU ops (npu-order follows Vela's order; the
# DMA slack chain restarts after a CPU op).

def branches_model(rng: np.random.Generator) -> str:
    """Two parallel branches joined by an add, a residual add around them, and a conv after the join."""
    f = Func("main", [("input", t((1, 12, 12, 16), q8(A, 0)))], rng)
    x = ("%arg0", t((1, 12, 12, 16), q8(A, 0)))
    stem = _conv(f, x, t((1, 12, 12, 32), q8(0.125, 0)), (1, 1), (16, 32), A, "stem", act="RELU")
    left = _conv(f, stem, t((1, 12, 12, 32), q8(0.25, 0)), (3, 3), (32, 32), 0.125, "left_depthwise", depthwise=True)
    right = _conv(f, stem, t((1, 12, 12, 32), q8(0.25, 0)), (3, 3), (32, 32), 0.125, "right_conv", act="RELU")
    right = _conv(f, right, t((1, 12, 12, 32), q8(0.25, 0)), (1, 1), (32, 32), 0.25, "right_project")
    join = f.op("tfl.add", [left, right], [t((1, 12, 12, 32), q8(0.5, 0))], 'fused_activation_function = "NONE"',
                "join")[0]
    res = f.op("tfl.add", [join, stem], [t((1, 12, 12, 32), q8(0.5, 0))], 'fused_activation_function = "RELU"',
               "residual")[0]
    out = _conv(f, res, t((1, 6, 6, 48), q8(0.5, 0)), (3, 3), (32, 48), 0.5, "head", stride=(2, 2))
    return module(f.text([out]))


def two_outputs_model(rng: np.random.Generator) -> str:
    """One trunk, two heads returned as two outputs (the second output's head runs first in Vela)."""
    f = Func("main", [("input", t((1, 10, 10, 8), q8(A, 0)))], rng)
    x = ("%arg0", t((1, 10, 10, 8), q8(A, 0)))
    trunk = _conv(f, x, t((1, 10, 10, 24), q8(0.125, 0)), (3, 3), (8, 24), A, "trunk", act="RELU")
    a = _conv(f, trunk, t((1, 5, 5, 32), q8(0.25, 0)), (3, 3), (24, 32), 0.125, "head_a_conv", stride=(2, 2))
    a = _pool(f, "average", a, t((1, 5, 5, 32), q8(0.25, 0)), 3, 1, "SAME", "head_a_pool")
    b = _pool(f, "max", trunk, t((1, 5, 5, 24), q8(0.125, 0)), 2, 2, "VALID", "head_b_pool")
    b = _conv(f, b, t((1, 5, 5, 40), q8(0.25, 0)), (1, 1), (24, 40), 0.125, "head_b_conv")
    return module(f.text([a, b]))


def cpu_middle_model(rng: np.random.Generator) -> str:
    """A CPU op (PADV2, which Vela leaves to the CPU) between NPU convolutions, and an NPU branch
    that does not depend on it."""
    f = Func("main", [("input", t((1, 10, 10, 16), q8(A, 0)))], rng)
    x = ("%arg0", t((1, 10, 10, 16), q8(A, 0)))
    c1 = _conv(f, x, t((1, 10, 10, 32), q8(0.125, 0)), (3, 3), (16, 32), A, "pre_conv", act="RELU")
    pads = f.i32([[0, 0], [1, 1], [1, 1], [0, 0]], (4, 2))
    value = f.const(np.array([0], dtype=np.int8).reshape(()), q8(0.125, 0), "i8")
    padded = f.op("tfl.padv2", [c1, pads, value], [t((1, 12, 12, 32), q8(0.125, 0))], "", "cpu_pad")[0]
    c2 = _conv(f, padded, t((1, 10, 10, 32), q8(0.25, 0)), (3, 3), (32, 32), 0.125, "post_conv", padding="VALID")
    side = _conv(f, c1, t((1, 10, 10, 32), q8(0.25, 0)), (1, 1), (32, 32), 0.125, "side_conv")
    out = f.op("tfl.add", [c2, side], [t((1, 10, 10, 32), q8(0.5, 0))], 'fused_activation_function = "NONE"',
               "merge")[0]
    return module(f.text([out]))


def classifier_model(rng: np.random.Generator) -> str:
    """A classifier head: mean over 4x4, a dense layer to 100 classes and a softmax over them (its
    ReduceSum reads 100 int32 channels, more than one IFM block deep)."""
    f = Func("main", [("features", t((1, 4, 4, 40), q8(A, 2)))], rng)
    x = ("%arg0", t((1, 4, 4, 40), q8(A, 2)))
    pooled = f.op("tfl.mean", [x, f.i32([1, 2])], [t((1, 40), q8(A, 2))], "keep_dims = false", "head_mean")[0]
    logits = _dense(f, pooled, t((1, 100), q8(0.125, -3)), 40, 100, A, "head_logits")
    out = f.op("tfl.softmax", [logits], [t((1, 100), q8(0.00390625, -128))], "beta = 1.0 : f32", "head_softmax")[0]
    return module(f.text([out]))


def data_movement_model(rng: np.random.Generator) -> str:
    """Ops Vela runs as copies or reshapes around convolutions: concatenation (at 16-channel
    offsets), pad, 2x nearest-neighbour resize, split and a strided slice with unit strides."""
    f = Func("main", [("input", t((1, 8, 8, 8), q8(A, 0)))], rng)
    x = ("%arg0", t((1, 8, 8, 8), q8(A, 0)))
    a = _conv(f, x, t((1, 8, 8, 16), q8(0.125, 0)), (3, 3), (8, 16), A, "mv_conv_a", act="RELU")
    b = _conv(f, x, t((1, 8, 8, 16), q8(0.125, 0)), (1, 1), (8, 16), A, "mv_conv_b")
    c = _conv(f, x, t((1, 8, 8, 5), q8(0.125, 0)), (1, 1), (8, 5), A, "mv_conv_c")
    cat = f.op("tfl.concatenation", [a, b, c], [t((1, 8, 8, 37), q8(0.125, 0))],
               'axis = 3 : i32, fused_activation_function = "NONE"', "mv_concat")[0]
    pads = f.i32([[0, 0], [1, 1], [1, 1], [0, 0]], (4, 2))
    padded = f.op("tfl.pad", [cat, pads], [t((1, 10, 10, 37), q8(0.125, 0))], "", "mv_pad")[0]
    y = _conv(f, padded, t((1, 8, 8, 24), q8(0.25, 0)), (3, 3), (37, 24), 0.125, "mv_conv_d", padding="VALID")
    up = f.op("tfl.resize_nearest_neighbor", [y, f.i32([16, 16])], [t((1, 16, 16, 24), q8(0.25, 0))],
              "align_corners = false, half_pixel_centers = false", "mv_upsample")[0]
    halves = f.op("tfl.split", [f.i32([3], ()), up], [t((1, 16, 16, 12), q8(0.25, 0))] * 2, "num_splits = 2 : i32",
                  ["mv_split_0", "mv_split_1"])
    left = _conv(f, halves[0], t((1, 16, 16, 8), q8(0.5, 0)), (1, 1), (12, 8), 0.25, "mv_conv_e")
    sliced = f.op("tfl.strided_slice", [halves[1], f.i32([0, 4, 2, 0]), f.i32([1, 12, 10, 12]), f.i32([1, 1, 1, 1])],
                  [t((1, 8, 8, 12), q8(0.25, 0))],
                  "begin_mask = 0 : i32, ellipsis_mask = 0 : i32, end_mask = 0 : i32, new_axis_mask = 0 : i32, "
                  "offset = false, shrink_axis_mask = 0 : i32", "mv_slice")[0]
    right = _conv(f, sliced, t((1, 8, 8, 8), q8(0.5, 0)), (3, 3), (12, 8), 0.25, "mv_conv_f")
    return module(f.text([left, right]))


def fire_model(rng: np.random.Generator) -> str:
    """A SqueezeNet fire block and a fire-like one whose parts are a 1x1 conv and a chain of two 3x3s:
    concatenations (parts at channel offsets 0 and 16) whose parts and reader can run as one cascade
    (32x32 maps: large enough for Vela's memory test to keep such a cascade)."""
    # Output scales grow with each layer's gain (the seeded weights multiply the rms by 8 to 30 a
    # layer) so that few values saturate; a concatenation's parts share its scale.
    f = Func("main", [("input", t((1, 32, 32, 16), q8(A, 0)))], rng)
    x = ("%arg0", t((1, 32, 32, 16), q8(A, 0)))
    sq = _conv(f, x, t((1, 32, 32, 16), q8(0.5, 0)), (1, 1), (16, 16), A, "squeeze", act="RELU")
    e1 = _conv(f, sq, t((1, 32, 32, 16), q8(8.0, 0)), (1, 1), (16, 16), 0.5, "expand_1x1", act="RELU")
    e3 = _conv(f, sq, t((1, 32, 32, 16), q8(8.0, 0)), (3, 3), (16, 16), 0.5, "expand_3x3", act="RELU")
    cat = f.op("tfl.concatenation", [e1, e3], [t((1, 32, 32, 32), q8(8.0, 0))],
               'axis = 3 : i32, fused_activation_function = "NONE"', "expand_concat")[0]
    y = _conv(f, cat, t((1, 32, 32, 32), q8(256.0, 0)), (3, 3), (32, 32), 8.0, "fire_conv", act="RELU")
    left = _conv(f, y, t((1, 32, 32, 16), q8(65536.0, 0)), (1, 1), (32, 16), 256.0, "left")
    right = _conv(f, y, t((1, 32, 32, 16), q8(8192.0, 0)), (3, 3), (32, 16), 256.0, "right_a", act="RELU")
    right = _conv(f, right, t((1, 32, 32, 16), q8(65536.0, 0)), (3, 3), (16, 16), 8192.0, "right_b")
    cat = f.op("tfl.concatenation", [left, right], [t((1, 32, 32, 32), q8(65536.0, 0))],
               'axis = 3 : i32, fused_activation_function = "NONE"', "mixed_concat")[0]
    out = _conv(f, cat, t((1, 16, 16, 32), q8(2097152.0, 0)), (3, 3), (32, 32), 65536.0, "head", stride=(2, 2))
    return module(f.text([out]))


def kernels_model(rng: np.random.Generator) -> str:
    """Kernel shapes the hardware splits or treats apart: 9x9 (two sub-kernels per axis), 1x7 and
    7x1, a 5x5/2 depthwise, a 4x4/4 average pool and a 3x3/2 SAME max pool."""
    f = Func("main", [("input", t((1, 20, 20, 8), q8(A, 0)))], rng)
    x = ("%arg0", t((1, 20, 20, 8), q8(A, 0)))
    y = _conv(f, x, t((1, 20, 20, 16), q8(0.125, 0)), (9, 9), (8, 16), A, "k_conv9x9", act="RELU")
    pooled = _pool(f, "average", y, t((1, 5, 5, 16), q8(0.125, 0)), 4, 4, "VALID", "k_avgpool4")
    y = _conv(f, y, t((1, 20, 20, 16), q8(0.25, 0)), (1, 7), (16, 16), 0.125, "k_conv1x7")
    y = _conv(f, y, t((1, 20, 20, 16), q8(0.25, 0)), (7, 1), (16, 16), 0.25, "k_conv7x1")
    y = _conv(f, y, t((1, 10, 10, 16), q8(0.5, 0)), (5, 5), (16, 16), 0.25, "k_depthwise5x5", stride=(2, 2),
              depthwise=True)
    out = _pool(f, "max", y, t((1, 5, 5, 16), q8(0.5, 0)), 3, 2, "SAME", "k_maxpool3")
    return module(f.text([pooled, out]))


def wide_image_model(rng: np.random.Generator) -> str:
    """A wide, short image through a chain of windowed ops with few channels (a camera's line
    stripes): rolling buffers as wide as the image are where column bands pay."""
    f = Func("main", [("image", t((1, 24, 192, 8), q8(A, 0)))], rng)
    x = ("%arg0", t((1, 24, 192, 8), q8(A, 0)))
    y = _conv(f, x, t((1, 24, 192, 16), q8(0.125, 0)), (3, 3), (8, 16), A, "w_conv3x3", act="RELU")
    y = _conv(f, y, t((1, 24, 192, 16), q8(0.25, 0)), (3, 3), (16, 16), 0.125, "w_depthwise3x3", depthwise=True)
    y = _conv(f, y, t((1, 24, 192, 16), q8(0.25, 0)), (3, 3), (16, 16), 0.25, "w_conv3x3_b", act="RELU")
    y = _pool(f, "max", y, t((1, 12, 96, 16), q8(0.25, 0)), 2, 2, "VALID", "w_maxpool2")
    out = _conv(f, y, t((1, 12, 96, 8), q8(0.5, 0)), (1, 1), (16, 8), 0.25, "w_conv1x1")
    return module(f.text([out]))


def int16_elementwise_model(rng: np.random.Generator) -> str:
    """16-bit elementwise ops and activations: mul, sub, maximum, leaky ReLU, tanh, logistic, and
    softmax on 16 and on 40 channels (its ReduceSum reads 16-bit data: NHWC on the U65-512)."""
    s = t((1, 6, 6, 16), q16(0.0078125))
    wide = t((1, 5, 7, 40), q16(0.0078125))
    f = Func("main", [("a", s), ("b", s), ("c", wide)], rng)
    a, b, c = ("%arg0", s), ("%arg1", s), ("%arg2", wide)
    outs = [f.op("tfl.mul", [a, b], [t((1, 6, 6, 16), q16(0.03125))], 'fused_activation_function = "NONE"',
                 "mul16")[0],
            f.op("tfl.sub", [a, b], [t((1, 6, 6, 16), q16(0.015625))],
                 'fused_activation_function = "RELU", pot_scale_int16 = false', "sub16")[0],
            f.op("tfl.maximum", [a, b], [s], "", "maximum16")[0],
            f.op("tfl.leaky_relu", [a], [s], "alpha = 0.125 : f32", "leaky_relu16")[0],
            f.op("tfl.tanh", [a], [t((1, 6, 6, 16), q16(3.0517578125e-05))], "", "tanh16")[0],
            f.op("tfl.logistic", [a], [t((1, 6, 6, 16), q16(3.0517578125e-05))], "", "logistic16")[0],
            f.op("tfl.softmax", [a], [t((1, 6, 6, 16), q16(3.0517578125e-05))], "beta = 1.0 : f32",
                 "softmax16")[0],
            f.op("tfl.softmax", [c], [t((1, 5, 7, 40), q16(3.0517578125e-05))], "beta = 1.0 : f32",
                 "softmax16_wide")[0]]
    return module(f.text(outs))


def resize_bilinear_model(rng: np.random.Generator) -> str:
    """2x bilinear upscaling with half-pixel centres and with aligned corners, after a convolution."""
    f = Func("main", [("x", t((1, 6, 6, 24), q8(A, 0)))], rng)
    x = ("%arg0", t((1, 6, 6, 24), q8(A, 0)))
    y = _conv(f, x, t((1, 6, 6, 24), q8(0.125, 0)), (3, 3), (24, 24), A, "rb_conv")
    half = f.op("tfl.resize_bilinear", [y, f.i32([12, 12])], [t((1, 12, 12, 24), q8(0.125, 0))],
                "align_corners = false, half_pixel_centers = true", "rb_half_pixel")[0]
    corners = f.op("tfl.resize_bilinear", [y, f.i32([11, 11])], [t((1, 11, 11, 24), q8(0.125, 0))],
                   "align_corners = true, half_pixel_centers = false", "rb_corners")[0]
    return module(f.text([half, corners]))


def wide_batch_model(rng: np.random.Generator) -> str:
    """A dense layer on a batch of 4, 300-channel 1x1 and depthwise convolutions (OFM deeper than a
    block), an add broadcasting a row over the height and a maximum with a scalar."""
    x_type, v_type = t((1, 4, 4, 32), q8(A, 0)), t((4, 48), q8(A, 0))
    f = Func("main", [("x", x_type), ("v", v_type)], rng)
    x, v = ("%arg0", x_type), ("%arg1", v_type)
    batch = _dense(f, v, t((4, 20), q8(0.25, 0)), 48, 20, A, "wb_dense_batch4")
    wide = _conv(f, x, t((1, 4, 4, 300), q8(0.125, 0)), (1, 1), (32, 300), A, "wb_conv300")
    wide = _conv(f, wide, t((1, 4, 4, 300), q8(0.25, 0)), (3, 3), (300, 300), 0.125, "wb_depthwise300",
                 depthwise=True)
    row = f.op("tfl.slice", [x, f.i32([0, 0, 0, 0]), f.i32([1, 1, 4, 32])], [t((1, 1, 4, 32), q8(A, 0))], "",
               "wb_row")[0]
    added = f.op("tfl.add", [x, row], [t((1, 4, 4, 32), q8(0.125, 0))], 'fused_activation_function = "NONE"',
                 "wb_add_row")[0]
    two = f.const(np.array([2], dtype=np.int8).reshape(()), q8(A, 0), "i8")
    top = f.op("tfl.maximum", [x, two], [x_type], "", "wb_max_scalar")[0]
    return module(f.text([batch, wide, added, top]))


MODELS = {
    "conv.tflite": conv_model,
    "conv_float.tflite": conv_float_model,
    "elementwise.tflite": elementwise_model,
    "math.tflite": math_model,
    "shape.tflite": shape_model,
    "generic.tflite": generic_model,
    "custom.tflite": custom_model,
    "int16.tflite": int16_model,
    "dilation.tflite": dilation_model,
    "stride3.tflite": stride3_model,
    "odd_channels.tflite": odd_channels_model,
    "weight_stream.tflite": weight_stream_model,
    "branches.tflite": branches_model,
    "two_outputs.tflite": two_outputs_model,
    "cpu_middle.tflite": cpu_middle_model,
    "classifier.tflite": classifier_model,
    "data_movement.tflite": data_movement_model,
    "kernels.tflite": kernels_model,
    "int16_elementwise.tflite": int16_elementwise_model,
    "resize_bilinear.tflite": resize_bilinear_model,
    "wide_batch.tflite": wide_batch_model,
    "fire.tflite": fire_model,
    "wide_image.tflite": wide_image_model,
}
"""File name -> generator. Each gets its own seeded random generator."""

RUNNABLE = [name for name in MODELS if name != "custom.tflite"]
"""Models the TFLite interpreter can run (custom.tflite has a custom operator no interpreter has)."""


def build(name: str) -> bytes:
    """The bytes of model ``name``: its MLIR text parsed, verified and exported."""
    seed = sum(name.encode())
    text = MODELS[name](np.random.default_rng(seed))
    parsed = parse_module(text, name.replace(".tflite", ".mlir"))
    engine = DiagnosticEngine()
    if not verify(parsed, engine):
        raise SystemExit(f"{name}: the generated IR does not verify")
    return export_tflite(parsed)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("names", nargs="*", metavar="NAME", help="models to write or check (default: all)")
    parser.add_argument("--check", action="store_true", help="compare with the committed files")
    args = parser.parse_args()
    unknown = [name for name in args.names if name not in MODELS]
    if unknown:
        parser.error(f"no model {', '.join(unknown)} (models: {', '.join(MODELS)})")
    stale = []
    for name in args.names or MODELS:
        data = build(name)
        path = HERE / name
        if args.check:
            if not path.exists() or path.read_bytes() != data:
                stale.append(name)
        else:
            path.write_bytes(data)
            print(f"wrote {path.relative_to(HERE.parents[1])} ({len(data)} bytes)")
    if stale:
        print("out of date: " + ", ".join(stale) + " (run python tests/data/make_models.py)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
