"""gemmlowp's fixed-point exp and reciprocal, vectorised: the functions TensorFlow Lite's
reference int8 softmax is built from.

Values are int64 arrays holding int32 fixed-point numbers: Qm.n means m integer bits and n =
31 - m fraction bits. Products are rounding doubling high multiplies (``doubling_high_mul``),
halvings round half away from zero, and the few left shifts saturate to int32, as in gemmlowp.
"""
from __future__ import annotations

import numpy as np

from npu_opt.interpreters.tfl.fixed_point import INT32_MAX, INT32_MIN, doubling_high_mul, rounding_shift_right

_EXP_MINUS_ONE_EIGHTH = 1895147668  # exp(-1/8) in Q0.31
_ONE_THIRD = 715827883  # 1/3 in Q0.31
_BARREL = ((-2, 1672461947), (-1, 1302514674), (0, 790015084), (1, 290630308), (2, 39332535), (3, 720401),
           (4, 242))
"""exp(-2^k) in Q0.31 for the bits k of a Q5.26 magnitude above its last quarter."""


def saturating_shift_left(x: np.ndarray, bits: int) -> np.ndarray:
    """x * 2^bits, saturated to int32."""
    return np.clip(np.asarray(x, dtype=np.int64) << bits, INT32_MIN, INT32_MAX)


def _exp_on_last_quarter(a: np.ndarray) -> np.ndarray:
    """exp(a) for Q0.31 a in [-1/4, 0): a fourth-order polynomial around -1/8, in Q0.31."""
    x = a + (1 << 28)
    x2 = doubling_high_mul(x, x)
    x3 = doubling_high_mul(x2, x)
    x4 = doubling_high_mul(x2, x2)
    terms = rounding_shift_right(doubling_high_mul(rounding_shift_right(x4, 2) + x3, _ONE_THIRD) + x2, 1)
    return _EXP_MINUS_ONE_EIGHTH + doubling_high_mul(_EXP_MINUS_ONE_EIGHTH, x + terms)


def exp_on_negative_values(a: np.ndarray) -> np.ndarray:
    """exp(a) for Q5.26 values a <= 0, in Q0.31: the exponential of a's last quarter (shifted
    into [-1/4, 0)) times exp(-2^k) for each further bit k of -a; exp(0) is the Q0.31 maximum."""
    a = np.asarray(a, dtype=np.int64)
    quarter = 1 << 24
    shifted = (a & (quarter - 1)) - quarter
    result = _exp_on_last_quarter(saturating_shift_left(shifted, 5))
    remainder = shifted - a
    for k, factor in _BARREL:
        result = np.where(remainder & (1 << (26 + k)), doubling_high_mul(result, factor), result)
    return np.where(a == 0, INT32_MAX, result)


def one_over_one_plus_x(x: np.ndarray) -> np.ndarray:
    """1 / (1 + x) for Q0.31 x in [0, 1), in Q0.31: three Newton-Raphson steps from 48/17 - 32/17 d
    on d = (1 + x) / 2, in Q2.29."""
    total = np.asarray(x, dtype=np.int64) + INT32_MAX
    half = np.where(total >= 0, (total + 1) >> 1, -((1 - total) >> 1))  # (sum + sign) / 2, truncated
    estimate = 1515870810 + doubling_high_mul(half, -1010580540)
    for _ in range(3):
        error = (1 << 29) - doubling_high_mul(half, estimate)
        estimate = estimate + saturating_shift_left(doubling_high_mul(estimate, error), 2)
    return saturating_shift_left(estimate, 1)


def count_leading_zeros32(x: np.ndarray) -> np.ndarray:
    """Leading zero bits of each non-negative value as a 32-bit word."""
    values = np.asarray(x, dtype=np.int64)
    lengths = np.array([int(v).bit_length() for v in values.ravel()], dtype=np.int64).reshape(values.shape)
    return 32 - lengths


__all__ = ["count_leading_zeros32", "exp_on_negative_values", "one_over_one_plus_x", "saturating_shift_left"]
