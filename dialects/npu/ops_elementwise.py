"""The NPU's elementwise operations (block type ElementWise): binary arithmetic, min/max and
shifts, unary abs/count-leading-zeros/leaky ReLU, and the stand-alone table lookup.

Binary ops take two feature maps of one rank-4 shape, or broadcast one of them along axes of size
1 ([1, 1, 1, C] or [1, H, W, 1] against [1, H, W, C]), or take a 0-D constant as a *scalar*
operand (the NPU holds it in a register and reads no memory for it). Either operand may be the
broadcast or scalar one; the NPU swaps them as needed (Vela's ``reversed_operands``).
"""
from __future__ import annotations

from npu_opt.dialects.npu.dialect import NPU
from npu_opt.dialects.npu.interfaces import CostedOp
from npu_opt.hardware.op_kind import OpKind
from npu_opt.dialects.npu.ops_common import (
    FeatureMap4D, FeatureMapOrScalar, LookupTable, NpuComputeOp, element_bits, fmt, is_constant, shape_of,
)
from npu_opt.ir.constraints import FloatAttrC, StrAttrC
from npu_opt.ir.opdef import AttrDef, OperandDef, ResultDef, VerifyError
from npu_opt.ir.traits import Pure


class BinaryElementwiseOp(NpuComputeOp):
    """Shared declaration and checks of the binary elementwise ops."""

    traits = (Pure(),)
    ifm = OperandDef(FeatureMapOrScalar, doc="first operand: 4-D feature map or 0-D constant scalar")
    ifm2 = OperandDef(FeatureMapOrScalar, doc="second operand: 4-D feature map or 0-D constant scalar")
    lut = OperandDef(LookupTable, optional=True, doc="table of a fused 'lut' activation")
    ofm = ResultDef(FeatureMap4D, doc="the result, of the larger operand's shape")

    @property
    def scalar_operand(self) -> int | None:
        """Index (0 or 1) of the operand that is a scalar, or None."""
        for index in (0, 1):
            if not shape_of(self.operands[index]):
                return index
        return None

    def verify_shapes(self) -> None:
        a, b, out = shape_of(self.operands[0]), shape_of(self.operands[1]), shape_of(self.results[0])
        for index, shape in enumerate((a, b)):
            if not shape and not is_constant(self.operands[index]):
                raise VerifyError(f"scalar operand #{index} must be a constant")
        if not a and not b:
            raise VerifyError("at most one operand may be a scalar")
        if not a or not b:
            full = a or b
            if full != out:
                raise VerifyError(f"OFM shape {fmt(out)} must equal the feature map operand's {fmt(full)}")
            return
        for x, y, o in zip(a, b, out):
            if not (x == y or x == 1 or y == 1) or o != max(x, y):
                raise VerifyError(f"operands {fmt(a)} and {fmt(b)} do not broadcast to the OFM {fmt(out)} "
                                  "(broadcasting is only along axes of size 1)")


def _binary(op_name: str, vela: str, operator: str, doc: str) -> type[BinaryElementwiseOp]:
    class_name = "".join(p.capitalize() for p in op_name.split(".")[1].split("_")) + "Op"
    traits = (Pure(), CostedOp(OpKind.ELEMENTWISE_BINARY, operator))
    cls = type(BinaryElementwiseOp)(class_name, (BinaryElementwiseOp,), {
        "__doc__": doc, "OP_NAME": op_name, "VELA_OP": vela, "traits": traits, "__module__": __name__})
    return NPU.op(cls)  # type: ignore[return-value]


AddOp = _binary("npu.add", "Add", "add", "Elementwise addition ifm + ifm2, rescaled to the OFM (Vela's ``Add``).")
SubOp = _binary("npu.sub", "Sub", "sub", "Elementwise subtraction ifm - ifm2, rescaled to the OFM (Vela's ``Sub``).")
MulOp = _binary("npu.mul", "Mul", "mul", "Elementwise multiplication, rescaled to the OFM (Vela's ``Mul``). With a "
                "32-bit OFM the product is not rescaled; an explicit ``rescale`` shift applies.")
MinimumOp = _binary("npu.minimum", "Minimum", "min", "Elementwise minimum (Vela's ``Minimum``).")
MaximumOp = _binary("npu.maximum", "Maximum", "max", "Elementwise maximum (Vela's ``Maximum``).")
ShlOp = _binary("npu.shl", "SHL", "shl", "Elementwise shift left of ifm by ifm2 bits, 32-bit (Vela's ``SHL``).")
ShrOp = _binary("npu.shr", "SHR", "shr", "Elementwise rounding shift right of ifm by ifm2 bits (Vela's ``SHR``).")


class UnaryElementwiseOp(NpuComputeOp):
    """Shared declaration of the unary elementwise ops: the OFM has the IFM's shape."""

    traits = (Pure(),)
    ifm = OperandDef(FeatureMap4D, doc="NHWC input feature map")
    ofm = ResultDef(FeatureMap4D, doc="the result, of the IFM's shape")

    def verify_shapes(self) -> None:
        if shape_of(self.ifm) != shape_of(self.ofm):
            raise VerifyError(f"OFM shape {fmt(shape_of(self.ofm))} must equal the IFM shape {fmt(shape_of(self.ifm))}")


@NPU.op
class AbsOp(UnaryElementwiseOp):
    """Elementwise absolute value (Vela's ``Abs``)."""

    OP_NAME = "npu.abs"
    VELA_OP = "Abs"
    traits = (Pure(), CostedOp(OpKind.ELEMENTWISE_UNARY, "abs"))


@NPU.op
class ClzOp(UnaryElementwiseOp):
    """Count of leading zeros of 32-bit integers (Vela's ``CLZ``); the OFM is 32-bit."""

    OP_NAME = "npu.clz"
    VELA_OP = "CLZ"
    traits = (Pure(), CostedOp(OpKind.ELEMENTWISE_UNARY, "clz"))

    def verify_shapes(self) -> None:
        super().verify_shapes()
        if element_bits(self.ifm) != 32 or element_bits(self.ofm) != 32:
            raise VerifyError("count-leading-zeros works on 32-bit integers")


@NPU.op
class LeakyReluOp(UnaryElementwiseOp):
    """Elementwise x if x >= 0 else alpha * x, the NPU's LRELU (Vela's ``LeakyRelu``; used for
    16-bit feature maps with equal IFM and OFM scales, 8-bit ones use a table)."""

    OP_NAME = "npu.leaky_relu"
    VELA_OP = "LeakyRelu"
    traits = (Pure(), CostedOp(OpKind.ELEMENTWISE_UNARY, "leaky_relu"))
    alpha = AttrDef(FloatAttrC(), doc="slope for negative inputs")


@NPU.op
class LutOp(NpuComputeOp):
    """A stand-alone table lookup: each IFM value indexes ``lut`` (Vela's ``convert_to_lut``,
    which runs as an elementwise ADD of a scalar zero with a table-lookup activation and no
    rescale before the table). Tables implement 8-bit tanh, sigmoid, hard-swish, leaky ReLU and
    exp; ``function`` names the one it holds. ``activation`` must be 'lut'."""

    OP_NAME = "npu.lut"
    VELA_OP = "Add"
    traits = (Pure(), CostedOp(OpKind.ELEMENTWISE_BINARY, "add"))
    ifm = OperandDef(FeatureMap4D, doc="NHWC input feature map")
    lut = OperandDef(LookupTable, doc="the table, indexed by the IFM value")
    function = AttrDef(StrAttrC(), optional=True,
                       doc="what the table computes ('tanh', 'sigmoid', 'hardswish', 'lrelu', 'exp', ...)")
    ofm = ResultDef(FeatureMap4D, doc="the looked-up values, of the IFM's shape")

    def verify_shapes(self) -> None:
        if shape_of(self.ifm) != shape_of(self.ofm):
            raise VerifyError(f"OFM shape {fmt(shape_of(self.ofm))} must equal the IFM shape {fmt(shape_of(self.ifm))}")
        act = self.attr("activation")
        if act is None or getattr(act, "kind", None) != "lut":
            raise VerifyError("a table lookup needs a 'lut' activation")


__all__ = ["AbsOp", "AddOp", "BinaryElementwiseOp", "ClzOp", "LeakyReluOp", "LutOp", "MaximumOp", "MinimumOp",
           "MulOp", "ShlOp", "ShrOp", "SubOp", "UnaryElementwiseOp"]
