"""A function's dataflow as a networkx DiGraph, built on first use and then kept in sync.

Nodes are the ops directly in a region's blocks; an edge producer -> consumer carries ``uses``, the
list of (result index, operand index) pairs it stands for. Uses by ops nested deeper count as uses by
their ancestor in the region. The rewriter updates a built graph on every change (see ir.rewriter),
so passes can query it repeatedly without rebuilding it. ``DataflowGraph`` is the same graph as
an analysis (``ctx.analyses.get(DataflowGraph, func).graph``) that no pass needs to preserve.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from npu_opt.ir.analysis import Analysis, AnalysisManager
from npu_opt.ir.core import Operation, OpResult, Region, Value

if TYPE_CHECKING:
    import networkx as nx


def _anchor(op: Operation | None, region: Region) -> Operation | None:
    """``op`` or its ancestor whose block is directly in ``region``."""
    while op is not None:
        block = op.parent
        if block is None:
            return None
        if block.parent is region:
            return op
        op = block.parent.parent if block.parent is not None else None
    return None


def _producer(value: Value, region: Region) -> tuple[Operation, int] | None:
    if isinstance(value, OpResult):
        anchor = _anchor(value.op, region)
        if anchor is not None:
            return anchor, value.index
    return None


def build_graph(region: Region) -> "nx.DiGraph":
    import networkx as nx

    graph = nx.DiGraph()
    for op in region.ops():
        graph.add_node(op)
    for consumer in region.ops():
        for inner in consumer.walk():
            for index, value in enumerate(inner.operands):
                found = _producer(value, region)
                if found is None or found[0] is consumer:
                    continue
                _add_use(graph, found[0], consumer, found[1], index)
    return graph


def _add_use(graph: "nx.DiGraph", producer: Operation, consumer: Operation, result: int, operand: int) -> None:
    data = graph.get_edge_data(producer, consumer)
    if data is None:
        graph.add_edge(producer, consumer, uses=[(result, operand)])
    else:
        data["uses"].append((result, operand))


def _remove_use(graph: "nx.DiGraph", producer: Operation, consumer: Operation, result: int, operand: int) -> None:
    data = graph.get_edge_data(producer, consumer)
    if data is None:
        return
    try:
        data["uses"].remove((result, operand))
    except ValueError:
        return
    if not data["uses"]:
        graph.remove_edge(producer, consumer)


def dataflow_graph(region: Region) -> "nx.DiGraph":
    """The region's dataflow graph; built once, then maintained by the rewriter."""
    if region.graph_cache is None:
        region.graph_cache = build_graph(region)
    return region.graph_cache


def function_graph(func: Operation) -> "nx.DiGraph":
    """The dataflow graph of a function-like op's body."""
    return dataflow_graph(func.regions[0])


class DataflowGraph(Analysis):
    """The dataflow graph of a function-like op's body, as an analysis. The graph lives on the
    region and every rewriter change keeps it current (or drops it to be rebuilt on the next
    request), so it survives every pass."""

    KEPT_BY_REWRITER = True

    def __init__(self, func: Operation, manager: AnalysisManager) -> None:
        super().__init__(func, manager)
        self.region = func.regions[0]

    @property
    def graph(self) -> "nx.DiGraph":
        return dataflow_graph(self.region)


def _graphs_above(op: Operation) -> list[Region]:
    """Regions enclosing ``op`` that hold a built graph."""
    found = []
    block = op.parent
    while block is not None and block.parent is not None:
        region = block.parent
        if region.graph_cache is not None:
            found.append(region)
        owner = region.parent
        block = owner.parent if owner is not None else None
    return found


def on_inserted(op: Operation) -> None:
    for region in _graphs_above(op):
        graph = region.graph_cache
        anchor = _anchor(op, region)
        if anchor is op:
            graph.add_node(op)
        for inner in op.walk():
            for index, value in enumerate(inner.operands):
                found = _producer(value, region)
                if found is not None and found[0] is not anchor:
                    _add_use(graph, found[0], anchor, found[1], index)


def on_erasing(op: Operation) -> None:
    """Called before ``op`` is unlinked (it has no remaining uses)."""
    for region in _graphs_above(op):
        graph = region.graph_cache
        anchor = _anchor(op, region)
        if anchor is op:
            graph.remove_node(op)
            continue
        for inner in op.walk():
            for index, value in enumerate(inner.operands):
                found = _producer(value, region)
                if found is not None and found[0] is not anchor:
                    _remove_use(graph, found[0], anchor, found[1], index)


def on_operand_changed(op: Operation, index: int, old: Value, new: Value) -> None:
    for region in _graphs_above(op):
        graph = region.graph_cache
        anchor = _anchor(op, region)
        before = _producer(old, region)
        after = _producer(new, region)
        if before is not None and before[0] is not anchor:
            _remove_use(graph, before[0], anchor, before[1], index)
        if after is not None and after[0] is not anchor:
            _add_use(graph, after[0], anchor, after[1], index)


def invalidate(op: Operation) -> None:
    """Drop the graphs around ``op`` (for structural edits the incremental updates do not cover)."""
    for region in _graphs_above(op):
        region.graph_cache = None
