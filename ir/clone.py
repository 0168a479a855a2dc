"""Deep copies of operations: the same ops, values and regions, sharing the immutable parts.

A search that tries several schedules runs the remaining passes on a copy of the module per
candidate and keeps the original for the one it picks. Types, attributes and locations are
immutable and shared; operations, blocks, regions and SSA values are new. ``Clone.ops`` maps
each original op to its copy, so an analysis of the original (weight encodings, say) can be
handed to the copy instead of being computed again.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from npu_opt.ir.core import Block, Operation, Region, Value


@dataclass
class Clone:
    """The copy of one op and what each original op, value and block became in it."""

    root: Operation
    ops: dict[Operation, Operation] = field(default_factory=dict)
    values: dict[Value, Value] = field(default_factory=dict)
    blocks: dict[Block, Block] = field(default_factory=dict)


def clone(op: Operation) -> Clone:
    """A deep copy of ``op`` with its regions. Values defined outside ``op`` stay shared operands
    of the copy; values defined inside it must be defined before they are used (SSA order within
    each block, as the verifier requires of the regions npu-opt builds)."""
    result = Clone(op)
    result.root = _copy_op(op, result)
    return result


def _copy_op(op: Operation, state: Clone) -> Operation:
    regions = [_copy_region(region, state) for region in op.regions]
    operands = [state.values.get(value, value) for value in op.operands]
    successors = [state.blocks.get(block, block) for block in op.successors]
    copy = type(op)(op.name, operands, [result.type for result in op.results], dict(op.attributes),
                    dict(op.properties), regions, successors, op.location, op.pos)
    for old, new in zip(op.results, copy.results):
        state.values[old] = new
    state.ops[op] = copy
    return copy


def _copy_region(region: Region, state: Clone) -> Region:
    copies: list[Block] = []
    for block in region.blocks:  # every block first, so branches may name a later one
        fresh = Block([arg.type for arg in block.args])
        for old, new in zip(block.args, fresh.args):
            new.location = old.location
            state.values[old] = new
        state.blocks[block] = fresh
        copies.append(fresh)
    for block, fresh in zip(region.blocks, copies):
        for op in block.ops:
            fresh.append(_copy_op(op, state))
    return Region(copies)


__all__ = ["Clone", "clone"]
