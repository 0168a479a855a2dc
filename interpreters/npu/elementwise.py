"""Kernels of the NPU's elementwise operations (add, sub, mul, minimum, maximum, shl, shr, abs,
clz, leaky_relu), scaled as Vela programs them.

Design notes: docs/interpreter_design.md, section npu kernels: elementwise operations (kernels/elementwise)."""
from __future__ import annotations

from typing import Any

import numpy as np

from npu_opt.dialects.npu.dialect import NPU
from npu_opt.interpreters.npu.arith import (
    add_headroom, explicit_rescale, finish, ifm_zero_point, leading_zeros, rescale, rounding_of, scale,
    scaled_operands, shift_round, target_quant, wide_product, wrap32,
)
from npu_opt.dialects.npu.ops_common import storage_of
from npu_opt.dialects.npu.ops_elementwise import (
    AbsOp, AddOp, ClzOp, LeakyReluOp, MaximumOp, MinimumOp, MulOp, ShlOp, ShrOp, SubOp,
)
from npu_opt.dialects.npu.quant import elementwise_mul_scale, quantise_scale
from npu_opt.ir.core import Operation
from npu_opt.ir.interpreter import fail

Rows = tuple[int, int] | None


def _operand(op: Operation, args: list[Any], index: int, ofm_channels: Rows) -> np.ndarray:
    """Operand ``index`` minus its zero point, as int64 (channel-sliced for a depth stripe)."""
    array = np.asarray(args[index], dtype=np.int64) - ifm_zero_point(op.operands[index])
    if ofm_channels is not None and array.ndim == 4 and array.shape[3] > 1:
        array = array[..., ofm_channels[0]:ofm_channels[1]]
    return array


def _out_scale(op: Operation) -> float | None:
    if op.attr("output_quant") is None:
        return scale(op.results[0])
    q = target_quant(op)
    return float(q.scales[0]) if q is not None else None


def _headroom(op: Operation) -> int:
    storage = storage_of(op.operands[0].type) or storage_of(op.operands[1].type)
    return add_headroom(storage.width if storage is not None else 16)


def add_sub(op: Operation, a: np.ndarray, b: np.ndarray, sign: int) -> np.ndarray:
    """The rescaled a + sign * b of an add or sub (before the OFM zero point)."""
    explicit = explicit_rescale(op)
    if explicit is not None:
        return rescale(a + sign * b, explicit[0], explicit[1], rounding_of(op))
    s1, s2, so = scale(op.operands[0]), scale(op.operands[1]), _out_scale(op)
    if s1 is None or s2 is None or so is None:
        return a + sign * b
    headroom = _headroom(op)
    twice = 2.0 * max(s1, s2)
    m1, sh1 = quantise_scale(float(np.double(s1) / twice))
    m2, sh2 = quantise_scale(float(np.double(s2) / twice))
    mo, sho = quantise_scale(float(twice / (np.double(so) * (1 << headroom))))
    rescaled, (multiplier, shift) = (None, (0, 0)) if s1 == s2 else (1, (m2, sh2)) if s1 > s2 else (0, (m1, sh1))
    scaled_a, scaled_b = scaled_operands(a, b, headroom, rescaled, multiplier, shift)
    return rescale(scaled_a + sign * scaled_b, mo, sho, rounding_of(op))


@NPU.kernel(AddOp, SubOp)
def add(op: Operation, args: list[Any], *, ofm_rows: Rows = None, ofm_channels: Rows = None) -> list[np.ndarray]:
    a, b = _operand(op, args, 0, ofm_channels), _operand(op, args, 1, ofm_channels)
    return [finish(op, add_sub(op, a, b, -1 if op.name == "npu.sub" else 1), args)]  # type: ignore[arg-type]


@NPU.kernel(MulOp)
def mul(op: Operation, args: list[Any], *, ofm_rows: Rows = None, ofm_channels: Rows = None) -> list[np.ndarray]:
    a, b = _operand(op, args, 0, ofm_channels), _operand(op, args, 1, ofm_channels)
    product = wide_product(a, b)
    explicit = explicit_rescale(op)
    if explicit is None:
        s1, s2, so = scale(op.operands[0]), scale(op.operands[1]), _out_scale(op)
        explicit = (1, 0) if None in (s1, s2, so) else elementwise_mul_scale(s1, s2, so)  # type: ignore[arg-type]
    if any((storage_of(v.type) or storage_of(op.results[0].type)).width == 32 for v in op.operands):
        explicit = (1, explicit[1])  # a 32-bit multiply only shifts: the multiplier is not applied
    return [finish(op, rescale(product, explicit[0], explicit[1], rounding_of(op)), args)]  # type: ignore[arg-type]


@NPU.kernel(MinimumOp, MaximumOp)
def min_max(op: Operation, args: list[Any], *, ofm_rows: Rows = None, ofm_channels: Rows = None) -> list[np.ndarray]:
    a, b = _operand(op, args, 0, ofm_channels), _operand(op, args, 1, ofm_channels)
    chosen = np.minimum(a, b) if op.name == "npu.minimum" else np.maximum(a, b)
    explicit = explicit_rescale(op)
    if explicit is not None:
        chosen = rescale(chosen, explicit[0], explicit[1], rounding_of(op))
    return [finish(op, chosen, args)]  # type: ignore[arg-type]


@NPU.kernel(ShlOp, ShrOp)
def shift(op: Operation, args: list[Any], *, ofm_rows: Rows = None, ofm_channels: Rows = None) -> list[np.ndarray]:
    a, b = _operand(op, args, 0, ofm_channels), _operand(op, args, 1, ofm_channels)
    if b.size and (int(b.min()) < 0 or int(b.max()) > 63):
        raise fail(op, f"shift amounts must lie in [0, 63], not [{int(b.min())}, {int(b.max())}]")
    a, b = np.broadcast_arrays(a, b)
    if op.name == "npu.shl":
        result = wrap32(np.left_shift(a, np.minimum(b, 32)))
    else:
        rounding = rounding_of(op)
        result = shift_round(a, b, "away_zero" if rounding == "tflite" else rounding)
    explicit = explicit_rescale(op)
    if explicit is not None and explicit != (1, 0):
        result = rescale(result, explicit[0], explicit[1], rounding_of(op))
    return [finish(op, result, args)]  # type: ignore[arg-type]


def _ratio_rescale(op: Operation, values: np.ndarray, factor: float = 1.0) -> np.ndarray:
    """``values`` times factor x ifm_scale / ofm_scale (TFLite rounding); unchanged at factor 1
    with equal scales or without scales."""
    s_in, s_out = scale(op.operands[0]), _out_scale(op)
    if s_in is None or s_out is None:
        s_in = s_out = 1.0
    real = factor * float(np.double(s_in) / np.double(s_out))
    if real == 1.0:
        return values
    multiplier, shift_ = quantise_scale(real)
    return rescale(values, multiplier, shift_, rounding_of(op))


@NPU.kernel(AbsOp)
def abs_(op: Operation, args: list[Any], *, ofm_rows: Rows = None, ofm_channels: Rows = None) -> list[np.ndarray]:
    return [finish(op, _ratio_rescale(op, np.abs(_operand(op, args, 0, ofm_channels))), args)]  # type: ignore[arg-type]


@NPU.kernel(LeakyReluOp)
def leaky_relu(op: Operation, args: list[Any], *, ofm_rows: Rows = None,
               ofm_channels: Rows = None) -> list[np.ndarray]:
    x = _operand(op, args, 0, ofm_channels)
    alpha = float(op.attr("alpha").value)  # type: ignore[union-attr]
    result = np.where(x >= 0, _ratio_rescale(op, x), _ratio_rescale(op, x, alpha))
    return [finish(op, result, args)]  # type: ignore[arg-type]


@NPU.kernel(ClzOp)
def clz(op: Operation, args: list[Any], *, ofm_rows: Rows = None, ofm_channels: Rows = None) -> list[np.ndarray]:
    values = np.asarray(args[0])
    if ofm_channels is not None:
        values = values[..., ofm_channels[0]:ofm_channels[1]]
    return [finish(op, leading_zeros(values), args)]  # type: ignore[arg-type]


__all__ = ["abs_", "add", "add_sub", "clz", "leaky_relu", "min_max", "mul", "shift"]
