"""Where each value of a scheduled function lives: a memory area and an address map.

The scheduled IR places tensors, not values: ``#npu.alloc`` sits on the op defining a tensor
(``npu.arg_alloc`` on ``func.func`` for arguments), a concatenation's parts live inside the
concatenation's buffer at their offsets (strided when the concat says so), and a reshape or
slice view reads the bytes of the tensor it views. A cascade member with a ``rolling`` shape
keeps its OFM in a rolling buffer of that many rows. This module turns that into one address
map per value (see layout.py), so reading or writing any value, or any rows of it, is a gather
or scatter in its area's byte array. Constants are not placed: they stay in permanent storage
and are read as arrays.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from npu_opt.dialects.npu.ops_common import encoding_of
from npu_opt.dialects.npu.ops_memory import ConcatOp, SliceOp
from npu_opt.dialects.npu.schedule_attrs import (
    ALLOC_ATTR, ARG_ALLOC_ATTR, CASCADE_ATTR, STREAM_ATTR, AllocAttr, CascadeAttr,
)
from npu_opt.interpreters.scheduled.layout import address_map, footprint
from npu_opt.ir.attributes import ArrayAttr
from npu_opt.ir.core import BlockArgument, OpResult, Operation, Value
from npu_opt.ir.interpreter import InterpretError, storage_dtype
from npu_opt.ir.traits import ConstantLike, MemoryOnly
from npu_opt.ir.types import RankedTensorType


@dataclass(frozen=True)
class Place:
    """A value in memory: its area, the byte address of each element, and its storage dtype."""

    area: str
    addresses: np.ndarray
    dtype: np.dtype


def _shape(value: Value) -> tuple[int, ...]:
    t = value.type
    if not isinstance(t, RankedTensorType):
        raise InterpretError(f"a value of type {t} is not a ranked tensor, so it has no place in memory",
                             _location(value))
    return tuple(int(d) for d in t.shape)


def _location(value: Value):
    owner = value.op if isinstance(value, OpResult) else value.block.parent_op()
    return owner.diag_location() if owner is not None else None


def concat_of(value: Value) -> Operation | None:
    """The concatenation ``value`` is a part of (written in place into its buffer), if any."""
    return next((user for user in value.users() if isinstance(user, ConcatOp)), None)


def is_reshape_view(value: Value) -> bool:
    """A memory-only view of its first operand's elements in the same order (npu.reshape, and
    tfl.reshape / squeeze / expand_dims left on the CPU): it reads the bytes of that operand."""
    if not isinstance(value, OpResult) or isinstance(value.op, (SliceOp, ConcatOp)):
        return False
    op = value.op
    if not op.has_trait(MemoryOnly) or not op.operands:
        return False
    source, result = op.operands[0].type, value.type
    return (isinstance(source, RankedTensorType) and isinstance(result, RankedTensorType)
            and source.num_elements() == result.num_elements())


def is_constant_value(value: Value) -> bool:
    """A constant (weights, bias, table): kept in permanent storage, read as an array."""
    return isinstance(value, OpResult) and value.op.has_trait(ConstantLike)


class Placements:
    """Address maps of a function's values, computed on first use and kept."""

    def __init__(self, func: Operation) -> None:
        self.func = func
        self._places: dict[Value, Place] = {}
        args = func.attr(ARG_ALLOC_ATTR)
        self._arg_allocs = list(args.elements) if isinstance(args, ArrayAttr) else []

    # --- the tensors that own storage --------------------------------------------------------
    def alloc_of(self, value: Value) -> AllocAttr:
        """The ``#npu.alloc`` of a value owning storage (an argument or an op's result)."""
        if isinstance(value, BlockArgument):
            index = value.index
            alloc = self._arg_allocs[index] if index < len(self._arg_allocs) else None
            what = f"argument #{index}"
        else:
            alloc = value.op.attr(ALLOC_ATTR)
            what = f"the result of '{value.op.name}'"
        if not isinstance(alloc, AllocAttr):
            raise InterpretError(f"{what} has no #npu.alloc, so the scheduled run cannot place it in memory",
                                 _location(value))
        return alloc

    def rolling_rows(self, value: Value) -> int | None:
        """Rows of the rolling buffer ``value`` lives in (a cascade member's OFM), else None."""
        if not isinstance(value, OpResult):
            return None
        cascade = value.op.attr(CASCADE_ATTR)
        if isinstance(cascade, CascadeAttr) and cascade.rolling is not None:
            return cascade.rolling[0]
        return None

    def owners(self) -> list[Value]:
        """Every value that owns storage in the function (arguments and op results with an alloc)."""
        block = self.func.regions[0].entry
        assert block is not None
        found: list[Value] = list(block.args[:len(self._arg_allocs)])
        for op in block.ops:
            if (isinstance(op.attr(ALLOC_ATTR), AllocAttr) and op.results and concat_of(op.results[0]) is None
                    and not is_reshape_view(op.results[0])):
                found.append(op.results[0])
        return found

    def extent(self, value: Value) -> tuple[str, int]:
        """(area, first byte after) of an owner's storage: its alloc, or further if its layout
        needs more bytes than the alloc reserves (a broken schedule writes past its buffer)."""
        alloc = self.alloc_of(value)
        if isinstance(value, OpResult) and value.op.attr(STREAM_ATTR) is not None:
            return alloc.area, alloc.end  # weight buffers: weights.py keeps slices inside them
        fmt = self._format(value)
        rows = self.rolling_rows(value)
        need = footprint(_shape(value), storage_dtype(value.type).itemsize, fmt, rows) if _shape(value) else 4
        return alloc.area, alloc.offset + max(alloc.size, need)

    @staticmethod
    def _format(value: Value) -> str:
        enc = encoding_of(value)
        return enc.format if enc is not None else "NHWC"

    # --- any value ----------------------------------------------------------------------------
    def place(self, value: Value) -> Place:
        """The area and address map of ``value`` (through views and concatenations)."""
        found = self._places.get(value)
        if found is None:
            found = self._resolve(value)
            self._places[value] = found
        return found

    def _resolve(self, value: Value) -> Place:
        dtype = storage_dtype(value.type)
        if is_constant_value(value):
            raise InterpretError("a constant lives in permanent storage and has no address map here",
                                 _location(value))
        concat = concat_of(value)
        if concat is not None:
            whole = self.place(concat.results[0])
            index = list(concat.operands).index(value)
            offset = concat.offsets[index].values
            steps = concat.steps()
            box = tuple(slice(o, o + (n - 1) * s + 1, s) for o, n, s in zip(offset, _shape(value), steps))
            return Place(whole.area, whole.addresses[box], dtype)
        if is_reshape_view(value):
            source = self.place(value.op.operands[0])  # type: ignore[attr-defined]
            return Place(source.area, source.addresses.reshape(_shape(value)), dtype)
        if isinstance(value, OpResult) and isinstance(value.op, SliceOp):
            source = self.place(value.op.operands[0])
            offset = value.op.offset.values
            box = tuple(slice(o, o + n) for o, n in zip(offset, _shape(value)))
            return Place(source.area, source.addresses[box], dtype)
        alloc = self.alloc_of(value)
        shape = _shape(value)
        addresses = address_map(shape, dtype.itemsize, self._format(value), alloc.offset, self.rolling_rows(value))
        return Place(alloc.area, addresses, dtype)


__all__ = ["Place", "Placements", "concat_of", "is_constant_value", "is_reshape_view"]
