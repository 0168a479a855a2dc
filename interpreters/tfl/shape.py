"""Kernels of the tfl ops that rearrange elements without computing new ones: reshape, squeeze,
expand_dims, transpose, concatenation, pack, unpack, shape and arg_max, plus the located error
for the operators outside the dialect (tfl.custom, tfl.unsupported).

Values stay in their storage type, so moving them is exact. The one op here that may change
values is a quantised concatenation whose inputs are quantised differently from its output;
it follows TFLite (see ``concatenation``). The small helpers at the top (index operands, axes,
result shapes) are shared with the slicing and resize kernels.
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from npu_opt.dialects.tfl.common import TFL
from npu_opt.dialects.tfl.ops_misc import CustomOp, UnsupportedOp
from npu_opt.dialects.tfl.ops_reduce import ArgMaxOp
from npu_opt.dialects.tfl.ops_shape import (
    ConcatenationOp, ExpandDimsOp, PackOp, ReshapeOp, ShapeOp, SqueezeOp, TransposeOp, UnpackOp,
)
from npu_opt.ir.core import Operation, Value
from npu_opt.ir.interpreter import fail, storage_dtype
from npu_opt.ir.types import DYNAMIC, QuantUniformType, RankedTensorType, element_type_of


# ---------------------------------------------------------------------------------------------
# Helpers shared by the data-movement kernels


def index_values(op: Operation, array: np.ndarray | None, what: str) -> list[int]:
    """The integers of an index operand (begin, size, perm, axis ...) as a flat list."""
    if array is None:
        raise fail(op, f"its {what} operand is absent")
    if array.dtype.kind not in "iu":
        raise fail(op, f"its {what} operand holds {array.dtype} values, not integers")
    return [int(v) for v in np.asarray(array).reshape(-1).tolist()]


def one_axis(op: Operation, array: np.ndarray | None, rank: int, what: str) -> int:
    """A single axis held by an operand, in [-rank, rank), made non-negative."""
    values = index_values(op, array, what)
    if len(values) != 1:
        raise fail(op, f"{what} holds {len(values)} values, it must hold exactly one")
    return normalise_axis(op, values[0], rank, what)


def normalise_axis(op: Operation, axis: int, rank: int, what: str = "axis") -> int:
    """``axis`` in [-rank, rank) made non-negative; an error naming the range otherwise."""
    if not -rank <= axis < rank:
        raise fail(op, f"{what} {axis} is outside [{-rank}, {rank}) for rank {rank}")
    return axis + rank if axis < 0 else axis


def shaped_result(op: Operation, index: int, array: np.ndarray) -> np.ndarray:
    """``array`` as result ``index``: in the result's storage dtype, checked against its
    declared shape (dynamic dimensions accept any size)."""
    t = op.results[index].type
    if isinstance(t, RankedTensorType):
        declared = t.shape
        if len(declared) != array.ndim or any(d not in (DYNAMIC, a) for d, a in zip(declared, array.shape)):
            raise fail(op, f"result #{index} computes to shape {list(array.shape)} but is declared "
                           f"{list(declared)}")
        dtype = storage_dtype(t)
        if array.dtype != dtype:
            array = array.astype(dtype)
    return np.ascontiguousarray(array)


def round_half_away(x: np.ndarray) -> np.ndarray:
    """Round to the nearest integer, ties away from zero (C's ``round``, TFLite's TfLiteRound),
    exactly: ``x - trunc(x)`` is exact in floating point, so no 0.5 is added to ``x``."""
    whole = np.trunc(x)
    return whole + np.where(np.abs(x - whole) >= 0.5, np.sign(x), 0).astype(x.dtype)


def quant_of(value: Value) -> QuantUniformType | None:
    """The per-tensor quantisation of a value's elements, None for a non-quantised value."""
    elem = element_type_of(value.type)
    return elem if isinstance(elem, QuantUniformType) else None


def zero_point_of(value: Value) -> int:
    """The zero point of a per-tensor quantised value; 0 for other values."""
    quant = quant_of(value)
    return int(quant.zero_points[0]) if quant is not None and quant.axis is None else 0


# ---------------------------------------------------------------------------------------------
# Reshapes: the elements in their row-major order, in the declared result shape


@TFL.kernel(ReshapeOp, SqueezeOp, ExpandDimsOp)
def reshape(op: Any, args: list[Any]) -> list[np.ndarray]:
    """Reshape, squeeze and expand_dims keep the row-major order of the elements, so each is a
    reshape to the result's shape (from its type, or from the operand for a dynamic result)."""
    data = args[0]
    t = op.results[0].type
    if isinstance(t, RankedTensorType) and DYNAMIC not in t.shape:
        shape: Sequence[int] = t.shape
    elif op.name == "tfl.reshape":
        shape = index_values(op, args[1], "shape")
    elif op.name == "tfl.expand_dims":
        axis = one_axis(op, args[1], data.ndim + 1, "dim")
        shape = data.shape[:axis] + (1,) + data.shape[axis:]
    else:
        dims = [normalise_axis(op, int(d), data.ndim, "squeeze dimension") for d in op.squeeze_dims]
        dims = dims or [i for i, size in enumerate(data.shape) if size == 1]
        shape = [size for i, size in enumerate(data.shape) if i not in dims]
    if int(np.prod(shape)) != data.size and -1 not in shape:
        raise fail(op, f"the input's {data.size} elements cannot take the shape {list(shape)}")
    return [shaped_result(op, 0, data.reshape(shape))]


@TFL.kernel(TransposeOp)
def transpose(op: Operation, args: list[Any]) -> list[np.ndarray]:
    """Output dimension i is input dimension perm[i] (each index in [0, rank), as TFLite wants)."""
    data = args[0]
    perm = index_values(op, args[1], "perm")
    if sorted(perm) != list(range(data.ndim)):
        raise fail(op, f"perm {perm} is not a permutation of the input's {data.ndim} dimensions")
    return [shaped_result(op, 0, np.transpose(data, perm))]


# ---------------------------------------------------------------------------------------------
# Joining and splitting along an axis


def _rescale_like_tflite(values: np.ndarray, source: QuantUniformType, target: QuantUniformType,
                         dtype: np.dtype) -> np.ndarray:
    """Move stored integers from ``source``'s quantisation to ``target``'s with TFLite's
    quantised concatenation arithmetic: in float32, scale = s_in * (1 / s_out),
    offset = -zp_in * scale, stored = round_half_away(x * scale + offset) + zp_out, clamped."""
    one = np.float32(1.0)
    scale = np.float32(source.scales[0]) * (one / np.float32(target.scales[0]))
    offset = np.float32(-source.zero_points[0]) * scale
    real = values.astype(np.float32) * scale + offset
    rounded = round_half_away(real).astype(np.int64)
    info = np.iinfo(dtype)
    return np.clip(rounded + int(target.zero_points[0]), info.min, info.max).astype(dtype)


@TFL.kernel(ConcatenationOp)
def concatenation(op: ConcatenationOp, args: list[Any]) -> list[np.ndarray]:
    """Join the inputs along ``axis``. TFLite allows no fused activation here. Quantised inputs
    whose scale or zero point differ from the output's are re-expressed in the output's
    quantisation first, with the float rescale TFLite's uint8 concatenation uses (TFLite itself
    rejects such int8 inputs, and copies int16 inputs unchanged, since their zero points must be 0
    and it ignores their scales -- that copy is what is done for int16 here too)."""
    if op.fused_activation_function != "NONE":
        raise fail(op, f"fused activation '{op.fused_activation_function}' is not supported "
                       "on a concatenation (TFLite accepts only NONE)")
    first = args[0]
    axis = normalise_axis(op, op.axis, first.ndim)
    target = quant_of(op.results[0])
    dtype = storage_dtype(op.results[0].type)
    parts = []
    for value, array in zip(op.operands, args):
        source = quant_of(value)
        needs_rescale = (source is not None and target is not None and dtype != np.int16
                         and (source.scales, source.zero_points) != (target.scales, target.zero_points))
        if needs_rescale:
            if source.axis is not None or target.axis is not None:
                raise fail(op, "per-axis quantised inputs cannot be requantised by a concatenation")
            array = _rescale_like_tflite(array, source, target, dtype)
        parts.append(array)
    return [shaped_result(op, 0, np.concatenate(parts, axis=axis))]


@TFL.kernel(PackOp)
def pack(op: PackOp, args: list[Any]) -> list[np.ndarray]:
    """Stack the inputs along a new dimension ``axis`` (in [-(rank+1), rank+1))."""
    axis = normalise_axis(op, op.axis, args[0].ndim + 1)
    return [shaped_result(op, 0, np.stack(args, axis=axis))]


@TFL.kernel(UnpackOp)
def unpack(op: UnpackOp, args: list[Any]) -> list[np.ndarray]:
    """Slice the input along ``axis`` into ``num`` results, dropping that dimension."""
    data = args[0]
    axis = normalise_axis(op, op.axis, data.ndim)
    if data.shape[axis] != len(op.results):
        raise fail(op, f"dimension {axis} has size {data.shape[axis]}, not the {len(op.results)} "
                       "results to unpack into")
    return [shaped_result(op, i, np.take(data, i, axis=axis)) for i in range(len(op.results))]


# ---------------------------------------------------------------------------------------------
# Facts about a tensor


@TFL.kernel(ShapeOp)
def shape(op: Operation, args: list[Any]) -> list[np.ndarray]:
    """The input's dimensions, in the result's integer type (i32 or i64)."""
    return [shaped_result(op, 0, np.asarray(args[0].shape, dtype=np.int64))]


@TFL.kernel(ArgMaxOp)
def arg_max(op: Operation, args: list[Any]) -> list[np.ndarray]:
    """Index of the largest element along ``dim``, the first one on ties (TFLite keeps a
    candidate unless a later one is strictly greater; NaNs never win)."""
    data = args[0]
    axis = one_axis(op, args[1], data.ndim, "dim")
    if data.shape[axis] == 0:
        raise fail(op, f"dimension {axis} is empty, it has no largest element")
    if data.dtype.kind != "f" or not np.isnan(data).any():
        return [shaped_result(op, 0, np.argmax(data, axis=axis))]
    nan = np.isnan(data)
    best = np.argmax(np.where(nan, -np.inf, data), axis=axis)
    # A NaN first element is never displaced (no comparison with it is true).
    first_is_nan = np.take(nan, 0, axis=axis)
    return [shaped_result(op, 0, np.where(first_is_nan, 0, best))]


# ---------------------------------------------------------------------------------------------
# Operators the dialect keeps opaque


@TFL.kernel(CustomOp, UnsupportedOp)
def opaque_operator(op: Any, args: list[Any]) -> list[np.ndarray]:
    """A CUSTOM operator or a builtin outside the dialect has no semantics here: a located
    error naming the operator."""
    if op.name == "tfl.custom":
        raise fail(op, f"custom operator '{op.custom_code}' has no reference kernel")
    raise fail(op, f"TFLite builtin operator {op.opcode} (code {op.builtin_code}) "
                   "is outside the tfl dialect and has no kernel")


__all__ = ["arg_max", "concatenation", "index_values", "normalise_axis", "one_axis",
           "opaque_operator", "pack", "quant_of", "reshape", "round_half_away", "shaped_result", "shape",
           "transpose", "unpack", "zero_point_of"]
