"""Kernels of the tfl ops that cut tensors into pieces or pad them: pad, padv2, slice,
strided_slice, split and split_v.

All of them only select or add elements, so they work on the stored integers directly; the
one value they invent is the padding, which for a quantised tensor is a stored integer too
(the output's zero point for tfl.pad, i.e. real zero).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from npu_opt.dialects.tfl.common import TFL
from npu_opt.interpreters.tfl.shape import (
    index_values, one_axis, quant_of, shaped_result, zero_point_of,
)
from npu_opt.dialects.tfl.ops_slice import (
    PadOp, PadV2Op, SliceOp, SplitOp, SplitVOp, StridedSliceOp,
)
from npu_opt.ir.core import Operation
from npu_opt.ir.interpreter import fail


# ---------------------------------------------------------------------------------------------
# Padding


def _paddings(op: Operation, array: np.ndarray | None, rank: int) -> list[tuple[int, int]]:
    """The (before, after) amounts of each dimension: ``padding`` is a [rank, 2] tensor of
    non-negative integers."""
    values = index_values(op, array, "padding")
    if len(values) != 2 * rank:
        raise fail(op, f"padding holds {len(values)} values, a rank-{rank} input needs {2 * rank}")
    pairs = [(values[2 * i], values[2 * i + 1]) for i in range(rank)]
    for dim, (before, after) in enumerate(pairs):
        if before < 0 or after < 0:
            raise fail(op, f"padding ({before}, {after}) of dimension {dim} is negative")
    return pairs


def _pad_value(op: Operation, args: list[Any]) -> int | float:
    """The stored value the padding is filled with: padv2's ``constant_values`` when given (its
    quantisation must be the output's, as TFLite requires), else the output's zero point (real 0)."""
    given = args[2] if op.name == "tfl.padv2" and len(args) > 2 else None
    if given is None:
        return zero_point_of(op.results[0])
    if given.size != 1:
        raise fail(op, f"constant_values holds {given.size} values, it must be a scalar")
    source, target = quant_of(op.operands[2]), quant_of(op.results[0])
    if source is not None and target is not None and (
            (source.scales, source.zero_points) != (target.scales, target.zero_points)):
        raise fail(op, f"constant_values is quantised with scale {source.scales[0]} and zero point "
                       f"{source.zero_points[0]}, the output with {target.scales[0]} and "
                       f"{target.zero_points[0]}: they must agree")
    return given.reshape(-1)[0].item()


@TFL.kernel(PadOp, PadV2Op)
def pad(op: Operation, args: list[Any]) -> list[np.ndarray]:
    """Surround the input with ``padding`` elements of the pad value in every dimension."""
    data = args[0]
    pairs = _paddings(op, args[1], data.ndim)
    value = _pad_value(op, args)
    return [shaped_result(op, 0, np.pad(data, pairs, mode="constant", constant_values=value))]


# ---------------------------------------------------------------------------------------------
# Slices


@TFL.kernel(SliceOp)
def slice_(op: Operation, args: list[Any]) -> list[np.ndarray]:
    """``size[i]`` elements from ``begin[i]`` in each dimension; size -1 takes the rest. The
    slice must lie inside the input, as TFLite checks."""
    data = args[0]
    begin = index_values(op, args[1], "begin")
    size = index_values(op, args[2], "size")
    if len(begin) != data.ndim or len(size) != data.ndim:
        raise fail(op, f"begin and size hold {len(begin)} and {len(size)} values for a rank-"
                       f"{data.ndim} input")
    window = []
    for dim, (start, count, extent) in enumerate(zip(begin, size, data.shape)):
        stop = extent if count == -1 else start + count
        if start < 0 or count < -1 or stop > extent:
            raise fail(op, f"slice [{start}, {stop}) of dimension {dim} is outside its size {extent}")
        window.append(slice(start, stop))
    return [shaped_result(op, 0, data[tuple(window)])]


def _strided_index(op: StridedSliceOp, rank: int, begin: list[int], end: list[int],
                   strides: list[int], shape: tuple[int, ...]) -> tuple[Any, ...]:
    """The numpy index that TensorFlow's strided-slice spec describes.

    Entry i of the spec is: the ellipsis (bit i of ellipsis_mask; it stands for every dimension
    the other entries leave out), a new size-1 axis (new_axis_mask), a single index that removes
    its dimension (shrink_axis_mask), or the range begin[i]:end[i]:strides[i] whose begin / end
    is open when begin_mask / end_mask has bit i. Out-of-range bounds clamp as Python's do;
    ``offset`` makes end relative to begin. Dimensions after the spec are taken whole."""
    index: list[Any] = []
    dim = 0  # the input dimension entry i refers to
    seen_ellipsis = False
    consuming = sum(1 for i in range(len(begin))
                    if not (op.ellipsis_mask >> i & 1) and not (op.new_axis_mask >> i & 1))
    for i, (b, e, s) in enumerate(zip(begin, end, strides)):
        if op.ellipsis_mask >> i & 1:
            if seen_ellipsis:
                raise fail(op, f"ellipsis_mask {op.ellipsis_mask} marks more than one ellipsis")
            seen_ellipsis = True
            index.append(Ellipsis)
            dim += rank - consuming
            continue
        if op.new_axis_mask >> i & 1:
            index.append(np.newaxis)
            continue
        if dim >= rank:
            raise fail(op, f"the slice spec has more entries than the input's {rank} dimensions")
        extent = shape[dim]
        if s == 0:
            raise fail(op, f"stride {i} is zero")
        if op.shrink_axis_mask >> i & 1:
            at = 0 if op.begin_mask >> i & 1 else b
            if not -extent <= at < extent:
                raise fail(op, f"index {at} of dimension {dim} is outside its size {extent}")
            index.append(at)
        else:
            start = None if op.begin_mask >> i & 1 else b
            stop = None if op.end_mask >> i & 1 else e
            if op.offset and start is not None and stop is not None:
                stop = start + stop
            index.append(slice(start, stop, s))
        dim += 1
    return tuple(index)


@TFL.kernel(StridedSliceOp)
def strided_slice(op: StridedSliceOp, args: list[Any]) -> list[np.ndarray]:
    """Strided slice with TensorFlow's five bit masks (see ``_strided_index``); negative strides
    walk backwards."""
    data = args[0]
    begin = index_values(op, args[1], "begin")
    end = index_values(op, args[2], "end")
    strides = index_values(op, args[3], "strides")
    if not len(begin) == len(end) == len(strides):
        raise fail(op, f"begin, end and strides hold {len(begin)}, {len(end)} and {len(strides)} "
                       "values: they must hold the same number")
    index = _strided_index(op, data.ndim, begin, end, strides, data.shape)
    return [shaped_result(op, 0, data[index])]


# ---------------------------------------------------------------------------------------------
# Splits


def _split_at(op: Operation, data: np.ndarray, axis: int, sizes: list[int]) -> list[np.ndarray]:
    """``data`` cut along ``axis`` into consecutive parts of ``sizes``, one per result."""
    bounds = np.cumsum(sizes)[:-1].tolist()
    parts = np.split(data, bounds, axis=axis)
    return [shaped_result(op, i, part) for i, part in enumerate(parts)]


@TFL.kernel(SplitOp)
def split(op: SplitOp, args: list[Any]) -> list[np.ndarray]:
    """``num_splits`` equal parts along ``split_dim``, which they must divide."""
    data = args[1]
    axis = one_axis(op, args[0], data.ndim, "split_dim")
    count = len(op.results)
    if count <= 0 or data.shape[axis] % count:
        raise fail(op, f"dimension {axis} of size {data.shape[axis]} cannot be split into {count} "
                       "equal parts")
    return _split_at(op, data, axis, [data.shape[axis] // count] * count)


@TFL.kernel(SplitVOp)
def split_v(op: SplitVOp, args: list[Any]) -> list[np.ndarray]:
    """Parts of ``size_splits`` along ``split_dim``; one size may be -1, the remainder."""
    data = args[0]
    axis = one_axis(op, args[2], data.ndim, "split_dim")
    sizes = index_values(op, args[1], "size_splits")
    extent = data.shape[axis]
    if len(sizes) != len(op.results):
        raise fail(op, f"size_splits holds {len(sizes)} sizes for {len(op.results)} results")
    if sizes.count(-1) > 1 or any(s < -1 for s in sizes):
        raise fail(op, f"size_splits {sizes} may hold one -1 and otherwise sizes >= 0")
    if -1 in sizes:
        sizes[sizes.index(-1)] = extent - (sum(sizes) + 1)
    if sum(sizes) != extent or min(sizes, default=0) < 0:
        raise fail(op, f"size_splits {sizes} do not add up to dimension {axis} of size {extent}")
    return _split_at(op, data, axis, sizes)


__all__ = ["pad", "slice_", "split", "split_v", "strided_slice"]
