"""cse: merge identical pure ops, scoped by dominance (a nested region sees its parents' ops)."""
from __future__ import annotations

from ir.core import Block, Operation, Region
from ir.pass_manager import PassContext
from ir.pass_registry import Pass, register_pass
from ir.rewriter import Rewriter
from ir.traits import IsolatedFromAbove, Pure


def _key(op: Operation) -> tuple:
    return (op.name, tuple(id(v) for v in op.operands), tuple(r.type for r in op.results),
            frozenset(op.properties.items()), frozenset(op.attributes.items()))


@register_pass("cse", statistics={"num-cse'd": "Number of operations CSE'd"})
class CSE(Pass):
    """Eliminate common subexpressions: a pure op equal to a dominating one is replaced by it."""

    def run(self, module: Operation, ctx: PassContext) -> None:
        for region in module.regions:
            self._region(region, [], ctx)

    def _region(self, region: Region, scopes: list[dict[tuple, Operation]], ctx: PassContext) -> None:
        # Only a single-block region's ops dominate each other in order; multi-block regions get
        # a fresh scope per block.
        for block in region.blocks:
            self._block(block, scopes + [{}], ctx)

    def _block(self, block: Block, scopes: list[dict[tuple, Operation]], ctx: PassContext) -> None:
        rewriter: Rewriter = ctx.rewriter
        table = scopes[-1]
        for op in block.ops:
            if op.regions:
                inner = [] if op.has_trait(IsolatedFromAbove) else scopes
                for region in op.regions:
                    self._region(region, inner, ctx)
                continue
            if not op.has_trait(Pure) or op.successors or not op.results:
                continue
            key = _key(op)
            existing = next((s[key] for s in reversed(scopes) if key in s), None)
            if existing is None:
                table[key] = op
                continue
            rewriter.replace_op(op, existing.results)
            ctx.stat("num-cse'd")
