"""The rewriter keeps use lists and built dataflow graphs consistent with the IR."""
from __future__ import annotations

import networkx as nx
import pytest

import npu_opt.dialects  # noqa: F401
from npu_opt.ir.attributes import IntegerAttr, StringAttr
from npu_opt.ir.dataflow import build_graph, function_graph
from npu_opt.ir.parser import ParseOptions, parse_module
from npu_opt.ir.rewriter import RewriteError, Rewriter
from npu_opt.ir.types import I32
from npu_opt.dialects.test import AddIOp, ConstantOp

SOURCE = """
func.func @f(%a: i32) -> i32 {
  %0 = "test.addi"(%a, %a) : (i32, i32) -> i32
  %1 = "test.addi"(%0, %a) : (i32, i32) -> i32
  %2 = "test.addi"(%1, %0) : (i32, i32) -> i32
  %3 = "test.region"(%2) ({
    %4 = "test.addi"(%1, %2) : (i32, i32) -> i32
    "test.yield"(%4) : (i32) -> ()
  }) : (i32) -> i32
  return %3 : i32
}
"""


def _func():
    module = parse_module(SOURCE, "t.mlir", ParseOptions())
    return module, next(op for op in module.walk() if op.name == "func.func")


def _same(graph_a: nx.DiGraph, graph_b: nx.DiGraph) -> bool:
    edges_a = {(u, v): sorted(d["uses"]) for u, v, d in graph_a.edges(data=True)}
    edges_b = {(u, v): sorted(d["uses"]) for u, v, d in graph_b.edges(data=True)}
    return set(graph_a.nodes) == set(graph_b.nodes) and edges_a == edges_b


def test_graph_nodes_and_edges_with_operand_indices():
    _, func = _func()
    graph = function_graph(func)
    ops = list(func.regions[0].ops())
    add0, add1, add2, region_op, ret = ops
    assert graph.number_of_nodes() == 5
    assert graph[add0][add1]["uses"] == [(0, 0)]
    assert sorted(graph[add0][add2]["uses"]) == [(0, 1)]
    # uses inside the nested region count as uses by the region op
    assert sorted(graph[add1][region_op]["uses"]) == [(0, 0)]
    assert graph.has_edge(region_op, ret)


def test_graph_is_cached_and_updated_not_rebuilt():
    _, func = _func()
    graph = function_graph(func)
    assert function_graph(func) is graph
    ops = list(func.regions[0].ops())
    rewriter = Rewriter()
    rewriter.set_operand(ops[2], 1, ops[0].operands[0])  # %2 = addi(%1, %a)
    assert function_graph(func) is graph
    assert not graph.has_edge(ops[0], ops[2])
    assert _same(graph, build_graph(func.regions[0]))


def test_insert_replace_erase_keep_graph_in_sync():
    _, func = _func()
    graph = function_graph(func)
    add0, add1, add2, region_op, ret = list(func.regions[0].ops())
    rewriter = Rewriter()
    const = ConstantOp.build(result_types=[I32], attrs={"value": IntegerAttr(7, I32)})
    rewriter.insert_before(const, add0)
    new_add = AddIOp.build([add0.results[0], const.results[0]], [I32])
    rewriter.insert_after(new_add, add0)
    rewriter.replace_all_uses(add1.results[0], new_add.results[0])
    rewriter.erase_op(add1)
    assert add1 not in graph
    assert graph.has_edge(const, new_add) and graph.has_edge(new_add, region_op)
    assert _same(graph, build_graph(func.regions[0]))
    assert rewriter.counts["ops inserted"] == 2 and rewriter.counts["ops erased"] == 1


def test_erase_with_uses_is_refused():
    _, func = _func()
    add0 = next(iter(func.regions[0].ops()))
    with pytest.raises(RewriteError, match="still used"):
        Rewriter().erase_op(add0)


def test_replace_with_wrong_type_is_refused():
    module = parse_module('func.func @g(%a: i32, %b: i64) {\n  "test.effect"(%a) : (i32) -> ()\n  return\n}',
                          "t.mlir", ParseOptions())
    func = next(op for op in module.walk() if op.name == "func.func")
    a, b = func.regions[0].blocks[0].args
    with pytest.raises(RewriteError, match="type"):
        Rewriter().replace_all_uses(a, b)


def test_changed_flag_is_observed_not_claimed():
    _, func = _func()
    add0 = next(iter(func.regions[0].ops()))
    rewriter = Rewriter()
    rewriter.set_operand(add0, 0, add0.operands[0])  # same value: no change
    rewriter.set_attr(add0, "tag", StringAttr("x"))
    assert rewriter.changed and rewriter.counts["attributes set"] == 1
    quiet = Rewriter()
    quiet.set_attr(add0, "tag", StringAttr("x"))  # same interned attribute: no change
    assert not quiet.changed


def test_use_lists_follow_operand_changes():
    _, func = _func()
    add0, add1, add2, _, _ = list(func.regions[0].ops())
    arg = func.regions[0].blocks[0].args[0]
    before = len(arg.uses)
    Rewriter().set_operand(add1, 0, arg)
    assert len(arg.uses) == before + 1
    assert (add1, 0) not in add0.results[0].uses


def test_move_to_end_moves_an_op_into_an_empty_block_of_another_region():
    """An op moved into a block of its own leaves the function's graph, with its uses kept."""
    from npu_opt.ir.core import Block, Region
    _, func = _func()
    add0, add1, add2, region_op, _ = list(func.regions[0].ops())
    graph = function_graph(func)
    assert add2 in graph.nodes
    target = Block()
    Region([target])
    rewriter = Rewriter()
    rewriter.move_to_end(add2, target)
    assert list(target.ops) == [add2] and add2 not in list(func.regions[0].ops())
    assert rewriter.changed and rewriter.counts["ops moved"] == 1
    assert add2.operands[0] is add1.results[0] and (add2, 0) in add1.results[0].uses
    assert add2 not in function_graph(func).nodes
