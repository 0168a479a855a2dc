"""cse: merge identical pure ops, scoped by dominance (a nested region sees its parents' ops)."""
from __future__ import annotations

from npu_opt.ir.core import Block, Operation, Region
from npu_opt.ir.dominance import DominanceInfo
from npu_opt.ir.pass_manager import PassContext
from npu_opt.ir.pass_registry import Pass, register_pass
from npu_opt.ir.rewriter import Rewriter
from npu_opt.ir.traits import IsolatedFromAbove, Pure


def _key(op: Operation) -> tuple:
    properties, attributes = op.properties, op.attributes
    # A declared (inherent) attribute is the same whether it was written as a property
    # ('<{value = 1}>', as folding materializes it) or in the attribute dictionary ('{value = 1}').
    declared = [d.name for d in getattr(op, "_attr_defs", ()) if d.name in attributes]
    if declared:
        properties = dict(properties)
        attributes = dict(attributes)
        for name in declared:
            if name not in properties:
                properties[name] = attributes.pop(name)
    return (op.name, tuple(op.operands), tuple(r.type for r in op.results),
            frozenset(properties.items()), frozenset(attributes.items()))


@register_pass("cse", statistics={"num-cse'd": "Number of operations CSE'd"})
class CSE(Pass):
    """Eliminate common subexpressions: a pure op equal to a dominating one is replaced by it."""

    PRESERVES = (DominanceInfo,)
    """Erasing ops inside blocks leaves the control flow, hence dominance, unchanged."""

    def run(self, module: Operation, ctx: PassContext) -> None:
        dominance = ctx.analyses.get(DominanceInfo, module)
        for region in module.regions:
            self._region(region, [], ctx, dominance)

    def _region(self, region: Region, scopes: list[dict[tuple, Operation]], ctx: PassContext,
                dominance: DominanceInfo) -> None:
        blocks = region.blocks
        if len(blocks) <= 1:
            for block in blocks:
                self._block(block, scopes + [{}], ctx, dominance)
            return
        # Several blocks: a block sees the ops of the blocks that dominate it, so walk the
        # dominator tree (the entry block, and blocks unreachable from it, are its roots), each
        # block's scope stacked on its immediate dominator's.
        tree = dominance.region(region)
        stack = [(block, scopes) for block in reversed(tree.roots)]
        while stack:
            block, outer = stack.pop()
            inner = outer + [{}]
            self._block(block, inner, ctx, dominance)
            stack.extend((child, inner) for child in reversed(tree.children[block]))

    def _block(self, block: Block, scopes: list[dict[tuple, Operation]], ctx: PassContext,
               dominance: DominanceInfo) -> None:
        rewriter: Rewriter = ctx.rewriter
        table = scopes[-1]
        for op in block.ops:
            if op.regions:
                inner = [] if op.has_trait(IsolatedFromAbove) else scopes
                for region in op.regions:
                    self._region(region, inner, ctx, dominance)
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

