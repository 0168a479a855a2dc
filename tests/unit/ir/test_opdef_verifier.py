"""Declarative op definitions: accessors, builders, docs, and what the verifier reports."""
from __future__ import annotations

import io

import npu_opt.dialects  # noqa: F401
from npu_opt.dialects.func import FuncOp
from npu_opt.dialects.test import AddIOp, EffectOp
from npu_opt.ir.diagnostics import DiagnosticEngine
from npu_opt.ir.parser import ParseOptions, parse_module
from npu_opt.ir.types import I32, I64


def errors_of(source: str) -> list[str]:
    module = parse_module(source, "t.mlir", ParseOptions(allow_unregistered=True))
    stream = io.StringIO()
    engine = DiagnosticEngine(stream=stream)
    from npu_opt.ir.verifier import verify
    verify(module, engine)
    return [line for line in stream.getvalue().splitlines() if ": error: " in line]


def test_accessors_come_from_the_declaration():
    module = parse_module('func.func @f(%a: i32, %b: i32) -> i32 {\n  %0 = "test.addi"(%a, %b) : (i32, i32) -> i32\n'
                          '  return %0 : i32\n}', "t.mlir", ParseOptions())
    add = next(op for op in module.walk() if isinstance(op, AddIOp))
    func = next(op for op in module.walk() if isinstance(op, FuncOp))
    assert add.lhs is func.regions[0].blocks[0].args[0]
    assert func.sym_name == "f" and func.signature.results == (I32,)


def test_variadic_accessor():
    module = parse_module('func.func @f(%a: i32) {\n  %0:2 = "test.effect"(%a, %a) : (i32, i32) -> (i32, i64)\n'
                          '  return\n}', "t.mlir", ParseOptions())
    effect = next(op for op in module.walk() if isinstance(op, EffectOp))
    assert len(effect.inputs) == 2 and [r.type for r in effect.outputs] == [I32, I64]


def test_builder_applies_defaults_and_types():
    func = FuncOp.create("g", [I32], [I32])
    assert func.properties["sym_name"].value == "g"
    assert len(func.regions[0].blocks[0].args) == 1


def test_describe_generates_docs():
    doc = AddIOp.describe()
    assert "test.addi" in doc and "Operands" in doc and "integer" in doc


def test_verifier_reports_several_errors_per_run():
    source = """
func.func @f(%a: i32) -> i64 {
  %0 = "test.addi"(%a) : (i32) -> i32
  %1 = "test.addi"(%a, %a) : (i32, i32) -> f32
  return %0 : i32
}
func.func @f() {
  return
}
"""
    errors = errors_of(source)
    text = "\n".join(errors)
    assert "expected 2 operands, but found 1" in text
    assert "result #0 must be integer" in text
    assert "doesn't match function result type" in text
    assert "redefinition of symbol named 'f'" in text
    assert len(errors) >= 4


def test_dominance_and_isolation():
    source = """
func.func @f(%a: i32) -> i32 {
  %0 = "test.addi"(%1, %a) : (i32, i32) -> i32
  %1 = "test.addi"(%a, %a) : (i32, i32) -> i32
  return %0 : i32
}
"""
    assert any("does not dominate" in e for e in errors_of(source))


def test_missing_terminator():
    source = 'func.func @f(%a: i32) {\n  "test.effect"(%a) : (i32) -> ()\n}'
    assert any("terminator" in e for e in errors_of(source))


def test_multi_block_dominance_uses_cfg():
    source = """
func.func @f(%a: i32) -> i32 {
  "test.effect"()[^bb1, ^bb2] : () -> ()
^bb1:
  %0 = "test.addi"(%a, %a) : (i32, i32) -> i32
  "test.effect"()[^bb2] : () -> ()
^bb2:
  %1 = "test.addi"(%0, %a) : (i32, i32) -> i32
  return %1 : i32
}
"""
    errors = errors_of(source)
    assert any("does not dominate" in e for e in errors), errors
