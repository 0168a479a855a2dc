"""The NPU's MAC operations: convolution, depthwise convolution, transpose convolution and the
vector product (fully connected).

Each takes an IFM, constant weights in TensorFlow Lite's layout and a 1-D bias of one element
per output channel, and optionally the lookup table of a fused ``lut`` activation.
"""
from __future__ import annotations

from npu_opt.dialects.npu.dialect import NPU
from npu_opt.dialects.npu.interfaces import CostedOp
from npu_opt.hardware.op_kind import OpKind
from npu_opt.dialects.npu.ops_common import (
    Bias, FeatureMap4D, KernelC, LookupTable, NpuComputeOp, ResamplingC, Weights, check_depth, check_window,
    fmt, shape_of,
)
from npu_opt.ir.constraints import IntAttrC, StrAttrC
from npu_opt.ir.opdef import AttrDef, OperandDef, ResultDef, VerifyError
from npu_opt.ir.traits import Pure

PADDING_MODES: tuple[str, ...] = ("zero", "replicate")
"""What a depthwise convolution's padding holds: the IFM zero point, or the IFM's edge values."""

POOL_PADDINGS: tuple[str, ...] = ("same", "valid", "explicit")
"""The TFLite padding of an average pool computed as a convolution (a PAD folded in: explicit)."""


def _upscale(op: NpuComputeOp) -> int:
    """IFM upscaling factor of the op's resampling mode (x2 for nearest and transpose)."""
    mode = op.attr("resampling")
    return 1 if mode is None or getattr(mode, "value", "none") == "none" else 2


def _check_bias(op: NpuComputeOp, channels: int) -> None:
    bias = shape_of(op.operands[2])
    check_depth("the bias length", bias[0], channels)


class _ConvLike(NpuComputeOp):
    """Shared declaration of the ops with a kernel, weights and a bias."""

    traits = (Pure(),)
    ifm = OperandDef(FeatureMap4D, doc="NHWC input feature map")
    weights = OperandDef(Weights, doc="constant weights (TFLite layout)")
    bias = OperandDef(Bias, doc="one bias per output channel")
    lut = OperandDef(LookupTable, optional=True, doc="table of a fused 'lut' activation")
    kernel = AttrDef(KernelC, doc="kernel size, strides, dilation and explicit padding")
    resampling = AttrDef(ResamplingC, optional=True,
                         doc="IFM upscaling: 'nearest' (x2 nearest neighbour), 'transpose' (x2 zero "
                             "insertion); default 'none'")
    pool_padding = AttrDef(StrAttrC(POOL_PADDINGS), optional=True,
                           doc="the TFLite padding of the average pool this op computes (written by "
                               "npu-legalize; Vela's zero points under away-from-zero rounding follow it)")
    ofm = ResultDef(FeatureMap4D, doc="NHWC output feature map")


@NPU.op
class Conv2DOp(_ConvLike):
    """2-D convolution (block type ConvolutionMxN; Vela's ``Conv2DBias``).

    ``weights`` are OHWI. The IFM depth D must be a multiple of I (Vela's rewrite of a strided
    average pool into a convolution uses I = 1 on a deep IFM); the OFM depth is O. Every OFM
    element must read inside the padded IFM; the OFM may be smaller than the window allows
    (Vela sets the stride to 1 along an axis of OFM size 1).

    Weights shallower than the IFM make a grouped convolution: D / I groups, output o in group
    g = o // (O / groups). Without ``width_fold`` group g reads the contiguous IFM channels
    g·I .. g·I + I − 1. ``width_fold = f`` says the IFM is a view whose width was folded f
    columns at a time into depth (channel j·D/f + c is channel c of column j) and the weights'
    input axis was folded alike (input j·I/f + i is input i of column j): group g then reads,
    for weight input j·I/f + i, IFM channel j·D/f + g·I/f + i, the order the NPU reads a small
    kernel after the fold in. Only a grouped convolution needs it (with one group both orders
    agree); f must divide D and I."""

    OP_NAME = "npu.conv2d"
    VELA_OP = "Conv2DBias"
    traits = (Pure(), CostedOp(OpKind.CONV2D))
    width_fold = AttrDef(IntAttrC(64, min_value=2), optional=True,
                         doc="fold factor f of a grouped convolution whose IFM width was folded f "
                             "columns at a time into depth: group g reads weight input j·I/f + i "
                             "from IFM channel j·D/f + g·I/f + i (absent: contiguous groups)")

    def input_channels(self, group: int) -> list[int]:
        """The IFM channels group ``group`` reads, in the order of the weights' input axis."""
        depth, inputs = shape_of(self.ifm)[3], shape_of(self.weights)[3]
        fold = self.width_fold or 1
        column_depth, column_inputs = depth // fold, inputs // fold
        return [(k // column_inputs) * column_depth + group * column_inputs + k % column_inputs
                for k in range(inputs)]

    def verify_shapes(self) -> None:
        ifm, w, ofm = shape_of(self.ifm), shape_of(self.weights), shape_of(self.ofm)
        if len(w) != 4:
            raise VerifyError(f"weights must be OHWI (4-D), not {fmt(w)}")
        if (w[1], w[2]) != self.kernel.size:
            raise VerifyError(f"weights {fmt(w)} do not match the {self.kernel.height}x{self.kernel.width} kernel")
        if ifm[3] % w[3]:
            raise VerifyError(f"the IFM depth {ifm[3]} is not a multiple of the weights' input depth {w[3]}")
        fold = self.width_fold
        if fold is not None:
            if ifm[3] % fold or w[3] % fold:
                raise VerifyError(f"width_fold {fold} must divide the IFM depth {ifm[3]} and the weights' "
                                  f"input depth {w[3]}")
            if w[3] == ifm[3]:
                raise VerifyError(f"width_fold {fold} on a convolution with one group (weights as deep as "
                                  f"the IFM, {w[3]}): the fold changes nothing there, leave it out")
        check_depth("the OFM depth", ofm[3], w[0])
        check_depth("the OFM batch", ofm[0], ifm[0])
        _check_bias(self, w[0])
        check_window(self.kernel, ifm, ofm, _upscale(self))


@NPU.op
class DepthwiseConv2DOp(_ConvLike):
    """Depthwise 2-D convolution with depth multiplier 1 (block type ConvolutionDepthWise;
    Vela's ``DepthwiseConv2DBias``): each channel is convolved with its own kernel.

    ``weights`` are 1HWC (TFLite's layout), C the IFM and OFM depth.

    ``padding_mode`` says what the kernel's padding holds: the IFM zero point (absent or
    'zero': padding contributes nothing) or, with 'replicate', the nearest edge row and column
    of the IFM, as Vela pads the phase convolutions of a half-pixel bilinear resize."""

    OP_NAME = "npu.depthwise_conv2d"
    VELA_OP = "DepthwiseConv2DBias"
    traits = (Pure(), CostedOp(OpKind.DEPTHWISE_CONV2D))
    padding_mode = AttrDef(StrAttrC(PADDING_MODES), optional=True,
                           doc="what the padding holds: 'zero' (the IFM zero point, the default) or "
                               "'replicate' (the nearest IFM edge row and column)")

    def verify_shapes(self) -> None:
        ifm, w, ofm = shape_of(self.ifm), shape_of(self.weights), shape_of(self.ofm)
        if len(w) != 4 or w[0] != 1:
            raise VerifyError(f"weights must be 1HWC, not {fmt(w)}")
        if (w[1], w[2]) != self.kernel.size:
            raise VerifyError(f"weights {fmt(w)} do not match the {self.kernel.height}x{self.kernel.width} kernel")
        check_depth("the weights' depth", w[3], ifm[3])
        check_depth("the OFM depth", ofm[3], ifm[3])
        check_depth("the OFM batch", ofm[0], ifm[0])
        _check_bias(self, ifm[3])
        check_window(self.kernel, ifm, ofm, _upscale(self))


@NPU.op
class TransposeConv2DOp(_ConvLike):
    """Transpose convolution (block type ConvolutionMxN; Vela's
    ``Conv2DBackpropInputSwitchedBias``): a convolution with stride 1 over the IFM upscaled by
    zero insertion.

    ``resampling`` is 'transpose' for TensorFlow Lite strides of 2 (the IFM is upscaled x2) and
    'none' for stride 1; ``kernel`` holds Vela's upscaled padding. ``weights`` are OHWI."""

    OP_NAME = "npu.transpose_conv2d"
    VELA_OP = "Conv2DBackpropInputSwitchedBias"
    traits = (Pure(), CostedOp(OpKind.TRANSPOSE_CONV2D))

    def verify_shapes(self) -> None:
        ifm, w, ofm = shape_of(self.ifm), shape_of(self.weights), shape_of(self.ofm)
        if len(w) != 4:
            raise VerifyError(f"weights must be OHWI (4-D), not {fmt(w)}")
        if (w[1], w[2]) != self.kernel.size:
            raise VerifyError(f"weights {fmt(w)} do not match the {self.kernel.height}x{self.kernel.width} kernel")
        if self.kernel.stride != (1, 1):
            raise VerifyError("a transpose convolution has stride 1x1 (the upscaling is its resampling)")
        check_depth("the weights' input depth", w[3], ifm[3])
        check_depth("the OFM depth", ofm[3], w[0])
        _check_bias(self, w[0])
        check_window(self.kernel, ifm, ofm, _upscale(self))


@NPU.op
class VectorProductOp(NpuComputeOp):
    """Vector product, i.e. fully connected layer (block type VectorProduct; Vela's
    ``FullyConnected``): every IFM pixel's K values times the [O, K] ``weights``, plus the bias.

    The IFM is [1, H, W, K] (batches folded into H x W as Vela does); the OFM is [1, H, W, O]."""

    OP_NAME = "npu.vector_product"
    VELA_OP = "FullyConnected"
    traits = (Pure(), CostedOp(OpKind.VECTOR_PRODUCT))
    ifm = OperandDef(FeatureMap4D, doc="[1, H, W, K] input")
    weights = OperandDef(Weights, doc="constant [O, K] weights")
    bias = OperandDef(Bias, doc="one bias per output")
    lut = OperandDef(LookupTable, optional=True, doc="table of a fused 'lut' activation")
    ofm = ResultDef(FeatureMap4D, doc="[1, H, W, O] output")

    def verify_shapes(self) -> None:
        ifm, w, ofm = shape_of(self.ifm), shape_of(self.weights), shape_of(self.ofm)
        if len(w) != 2:
            raise VerifyError(f"weights must be [O, K] (2-D), not {fmt(w)}")
        check_depth("the IFM depth", ifm[3], w[1])
        if ofm[:3] != ifm[:3] or ofm[3] != w[0]:
            raise VerifyError(f"OFM {fmt(ofm)} must be {fmt(ifm[:3] + (w[0],))}")
        _check_bias(self, w[0])


__all__ = ["PADDING_MODES", "POOL_PADDINGS", "Conv2DOp", "DepthwiseConv2DOp", "TransposeConv2DOp", "VectorProductOp"]
