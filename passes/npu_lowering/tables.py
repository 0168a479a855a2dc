"""Lookup tables of the NPU's table activations and the fixed-point arithmetic they are built
with (gemmlowp's, as TensorFlow Lite uses it).

8-bit tanh and sigmoid are evaluated in floating point and rounded away from zero; hard-swish,
leaky ReLU and softmax's exponential follow TFLite's integer kernels bit for bit, so the NPU's
results equal the reference interpreter's (the unit tests compare them with Vela 5.2's tables).
"""
from __future__ import annotations

import math
from typing import Callable

import numpy as np

from npu_opt.dialects.npu.quant import quantise_scale, round_away_zero

INT32_MIN, INT32_MAX = -(1 << 31), (1 << 31) - 1
INT16_MIN, INT16_MAX = -(1 << 15), (1 << 15) - 1


def _div_trunc(a: int, b: int) -> int:
    """Integer division rounding towards zero (C's ``/``)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def srdhm(a: int, b: int, bits: int = 32) -> int:
    """Saturating rounding doubling high multiply: round(a * b / 2^(bits - 1)), ties away from
    zero, saturating the one overflow case (both operands the minimum)."""
    lo = -(1 << (bits - 1))
    if a == b == lo:
        return (1 << (bits - 1)) - 1
    product = a * b
    nudge = (1 << (bits - 2)) if product >= 0 else 1 - (1 << (bits - 2))
    return _div_trunc(product + nudge, 1 << (bits - 1))


def sat_mul16(a: int, b: int) -> int:
    """a * b / 2^15 truncated towards zero, saturating (int16)."""
    if a == b == INT16_MIN:
        return INT16_MAX
    return _div_trunc(a * b, 1 << 15)


def shift_left_sat(a: int, shift: int, bits: int) -> int:
    lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    return max(lo, min(hi, a * (1 << shift)))


def rounding_divide_by_pot(x: int, exponent: int) -> int:
    """x / 2^exponent rounded to nearest, ties away from zero."""
    mask = (1 << exponent) - 1
    remainder = x & mask
    threshold = (mask >> 1) + (1 if x < 0 else 0)
    return (x >> exponent) + (1 if remainder > threshold else 0)


def multiply_by_quantized_multiplier(x: int, multiplier: int, shift: int) -> int:
    """x * multiplier / 2^shift with a (multiplier, shift) from ``quantise_scale``."""
    exponent = 31 - shift
    left, right = max(exponent, 0), max(-exponent, 0)
    return rounding_divide_by_pot(srdhm(x * (1 << left), multiplier), right)


def downscale_multiplier_16(multiplier: int) -> int:
    """A Q31 multiplier rounded to Q15."""
    if multiplier >= INT32_MAX - (1 << 15):
        return INT16_MAX
    return (multiplier + (1 << 15)) >> 16


def _saturating_multiply_by_pot(x: int, exponent: int) -> int:
    threshold = (1 << (31 - exponent)) - 1
    if x > threshold:
        return INT32_MAX
    if x < -threshold:
        return INT32_MIN
    return shift_left_sat(x, exponent, 32)


def _rescale(src_bits: int, dst_bits: int, x: int) -> int:
    exponent = src_bits - dst_bits
    return rounding_divide_by_pot(x, -exponent) if exponent < 0 else _saturating_multiply_by_pot(x, exponent)


def _exp_quarter(a: int) -> int:
    """exp(a) for a in [-1/4, 0) as Q0.31 (gemmlowp's Taylor polynomial around -1/8)."""
    constant_term, one_third = 1895147668, 715827883
    x = a + (1 << 28)
    x2 = srdhm(x, x)
    x3 = srdhm(x2, x)
    x4 = srdhm(x2, x2)
    x4_over_4 = rounding_divide_by_pot(x4, 2)
    poly = rounding_divide_by_pot(srdhm(x4_over_4 + x3, one_third) + x2, 1)
    return constant_term + srdhm(constant_term, x + poly)


_BARREL = ((-2, 1672461947), (-1, 1302514674), (0, 790015084), (1, 290630308), (2, 39332535), (3, 720401),
           (4, 242))


def exp_on_negative_values(a: int) -> int:
    """exp(a) for a Q5.26 a <= 0, as Q0.31."""
    one_quarter, mask = 1 << 24, (1 << 24) - 1
    reduced = (a & mask) - one_quarter
    result = _exp_quarter(_rescale(5, 0, reduced))
    remainder = reduced - a
    for exponent, multiplier in _BARREL:
        shift = 26 + exponent if 5 > exponent else 0
        if remainder & (1 << shift):
            result = srdhm(result, multiplier)
    return INT32_MAX if a == 0 else result


# ---------------------------------------------------------------------------------------------
def _range(unsigned: bool) -> range:
    """The 256 values of an 8-bit tensor."""
    return range(256) if unsigned else range(-128, 128)


def _round_half_away(x: np.ndarray) -> np.ndarray:
    """Elementwise rounding half away from zero, on floats (``round_away_zero`` for arrays)."""
    return np.trunc(x + np.where(x >= 0, 0.5, -0.5))


def _apply(fn: Callable[[float], float], points: np.ndarray) -> np.ndarray:
    """``fn`` at every point, evaluated on Python floats (the functions are scalar)."""
    return np.array([fn(float(p)) for p in points], dtype=np.float64)


def lut8(fn: Callable[[float], float], ifm: tuple[float, int], ofm: tuple[float, int], unsigned: bool,
         round_then_offset: bool = False) -> list[int]:
    """The 256-entry table of ``fn`` for an 8-bit IFM and OFM given as (scale, zero point): each
    IFM value dequantised, mapped, requantised and saturated. Tanh and sigmoid round
    ``zp + y / scale`` as a whole; exp rounds ``y / scale`` and then adds the zero point
    (``round_then_offset``), which differs at halves."""
    (in_scale, in_zp), (out_scale, out_zp) = ifm, ofm
    inputs = np.arange(256) if unsigned else np.arange(-128, 128)
    outputs = _apply(fn, in_scale * (inputs - in_zp)) / out_scale
    quantised = _round_half_away(outputs) + out_zp if round_then_offset else _round_half_away(out_zp + outputs)
    return [int(v) for v in np.clip(quantised, inputs[0], inputs[-1])]


def lut16(fn: Callable[[float], float], ifm: tuple[float, int], ofm: tuple[float, int]) -> list[int]:
    """The NPU's 16-bit interpolation table of ``fn``: the int16 IFM range cut into 512 equal
    steps; entry i holds the OFM value at the step's start in its low 16 bits and the rise to the
    next entry in its high 16 bits. Each start value is lowered by half the error linear
    interpolation would make at the step's midpoint, so the error is spread over the step (the
    TFLite reference's table)."""
    (in_scale, in_zp), (out_scale, out_zp) = ifm, ofm
    in_lo, in_hi = in_scale * (INT16_MIN - in_zp), in_scale * (INT16_MAX - in_zp)
    out_lo, out_hi = out_scale * (INT16_MIN - out_zp), out_scale * (INT16_MAX - out_zp)
    step = (in_hi - in_lo) / 512
    to_ofm = (INT16_MAX - INT16_MIN + 1) / (out_hi - out_lo)
    starts = in_lo + np.arange(512) * step
    at_start = _apply(fn, starts) * to_ofm
    at_mid = _apply(fn, starts + step / 2) * to_ofm
    at_end = _apply(fn, in_lo + np.arange(1, 513) * step) * to_ofm
    start_q = _round_half_away(at_start)
    line_mid = [int(v) for v in _round_half_away((at_end + start_q) / 2)]
    curve_mid = [int(v) for v in _round_half_away(at_mid)]
    values = []
    for start, line, curve in zip((int(v) for v in start_q), line_mid, curve_mid):
        values.append(min(max(start - round_away_zero((line - curve) / 2), INT16_MIN), INT16_MAX))
    values.append(min(max(round_away_zero(fn(in_hi) * to_ofm), INT16_MIN), INT16_MAX))
    return [((nxt - cur) << 16) + cur for cur, nxt in zip(values, values[1:])]


def rsqrt_lut(ifm: tuple[float, int], ofm: tuple[float, int]) -> list[int]:
    """1/sqrt(x) for every int8 IFM value (``create_lut_rsqrt_int8_op``). Vela scales a table
    of the reference's 1/sqrt(n) in Q20 for n = 0..255; it is computed here as round(2^20 /
    sqrt(n)), which may differ from the reference's fixed-point result in the last bit."""
    (in_scale, in_zp), (out_scale, out_zp) = ifm, ofm
    multiplier, shift = quantise_scale(1.0 / (math.sqrt(in_scale) * out_scale))
    table = [127]
    for x in range(-127, 128):
        n = max(0, x - in_zp)
        if n == 0:
            table.append(127)
            continue
        base = round(float(1 << 20) / math.sqrt(n))
        value = multiply_by_quantized_multiplier(base, multiplier, shift + 20) + out_zp
        table.append(min(127, max(-128, value)))
    return table


def sigmoid(x: float) -> float:
    """Vela's ``clamp_sigmoid``."""
    if x <= -8:
        return 0.0
    if x >= 8:
        return 1.0
    return 1 / (1 + math.exp(-x))


def _np_srdhm16(a: np.ndarray, b: int) -> np.ndarray:
    """Elementwise Q15 saturating rounding doubling high multiply: a * b / 2^15 rounded to
    nearest, ties away from zero; the one overflow (both -2^15) gives 2^15 - 1."""
    product = a * b
    rounded = product + np.where(product >= 0, 1 << 14, 1 - (1 << 14))
    result = np.sign(rounded) * (np.abs(rounded) >> 15)
    return np.where((a == INT16_MIN) & (b == INT16_MIN), INT16_MAX, result)


def _np_shift16(a: np.ndarray, shift: int) -> np.ndarray:
    """Elementwise a * 2^shift saturated to int16."""
    return np.clip(a * (1 << shift), INT16_MIN, INT16_MAX)


def _np_round_shift(a: np.ndarray, shift: int) -> np.ndarray:
    """Elementwise a / 2^shift rounded to nearest, ties away from zero."""
    if shift <= 0:
        return a
    half = 1 << (shift - 1)
    return np.where(a >= 0, (a + half) >> shift, -((-a + half) >> shift))


def hardswish_lut(ifm: tuple[float, int], ofm: tuple[float, int], unsigned: bool) -> list[int]:
    """HARD_SWISH, x * relu6(x + 3) / 6, for every 8-bit IFM value, bit-exact with TFLite's
    integer kernel (the NPU applies it as a table).

    TFLite works in 16 bits on the input times 128. One Q15 multiplier takes that to the output
    scale; a second maps it onto the "reluish" factor relu6(x + 3) / 6 in [-1, 1] with 3 as full
    scale, which is then moved to [0, 1] and multiplied in; a remaining right shift of the output
    multiplier, the zero point and the 8-bit range finish it.
    """
    (in_scale, in_zp), (out_scale, out_zp) = ifm, ofm
    fine_scale = in_scale / 128
    out_mult, out_shift = quantise_scale(fine_scale / out_scale)
    relu_mult, relu_shift = quantise_scale(fine_scale / (3 / 32768))
    relu_exponent = 31 - relu_shift  # TFLite's exponent: positive means a left shift
    inputs = np.arange(256) if unsigned else np.arange(-128, 128)
    fine = (inputs.astype(np.int64) - in_zp) * 128
    scaled = _np_srdhm16(fine, downscale_multiplier_16(out_mult))
    reluish = fine
    if relu_exponent > 0:
        reluish = _np_shift16(reluish, relu_exponent - 1)
    reluish = _np_srdhm16(reluish, downscale_multiplier_16(relu_mult))
    if relu_exponent > 0:
        reluish = _np_shift16(reluish, 1)
    reluish = _np_round_shift(reluish, -relu_exponent)
    gate = (reluish + (1 << 15)) >> 1  # [-1, 1] -> [0, 1] in Q15
    product = gate * scaled
    product = np.where((gate == INT16_MIN) & (scaled == INT16_MIN), INT16_MAX,
                       np.sign(product) * (np.abs(product) >> 15))
    result = _np_round_shift(product, out_shift - 31) + out_zp
    return [int(v) for v in np.clip(result, inputs[0], inputs[-1])]


def lrelu_lut(ifm: tuple[float, int], ofm: tuple[float, int], alpha: float, unsigned: bool,
              alpha_scaling: tuple[int, int, int] | None = None) -> list[int]:
    """Leaky ReLU for every 8-bit IFM value, in TFLite's integer arithmetic: values below the
    zero point take the alpha rescale (scale in_scale * alpha / out_scale, computed in float32;
    or the given (integer factor, multiplier, shift) of a rewritten PReLU), the others the
    identity rescale in_scale / out_scale; then the OFM zero point and saturation."""
    (in_scale, in_zp), (out_scale, out_zp) = ifm, ofm
    identity = (1,) + quantise_scale(float(_f32(in_scale) * _f32(1.0) / _f32(out_scale)))
    negative = alpha_scaling if alpha_scaling is not None else (
        (1,) + quantise_scale(float(_f32(in_scale) * _f32(alpha) / _f32(out_scale))))
    values = _range(unsigned)

    def leaky(x: int) -> int:
        factor, multiplier, shift = negative if x < in_zp else identity
        return out_zp + multiply_by_quantized_multiplier(factor * (x - in_zp), multiplier, shift)

    return [min(values[-1], max(values[0], leaky(x))) for x in values]


def _f32(x: float) -> float:
    import numpy as np
    return float(np.float32(x))


def softmax_exp_lut(beta: float, in_scale: float) -> list[int]:
    """Softmax's exponential table for 8-bit inputs: exp(beta * in_scale * d) in Q0.31 for the
    256 differences d = x - max(x) = -255..0, bit-exact with TFLite's integer softmax.

    d is scaled into Q5.26 by a fixed-point multiplier (beta * in_scale in Q5.26, capped at the
    int32 maximum) and fed to gemmlowp's exp; a d below what Q5.26 can hold (-31 in real terms,
    counted in the multiplier's left-shifted units) gives 0.
    """
    q5_26 = min(beta * in_scale * float(1 << 26), float(INT32_MAX))
    multiplier, shift = quantise_scale(q5_26)
    left_shift = 31 - shift
    lowest = -math.floor(math.ldexp(31, 26 - left_shift))
    return [exp_on_negative_values(srdhm(d * (1 << left_shift), multiplier)) if d >= lowest else 0
            for d in range(-255, 1)]


__all__ = ["exp_on_negative_values", "hardswish_lut", "lrelu_lut", "lut16", "lut8", "rsqrt_lut", "multiply_by_quantized_multiplier",
           "sigmoid", "softmax_exp_lut", "srdhm"]
