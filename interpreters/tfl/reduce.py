"""Kernel of tfl.mean: the average over the listed axes.

Quantised (int8, int16): TFLite's reference kernel sums the stored values exactly, removes the
input zero point (count * zero), and applies one fixed-point multiplier that folds both the
rescale input_scale / output_scale and the division by the element count: the rescale's mantissa
is shifted left by min(floor(log2(count)), 32, 31 + exponent) bits, integer-divided by the count
and the exponent lowered by the same shift (so the folded multiplier loses the low bits of that
division, as TFLite's does). The result gets the output zero point and is clamped to the storage
range. Float: the sum in float64, divided by the count, rounded once to float32.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from npu_opt.dialects.tfl.common import TFL
from npu_opt.interpreters.tfl.fixed_point import multiply_by_quantized_multiplier, quantize_multiplier
from npu_opt.interpreters.tfl.quantize import quant_of
from npu_opt.dialects.tfl.ops_reduce import MeanOp
from npu_opt.ir.core import Operation
from npu_opt.ir.interpreter import fail, storage_dtype
from npu_opt.ir.types import QuantUniformType, element_type_of


def mean_multiplier(real: float, count: int) -> tuple[int, int]:
    """(mantissa, exponent) applying ``real / count`` the way TFLite's quantised mean folds the
    count into the rescale of ``real`` (see the module docstring)."""
    mantissa, exponent = quantize_multiplier(real)
    shift = min(count.bit_length() - 1, 32, 31 + exponent)
    return (mantissa << shift) // count, exponent - shift


def _axes(op: Operation, axis: np.ndarray, rank: int) -> tuple[int, ...]:
    """The distinct reduced dimensions, negative ones counted from the end."""
    resolved = []
    for a in np.ravel(axis).tolist():
        if not -rank <= a < rank:
            raise fail(op, f"axis {a} is outside the input's {rank} dimensions")
        if a % rank not in resolved:
            resolved.append(a % rank)
    return tuple(resolved)


@TFL.kernel(MeanOp)
def mean(op: Operation, args: list[Any]) -> list[np.ndarray]:
    """Average of the input over ``axis``, shaped as the result type (keep_dims or not)."""
    x, axis = args
    out_type = op.results[0].type
    axes = _axes(op, axis, x.ndim)
    count = int(np.prod([x.shape[a] for a in axes], dtype=np.int64))
    if count == 0:
        raise fail(op, "the reduced dimensions hold no elements")
    if not isinstance(element_type_of(out_type), QuantUniformType):
        total = x.astype(np.float64).sum(axis=axes)
        return [(total / count).astype(storage_dtype(out_type)).reshape(out_type.shape)]
    qi = quant_of(op, op.operands[0].type, "input")
    qo = quant_of(op, out_type, "output")
    total = x.astype(np.int64).sum(axis=axes) - count * qi.zero
    mantissa, exponent = mean_multiplier(np.float64(qi.scale) / np.float64(qo.scale), count)
    scaled = multiply_by_quantized_multiplier(total, mantissa, exponent) + qo.zero
    clamped = np.clip(scaled, qo.low, qo.high)
    return [clamped.astype(storage_dtype(out_type)).reshape(out_type.shape)]
