"""The NPU's pooling operations: average pooling, max pooling and the channel-wise reduce-sum.

Pooling ops have no weights. A 1x1 average pool with stride 1 is the NPU's copy/requantise
"no-op" (Vela's ``create_avgpool_nop``): it writes concatenation slices, applies stand-alone
activations and requantises; with 'nearest' resampling it is the x2 upscale of a resize.
"""
from __future__ import annotations

from npu_opt.dialects.npu.dialect import NPU
from npu_opt.dialects.npu.interfaces import CostedOp
from npu_opt.hardware.op_kind import OpKind
from npu_opt.dialects.npu.ops_common import (
    FeatureMap4D, KernelC, LookupTable, NpuComputeOp, ResamplingC, check_depth, check_window, element_bits,
    shape_of,
)
from npu_opt.ir.constraints import ElementsAttrC
from npu_opt.ir.opdef import AttrDef, OperandDef, ResultDef, VerifyError
from npu_opt.ir.traits import Pure


class _Pool(NpuComputeOp):
    """Shared declaration and checks of average and max pooling."""

    traits = (Pure(),)
    ifm = OperandDef(FeatureMap4D, doc="NHWC input feature map")
    lut = OperandDef(LookupTable, optional=True, doc="table of a fused 'lut' activation")
    kernel = AttrDef(KernelC, doc="window size, strides and explicit padding (dilation 1x1)")
    resampling = AttrDef(ResamplingC, optional=True, doc="IFM upscaling: 'nearest' (x2) or 'none' (default)")
    resize_size = AttrDef(ElementsAttrC(), optional=True,
                          doc="the output size of the resize whose first step this is, which Vela keeps among "
                              "the op's inputs: a range of the read-only data the NPU never reads")
    ofm = ResultDef(FeatureMap4D, doc="NHWC output feature map")

    def verify_shapes(self) -> None:
        ifm, ofm = shape_of(self.ifm), shape_of(self.ofm)
        if self.kernel.dilation != (1, 1):
            raise VerifyError("pooling has no dilation")
        check_depth("the OFM depth", ofm[3], ifm[3])
        check_depth("the OFM batch", ofm[0], ifm[0])
        upscale = 1 if self.resampling in (None, "none") else 2
        check_window(self.kernel, ifm, ofm, upscale)


@NPU.op
class AvgPoolOp(_Pool):
    """Average pooling (block type Pooling; Vela's ``AvgPool``). Padded positions do not count
    towards the average."""

    OP_NAME = "npu.avg_pool"
    VELA_OP = "AvgPool"
    traits = (Pure(), CostedOp(OpKind.AVG_POOL))


@NPU.op
class MaxPoolOp(_Pool):
    """Max pooling (block type Pooling; Vela's ``MaxPool``)."""

    OP_NAME = "npu.max_pool"
    VELA_OP = "MaxPool"
    traits = (Pure(), CostedOp(OpKind.MAX_POOL))


@NPU.op
class ReduceSumOp(NpuComputeOp):
    """Sum over the channels of each pixel (block type ReduceSum; Vela's ``ReduceSum``):
    [1, H, W, C] to a 32-bit [1, H, W, 1]."""

    OP_NAME = "npu.reduce_sum"
    VELA_OP = "ReduceSum"
    traits = (Pure(), CostedOp(OpKind.REDUCE_SUM))
    ifm = OperandDef(FeatureMap4D, doc="NHWC input feature map")
    ofm = ResultDef(FeatureMap4D, doc="[1, H, W, 1] 32-bit sums")

    def verify_shapes(self) -> None:
        ifm, ofm = shape_of(self.ifm), shape_of(self.ofm)
        if ofm != ifm[:3] + (1,):
            raise VerifyError(f"OFM shape must be {'x'.join(str(d) for d in ifm[:3] + (1,))}")
        if element_bits(self.ofm) != 32:
            raise VerifyError("the OFM of a reduce-sum is 32-bit")


__all__ = ["AvgPoolOp", "MaxPoolOp", "ReduceSumOp"]
