"""Checks of an op's declared operands, results and attributes, memoised by what they read.

An op's declared constraints read nothing but its class, its operand and result types and the
values of its declared attributes. Types and attributes are interned and immutable, so the
violations of one such combination never change; the verifier runs after every pass and most ops
keep their types and attributes along a pipeline (and many ops share them), so the memo turns
most checks into dictionary lookups. The memo is an analysis kept across passes: no IR change
can make an entry stale, a change only leads to another key.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from npu_opt.ir.analysis import Analysis, AnalysisManager

if TYPE_CHECKING:
    from npu_opt.ir.attributes import Attribute
    from npu_opt.ir.core import Operation
    from npu_opt.ir.opdef import AttrDef, Op


def declared_violations(op: "Op") -> Iterator[str]:
    """Messages for violations of the op's declared operands, results and attributes."""
    yield from _value_violations(op)
    for attr_def in op._attr_defs:
        message = _attr_violation(attr_def, op.attr(attr_def.name))
        if message is not None:
            yield message


def _value_violations(op: "Op") -> Iterator[str]:
    """Messages for the op's operand and result counts and types."""
    for kind, values, defs in (("operand", op.operands, op._operand_defs), ("result", op.results, op._result_defs)):
        fixed = sum(1 for d in defs if not d.variadic)
        variadic = next((d for d in defs if d.variadic), None)
        count = len(values)
        if variadic is None and count != fixed:
            yield f"expected {fixed} {kind}{'s' if fixed != 1 else ''}, but found {count}"
            continue
        if variadic is not None and (count < fixed or (variadic.optional and count > fixed + 1)):
            bound = f"between {fixed} and {fixed + 1}" if variadic.optional else f"at least {fixed}"
            yield f"expected {bound} {kind}s, but found {count}"
            continue
        extra = count - fixed
        index = 0
        for definition in defs:
            span = extra if definition.variadic else 1
            for value in values[index:index + span]:
                if not definition.constraint.check(value.type):
                    yield (f"{kind} #{index} must be {definition.constraint.description}, "
                           f"but got '{value.type}'")
                index += 1


def _attr_violation(attr_def: "AttrDef", attr: "Attribute | None") -> str | None:
    """The message for declared attribute ``attr_def`` holding ``attr`` (None: absent), or None."""
    if attr is None:
        return None if attr_def.optional else f"requires attribute '{attr_def.name}'"
    if not attr_def.constraint.check(attr):
        return f"attribute '{attr_def.name}' failed to satisfy constraint: {attr_def.constraint.description}"
    return None


class DeclaredChecks(Analysis):
    """The declared-constraint violations seen so far: of the operands and results per (op class,
    operand types, result types), of each attribute per (attribute definition, value). Anchored
    at the verified root; kept by the rewriter because its keys are immutable values."""

    KEPT_BY_REWRITER = True

    def __init__(self, op: "Operation", manager: AnalysisManager) -> None:
        super().__init__(op, manager)
        self._values: dict[tuple, tuple[str, ...]] = {}
        self._attrs: dict[tuple, str | None] = {}

    def violations(self, op: "Op") -> tuple[str, ...]:
        """What ``declared_violations(op)`` yields, each part computed once per distinct key."""
        key = (type(op), tuple([value.type for value in op.operands]),
               tuple([value.type for value in op.results]))
        found = self._values.get(key)
        if found is None:
            found = self._values[key] = tuple(_value_violations(op))
        properties = op.properties
        attributes = op.attributes
        memo = self._attrs
        messages = None
        for attr_def in op._attr_defs:
            name = attr_def.name
            attr = properties.get(name)
            if attr is None:
                attr = attributes.get(name)
            pair = (attr_def, attr)
            if pair in memo:
                message = memo[pair]
            else:
                message = memo[pair] = _attr_violation(attr_def, attr)
            if message is not None:
                messages = [*found] if messages is None else messages
                messages.append(message)
        return found if messages is None else tuple(messages)


__all__ = ["DeclaredChecks", "declared_violations"]
