"""TensorFlow Lite's integer rescaling arithmetic, vectorised: what makes a quantised kernel
bit-exact with TFLite's reference kernels.

A real multiplier M > 0 is held as a 32-bit fixed-point mantissa in [2**30, 2**31) and a
power-of-two exponent, M = mantissa * 2**(exponent - 31). Applying it to an int32 x is a
rounding "doubling high multiply" (x * mantissa / 2**31, rounded to nearest with ties upward,
saturated) followed by a rounding right shift (ties away from zero) -- the default, double
rounding of TFLite's reference kernels. All functions take numpy arrays (or scalars) and
broadcast.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

INT32_MIN = -(1 << 31)
INT32_MAX = (1 << 31) - 1


def quantize_multiplier(real: float) -> tuple[int, int]:
    """(mantissa, exponent) of ``real`` >= 0: mantissa in [2**30, 2**31), rounded half away
    from zero; (0, 0) for zero and for values too small to represent."""
    if real == 0.0:
        return 0, 0
    fraction, exponent = math.frexp(real)
    mantissa = int(math.floor(abs(fraction) * (1 << 31) + 0.5))
    if mantissa == 1 << 31:
        mantissa //= 2
        exponent += 1
    if exponent < -31:
        return 0, 0
    if exponent > 30:
        return INT32_MAX, 30
    return (mantissa if fraction >= 0 else -mantissa), exponent


def _truncating_div_pow2(value: np.ndarray, bits: int) -> np.ndarray:
    """``value / 2**bits`` rounded toward zero, as C's integer division does."""
    return np.where(value >= 0, value >> bits, -((-value) >> bits))


def doubling_high_mul(x: Any, mantissa: Any) -> np.ndarray:
    """Round-to-nearest (ties toward +inf: -1.5 gives -1) of x * mantissa / 2**31, saturating the single
    overflowing case (both -2**31) to INT32_MAX. Inputs are int32 values; result int64."""
    a = np.asarray(x, dtype=np.int64)
    b = np.asarray(mantissa, dtype=np.int64)
    product = a * b
    nudge = np.where(product >= 0, 1 << 30, 1 - (1 << 30))
    high = _truncating_div_pow2(product + nudge, 31)
    return np.where((a == INT32_MIN) & (b == INT32_MIN), INT32_MAX, high)


def rounding_shift_right(x: Any, shift: Any) -> np.ndarray:
    """x / 2**shift rounded to nearest, ties away from zero (shift >= 0, element-wise)."""
    value = np.asarray(x, dtype=np.int64)
    bits = np.asarray(shift, dtype=np.int64)
    mask = (np.int64(1) << bits) - 1
    remainder = value & mask
    threshold = (mask >> 1) + (value < 0)
    return (value >> bits) + (remainder > threshold)


def multiply_by_quantized_multiplier(x: Any, mantissa: Any, exponent: Any) -> np.ndarray:
    """x * mantissa * 2**(exponent - 31) with TFLite's double rounding (int32 arithmetic:
    the left shift for a positive exponent wraps as int32 does)."""
    exp = np.asarray(exponent, dtype=np.int64)
    left = np.maximum(exp, 0)
    right = np.maximum(-exp, 0)
    shifted = np.asarray(x, dtype=np.int64) << left
    shifted = ((shifted + (1 << 31)) & 0xFFFFFFFF) - (1 << 31)
    return rounding_shift_right(doubling_high_mul(shifted, mantissa), right)


def requantize(values: Any, in_scale: float, in_zero: int, out_scale: float, out_zero: int,
               low: int, high: int) -> np.ndarray:
    """Re-express quantised ``values`` from (in_scale, in_zero) to (out_scale, out_zero) as
    TFLite's Requantize does (one multiplier in_scale / out_scale), clamped to [low, high]."""
    mantissa, exponent = quantize_multiplier(in_scale / out_scale)
    shifted = np.asarray(values, dtype=np.int64) - in_zero
    scaled = multiply_by_quantized_multiplier(shifted, mantissa, exponent) + out_zero
    return np.clip(scaled, low, high)


def multiply_by_quantized_multiplier_wide(x: Any, mantissa: Any, exponent: Any) -> np.ndarray:
    """x * mantissa * 2**(exponent - 31) for a 64-bit accumulator ``x``, as TFLite's int64
    overload computes it (16x8 convolutions and fully connected layers): the mantissa is first
    rounded to 16 bits (saturating at 0x7FFF), the product shifted right by 15 - exponent with
    rounding half up, and the result truncated to int32."""
    m = np.asarray(mantissa, dtype=np.int64)
    reduced = np.where(m < 0x7FFF0000, (m + (1 << 15)) >> 16, 0x7FFF)
    total = 15 - np.asarray(exponent, dtype=np.int64)
    value = np.asarray(x, dtype=np.int64) * reduced + (np.int64(1) << (total - 1))
    shifted = value >> total
    return ((shifted + (1 << 31)) & 0xFFFFFFFF) - (1 << 31)


def multiply_rounding_away(x: Any, mantissa: Any, exponent: Any) -> np.ndarray:
    """x * mantissa * 2**(exponent - 31) rounded once, halves away from zero (exact in int64):
    the rescale litert's reference fully_connected kernel is measured to apply (int8 and 16x8
    alike; its convolutions round twice, as ``multiply_by_quantized_multiplier``)."""
    product = np.asarray(x, dtype=np.int64) * np.asarray(mantissa, dtype=np.int64)
    total = 31 - np.asarray(exponent, dtype=np.int64)
    magnitude = (np.abs(product) + (np.int64(1) << (total - 1))) >> total
    return np.where(product < 0, -magnitude, magnitude)


def quantize_multipliers(reals: Any) -> tuple[np.ndarray, np.ndarray]:
    """``quantize_multiplier`` of each real in ``reals``: (mantissas, exponents) as int64 arrays."""
    pairs = [quantize_multiplier(float(r)) for r in np.ravel(np.asarray(reals, dtype=np.float64))]
    mantissas = np.array([m for m, _ in pairs], dtype=np.int64)
    exponents = np.array([e for _, e in pairs], dtype=np.int64)
    return mantissas, exponents


__all__ = [
    "INT32_MAX", "INT32_MIN", "doubling_high_mul", "multiply_by_quantized_multiplier",
    "multiply_by_quantized_multiplier_wide", "multiply_rounding_away", "quantize_multipliers",
    "quantize_multiplier", "requantize",
    "rounding_shift_right",
]
