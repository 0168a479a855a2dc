"""Op traits: properties an op declares once and the verifier checks (terminators, symbols, ...)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator

if TYPE_CHECKING:
    from npu_opt.ir.core import Operation


class Trait:
    """Base of traits. ``verify`` yields error messages about ``op``, or (message, other op,
    note) triples when the error belongs to another op (e.g. a duplicate symbol)."""

    def verify(self, op: "Operation") -> Iterator[Any]:
        return iter(())

    def __repr__(self) -> str:
        return type(self).__name__


class Pure(Trait):
    """No side effects: CSE may merge it and DCE may erase it when unused."""


class MemoryEffects(Trait):
    """The op reads and/or writes memory beyond its SSA operands and results (a DMA transfer, a
    store). CSE never merges it; DCE may erase an unused one only if it does not write.
    An op with neither this trait nor ``Pure`` has unknown effects and is treated as writing."""

    def __init__(self, read: bool = False, write: bool = False) -> None:
        if not (read or write):
            raise TypeError("MemoryEffects needs a read or a write effect; an op without effects is Pure")
        self.read = read
        self.write = write

    def __repr__(self) -> str:
        return f"MemoryEffects({', '.join(n for n, on in (('read', self.read), ('write', self.write)) if on)})"


class MemoryOnly(Trait):
    """A view: the result aliases its operands' memory with another shape, offset or layout;
    the op moves no data and costs nothing (reshape, slice, concatenation in place)."""


class ConstantLike(Trait):
    """Materialises a constant from an attribute named ``value``; folding may create it."""


class IsTerminator(Trait):
    """Ends its block: it must be the block's last op (DCE never erases it)."""

    def verify(self, op: "Operation") -> Iterator[str]:
        block = op.parent
        if block is not None and block.last is not op:
            yield "must be the last operation in the parent block"


class ReturnLike(Trait):
    """Returns control (and values) to the parent op."""


class NoTerminator(Trait):
    """The op's single-block regions do not need a terminator (builtin.module)."""


class SingleBlock(Trait):
    """Each of the op's regions has at most one block."""

    def verify(self, op: "Operation") -> Iterator[str]:
        for index, region in enumerate(op.regions):
            if len(region.blocks) > 1:
                yield f"expects region #{index} to have 0 or 1 blocks"


class IsolatedFromAbove(Trait):
    """Regions may not use values defined outside the op (checked by the verifier's dominance pass)."""


class SymbolTable(Trait):
    """Symbols defined directly in the op's region must be unique."""

    def verify(self, op: "Operation") -> Iterator[Any]:
        seen: dict[str, Operation] = {}
        for region in op.regions:
            for child in region.ops():
                name = child.attr("sym_name")
                if name is None or not hasattr(name, "value"):
                    continue
                if name.value in seen:
                    yield (f"redefinition of symbol named '{name.value}'", child,
                           ("see existing symbol definition here", seen[name.value]))
                else:
                    seen[name.value] = child


class Symbol(Trait):
    """Defines a symbol through a ``sym_name`` string attribute."""

    def verify(self, op: "Operation") -> Iterator[str]:
        if op.attr("sym_name") is None:
            yield "requires string attribute 'sym_name'"


class HasParent(Trait):
    """The op may only appear directly inside one of the named ops."""

    def __init__(self, *names: str) -> None:
        self.names = names

    def verify(self, op: "Operation") -> Iterator[str]:
        parent = op.parent_op()
        if parent is None or parent.name not in self.names:
            expected = ", ".join(f"'{n}'" for n in self.names)
            yield f"expects parent op {'to be one of ' if len(self.names) > 1 else ''}{expected}"

    def __repr__(self) -> str:
        return f"HasParent({', '.join(self.names)})"


class SameOperandsAndResultType(Trait):
    """All operands and results have one type."""

    def verify(self, op: "Operation") -> Iterator[str]:
        types = {v.type for v in op.operands} | {r.type for r in op.results}
        if len(types) > 1:
            yield "requires the same type for all operands and results"
