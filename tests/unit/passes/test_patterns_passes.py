"""The greedy driver, folding, and the canonicalize/cse/dce passes on the test dialect."""
from __future__ import annotations

import npu_opt.dialects  # noqa: F401
import npu_opt.passes  # noqa: F401
from npu_opt.ir.core import Operation
from npu_opt.ir.diagnostics import DiagnosticEngine
from npu_opt.ir.parser import ParseOptions, parse_module
from npu_opt.ir.pass_manager import PassContext
from npu_opt.ir.pass_registry import parse_pipeline
from npu_opt.ir.patterns import RewritePattern, apply_patterns_greedily
from npu_opt.ir.printer import print_op
from npu_opt.ir.rewriter import Rewriter
from npu_opt.ir.verifier import verify


def run(source: str, pipeline: str) -> tuple[Operation, PassContext]:
    module = parse_module(source, "t.mlir", ParseOptions())
    ctx = PassContext(DiagnosticEngine())
    for pass_ in parse_pipeline(pipeline):
        ctx = PassContext(DiagnosticEngine())
        pass_.run(module, ctx)
        assert not ctx.failed
        assert verify(module, DiagnosticEngine())
    return module, ctx


ARITH = """
func.func @f(%a: i32) -> i32 {
  %c0 = "test.constant"() <{value = 0 : i32}> : () -> i32
  %c2 = "test.constant"() <{value = 2 : i32}> : () -> i32
  %c3 = "test.constant"() <{value = 3 : i32}> : () -> i32
  %0 = "test.addi"(%c2, %c3) : (i32, i32) -> i32
  %1 = "test.addi"(%c0, %a) : (i32, i32) -> i32
  %2 = "test.muli"(%1, %0) : (i32, i32) -> i32
  return %2 : i32
}
"""


def test_canonicalize_folds_constants_and_identities():
    module, ctx = run(ARITH, "canonicalize")
    text = print_op(module)
    assert "value = 5 : i32" in text
    assert '"test.muli"(%arg0, %0)' in text
    assert "test.addi" not in text
    assert ctx.stats["num-folded"] >= 2


def test_cse_merges_pure_ops_but_not_effects():
    source = """
func.func @f(%a: i32) -> (i32, i32, i32, i32) {
  %0 = "test.addi"(%a, %a) : (i32, i32) -> i32
  %1 = "test.addi"(%a, %a) : (i32, i32) -> i32
  %2 = "test.effect"(%a) : (i32) -> i32
  %3 = "test.effect"(%a) : (i32) -> i32
  return %0, %1, %2, %3 : i32, i32, i32, i32
}
"""
    module, ctx = run(source, "cse")
    text = print_op(module)
    assert text.count("test.addi") == 1 and text.count("test.effect") == 2
    assert ctx.stats["num-cse'd"] == 1


def test_dce_erases_dead_chains_only():
    source = """
func.func @f(%a: i32) {
  %0 = "test.addi"(%a, %a) : (i32, i32) -> i32
  %1 = "test.muli"(%0, %0) : (i32, i32) -> i32
  "test.effect"(%a) : (i32) -> ()
  return
}
"""
    module, ctx = run(source, "dce")
    text = print_op(module)
    assert "test.addi" not in text and "test.muli" not in text and "test.effect" in text
    assert ctx.stats["num-dce'd"] == 2


class _NoOpSuccess(RewritePattern):
    """Claims success without changing anything: must not make the driver loop."""

    op_name = "test.addi"

    def match_and_rewrite(self, op, rewriter):
        return None


class _Flip(RewritePattern):
    """Swaps operands forever: the driver must stop at the iteration limit."""

    op_name = "test.addi"

    def match_and_rewrite(self, op, rewriter):
        a, b = op.operands
        rewriter.set_operand(op, 0, b)
        rewriter.set_operand(op, 1, a)


def test_driver_counts_only_observed_changes():
    module = parse_module(ARITH, "t.mlir", ParseOptions())
    result = apply_patterns_greedily(module, [_NoOpSuccess()], Rewriter(), fold=False)
    assert result.converged and result.iterations == 1 and result.pattern_hits == 0


def test_driver_stops_at_convergence_limit():
    source = 'func.func @f(%a: i32, %b: i32) -> i32 {\n  %0 = "test.addi"(%a, %b) : (i32, i32) -> i32\n  return %0 : i32\n}'
    module = parse_module(source, "t.mlir", ParseOptions())
    result = apply_patterns_greedily(module, [_Flip()], Rewriter(), max_iterations=3, fold=False)
    assert not result.converged and result.changed and result.iterations <= 3


def test_canonicalize_test_convergence_reports_error():
    source = 'func.func @f(%a: i32) -> i32 {\n  %0 = "test.addi"(%a, %a) : (i32, i32) -> i32\n  return %0 : i32\n}'
    module = parse_module(source, "t.mlir", ParseOptions())
    (pass_,) = parse_pipeline("canonicalize{max-iterations=1 test-convergence=true}")
    ctx = PassContext(DiagnosticEngine())
    pass_.run(module, ctx)
    assert not ctx.failed  # converges in one sweep: nothing to do
