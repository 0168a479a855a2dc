"""DeclaredChecks: the verifier's memo of declared-constraint checks gives what the checks give,
survives passes, and keeps an op's own verify_op from running on a broken declaration."""
from __future__ import annotations

import io

import npu_opt.dialects  # noqa: F401
from npu_opt.ir.analysis import AnalysisManager
from npu_opt.ir.declared import DeclaredChecks, declared_violations
from npu_opt.ir.diagnostics import DiagnosticEngine
from npu_opt.ir.opdef import Op
from npu_opt.ir.parser import ParseOptions, parse_module
from npu_opt.ir.verifier import verify

SOURCE = """
func.func @f(%a: i32) -> i32 {
  %0 = "test.addi"(%a) : (i32) -> i32
  %1 = "test.addi"(%a, %a) : (i32, i32) -> f32
  %2 = "test.addi"(%a, %a) : (i32, i32) -> i32
  %3 = "test.addi"(%a, %a) : (i32, i32) -> i32
  return %2 : i32
}
"""


def _errors(module, manager: AnalysisManager) -> list[str]:
    stream = io.StringIO()
    verify(module, DiagnosticEngine(stream=stream), manager)
    return [line for line in stream.getvalue().splitlines() if ": error: " in line]


def test_memo_gives_what_the_checks_give_and_is_kept_across_verifications():
    module = parse_module(SOURCE, "t.mlir", ParseOptions())
    manager = AnalysisManager()
    first = _errors(module, manager)
    assert _errors(module, manager) == first and len(first) == 2
    assert manager.computed["DeclaredChecks"] == 1
    assert manager.invalidate() >= 1 and manager.is_cached(DeclaredChecks, module)
    checks = manager.get(DeclaredChecks, module)
    for op in module.walk():
        if isinstance(op, Op):
            assert checks.violations(op) == tuple(declared_violations(op))


def test_verify_op_of_a_tfl_op_waits_for_its_declaration():
    # tfl.add's shape checks need its declared operand count: with one operand only the
    # declaration's error is reported.
    source = """
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "tfl.add"(%a) <{fused_activation_function = "NONE"}> : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
"""
    errors = _errors(parse_module(source, "t.mlir", ParseOptions()), AnalysisManager())
    assert len(errors) == 1 and "expected 2 operands, but found 1" in errors[0]
