"""The buffers Vela sees behind the IR's offset views: values that are windows of one tensor.

A concatenation (``npu.concat``) is one buffer that each operand's producer writes at an offset,
and a slice (``npu.slice``) reads a window of its source in place. Vela has a single tensor for
each such group (the writers' and readers' ``write_offset``/``read_offsets`` point into it), so
its format is decided once for the whole group. Reshape views are not followed: they keep their
own shapes (npu-format-nhcwb16 leaves them linear).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from npu_opt.dialects.npu.ops_memory import ConcatOp, SliceOp
from npu_opt.ir.core import OpResult, Operation, Value


@dataclass
class SharedTensor:
    """One buffer: its ``members`` (IR values that are it or a window of it, in first-seen order),
    the ``views`` joining them, the depth offsets at which its windows start, and whether some
    part is written with strides (interleaved)."""

    members: list[Value] = field(default_factory=list)
    views: set[Operation] = field(default_factory=set)
    depth_offsets: set[int] = field(default_factory=set)
    strided: bool = False

    def is_view_of_it(self, op: Operation) -> bool:
        """Whether ``op`` is one of the views inside this buffer (not a reader of it)."""
        return op in self.views


def _slice_depth(op: SliceOp) -> int:
    """Depth offset of a slice in its root buffer (a slice of a slice adds up)."""
    depth = op.offset[3]
    source = op.operands[0]
    parent = source.op if isinstance(source, OpResult) else None
    return depth + (_slice_depth(parent) if isinstance(parent, SliceOp) else 0)


def shared_tensors(module: Operation) -> dict[Value, SharedTensor]:
    """Every value joined to others by a concatenation or a slice -> its buffer (values outside
    any such group are absent)."""
    parent: dict[Value, Value] = {}

    def find(value: Value) -> Value:
        parent.setdefault(value, value)
        while parent[value] is not value:
            parent[value] = parent[parent[value]]
            value = parent[value]
        return value

    joins: list[tuple[Operation, list[Value], list[int]]] = []
    for op in module.walk():
        if isinstance(op, ConcatOp):
            joins.append((op, [op.results[0], *op.operands], [o[3] for o in op.offsets]))
        elif isinstance(op, SliceOp):
            joins.append((op, [op.operands[0], op.results[0]], [_slice_depth(op)]))
    for _, values, _ in joins:
        for value in values[1:]:
            parent[find(value)] = find(values[0])
    groups: dict[Value, SharedTensor] = {}
    found: dict[Value, SharedTensor] = {}
    for op, values, depths in joins:
        group = groups.setdefault(find(values[0]), SharedTensor())
        group.views.add(op)
        group.depth_offsets.update(depths)
        group.strided = group.strided or (isinstance(op, ConcatOp) and op.steps() != (1, 1, 1, 1))
        for value in values:
            if value not in found:
                found[value] = group
                group.members.append(value)
    return found


__all__ = ["SharedTensor", "shared_tensors"]
