"""SOFTMAX as the NPU computes it: Vela's decomposition (``softmax.py``) into a max pool over the
channels, an exp table, a reduce-sum, and a Newton-Raphson reciprocal in 32-bit elementwise
arithmetic, 31 ops for 8-bit data (``<name>_maxpool0`` ... ``<name>_shr30``) and 14 for int16.

Types follow Vela's quantisations: ``one``/``two`` scale tensors are ``!quant.uniform`` with scale
1 or 2; Vela's "no scale" tensors keep the IFM's zero point with scale 1, and the ops writing them
get an explicit identity ``rescale``. Clamps are Vela's (``clip`` of the IFM range, doubled for
the products), quantised with the OFM's quantisation.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from npu_opt.dialects.npu.ops_common import NpuOp
from npu_opt.dialects.npu.ops_elementwise import AddOp, ClzOp, MulOp, ShlOp, ShrOp, SubOp
from npu_opt.dialects.npu.ops_pool import MaxPoolOp, ReduceSumOp
from npu_opt.dialects.npu.quant import elementwise_mul_scale, scale_and_zero_point
from npu_opt.ir.core import Operation, Value
from npu_opt.ir.types import I16, I32, Type, element_type_of
from npu_opt.passes.npu_lowering.builder import Builder, quant_type, storage, tensor
from npu_opt.passes.npu_lowering.context import Lowering
from npu_opt.passes.npu_lowering.view import quant, shape4, shape_list, view_of

# The int16 softmax tables (exp, and 1/(1+x)) have 512 32-bit entries: a base value in the low 16
# bits and the slope to the next entry in the high 16 bits. Vela lists them; here they are
# generated from their definitions, which gives the same size and shape with values that may
# differ by a unit in the last place.
_EXP16_RANGE = 10.0


def _int16_table(fn: Any, lo: float, hi: float) -> list[int]:
    """A 512-entry interpolation table of ``fn`` on [lo, hi] in the NPU's 16-bit LUT format
    (base in bits 0..15, slope to the next entry in bits 16..31)."""
    base = []
    for i in range(513):
        x = lo + (hi - lo) * i / 512
        base.append(int(max(-32768, min(32767, round(fn(x))))))
    table = []
    for i in range(512):
        slope = base[i + 1] - base[i]
        table.append(((slope & 0xFFFF) << 16) | (base[i] & 0xFFFF))
    return table


class _Seq:
    """Emits the decomposition's ops with Vela's numbered names."""

    def __init__(self, b: Builder) -> None:
        self.b = b
        self.count = 0

    def op(self, cls: type[NpuOp], kind: str, operands: list[Value], result: Type, lut: Value | None = None,
           **attrs: Any) -> Value:
        """An op named ``<name>_<kind><number>``; ``lut`` is its lookup table, if any."""
        operands = operands + ([lut] if lut is not None else [])
        value = self.b.npu(cls, operands, result, f"{self.b.name}_{kind}{self.count}", **attrs)
        self.count += 1
        return value

    def const(self, value: int, elem: Type) -> Value:
        return self.b.const(np.full((1, 1, 1, 1), value, dtype=np.int64), tensor((1, 1, 1, 1), elem))


def lower_softmax(op: Operation, lowering: Lowering) -> None:
    view = view_of(op)
    b = lowering.builder(op)
    assert view.ifm is not None and view.ofm is not None
    n, h, w, c = shape4(shape_list(view.ifm))
    shape = (1, n * h, w, c)
    ifm = b.reshape(view.ifm, shape)
    beta = float(view.attr("beta", 1.0))  # type: ignore[arg-type]
    if storage(view.ifm.type).width == 8:
        result = _softmax8(b, ifm, view.ifm, view.ofm, shape, beta)
    else:
        result = _softmax16(b, ifm, view.ifm, view.ofm, shape, beta)
    b.finish(op, [result])


def _softmax8(b: Builder, ifm: Value, source: Value, ofm: Value, shape: tuple[int, ...], beta: float) -> Value:
    from npu_opt.passes.npu_lowering.tables import softmax_exp_lut
    s = _Seq(b)
    in_scale, zp = scale_and_zero_point(quant(source))
    qmin, qmax = storage(source.type).value_range()
    no_scale = quant_type(I32, 1.0, zp)
    one = quant_type(I32, 1.0, 0)
    two = quant_type(I32, 2.0, 0)
    ident = b.rescale(1, 0)
    _, hw_, w, c = shape
    full, col = tensor(shape, I32), tensor((1, hw_, w, 1), I32)

    def t(elem: Type, shaped: Any = col) -> Type:
        return tensor(shaped.shape, elem)

    def clip(elem_type: Type, factor: int = 1) -> Any:
        return b.clip(factor * qmin, factor * qmax, elem_type)

    # PASS 0: the maximum of each pixel's channels, a max pool over the channels viewed as width
    lanes = b.reshape(ifm, (1, hw_ * w, c, 1))
    max_type = tensor((1, hw_ * w, 1, 1), quant_type(storage(source.type), 1.0, zp))
    ifm_max = s.op(MaxPoolOp, "maxpool", [lanes], max_type, kernel=b.kernel((1, c)),
                   activation=b.activation("none", max_type), rescale=ident)
    # PASS 1: x - max, through the exp table (32-bit)
    exp_type = t(quant_type(I32, 1.0, 127), full)
    table = b.const(np.asarray(softmax_exp_lut(beta, in_scale), dtype=np.int64), tensor((256,), I32))
    ifm_exp = s.op(SubOp, "sub", [ifm, b.reshape(ifm_max, (1, hw_, w, 1))], exp_type, lut=table,
                   activation=b.activation("lut", exp_type))
    # PASS 2-4: rescale, sum over the channels, count leading zeros
    shr_type = t(no_scale, full)
    rescaled_exp = s.op(ShrOp, "shr", [ifm_exp, s.const(12, no_scale)], shr_type, activation=clip(shr_type),
                        rescale=ident, rounding="half_up")
    sum_type = t(no_scale)
    sum_of_exp = s.op(ReduceSumOp, "reduce_sum", [rescaled_exp], sum_type, activation=clip(sum_type), rescale=ident)
    headroom_plus_one = s.op(ClzOp, "clz", [sum_of_exp], sum_type, activation=clip(sum_type), rescale=ident)
    # PASS 5-9: shifts that normalise the sum
    right_shift = s.op(SubOp, "sub", [s.const(12 + 31 - 8, no_scale), headroom_plus_one], sum_type,
                       activation=clip(sum_type), rescale=ident)
    one_const = s.const(1, no_scale)
    headroom = s.op(SubOp, "sub", [headroom_plus_one, one_const], sum_type, activation=clip(sum_type), rescale=ident)
    shifted_sum = s.op(ShlOp, "shl", [sum_of_exp, headroom], sum_type, activation=clip(sum_type), rescale=ident)
    shifted_minus_one = s.op(SubOp, "sub", [shifted_sum, s.const(1 << 30, no_scale)], sum_type,
                             activation=clip(sum_type), rescale=ident)
    shifted_minus_one = s.op(ShlOp, "shl", [shifted_minus_one, one_const], sum_type, activation=clip(sum_type),
                             rescale=ident)
    # PASS 10-12: the initial estimate of 1 / sum
    one_type, two_type = t(one), t(two)
    half_denominator = s.op(AddOp, "add", [shifted_minus_one, s.const((1 << 31) - 1, no_scale)], one_type,
                            activation=clip(one_type), rescale=b.rescale(1, 1))
    rescaled = s.op(MulOp, "mul", [half_denominator, s.const(-1010580540, one)], two_type,
                    activation=clip(two_type, 2))
    nr_x = s.op(AddOp, "add", [rescaled, s.const(1515870810, no_scale)], one_type, activation=clip(one_type))
    # PASS 13-27: three Newton-Raphson steps
    f2_one, four = s.const(1 << 29, no_scale), s.const(4, no_scale)
    for _ in range(3):
        product = s.op(MulOp, "mul", [nr_x, half_denominator], two_type, activation=clip(two_type, 2))
        error = s.op(SubOp, "sub", [f2_one, product], one_type, activation=clip(one_type))
        scaled = s.op(MulOp, "mul", [nr_x, error], two_type, activation=clip(two_type, 2))
        to_add = s.op(MulOp, "mul", [scaled, four], sum_type, activation=clip(sum_type), rescale=ident)
        nr_x = s.op(AddOp, "add", [nr_x, to_add], one_type, activation=clip(one_type))
    # PASS 28-30: scale the exps by the reciprocal and shift into the OFM
    scale_factor = s.op(MulOp, "mul", [nr_x, s.const(2, no_scale)], one_type, activation=clip(one_type))
    scaled_exp = s.op(MulOp, "mul", [ifm_exp, scale_factor], t(two, full), activation=clip(t(two, full), 2))
    ofm_type = tensor(shape, element_type_of(ofm.type))
    return s.op(ShrOp, "shr", [scaled_exp, right_shift], ofm_type, activation=b.activation("none", ofm_type),
                rounding="half_up")


def _softmax16(b: Builder, ifm: Value, source: Value, ofm: Value, shape: tuple[int, ...], beta: float) -> Value:
    """Vela's ``get_graph_int16``."""
    import math
    s = _Seq(b)
    in_scale, zp = scale_and_zero_point(quant(source))
    out_scale, out_zp = scale_and_zero_point(quant(ofm))
    no_scale = quant_type(I32, 1.0, zp)
    ident = b.rescale(1, 0)
    _, hw_, w, c = shape
    full, col = (1, hw_, w, c), (1, hw_, w, 1)
    lanes = b.reshape(ifm, (1, hw_ * w, c, 1))
    max_type = tensor((1, hw_ * w, 1, 1), quant_type(I16, 1.0, zp))
    ifm_max = s.op(MaxPoolOp, "maxpool", [lanes], max_type, kernel=b.kernel((1, c)),
                   activation=b.activation("none", max_type), rescale=ident)
    sub_type = tensor(full, quant_type(I32, in_scale, zp))
    sub1 = s.op(SubOp, "sub", [ifm, b.reshape(ifm_max, col)], sub_type, activation=b.activation("none", sub_type))
    mul2_range = 10.0 / 65535.0
    mul2_scale, _ = elementwise_mul_scale(in_scale, beta, mul2_range, True)
    mul2_type = tensor(full, quant_type(I32, mul2_range, out_zp))
    mul2 = s.op(MulOp, "mul", [sub1, s.const(mul2_scale, quant_type(I32, beta, zp))], mul2_type,
                activation=b.activation("none", mul2_type))
    exp_type = tensor(full, quant_type(I16, mul2_range, out_zp))
    exp_table = _int16_table(lambda x: 32767 * math.exp(x), -_EXP16_RANGE, 0.0)
    exp_lut = b.const(np.asarray(exp_table, dtype=np.int64), tensor((512,), I32))
    ifm_exp = s.op(AddOp, "add", [mul2, s.const(32767, no_scale)], exp_type, lut=exp_lut,
                   activation=b.activation("lut", exp_type))
    col_type = tensor(col, no_scale)
    sum_of_exp = s.op(ReduceSumOp, "reduce_sum", [ifm_exp], col_type, activation=b.activation("none", col_type),
                      rescale=ident)
    headroom_plus_one = s.op(ClzOp, "clz", [sum_of_exp], col_type, activation=b.activation("none", col_type),
                             rescale=ident)
    reciprocal_right_shift = s.op(SubOp, "sub", [s.const(31, no_scale), headroom_plus_one], col_type,
                                  activation=b.activation("none", col_type), rescale=ident)
    constant_one = s.op(ShlOp, "shl", [s.const(1, no_scale), reciprocal_right_shift], col_type,
                        activation=b.activation("none", col_type), rescale=ident)
    minus_one = s.op(SubOp, "sub", [sum_of_exp, constant_one], col_type, activation=b.activation("none", col_type),
                     rescale=ident)
    shifted = s.op(ShlOp, "shl", [minus_one, headroom_plus_one], col_type, activation=b.activation("none", col_type),
                   rescale=ident)
    shifted16 = s.op(ShrOp, "shr", [shifted, s.const(15, no_scale)], col_type,
                     activation=b.activation("none", col_type), rescale=ident)
    recip_type = tensor(col, quant_type(I16, 1.0, zp))
    recip_table = _int16_table(lambda x: 32767 / (1 + x), 0.0, 1.0)
    recip_lut = b.const(np.asarray(recip_table, dtype=np.int64), tensor((512,), I32))
    reciprocal = s.op(SubOp, "sub", [shifted16, s.const(32768, no_scale)], recip_type, lut=recip_lut,
                      activation=b.activation("lut", recip_type), rescale=ident)
    mul_type = tensor(full, no_scale)
    product = s.op(MulOp, "mul", [ifm_exp, reciprocal], mul_type, activation=b.activation("none", mul_type),
                   rescale=ident)
    ofm_type = tensor(shape, element_type_of(ofm.type))
    return s.op(ShrOp, "shr", [product, reciprocal_right_shift], ofm_type, activation=b.activation("none", ofm_type))


__all__ = ["lower_softmax"]
