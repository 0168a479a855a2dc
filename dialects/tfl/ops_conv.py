"""Convolutions, fully connected layers and pooling: the ops an NPU spends its MACs on.

Layouts are TFLite's: activations NHWC, CONV_2D filters OHWI, DEPTHWISE_CONV_2D filters 1HW(C*M),
TRANSPOSE_CONV filters OHWI, FULLY_CONNECTED filters [outputs, inputs].
"""
from __future__ import annotations

from npu_opt.ir.opdef import AttrDef, OperandDef, ResultDef, VerifyError
from npu_opt.ir.traits import Pure
from npu_opt.ir.types import DYNAMIC

from npu_opt.dialects.tfl.common import (
    TFL, ActivationAttr, Activations, Bias, BoolAttr, Filter, I32Attr, I32Tensor, PaddingAttr,
    PositiveI32Attr, TflOp, WeightsFormatAttr,
)
from npu_opt.dialects.tfl.shapes import (
    conv_output_size, constant_ints, expect_rank, expect_shape, fmt, num_elements, same_storage,
    shape_of,
)


def _positive(op: TflOp, *names: str) -> None:
    for name in names:
        value = getattr(op, name)
        if value < 1:
            raise VerifyError(f"'{name}' must be at least 1, but is {value}")


def _check_bias(op: TflOp, channels: int) -> None:
    bias = shape_of(op.operands[2]) if len(op.operands) > 2 else None
    if bias is None:
        return
    expect_rank(bias, 1, "bias")
    if channels != DYNAMIC and bias[0] not in (channels, DYNAMIC):
        raise VerifyError(f"bias has {bias[0]} elements but the output has {channels} channels")


def _verify_conv(op: TflOp, depthwise: bool) -> None:
    """Shared checks of conv_2d and depthwise_conv_2d (input, filter, bias, output shape)."""
    _positive(op, "stride_h", "stride_w", "dilation_h_factor", "dilation_w_factor")
    same_storage([op.operands[0], op.results[0]], "input and output")
    inp, flt = shape_of(op.operands[0]), shape_of(op.operands[1])
    expect_rank(inp, 4, "input")
    expect_rank(flt, 4, "filter")
    if inp is None or flt is None:
        return
    if depthwise:
        if flt[0] not in (1, DYNAMIC):
            raise VerifyError(f"depthwise filter must have shape 1xHxWxC, but has {fmt(flt)}")
        channels = flt[3]
        if DYNAMIC not in (inp[3], channels) and channels % max(inp[3], 1) != 0:
            raise VerifyError(f"filter channels ({channels}) must be a multiple of the input "
                              f"channels ({inp[3]})")
    else:
        channels = flt[0]
        if DYNAMIC not in (inp[3], flt[3]) and (flt[3] == 0 or inp[3] % flt[3] != 0):
            raise VerifyError(f"input channels ({inp[3]}) must be a multiple of the filter's "
                              f"input channels ({flt[3]})")
    _check_bias(op, channels)
    out_h = conv_output_size(inp[1], flt[1], op.stride_h, op.dilation_h_factor, op.padding)
    out_w = conv_output_size(inp[2], flt[2], op.stride_w, op.dilation_w_factor, op.padding)
    expect_shape(shape_of(op.results[0]), (inp[0], out_h, out_w, channels))


@TFL.op
class Conv2DOp(TflOp):
    """2-D convolution (CONV_2D): NHWC input, OHWI filter, optional bias of O elements.

    The output is N x OH x OW x O, where OH and OW follow from the input size, filter size,
    stride, dilation and padding (SAME: ceil(in / stride); VALID: ceil((in - (k - 1) * d) /
    stride)). The input depth may be a multiple of the filter depth (grouped convolution)."""

    OP_NAME = "tfl.conv_2d"
    BUILTIN = "CONV_2D"
    traits = (Pure(),)
    input = OperandDef(Activations, doc="NHWC activations")
    filter = OperandDef(Filter, doc="OHWI weights")
    bias = OperandDef(Bias, optional=True, doc="O biases, none, or absent (TFLite allows two inputs)")
    dilation_h_factor = AttrDef(I32Attr)
    dilation_w_factor = AttrDef(I32Attr)
    fused_activation_function = AttrDef(ActivationAttr)
    padding = AttrDef(PaddingAttr)
    stride_h = AttrDef(I32Attr)
    stride_w = AttrDef(I32Attr)
    output = ResultDef(Activations)

    def verify_shapes(self) -> None:
        _verify_conv(self, depthwise=False)


@TFL.op
class DepthwiseConv2DOp(TflOp):
    """Depthwise 2-D convolution (DEPTHWISE_CONV_2D): NHWC input, 1 x H x W x (C * M) filter.

    Each input channel is convolved with ``depth_multiplier`` (M) filters of its own; the output
    has C * M channels and its spatial size follows as for ``tfl.conv_2d``."""

    OP_NAME = "tfl.depthwise_conv_2d"
    BUILTIN = "DEPTHWISE_CONV_2D"
    traits = (Pure(),)
    input = OperandDef(Activations)
    filter = OperandDef(Filter)
    bias = OperandDef(Bias, optional=True)
    depth_multiplier = AttrDef(I32Attr)
    dilation_h_factor = AttrDef(I32Attr)
    dilation_w_factor = AttrDef(I32Attr)
    fused_activation_function = AttrDef(ActivationAttr)
    padding = AttrDef(PaddingAttr)
    stride_h = AttrDef(I32Attr)
    stride_w = AttrDef(I32Attr)
    output = ResultDef(Activations)

    def verify_shapes(self) -> None:
        _verify_conv(self, depthwise=True)


@TFL.op
class TransposeConvOp(TflOp):
    """Transposed convolution (TRANSPOSE_CONV): the gradient of conv_2d with respect to its input.

    ``output_shape`` is a 4-element i32 tensor that must equal the result shape when it is a
    constant; ``weights`` are OHWI and the input depth must equal the weights' I."""

    OP_NAME = "tfl.transpose_conv"
    BUILTIN = "TRANSPOSE_CONV"
    traits = (Pure(),)
    output_shape = OperandDef(I32Tensor)
    weights = OperandDef(Filter)
    input = OperandDef(Activations)
    bias = OperandDef(Bias, optional=True)
    fused_activation_function = AttrDef(ActivationAttr)
    padding = AttrDef(PaddingAttr)
    stride_h = AttrDef(PositiveI32Attr)
    stride_w = AttrDef(PositiveI32Attr)
    output = ResultDef(Activations)

    def verify_shapes(self) -> None:
        same_storage([self.operands[2], self.results[0]], "input and output")
        expect_rank(shape_of(self.operands[0]), 1, "output_shape")
        weights, inp, out = (shape_of(v) for v in (self.operands[1], self.operands[2], self.results[0]))
        expect_rank(weights, 4, "weights")
        expect_rank(inp, 4, "input")
        expect_rank(out, 4, "output")
        if weights is not None and inp is not None and DYNAMIC not in (weights[3], inp[3]) \
                and weights[3] != inp[3]:
            raise VerifyError(f"input channels ({inp[3]}) must equal the weights' input channels "
                              f"({weights[3]})")
        if weights is not None:
            bias = shape_of(self.bias)
            if bias is not None:
                expect_rank(bias, 1, "bias")
                if DYNAMIC not in (bias[0], weights[0]) and bias[0] != weights[0]:
                    raise VerifyError(f"bias has {bias[0]} elements but the output has "
                                      f"{weights[0]} channels")
            if out is not None and DYNAMIC not in (out[3], weights[0]) and out[3] != weights[0]:
                raise VerifyError(f"output channels ({out[3]}) must equal the weights' output "
                                  f"channels ({weights[0]})")
        wanted = constant_ints(self.operands[0])
        if wanted is not None:
            if len(wanted) != 4:
                raise VerifyError(f"output_shape must hold 4 values, but holds {len(wanted)}")
            expect_shape(out, wanted)


@TFL.op
class FullyConnectedOp(TflOp):
    """Fully connected layer (FULLY_CONNECTED): ``input`` is flattened to [-1, K], multiplied by
    the transposed [O, K] ``filter`` and the optional bias added.

    With ``keep_num_dims`` the output keeps the input's leading dimensions ([..., O]); without
    it the output is [elements / K, O]. The SHUFFLED4x16INT8 weights format has a second result."""

    OP_NAME = "tfl.fully_connected"
    BUILTIN = "FULLY_CONNECTED"
    traits = (Pure(),)
    input = OperandDef(Activations)
    filter = OperandDef(Filter)
    bias = OperandDef(Bias, optional=True)
    asymmetric_quantize_inputs = AttrDef(BoolAttr, optional=True)
    fused_activation_function = AttrDef(ActivationAttr)
    keep_num_dims = AttrDef(BoolAttr)
    weights_format = AttrDef(WeightsFormatAttr)
    output = ResultDef(Activations, variadic=True)

    def verify_shapes(self) -> None:
        if not 1 <= len(self.results) <= 2:
            raise VerifyError(f"expects 1 or 2 results, but has {len(self.results)}")
        inp, flt = shape_of(self.operands[0]), shape_of(self.operands[1])
        expect_rank(flt, 2, "filter")
        if inp is None or flt is None:
            return
        if not inp:
            raise VerifyError("input must have rank 1 or more")
        units, depth = flt
        bias = shape_of(self.bias)
        if bias is not None and DYNAMIC not in (units,) and num_elements(bias) not in (None, units):
            raise VerifyError(f"bias has {num_elements(bias)} elements but the filter has {units} outputs")
        if self.keep_num_dims:
            if DYNAMIC not in (inp[-1], depth) and inp[-1] != depth:
                raise VerifyError(f"input depth ({inp[-1]}) must equal the filter depth ({depth})")
            expected = inp[:-1] + (units,)
        else:
            count = num_elements(inp)
            if count is None or depth == DYNAMIC:
                batches = DYNAMIC
            elif depth == 0 or count % depth:
                raise VerifyError(f"input of {count} elements cannot be split into rows of {depth}")
            else:
                batches = count // depth
            expected = (batches, units)
            out = shape_of(self.results[0])
            if out and len(out) != 2:  # (a rank-0 result falls through to the shape error below)
                # TFLite keeps a batched rank when the rows split exactly; accept [..., O]
                # shapes whose element count matches.
                rows = num_elements(out[:-1])
                if out[-1] in (units, DYNAMIC) and (rows is None or batches == DYNAMIC or rows == batches):
                    return
        expect_shape(shape_of(self.results[0]), expected)


class _Pool2D(TflOp):
    """Shared verifier of the 2-D pooling ops."""

    def verify_shapes(self) -> None:
        _positive(self, "filter_height", "filter_width", "stride_h", "stride_w")
        same_storage([self.operands[0], self.results[0]], "input and output")
        inp = shape_of(self.operands[0])
        expect_rank(inp, 4, "input")
        if inp is None:
            return
        out_h = conv_output_size(inp[1], self.filter_height, self.stride_h, 1, self.padding)
        out_w = conv_output_size(inp[2], self.filter_width, self.stride_w, 1, self.padding)
        expect_shape(shape_of(self.results[0]), (inp[0], out_h, out_w, inp[3]))


@TFL.op
class AveragePool2DOp(_Pool2D):
    """Average pooling (AVERAGE_POOL_2D) over filter_height x filter_width windows of an NHWC
    input; padded positions do not count towards the average. Output size as for conv_2d."""

    OP_NAME = "tfl.average_pool_2d"
    BUILTIN = "AVERAGE_POOL_2D"
    traits = (Pure(),)
    input = OperandDef(Activations)
    filter_height = AttrDef(I32Attr)
    filter_width = AttrDef(I32Attr)
    fused_activation_function = AttrDef(ActivationAttr)
    padding = AttrDef(PaddingAttr)
    stride_h = AttrDef(I32Attr)
    stride_w = AttrDef(I32Attr)
    output = ResultDef(Activations)


@TFL.op
class MaxPool2DOp(_Pool2D):
    """Max pooling (MAX_POOL_2D) over filter_height x filter_width windows of an NHWC input.
    Output size as for conv_2d."""

    OP_NAME = "tfl.max_pool_2d"
    BUILTIN = "MAX_POOL_2D"
    traits = (Pure(),)
    input = OperandDef(Activations)
    filter_height = AttrDef(I32Attr)
    filter_width = AttrDef(I32Attr)
    fused_activation_function = AttrDef(ActivationAttr)
    padding = AttrDef(PaddingAttr)
    stride_h = AttrDef(I32Attr)
    stride_w = AttrDef(I32Attr)
    output = ResultDef(Activations)


__all__ = ["Conv2DOp", "DepthwiseConv2DOp", "TransposeConvOp", "FullyConnectedOp",
           "AveragePool2DOp", "MaxPool2DOp"]
