"""Kernels of the NPU's pooling operations (avg_pool, max_pool, reduce_sum), scaled as Vela
programs them.

Design notes: docs/interpreter_design.md, section npu kernels: pooling (kernels/pool)."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from npu_opt.dialects.npu.dialect import NPU
from npu_opt.interpreters.npu.arith import (
    explicit_rescale, finish, ifm_zero_point, rescale, rounding_of, scale, target_quant, to_ofm,
)
from npu_opt.interpreters.npu.windows import input_window, sliding
from npu_opt.dialects.npu.ops_common import quant_of, storage_of
from npu_opt.dialects.npu.ops_pool import AvgPoolOp, MaxPoolOp, ReduceSumOp
from npu_opt.dialects.npu.quant import pooling_scale, quantise_scale, round_away_zero
from npu_opt.ir.core import Operation
from npu_opt.ir.interpreter import fail

Rows = tuple[int, int] | None
FAR_BELOW = -(1 << 40)
"""Padding of a max pool: below every stored value, so it never wins."""


def _window_sums(op: Operation, values: np.ndarray, fill: float, ofm_rows: Rows, reduce: str) -> np.ndarray:
    """Per OFM element, the sum (or max) of ``values`` over its window (padding = ``fill``)."""
    shape = op.results[0].type.shape  # type: ignore[attr-defined]
    first, last = ofm_rows if ofm_rows is not None else (0, shape[1])
    window = input_window(op, values, fill, ofm_rows, shape[1])
    kernel = op.kernel  # type: ignore[attr-defined]
    out = None
    for _, view in sliding(window, kernel, last - first, shape[2]):
        out = view.copy() if out is None else (out + view if reduce == "sum" else np.maximum(out, view))
    assert out is not None
    return out


def _same_quant(op: Operation) -> bool:
    a, b = quant_of(op.operands[0]), target_quant(op)
    if a is None or b is None:
        return a is None and b is None
    return a.scales[0] == b.scales[0] and a.zero_points[0] == b.zero_points[0]


def _writes_concat(op: Operation) -> bool:
    """Does the op write its result into a concatenation (Vela's ConcatSliceWrite)?"""
    uses = op.results[0].uses
    return len(uses) == 1 and uses[0][0].name == "npu.concat"


def _builtin(op: Operation, x: np.ndarray, kind: str) -> np.ndarray:
    """The NPU's built-in tanh/sigmoid of a 1x1 pool, in float64, requantised to the OFM."""
    in_scale = scale(op.operands[0]) or 1.0
    out_q = target_quant(op)
    out_scale, out_zp = (float(out_q.scales[0]), int(out_q.zero_points[0])) if out_q is not None else (1.0, 0)
    real = x.astype(np.float64) * in_scale
    y = np.tanh(real) if kind == "tanh" else 1.0 / (1.0 + np.exp(-real))
    q = np.round(y / out_scale) + out_zp
    act = op.activation_attr()  # type: ignore[attr-defined]
    return to_ofm(op, np.clip(q, act.min, act.max).astype(np.int64))


def _bounds_without_zero_point(op: Operation, act: Any) -> tuple[int, int]:
    """The clamp of an average pool whose OFM zero point the NPU does not add: npu-legalize put
    the zero point into the bounds, the NPU's registers hold them without it (a bound at the
    OFM type's limit, no clamp, stays)."""
    quant = quant_of(op.results[0])
    zero = int(quant.zero_points[0]) if quant is not None else 0
    storage = storage_of(op.results[0].type)
    if not zero or storage is None:
        return act.min, act.max
    bits = storage.width
    limits = (0, (1 << bits) - 1) if getattr(storage, "is_unsigned", False) else (-(1 << (bits - 1)), (1 << (bits - 1)) - 1)
    return tuple(bound if bound == limit else bound - zero  # type: ignore[return-value]
                 for bound, limit in zip((act.min, act.max), limits))


@NPU.kernel(AvgPoolOp)
def avg_pool(op: Operation, args: list[Any], *, ofm_rows: Rows = None, ofm_channels: Rows = None) -> list[np.ndarray]:
    ifm = np.asarray(args[0], dtype=np.int64)
    if ofm_channels is not None:
        ifm = ifm[..., ofm_channels[0]:ofm_channels[1]]
    act = op.activation_attr()  # type: ignore[attr-defined]
    explicit = explicit_rescale(op)
    kernel = op.kernel  # type: ignore[attr-defined]
    if act.kind in ("tanh", "sigmoid"):
        if kernel.elements != 1:
            raise fail(op, f"the built-in '{act.kind}' runs on a 1x1 pool, not a {kernel.height}x{kernel.width} one")
        return [_builtin(op, ifm - ifm_zero_point(op.operands[0]), act.kind)]
    concat = _writes_concat(op)
    requantise = kernel.elements == 1 and not _same_quant(op) and not concat
    raw = explicit is None and not concat and not requantise
    zp = 0 if raw else ifm_zero_point(op.operands[0])
    sums = _window_sums(op, (ifm - zp).astype(np.float64), 0.0, ofm_rows, "sum").astype(np.int64)
    if explicit is not None:
        return [finish(op, rescale(sums, explicit[0], explicit[1], rounding_of(op)), args)]  # type: ignore[arg-type]
    in_scale, out_q = scale(op.operands[0]), target_quant(op)
    ratio = 1.0 if in_scale is None or out_q is None else float(np.float32(in_scale) / np.float32(out_q.scales[0]))
    if raw:
        counts = _window_sums(op, np.ones((1,) + ifm.shape[1:3] + (1,), dtype=np.float64), 0.0, ofm_rows,
                              "sum").astype(np.int64)
        pairs = {int(n): pooling_scale(int(n)) for n in np.unique(counts)}
        multipliers = np.vectorize(lambda n: pairs[int(n)][0], otypes=[np.int64])(counts)
        shifts = np.vectorize(lambda n: pairs[int(n)][1], otypes=[np.int64])(counts)
        if ratio != 1.0:
            multipliers = np.vectorize(lambda m: round_away_zero(int(m) * float(np.double(ratio))),
                                       otypes=[np.int64])(multipliers)
        return [finish(op, rescale(sums, multipliers, shifts, rounding_of(op)), args, 0,  # type: ignore[arg-type]
                       _bounds_without_zero_point(op, act))]
    if concat:
        bits = 0
        if ratio > 1:
            bits = len(bin(math.ceil(ratio))) - 2 + 1
        elif ratio < 1:
            bits = -(len(bin(math.ceil(1 / ratio))) - 2 - 1)
        multiplier, shift = pooling_scale(kernel.elements, bits)
        multiplier = round_away_zero(multiplier * float(np.double(ratio)))
        rounding = "half_up" if kernel.elements == 1 else rounding_of(op)
    else:
        multiplier, shift = quantise_scale(float(np.double(in_scale) / np.double(out_q.scales[0])))  # type: ignore
        rounding = rounding_of(op)
    return [finish(op, rescale(sums, multiplier, shift, rounding), args)]  # type: ignore[arg-type]


@NPU.kernel(MaxPoolOp)
def max_pool(op: Operation, args: list[Any], *, ofm_rows: Rows = None, ofm_channels: Rows = None) -> list[np.ndarray]:
    ifm = np.asarray(args[0], dtype=np.int64)
    if ofm_channels is not None:
        ifm = ifm[..., ofm_channels[0]:ofm_channels[1]]
    zp = ifm_zero_point(op.operands[0])
    best = _window_sums(op, ifm - zp, FAR_BELOW, ofm_rows, "max")
    explicit = explicit_rescale(op)
    if explicit is None:
        in_scale, out_q = scale(op.operands[0]), target_quant(op)
        if in_scale is not None and out_q is not None and in_scale != out_q.scales[0]:
            explicit = quantise_scale(float(np.double(in_scale) / np.double(out_q.scales[0])))
    scaled = best if explicit is None else rescale(best, explicit[0], explicit[1], rounding_of(op))
    return [finish(op, scaled, args)]  # type: ignore[arg-type]


@NPU.kernel(ReduceSumOp)
def reduce_sum(op: Operation, args: list[Any], *, ofm_rows: Rows = None, ofm_channels: Rows = None) -> list[np.ndarray]:
    ifm = np.asarray(args[0], dtype=np.int64)
    total = (ifm - ifm_zero_point(op.operands[0])).sum(axis=3, keepdims=True)
    explicit = explicit_rescale(op)
    scaled = total if explicit is None else rescale(total, explicit[0], explicit[1], rounding_of(op))
    return [finish(op, scaled, args)]  # type: ignore[arg-type]


__all__ = ["avg_pool", "max_pool", "reduce_sum"]
