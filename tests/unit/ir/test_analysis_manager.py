"""The analysis manager: analyses are computed once, shared by passes and the verifier, dropped
after a pass that changed IR unless it preserved them, and kept after a pass that changed nothing."""
from __future__ import annotations

from dataclasses import dataclass

import npu_opt.dialects  # noqa: F401
import npu_opt.passes  # noqa: F401
from npu_opt.ir.analysis import Analysis, AnalysisManager
from npu_opt.ir.core import Operation
from npu_opt.ir.diagnostics import DiagnosticEngine
from npu_opt.ir.dominance import DominanceInfo
from npu_opt.ir.parser import ParseOptions, parse_module
from npu_opt.ir.pass_manager import PassContext, PassManager
from npu_opt.ir.pass_registry import Pass, parse_pipeline
from npu_opt.ir.verifier import verify

BRANCHY = """
func.func @f(%x: i32) -> i32 {
  %a = "test.addi"(%x, %x) : (i32, i32) -> i32
  "test.br"()[^bb1, ^bb2] : () -> ()
^bb1:
  %b = "test.addi"(%x, %x) : (i32, i32) -> i32
  "test.br"(%b)[^bb3] : (i32) -> ()
^bb2:
  "test.br"(%a)[^bb3] : (i32) -> ()
^bb3(%p: i32):
  %dead = "test.muli"(%x, %x) : (i32, i32) -> i32
  return %p : i32
}
"""


def parse(source: str = BRANCHY) -> Operation:
    return parse_module(source, "t.mlir", ParseOptions())


def run(module: Operation, passes: list[Pass], manager: AnalysisManager) -> None:
    PassManager(passes, DiagnosticEngine(), analyses=manager).run(module)


class _Counting(Analysis):
    """Counts the ops under its anchor (a stand-in for an expensive analysis)."""

    def __init__(self, op: Operation, manager: AnalysisManager) -> None:
        super().__init__(op, manager)
        self.ops = sum(1 for _ in op.walk())


@dataclass(frozen=True)
class _Touch(Pass):
    """Sets an attribute on the module (a change) and declares what it preserves at run time."""

    NAME = "test-touch"
    keep: tuple[type, ...] = ()

    def run(self, module: Operation, ctx: PassContext) -> None:
        from npu_opt.ir.attributes import UnitAttr
        ctx.rewriter.set_attr(module, "touched", UnitAttr())
        ctx.preserve(*self.keep)


class _Look(Pass):
    """Reads the counting analysis and changes nothing."""

    NAME = "test-look"

    def run(self, module: Operation, ctx: PassContext) -> None:
        ctx.analyses.get(_Counting, module)


def test_get_computes_once_per_anchor():
    module = parse()
    manager = AnalysisManager()
    first = manager.get(DominanceInfo, module)
    assert manager.get(DominanceInfo, module) is first
    assert manager.computed["DominanceInfo"] == 1
    func = next(op for op in module.walk() if op.name == "func.func")
    assert manager.get(DominanceInfo, func) is not first  # another anchor, another analysis
    assert manager.computed["DominanceInfo"] == 2


def test_dominance_tree_of_a_diamond():
    module = parse()
    func = next(op for op in module.walk() if op.name == "func.func")
    region = func.regions[0]
    entry, bb1, bb2, bb3 = region.blocks
    tree = AnalysisManager().get(DominanceInfo, module).region(region)
    assert tree.idom == {entry: None, bb1: entry, bb2: entry, bb3: entry}
    assert tree.roots == [entry] and tree.children[entry] == [bb1, bb2, bb3]
    assert tree.dominates(entry, bb3) and not tree.dominates(bb1, bb3)
    assert tree.order[0] is entry and set(tree.order) == {entry, bb1, bb2, bb3}


def test_verifier_and_cse_share_one_dominance_computation():
    module = parse()
    manager = AnalysisManager()
    assert verify(module, DiagnosticEngine(), manager)
    run(module, parse_pipeline("cse,cse"), manager)
    # computed by the first verification; cse changed IR but preserves dominance, so neither the
    # verification after each cse nor the second cse recomputes it
    assert manager.computed["DominanceInfo"] == 1
    assert manager.get(DominanceInfo, module).regions_computed == 1


def test_changing_pass_invalidates_unpreserved_analyses():
    module = parse()
    manager = AnalysisManager()
    manager.get(_Counting, module)
    manager.get(DominanceInfo, module)
    run(module, parse_pipeline("dce"), manager)  # erases %dead: a change that keeps the control flow
    assert not manager.is_cached(_Counting, module)
    assert manager.computed["DominanceInfo"] == 1  # dce preserves dominance
    run(module, [_Touch()], manager)  # a change preserving nothing
    # the verification after it recomputed dominance on the changed IR
    assert manager.computed["DominanceInfo"] == 2


def test_pass_that_changes_nothing_preserves_everything():
    module = parse()
    manager = AnalysisManager()
    run(module, [_Look(), _Look()], manager)
    assert manager.computed["_Counting"] == 1
    assert manager.computed["DominanceInfo"] == 1  # the second verification reused the first's
    run(module, parse_pipeline("dce"), manager)  # erases %dead
    assert manager.cached(_Counting, module) is None
    run(module, [_Look()] + parse_pipeline("dce"), manager)  # nothing left to erase
    assert manager.computed["_Counting"] == 2
    assert manager.cached(_Counting, module) is not None


def test_runtime_preserve_keeps_the_named_kind_only():
    module = parse()
    manager = AnalysisManager()
    counting = manager.get(_Counting, module)
    dominance = manager.get(DominanceInfo, module)
    run(module, [_Touch(keep=(_Counting,))], manager)
    assert manager.cached(_Counting, module) is counting
    assert manager.cached(DominanceInfo, module) is not dominance  # dropped, then recomputed by verify


def test_analyses_kept_by_the_rewriter_survive_changes():
    class _Kept(_Counting):
        KEPT_BY_REWRITER = True

    module = parse()
    manager = AnalysisManager()
    kept = manager.get(_Kept, module)
    run(module, [_Touch()], manager)
    assert manager.cached(_Kept, module) is kept


def test_dataflow_graph_analysis_follows_the_rewriter():
    from npu_opt.ir.dataflow import DataflowGraph

    module = parse()
    manager = AnalysisManager()
    func = next(op for op in module.walk() if op.name == "func.func")
    flow = manager.get(DataflowGraph, func)
    before = flow.graph.number_of_nodes()
    run(module, parse_pipeline("dce"), manager)  # erases %dead through the rewriter
    assert manager.cached(DataflowGraph, func) is flow
    assert flow.graph.number_of_nodes() == before - 1
    assert manager.computed["DataflowGraph"] == 1


def test_the_verifier_runs_after_the_first_pass_and_after_each_change_only(monkeypatch):
    # As MLIR skips verification after a pass that preserved everything: a pass whose rewriter
    # recorded no change leaves the IR as verified after the pass before.
    import npu_opt.ir.pass_manager as pass_manager

    runs: list[int] = []
    real = pass_manager.verify

    def counting(module, diagnostics, analyses=None):
        runs.append(1)
        return real(module, diagnostics, analyses)

    monkeypatch.setattr(pass_manager, "verify", counting)
    run(parse(), [_Look(), _Look(), _Touch(), _Look(), _Touch()], AnalysisManager())
    # after the first pass and after the first touch; the second touch sets the attribute to the
    # value it has, which the rewriter records as no change
    assert len(runs) == 2
