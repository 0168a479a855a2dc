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

# The int16 softmax tables (exp on [-10, 0], and 1/(1+x) on [0, 1]) have 512 32-bit entries: a
# base value in the low 16 bits and the slope to the next entry in the high 16 bits. They are
# TFLite's int16 LUTs (the ones its reference kernel interpolates), generated from their
# definition: outputs in [-1, 1] mapped onto 2^16 steps (scale 32768), each sample moved by half
# the error linear interpolation makes at the segment's midpoint, the final end point uncorrected.
_EXP16_RANGE = 10.0
_LUT16_STEPS = 512
_LUT16_SCALE = 32768.0


def _round_away(values: np.ndarray) -> np.ndarray:
    """Round half away from zero (C's ``round``), which TFLite's table generation uses."""
    return np.sign(values) * np.floor(np.abs(values) + 0.5)


def _int16_table(fn: Any, lo: float, hi: float) -> list[int]:
    """A 512-entry interpolation table of ``fn`` on [lo, hi] in the NPU's 16-bit LUT format (base
    in bits 0..15, slope to the next entry in bits 16..31), with TFLite's int16 LUT values.

    Each segment's base is the sample ``round(fn(x) * 32768)`` less half (rounded) of the
    difference between the interpolated and the exact midpoint value, which halves the worst
    interpolation error; the 513th point (the slope's end) is the plain sample at ``hi``."""
    width = (hi - lo) / _LUT16_STEPS
    starts = lo + np.arange(_LUT16_STEPS, dtype=np.float64) * width
    ends = lo + np.arange(1, _LUT16_STEPS + 1, dtype=np.float64) * width
    samples = _round_away(fn(starts) * _LUT16_SCALE)
    interpolated_mid = _round_away((fn(ends) * _LUT16_SCALE + samples) / 2)
    exact_mid = _round_away(fn(starts + width / 2) * _LUT16_SCALE)
    bias = _round_away((interpolated_mid - exact_mid) / 2)
    last = _round_away(fn(np.array([hi], dtype=np.float64)) * _LUT16_SCALE)
    points = np.clip(np.concatenate([samples - bias, last]), -32768, 32767).astype(np.int64)
    slopes = np.diff(points)
    return (((slopes & 0xFFFF) << 16) | (points[:-1] & 0xFFFF)).tolist()


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


class _Int32Steps:
    """The 32-bit elementwise steps of the 8-bit softmax: their element types (no scale, keeping
    the IFM zero point; scale 1; scale 2 for products) and clamps (the IFM's 8-bit range, doubled
    for products), per pixel (``column``) or per element (``full``)."""

    def __init__(self, seq: _Seq, source: Value, shape: tuple[int, ...]) -> None:
        self.seq, self.b = seq, seq.b
        _, zp = scale_and_zero_point(quant(source))
        self.qmin, self.qmax = storage(source.type).value_range()
        self.raw, self.one, self.two = quant_type(I32, 1.0, zp), quant_type(I32, 1.0, 0), quant_type(I32, 2.0, 0)
        _, rows, w, c = shape
        self.full_shape, self.column_shape = shape, (1, rows, w, 1)

    def column(self, elem: Type) -> Type:
        return tensor(self.column_shape, elem)

    def full(self, elem: Type) -> Type:
        return tensor(self.full_shape, elem)

    def step(self, cls: type[NpuOp], kind: str, operands: list[Value], result: Type, factor: int = 1,
             **attrs: Any) -> Value:
        """One op clamped to ``factor`` times the IFM range."""
        return self.seq.op(cls, kind, operands, result, activation=self.b.clip(factor * self.qmin,
                                                                               factor * self.qmax, result), **attrs)

    def raw_step(self, cls: type[NpuOp], kind: str, operands: list[Value], result: Type | None = None) -> Value:
        """A step on unscaled 32-bit values per pixel, with an identity rescale."""
        return self.step(cls, kind, operands, result or self.column(self.raw), rescale=self.b.rescale(1, 0))

    def const(self, value: int, elem: Type | None = None) -> Value:
        return self.seq.const(value, elem or self.raw)


def _softmax8(b: Builder, ifm: Value, source: Value, ofm: Value, shape: tuple[int, ...], beta: float) -> Value:
    """TFLite's 8-bit softmax as NPU ops: exp(x - max) from a table, summed per pixel; the sum
    normalised by its leading zeros and inverted by Newton-Raphson (gemmlowp's 1 / (1 + x) on
    [0, 1)); the exponentials times the inverse, shifted into the OFM."""
    from npu_opt.passes.npu_lowering.tables import softmax_exp_lut
    seq = _Seq(b)
    steps = _Int32Steps(seq, source, shape)
    in_scale, zp = scale_and_zero_point(quant(source))
    _, rows, w, c = shape
    # the maximum of each pixel's channels: a max pool over the channels viewed as a row
    lanes = b.reshape(ifm, (1, rows * w, c, 1))
    max_type = tensor((1, rows * w, 1, 1), quant_type(storage(source.type), 1.0, zp))
    ifm_max = seq.op(MaxPoolOp, "maxpool", [lanes], max_type, kernel=b.kernel((1, c)),
                     activation=b.activation("none", max_type), rescale=b.rescale(1, 0))
    # exp(x - max) in Q0.31 through the table
    exp_type = steps.full(quant_type(I32, 1.0, 127))
    table = b.const(np.asarray(softmax_exp_lut(beta, in_scale), dtype=np.int64), tensor((256,), I32))
    exps = seq.op(SubOp, "sub", [ifm, b.reshape(ifm_max, steps.column_shape)], exp_type, lut=table,
                  activation=b.activation("lut", exp_type), rescale=b.rescale(1, 0))
    right_shift, half_denominator = _normalised_sum(steps, exps)
    inverse = _newton_raphson_inverse(steps, half_denominator)
    # the exponentials times the inverse, shifted into the OFM. Both products carry Vela's scaling
    # explicitly: doubling the inverse multiplies by a "no scale" constant (no rescale), and the
    # exponentials (scale 1) times that (scale 1) into scale 2 halve. With an IFM zero point of 0
    # the "no scale" and scale-1 types are one type, so the scaling cannot be read from them.
    scale = steps.step(MulOp, "mul", [inverse, steps.const(2)], steps.column(steps.one), rescale=b.rescale(1, 0))
    scaled = steps.step(MulOp, "mul", [exps, scale], steps.full(steps.two), factor=2,
                        rescale=b.rescale(*elementwise_mul_scale(1.0, 1.0, 2.0)))
    ofm_type = tensor(shape, element_type_of(ofm.type))
    return seq.op(ShrOp, "shr", [scaled, right_shift], ofm_type, activation=b.activation("none", ofm_type),
                  rounding="half_up")


def _normalised_sum(steps: _Int32Steps, exps: Value) -> tuple[Value, Value]:
    """The per-pixel sum of the exponentials (each scaled down by 2^12) shifted left to put its
    leading one at bit 30: returns the right shift the result will need and (sum - 1) / 2 in
    Q0.31, the argument of the reciprocal."""
    b = steps.b
    rescaled = steps.seq.op(ShrOp, "shr", [exps, steps.const(12)], steps.full(steps.raw),
                            activation=b.clip(steps.qmin, steps.qmax, steps.full(steps.raw)),
                            rescale=b.rescale(1, 0), rounding="half_up")
    total = steps.raw_step(ReduceSumOp, "reduce_sum", [rescaled])
    leading_zeros = steps.raw_step(ClzOp, "clz", [total])
    right_shift = steps.raw_step(SubOp, "sub", [steps.const(12 + 31 - 8), leading_zeros])
    one = steps.const(1)
    headroom = steps.raw_step(SubOp, "sub", [leading_zeros, one])
    normalised = steps.raw_step(ShlOp, "shl", [total, headroom])
    fraction = steps.raw_step(SubOp, "sub", [normalised, steps.const(1 << 30)])
    fraction = steps.raw_step(ShlOp, "shl", [fraction, one])
    half_denominator = steps.step(AddOp, "add", [fraction, steps.const((1 << 31) - 1)], steps.column(steps.one),
                                  rescale=b.rescale(1, 1))
    return right_shift, half_denominator


def _newton_raphson_inverse(steps: _Int32Steps, half_denominator: Value) -> Value:
    """1 / (1 + x) from d = (1 + x) / 2: the estimate 48/17 - 32/17 d refined three times by
    x <- x + x (1 - d x) (constants in Q2.29 and Q0.31)."""
    one_type, two_type = steps.column(steps.one), steps.column(steps.two)
    # the Q2.29 constants have no scale, so the sums with them are not rescaled, and products of
    # two scale-1 values are halved into scale 2
    unscaled, halved = steps.b.rescale(1, 0), steps.b.rescale(*elementwise_mul_scale(1.0, 1.0, 2.0))
    scaled = steps.step(MulOp, "mul", [half_denominator, steps.const(-1010580540, steps.one)], two_type, factor=2,
                        rescale=halved)
    estimate = steps.step(AddOp, "add", [scaled, steps.const(1515870810)], one_type, rescale=unscaled)
    one_q29, four = steps.const(1 << 29), steps.const(4)
    for _ in range(3):
        product = steps.step(MulOp, "mul", [estimate, half_denominator], two_type, factor=2, rescale=halved)
        error = steps.step(SubOp, "sub", [one_q29, product], one_type, rescale=unscaled)
        correction = steps.step(MulOp, "mul", [estimate, error], two_type, factor=2, rescale=halved)
        correction = steps.raw_step(MulOp, "mul", [correction, four])
        estimate = steps.step(AddOp, "add", [estimate, correction], one_type, rescale=unscaled)
    return estimate


def _softmax16(b: Builder, ifm: Value, source: Value, ofm: Value, shape: tuple[int, ...], beta: float) -> Value:
    """TFLite's int16 softmax as NPU ops: x - max scaled by beta onto [-10, 0], exp from a 16-bit
    interpolation table, the per-pixel sum normalised by its leading zeros, 1 / (1 + x) from a
    second table, the product shifted into the OFM."""
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
    sub1 = s.op(SubOp, "sub", [ifm, b.reshape(ifm_max, col)], sub_type, activation=b.activation("none", sub_type),
                rescale=ident)
    mul2_range = 10.0 / 65535.0
    mul2_scale, _ = elementwise_mul_scale(in_scale, beta, mul2_range, True)
    mul2_type = tensor(full, quant_type(I32, mul2_range, out_zp))
    mul2 = s.op(MulOp, "mul", [sub1, s.const(mul2_scale, quant_type(I32, beta, zp))], mul2_type,
                activation=b.activation("none", mul2_type))
    exp_type = tensor(full, quant_type(I16, mul2_range, out_zp))
    exp_table = _int16_table(np.exp, -_EXP16_RANGE, 0.0)
    exp_lut = b.const(np.asarray(exp_table, dtype=np.int64), tensor((512,), I32))
    ifm_exp = s.op(AddOp, "add", [mul2, s.const(32767, no_scale)], exp_type, lut=exp_lut,
                   activation=b.activation("lut", exp_type), rescale=ident)
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
    recip_table = _int16_table(lambda x: 1.0 / (1.0 + x), 0.0, 1.0)
    recip_lut = b.const(np.asarray(recip_table, dtype=np.int64), tensor((512,), I32))
    reciprocal = s.op(SubOp, "sub", [shifted16, s.const(32768, no_scale)], recip_type, lut=recip_lut,
                      activation=b.activation("lut", recip_type), rescale=ident)
    mul_type = tensor(full, no_scale)
    product = s.op(MulOp, "mul", [ifm_exp, reciprocal], mul_type, activation=b.activation("none", mul_type),
                   rescale=ident)
    ofm_type = tensor(shape, element_type_of(ofm.type))
    return s.op(ShrOp, "shr", [product, reciprocal_right_shift], ofm_type, activation=b.activation("none", ofm_type))


__all__ = ["lower_softmax"]
