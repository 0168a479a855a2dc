"""The scaling registers of a binary elementwise operation (OFM_SCALE, OPA/OPB_SCALE, the IFM
scale mode, global scaling), from its operands' quantisation as Vela 5.2 programs them
(docs/codegen_design.md, Elementwise operations)."""
from __future__ import annotations

import numpy as np

from npu_opt.dialects.ethosu.attrs import ScaleAttr
from npu_opt.dialects.npu.interfaces import costed
from npu_opt.dialects.npu.quant import add_sub_scale, elementwise_mul_scale, quantise_scale
from npu_opt.interpreters.npu.arith import explicit_rescale, scale, target_quant
from npu_opt.ir.core import Operation
from npu_opt.passes.codegen.pooling import BUILT_IN_FUNCTIONS, FUNCTION_INPUT_UNITS
from npu_opt.passes.codegen.weight_bytes import LoweringError

MODES = {"add": "add", "sub": "sub", "mul": "mul", "min": "min", "max": "max", "shl": "shl", "shr": "shr",
         "clz": "clz", "abs": "abs", "leaky_relu": "lrelu"}
"""The binary elementwise operators lowered so far and their NPU mode."""
GLOBAL_SCALED = ("add", "sub", "mul", "lrelu", "abs")
"""The modes whose OFM_SCALE is global (the others are not rescaled)."""
INPUT_SHIFT = 16
"""Fraction bits of the simplified add/sub input scales."""


def _output_scale(op: Operation) -> float | None:
    if op.attr("output_quant") is None:
        return scale(op.results[0])
    quant = target_quant(op)
    return float(quant.scales[0]) if quant is not None else None


def _simplified(in1: float, in2: float, out: float) -> tuple[int, int, int, int]:
    """(operand A scale, operand B scale, OFM multiplier, OFM shift) of an add/sub whose operands
    share a scale: both rescaled to 2^16 / 2 of the larger, the OFM by the rest."""
    top = np.double(max(in1, in2))
    a = int(np.double(in1) * (1 << INPUT_SHIFT) / (2 * top))
    b = int(np.double(in2) * (1 << INPUT_SHIFT) / (2 * top))
    multiplier, shift = quantise_scale(float((2 * top) / (np.double(out) * (1 << INPUT_SHIFT))))
    return a, b, multiplier, shift


def elementwise_registers(op: Operation, ifm_bits: int, reversed_operands: bool = False,
                          scales: tuple[float | None, float | None, float | None] | None = None) -> dict:
    """The ethosu.elementwise attributes of ``op``'s operator and scaling; ``reversed_operands``:
    the NPU reads operand 1 as its IFM and operand 0 as its IFM2; ``scales`` overrides the
    operands' and the OFM's (a table lookup's add of zero keeps the IFM's scale)."""
    interface = costed(op)
    operator = interface.elementwise if interface is not None else None
    mode = MODES.get(operator or "")
    if mode is None:
        raise LoweringError(op, f"elementwise {operator or op.name} is not lowered yet")
    if mode in ("clz", "abs", "lrelu"):
        return _unary_registers(op, mode)
    in1, in2, out = scales if scales is not None else (scale(op.operands[0]), scale(op.operands[1]),
                                                       _output_scale(op))
    act = op.attr("activation")
    if act is not None and act.kind in BUILT_IN_FUNCTIONS:  # the function reads units of 1/0x3000
        out = 1 / FUNCTION_INPUT_UNITS
    if reversed_operands:
        in1, in2 = in2, in1
    explicit = explicit_rescale(op)
    attrs: dict = {"mode": mode, "scale_mode": "opa16_opb16"}
    if mode in GLOBAL_SCALED:
        attrs["global_scale"] = True
    if mode in ("min", "max", "shl", "shr"):
        if explicit not in (None, (1, 0)):
            raise LoweringError(op, f"a {mode} rescaled by {explicit[0]} >> {explicit[1]} is not lowered yet")
        attrs["ofm_scale"] = ScaleAttr.build(scale=1, shift=0)
        return attrs
    if mode == "mul":
        if explicit is not None:
            multiplier, shift = explicit
        elif None in (in1, in2, out):
            multiplier, shift = 1, 0
        else:
            multiplier, shift = elementwise_mul_scale(in1, in2, out)  # type: ignore[arg-type]
        attrs["ofm_scale"] = ScaleAttr.build(scale=multiplier, shift=shift)
        return attrs
    opa, opa_shift, opb = 1, 0, 1
    if explicit is not None:
        multiplier, shift = explicit
    elif None in (in1, in2, out):
        multiplier, shift = 1, 0
    else:
        advanced = in1 != in2
        if in1 == in2:
            opa, opb, multiplier, shift = _simplified(in1, in2, out)  # type: ignore[arg-type]
            if ifm_bits == 16:
                opa, opb, shift = opa // 2, opb // 2, shift - 1
            else:
                advanced = multiplier & 0xFFF != 0
        if advanced:
            opa, opa_shift, multiplier, shift, scaled = add_sub_scale(in1, in2, out, ifm_bits)  # type: ignore[arg-type]
            opb = 0
            attrs["scale_mode"] = "opa32" if (scaled == 0) != reversed_operands else "opb32"
    attrs["ofm_scale"] = ScaleAttr.build(scale=multiplier, shift=shift)
    attrs["opa_scale"] = ScaleAttr.build(scale=opa, shift=opa_shift)
    attrs["opb_scale"] = ScaleAttr.build(scale=opb)
    return attrs


def _unary_registers(op: Operation, mode: str) -> dict:
    """OFM_SCALE of a unary operation: none for a count of leading zeros (not globally scaled), the
    IFM/OFM scale ratio (in float32) for an absolute value, alpha for a leaky ReLU (which the
    NPU runs only between equal scales)."""
    if explicit_rescale(op) not in (None, (1, 0)):
        raise LoweringError(op, f"a {mode} with an explicit rescale {explicit_rescale(op)} is not lowered yet")
    multiplier, shift = 1, 0
    if mode == "abs":
        in_scale, out_scale = scale(op.operands[0]), _output_scale(op)
        if in_scale is not None and out_scale is not None:
            multiplier, shift = quantise_scale(float(np.float32(in_scale) / np.float32(out_scale)))
    elif mode == "lrelu":
        in_scale, out_scale = scale(op.operands[0]), _output_scale(op)
        if in_scale != out_scale:
            raise LoweringError(op, f"a leaky ReLU from scale {in_scale} to scale {out_scale} cannot be "
                                    "encoded: the NPU's leaky ReLU keeps the IFM's scale")
        multiplier, shift = quantise_scale(float(op.attr("alpha").value))  # type: ignore[union-attr]
    attrs = {"mode": mode, "scale_mode": "opa16_opb16", "ofm_scale": ScaleAttr.build(scale=multiplier, shift=shift)}
    if mode in GLOBAL_SCALED:
        attrs["global_scale"] = True
    return attrs


__all__ = ["elementwise_registers"]
