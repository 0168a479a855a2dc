"""Element-wise ops: broadcasting binary arithmetic, activations, softmax and (de)quantisation.

Binary ops broadcast NumPy-style and need the same element storage type on both operands and
the result (quantised operands may have different scales). Unary ops keep the input's shape.
"""
from __future__ import annotations

from npu_opt.ir.constraints import TensorOf, TypeAttrC
from npu_opt.ir.opdef import AttrDef, OperandDef, ResultDef, VerifyError
from npu_opt.ir.traits import Pure
from npu_opt.ir.types import FloatType, QuantUniformType, TensorType, element_type_of

from npu_opt.dialects.tfl.common import TFL, ActivationAttr, Activations, BoolAttr, FiniteF32Attr, Numeric, TflOp
from npu_opt.dialects.tfl.shapes import broadcast, expect_shape, same_storage, shape_of

Float = TensorOf("f32", "f16")
FloatOrQuant = TensorOf("f32", "f16", "qi8", "qu8", "qi16")


class _Binary(TflOp):
    """Broadcasting binary op: result shape = broadcast(lhs, rhs), one storage type."""

    traits = (Pure(),)
    lhs = OperandDef(Numeric)
    rhs = OperandDef(Numeric)

    def verify_shapes(self) -> None:
        lhs, rhs = self.operands
        same_storage([lhs, rhs, self.results[0]], "operands and result")
        a, b = shape_of(lhs), shape_of(rhs)
        if a is not None and b is not None:
            expect_shape(shape_of(self.results[0]), broadcast(a, b))


class _AddSub(_Binary):
    """ADD and SUB: a fused activation, and TFLite's int16 power-of-two scale flag."""

    fused_activation_function = AttrDef(ActivationAttr)
    pot_scale_int16 = AttrDef(BoolAttr, optional=True,
                              doc="int16 only: scales are powers of two (TFLite's default: true)")


class _Unary(TflOp):
    """Shape-preserving op: result shape = input shape; same storage type unless it converts."""

    converts = False

    def verify_shapes(self) -> None:
        source = self.operands[0]
        if not self.converts:
            same_storage([source, self.results[0]], "input and output")
        shape = shape_of(source)
        if shape is not None:
            expect_shape(shape_of(self.results[0]), shape)


@TFL.op
class AddOp(_AddSub):
    """Element-wise addition (ADD) with broadcasting and an optional fused activation."""

    OP_NAME = "tfl.add"
    BUILTIN = "ADD"
    output = ResultDef(Numeric)


@TFL.op
class SubOp(_AddSub):
    """Element-wise subtraction (SUB) with broadcasting and an optional fused activation."""

    OP_NAME = "tfl.sub"
    BUILTIN = "SUB"
    output = ResultDef(Numeric)


@TFL.op
class MulOp(_Binary):
    """Element-wise multiplication (MUL) with broadcasting and an optional fused activation."""

    OP_NAME = "tfl.mul"
    BUILTIN = "MUL"
    fused_activation_function = AttrDef(ActivationAttr)
    output = ResultDef(Numeric)


@TFL.op
class MinimumOp(_Binary):
    """Element-wise minimum (MINIMUM) with broadcasting."""

    OP_NAME = "tfl.minimum"
    BUILTIN = "MINIMUM"
    min = ResultDef(Numeric)


@TFL.op
class MaximumOp(_Binary):
    """Element-wise maximum (MAXIMUM) with broadcasting."""

    OP_NAME = "tfl.maximum"
    BUILTIN = "MAXIMUM"
    max = ResultDef(Numeric)


@TFL.op
class SquaredDifferenceOp(_Binary):
    """Element-wise (lhs - rhs)^2 (SQUARED_DIFFERENCE) with broadcasting."""

    OP_NAME = "tfl.squared_difference"
    BUILTIN = "SQUARED_DIFFERENCE"
    output = ResultDef(Numeric)


def _unary(op_name: str, builtin: str, doc: str, operand: str = "x", result: str = "y",
           types: object = Activations) -> type[_Unary]:
    """Declare a shape-preserving op with one operand and one result, named as in TFL."""
    namespace = {
        "__doc__": doc, "OP_NAME": op_name, "BUILTIN": builtin, "traits": (Pure(),),
        operand: OperandDef(types),  # type: ignore[arg-type]
        result: ResultDef(types),  # type: ignore[arg-type]
        "__module__": __name__,
    }
    class_name = "".join(part.capitalize() for part in op_name.split(".")[1].split("_")) + "Op"
    cls = type(_Unary)(class_name, (_Unary,), namespace)
    return TFL.op(cls)  # type: ignore[return-value]


AbsOp = _unary("tfl.abs", "ABS", "Element-wise absolute value (ABS).")
ExpOp = _unary("tfl.exp", "EXP", "Element-wise natural exponential (EXP).")
LogOp = _unary("tfl.log", "LOG", "Element-wise natural logarithm (LOG).")
RsqrtOp = _unary("tfl.rsqrt", "RSQRT", "Element-wise reciprocal square root (RSQRT).")
ReluOp = _unary("tfl.relu", "RELU", "Element-wise max(0, x) (RELU).")
Relu6Op = _unary("tfl.relu6", "RELU6", "Element-wise min(max(0, x), 6) (RELU6).")
Relu1Op = _unary("tfl.relu_n1_to_1", "RELU_N1_TO_1", "Element-wise min(max(-1, x), 1) (RELU_N1_TO_1).")
Relu0To1Op = _unary("tfl.relu_0_to_1", "RELU_0_TO_1", "Element-wise min(max(0, x), 1) (RELU_0_TO_1).")
TanhOp = _unary("tfl.tanh", "TANH", "Element-wise hyperbolic tangent (TANH).", "input", "output")
LogisticOp = _unary("tfl.logistic", "LOGISTIC", "Element-wise sigmoid 1 / (1 + exp(-x)) (LOGISTIC).")
HardSwishOp = _unary("tfl.hard_swish", "HARD_SWISH",
                     "Element-wise x * relu6(x + 3) / 6 (HARD_SWISH).", "input", "output")


@TFL.op
class LeakyReluOp(_Unary):
    """Element-wise x if x >= 0 else alpha * x (LEAKY_RELU)."""

    OP_NAME = "tfl.leaky_relu"
    BUILTIN = "LEAKY_RELU"
    traits = (Pure(),)
    input = OperandDef(Activations)
    alpha = AttrDef(FiniteF32Attr)
    output = ResultDef(Activations)


@TFL.op
class SoftmaxOp(_Unary):
    """Softmax along the innermost dimension (SOFTMAX): exp(beta * x) / sum(exp(beta * x))."""

    OP_NAME = "tfl.softmax"
    BUILTIN = "SOFTMAX"
    traits = (Pure(),)
    input = OperandDef(Activations)
    beta = AttrDef(FiniteF32Attr)
    output = ResultDef(Activations)


@TFL.op
class QuantizeOp(_Unary):
    """Quantise a float tensor, or requantise a quantised one (QUANTIZE), to ``qtype``.

    ``qtype`` is the result's tensor type; the shape is kept."""

    OP_NAME = "tfl.quantize"
    BUILTIN = "QUANTIZE"
    traits = (Pure(),)
    converts = True
    input = OperandDef(FloatOrQuant)
    qtype = AttrDef(TypeAttrC(TensorType), doc="the quantised result type")
    output = ResultDef(TensorOf("qi8", "qu8", "qi16", "qi32"))

    def verify_shapes(self) -> None:
        super().verify_shapes()
        if self.qtype is not self.results[0].type:
            raise VerifyError(f"qtype '{self.qtype}' must equal the result type '{self.results[0].type}'")


@TFL.op
class DequantizeOp(_Unary):
    """Turn a quantised (or f16) tensor into f32 (DEQUANTIZE); the shape is kept."""

    OP_NAME = "tfl.dequantize"
    BUILTIN = "DEQUANTIZE"
    traits = (Pure(),)
    converts = True
    input = OperandDef(TensorOf("qi8", "qu8", "qi16", "f16", "i8", "qi4"))
    output = ResultDef(Float)

    def verify_shapes(self) -> None:
        super().verify_shapes()
        elem = element_type_of(self.operands[0].type)
        if not isinstance(elem, (QuantUniformType, FloatType)) and str(elem) != "i8":
            raise VerifyError(f"input must be quantised or f16, not {elem}")


__all__ = ["AddOp", "SubOp", "MulOp", "MinimumOp", "MaximumOp", "SquaredDifferenceOp", "AbsOp",
           "ExpOp", "LogOp", "RsqrtOp", "ReluOp", "Relu6Op", "Relu1Op", "Relu0To1Op", "TanhOp",
           "LogisticOp", "HardSwishOp", "LeakyReluOp", "SoftmaxOp", "QuantizeOp", "DequantizeOp"]
