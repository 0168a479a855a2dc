"""Pseudo ops (constants and the absent optional operand) and the generic ops that keep TFLite
operators outside the dialect: ``tfl.custom`` (CUSTOM operators) and ``tfl.unsupported``
(builtin operators npu-opt does not model), which carry the opcode, version and raw options so
that an exported model still holds them unchanged."""
from __future__ import annotations

from npu_opt.ir.attributes import DenseElementsAttr, DenseResourceAttr
from npu_opt.ir.constraints import (
    AnyType, ElementsAttrC, IntAttrC, StrAttrC, TypeAttrC, UnitAttrC,
)
from npu_opt.ir.opdef import AttrDef, OperandDef, ResultDef, VerifyError
from npu_opt.ir.traits import ConstantLike, Pure
from npu_opt.ir.types import NoneType, QuantUniformType, RankedTensorType, TensorType

from npu_opt.dialects.tfl.common import TFL, NoneOrTensor, TflOp
from npu_opt.dialects.tfl.shapes import fmt

def _value_type(op: TflOp) -> RankedTensorType | None:
    value = op.attr("value")
    if isinstance(value, (DenseElementsAttr, DenseResourceAttr)):
        return value.type
    return None


@TFL.op
class ConstOp(TflOp):
    """A constant tensor (a TFLite tensor with a buffer). ``value`` is a ``dense`` or, for more
    than 64 bytes, a ``dense_resource`` whose blob holds exactly the buffer's bytes."""

    OP_NAME = "tfl.pseudo_const"
    traits = (Pure(), ConstantLike())
    value = AttrDef(ElementsAttrC())
    output = ResultDef(AnyType)

    def verify_shapes(self) -> None:
        value_type = _value_type(self)
        result = self.results[0].type
        if isinstance(getattr(result, "element_type", None), QuantUniformType):
            raise VerifyError("a quantised constant must be a tfl.pseudo_qconst")
        if value_type is not None and value_type is not result:
            raise VerifyError(f"value type '{value_type}' must equal the result type '{result}'")


@TFL.op
class QConstOp(TflOp):
    """A quantised constant: ``value`` holds the stored integers (its element type is the
    storage type, e.g. i8) and ``qtype`` the quantised result type."""

    OP_NAME = "tfl.pseudo_qconst"
    traits = (Pure(), ConstantLike())
    qtype = AttrDef(TypeAttrC(TensorType))
    value = AttrDef(ElementsAttrC())
    output = ResultDef(AnyType)

    def verify_shapes(self) -> None:
        result = self.results[0].type
        if self.qtype is not result:
            raise VerifyError(f"qtype '{self.qtype}' must equal the result type '{result}'")
        if not isinstance(result, RankedTensorType) or not isinstance(result.element_type, QuantUniformType):
            raise VerifyError(f"result must be a ranked tensor of a quantised type, not '{result}'")
        value_type = _value_type(self)
        if value_type is None:
            return
        storage = result.element_type.storage_type
        if value_type.shape != result.shape or value_type.element_type is not storage:
            raise VerifyError(f"value type '{value_type}' must be tensor<{fmt(result.shape)}x{storage}> "
                              f"to hold the result '{result}'")
        quant = result.element_type
        if quant.axis is not None:
            if not 0 <= quant.axis < len(result.shape):
                raise VerifyError(f"quantisation axis {quant.axis} is out of range for '{result}'")
            if result.shape[quant.axis] != len(quant.scales):
                raise VerifyError(f"dimension {quant.axis} has {result.shape[quant.axis]} elements but "
                                  f"there are {len(quant.scales)} scales")


@TFL.op
class NoValueOp(TflOp):
    """The absent value of an optional operand (TFLite's tensor index -1), e.g. a missing bias."""

    OP_NAME = "tfl.no_value"
    traits = (Pure(), ConstantLike())
    value = AttrDef(UnitAttrC())
    none_val = ResultDef(AnyType)

    def verify_shapes(self) -> None:
        if not isinstance(self.results[0].type, NoneType):
            raise VerifyError(f"result must be of none type, not '{self.results[0].type}'")


@TFL.op
class CustomOp(TflOp):
    """A TFLite CUSTOM operator, kept as it is: ``custom_code`` names it, ``custom_option`` holds
    its option bytes (ui8 tensor), ``version`` its operator version."""

    OP_NAME = "tfl.custom"
    input = OperandDef(NoneOrTensor, variadic=True)
    custom_code = AttrDef(StrAttrC())
    custom_option = AttrDef(ElementsAttrC(), optional=True)
    version = AttrDef(IntAttrC(32), default=1)
    output = ResultDef(NoneOrTensor, variadic=True)


@TFL.op
class UnsupportedOp(TflOp):
    """A TFLite builtin operator outside this dialect, kept as it is so export writes it back:
    ``opcode`` (its schema name), ``builtin_code``, ``version``, and the raw options tables
    ``builtin_options`` / ``builtin_options_2`` (a vtable then the table's inline bytes, as ui8
    tensors, with their union type numbers) and ``custom_options`` bytes."""

    OP_NAME = "tfl.unsupported"
    input = OperandDef(NoneOrTensor, variadic=True)
    builtin_code = AttrDef(IntAttrC(32, min_value=0))
    builtin_options = AttrDef(ElementsAttrC(), optional=True)
    builtin_options_2 = AttrDef(ElementsAttrC(), optional=True)
    builtin_options_2_type = AttrDef(IntAttrC(32), optional=True)
    builtin_options_type = AttrDef(IntAttrC(32), optional=True)
    custom_options = AttrDef(ElementsAttrC(), optional=True)
    opcode = AttrDef(StrAttrC())
    version = AttrDef(IntAttrC(32), default=1)
    output = ResultDef(NoneOrTensor, variadic=True)

    def verify_shapes(self) -> None:
        from npu_opt.dialects.tfl.opcodes import BUILTIN_CODES
        if BUILTIN_CODES.get(self.opcode, self.builtin_code) != self.builtin_code:
            raise VerifyError(f"opcode '{self.opcode}' is builtin code {BUILTIN_CODES[self.opcode]}, "
                              f"not {self.builtin_code}")
        for key in ("builtin_options", "builtin_options_2"):
            if (self.attr(key) is None) != (self.attr(key + "_type") is None):
                raise VerifyError(f"'{key}' and '{key}_type' must be given together")


__all__ = ["ConstOp", "QConstOp", "NoValueOp", "CustomOp", "UnsupportedOp"]
