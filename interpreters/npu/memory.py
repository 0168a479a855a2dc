"""Kernels of the memory ops: reshape, slice, concat and dma. They move values without changing
them: a reshape views the same elements in another shape, a slice reads the box at its offset,
a concatenation places each operand at its offset (every ``strides`` element on each axis when
strided, so slices interleave), and a DMA copies its source.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from npu_opt.dialects.npu.dialect import NPU
from npu_opt.dialects.npu.ops_memory import ConcatOp, DmaOp, ReshapeOp, SliceOp
from npu_opt.ir.core import Operation
from npu_opt.ir.interpreter import fail, storage_dtype


def _result_shape(op: Operation) -> tuple[int, ...]:
    return tuple(op.results[0].type.shape)  # type: ignore[attr-defined]


@NPU.kernel(ReshapeOp)
def reshape(op: Operation, args: list[Any]) -> list[np.ndarray]:
    return [np.asarray(args[0]).reshape(_result_shape(op))]


@NPU.kernel(SliceOp)
def slice_(op: Operation, args: list[Any]) -> list[np.ndarray]:
    source = np.asarray(args[0])
    offset = op.attr("offset").values  # type: ignore[union-attr]
    box = tuple(slice(o, o + n) for o, n in zip(offset, _result_shape(op)))
    return [np.ascontiguousarray(source[box])]


@NPU.kernel(ConcatOp)
def concat(op: Operation, args: list[Any]) -> list[np.ndarray]:
    shape = _result_shape(op)
    out = np.zeros(shape, dtype=storage_dtype(op.results[0].type))
    written = np.zeros(shape, dtype=bool)
    steps = op.steps()  # type: ignore[attr-defined]
    for index, (part, offset) in enumerate(zip(args, op.attr("offsets"))):  # type: ignore[arg-type]
        part = np.asarray(part)
        box = tuple(slice(o, o + (n - 1) * t + 1, t) for o, n, t in zip(offset.values, part.shape, steps))
        if written[box].any():
            raise fail(op, f"slice #{index} at {list(offset.values)} overlaps an earlier slice")
        out[box] = part
        written[box] = True
    return [out]


@NPU.kernel(DmaOp)
def dma(op: Operation, args: list[Any], **_: Any) -> list[np.ndarray]:
    return [np.array(args[0], copy=True)]


__all__ = ["concat", "dma", "reshape", "slice_"]
