"""Block dominance of the regions under an op, as an analysis the verifier and cse share.

A region with several blocks gets its control-flow graph (edges from each block to its
terminator's successors) and the immediate dominator of every block; single-block regions need
none. Regions are analysed lazily, the first time someone asks about them.
"""
from __future__ import annotations

from npu_opt.ir.analysis import Analysis, AnalysisManager
from npu_opt.ir.core import Block, Operation, Region


class RegionDominance:
    """The dominator tree of one region.

    ``idom`` maps each block to its immediate dominator (None for the entry block and blocks
    unreachable from it); ``order`` lists the blocks so that dominators come first (a depth-first
    preorder of the control flow, then the unreachable blocks); ``children`` is the tree, with
    ``roots`` (the entry, then unreachable blocks) in block order."""

    def __init__(self, region: Region) -> None:
        import networkx as nx

        graph = nx.DiGraph()
        for block in region.blocks:
            graph.add_node(block)
            last = block.last
            if last is not None:
                for successor in last.successors:
                    graph.add_edge(block, successor)
        entry = region.blocks[0]
        found = dict(nx.immediate_dominators(graph, entry))
        found[entry] = entry  # networkx >= 3.5 leaves the start node out of the mapping
        self.idom: dict[Block, Block | None] = {b: (d if d is not b else None) for b, d in found.items()}
        self.order: list[Block] = list(nx.dfs_preorder_nodes(graph, entry))
        for block in region.blocks:
            if block not in found:
                self.idom[block] = None
                self.order.append(block)
        self.children: dict[Block, list[Block]] = {b: [] for b in region.blocks}
        self.roots: list[Block] = []
        for block in region.blocks:
            parent = self.idom.get(block)
            if parent is None:
                self.roots.append(block)
            elif parent in self.children:
                self.children[parent].append(block)

    def dominates(self, a: Block, b: Block) -> bool:
        """True if every path from the entry to ``b`` passes through ``a`` (a block dominates itself)."""
        cursor: Block | None = b
        while cursor is not None:
            if cursor is a:
                return True
            cursor = self.idom.get(cursor)
        return False


class DominanceInfo(Analysis):
    """Dominator trees of the multi-block regions nested anywhere under the anchor op."""

    def __init__(self, op: Operation, manager: AnalysisManager) -> None:
        super().__init__(op, manager)
        self._regions: dict[Region, RegionDominance] = {}
        self.regions_computed = 0
        """How many region dominator trees were computed (a test observes the caching with it)."""

    def region(self, region: Region) -> RegionDominance:
        """The dominator tree of ``region`` (which must have at least one block)."""
        tree = self._regions.get(region)
        if tree is None:
            tree = self._regions[region] = RegionDominance(region)
            self.regions_computed += 1
        return tree

    def immediate_dominator(self, block: Block) -> Block | None:
        """``block``'s immediate dominator; None for an entry block or an unreachable one."""
        region = block.parent
        if region is None or len(region.blocks) <= 1:
            return None
        return self.region(region).idom.get(block)


__all__ = ["DominanceInfo", "RegionDominance"]
