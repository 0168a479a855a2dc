"""The one API through which passes change IR.

Every change goes through a Rewriter, which keeps use lists and built dataflow graphs consistent,
notifies listeners (the greedy driver's worklist, --print-ir-after-change), and counts what it did,
so "changed" is observed rather than claimed and passes get statistics for free.
"""
from __future__ import annotations

from collections import Counter
from contextlib import contextmanager
from typing import Iterator, Protocol, Sequence

from npu_opt.ir import dataflow
from npu_opt.ir.attributes import Attribute
from npu_opt.ir.core import Block, Operation, Value


class RewriteListener(Protocol):
    def op_inserted(self, op: Operation) -> None: ...
    def op_erased(self, op: Operation) -> None: ...
    def op_modified(self, op: Operation) -> None: ...
    def value_replaced(self, old: Value, new: Value) -> None: ...


class RewriteError(Exception):
    """Misuse of the rewriter by a pass (a bug in the pass, not in the input)."""


class Rewriter:
    """Mutates IR and records it: ``changed`` and ``counts`` (inserted/erased/modified/replaced)."""

    def __init__(self, listeners: Sequence[RewriteListener] = ()) -> None:
        self.listeners: list[RewriteListener] = list(listeners)
        self.counts: Counter[str] = Counter()
        self.changed = False

    def _note(self, kind: str) -> None:
        self.changed = True
        self.counts[kind] += 1

    # -- insertion ---------------------------------------------------------------------------
    def insert_before(self, op: Operation, anchor: Operation) -> Operation:
        block = anchor.parent
        if block is None:
            raise RewriteError(f"cannot insert before '{anchor.name}': it is not in a block")
        block.insert_before(op, anchor)
        self._inserted(op)
        return op

    def insert_after(self, op: Operation, anchor: Operation) -> Operation:
        block = anchor.parent
        if block is None:
            raise RewriteError(f"cannot insert after '{anchor.name}': it is not in a block")
        if anchor.next is None:
            block.append(op)
        else:
            block.insert_before(op, anchor.next)
        self._inserted(op)
        return op

    def append(self, op: Operation, block: Block) -> Operation:
        block.append(op)
        self._inserted(op)
        return op

    def _inserted(self, op: Operation) -> None:
        self._note("ops inserted")
        dataflow.on_inserted(op)
        for listener in self.listeners:
            listener.op_inserted(op)

    def move_before(self, op: Operation, anchor: Operation) -> None:
        dataflow.on_erasing(op)
        op.detach()
        assert anchor.parent is not None
        anchor.parent.insert_before(op, anchor)
        dataflow.on_inserted(op)
        self._modified(op, "ops moved")

    def move_to_end(self, op: Operation, block: Block) -> None:
        """Move ``op`` (with what it holds) to the end of ``block``, which may be empty or in another region."""
        dataflow.on_erasing(op)
        op.detach()
        block.append(op)
        dataflow.on_inserted(op)
        self._modified(op, "ops moved")

    # -- erasure and replacement -------------------------------------------------------------
    def erase_op(self, op: Operation) -> None:
        """Erase ``op`` and everything nested in it; its results must have no uses left."""
        for result in op.results:
            if result.uses:
                users = ", ".join(sorted({u.name for u, _ in result.uses}))
                raise RewriteError(f"cannot erase '{op.name}': result #{result.index} is still used by {users}")
        nested = list(op.walk())
        dataflow.on_erasing(op)
        for inner in reversed(nested):
            inner._drop_operand_uses()
        op.detach()
        self._note("ops erased")
        for listener in self.listeners:
            for inner in nested:
                listener.op_erased(inner)

    def replace_all_uses(self, old: Value, new: Value) -> None:
        if old is new:
            return
        if old.type is not new.type:
            raise RewriteError(f"cannot replace a value of type {old.type} with one of type {new.type}")
        uses = list(old.uses)
        if not uses:
            return
        for user, index in uses:
            self.set_operand(user, index, new)
        self._note("uses replaced")
        for listener in self.listeners:
            listener.value_replaced(old, new)

    def replace_op(self, op: Operation, new_values: Sequence[Value] | Operation) -> None:
        """Replace every use of ``op``'s results with ``new_values`` (or another op's results), erase ``op``."""
        values = new_values.results if isinstance(new_values, Operation) else list(new_values)
        if len(values) != len(op.results):
            raise RewriteError(f"'{op.name}' has {len(op.results)} results, replacement has {len(values)}")
        for old, new in zip(op.results, values):
            self.replace_all_uses(old, new)
        self.erase_op(op)

    # -- in-place modification ---------------------------------------------------------------
    def set_operand(self, op: Operation, index: int, value: Value) -> None:
        old = op.operands[index]
        if old is value:
            return
        op._set_operand(index, value)
        dataflow.on_operand_changed(op, index, old, value)
        self._modified(op, "operands set")

    def set_attr(self, op: Operation, name: str, attr: Attribute) -> None:
        """Set a discardable attribute (``{...}``)."""
        if op.attributes.get(name) is attr:
            return
        op.attributes[name] = attr
        self._modified(op, "attributes set")

    def set_property(self, op: Operation, name: str, attr: Attribute) -> None:
        """Set an inherent attribute (``<{...}>``)."""
        if op.properties.get(name) is attr:
            return
        op.properties[name] = attr
        self._modified(op, "attributes set")

    def remove_attr(self, op: Operation, name: str) -> None:
        removed = op.attributes.pop(name, None) is not None
        removed = op.properties.pop(name, None) is not None or removed
        if removed:
            self._modified(op, "attributes removed")

    @contextmanager
    def modify(self, op: Operation) -> Iterator[Operation]:
        """For in-place edits the other methods do not cover; the graph around ``op`` is rebuilt lazily."""
        yield op
        dataflow.invalidate(op)
        self._modified(op, "ops modified")

    def _modified(self, op: Operation, kind: str) -> None:
        self._note(kind)
        for listener in self.listeners:
            listener.op_modified(op)
