"""The test dialect: small ops that exercise the infrastructure (folding, canonicalization, CSE,
DCE, regions), in the spirit of MLIR's test dialect. Not part of any real pipeline."""
from __future__ import annotations

from typing import Sequence

from npu_opt.ir.attributes import Attribute, IntegerAttr
from npu_opt.ir.constraints import AnyAttr, AnyInteger, AnyType
from npu_opt.ir.core import Operation, Value
from npu_opt.ir.location import Location
from npu_opt.ir.opdef import AttrDef, Dialect, Op, OperandDef, ResultDef, VerifyError, register_dialect
from npu_opt.ir.patterns import RewritePattern
from npu_opt.ir.rewriter import Rewriter
from npu_opt.ir.traits import ConstantLike, IsTerminator, Pure
from npu_opt.ir.types import IntegerType, Type

TEST = register_dialect(Dialect("test", "Ops for testing the IR infrastructure and built-in passes."))


def _constant_value(value: Value) -> Attribute | None:
    owner = getattr(value, "op", None)
    if isinstance(owner, ConstantOp):
        return owner.attr("value")
    return None


@TEST.op
class ConstantOp(Op):
    """A constant of any type, given by its ``value`` attribute."""

    OP_NAME = "test.constant"
    traits = (Pure(), ConstantLike())
    value = AttrDef(AnyAttr(), doc="the constant")
    result_ = ResultDef(AnyType)

    def verify_op(self) -> None:
        attr = self.attr("value")
        if isinstance(attr, IntegerAttr) and attr.type is not self.results[0].type:
            raise VerifyError(f"value type '{attr.type}' does not match result type '{self.results[0].type}'")

    def fold(self) -> Sequence[Attribute | Value] | None:
        return [self.attr("value")]


def _materialize(value: Attribute, type: Type, location: Location) -> Operation | None:
    if isinstance(value, IntegerAttr) and value.type is type:
        return ConstantOp.build(result_types=[type], attrs={"value": value}, location=location)
    return None


TEST.materialize_constant = _materialize


def _wrap(value: int, type: Type) -> IntegerAttr:
    assert isinstance(type, IntegerType)
    mask = (1 << type.width) - 1
    value &= mask
    lo, _ = type.value_range()
    if lo < 0 and value >> (type.width - 1):
        value -= 1 << type.width
    return IntegerAttr(value, type)


class _ConstantToRight(RewritePattern):
    """``op(c, x)`` becomes ``op(x, c)`` for commutative ops, so folds only look on the right."""

    def __init__(self, op_name: str) -> None:
        self.op_name = op_name

    def match_and_rewrite(self, op: Operation, rewriter: Rewriter) -> None:
        lhs, rhs = op.operands
        if _constant_value(lhs) is not None and _constant_value(rhs) is None:
            rewriter.set_operand(op, 0, rhs)
            rewriter.set_operand(op, 1, lhs)


class _IntBinary(Op):
    """A pure commutative integer op; constants are moved to the right by canonicalization."""

    traits = (Pure(),)
    lhs = OperandDef(AnyInteger)
    rhs = OperandDef(AnyInteger)
    result_ = ResultDef(AnyInteger)

    @classmethod
    def canonicalization_patterns(cls) -> Sequence[RewritePattern]:
        return [_ConstantToRight(cls.OP_NAME)]


@TEST.op
class AddIOp(_IntBinary):
    """Integer addition with wrap-around; folds constants and ``x + 0``."""

    OP_NAME = "test.addi"

    def fold(self) -> Sequence[Attribute | Value] | None:
        a, b = (_constant_value(v) for v in self.operands)
        if isinstance(a, IntegerAttr) and isinstance(b, IntegerAttr):
            return [_wrap(a.value + b.value, self.results[0].type)]
        if isinstance(b, IntegerAttr) and b.value == 0 and self.operands[0].type is self.results[0].type:
            return [self.operands[0]]
        return None


@TEST.op
class MulIOp(_IntBinary):
    """Integer multiplication; folds constants, ``x * 1`` and ``x * 0``."""

    OP_NAME = "test.muli"

    def fold(self) -> Sequence[Attribute | Value] | None:
        a, b = (_constant_value(v) for v in self.operands)
        if isinstance(a, IntegerAttr) and isinstance(b, IntegerAttr):
            return [_wrap(a.value * b.value, self.results[0].type)]
        if isinstance(b, IntegerAttr) and b.value == 1:
            return [self.operands[0]]
        if isinstance(b, IntegerAttr) and b.value == 0:
            return [b]
        return None


class _ReshapeOfReshape(RewritePattern):
    """``reshape(reshape(x))`` becomes ``reshape(x)``."""

    op_name = "test.reshape"

    def match_and_rewrite(self, op: Operation, rewriter: Rewriter) -> None:
        source = op.operands[0]
        inner = getattr(source, "op", None)
        if isinstance(inner, ReshapeOp):
            rewriter.set_operand(op, 0, inner.operands[0])


@TEST.op
class ReshapeOp(Op):
    """Reinterpret a value's shape; a reshape to the same type folds away."""

    OP_NAME = "test.reshape"
    traits = (Pure(),)
    input = OperandDef(AnyType)
    result_ = ResultDef(AnyType)

    def fold(self) -> Sequence[Attribute | Value] | None:
        if self.operands[0].type is self.results[0].type:
            return [self.operands[0]]
        return None

    @classmethod
    def canonicalization_patterns(cls) -> Sequence[RewritePattern]:
        return [_ReshapeOfReshape()]


@TEST.op
class EffectOp(Op):
    """An op with side effects: never merged by CSE nor erased by DCE."""

    OP_NAME = "test.effect"
    inputs = OperandDef(AnyType, variadic=True)
    outputs = ResultDef(AnyType, variadic=True)


@TEST.op
class RegionOp(Op):
    """An op with one region that sees values from outside (not isolated)."""

    OP_NAME = "test.region"
    inputs = OperandDef(AnyType, variadic=True)
    outputs = ResultDef(AnyType, variadic=True)


@TEST.op
class YieldOp(Op):
    """Terminates a test.region block."""

    OP_NAME = "test.yield"
    traits = (IsTerminator(),)
    values = OperandDef(AnyType, variadic=True)


@TEST.op
class BranchOp(Op):
    """A terminator that continues at one of its successors, passing its operands as block arguments.

    For multi-block (CFG) tests: every successor must take exactly the operands' types."""

    OP_NAME = "test.br"
    traits = (IsTerminator(),)
    operands_ = OperandDef(AnyType, variadic=True, doc="passed to the successor's block arguments")

    def verify_op(self) -> None:
        if not self.successors:
            raise VerifyError("expects at least one successor")
        types = [v.type for v in self.operands]
        for index, block in enumerate(self.successors):
            expected = [a.type for a in block.args]
            if expected != types:
                shown = ", ".join(str(t) for t in expected)
                raise VerifyError(f"successor #{index} takes ({shown}) but the op passes "
                                  f"({', '.join(str(t) for t in types)})")


__all__ = ["TEST", "ConstantOp", "AddIOp", "MulIOp", "ReshapeOp", "EffectOp", "RegionOp", "YieldOp",
           "BranchOp"]
