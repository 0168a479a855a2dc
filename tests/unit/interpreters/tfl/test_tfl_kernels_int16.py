"""int16 tfl activation kernels against litert's reference kernels, over every int16 input.

Covers what TFLite's reference kernels compute with 16-bit tables: EXP, LOG and RSQRT (the
513-entry interpolated tables), LOGISTIC and TANH at the power-of-two input scales (2**-12, and
2**-11 for tanh) beside other scales, and the int16 cases litert refuses (non-zero zero points,
negative RSQRT inputs, HARD_SWISH), which our interpreter must refuse too, saying why.
Each case is a one-op model written as tfl MLIR, exported with npu-opt's own exporter, run by
litert (BUILTIN_REF) and by our interpreter on the same input; outputs must be identical.
"""
from __future__ import annotations

import importlib.util

import numpy as np
import pytest

import npu_opt.dialects  # noqa: F401  (registers the dialects)
from npu_opt.interpreters.tfl import int16_tables
from npu_opt.interpreters.tfl.quantize import Quant
from npu_opt.dialects.tfl.tflite import export_tflite, import_tflite
from npu_opt.ir.diagnostics import DiagnosticEngine, UserError
from npu_opt.ir.interpreter import InterpretError, run_function
from npu_opt.ir.parser import parse_module
from npu_opt.ir.verifier import verify

HAVE_LITERT = importlib.util.find_spec("ai_edge_litert") is not None
pytestmark = pytest.mark.skipif(not HAVE_LITERT, reason="ai-edge-litert is not installed")

EVERY_INT16 = np.arange(-32768, 32768, dtype=np.int16)
NON_NEGATIVE = np.arange(0, 32768, dtype=np.int16)


def model(name: str, in_scale: float, out_scale: float, size: int, in_zero: int = 0,
          out_zero: int = 0) -> bytes:
    """A .tflite model of one int16 op ``name`` on a 1-D tensor of ``size`` elements."""
    t_in = f"tensor<{size}x!quant.uniform<i16:f32, {in_scale!r}:{in_zero}>>"
    t_out = f"tensor<{size}x!quant.uniform<i16:f32, {out_scale!r}:{out_zero}>>"
    text = (f"module {{\n  func.func @main(%a: {t_in}) -> ({t_out}) {{\n"
            f'    %0 = "{name}"(%a) : ({t_in}) -> {t_out}\n'
            f"    return %0 : {t_out}\n  }}\n}}\n")
    module = parse_module(text, "case.mlir")
    assert verify(module, DiagnosticEngine()), text
    return export_tflite(module)


def litert(flatbuffer: bytes, x: np.ndarray) -> np.ndarray:
    """litert's reference kernels' output on ``x``."""
    from npu_opt.tools.litert_compare import run_litert_here as run_litert  # (in-process: many small runs)
    return run_litert(flatbuffer, "case.tflite", [x]).outputs[0][1]


def ours(flatbuffer: bytes, x: np.ndarray) -> np.ndarray:
    """Our interpreter's output on ``x`` for the imported model."""
    return run_function(import_tflite(flatbuffer, "case.tflite"), [x])[0]


def assert_bit_exact(name: str, in_scale: float, out_scale: float, x: np.ndarray) -> None:
    """Both interpreters agree on every element of ``x``."""
    flatbuffer = model(name, in_scale, out_scale, x.size)
    want, got = litert(flatbuffer, x), ours(flatbuffer, x)
    assert want.dtype == got.dtype == np.int16
    bad = np.nonzero(want != got)[0]
    assert bad.size == 0, (f"{name} {in_scale:g} -> {out_scale:g}: {bad.size} of {x.size} differ, "
                           f"inputs {x[bad[:6]]}: litert {want[bad[:6]]}, ours {got[bad[:6]]}")


@pytest.mark.parametrize("in_scale,out_scale", [
    (2 ** -12, 2 ** -8), (2 ** -10, 2 ** -15), (0.001, 0.01), (0.0003, 0.0001),
    (0.01, 1.0),  # exp overflows float32 at the top of the range: NaN anchors become 0
])
def test_exp_every_value(in_scale: float, out_scale: float) -> None:
    """int16 EXP: the interpolated table, over all 65,536 inputs."""
    assert_bit_exact("tfl.exp", in_scale, out_scale, EVERY_INT16)


@pytest.mark.parametrize("in_scale,out_scale", [
    (2 ** -7, 2 ** -12), (2 ** -12, 2 ** -11), (0.01, 0.001), (0.5, 0.0003), (1e-5, 2 ** -11),
])
def test_log_every_value(in_scale: float, out_scale: float) -> None:
    """int16 LOG (inputs <= 0 tabulated as the output minimum), over all 65,536 inputs."""
    assert_bit_exact("tfl.log", in_scale, out_scale, EVERY_INT16)


@pytest.mark.parametrize("in_scale,out_scale", [
    (2 ** -12, 2 ** -8), (2 ** -8, 2 ** -10), (0.01, 0.001), (1e-4, 0.05),
])
def test_rsqrt_every_non_negative_value(in_scale: float, out_scale: float) -> None:
    """int16 RSQRT over every input it accepts (0 .. 32767; 0 is the largest output)."""
    assert_bit_exact("tfl.rsqrt", in_scale, out_scale, NON_NEGATIVE)


@pytest.mark.parametrize("name,in_scale", [
    ("tfl.logistic", 2 ** -12), ("tfl.tanh", 2 ** -12), ("tfl.tanh", 2 ** -11),
    ("tfl.logistic", 2 ** -11), ("tfl.logistic", 2 ** -13), ("tfl.tanh", 2 ** -10),
    ("tfl.tanh", 0.0004),
])
def test_sigmoid_tanh_power_of_two_scales(name: str, in_scale: float) -> None:
    """int16 LOGISTIC/TANH at the power-of-two scales the reference kernel multiplies by an
    exact 3 * 2**k (and at neighbouring scales that take the general multiplier)."""
    assert_bit_exact(name, in_scale, 2 ** -15, EVERY_INT16)


def run_both(flatbuffer: bytes, x: np.ndarray) -> tuple[str, str]:
    """The error messages of litert and of our interpreter on ``x`` (both must fail)."""
    with pytest.raises(UserError) as theirs:
        litert(flatbuffer, x)
    with pytest.raises(InterpretError) as mine:
        ours(flatbuffer, x)
    return str(theirs.value), str(mine.value)


@pytest.mark.parametrize("name", ["tfl.exp", "tfl.log", "tfl.rsqrt"])
@pytest.mark.parametrize("in_zero,out_zero", [(5, 0), (0, -3)])
def test_non_zero_zero_points_are_refused(name: str, in_zero: int, out_zero: int) -> None:
    """int16 EXP, LOG and RSQRT are symmetric in TFLite: litert refuses other zero points,
    and so do we, naming both."""
    flatbuffer = model(name, 0.001, 0.01, 4, in_zero, out_zero)
    _, message = run_both(flatbuffer, np.ones(4, np.int16))
    assert "zero points of 0" in message and f"not {in_zero} (input)" in message


def test_negative_rsqrt_input_is_refused() -> None:
    """A negative int16 RSQRT input fails in litert and in our interpreter, which names it."""
    theirs, mine = run_both(model("tfl.rsqrt", 0.01, 0.001, 3), np.array([4, -7, 9], np.int16))
    assert "positive" in theirs and "negative value (stored -7" in mine


def test_int16_hard_swish_is_refused() -> None:
    """litert has no int16 HARD_SWISH; our interpreter says so instead of guessing one."""
    theirs, mine = run_both(model("tfl.hard_swish", 0.001, 0.001, 4), np.zeros(4, np.int16))
    assert "INT16" in theirs and "int8 only" in mine


def test_table_interpolates_between_anchors() -> None:
    """``lookup`` reads anchor 256 + v // 128 and moves toward the next by (v mod 128) / 128,
    rounded: an independent check on a hand-made linear table (anchor i = 4 * i - 1024)."""
    table = np.arange(513, dtype=np.int64) * 4 - 1024
    values = np.array([-32768, -32767, -129, -128, -1, 0, 1, 16, 127, 32767], dtype=np.int64)
    expected = np.floor((values + 32768) / 32 + 0.5).astype(np.int64) - 1024
    assert (int16_tables.lookup(table, values) == expected).all()


def test_table_of_identity_is_the_grid() -> None:
    """With equal grids the identity's anchors are the range's 512-step points scaled by
    65536 / 65535 (the table's output grid), give or take the one step of midpoint bias that
    rounding the samples of a straight line can leave."""
    grid = Quant(2 ** -10, 0, -32768, 32767, 16)
    table = int16_tables.populate(lambda v: v, grid, grid)
    stored = np.arange(513) * (65535 / 512) - 32768
    assert np.abs(table - np.clip(np.round(stored * 65536 / 65535), -32768, 32767)).max() <= 1
