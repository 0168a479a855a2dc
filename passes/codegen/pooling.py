"""The global OFM scaling of an average pool (OFM_SCALE) and whether its zero points are dropped,
as Vela 5.2 programs them (docs/codegen_design.md, Pooling)."""
from __future__ import annotations

import math

import numpy as np

from npu_opt.dialects.ethosu.attrs import ScaleAttr
from npu_opt.dialects.npu.ops_common import quant_of, storage_of
from npu_opt.dialects.npu.quant import pooling_scale, quantise_scale, round_away_zero
from npu_opt.interpreters.npu.arith import explicit_rescale, scale, target_quant
from npu_opt.ir.core import Operation
from npu_opt.passes.codegen.weight_bytes import LoweringError

BUILT_IN_FUNCTIONS = ("tanh", "sigmoid")
"""The activations the NPU computes itself (ACTIVATION's function field), not by a table."""
FUNCTION_INPUT_UNITS = 0x3000
"""The built-in functions read their input in units of 1/0x3000."""


def _requantises(op: Operation) -> bool:
    """A 1x1 average pool between two quantisations (a requantisation)."""
    a, b = quant_of(op.operands[0]), target_quant(op)
    same = (a is None and b is None) or (a is not None and b is not None and a.scales[0] == b.scales[0]
                                         and a.zero_points[0] == b.zero_points[0])
    return op.kernel.elements == 1 and not same  # type: ignore[attr-defined]


def average_pool_scaling(op: Operation, padding: tuple[int, ...]) -> tuple[ScaleAttr | None, bool]:
    """(OFM_SCALE or None for per-channel scaling, whether the IFM and OFM zero points are 0) of
    an average pool: scaled globally when unpadded (or explicitly rescaled); the scale is the
    requantisation of a 1x1 pool between two quantisations, else 1/N (N the kernel's elements)
    times the IFM/OFM scale ratio, with the ratio's bits taken from the fraction for a 1x1 pool."""
    explicit = explicit_rescale(op)
    if explicit is not None:
        return ScaleAttr.build(scale=explicit[0], shift=explicit[1]), False
    act = op.attr("activation")
    if act is not None and act.kind in BUILT_IN_FUNCTIONS:
        return _function_input_scale(op, act.kind), False
    if act is not None and act.kind not in ("none", "relu", "relu6", "relu_n1_to_1", "relu0_to_1"):
        raise LoweringError(op, f"an average pool with activation {act.kind} is not lowered yet")
    if any(padding):
        return None, True
    in_scale, out_quant = scale(op.operands[0]), target_quant(op)
    if _requantises(op):
        if in_scale is None or out_quant is None:
            raise LoweringError(op, "a requantising average pool without scales is not lowered yet")
        multiplier, shift = quantise_scale(float(np.double(in_scale) / np.double(out_quant.scales[0])))
        return ScaleAttr.build(scale=multiplier, shift=shift), False
    if in_scale is None or out_quant is None:
        return ScaleAttr.build(scale=1, shift=0), True
    ratio = float(np.float32(in_scale) / np.float32(out_quant.scales[0]))
    elements = op.kernel.elements  # type: ignore[attr-defined]
    multiplier, shift = pooling_scale(elements, _ratio_bits(ratio) if elements == 1 else 0)
    return ScaleAttr.build(scale=round_away_zero(multiplier * float(np.double(ratio))), shift=shift), True


def _function_input_scale(op: Operation, function: str) -> ScaleAttr:
    """OFM_SCALE of a pool feeding the built-in tanh or sigmoid, which reads its input in units
    of 1/0x3000: the IFM scale times 0x3000. A 16-bit IFM whose scale is 2^-12 or 2^-11 (tanh)
    or 2^-12 (sigmoid) gets 3 << k exactly, another the largest multiplier below 2^14 with its
    shift; an 8-bit IFM the pooling scale of its window with that many more integer bits."""
    in_scale = scale(op.operands[0])
    if in_scale is None:
        raise LoweringError(op, f"a pool into the built-in {function} has no IFM scale")
    factor = np.float32(in_scale) * np.float32(FUNCTION_INPUT_UNITS)  # (in float32, as Vela)
    if storage_of(op.operands[0].type).width == 16:  # type: ignore[union-attr]
        exponent = math.log2(in_scale)
        nearest = int(round(exponent))
        power_of_two = abs(exponent - nearest) < 0.001
        bits = nearest + 12
        if power_of_two and (bits == 0 or (function == "tanh" and bits == 1)):
            return ScaleAttr.build(scale=3 << bits, shift=0)
        shift = 0
        while factor <= ((1 << 15) - 1) / 2 and shift <= 30:
            factor, shift = factor * np.float32(2), shift + 1
        return ScaleAttr.build(scale=int(factor), shift=shift)
    integer_bits = len(bin(math.ceil(factor))) - 2 + 1
    multiplier, shift = pooling_scale(op.kernel.elements, integer_bits)  # type: ignore[attr-defined]
    return ScaleAttr.build(scale=round_away_zero(multiplier * float(np.double(factor))), shift=shift)


def reduce_sum_scaling(op: Operation) -> ScaleAttr:
    """OFM_SCALE of an (unpadded) reduce-sum: its explicit rescale, else the IFM/OFM scale ratio
    over its one-element window (1 without scales)."""
    explicit = explicit_rescale(op)
    if explicit is not None:
        return ScaleAttr.build(scale=explicit[0], shift=explicit[1])
    in_scale, out_quant = scale(op.operands[0]), target_quant(op)
    if in_scale is None or out_quant is None:
        return ScaleAttr.build(scale=1, shift=0)
    ratio = float(np.float32(in_scale) / np.float32(out_quant.scales[0]))
    multiplier, shift = pooling_scale(1, _ratio_bits(ratio))
    return ScaleAttr.build(scale=round_away_zero(multiplier * float(np.double(ratio))), shift=shift)


def _ratio_bits(ratio: float) -> int:
    """Bits the scale of a one-element window gives up (or gains) for a ratio other than 1."""
    if ratio > 1:
        return len(bin(math.ceil(ratio))) - 2 + 1
    if ratio < 1:
        return -(len(bin(math.ceil(1 / ratio))) - 2 - 1)
    return 0


__all__ = ["BUILT_IN_FUNCTIONS", "FUNCTION_INPUT_UNITS", "average_pool_scaling", "reduce_sum_scaling"]
