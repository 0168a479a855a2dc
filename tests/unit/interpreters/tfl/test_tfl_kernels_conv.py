"""The tfl MAC, pooling, mean and softmax kernels against ai-edge-litert's reference kernels.

The committed models under tests/data are run whole in TFLite's interpreter with its reference
kernels (OpResolverType.BUILTIN_REF: TFLite's reference integer arithmetic) and in npu-opt's
interpreter on seeded random inputs, comparing every op's result tensor (litert keeps them all)
bit for bit. One-op models built from MLIR text (npu-opt's own exporter, as tests/data does)
cover the shapes and options the committed models lack: grouped convolution, depth multiplier
with stride, transpose_conv with a bias and VALID padding, keep_num_dims, 16x8 layers, means
over other axes with requantisation, softmax of other scales and betas. Float results are
compared to within a few float32 ulps of the tensor's magnitude (TFLite sums in float32 in an
order of its own).
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

import npu_opt.dialects  # noqa: F401  (registers the dialects)
from npu_opt.interpreters.tfl.fixed_point import multiply_by_quantized_multiplier_wide
from npu_opt.interpreters.tfl.reduce import mean_multiplier
from npu_opt.dialects.tfl.tflite import export_tflite, import_tflite
from npu_opt.ir.diagnostics import DiagnosticEngine
from npu_opt.ir.interpreter import InterpretError, run_function
from npu_opt.ir.location import NameLoc
from npu_opt.ir.parser import parse_module
from npu_opt.ir.verifier import verify

HAVE_LITERT = importlib.util.find_spec("ai_edge_litert") is not None
needs_litert = pytest.mark.skipif(not HAVE_LITERT, reason="ai-edge-litert is not installed")
DATA = Path(__file__).resolve().parents[3] / "data"


def q(bits: int, scale: float, zero: int = 0) -> str:
    """A per-tensor quantised element type."""
    return f"!quant.uniform<i{bits}:f32, {scale!r}:{zero}>"


def tensor(shape: tuple[int, ...], elem: str) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + elem + ">"


class Model:
    """A one-function model assembled from generic-form op lines."""

    def __init__(self, inputs: list[str], seed: int = 0) -> None:
        self.inputs = inputs
        self.lines: list[str] = []
        self.rng = np.random.default_rng(seed)

    def const(self, array: np.ndarray, elem: str) -> tuple[str, str]:
        """A constant; ``elem`` quantised makes a tfl.pseudo_qconst of the array's stored type."""
        name = f"%c{len(self.lines)}"
        ty = tensor(array.shape, elem)
        data = f'"0x{np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<")).tobytes().hex().upper()}"'
        if elem.startswith("!quant"):
            storage = tensor(array.shape, {1: "i8", 2: "i16", 4: "i32", 8: "i64"}[array.dtype.itemsize])
            self.lines.append(f'    {name} = "tfl.pseudo_qconst"() <{{qtype = {ty}, value = dense<{data}> : '
                              f"{storage}}}> : () -> {ty}")
        else:
            self.lines.append(f'    {name} = "tfl.pseudo_const"() <{{value = dense<{data}> : {ty}}}> : () -> {ty}')
        return name, ty

    def weights(self, shape: tuple[int, ...], axis: int, scales: list[float]) -> tuple[str, str]:
        """Symmetric per-channel int8 weights."""
        elem = f"!quant.uniform<i8<-127:127>:f32:{axis}, {{" + ",".join(repr(s) for s in scales) + "}>"
        return self.const(self.rng.integers(-127, 128, size=shape, dtype=np.int8), elem)

    def bias(self, scales: list[float], bits: int = 32) -> tuple[str, str]:
        elem = f"!quant.uniform<i{bits}:f32:0, {{" + ",".join(repr(s) for s in scales) + "}>"
        dtype = np.int32 if bits == 32 else np.int64
        return self.const(self.rng.integers(-3000, 3000, size=(len(scales),)).astype(dtype), elem)

    def none(self) -> tuple[str, str]:
        name = f"%n{len(self.lines)}"
        self.lines.append(f'    {name} = "tfl.no_value"() <{{value}}> : () -> none')
        return name, "none"

    def build(self, op: str, operands: list[tuple[str, str]], output: str, props: str) -> bytes:
        """The .tflite bytes of the model ending in ``op``."""
        args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(self.inputs))
        names = ", ".join(n for n, _ in operands)
        types = ", ".join(t for _, t in operands)
        body = "\n".join(self.lines)
        text = (f"module {{\n  func.func @main({args}) -> ({output}) {{\n{body}\n"
                f'    %r = "{op}"({names}) <{{{props}}}> : ({types}) -> {output}\n'
                f"    return %r : {output}\n  }}\n}}\n")
        module = parse_module(text, "case.mlir")
        assert verify(module, DiagnosticEngine()), text
        return export_tflite(module)

    def arg(self, i: int) -> tuple[str, str]:
        return f"%a{i}", self.inputs[i]


def random_inputs(model: bytes, seed: int) -> list[np.ndarray]:
    """Seeded inputs over each input's whole storage range (normal floats)."""
    from ai_edge_litert.interpreter import Interpreter
    interpreter = Interpreter(model_content=model)
    rng = np.random.default_rng(seed)
    inputs = []
    for detail in interpreter.get_input_details():
        dtype, shape = detail["dtype"], tuple(detail["shape"])
        if np.issubdtype(dtype, np.integer):
            info = np.iinfo(dtype)
            inputs.append(rng.integers(info.min, info.max + 1, size=shape).astype(dtype))
        else:
            inputs.append(rng.standard_normal(shape).astype(dtype))
    return inputs


def reference(model: bytes, inputs: list[np.ndarray]) -> tuple[list[np.ndarray], dict[str, np.ndarray]]:
    """litert's outputs with its reference kernels, and every tensor by name (npu-run's runner)."""
    from npu_opt.tools.litert_compare import run_litert_here as run_litert  # (in-process: many small runs)
    run = run_litert(model, "case.tflite", inputs, keep_all=True)
    return [array for _, array in run.outputs], run.tensors


def assert_close(want: np.ndarray, got: np.ndarray, what: str) -> None:
    """Bit-equal integers; floats within 8 float32 ulps of the tensor's largest magnitude (sums
    that cancel lose relative precision in any order)."""
    got = np.asarray(got).reshape(want.shape)
    assert want.dtype == got.dtype, (what, want.dtype, got.dtype)
    if want.dtype.kind == "f":
        bound = 8 * np.spacing(np.float32(np.abs(want).max(initial=1e-30)))
        bad = np.abs(want.astype(np.float64) - got.astype(np.float64)) > bound
    else:
        bad = want != got
    assert not bad.any(), (f"{what}: {int(bad.sum())} of {want.size} differ: want {want[bad][:8]}, "
                           f"got {got[bad][:8]}")


def check(model: bytes, seeds: tuple[int, ...] = (0, 1)) -> int:
    """Run ``model`` in both interpreters and compare every op's result; returns how many op
    results were compared."""
    module = import_tflite(model, "case.tflite")
    compared = 0
    for seed in seeds:
        inputs = random_inputs(model, seed)
        want, tensors = reference(model, inputs)

        def observe(op, results) -> None:
            nonlocal compared
            loc = op.location
            if op.name.startswith("tfl.pseudo") or not isinstance(loc, NameLoc) or loc.name not in tensors:
                return
            assert_close(tensors[loc.name], results[0], f"{op.name} '{loc.name}' (seed {seed})")
            compared += 1

        got = run_function(module, inputs, observer=observe)
        for i, (w, g) in enumerate(zip(want, got)):
            assert_close(w, g, f"output {i} (seed {seed})")
    return compared


# --------------------------------------------------------------------------------------------
# The committed models, whole

MODELS = ["conv", "kernels", "dilation", "stride3", "odd_channels", "classifier", "weight_stream",
          "conv_float", "int16"]


@needs_litert
@pytest.mark.parametrize("name", MODELS)
def test_committed_models_match_litert_op_by_op(name):
    assert check((DATA / f"{name}.tflite").read_bytes()) > 0


# --------------------------------------------------------------------------------------------
# One-op models

A8 = q(8, 0.0625, -1)
CONV_PROPS = ('dilation_h_factor = {dh} : i32, dilation_w_factor = {dw} : i32, fused_activation_function = '
              '"{act}", padding = "{pad}", stride_h = {sh} : i32, stride_w = {sw} : i32')


def conv_props(act: str = "NONE", pad: str = "SAME", stride: tuple[int, int] = (1, 1),
               dilation: tuple[int, int] = (1, 1)) -> str:
    return CONV_PROPS.format(dh=dilation[0], dw=dilation[1], act=act, pad=pad, sh=stride[0], sw=stride[1])


@needs_litert
@pytest.mark.parametrize("act,pad,stride,dilation", [
    ("RELU_N1_TO_1", "SAME", (2, 1), (1, 2)),
    ("NONE", "VALID", (1, 3), (2, 1)),
])
def test_grouped_conv_2d(act, pad, stride, dilation):
    m = Model([tensor((2, 9, 10, 12), A8)])
    w = m.weights((6, 3, 2, 4), 0, [0.01 * (1 + i) for i in range(6)])
    b = m.bias([0.0625 * 0.01 * (1 + i) for i in range(6)])
    out_h = -(-9 // stride[0]) if pad == "SAME" else -(-(9 - 2 * dilation[0]) // stride[0])
    out_w = -(-10 // stride[1]) if pad == "SAME" else -(-(10 - dilation[1]) // stride[1])
    model = m.build("tfl.conv_2d", [m.arg(0), w, b], tensor((2, out_h, out_w, 6), q(8, 0.05, 4)),
                    conv_props(act, pad, stride, dilation))
    check(model)


@needs_litert
def test_depthwise_multiplier_3_stride_2():
    m = Model([tensor((1, 11, 9, 4), q(8, 0.1, 7))])
    w = m.weights((1, 3, 3, 12), 3, [0.02 + 0.001 * i for i in range(12)])
    b = m.bias([0.1 * (0.02 + 0.001 * i) for i in range(12)])
    model = m.build("tfl.depthwise_conv_2d", [m.arg(0), w, b], tensor((1, 6, 5, 12), q(8, 0.2, -9)),
                    "depth_multiplier = 3 : i32, " + conv_props("RELU6", "SAME", (2, 2)))
    check(model)


@needs_litert
@pytest.mark.parametrize("pad,out_hw", [("VALID", (11, 7)), ("SAME", (8, 6))])
def test_transpose_conv_with_bias(pad, out_hw):
    m = Model([tensor((1, 4, 3, 5), q(8, 0.1, 3))])
    shape = m.const(np.array([1, *out_hw, 6], dtype=np.int32), "i32")
    w = m.weights((6, 5, 3, 5), 0, [0.01 + 0.002 * i for i in range(6)])
    b = m.bias([0.1 * (0.01 + 0.002 * i) for i in range(6)])
    model = m.build("tfl.transpose_conv", [shape, w, m.arg(0), b], tensor((1, *out_hw, 6), q(8, 0.3, -2)),
                    f'fused_activation_function = "NONE", padding = "{pad}", stride_h = 2 : i32, '
                    f"stride_w = 2 : i32")
    check(model)


@needs_litert
def test_fully_connected_keep_num_dims_and_16x8():
    m = Model([tensor((2, 3, 24), A8)])
    w = m.weights((5, 24), 0, [0.03] * 5)
    model = m.build("tfl.fully_connected", [m.arg(0), w, m.bias([0.0625 * 0.03] * 5)],
                    tensor((2, 3, 5), q(8, 0.4, 1)),
                    'fused_activation_function = "RELU", keep_num_dims = true, weights_format = "DEFAULT"')
    check(model)
    m = Model([tensor((3, 40), q(16, 0.001))])
    w = m.weights((7, 40), 0, [0.02] * 7)
    model = m.build("tfl.fully_connected", [m.arg(0), w, m.bias([0.001 * 0.02] * 7, bits=64)],
                    tensor((3, 7), q(16, 0.004)),
                    'fused_activation_function = "NONE", keep_num_dims = false, weights_format = "DEFAULT"')
    check(model)


@needs_litert
@pytest.mark.parametrize("kind,act,pad", [("average", "RELU6", "SAME"), ("max", "RELU", "SAME"),
                                          ("average", "NONE", "VALID")])
def test_pools_with_activations(kind, act, pad):
    m = Model([tensor((2, 7, 8, 5), q(8, 0.05, -20))])
    out = (2, 3, 3, 5) if pad == "SAME" else (2, 2, 3, 5)
    model = m.build(f"tfl.{kind}_pool_2d", [m.arg(0)], tensor(out, q(8, 0.05, -20)),
                    f'filter_height = 3 : i32, filter_width = 2 : i32, fused_activation_function = "{act}", '
                    f'padding = "{pad}", stride_h = 3 : i32, stride_w = 3 : i32')
    check(model, seeds=(0, 1, 2))


MEANS = [  # shape, axes, keep_dims, (scale, zero) in, (scale, zero) out, bits
    ((1, 5, 3, 40), (1, 2), True, (0.0625, 2), (0.05, -7), 8),
    ((1, 5, 3, 40), (3,), False, (0.0625, 2), (0.03, -7), 8),
    ((2, 5, 3, 40), (1,), True, (0.0625, 2), (0.0625, 2), 8),
    ((1, 7, 7, 64), (2, -3), True, (0.1, -3), (0.013, 5), 8),
    ((3, 40), (0, 1), False, (0.1, -3), (0.013, 5), 8),
    ((1, 9, 9, 16), (1, 2), True, (0.2, 0), (0.002, 0), 16),
]


@needs_litert
@pytest.mark.parametrize("shape,axes,keep,qin,qout,bits", MEANS)
def test_mean(shape, axes, keep, qin, qout, bits):
    reduced = {a % len(shape) for a in axes}
    out = tuple(1 if i in reduced else d for i, d in enumerate(shape)) if keep else \
        tuple(d for i, d in enumerate(shape) if i not in reduced)
    m = Model([tensor(shape, q(bits, *qin))])
    axis = m.const(np.array(axes, dtype=np.int32), "i32")
    model = m.build("tfl.mean", [m.arg(0), axis], tensor(out, q(bits, *qout)),
                    f"keep_dims = {str(keep).lower()}")
    check(model, seeds=(0, 1, 2))


SOFTMAXES = [  # shape, input type, output type, beta
    ((2, 3, 37), q(8, 0.0371, 5), q(8, 1 / 256, -128), 0.7),
    ((4, 1000), q(8, 0.3), q(8, 1 / 256, -128), 1.0),
    ((5, 7, 40), q(16, 0.0011), q(16, 1 / 32768), 1.0),
    ((3, 300), q(16, 0.0003), q(16, 1 / 32768), 1.3),
    ((3, 30), "f32", "f32", 1.0),
]


@needs_litert
@pytest.mark.parametrize("shape,qin,qout,beta", SOFTMAXES)
def test_softmax(shape, qin, qout, beta):
    m = Model([tensor(shape, qin)])
    check(m.build("tfl.softmax", [m.arg(0)], tensor(shape, qout), f"beta = {beta!r} : f32"), seeds=(0, 1, 2))


# --------------------------------------------------------------------------------------------
# Arithmetic helpers and refusals (no litert needed)

def test_wide_multiplier_against_exact_integers():
    rng = np.random.default_rng(3)
    x = rng.integers(-(1 << 40), 1 << 40, size=200)
    mantissa = rng.integers(1 << 30, (1 << 31) - 1, size=200)
    exponent = rng.integers(-20, 8, size=200)
    got = multiply_by_quantized_multiplier_wide(x, mantissa, exponent)
    for xi, mi, ei, gi in zip(x.tolist(), mantissa.tolist(), exponent.tolist(), got.tolist()):
        reduced = (mi + (1 << 15)) >> 16 if mi < 0x7FFF0000 else 0x7FFF
        total = 15 - ei
        exact = (xi * reduced + (1 << (total - 1))) >> total  # Python ints: floor shift, no overflow
        wrapped = (exact + (1 << 31)) % (1 << 32) - (1 << 31)
        assert gi == wrapped


def test_mean_multiplier_folds_the_count():
    mantissa, exponent = mean_multiplier(1.0, 16)  # a power of two divides exactly
    assert mantissa * 2.0 ** (exponent - 31) == 1.0 / 16
    mantissa, exponent = mean_multiplier(0.0625 / 0.03, 40)
    assert abs(mantissa * 2.0 ** (exponent - 31) - 0.0625 / 0.03 / 40) < 1e-8


def test_shuffled_weights_are_refused_with_the_format_named():
    m = Model([tensor((1, 16), A8)])
    w = m.weights((4, 16), 0, [0.03] * 4)
    text_model = m.build("tfl.fully_connected", [m.arg(0), w, m.none()], tensor((1, 4), q(8, 0.4)),
                         'fused_activation_function = "NONE", keep_num_dims = false, weights_format = "DEFAULT"')
    module = import_tflite(text_model, "case.tflite")
    for op in module.walk():
        if op.name == "tfl.fully_connected":
            op.properties["weights_format"] = type(op.properties["weights_format"])("SHUFFLED4x16INT8")
    with pytest.raises(InterpretError, match="weights_format SHUFFLED4x16INT8"):
        run_function(module, [np.zeros((1, 16), dtype=np.int8)])


def test_hybrid_weights_are_refused():
    text = """func.func @main(%a: tensor<1x4xf32>) -> tensor<1x2xf32> {
  %w = "tfl.pseudo_qconst"() <{qtype = tensor<2x4x!quant.uniform<i8:f32, 0.5>>, value = dense<1> : tensor<2x4xi8>}> : () -> tensor<2x4x!quant.uniform<i8:f32, 0.5>>
  %n = "tfl.no_value"() <{value}> : () -> none
  %r = "tfl.fully_connected"(%a, %w, %n) <{fused_activation_function = "NONE", keep_num_dims = false, weights_format = "DEFAULT"}> : (tensor<1x4xf32>, tensor<2x4x!quant.uniform<i8:f32, 0.5>>, none) -> tensor<1x2xf32>
  func.return %r : tensor<1x2xf32>
}
"""
    with pytest.raises(InterpretError, match="hybrid op"):
        run_function(parse_module(text, "case.mlir"), [np.zeros((1, 4), dtype=np.float32)])
