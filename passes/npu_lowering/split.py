"""Lowering of the operators that read parts of a tensor: SPLIT, SPLIT_V, SLICE, STRIDED_SLICE
(unit strides) and UNPACK, as Vela does (``rewrite_split_ops``, ``remove_SplitSliceRead``).

Each output is a box of the input's 4-D view at an offset: an ``npu.slice`` named after the
operator. Vela moves such a read into the ops consuming it (they read at the offset, no copy)
when every consumer is an NPU op that can (not a reshape-like op, a split, a transpose or a
broadcasting elementwise op; not a graph output) and the box has the output's 4-D shape;
otherwise a 1x1 average pool copies the box (``<name>_avgpool``).
"""
from __future__ import annotations

import numpy as np

from npu_opt.dialects.npu.attrs import OffsetAttr
from npu_opt.dialects.npu.ops_memory import SliceOp
from npu_opt.ir.core import Operation, Value
from npu_opt.ir.types import element_type_of
from npu_opt.passes.npu_lowering.builder import tensor
from npu_opt.passes.npu_lowering.context import Lowering
from npu_opt.passes.npu_lowering.pool import avgpool_nop
from npu_opt.passes.npu_lowering.view import BINARY, constant, shape4, shape_list, strided_slice_bounds, view_of

Box = tuple[tuple[int, ...], tuple[int, ...]]
NO_READ_OFFSETS = ("tfl.reshape", "tfl.squeeze", "tfl.expand_dims", "tfl.transpose", "tfl.split", "tfl.split_v",
                   "tfl.slice", "tfl.strided_slice", "tfl.unpack")
"""Consumers Vela cannot move a split read into."""


def _axis(value: Value | None, rank: int) -> int:
    array = constant(value)
    assert array is not None
    axis = int(np.reshape(array, -1)[0])
    return axis + rank if axis < 0 else axis


def _along(source4: tuple[int, ...], axis4: int, sizes: list[int]) -> list[Box]:
    boxes, start = [], 0
    for size in sizes:
        offset = [0, 0, 0, 0]
        offset[axis4] = start
        shape = list(source4)
        shape[axis4] = size
        boxes.append((tuple(offset), tuple(shape)))
        start += size
    return boxes


def read_boxes(op: Operation) -> list[Box]:
    """(offset, shape) in the input's 4-D view of each output."""
    name = op.name
    source = op.operands[1] if name == "tfl.split" else op.operands[0]
    shape = shape_list(source) or []
    rank, pad = len(shape), 4 - len(shape)
    source4 = shape4(shape)
    if name == "tfl.split":
        axis = _axis(op.operands[0], rank)
        return _along(source4, axis + pad, [shape[axis] // len(op.results)] * len(op.results))
    if name == "tfl.split_v":
        axis = _axis(op.operands[2], rank)
        sizes = [int(s) for s in np.reshape(constant(op.operands[1]), -1)]  # type: ignore[arg-type]
        if -1 in sizes:
            sizes[sizes.index(-1)] = shape[axis] - (sum(sizes) + 1)
        return _along(source4, axis + pad, sizes)
    if name == "tfl.unpack":
        axis = view_of(op).int("axis")
        axis = axis + rank if axis < 0 else axis
        return _along(source4, axis + pad, [1] * len(op.results))
    if name == "tfl.slice":
        begin = [int(b) for b in np.reshape(constant(op.operands[1]), -1)]  # type: ignore[arg-type]
        size = [int(s) for s in np.reshape(constant(op.operands[2]), -1)]  # type: ignore[arg-type]
        size = [d - b if s == -1 else s for d, b, s in zip(shape, begin, size)]
        return [((0,) * pad + tuple(begin), (1,) * pad + tuple(size))]
    begin, end = strided_slice_bounds(op)
    size = [min(e, d) - b for b, e, d in zip(begin, end, shape)]
    return [((0,) * pad + tuple(begin), (1,) * pad + tuple(size))]


def _movable(output: Value, box_shape: tuple[int, ...], lowering: Lowering) -> bool:
    """Whether Vela moves the read of ``output`` into its consumers."""
    if box_shape != shape4(shape_list(output) or []) or not output.uses:
        return False
    for user in output.users():
        if user.dialect != "tfl" or not lowering.on_npu(user) or user.name in NO_READ_OFFSETS:
            return False
        view = view_of(user)
        if view.ifm is output:
            consumer = shape4(shape_list(view.ifm) or [])
        elif view.ifm2 is output:
            consumer = shape4(shape_list(view.ifm2) or [])
        else:
            return False
        if any(r > c for r, c in zip(box_shape, consumer)):
            return False
        if user.name in BINARY and shape4(shape_list(view.ofm) or []) != box_shape:
            return False
    return True


def lower_split(op: Operation, lowering: Lowering) -> None:
    b = lowering.builder(op)
    source = op.operands[1] if op.name == "tfl.split" else op.operands[0]
    source4 = shape4(shape_list(source) or [])
    view = b.reshape(source, source4)
    values = []
    for output, (offset, shape) in zip(op.results, read_boxes(op)):
        elem = element_type_of(output.type)
        part = view
        if tuple(shape) != tuple(source4):
            part = b.npu(SliceOp, [view], tensor(shape, element_type_of(source.type)), offset=OffsetAttr(offset))
        if not _movable(output, tuple(shape), lowering) or element_type_of(source.type) is not elem:
            part = avgpool_nop(b, part, tensor(shape, elem), b.name + "_avgpool")
        values.append(part)
    b.finish(op, values)


__all__ = ["lower_split", "read_boxes"]
