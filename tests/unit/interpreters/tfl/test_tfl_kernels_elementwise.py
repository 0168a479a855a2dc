"""The tfl element-wise, activation and (de)quantisation kernels against ai-edge-litert.

Each case builds a one-op model from MLIR text (npu-opt's own exporter, as tests/data does),
runs it in the TFLite interpreter (builtin kernels, no delegate) and in npu-opt's interpreter on
the same inputs, and asserts bit-equality: quantised unary ops over every stored input value,
binary ops over random inputs with broadcasting. The committed models under tests/data that hold
these ops are compared whole.
"""
from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import numpy as np
import pytest

import npu_opt.dialects  # noqa: F401  (registers the dialects)
from npu_opt.dialects.tfl.tflite import export_tflite, import_tflite
from npu_opt.ir.diagnostics import DiagnosticEngine
from npu_opt.ir.interpreter import InterpretError, run_function
from npu_opt.ir.parser import parse_module
from npu_opt.ir.verifier import verify

HAVE_LITERT = importlib.util.find_spec("ai_edge_litert") is not None
pytestmark = pytest.mark.skipif(not HAVE_LITERT, reason="ai-edge-litert is not installed")
DATA = Path(__file__).resolve().parents[3] / "data"


def q(bits: int, scale: float, zero: int = 0) -> str:
    """A per-tensor quantised element type."""
    return f"!quant.uniform<i{bits}:f32, {scale!r}:{zero}>"


def tensor(shape: tuple[int, ...], elem: str) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + elem + ">"


def one_op(name: str, inputs: list[str], output: str, props: str = "") -> bytes:
    """A .tflite model of one op ``name`` on arguments of types ``inputs``."""
    args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(inputs))
    operands = ", ".join(f"%a{i}" for i in range(len(inputs)))
    attrs = f" <{{{props}}}>" if props else ""
    text = (f"module {{\n  func.func @main({args}) -> ({output}) {{\n"
            f'    %0 = "{name}"({operands}){attrs} : ({", ".join(inputs)}) -> {output}\n'
            f"    return %0 : {output}\n  }}\n}}\n")
    module = parse_module(text, "case.mlir")
    assert verify(module, DiagnosticEngine()), text
    return export_tflite(module)


def litert(model: bytes, inputs: list[np.ndarray]) -> list[np.ndarray]:
    """The outputs of TFLite's reference kernels (litert's BUILTIN_REF resolver) on ``inputs``:
    the oracle of every interpreter test, since the optimised kernels round differently."""
    from npu_opt.tools.litert_compare import run_litert_here as run_litert  # (in-process: many small runs)
    return [array for _, array in run_litert(model, "case.tflite", inputs).outputs]


def ours(model: bytes, inputs: list[np.ndarray], func: str | None = None) -> list[np.ndarray]:
    """npu-opt's interpreter's outputs on the imported model."""
    return run_function(import_tflite(model, "case.tflite"), inputs, func)


def assert_same(model: bytes, inputs: list[np.ndarray]) -> None:
    """Both interpreters give bit-identical outputs (NaN equal to NaN)."""
    want, got = litert(model, inputs), ours(model, inputs)
    assert len(want) == len(got)
    for i, (w, g) in enumerate(zip(want, got)):
        assert w.dtype == g.dtype and w.shape == g.shape, (i, w.dtype, g.dtype, w.shape, g.shape)
        bad = ~((w == g) | (np.isnan(w) & np.isnan(g)) if w.dtype.kind == "f" else (w == g))
        assert not bad.any(), (f"output {i}: {int(bad.sum())} of {w.size} differ; first at "
                               f"input {[x.flat[np.argmax(bad.ravel())] for x in inputs if x.size == w.size]}: "
                               f"want {w[bad][:8]}, got {g[bad][:8]}")


def every_int(bits: int, shape: tuple[int, ...] | None = None) -> np.ndarray:
    """Every value of the signed ``bits``-wide integer type, in order."""
    info = np.iinfo(np.int8 if bits == 8 else np.int16)
    values = np.arange(info.min, info.max + 1, dtype=np.int8 if bits == 8 else np.int16)
    return values.reshape(shape) if shape is not None else values


def random_ints(rng: np.random.Generator, bits: int, shape: tuple[int, ...]) -> np.ndarray:
    dtype = np.int8 if bits == 8 else np.int16
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, size=shape, endpoint=True).astype(dtype)


# --- the committed models --------------------------------------------------------------------

MY_OPS = {"tfl.add", "tfl.sub", "tfl.mul", "tfl.minimum", "tfl.maximum", "tfl.squared_difference",
          "tfl.abs", "tfl.relu", "tfl.relu6", "tfl.relu_n1_to_1", "tfl.relu_0_to_1",
          "tfl.leaky_relu", "tfl.hard_swish", "tfl.logistic", "tfl.tanh", "tfl.exp", "tfl.log",
          "tfl.rsqrt", "tfl.quantize", "tfl.dequantize"}


def model_inputs(model: bytes, seed: int) -> list[np.ndarray]:
    """Seeded inputs for every input of ``model``: normal floats, integers over their range."""
    from ai_edge_litert.interpreter import Interpreter
    rng = np.random.default_rng(seed)
    inputs = []
    for detail in Interpreter(model_content=model).get_input_details():
        dtype, shape = detail["dtype"], detail["shape"]
        if np.issubdtype(dtype, np.floating):
            inputs.append((rng.standard_normal(shape) * 2).astype(dtype))
        else:
            info = np.iinfo(dtype)
            inputs.append(rng.integers(info.min, info.max, size=shape, endpoint=True).astype(dtype))
    return inputs


@pytest.mark.parametrize("name", ["elementwise", "math", "int16_elementwise"])
def test_committed_model_is_bit_exact(name: str) -> None:
    """Whole models of element-wise ops: every output equals litert's."""
    model = (DATA / f"{name}.tflite").read_bytes()
    for seed in range(2):
        assert_same(model, model_inputs(model, seed))


def _tensor_name(op) -> str:
    """The TFLite tensor name the importer gave ``op``'s (first) result as its location."""
    from npu_opt.ir.location import FusedLoc, NameLoc
    loc = op.location
    if isinstance(loc, FusedLoc):
        loc = loc.locations[0]
    assert isinstance(loc, NameLoc), loc
    return loc.name


@pytest.mark.parametrize("name", ["branches", "elementwise", "int16_elementwise"])
def test_each_op_on_litert_intermediates(name: str) -> None:
    """Every element-wise op of a model, run by its kernel on litert's own intermediate tensors,
    reproduces litert's result (independent of the other ops' kernels, e.g. convolutions)."""
    from npu_opt.ir.interpreter import kernel_for
    from npu_opt.tools.litert_compare import run_litert_here as run_litert  # (in-process: many small runs)
    model = (DATA / f"{name}.tflite").read_bytes()
    inputs = model_inputs(model, 0)
    tensors = run_litert(model, f"{name}.tflite", inputs, keep_all=True).tensors
    module = import_tflite(model, f"{name}.tflite")
    func = next(op for op in module.walk() if op.name == "func.func")
    args = dict(zip(func.regions[0].entry.args, inputs))
    checked = 0
    for op in func.regions[0].entry.ops:
        if op.name not in MY_OPS:
            continue
        operands = [args[v] if v in args else tensors[_tensor_name(v.owner)] for v in op.operands]
        (got,) = kernel_for(op)(op, operands)
        want = tensors[_tensor_name(op)]
        assert np.array_equal(got, want), (op.name, int((got != want).sum()))
        checked += 1
    assert checked


# --- one-op models: quantised unary ops over every stored value ------------------------------

UNARY_8 = ["tfl.abs", "tfl.relu", "tfl.relu6", "tfl.relu_n1_to_1", "tfl.relu_0_to_1",
           "tfl.leaky_relu", "tfl.hard_swish", "tfl.logistic", "tfl.tanh", "tfl.exp", "tfl.log"]
SCALES_8 = [(0.0625, 1, 0.125, -10), (0.0371, 3, 0.0913, -7), (0.1, -20, 0.03, 5),
            (0.5, 0, 0.3, -100)]
"""(input scale, input zero, output scale, output zero) cases for the 8-bit unary ops."""


@pytest.mark.parametrize("name", UNARY_8)
def test_int8_unary_every_value(name: str) -> None:
    """Each stored int8 value, in a tensor of 259 elements."""
    x = np.resize(every_int(8), 259)
    for s_in, z_in, s_out, z_out in SCALES_8:
        if name == "tfl.logistic":
            s_out, z_out = 1 / 256, -128  # TFLite requires these
        elif name == "tfl.tanh":
            s_out, z_out = 1 / 128, 0
        props = "alpha = -0.3 : f32" if name == "tfl.leaky_relu" and s_in == 0.1 else (
            "alpha = 0.125 : f32" if name == "tfl.leaky_relu" else "")
        model = one_op(name, [tensor((259,), q(8, s_in, z_in))],
                       tensor((259,), q(8, s_out, z_out)), props)
        assert_same(model, [x])


def test_int8_rsqrt_every_non_negative_value() -> None:
    """int8 rsqrt over every value at or above the zero point (TFLite rejects the others)."""
    for s_in, z_in, s_out, z_out in [(0.0625, -128, 0.125, -10), (0.0371, -100, 0.0913, -7),
                                     (0.5, -128, 0.01, -128), (0.003, -128, 0.5, 0)]:
        x = np.arange(z_in, 128).astype(np.int8)
        model = one_op("tfl.rsqrt", [tensor(x.shape, q(8, s_in, z_in))],
                       tensor(x.shape, q(8, s_out, z_out)))
        assert_same(model, [x])


def test_int8_rsqrt_rejects_negative_values() -> None:
    model = one_op("tfl.rsqrt", [tensor((2,), q(8, 0.5, 0))], tensor((2,), q(8, 0.5, 0)))
    with pytest.raises(InterpretError, match="negative value"):
        ours(model, [np.array([3, -2], np.int8)])


@pytest.mark.parametrize("name", ["tfl.logistic", "tfl.tanh"])
def test_int16_sigmoid_tanh_every_value(name: str) -> None:
    """int16 logistic and tanh (TFLite's interpolated table) over all 65536 inputs."""
    x = every_int(16)
    for s_in in (2 ** -7, 0.001, 0.0003):
        model = one_op(name, [tensor((65536,), q(16, s_in))], tensor((65536,), q(16, 2 ** -15)))
        assert_same(model, [x])


def test_int16_relu_and_leaky_relu() -> None:
    rng = np.random.default_rng(3)
    x = random_ints(rng, 16, (1000,))
    for name, props in [("tfl.relu", ""), ("tfl.relu6", ""), ("tfl.leaky_relu", "alpha = 0.2 : f32")]:
        model = one_op(name, [tensor((1000,), q(16, 0.001))], tensor((1000,), q(16, 0.0007)), props)
        assert_same(model, [x])


# --- one-op models: binary ops ---------------------------------------------------------------

BINARY_SCALES = [(0.0625, 1, 0.125, -2, 0.25, 0), (0.0371, 3, 0.0913, -7, 0.0517, 5),
                 (0.01, 0, 0.03, 0, 0.02, 0), (0.0078125, 0, 0.00390625, 0, 0.0078125, 0)]
"""(lhs scale, lhs zero, rhs scale, rhs zero, out scale, out zero); int16 drops the zeros."""


@pytest.mark.parametrize("bits", [8, 16])
def test_quantized_binary_ops_broadcasting(bits: int) -> None:
    """add, sub (both int16 paths), mul, squared_difference, minimum and maximum with
    broadcasting and fused activations, on random stored values."""
    rng = np.random.default_rng(bits)
    lhs_shape, rhs_shape = (2, 3, 5, 16), (1, 1, 5, 16)
    for s1, z1, s2, z2, so, zo in BINARY_SCALES:
        if bits == 16:
            z1 = z2 = zo = 0
        a, b = random_ints(rng, bits, lhs_shape), random_ints(rng, bits, rhs_shape)
        types = [tensor(lhs_shape, q(bits, s1, z1)), tensor(rhs_shape, q(bits, s2, z2))]
        out = tensor(lhs_shape, q(bits, so, zo))
        all_pot = all(math.log2(v).is_integer() for v in (s1, s2, so))
        pots = [", pot_scale_int16 = false"] + ([] if all_pot else [""]) if bits == 16 else [""]
        for name in ("tfl.add", "tfl.sub"):
            for act in ("NONE", "RELU6"):
                for pot in pots:
                    assert_same(one_op(name, types, out, f'fused_activation_function = "{act}"{pot}'),
                                [a, b])
        assert_same(one_op("tfl.mul", types, out, 'fused_activation_function = "RELU"'), [a, b])
        if bits == 8:
            assert_same(one_op("tfl.squared_difference", types, tensor(lhs_shape, q(8, so * 4, zo))),
                        [a, b])
        same = [types[0], tensor(rhs_shape, q(bits, s1, z1))]
        for name in ("tfl.minimum", "tfl.maximum"):
            assert_same(one_op(name, same, types[0]), [a, b])


def test_int16_add_sub_power_of_two_path() -> None:
    """int16 add/sub with power-of-two scales (TFLite's default pot_scale_int16): one input
    shifted onto the other's (the output's) scale, a saturating add. Same shapes: litert
    aborts when this path broadcasts."""
    rng = np.random.default_rng(13)
    shape = (4, 64)
    a, b = random_ints(rng, 16, shape), random_ints(rng, 16, shape)
    for s1, s2 in [(2 ** -7, 2 ** -9), (2 ** -10, 2 ** -7)]:
        types = [tensor(shape, q(16, s1)), tensor(shape, q(16, s2))]
        out = tensor(shape, q(16, max(s1, s2)))
        for name in ("tfl.add", "tfl.sub"):
            for act in ("NONE", "RELU"):
                assert_same(one_op(name, types, out, f'fused_activation_function = "{act}"'), [a, b])


@pytest.mark.parametrize("elem", ["f32", "i32"])
def test_float_and_int_binary_ops(elem: str) -> None:
    rng = np.random.default_rng(5)
    if elem == "f32":
        a = rng.standard_normal((3, 4)).astype(np.float32)
        b = rng.standard_normal((1, 4)).astype(np.float32)
    else:
        a = rng.integers(-1000, 1000, (3, 4)).astype(np.int32)
        b = rng.integers(-1000, 1000, (1, 4)).astype(np.int32)
    types, out = [tensor((3, 4), elem), tensor((1, 4), elem)], tensor((3, 4), elem)
    for name in ("tfl.add", "tfl.sub", "tfl.mul"):
        for act in ("NONE", "RELU", "RELU_N1_TO_1"):
            assert_same(one_op(name, types, out, f'fused_activation_function = "{act}"'), [a, b])
    for name in ("tfl.minimum", "tfl.maximum") + (("tfl.squared_difference",) if elem == "f32" else ()):
        assert_same(one_op(name, types, out), [a, b])


# --- one-op models: float unary ops ----------------------------------------------------------

def _floats(n: int) -> np.ndarray:
    x = (np.random.default_rng(7).standard_normal(n) * 4).astype(np.float32)
    x[:10] = [0.0, -0.0, np.inf, -np.inf, 3.0, -3.0, 6.0, -1.0, 1.0, 100.0]
    return x


@pytest.mark.parametrize("name", ["tfl.abs", "tfl.relu", "tfl.relu6", "tfl.relu_n1_to_1",
                                  "tfl.relu_0_to_1", "tfl.leaky_relu", "tfl.hard_swish",
                                  "tfl.rsqrt"])
def test_float_unary_exact(name: str) -> None:
    x = _floats(1027)
    props = "alpha = 0.125 : f32" if name == "tfl.leaky_relu" else ""
    assert_same(one_op(name, [tensor((1027,), "f32")], tensor((1027,), "f32"), props), [x])


@pytest.mark.parametrize("name,ulps", [("tfl.exp", 1), ("tfl.log", 1), ("tfl.tanh", 2),
                                       ("tfl.logistic", 2)])
def test_float_transcendental_within_documented_ulps(name: str, ulps: int) -> None:
    """The reference kernels' float exp/log/tanh/logistic (libm) are matched to within the
    documented number of float32 ulps."""
    x = _floats(1027)[10:]
    if name == "tfl.log":
        x = np.abs(x)
    model = one_op(name, [tensor(x.shape, "f32")], tensor(x.shape, "f32"))
    want, got = litert(model, [x])[0], ours(model, [x])[0]
    distance = np.abs(want.view(np.int32).astype(np.int64) - got.view(np.int32).astype(np.int64))
    assert distance.max() <= ulps


# --- quantize and dequantize -----------------------------------------------------------------

@pytest.mark.parametrize("bits", [8, 16])
def test_quantize_float_ties_tails_and_overflow(bits: int) -> None:
    """Float -> int: exact halves (rounded away from zero after a float32 division), an
    out-of-range value, and several sizes."""
    s = 0.0371
    for n, zero in [(16, 0), (44, 0), (13, 0), (37, 5 if bits == 8 else 0)]:
        x = (np.arange(n) - n // 2 + 0.5).astype(np.float32) * np.float32(s)
        x[3] = 3e9
        x[5] = -3e9
        qt = tensor((n,), q(bits, s, zero))
        assert_same(one_op("tfl.quantize", [tensor((n,), "f32")], qt, f"qtype = {qt}"), [x])


def test_requantize_int8_and_int16() -> None:
    """Quantised -> quantised: int8 -> int8 and the int16 combinations, one multiplier."""
    rng = np.random.default_rng(11)
    for (b1, s1, z1, b2, s2, z2) in [(8, 0.0371, 3, 8, 0.0913, -7), (8, 0.05, 1, 8, 0.2, 0),
                                     (8, 0.3, -9, 8, 0.1, 4), (16, 0.001, 0, 8, 0.05, 4),
                                     (8, 0.05, 4, 16, 0.001, 0), (16, 0.001, 0, 16, 0.0007, 0)]:
        for n in (256, 37):
            x = random_ints(rng, b1, (n,))
            qt = tensor((n,), q(b2, s2, z2))
            assert_same(one_op("tfl.quantize", [tensor((n,), q(b1, s1, z1))], qt, f"qtype = {qt}"), [x])


def test_dequantize() -> None:
    for bits, s, z in [(8, 0.0371, 3), (8, 0.5, -128), (16, 0.0013, 0)]:
        x = every_int(bits)
        model = one_op("tfl.dequantize", [tensor(x.shape, q(bits, s, z))], tensor(x.shape, "f32"))
        assert_same(model, [x])


def test_uint8_int16_abs_and_per_axis_dequantize() -> None:
    """uint8 operands (requantise to int8, relu, logistic, add), int16 abs over every value,
    and a per-axis dequantise."""
    u8 = np.arange(256).astype(np.uint8)
    def qu(scale: float, zero: int) -> str:
        return f"!quant.uniform<u8:f32, {scale!r}:{zero}>"
    qt = tensor((256,), q(8, 0.07, 3))
    assert_same(one_op("tfl.quantize", [tensor((256,), qu(0.05, 130))], qt, f"qtype = {qt}"), [u8])
    assert_same(one_op("tfl.relu", [tensor((256,), qu(0.05, 130))], tensor((256,), qu(0.07, 3))), [u8])
    assert_same(one_op("tfl.logistic", [tensor((256,), qu(0.05, 130))],
                       tensor((256,), qu(1 / 256, 0))), [u8])
    assert_same(one_op("tfl.add", [tensor((256,), qu(0.05, 130)), tensor((256,), qu(0.03, 100))],
                       tensor((256,), qu(0.07, 3)), 'fused_activation_function = "NONE"'),
                [u8, u8[::-1].copy()])
    x16 = every_int(16)
    assert_same(one_op("tfl.abs", [tensor((65536,), q(16, 0.001))], tensor((65536,), q(16, 0.0013))),
                [x16])
    per_axis = "!quant.uniform<i8:f32:0, {0.5:1,0.25:-3}>"
    assert_same(one_op("tfl.dequantize", [tensor((2, 128), per_axis)], tensor((2, 128), "f32")),
                [every_int(8, (2, 128))])
