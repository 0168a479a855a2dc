"""Lowering of the elementwise operators and the stand-alone activations.

Design notes: docs/lowering_design.md, section Lowering elementwise operators (npu_lowering/elementwise)."""
from __future__ import annotations

import math

import numpy as np

from npu_opt.dialects.npu.ops_conv import DepthwiseConv2DOp
from npu_opt.dialects.npu.ops_elementwise import (
    AbsOp, AddOp, LeakyReluOp, LutOp, MaximumOp, MinimumOp, MulOp, SubOp,
)
from npu_opt.dialects.npu.quant import elementwise_mul_scale, quantise_scale, scale_and_zero_point
from npu_opt.ir.attributes import StringAttr, TypeAttr
from npu_opt.ir.core import Operation, Value
from npu_opt.ir.types import I32, I64, IntegerType, Type, element_type_of
from npu_opt.passes.npu_lowering.builder import Builder, quant_type, storage, tensor
from npu_opt.passes.npu_lowering.context import ACTIVATION_OF_FAF, Lowering
from npu_opt.passes.npu_lowering.pool import avgpool_nop
from npu_opt.passes.npu_lowering.tables import hardswish_lut, lrelu_lut, lut8, lut16, rsqrt_lut, sigmoid
from npu_opt.passes.npu_lowering.view import quant, scaling_equal, shape4, shape_list, view_of

BINARY_OPS = {"tfl.add": AddOp, "tfl.sub": SubOp, "tfl.mul": MulOp, "tfl.minimum": MinimumOp,
              "tfl.maximum": MaximumOp}
RELU_KIND = {"tfl.relu": "relu", "tfl.relu6": "relu6", "tfl.relu_n1_to_1": "relu_n1_to_1",
             "tfl.relu_0_to_1": "relu_0_to_1"}

FUSABLE_MARK = "npu.fusable_activation"
"""Discardable attribute on the ops fuse.py may fold into their producer (removed by it)."""


def view4(b: Builder, value: Value) -> Value:
    """A binary operand as the NPU reads it: a 0-D constant as a scalar, else its 4-D view."""
    shape = shape_list(value) or []
    return value if not shape else b.reshape(value, shape4(shape))


def lower_binary(op: Operation, lowering: Lowering) -> None:
    view = view_of(op)
    assert view.ifm is not None and view.ifm2 is not None and view.ofm is not None
    b = lowering.builder(op)
    ofm_type = tensor(shape4(shape_list(view.ofm)), element_type_of(view.ofm.type))
    act = b.activation(ACTIVATION_OF_FAF[view.faf()], ofm_type)
    result = b.npu(BINARY_OPS[op.name], [view4(b, view.ifm), view4(b, view.ifm2)], ofm_type, activation=act)
    b.finish(op, [result])


def _table(b: Builder, values: list[int], elem: Type) -> Value:
    return b.const(np.asarray(values, dtype=np.int64), tensor((len(values),), storage(elem)))


def lut_op(b: Builder, ifm: Value, ofm_type: Type, values: list[int], function: str, name: str) -> Value:
    """A stand-alone table lookup (Vela's ``convert_to_lut``) marked as fusable into its producer."""
    table = _table(b, values, element_type_of(ofm_type))
    result = b.npu(LutOp, [ifm, table], ofm_type, name, activation=b.activation("lut", ofm_type), function=function,
                   output_quant=TypeAttr(element_type_of(ifm.type)))
    b.ctx.rewriter.set_attr(result.op, FUSABLE_MARK, StringAttr("lut"))  # type: ignore[attr-defined]
    return result


def _io(view_value: Value) -> tuple[float, int]:
    return scale_and_zero_point(quant(view_value))


def relu_like(b: Builder, op: Operation, ifm: Value, ofm: Value, kind: str, name: str) -> Value:
    """A stand-alone ReLU-family activation of ``ifm`` into ``ofm``'s type (4-D views)."""
    ofm_type = tensor(shape4(shape_list(ofm)), element_type_of(ofm.type))
    source = b.reshape(ifm, shape4(shape_list(ifm)))
    if not scaling_equal(ifm, ofm):
        (si, _), (so, _) = _io(ifm), _io(ofm)
        return avgpool_nop(b, source, ofm_type, name + "_avgpool", kind, rescale=quantise_scale(si / so))
    result = avgpool_nop(b, source, ofm_type, name + "_avgpool", kind)
    b.ctx.rewriter.set_attr(result.op, FUSABLE_MARK, StringAttr("relu"))  # type: ignore[attr-defined]
    return result


def lower_relu(op: Operation, lowering: Lowering) -> None:
    view = view_of(op)
    b = lowering.builder(op)
    assert view.ifm is not None and view.ofm is not None
    b.finish(op, [relu_like(b, op, view.ifm, view.ofm, RELU_KIND[op.name], b.name)])


def _cast32(b: Builder, value: Value, name: str, left_shift: int) -> Value:
    """A 1x1 depthwise convolution by 1 widening ``value`` to 32 bits shifted left (Vela's
    ``create_cast_op`` with an explicit multiplier 2^left_shift)."""
    shape = shape4(shape_list(value))
    channels = shape[3]
    weights = b.const(np.ones((1, 1, 1, channels), dtype=np.int64),
                      tensor((1, 1, 1, channels), quant_type(IntegerType(8, "unsigned"), 1.0, 0)))
    bias = b.const(np.zeros(channels, dtype=np.int64), tensor((channels,), I64 if storage(value.type).width == 16 else I32))
    out = tensor(shape, quant_type(I32, 1.0, 0))
    return b.npu(DepthwiseConv2DOp, [b.reshape(value, shape), weights, bias], out, name, kernel=b.kernel((1, 1)),
                 activation=b.activation("none", out), rescale=b.rescale(1 << left_shift, 0))


def lower_squared_difference(op: Operation, lowering: Lowering) -> None:
    """(a - b)^2 in 32-bit arithmetic, as TFLite's reference (Vela's ``convert_squared_difference``):
    both inputs widened and shifted (<name>_ifm_32bit_shifted / _ifm2_32bit_shifted), rescaled to a
    common scale (<name>_scaled_input1/2), subtracted (<name>_raw_diff), squared (<name>_squared_raw)
    and rescaled into the OFM (<name>)."""
    view = view_of(op)
    b = lowering.builder(op)
    assert view.ifm is not None and view.ifm2 is not None and view.ofm is not None
    (s1, _), (s2, _), (so, _) = _io(view.ifm), _io(view.ifm2), _io(view.ofm)
    twice_max = 2.0 * max(s1, s2)
    left_shift = 0 if storage(view.ifm.type).width == 16 else 7
    m1, sh1 = quantise_scale(s1 / twice_max)
    m2, sh2 = quantise_scale(s2 / twice_max)
    mo, sho = quantise_scale(twice_max * twice_max / ((1 << (left_shift * 2)) * so))
    one = quant_type(I32, 1.0, 0)
    scaled = []
    for index, (value, mult, shift) in enumerate(((view.ifm, m1, sh1), (view.ifm2, m2, sh2))):
        suffix = "ifm" if index == 0 else "ifm2"
        wide = _cast32(b, value, f"{b.name}_{suffix}_32bit_shifted", left_shift)
        out = tensor(shape_list(wide) or [], one)
        scaled.append(b.npu(MulOp, [wide, b.const([mult], tensor((1, 1, 1, 1), one))], out,
                            f"{b.name}_scaled_input{index + 1}", activation=b.activation("none", out),
                            rescale=b.rescale(mult, shift)))
    raw_type = tensor(shape4(shape_list(view.ofm)), I32)
    raw = b.npu(SubOp, scaled, raw_type, f"{b.name}_raw_diff", activation=b.activation("none", raw_type))
    squared = b.npu(MulOp, [raw, raw], raw_type, f"{b.name}_squared_raw", activation=b.activation("none", raw_type))
    ofm_type = tensor(shape4(shape_list(view.ofm)), element_type_of(view.ofm.type))
    result = b.npu(MulOp, [squared, b.const([mo], tensor((1, 1, 1, 1), one))], ofm_type,
                   activation=b.activation("none", ofm_type), rescale=b.rescale(mo, sho))
    b.finish(op, [result])


def lower_abs(op: Operation, lowering: Lowering) -> None:
    view = view_of(op)
    b = lowering.builder(op)
    assert view.ifm is not None and view.ofm is not None
    ofm_type = tensor(shape4(shape_list(view.ofm)), element_type_of(view.ofm.type))
    ifm = b.reshape(view.ifm, shape4(shape_list(view.ifm)))
    b.finish(op, [b.npu(AbsOp, [ifm], ofm_type, activation=b.activation("none", ofm_type))])


def lower_quantize(op: Operation, lowering: Lowering) -> None:
    view = view_of(op)
    b = lowering.builder(op)
    assert view.ifm is not None and view.ofm is not None
    ofm_type = tensor(shape4(shape_list(view.ofm)), element_type_of(view.ofm.type))
    b.finish(op, [avgpool_nop(b, b.reshape(view.ifm, shape4(shape_list(view.ifm))), ofm_type, b.name)])


TABLE_FUNCTIONS = {"tfl.tanh": "tanh", "tfl.logistic": "sigmoid", "tfl.hard_swish": "hardswish", "tfl.exp": "exp",
                   "tfl.rsqrt": "rsqrt"}


def lower_table_activation(op: Operation, lowering: Lowering) -> None:
    """tanh, logistic, hard_swish, exp and rsqrt."""
    view = view_of(op)
    b = lowering.builder(op)
    assert view.ifm is not None and view.ofm is not None
    ofm_type = tensor(shape4(shape_list(view.ofm)), element_type_of(view.ofm.type))
    ifm = b.reshape(view.ifm, shape4(shape_list(view.ifm)))
    unsigned = storage(view.ifm.type).is_unsigned
    function = TABLE_FUNCTIONS[op.name]
    wide = storage(view.ifm.type).width == 16
    if wide and function in ("tanh", "sigmoid"):
        # the NPU's built-in function, on a 1x1 average pool of its own
        b.finish(op, [avgpool_nop(b, ifm, ofm_type, b.name + "_avgpool", function)])
        return
    if function == "exp":
        # Vela's convert_ops_to_lut: an 8-bit table, or a 16-bit interpolated one
        values = lut16(math.exp, _io(view.ifm), _io(view.ofm)) if wide else \
            lut8(math.exp, _io(view.ifm), _io(view.ofm), unsigned, round_then_offset=True)
        table = b.const(np.asarray(values, dtype=np.int64), tensor((len(values),), I32 if wide else storage(ofm_type)))
        result = b.npu(LutOp, [ifm, table], ofm_type, f"{b.name}_lut_exp", activation=b.activation("lut", ofm_type),
                       function="exp", output_quant=TypeAttr(element_type_of(ifm.type)))
        b.ctx.rewriter.set_attr(result.op, FUSABLE_MARK, StringAttr("lut"))  # type: ignore[attr-defined]
        b.finish(op, [result])
        return
    if function == "rsqrt":
        values = rsqrt_lut(_io(view.ifm), _io(view.ofm))
        b.finish(op, [lut_op(b, ifm, ofm_type, values, "rsqrt", f"{b.name}_lut_rsqrt")])
        return
    if function == "hardswish":
        values = hardswish_lut(_io(view.ifm), _io(view.ofm), unsigned)
    else:
        values = lut8(math.tanh if function == "tanh" else sigmoid, _io(view.ifm), _io(view.ofm), unsigned)
    b.finish(op, [lut_op(b, ifm, ofm_type, values, function, f"{b.name}_lut_{function}")])


def lower_leaky_relu(op: Operation, lowering: Lowering) -> None:
    view = view_of(op)
    b = lowering.builder(op)
    assert view.ifm is not None and view.ofm is not None
    alpha = float(view.attr("alpha"))  # type: ignore[arg-type]
    ofm_type = tensor(shape4(shape_list(view.ofm)), element_type_of(view.ofm.type))
    if alpha == 0:
        b.finish(op, [relu_like(b, op, view.ifm, view.ofm, "relu", b.name.replace("LeakyRelu", "Relu"))])
        return
    ifm = b.reshape(view.ifm, shape4(shape_list(view.ifm)))
    bits = storage(view.ifm.type).width
    if bits == 8:
        values = lrelu_lut(_io(view.ifm), _io(view.ofm), alpha, storage(view.ifm.type).is_unsigned)
        b.finish(op, [lut_op(b, ifm, ofm_type, values, "lrelu", f"{b.name}_lut_lrelu")])
        return
    if scaling_equal(view.ifm, view.ofm) and alpha > 0:
        b.finish(op, [b.npu(LeakyReluOp, [ifm], ofm_type, activation=b.activation("none", ofm_type), alpha=alpha)])
        return
    b.finish(op, [_lrelu_mul_max(b, view.ifm, ifm, view.ofm, ofm_type, alpha)])


def _lrelu_mul_max(b: Builder, source: Value, ifm: Value, ofm: Value, ofm_type: Type, alpha: float) -> Value:
    """A leaky ReLU built from elementwise ops (16-bit, when no single op fits): max(alpha x, x)
    for 0 < alpha < 1, else alpha min(x, 0) + relu(x). The op names are Vela's."""
    if 0 < alpha < 1:
        return _leaky_as_maximum(b, source, ifm, ofm, ofm_type, alpha)
    return _leaky_as_sum(b, source, ifm, ofm, ofm_type, alpha)


def _times_alpha(b: Builder, x: Value, source: Value, ofm: Value, ofm_type: Type, alpha: float) -> Value:
    """``x`` times alpha into the OFM's quantisation. A negative alpha is folded into the
    multiplier (a plain int32 factor: !quant.uniform cannot hold a negative scale); otherwise the
    factor 1 carries alpha as its scale."""
    if alpha < 0:
        multiplier, _ = elementwise_mul_scale(_io(source)[0], alpha, _io(ofm)[0])
        factor = b.const([multiplier], tensor((1, 1, 1, 1), I32))
    else:
        factor = b.const([1], tensor((1, 1, 1, 1), quant_type(storage(source.type), alpha or 1.0, 0)))
    return b.npu(MulOp, [x, factor], ofm_type, b.name + "_mul_alpha", activation=b.activation("none", ofm_type))


def _leaky_as_maximum(b: Builder, source: Value, ifm: Value, ofm: Value, ofm_type: Type, alpha: float) -> Value:
    """max(alpha x, x), x first rescaled to the OFM when their quantisations differ."""
    scaled = _times_alpha(b, ifm, source, ofm, ofm_type, alpha)
    identity = ifm
    if not scaling_equal(source, ofm):
        one = b.const(1, tensor((), quant_type(storage(source.type), 1.0, 0)))
        identity = b.npu(MulOp, [ifm, one], ofm_type, b.name + "_mul_identity",
                         activation=b.activation("none", ofm_type))
    return b.npu(MaximumOp, [scaled, identity], ofm_type, b.name.replace("LeakyRelu", "Maximum"),
                 activation=b.activation("none", ofm_type))


def _leaky_as_sum(b: Builder, source: Value, ifm: Value, ofm: Value, ofm_type: Type, alpha: float) -> Value:
    """alpha min(x, 0) + relu(x): the negative part scaled (in 32 bits for a negative alpha), the
    positive part through a ReLU average pool."""
    store = storage(source.type)
    zero = b.const(0, tensor((), store))
    negative_type = tensor(shape4(shape_list(source)), I32 if alpha < 0 else element_type_of(source.type))
    negatives = b.npu(MinimumOp, [ifm, zero], negative_type, b.name + "_min",
                      activation=b.activation("none", negative_type))
    scaled = _times_alpha(b, negatives, source, ofm, ofm_type, alpha)
    positives = avgpool_nop(b, ifm, ofm_type, b.name + "_relu_avgpool", "relu")
    return b.npu(AddOp, [scaled, positives], ofm_type, b.name.replace("LeakyRelu", "Add"),
                 activation=b.activation("none", ofm_type), rescale=b.rescale(1, 0))


__all__ = ["BINARY_OPS", "FUSABLE_MARK", "lower_abs", "lower_binary", "lower_leaky_relu", "lower_quantize",
           "lower_squared_difference",
           "lower_relu",
           "lower_table_activation", "lut_op", "relu_like", "view4"]
