"""The NPU's output-stage arithmetic: rescale with a rounding mode, zero points, clamp, table;
every npu compute op ends with it, so the kernels share one exact implementation.

Design notes: docs/interpreter_design.md, section npu kernels: output-stage arithmetic (kernels/arith)."""
from __future__ import annotations

from typing import Any

import numpy as np

from npu_opt.dialects.npu.attrs import ActivationAttr
from npu_opt.dialects.npu.interfaces import costed
from npu_opt.dialects.npu.ops_common import NpuComputeOp, quant_of, storage_of
from npu_opt.ir.attributes import TypeAttr
from npu_opt.ir.core import Operation, Value
from npu_opt.interpreters.npu.table import look_up
from npu_opt.ir.interpreter import fail, storage_dtype
from npu_opt.ir.types import QuantUniformType, Type

SAFE_BITS = 62
"""Products whose magnitude bound stays below 2^62 are computed in int64."""


def _bound(values: np.ndarray) -> int:
    """The largest magnitude in ``values`` (0 for an empty array), as a Python int."""
    if values.size == 0:
        return 0
    return max(abs(int(values.max())), abs(int(values.min())))


def wide_product(a: Any, b: Any) -> np.ndarray:
    """a * b exactly: int64 when the operands' magnitudes allow, else an object array of ints."""
    x, y = np.asarray(a), np.asarray(b)
    if _bound(x).bit_length() + _bound(y).bit_length() <= SAFE_BITS:
        return x.astype(np.int64) * y.astype(np.int64)
    return x.astype(object) * y.astype(object)


def shift_round(p: np.ndarray, shift: Any, rounding: str) -> np.ndarray:
    """p / 2^shift rounded by ``rounding`` (any of ``tflite``, ``half_up``, ``to_zero``,
    ``away_zero``); ``shift`` broadcasts against ``p`` and may be zero or negative (left)."""
    s = np.asarray(shift, dtype=np.int64)
    if s.size and int(s.min()) < 0:
        left = np.maximum(-s, 0)
        p = wide_product(p, np.left_shift(np.int64(1), left).astype(object) if int(left.max()) > 61
                         else np.left_shift(np.int64(1), left))
        s = np.maximum(s, 0)
    if s.size and int(s.max()) == 0:
        return p
    if p.dtype == object:
        s = s.astype(object)
    one = p.dtype.type(1) if p.dtype != object else 1
    if rounding == "tflite":
        first = np.minimum(s, 31)
        half = np.where(first > 0, one << np.maximum(first - 1, 0), 0)
        y = (p + half) >> first
        rest = s - first
        if (np.asarray(rest) > 0).any():
            y = _half_away(y, rest)
        return y
    if rounding == "half_up":
        half = np.where(s > 0, one << np.maximum(s - 1, 0), 0)
        return (p + half) >> s
    if rounding == "to_zero":
        magnitude = np.abs(p) >> s
        return np.where(p < 0, -magnitude, magnitude)
    if rounding == "away_zero":
        return _half_away(p, s)
    raise ValueError(f"unknown rounding mode '{rounding}'")


def _half_away(p: np.ndarray, s: Any) -> np.ndarray:
    """p / 2^s rounded to nearest, ties away from zero (s >= 0)."""
    one = p.dtype.type(1) if p.dtype != object else 1
    half = np.where(np.asarray(s) > 0, one << np.maximum(np.asarray(s) - 1, 0), 0)
    magnitude = (np.abs(p) + half) >> s
    return np.where(p < 0, -magnitude, magnitude)


def rescale(acc: Any, multiplier: Any, shift: Any, rounding: str) -> np.ndarray:
    """round(acc * multiplier / 2^shift) by ``rounding``; multiplier and shift broadcast (per
    channel on the last axis)."""
    return shift_round(wide_product(acc, multiplier), shift, rounding)


# ---------------------------------------------------------------------------------------------
# Quantisation read from the types
def add_headroom(bits: int) -> int:
    """Bits an add or sub operand is shifted up before the operands meet: 20 for 8-bit inputs, 15 for wider."""
    return 20 if bits == 8 else 15


def scaled_operands(a: np.ndarray, b: np.ndarray, headroom: int, rescaled: int | None, multiplier: int = 0,
                    shift: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Add/sub operands at one scale: each shifted left by the headroom less one, except the one
    ``rescaled`` names (0: a, 1: b), taken from the full headroom times ``multiplier`` and shifted
    right by ``shift`` with TFLite's double rounding (Vela's advanced scaling)."""
    def scaled(x: np.ndarray) -> np.ndarray:
        return shift_round(wide_product(x << headroom, multiplier), shift, "tflite")
    return (scaled(a) if rescaled == 0 else a << (headroom - 1),
            scaled(b) if rescaled == 1 else b << (headroom - 1))


def zero_point(value_or_type: Value | Type) -> int:
    """The per-tensor zero point of a value's type (0 for plain integers)."""
    q = quant_of(value_or_type)
    return int(q.zero_points[0]) if q is not None else 0


def scale(value_or_type: Value | Type) -> float | None:
    """The per-tensor scale of a value's type; None for plain integers."""
    q = quant_of(value_or_type)
    return float(q.scales[0]) if q is not None else None


def target_quant(op: Operation) -> QuantUniformType | None:
    """The quantisation the output rescale targets: ``output_quant`` when the op has one (a fused
    table requantises on its own), else the OFM's."""
    attr = op.attr("output_quant")
    if isinstance(attr, TypeAttr):
        t = attr.type
        return t if isinstance(t, QuantUniformType) else quant_of(t)
    return quant_of(op.results[0])


def ifm_zero_point(value: Value) -> int:
    """The zero point subtracted from an input feature map: its type's, except for 32-bit
    feature maps, which the NPU reads without one."""
    storage = storage_of(value.type)
    if storage is not None and storage.width == 32:
        return 0
    return zero_point(value)


def rounding_of(op: Operation) -> str:
    """The op's rounding mode: its ``rounding`` attribute, else the NPU default Vela chooses:
    ``half_up`` for MAC operations on 16-bit IFMs (TFLite's 16x8 kernels round once, half up),
    ``tflite`` for everything else."""
    given = op.attr("rounding")
    if given is not None:
        return str(getattr(given, "value", given))
    kind = costed(op)
    if kind is not None and kind.kind.has_weights:
        storage = storage_of(op.operands[0].type)
        if storage is not None and storage.width == 16:
            return "half_up"
    return "tflite"


def explicit_rescale(op: Operation) -> tuple[int, int] | None:
    """The op's explicit ``#npu.rescale`` (multiplier, shift), or None."""
    attr = op.attr("rescale")
    if attr is None:
        return None
    return int(attr.multiplier), int(attr.shift)


# ---------------------------------------------------------------------------------------------
# The output stage
def finish(op: NpuComputeOp, scaled: np.ndarray, args: list[Any], ofm_zp: int | None = None,
           bounds: tuple[int, int] | None = None) -> np.ndarray:
    """The rescaled accumulator ``scaled`` through the rest of the output stage: plus the OFM
    zero point (the target quantisation's unless ``ofm_zp`` is given), clamped to the
    activation range (``bounds`` when given), looked up in the table of a ``lut`` activation,
    in the OFM's dtype."""
    act: ActivationAttr = op.activation_attr()
    zp = zero_point_of_target(op) if ofm_zp is None else ofm_zp
    low, high = (act.min, act.max) if bounds is None else bounds
    storage = storage_of(op.results[0].type)
    if storage is not None and storage.width == 32 and act.kind != "lut":
        # a 32-bit OFM is written as computed: no zero point, no clamp (the activation registers
        # are 16-bit), saturated to int32
        return to_ofm(op, np.asarray(np.minimum(np.maximum(scaled, -(1 << 31)), (1 << 31) - 1), dtype=np.int64))
    values = scaled + zp if zp else scaled
    values = np.clip(values, low, high) if values.dtype != object else \
        np.asarray(np.minimum(np.maximum(values, low), high), dtype=np.int64)
    values = np.asarray(values, dtype=np.int64)
    if act.kind == "lut":
        lut_operand = op.lut_operand()
        index = op.operands.index(lut_operand) if lut_operand is not None else -1
        table = args[index] if index >= 0 else None
        if table is None:
            raise fail(op, "a 'lut' activation needs its table operand")
        values = look_up(op, values, np.asarray(table))
    elif act.kind in ("tanh", "sigmoid"):
        raise fail(op, f"the built-in '{act.kind}' activation is applied by the pooling kernel only")
    return to_ofm(op, values)


def zero_point_of_target(op: Operation) -> int:
    q = target_quant(op)
    return int(q.zero_points[0]) if q is not None else 0


def to_ofm(op: Operation, values: np.ndarray) -> np.ndarray:
    """``values`` saturated to the OFM storage range and cast to its dtype."""
    dtype = storage_dtype(op.results[0].type)
    info = np.iinfo(dtype)
    return np.clip(values, info.min, info.max).astype(dtype)


def per_channel(values: np.ndarray | list[float], channels: tuple[int, int] | None) -> np.ndarray:
    """The entries of a per-channel list for OFM channels [c0, c1) (all without a slice)."""
    array = np.asarray(values)
    if channels is None or array.size == 1:
        return array
    return array[channels[0]:channels[1]]


def wrap32(values: np.ndarray) -> np.ndarray:
    """Values wrapped to int32 two's complement."""
    return ((np.asarray(values, dtype=np.int64) + (1 << 31)) & 0xFFFFFFFF) - (1 << 31)


def leading_zeros(values: np.ndarray) -> np.ndarray:
    """The count of leading zero bits of each value as a 32-bit word."""
    unsigned = np.asarray(values, dtype=np.int64) & 0xFFFFFFFF
    bits = np.zeros(unsigned.shape, dtype=np.int64)
    nonzero = unsigned > 0
    # log2 of a float64 is exact at powers of two and monotone between them for 32-bit integers
    bits[nonzero] = np.floor(np.log2(unsigned[nonzero].astype(np.float64))).astype(np.int64) + 1
    return 32 - bits


__all__ = ["add_headroom", "explicit_rescale", "finish", "ifm_zero_point", "leading_zeros", "per_channel", "rescale",
           "rounding_of", "scale", "scaled_operands", "shift_round", "target_quant", "to_ofm", "wide_product", "wrap32", "zero_point",
           "zero_point_of_target"]
