"""cse: merge identical pure ops, scoped by dominance (a nested region sees its parents' ops)."""
from __future__ import annotations

from npu_opt.ir.core import Block, Operation, Region
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
    return (op.name, tuple(id(v) for v in op.operands), tuple(r.type for r in op.results),
            frozenset(properties.items()), frozenset(attributes.items()))


@register_pass("cse", statistics={"num-cse'd": "Number of operations CSE'd"})
class CSE(Pass):
    """Eliminate common subexpressions: a pure op equal to a dominating one is replaced by it."""

    def run(self, module: Operation, ctx: PassContext) -> None:
        for region in module.regions:
            self._region(region, [], ctx)

    def _region(self, region: Region, scopes: list[dict[tuple, Operation]], ctx: PassContext) -> None:
        blocks = region.blocks
        if len(blocks) <= 1:
            for block in blocks:
                self._block(block, scopes + [{}], ctx)
            return
        # Several blocks: a block sees the ops of the blocks that dominate it, so walk the
        # dominator tree, each block's scope stacked on its immediate dominator's.
        idom = _immediate_dominators(region)
        children: dict[Block, list[Block]] = {b: [] for b in blocks}
        roots = []
        for block in blocks:
            parent = idom.get(block)
            if parent is None:
                roots.append(block)  # the entry block, and blocks unreachable from it
            else:
                children[parent].append(block)
        stack = [(block, scopes) for block in reversed(roots)]
        while stack:
            block, outer = stack.pop()
            inner = outer + [{}]
            self._block(block, inner, ctx)
            stack.extend((child, inner) for child in reversed(children[block]))

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


def _immediate_dominators(region: Region) -> dict[Block, Block | None]:
    """Each block's immediate dominator; None for the entry block and unreachable blocks."""
    import networkx as nx

    graph = nx.DiGraph()
    for block in region.blocks:
        graph.add_node(block)
        last = block.last
        if last is not None:
            for successor in last.successors:
                graph.add_edge(block, successor)
    entry = region.blocks[0]
    found = nx.immediate_dominators(graph, entry)
    # networkx < 3.5 maps the entry block to itself, later versions leave it out
    return {b: (d if d is not b else None) for b, d in found.items() if b is not entry}
