"""Rewrite patterns and the greedy worklist driver that applies them until nothing changes.

A pattern reports success only by changing IR through the rewriter: the driver watches
``rewriter.changed``, so a pattern that "succeeds" without changing anything cannot make the driver
spin. The driver also folds ops (``Op.fold``) and erases trivially dead pure ops.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Sequence

from npu_opt.ir.attributes import Attribute
from npu_opt.ir.core import Operation, Value
from npu_opt.ir.opdef import Op, lookup_dialect
from npu_opt.ir.rewriter import Rewriter
from npu_opt.ir.traits import IsTerminator, MemoryEffects, Pure


class RewritePattern:
    """Matches an op (of ``op_name``, or any op when None) and rewrites it through the rewriter."""

    op_name: str | None = None
    benefit: int = 1

    def match_and_rewrite(self, op: Operation, rewriter: Rewriter) -> None:
        raise NotImplementedError

    @property
    def label(self) -> str:
        return type(self).__name__


@dataclass
class GreedyResult:
    changed: bool
    converged: bool
    iterations: int
    folded: int = 0
    erased_dead: int = 0
    pattern_hits: int = 0


class _Worklist:
    """Ops to visit, in order, without duplicates; erased ops are dropped."""

    def __init__(self) -> None:
        self.queue: deque[Operation] = deque()
        self.members: set[Operation] = set()

    def push(self, op: Operation) -> None:
        if op not in self.members:
            self.members.add(op)
            self.queue.append(op)

    def pop(self) -> Operation:
        op = self.queue.popleft()
        self.members.discard(op)
        return op

    def __bool__(self) -> bool:
        return bool(self.queue)

    # listener protocol
    def op_inserted(self, op: Operation) -> None:
        self.push(op)

    def op_erased(self, op: Operation) -> None:
        self.members.discard(op)

    def op_modified(self, op: Operation) -> None:
        self.push(op)

    def value_replaced(self, old: Value, new: Value) -> None:
        for user, _ in new.uses:
            self.push(user)
        owner = getattr(new, "op", None)
        if owner is not None:
            self.push(owner)


def is_trivially_dead(op: Operation) -> bool:
    """An op without effects beyond reads whose results are unused (terminators are never dead:
    they end their block; an op that writes memory, or has unknown effects, is kept)."""
    return (not op.regions and all(not r.uses for r in op.results) and not op.has_trait(IsTerminator)
            and (op.has_trait(Pure) or _only_reads(op)))


def _only_reads(op: Operation) -> bool:
    effects = op.trait(MemoryEffects)
    return effects is not None and not effects.write


def _materialize(value: Attribute, result: Value, anchor: Operation, rewriter: Rewriter) -> Value | None:
    dialect = lookup_dialect(anchor.dialect)
    if dialect is None or dialect.materialize_constant is None:
        return None
    const = dialect.materialize_constant(value, result.type, anchor.location)
    if const is None:
        return None
    rewriter.insert_before(const, anchor)
    return const.results[0]


def _try_fold(op: Operation, rewriter: Rewriter) -> bool:
    if not isinstance(op, Op):
        return False
    folded = op.fold()
    if folded is None or len(folded) != len(op.results):
        return False
    if all(v is r for v, r in zip(folded, op.results)):
        return False  # folded in place to itself: nothing to do
    values: list[Value] = []
    for item, result in zip(folded, op.results):
        if isinstance(item, Value):
            values.append(item)
            continue
        if op.has_trait(_constant_like()):
            return False  # a constant folds to its own attribute
        made = _materialize(item, result, op, rewriter)
        if made is None:
            return False
        values.append(made)
    rewriter.replace_op(op, values)
    return True


def _constant_like() -> type:
    from npu_opt.ir.traits import ConstantLike
    return ConstantLike


def apply_patterns_greedily(
    root: Operation,
    patterns: Sequence[RewritePattern],
    rewriter: Rewriter | None = None,
    max_iterations: int = 10,
    fold: bool = True,
    max_rewrites_per_op: int = 32,
) -> GreedyResult:
    """Apply ``patterns`` (highest benefit first) and folding to every op nested in ``root``
    until a full sweep changes nothing, or ``max_iterations`` sweeps have run.

    Patterns that keep re-enabling each other within one sweep are cut off after
    ``max_rewrites_per_op`` rewrites per op on average; the result is then not converged."""
    rewriter = rewriter or Rewriter()
    ordered = sorted(patterns, key=lambda p: -p.benefit)
    generic = [p for p in ordered if p.op_name is None]
    by_name: dict[str, list[RewritePattern]] = {}
    for pattern in ordered:
        if pattern.op_name is not None and pattern.op_name not in by_name:
            by_name[pattern.op_name] = [p for p in ordered if p.op_name in (pattern.op_name, None)]
    result = GreedyResult(changed=False, converged=False, iterations=0)
    worklist = _Worklist()
    rewriter.listeners.append(worklist)
    changed_before = rewriter.changed
    try:
        while result.iterations < max_iterations:
            result.iterations += 1
            sweep_changed = False
            ops = _nested_ops(root)
            for op in ops:
                worklist.push(op)
            budget = max_rewrites_per_op * max(len(ops), 1)
            while worklist:
                if budget <= 0:
                    result.changed = True
                    return result  # oscillating patterns: give up, not converged
                budget -= 1
                op = worklist.pop()
                if op.parent is None:
                    continue  # erased meanwhile
                if is_trivially_dead(op):
                    for operand in op.operands:
                        owner = getattr(operand, "op", None)
                        if owner is not None:
                            worklist.push(owner)
                    rewriter.erase_op(op)
                    result.erased_dead += 1
                    sweep_changed = True
                    continue
                if fold and _try_fold(op, rewriter):
                    result.folded += 1
                    sweep_changed = True
                    continue
                candidates = by_name.get(op.name)
                if candidates is None:
                    candidates = by_name[op.name] = list(generic)
                for pattern in candidates:
                    rewriter.changed = False
                    pattern.match_and_rewrite(op, rewriter)
                    if rewriter.changed:
                        result.pattern_hits += 1
                        sweep_changed = True
                        break
            result.changed = result.changed or sweep_changed
            if not sweep_changed:
                result.converged = True
                break
    finally:
        rewriter.listeners.remove(worklist)
        rewriter.changed = changed_before or result.changed
    return result


def _nested_ops(root: Operation) -> list[Operation]:
    return list(root.walk())[1:]
