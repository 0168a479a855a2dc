"""Kernels of tfl.quantize and tfl.dequantize, and the quantisation facts the other element-wise
kernels share: a tensor's (scale, zero point, storage range) and a fused activation's clamp.

TFLite keeps scales as float32; the float computations here do the same, so that a value that
rounds at a tie rounds as TFLite's does. Rounding to integers is half away from zero (C's round).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from npu_opt.dialects.tfl.common import TFL
from npu_opt.interpreters.tfl.fixed_point import quantize_multiplier, requantize
from npu_opt.dialects.tfl.ops_elementwise import DequantizeOp, QuantizeOp
from npu_opt.ir.core import Operation
from npu_opt.ir.interpreter import fail, storage_dtype
from npu_opt.ir.types import IntegerType, QuantUniformType, Type, element_type_of


@dataclass(frozen=True)
class Quant:
    """Per-tensor quantisation of a value: real = scale * (stored - zero); stored in [low, high]
    (the storage type's full range: TFLite clamps to it, not to a narrow storage range)."""

    scale: float
    zero: int
    low: int
    high: int
    bits: int

    @property
    def scale32(self) -> np.float32:
        """The scale as the float32 TFLite holds it."""
        return np.float32(self.scale)


def quant_of(op: Operation, t: Type, what: str) -> Quant:
    """The per-tensor quantisation of ``t`` (``what`` names the value in errors)."""
    elem = element_type_of(t)
    if not isinstance(elem, QuantUniformType):
        raise fail(op, f"the {what} has element type {elem}, where a quantised type was expected")
    if elem.axis is not None:
        raise fail(op, f"the {what} is quantised per axis (dimension {elem.axis}); this kernel "
                       f"takes one scale per tensor")
    low, high = elem.storage_type.value_range()
    return Quant(elem.scales[0], elem.zero_points[0], low, high, elem.storage_type.width)


def is_quantized(t: Type) -> bool:
    """Whether ``t``'s elements are quantised integers."""
    return isinstance(element_type_of(t), QuantUniformType)


def round_half_away(x: Any) -> np.ndarray:
    """Round to the nearest integer, halves away from zero (C's round), keeping the dtype."""
    x = np.asarray(x)
    return np.copysign(np.floor(np.abs(x) + x.dtype.type(0.5)), x)


def float_to_int32(x: Any) -> np.ndarray:
    """C's static_cast<int32_t> of already-rounded floats as x86 performs it: values outside
    the int32 range, infinities and NaN all become INT32_MIN ("integer indefinite")."""
    x = np.asarray(x, dtype=np.float64)
    inside = np.isfinite(x) & (x >= -2.0 ** 31) & (x < 2.0 ** 31)
    return np.where(inside, x, -2.0 ** 31).astype(np.int64)


def log2_if_power_of_two(scale: float) -> int | None:
    """log2(scale) when ``scale`` is a power of two (within TFLite's CheckedLog2 tolerance of
    1e-3 in the exponent), else None."""
    exponent = math.log2(scale)
    rounded = round(exponent)
    return int(rounded) if abs(exponent - rounded) < 1e-3 else None


def wrap_int32(x: Any) -> np.ndarray:
    """``x`` wrapped to int32 as two's-complement arithmetic does (held as int64)."""
    return ((np.asarray(x, dtype=np.int64) + (1 << 31)) & 0xFFFFFFFF) - (1 << 31)


def quantize_real(op: Operation, value: float, q: Quant) -> int:
    """A real activation bound ``value`` on ``q``'s grid: zero + round(value / scale) in float32,
    as TFLite's activation-range helper computes it."""
    return q.zero + int(round_half_away(np.float32(value) / q.scale32))


ACTIVATION_BOUNDS = {"RELU": (0.0, None), "RELU6": (0.0, 6.0), "RELU_N1_TO_1": (-1.0, 1.0),
                     "RELU_0_TO_1": (0.0, 1.0)}
"""Real-valued (low, high) clamp of each clamping activation; None: unbounded."""


def activation_range(op: Operation, activation: str, q: Quant) -> tuple[int, int]:
    """The stored-integer clamp [low, high] of ``activation`` fused into an op whose output is
    quantised as ``q``."""
    if activation == "NONE":
        return q.low, q.high
    if activation not in ACTIVATION_BOUNDS:
        raise fail(op, f"fused activation {activation} is not supported on quantised outputs "
                       f"(NONE, RELU, RELU6 and RELU_N1_TO_1 are)")
    real_low, real_high = ACTIVATION_BOUNDS[activation]
    low = max(q.low, quantize_real(op, real_low, q))
    high = q.high if real_high is None else min(q.high, quantize_real(op, real_high, q))
    return low, high


def activation_float(op: Operation, activation: str, x: np.ndarray) -> np.ndarray:
    """``activation`` applied to a float result (clamps keep the dtype)."""
    if activation == "NONE":
        return x
    if activation == "TANH":
        return np.tanh(x.astype(np.float64)).astype(x.dtype)
    if activation not in ACTIVATION_BOUNDS:
        raise fail(op, f"fused activation {activation} is not supported on float outputs")
    low, high = ACTIVATION_BOUNDS[activation]
    out = np.maximum(x, x.dtype.type(low))
    return out if high is None else np.minimum(out, x.dtype.type(high))


def activation_int(op: Operation, activation: str, x: np.ndarray) -> np.ndarray:
    """``activation`` applied to a plain (not quantised) integer result."""
    if activation == "NONE":
        return x
    if activation not in ACTIVATION_BOUNDS:
        raise fail(op, f"fused activation {activation} is not supported on integer outputs")
    low, high = ACTIVATION_BOUNDS[activation]
    out = np.maximum(x, int(low))
    return out if high is None else np.minimum(out, int(high))


def _axis_params(op: Operation, elem: QuantUniformType, rank: int) -> tuple[np.ndarray, np.ndarray]:
    """Scales (float32) and zero points (int64) of ``elem`` shaped to broadcast along its axis."""
    scales = np.asarray(elem.scales, dtype=np.float32)
    zeros = np.asarray(elem.zero_points, dtype=np.int64)
    if elem.axis is None:
        return scales.reshape(()), zeros.reshape(())
    if not 0 <= elem.axis < rank:
        raise fail(op, f"quantisation axis {elem.axis} is outside a rank-{rank} value")
    shape = [1] * rank
    shape[elem.axis] = len(elem.scales)
    return scales.reshape(shape), zeros.reshape(shape)


@TFL.kernel(DequantizeOp)
def dequantize(op: Operation, args: list[Any]) -> list[np.ndarray]:
    """scale * (stored - zero), computed in double and rounded once to float32, as TFLite's
    reference kernel does; f16 and plain integer inputs are widened."""
    (x,) = args
    elem = element_type_of(op.operands[0].type)
    out_dtype = storage_dtype(op.results[0].type)
    if isinstance(elem, QuantUniformType):
        scales, zeros = _axis_params(op, elem, x.ndim)
        real = scales.astype(np.float64) * (x.astype(np.int64) - zeros).astype(np.float64)
        return [real.astype(out_dtype)]
    return [x.astype(out_dtype)]


@TFL.kernel(QuantizeOp)
def quantize(op: Operation, args: list[Any]) -> list[np.ndarray]:
    """Float -> quantised: zero + round(x / scale) with the division in float32 and rounding
    half away from zero, converted to int32 (an out-of-range value becomes INT32_MIN, then the
    zero point is added with wrap-around), clamped to the storage range -- TFLite's reference
    arithmetic. Quantised -> quantised: TFLite's requantisation, one multiplier
    in_scale / out_scale."""
    (x,) = args
    out_type = op.results[0].type
    out_elem = element_type_of(out_type)
    assert isinstance(out_elem, QuantUniformType)
    low, high = out_elem.storage_type.value_range()
    dtype = storage_dtype(out_type)
    if not is_quantized(op.operands[0].type):
        scales, zeros = _axis_params(op, out_elem, x.ndim)
        with np.errstate(all="ignore"):
            scaled = round_half_away(x.astype(np.float32) / scales)
        stored = wrap_int32(float_to_int32(scaled) + zeros)
        return [np.clip(stored, low, high).astype(dtype)]
    q_in = quant_of(op, op.operands[0].type, "input")
    q_out = quant_of(op, out_type, "output")
    ratio = float(np.float64(q_in.scale32) / np.float64(q_out.scale32))
    if ratio >= 2.0 ** 31:
        raise fail(op, f"the requantisation multiplier {ratio:g} exceeds 2**31")
    out = requantize(x, q_in.scale32, q_in.zero, q_out.scale32, q_out.zero, low, high)
    return [out.astype(dtype)]


__all__ = ["ACTIVATION_BOUNDS", "Quant", "activation_float", "activation_int",
           "activation_range", "dequantize", "float_to_int32", "is_quantized",
           "log2_if_power_of_two", "quant_of",
           "quantize", "quantize_real", "round_half_away", "wrap_int32"]
