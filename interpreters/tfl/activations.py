"""Kernels of tfl's unary element-wise ops (abs, the relu family, leaky_relu, hard_swish, logistic,
tanh, exp, log, rsqrt), following TFLite's reference kernels.

Design notes: docs/interpreter_design.md, section tfl kernels: activations (kernels/activations)."""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from npu_opt.dialects.tfl.common import TFL
from npu_opt.interpreters.tfl import int16_tables
from npu_opt.interpreters.tfl.fixed_point import (
    INT32_MAX, INT32_MIN, doubling_high_mul, multiply_by_quantized_multiplier, quantize_multiplier,
    rounding_shift_right)
from npu_opt.interpreters.tfl.quantize import (
    ACTIVATION_BOUNDS, Quant, activation_float, activation_range, float_to_int32, is_quantized,
    log2_if_power_of_two, quant_of, round_half_away)
from npu_opt.dialects.tfl.ops_elementwise import (
    AbsOp, ExpOp, HardSwishOp, LeakyReluOp, LogisticOp, LogOp, Relu0To1Op, Relu1Op, Relu6Op,
    ReluOp, RsqrtOp, TanhOp)
from npu_opt.ir.core import Operation
from npu_opt.ir.interpreter import fail, storage_dtype

FloatFn = Callable[[np.ndarray], np.ndarray]


def _io(op: Operation) -> tuple[Quant, Quant]:
    """The per-tensor quantisation of the input and the result."""
    return quant_of(op, op.operands[0].type, "input"), quant_of(op, op.results[0].type, "result")


def _rescale(op: Operation, centred: np.ndarray, real: float, what: str) -> np.ndarray:
    """``centred`` * ``real`` with TFLite's fixed-point multiplier (``real`` below 2**31)."""
    if not 0 <= real < 2.0 ** 31:
        raise fail(op, f"the {what} multiplier {real:g} is outside [0, 2**31)")
    mantissa, exponent = quantize_multiplier(real)
    return multiply_by_quantized_multiplier(centred, mantissa, exponent)


def _ratio32(a: float, b: float) -> float:
    """a / b computed in float32, as TFLite's float-typed prepare code does."""
    return float(np.float32(a) / np.float32(b))


def _f64(fn: Callable[[np.ndarray], np.ndarray]) -> FloatFn:
    """``fn`` evaluated in float64 on float32 input and rounded once to float32."""
    def evaluate(x: np.ndarray) -> np.ndarray:
        with np.errstate(all="ignore"):
            return fn(np.asarray(x, dtype=np.float64)).astype(np.float32)
    return evaluate


LOGISTIC_UPPER_CUTOFF = np.float32(16.619047164916992)
"""Above this input TFLite's float logistic is exactly 1 (1 - sigmoid is below float32's ulp)."""
LOGISTIC_LOWER_CUTOFF = np.float32(-9.0)
"""Below this input TFLite's float logistic is exp(x) (the 1 in 1 + exp(-x) no longer counts)."""


def _logistic32(x: np.ndarray) -> np.ndarray:
    """1 / (1 + exp(-x)) with each step rounded to float32, as TFLite's reference kernel writes
    it, including its two cut-offs (1 above the upper one, exp(x) below the lower one)."""
    xf = np.asarray(x, dtype=np.float32)
    exp = _f64(np.exp)
    with np.errstate(all="ignore"):
        middle = np.float32(1.0) / (np.float32(1.0) + exp(-xf))
        return np.where(xf > LOGISTIC_UPPER_CUTOFF, np.float32(1.0),
                        np.where(xf < LOGISTIC_LOWER_CUTOFF, exp(xf), middle)).astype(np.float32)


EXP32 = _f64(np.exp)
LOG32 = _f64(np.log)
TANH32 = _f64(np.tanh)


def float_table(fn: FloatFn, q_in: Quant, q_out: Quant) -> np.ndarray:
    """The output for every stored input value of an 8-bit quantised ``fn``: dequantise in
    float32, apply ``fn``, multiply by 1 / out_scale, round half away, add the zero point and
    clamp to the storage range in float32, convert to int32 (NaN -> INT32_MIN, so -128)."""
    stored = np.arange(q_in.low, q_in.high + 1, dtype=np.int64)
    real = q_in.scale32 * (stored - q_in.zero).astype(np.float32)
    inverse = np.float32(1.0) / q_out.scale32
    with np.errstate(all="ignore"):
        rescaled = round_half_away(fn(real).astype(np.float32) * inverse)
        shifted = np.clip(rescaled + np.float32(q_out.zero), q_out.low, q_out.high)
    # NaN survives the float clamp and converts to INT32_MIN, which clamps to the minimum
    return np.clip(float_to_int32(shifted), q_out.low, q_out.high)


def _lookup(table: np.ndarray, x: np.ndarray, q_in: Quant, dtype: np.dtype) -> np.ndarray:
    """``table`` (indexed from the storage minimum) applied to ``x``."""
    return table[x.astype(np.int64) - q_in.low].astype(dtype)


def _int16_zero_points(op: Operation, name: str, q_in: Quant, q_out: Quant) -> None:
    """TFLite's int16 ``name`` is symmetric: both zero points must be 0 (litert refuses others)."""
    if q_in.zero or q_out.zero:
        raise fail(op, f"int16 {name} needs zero points of 0, not {q_in.zero} (input) and "
                       f"{q_out.zero} (output): litert's kernel refuses others")


def _unary_float_or_table(op: Operation, x: np.ndarray, fn: FloatFn,
                          name: str | None = None) -> np.ndarray:
    """Float: ``fn`` on the values; 8-bit quantised: the float-evaluated table of ``fn``;
    int16 (when TFLite tabulates function ``name``): its interpolated 513-entry table."""
    dtype = storage_dtype(op.results[0].type)
    if not is_quantized(op.results[0].type):
        return fn(x.astype(np.float32)).astype(dtype)
    q_in, q_out = _io(op)
    if q_in.bits == 16 and q_out.bits == 16 and name is not None:
        _int16_zero_points(op, name, q_in, q_out)
        return int16_tables.lookup(int16_tables.table_for(name, q_in, q_out), x).astype(dtype)
    if q_in.bits != 8:
        raise fail(op, f"a {q_in.bits}-bit quantised input is not supported (8-bit is)")
    return _lookup(float_table(fn, q_in, q_out), x, q_in, dtype)


def _clamp_kernel(name: str) -> Callable[[Operation, list[Any]], list[np.ndarray]]:
    """The kernel of relu-family op ``name``: a clamp to its real range; quantised, a rescale
    input -> output scale (one multiplier) and a clamp to the range on the output's grid."""
    def kernel(op: Operation, args: list[Any]) -> list[np.ndarray]:
        (x,) = args
        dtype = storage_dtype(op.results[0].type)
        if not is_quantized(op.results[0].type):
            return [activation_float(op, name, x.astype(dtype))]
        q_in, q_out = _io(op)
        low, high = activation_range(op, name, q_out)
        real = float(np.float64(q_in.scale32) / np.float64(q_out.scale32))
        out = _rescale(op, x.astype(np.int64) - q_in.zero, real, "rescale") + q_out.zero
        return [np.clip(out, low, high).astype(dtype)]
    kernel.__name__ = name.lower()
    kernel.__doc__ = f"{name}: clamp to {ACTIVATION_BOUNDS[name]} (None: unbounded)."
    return kernel


for _op, _name in ((ReluOp, "RELU"), (Relu6Op, "RELU6"), (Relu1Op, "RELU_N1_TO_1"),
                   (Relu0To1Op, "RELU_0_TO_1")):
    TFL.kernel(_op)(_clamp_kernel(_name))


@TFL.kernel(AbsOp)
def abs_(op: Operation, args: list[Any]) -> list[np.ndarray]:
    """|x|; quantised: |stored - zero| rescaled in_scale / out_scale, plus the output zero."""
    (x,) = args
    dtype = storage_dtype(op.results[0].type)
    if not is_quantized(op.results[0].type):
        return [np.abs(x).astype(dtype)]
    q_in, q_out = _io(op)
    magnitude = np.abs(x.astype(np.int64) - q_in.zero)
    out = _rescale(op, magnitude, _ratio32(q_in.scale, q_out.scale), "rescale") + q_out.zero
    return [np.clip(out, q_out.low, q_out.high).astype(dtype)]


@TFL.kernel(LeakyReluOp)
def leaky_relu(op: Operation, args: list[Any]) -> list[np.ndarray]:
    """x >= 0 ? x : alpha * x; quantised: two multipliers, in/out scale for the non-negative
    side and alpha * in/out scale for the negative side."""
    (x,) = args
    alpha = np.float32(op.attr("alpha").value)
    dtype = storage_dtype(op.results[0].type)
    if not is_quantized(op.results[0].type):
        xf = x.astype(np.float32)
        return [np.where(xf >= 0, xf, xf * alpha).astype(dtype)]
    q_in, q_out = _io(op)
    centred = x.astype(np.int64) - q_in.zero
    identity = _rescale(op, centred, _ratio32(q_in.scale, q_out.scale), "identity")
    alpha_real = float(q_in.scale32 * alpha / q_out.scale32)
    if not abs(alpha_real) < 2.0 ** 31:
        raise fail(op, f"the alpha multiplier {alpha_real:g} is not below 2**31 in magnitude")
    # a negative alpha keeps its sign in the mantissa, as TFLite's multiplier does
    negative = multiply_by_quantized_multiplier(centred, *quantize_multiplier(alpha_real))
    out = np.where(centred >= 0, identity, negative) + q_out.zero
    return [np.clip(out, q_out.low, q_out.high).astype(dtype)]


_TABLE_ONE_HIGHER = (4, 8, 12, 14, 15, 16, 17, 19, 20, 21, 22, 25, 27, 28, 29, 30, 31, 33, 34,
                     35, 37, 39, 40, 41, 43, 44, 45, 46, 49, 50, 54, 62, 63, 64, 66, 82, 86,
                     93, 100, 103, 112, 116, 135, 255)
"""Where TFLite's sigmoid table holds one more than round(65536 * sigmoid(i / 24)) (its entries
were not produced by that exact formula; these are the measured differences)."""


def _sigmoid_table() -> np.ndarray:
    """TFLite's int16 sigmoid table: sigmoid(i / 24) for i in [0, 256) as 0.16 fixed point."""
    table = np.round(65536.0 / (1.0 + np.exp(-np.arange(256) / 24.0))).astype(np.int64)
    table[list(_TABLE_ONE_HIGHER)] += 1
    return table


SIGMOID_TABLE = _sigmoid_table()


def _sigmoid16_input(op: Operation, q_in: Quant, q_out: Quant, tanh: bool) -> tuple[int, int]:
    """(multiplier, right shift) that bring int16 input onto the table's grid, 3 * 4096 steps
    per unit (the table's argument step is 1/24 = 512 of them). An input scale of 2**-12
    (logistic and tanh) or 2**-11 (tanh) is the reference kernel's power-of-two case: the
    multiplier is then 3 * 2**(12 + log2(scale)) exactly, with no shift. Any other scale:
    scale * 3 * 4096 doubled until it exceeds 32767 / 2 (at most 31 doublings), truncated."""
    if q_in.zero or q_out.zero:
        raise fail(op, f"int16 logistic/tanh needs zero points of 0, not {q_in.zero} (input) "
                       f"and {q_out.zero} (output)")
    if log2_if_power_of_two(q_out.scale) != -15:
        raise fail(op, f"int16 logistic/tanh needs an output scale of 2**-15, not {q_out.scale:g}")
    log2 = log2_if_power_of_two(q_in.scale)
    if log2 is not None and 12 + log2 in ((0, 1) if tanh else (0,)):
        return 3 << (12 + log2), 0
    multiplier = float(q_in.scale32) * 4096.0 * 3.0
    shift = 0
    while multiplier <= 32767.0 / 2.0 and shift <= 30:
        shift += 1
        multiplier *= 2.0
    return int(multiplier), shift


def _sigmoid16(op: Operation, x: np.ndarray, tanh: bool) -> np.ndarray:
    """int16 logistic or tanh as TFLite computes them: scale the input onto the table's grid
    (rounding), interpolate the sigmoid table linearly in |input| (9 fraction bits for
    logistic; tanh(x) = 2 * sigmoid(2x) - 1 reads it at twice the rate, 8 bits), mirror
    negative inputs, and round to Q0.15."""
    q_in, q_out = _io(op)
    multiplier, shift = _sigmoid16_input(op, q_in, q_out, tanh)
    half = (1 << shift) >> 1
    scaled = (x.astype(np.int64) * multiplier + half) >> shift
    magnitude = np.abs(scaled)
    bits = 8 if tanh else 9
    index = magnitude >> bits
    inside = index < 255
    safe = np.minimum(index, 254)
    low, high = SIGMOID_TABLE[safe], SIGMOID_TABLE[safe + 1]
    fraction = magnitude & ((1 << bits) - 1)
    saturated = (0xFFFF << 8) if tanh else (0x7FFF << 10)
    value = np.where(inside, (low << bits) + fraction * (high - low), saturated)
    if tanh:
        offset = (1 << 23) - (1 << 7)
        out = np.where(scaled >= 0, value - offset, offset + (1 << 8) - 1 - value) >> 8
    else:
        out = np.where(scaled >= 0, value + (1 << 9), (1 << 25) - value + (1 << 9) - 1) >> 10
    return out.astype(np.int16)


@TFL.kernel(LogisticOp)
def logistic(op: Operation, args: list[Any]) -> list[np.ndarray]:
    """1 / (1 + exp(-x)): float32, the int8 float-evaluated table, or int16 TFLite's
    interpolated sigmoid table."""
    (x,) = args
    if is_quantized(op.results[0].type) and _io(op)[0].bits == 16:
        return [_sigmoid16(op, x, tanh=False)]
    if not is_quantized(op.results[0].type):
        return [_logistic32(x.astype(np.float32)).astype(storage_dtype(op.results[0].type))]
    return [_unary_float_or_table(op, x, _logistic32)]


@TFL.kernel(TanhOp)
def tanh(op: Operation, args: list[Any]) -> list[np.ndarray]:
    """tanh(x): float, the int8 float-evaluated table, or int16 TFLite's interpolated table."""
    (x,) = args
    if is_quantized(op.results[0].type) and _io(op)[0].bits == 16:
        return [_sigmoid16(op, x, tanh=True)]
    return [_unary_float_or_table(op, x, TANH32)]


@TFL.kernel(ExpOp)
def exp(op: Operation, args: list[Any]) -> list[np.ndarray]:
    """exp(x): float, the int8 float-evaluated table, or int16 TFLite's interpolated table."""
    return [_unary_float_or_table(op, args[0], EXP32, "exp")]


@TFL.kernel(LogOp)
def log(op: Operation, args: list[Any]) -> list[np.ndarray]:
    """log(x): float (NaN below zero, -inf at zero), the int8 float-evaluated table, or int16
    TFLite's interpolated table (inputs <= 0 give the output minimum)."""
    return [_unary_float_or_table(op, args[0], LOG32, "log")]


@TFL.kernel(RsqrtOp)
def rsqrt(op: Operation, args: list[Any]) -> list[np.ndarray]:
    """1 / sqrt(x): float32 sqrt then division (both correctly rounded); int8: TFLite's
    fixed-point inverse square root of the centred value, rescaled by
    1 / (sqrt(in_scale) * out_scale); a centred 0 gives the largest output; int16: TFLite's
    interpolated table. Quantised negative inputs are an error, as in litert."""
    (x,) = args
    dtype = storage_dtype(op.results[0].type)
    if not is_quantized(op.results[0].type):
        with np.errstate(all="ignore"):
            return [(np.float32(1.0) / np.sqrt(x.astype(np.float32))).astype(dtype)]
    q_in, q_out = _io(op)
    wide = q_in.bits == 16 and q_out.bits == 16
    if wide:
        _int16_zero_points(op, "rsqrt", q_in, q_out)
    centred = x.astype(np.int64) - q_in.zero
    if centred.size and centred.min() < 0:
        raise fail(op, f"rsqrt of a negative value (stored {int(x.ravel()[np.argmin(centred)])} "
                       f"below the zero point {q_in.zero})")
    if wide:
        table = int16_tables.table_for("rsqrt", q_in, q_out)
        return [int16_tables.lookup(table, x).astype(dtype)]
    if q_in.bits != 8:
        raise fail(op, f"a {q_in.bits}-bit quantised rsqrt is not supported (8-bit is)")
    real = 1.0 / float(np.sqrt(q_in.scale32) * q_out.scale32)
    if not real < 2.0 ** 31:
        raise fail(op, f"the output multiplier {real:g} is not below 2**31")
    mantissa, exponent = quantize_multiplier(real)
    kshift = 20  # TFLite keeps 1 / sqrt(value) as an integer scaled by 2**20
    inv_mantissa, inv_exponent = inv_sqrt_multiplier(centred)
    scaled_inverse = multiply_by_quantized_multiplier(1, inv_mantissa, inv_exponent + kshift)
    out = multiply_by_quantized_multiplier(scaled_inverse, mantissa, exponent - kshift)
    out = np.where(centred == 0, q_out.high, out + q_out.zero)  # 0 stands for the largest value
    return [np.clip(out, q_out.low, q_out.high).astype(dtype)]


def saturating_shift_left(raw: np.ndarray, exponent: int) -> np.ndarray:
    """gemmlowp's saturating multiply of int32 ``raw`` by 2**exponent (exponent > 0): values
    beyond +-(2**(31 - exponent) - 1) saturate to INT32_MAX / INT32_MIN."""
    threshold = (1 << (31 - exponent)) - 1
    shifted = raw << exponent
    return np.where(raw > threshold, INT32_MAX, np.where(raw < -threshold, INT32_MIN, shifted))


def inv_sqrt_multiplier(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(mantissa, exponent) with 1 / sqrt(value) = mantissa * 2**(exponent - 31), for int32
    values >= 0, as TFLite computes it: normalise the value by an even shift into
    [2**27, 2**29), run five Newton-Raphson steps x <- 1.5 x - (v / 2) x**3 in Q3.28 fixed
    point from x = 1, and scale by sqrt(2) / 2. Values 0 and 1 give (INT32_MAX, 0)."""
    v = np.asarray(values, dtype=np.int64)
    work = np.maximum(v, 2)
    shift = np.full(v.shape, 11, dtype=np.int64)
    while (work >= (1 << 29)).any():
        big = work >= (1 << 29)
        work = np.where(big, work // 4, work)
        shift = shift + big
    leading_zeros = 32 - np.frexp(work.astype(np.float64))[1].astype(np.int64)  # exact here
    pairs = (leading_zeros - 1) // 2 - 1
    shift = shift - pairs
    work = work << (2 * pairs)
    q3_input = work >> 1
    half_input = rounding_shift_right(q3_input, 1)
    three_halves = (1 << 28) + (1 << 27)
    x = np.full(v.shape, 1 << 28, dtype=np.int64)
    for _ in range(5):
        cube = saturating_shift_left(doubling_high_mul(doubling_high_mul(x, x), x), 6)
        difference = doubling_high_mul(three_halves, x) - doubling_high_mul(half_input, cube)
        x = saturating_shift_left(((difference + (1 << 31)) & 0xFFFFFFFF) - (1 << 31), 3)
    mantissa = doubling_high_mul(x, 1518500250)  # sqrt(2) / 2 in Q0.31
    negative = shift < 0
    mantissa = np.where(negative, mantissa << np.maximum(-shift, 0), mantissa)
    shift = np.where(negative, 0, shift)
    small = v <= 1
    return np.where(small, INT32_MAX, mantissa), np.where(small, 0, -shift)


@TFL.kernel(HardSwishOp)
def hard_swish(op: Operation, args: list[Any]) -> list[np.ndarray]:
    """x * relu6(x + 3) / 6: in float32, multiplied then divided as TFLite's reference kernel
    does, or TFLite's int16 fixed-point path for 8-bit values."""
    (x,) = args
    dtype = storage_dtype(op.results[0].type)
    if not is_quantized(op.results[0].type):
        xf = x.astype(np.float32)
        relu6 = np.minimum(np.maximum(xf + np.float32(3.0), np.float32(0.0)), np.float32(6.0))
        with np.errstate(invalid="ignore"):  # -inf * 0 is NaN, as in TFLite
            return [(xf * relu6 / np.float32(6.0)).astype(dtype)]
    q_in, q_out = _io(op)
    if q_in.bits != 8:
        raise fail(op, f"a {q_in.bits}-bit quantised hard_swish is not supported: TFLite's "
                       f"reference kernel (and so litert) takes float32, uint8 and int8 only")
    return [_hard_swish8(op, x, q_in, q_out).astype(dtype)]


def _int16_multiplier(real: float) -> tuple[int, int]:
    """(Q0.15 mantissa, exponent) of ``real``: TFLite's 32-bit mantissa rounded to its top 16
    bits (saturating at 32767)."""
    mantissa, exponent = quantize_multiplier(real)
    if mantissa >= (1 << 31) - 1 - (1 << 15):
        return 32767, exponent
    return (mantissa + (1 << 15)) >> 16, exponent


def _high_mul16(a: np.ndarray, b: Any, rounding: bool) -> np.ndarray:
    """The int16 doubling high multiply a * b / 2**15: rounded to nearest (the nudge is
    +2**14, or 1 - 2**14 for a negative product) or truncated toward zero; -32768 * -32768
    saturates to 32767."""
    product = np.asarray(a, dtype=np.int64) * np.asarray(b, dtype=np.int64)
    if rounding:
        product = product + np.where(product >= 0, 1 << 14, 1 - (1 << 14))
    high = np.where(product >= 0, product >> 15, -((-product) >> 15))
    return np.where(product >= (1 << 30), 32767, high)


def _hard_swish8(op: Operation, x: np.ndarray, q_in: Quant, q_out: Quant) -> np.ndarray:
    """TFLite's 8-bit hard_swish in int16 fixed point. The centred input is moved up 7 bits
    ("hires" scale in_scale / 128); one Q0.15 multiplier takes it to the output scale (before a
    final right shift), another to a "reluish" value where 3.0 is 32768, saturated to [-1, 1]
    and mapped to [0, 1]; their non-rounding product, shifted and offset, is the output."""
    hires = np.float32(np.float32(1.0 / 128.0) * q_in.scale32)
    out_mantissa, out_exponent = _int16_multiplier(float(hires / q_out.scale32))
    relu_mantissa, relu_exponent = _int16_multiplier(float(hires / np.float32(3.0 / 32768.0)))
    if out_exponent > 0:
        raise fail(op, f"the output multiplier {float(hires / q_out.scale32):g} must be below 1 "
                       f"(input scale / 128 below the output scale)")
    centred = x.astype(np.int64) - q_in.zero
    on_hires = centred * 128  # |centred| <= 255, so this fits int16
    preshift = _high_mul16(on_hires, out_mantissa, rounding=True)
    reluish = on_hires
    if relu_exponent > 0:
        reluish = np.clip(reluish << (relu_exponent - 1), -32768, 32767)
    reluish = _high_mul16(reluish, relu_mantissa, rounding=True)
    if relu_exponent > 0:
        reluish = np.clip(reluish << 1, -32768, 32767)
    elif relu_exponent < 0:
        reluish = rounding_shift_right(reluish, -relu_exponent)
    reluish = (reluish + (1 << 15)) >> 1
    product = _high_mul16(reluish, preshift, rounding=False)
    out = rounding_shift_right(product, -out_exponent) + q_out.zero
    return np.clip(out, q_out.low, q_out.high)
