"""Kernels of tfl's broadcasting binary ops: add, sub, mul, minimum, maximum, squared_difference.

Quantised add and sub bring both inputs onto a common grid finer than either (twice the larger
input scale, divided by 2**20 for int8 or 2**15 for int16), add there, and rescale the sum to the
output: three fixed-point multipliers, as TFLite's reference kernels do. int16 add and sub with
power-of-two scales (``pot_scale_int16``, TFLite's default) take TFLite's shift-only path
instead. Quantised mul rescales the product of the zero-centred inputs with one multiplier.
Float ops compute in float32; numpy broadcasting matches TFLite's.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from npu_opt.dialects.tfl.common import TFL
from npu_opt.interpreters.tfl.fixed_point import (
    multiply_by_quantized_multiplier, quantize_multiplier, rounding_shift_right)
from npu_opt.interpreters.tfl.quantize import (
    Quant, activation_float, activation_int, activation_range, is_quantized,
    log2_if_power_of_two, quant_of)
from npu_opt.dialects.tfl.ops_elementwise import (
    AddOp, MaximumOp, MinimumOp, MulOp, SquaredDifferenceOp, SubOp)
from npu_opt.ir.core import Operation
from npu_opt.ir.interpreter import fail, storage_dtype


def _str_attr(op: Operation, name: str, default: str = "NONE") -> str:
    """A string attribute's value (``default`` when absent)."""
    attr = op.attr(name)
    return default if attr is None else str(attr.value)


def _quants(op: Operation) -> tuple[Quant, Quant, Quant]:
    """The per-tensor quantisation of lhs, rhs and the result."""
    return (quant_of(op, op.operands[0].type, "lhs"), quant_of(op, op.operands[1].type, "rhs"),
            quant_of(op, op.results[0].type, "result"))


def _multiplier(op: Operation, real: float, what: str) -> tuple[int, int]:
    """(mantissa, exponent) of a positive real rescale factor; it must stay below 2**31."""
    if not real < 2.0 ** 31:
        raise fail(op, f"the {what} multiplier {real:g} is not below 2**31")
    return quantize_multiplier(real)


def _float_or_int(op: Operation, result: np.ndarray) -> np.ndarray:
    """A float or plain-integer result with the op's fused activation, in the result dtype."""
    activation = _str_attr(op, "fused_activation_function")
    dtype = storage_dtype(op.results[0].type)
    if dtype.kind == "f":
        return activation_float(op, activation, result.astype(dtype))
    return activation_int(op, activation, result).astype(dtype)


def _pot_int16(op: Operation, q1: Quant, q2: Quant, qo: Quant) -> tuple[int, int] | None:
    """The input shifts (both <= 0) of TFLite's power-of-two int16 add/sub path, or None when
    the op takes the general path (8-bit, ``pot_scale_int16 = false``, or a scale not a power
    of two)."""
    if qo.bits != 16:
        return None
    flag = op.attr("pot_scale_int16")
    if flag is not None and not flag.value:
        return None
    logs = [log2_if_power_of_two(q.scale) for q in (q1, q2, qo)]
    if any(log is None for log in logs):
        return None
    shift1, shift2 = logs[0] - logs[2], logs[1] - logs[2]  # type: ignore[operator]
    if shift1 > 0 or shift2 > 0 or (shift1 != 0 and shift2 != 0):
        raise fail(op, f"power-of-two int16 scales need one input on the output scale and the "
                       f"other finer; the input shifts are {shift1} and {shift2}")
    return shift1, shift2


def _add_sub_quantized(op: Operation, lhs: np.ndarray, rhs: np.ndarray, sign: int) -> np.ndarray:
    """Quantised lhs + sign * rhs, with the fused activation's clamp."""
    q1, q2, qo = _quants(op)
    low, high = activation_range(op, _str_attr(op, "fused_activation_function"), qo)
    a, b = lhs.astype(np.int64), rhs.astype(np.int64)
    shifts = _pot_int16(op, q1, q2, qo)
    if shifts is not None:
        if q1.zero or q2.zero or qo.zero:
            raise fail(op, "int16 add/sub needs zero points of 0")
        a = rounding_shift_right(a, -shifts[0])
        b = rounding_shift_right(b, -shifts[1])
        total = np.clip(a + sign * b, qo.low, qo.high)  # a saturating int16 add
        return np.clip(total, low, high)
    if qo.bits == 16 and (q1.zero or q2.zero or qo.zero):
        raise fail(op, "int16 add/sub needs zero points of 0")
    left_shift = 15 if qo.bits == 16 else 20
    s1, s2, so = (float(q.scale32) for q in (q1, q2, qo))
    common = 2.0 * max(s1, s2)
    m1, e1 = _multiplier(op, s1 / common, "lhs")
    m2, e2 = _multiplier(op, s2 / common, "rhs")
    mo, eo = _multiplier(op, common / ((1 << left_shift) * so), "output")
    scaled1 = multiply_by_quantized_multiplier((a - q1.zero) << left_shift, m1, e1)
    scaled2 = multiply_by_quantized_multiplier((b - q2.zero) << left_shift, m2, e2)
    total = scaled1 + sign * scaled2
    out = multiply_by_quantized_multiplier(total, mo, eo) + qo.zero
    return np.clip(out, low, high)


@TFL.kernel(AddOp)
def add(op: Operation, args: list[Any]) -> list[np.ndarray]:
    """lhs + rhs, broadcasting, with the fused activation."""
    lhs, rhs = args
    dtype = storage_dtype(op.results[0].type)
    if is_quantized(op.results[0].type):
        return [_add_sub_quantized(op, lhs, rhs, 1).astype(dtype)]
    return [_float_or_int(op, np.add(lhs, rhs, dtype=dtype))]


@TFL.kernel(SubOp)
def sub(op: Operation, args: list[Any]) -> list[np.ndarray]:
    """lhs - rhs, broadcasting, with the fused activation."""
    lhs, rhs = args
    dtype = storage_dtype(op.results[0].type)
    if is_quantized(op.results[0].type):
        return [_add_sub_quantized(op, lhs, rhs, -1).astype(dtype)]
    return [_float_or_int(op, np.subtract(lhs, rhs, dtype=dtype))]


@TFL.kernel(MulOp)
def mul(op: Operation, args: list[Any]) -> list[np.ndarray]:
    """lhs * rhs, broadcasting, with the fused activation; quantised: one multiplier
    lhs_scale * rhs_scale / out_scale applied to the product of the zero-centred inputs."""
    lhs, rhs = args
    dtype = storage_dtype(op.results[0].type)
    if not is_quantized(op.results[0].type):
        return [_float_or_int(op, np.multiply(lhs, rhs, dtype=dtype))]
    q1, q2, qo = _quants(op)
    low, high = activation_range(op, _str_attr(op, "fused_activation_function"), qo)
    real = float(np.float64(q1.scale32) * np.float64(q2.scale32) / np.float64(qo.scale32))
    mantissa, exponent = _multiplier(op, real, "output")
    product = (lhs.astype(np.int64) - q1.zero) * (rhs.astype(np.int64) - q2.zero)
    out = multiply_by_quantized_multiplier(product, mantissa, exponent) + qo.zero
    return [np.clip(out, low, high).astype(dtype)]


def _min_max(op: Operation, args: list[Any], pick: Any) -> list[np.ndarray]:
    """Element-wise min or max of the stored values (TFLite compares them as stored: both
    operands and the result share one quantisation)."""
    lhs, rhs = args
    if is_quantized(op.results[0].type):
        q1, q2, qo = _quants(op)
        if (q1.scale, q1.zero) != (qo.scale, qo.zero) or (q2.scale, q2.zero) != (qo.scale, qo.zero):
            raise fail(op, "minimum/maximum compares stored values, so its operands and result "
                           "must share one scale and zero point")
    return [pick(lhs, rhs).astype(storage_dtype(op.results[0].type))]


@TFL.kernel(MinimumOp)
def minimum(op: Operation, args: list[Any]) -> list[np.ndarray]:
    """The smaller of lhs and rhs, broadcasting."""
    return _min_max(op, args, np.minimum)


@TFL.kernel(MaximumOp)
def maximum(op: Operation, args: list[Any]) -> list[np.ndarray]:
    """The larger of lhs and rhs, broadcasting."""
    return _min_max(op, args, np.maximum)


@TFL.kernel(SquaredDifferenceOp)
def squared_difference(op: Operation, args: list[Any]) -> list[np.ndarray]:
    """(lhs - rhs)**2, broadcasting. Quantised: both inputs onto a grid of twice the larger
    input scale / 2**7, subtract, square in int32, rescale the square to the output."""
    lhs, rhs = args
    dtype = storage_dtype(op.results[0].type)
    if not is_quantized(op.results[0].type):
        diff = np.subtract(lhs, rhs, dtype=dtype)
        return [np.multiply(diff, diff, dtype=dtype)]
    q1, q2, qo = _quants(op)
    left_shift = 7
    s1, s2, so = (float(q.scale32) for q in (q1, q2, qo))
    common = 2.0 * max(s1, s2)
    m1, e1 = _multiplier(op, s1 / common, "lhs")
    m2, e2 = _multiplier(op, s2 / common, "rhs")
    mo, eo = _multiplier(op, common * common / ((1 << (2 * left_shift)) * so), "output")
    scaled1 = multiply_by_quantized_multiplier((lhs.astype(np.int64) - q1.zero) << left_shift, m1, e1)
    scaled2 = multiply_by_quantized_multiplier((rhs.astype(np.int64) - q2.zero) << left_shift, m2, e2)
    diff = scaled1 - scaled2
    out = multiply_by_quantized_multiplier(diff * diff, mo, eo) + qo.zero
    return [np.clip(out, qo.low, qo.high).astype(dtype)]


__all__ = ["add", "maximum", "minimum", "mul", "squared_difference", "sub"]
