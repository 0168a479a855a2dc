"""Kernel of tfl.softmax, with TFLite's three arithmetics (int8, int16, float).

Design notes: docs/interpreter_design.md, section tfl kernels: softmax (kernels/softmax)."""
from __future__ import annotations

import ctypes
import ctypes.util
import math
from functools import lru_cache
from typing import Any, Callable

import numpy as np

from npu_opt.dialects.tfl.common import TFL
from npu_opt.interpreters.tfl.fixed_point import (
    INT32_MAX, doubling_high_mul, multiply_by_quantized_multiplier, quantize_multiplier, rounding_shift_right,
)
from npu_opt.interpreters.tfl.gemmlowp import count_leading_zeros32, exp_on_negative_values, one_over_one_plus_x
from npu_opt.interpreters.tfl.quantize import quant_of
from npu_opt.dialects.tfl.ops_elementwise import SoftmaxOp
from npu_opt.ir.core import Operation
from npu_opt.ir.interpreter import fail, storage_dtype
from npu_opt.ir.types import QuantUniformType, element_type_of


def _c_expf() -> Callable[[float], float] | None:
    """The C library's single-precision exp (what TFLite's table is built with), if loadable."""
    name = ctypes.util.find_library("m")
    if name is None:
        return None
    try:
        expf = ctypes.CDLL(name).expf
    except (OSError, AttributeError):
        return None
    expf.restype = ctypes.c_float
    expf.argtypes = [ctypes.c_float]
    return expf


_EXPF = _c_expf()


def expf(values: np.ndarray) -> np.ndarray:
    """Single-precision exp of float32 ``values``: C's expf where available (bit-identical to
    TFLite's table), else the double exp rounded to float32 (correctly rounded)."""
    if _EXPF is None:
        return np.exp(values.astype(np.float64)).astype(np.float32)
    return np.array([_EXPF(float(v)) for v in values], dtype=np.float32)


@lru_cache(maxsize=64)
def exp_table(input_scale: float, beta: float) -> np.ndarray:
    """The 256 float32 values exp(-input_scale * beta * d), indexed by 255 - d."""
    step = np.float32(-np.float32(input_scale) * np.float32(beta))
    distances = np.arange(255, -1, -1, dtype=np.float32)
    return expf((step * distances).astype(np.float32))


def _round_half_away(x: np.ndarray) -> np.ndarray:
    return np.copysign(np.floor(np.abs(x) + x.dtype.type(0.5)), x)


@lru_cache(maxsize=64)
def fixed_point_exp_table(input_scale: float, beta: float) -> np.ndarray:
    """exp(beta * input_scale * d) in Q0.31 for d = -255..0 (index d + 255), as TFLite's reference
    int8 softmax computes it: d times beta * input_scale in Q5.26 (a multiplier capped at the
    int32 maximum, and its left shift), 0 below the most negative Q5.26 difference."""
    mantissa, left_shift = quantize_multiplier(min(beta * input_scale * float(1 << 26), float(INT32_MAX)))
    lowest = -math.floor(31 * 2.0 ** (26 - left_shift))
    d = np.arange(-255, 1, dtype=np.int64)
    exps = exp_on_negative_values(doubling_high_mul(d << max(left_shift, 0), mantissa))
    return np.where(d >= lowest, exps, 0)


REFERENCE_SUM_LIMIT = 1 << 28
"""The Q12.19 row sum (512) from which TFLite's reference kernel's final shift exceeds 31 bits."""


def softmax_8bit_fixed(x: np.ndarray, input_scale: float, beta: float, bits: int, low: int) -> tuple[np.ndarray,
                                                                                                        np.ndarray]:
    """TFLite's reference softmax of 8-bit stored values along the last axis, into ``bits``-bit
    outputs offset by ``low``: (int64 outputs, which rows it covers: those summing below 512)."""
    values = x.astype(np.int64)
    exps = fixed_point_exp_table(input_scale, beta)[values - values.max(axis=-1, keepdims=True) + 255]
    total = ((exps + (1 << 11)) >> 12).sum(axis=-1, keepdims=True)  # each rounded into Q12.19
    covered = total < REFERENCE_SUM_LIMIT
    total = np.where(covered, total, 1 << 27)  # (rows beyond the limit are computed elsewhere)
    headroom_plus_one = count_leading_zeros32(total)
    normalised = (total << headroom_plus_one) - (1 << 31)  # the sum's leading one dropped, in Q0.31
    scale = one_over_one_plus_x(normalised)
    shift = 12 - headroom_plus_one + 31 - bits
    return rounding_shift_right(doubling_high_mul(scale, exps), shift) + low, covered[..., 0]


def softmax_8bit(x: np.ndarray, input_scale: float, beta: float, output_scale: float,
                 output_zero: int, low: int, high: int) -> np.ndarray:
    """LiteRT's optimised (float32 table) softmax of 8-bit stored values along the last axis
    (int64 result)."""
    table = exp_table(input_scale, beta)
    values = x.astype(np.int64)
    index = values - values.max(axis=-1, keepdims=True) + 255
    exps = table[index]
    total = np.cumsum(exps, axis=-1, dtype=np.float32)[..., -1:]  # sequential float32 sum
    inverse = np.float32(1.0) / (total * np.float32(output_scale))
    scaled = (exps * inverse).astype(np.float32)
    return np.clip(_round_half_away(scaled).astype(np.int64) + output_zero, low, high)


def _lut(func: Callable[[float], float], low: float, high: float) -> np.ndarray:
    """TFLite's 513-entry int16 interpolation table of ``func`` on [low, high] (outputs in
    [-1, 1] mapped to Q0.15): each of the 512 samples is biased by half the error the linear
    interpolation makes at its interval's midpoint; the last entry is func(high)."""
    step = (high - low) / 512
    scale = 32768.0
    table = np.empty(513, dtype=np.int64)
    for i in range(512):
        val = func(low + i * step)
        sample = _round_c(val * scale)
        interpolated = _round_c((func(low + (i + 1) * step) * scale + sample) / 2)
        midpoint = _round_c(func(low + i * step + step / 2) * scale)
        bias = _round_c((interpolated - midpoint) / 2)
        table[i] = min(max(sample - bias, -32768.0), 32767.0)
    table[512] = min(max(_round_c(func(high) * scale), -32768.0), 32767.0)
    return table


def _round_c(value: float) -> float:
    """C's round: half away from zero."""
    return math.copysign(math.floor(abs(value) + 0.5), value)


@lru_cache(maxsize=1)
def int16_tables() -> tuple[np.ndarray, np.ndarray]:
    """(exp on [-10, 0], 1 / (1 + x) on [0, 1]) as TFLite's int16 softmax builds them."""
    return _lut(math.exp, -10.0, 0.0), _lut(lambda v: 1.0 / (1.0 + v), 0.0, 1.0)


def lut_lookup(value: np.ndarray, table: np.ndarray) -> np.ndarray:
    """Linear interpolation in a 513-entry table of int16 ``value``s: entry 256 + value / 128
    (floored) plus the slope times the low 7 bits, rounded."""
    index = 256 + (value >> 7)
    offset = value & 0x7F
    base = table[index]
    slope = table[index + 1] - base
    return base + ((slope * offset + 64) >> 7)


def softmax_int16(x: np.ndarray, input_scale: float, beta: float) -> np.ndarray:
    """TFLite's int16 softmax along the last axis (outputs in [0, 32767], scale 1/32768)."""
    exp_lut, reciprocal_lut = int16_tables()
    rescale = float(np.float32(input_scale) * np.float32(beta)) / (10.0 / 65535.0)
    mantissa, exponent = quantize_multiplier(rescale)
    values = x.astype(np.int64)
    diff = values - values.max(axis=-1, keepdims=True)
    scaled = multiply_by_quantized_multiplier(diff, mantissa, exponent) + 32767
    exps = lut_lookup(np.clip(scaled, -32768, 32767), exp_lut)
    total = exps.sum(axis=-1, keepdims=True)
    headroom = 32 - np.floor(np.log2(total)).astype(np.int64) - 1  # leading zeros of a 32-bit sum
    shifted = ((total << (headroom - 1)) + (1 << 13)) >> 14
    reciprocal = lut_lookup(np.clip(shifted - ((1 << 15) + (1 << 16)), -32768, 32767), reciprocal_lut)
    right = 31 - headroom
    result = (exps * reciprocal + (np.int64(1) << (right - 1))) >> right
    return np.clip(result, 0, 32767)


@TFL.kernel(SoftmaxOp)
def softmax(op: Operation, args: list[Any]) -> list[np.ndarray]:
    """Softmax of the last axis with ``beta``, by the input's storage type."""
    x = args[0]
    out_type = op.results[0].type
    beta = float(getattr(op.attr("beta"), "value", op.attr("beta")))
    if not isinstance(element_type_of(out_type), QuantUniformType):
        shifted = (x.astype(np.float64) - x.max(axis=-1, keepdims=True)) * beta
        exps = np.exp(shifted)
        return [(exps / exps.sum(axis=-1, keepdims=True)).astype(storage_dtype(out_type))]
    qi = quant_of(op, op.operands[0].type, "input")
    qo = quant_of(op, out_type, "output")
    if qi.bits == 8:
        fixed, covered = softmax_8bit_fixed(x, qi.scale, beta, qo.bits, qo.low)
        out = np.clip(fixed, qo.low, qo.high)
        if not covered.all():
            out = np.where(covered[..., None], out, softmax_8bit(x, qi.scale, beta, qo.scale, qo.zero, qo.low, qo.high))
    elif qi.bits == 16 and qo.bits == 16:
        if qi.zero or qo.zero:
            raise fail(op, f"int16 softmax needs zero points of 0, not {qi.zero} (input) and "
                           f"{qo.zero} (output)")
        out = softmax_int16(x, qi.scale, beta)
    else:
        raise fail(op, f"a {qi.bits}-bit input with a {qo.bits}-bit output is not supported "
                       f"(8-bit inputs, or 16-bit in and out, are)")
    return [out.astype(storage_dtype(out_type))]
