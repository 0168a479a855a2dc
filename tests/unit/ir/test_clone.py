"""ir/clone.py: a copy prints as the original, shares no op, block or value with it, keeps its
own use lists, and changing it leaves the original alone."""
from __future__ import annotations

import npu_opt.dialects  # noqa: F401 - registers the dialects
from npu_opt.ir.attributes import IntegerAttr
from npu_opt.ir.clone import clone
from npu_opt.ir.parser import ParseOptions, parse_module
from npu_opt.ir.printer import print_op

TEXT = """module attributes {x.tag = 1 : i64} {
  func.func @f(%arg0: tensor<2xi32>, %arg1: tensor<2xi32>) -> tensor<2xi32> {
    %0 = "x.add"(%arg0, %arg1) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
    %1 = "x.region"(%0) ({
    ^bb0(%a: tensor<2xi32>):
      %2 = "x.mul"(%a, %0) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
      "x.yield"(%2) : (tensor<2xi32>) -> ()
    }) : (tensor<2xi32>) -> tensor<2xi32>
    return %1 : tensor<2xi32>
  }
  func.func @g() {
    return
  }
}
"""


def test_a_copy_prints_as_the_original_and_shares_nothing_mutable() -> None:
    module = parse_module(TEXT, "clone.mlir", ParseOptions(allow_unregistered=True))
    copy = clone(module)
    assert print_op(copy.root) == print_op(module)
    originals = list(module.walk())
    copies = list(copy.root.walk())
    assert len(originals) == len(copies) and not set(map(id, originals)) & set(map(id, copies))
    for original, copied in zip(originals, copies):
        assert copy.ops[original] is copied
        for value, copied_value in zip(original.results, copied.results):
            assert copy.values[value] is copied_value
            assert [copy.ops[user] for user, _ in value.uses] == [user for user, _ in copied_value.uses]
    # the nested op reads the region's block argument and a value from outside the region, both copied
    mul = next(op for op in copies if op.name == "x.mul")
    assert mul.operands[0].owner is not next(op for op in originals if op.name == "x.region").regions[0].entry
    assert all(operand in copy.values.values() for operand in mul.operands)


def test_changing_the_copy_leaves_the_original_alone() -> None:
    module = parse_module(TEXT, "clone.mlir", ParseOptions(allow_unregistered=True))
    before = print_op(module)
    copy = clone(module)
    add = next(op for op in copy.root.walk() if op.name == "x.add")
    add.attributes["x.changed"] = IntegerAttr(7)
    copy.root.attributes.pop("x.tag")
    assert print_op(module) == before
    assert print_op(copy.root) != before
