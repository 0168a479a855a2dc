"""Lowering of the MAC operators (CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, TRANSPOSE_CONV, and
the convolution a wide-strided AVERAGE_POOL_2D becomes), with Vela's rewrites in Vela's order.

Design notes: docs/lowering_design.md, section Lowering the MAC operators (npu_lowering/conv)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from npu_opt.dialects.npu.ops_conv import Conv2DOp, DepthwiseConv2DOp, TransposeConv2DOp, VectorProductOp
from npu_opt.ir.core import Operation, Value
from npu_opt.ir.types import I32, I64, QuantUniformType, Type, element_type_of
from npu_opt.passes.npu_lowering.builder import Builder, tensor
from npu_opt.passes.npu_lowering.context import ACTIVATION_OF_FAF, Lowering
from npu_opt.passes.npu_lowering.padding import kernel_padding, needed_total_padding, upscaled_padding
from npu_opt.passes.npu_lowering.support import resize_factor
from npu_opt.passes.npu_lowering.view import constant, shape4, shape_list, view_of

BATCH_SPLIT = {4: (2, 2), 6: (2, 3), 8: (2, 4), 9: (3, 3), 12: (3, 4), 16: (4, 4)}
"""How Vela folds a vector product's batch N into H x W (else 1 x N)."""


@dataclass
class ConvPlan:
    """A MAC op being rewritten: ``kind`` is conv, depthwise, fc or tconv; ``hwio`` the weights
    in Vela's layout ([H, W, I, O]; depthwise [H, W, 1, C]; fc [1, 1, K, O])."""

    kind: str
    name: str
    ifm: Value
    ifm_shape: tuple[int, ...]
    hwio: np.ndarray
    weight_elem: Type
    bias: Value | None
    ofm_shape: tuple[int, ...]
    ofm_elem: Type
    stride: tuple[int, int] = (1, 1)
    dilation: tuple[int, int] = (1, 1)
    padding: str = "VALID"
    explicit: tuple[int, int, int, int] | None = None
    activation: str = "none"
    rounding: str | None = None
    upscale: tuple[int, int] = (1, 1)
    extra: dict[str, Any] = field(default_factory=dict)
    source: Value | None = None
    """The model's weight constant, reused when the weights end up unchanged in the same layout."""
    source_kind: str = ""
    modified: bool = False
    """True once a rewrite changed the weight values or shape."""

    @property
    def kernel_hw(self) -> tuple[int, int]:
        return int(self.hwio.shape[0]), int(self.hwio.shape[1])

    @property
    def dilated_hw(self) -> tuple[int, int]:
        (kh, kw), (dh, dw) = self.kernel_hw, self.dilation
        return (kh - 1) * dh + 1, (kw - 1) * dw + 1


def _ifm_bits(plan: ConvPlan) -> int:
    elem = element_type_of(plan.ifm.type)
    store = elem.storage_type if isinstance(elem, QuantUniformType) else elem
    return store.width  # type: ignore[union-attr]


def _weights_zero_point(plan: ConvPlan) -> int:
    elem = plan.weight_elem
    if isinstance(elem, QuantUniformType) and len(elem.zero_points) == 1:
        return elem.zero_points[0]
    return 0


# ---------------------------------------------------------------------------------------------
# Plans from tfl ops
def plan_of(op: Operation, lowering: Lowering) -> ConvPlan:
    """The plan of a tfl conv_2d, depthwise_conv_2d, fully_connected or transpose_conv."""
    view = view_of(op)
    weights = constant(view.weights)
    assert weights is not None and view.ifm is not None and view.ofm is not None
    welem = element_type_of(view.weights.type)  # type: ignore[union-attr]
    ofm_elem = element_type_of(view.ofm.type)
    act = ACTIVATION_OF_FAF[view.faf()]
    name = lowering.name(op)
    if op.name == "tfl.fully_connected":
        k = weights.shape[1]
        n = int(np.prod(shape_list(view.ifm))) // k
        return ConvPlan("fc", name, view.ifm, (n, 1, 1, k), weights.T.reshape(1, 1, k, -1), welem, view.bias,
                        (n, 1, 1, weights.shape[0]), ofm_elem, activation=act, source=view.weights, source_kind="fc")
    ifm4, ofm4 = shape4(shape_list(view.ifm)), shape4(shape_list(view.ofm))
    padding = str(view.attr("padding"))
    stride = (view.int("stride_h"), view.int("stride_w"))
    if op.name == "tfl.transpose_conv":
        plan = ConvPlan("tconv", name, view.ifm, ifm4, np.transpose(weights, (1, 2, 3, 0)), welem, view.bias, ofm4,
                        ofm_elem, padding=padding, activation=act, source=view.weights, source_kind="tconv")
        if stride != (1, 1):
            plan.upscale = (ofm4[1] // ifm4[1], ofm4[2] // ifm4[2])
        return plan
    dilation = (view.int("dilation_h_factor"), view.int("dilation_w_factor"))
    if op.name == "tfl.depthwise_conv_2d":
        hwio = np.transpose(weights, (1, 2, 0, 3))  # 1HWC -> HW1C
        return ConvPlan("depthwise", name, view.ifm, ifm4, hwio, welem, view.bias, ofm4, ofm_elem, stride, dilation,
                        padding, activation=act, extra={"multiplier": view.int("depth_multiplier", 1)},
                        source=view.weights, source_kind="depthwise")
    return ConvPlan("conv", name, view.ifm, ifm4, np.transpose(weights, (1, 2, 3, 0)), welem, view.bias, ofm4,
                    ofm_elem, stride, dilation, padding, activation=act, source=view.weights, source_kind="conv")


# ---------------------------------------------------------------------------------------------
# Vela's rewrites, in order
def depthwise_to_conv(plan: ConvPlan) -> None:
    if plan.kind == "depthwise" and plan.extra.get("multiplier", 1) != 1:
        # [H, W, 1, M] is already the HWIO of a convolution with one input channel
        plan.kind = "conv"


def conv_to_fc(plan: ConvPlan) -> None:
    if plan.kind == "conv" and plan.ifm_shape[1:3] == (1, 1) and plan.kernel_hw == (1, 1):
        plan.kind = "fc"
        plan.name += "_fc"


def folded_filter_padding(padding: str, ifm_pad: int, stride_after: int, factor: int, kernel_w: int,
                          ifm_width: int) -> tuple[int, int]:
    """Zero columns (left, right) added to a filter before its width is folded ``factor`` columns
    at a time into depth.

    The folded filter must be a whole number of column groups wide. With VALID padding zeros are
    added on the right up to the next multiple of ``factor``. With SAME padding the filter is
    widened so that the folded convolution pads its IFM by as much as the original (``ifm_pad``
    columns) did: it spans ``ifm_pad`` plus the columns the last stride step reaches past the IFM,
    in groups; the added zeros are split like the IFM padding (half and half when there is none).
    A filter that still is not a whole number of groups, with no IFM padding or nothing added,
    is only rounded up on the right.
    """
    round_right = (0, -kernel_w % factor)
    if padding == "VALID":
        return round_right
    stride_before = stride_after * factor
    overhang = stride_after if ifm_width % stride_before == 0 else (ifm_width // factor) % stride_after
    added = (ifm_pad + overhang) * factor - kernel_w
    if kernel_w % factor and (added == 0 or ifm_pad == 0):
        return round_right
    left = added // 2 if ifm_pad == 0 else added // ifm_pad * (ifm_pad // 2)
    return left, added - left


def _fold_width_stride(plan: ConvPlan) -> bool:
    """View the IFM [N, H, W, C] as [N, H, W/f, C*f] and group the filter's columns f at a time,
    turning width stride s into s/f. Worth it when the NPU cannot run s (above 3) or the folded
    depth stays within 8 channels (an RGB input, say). Returns False when a fold was due but is
    impossible (explicit padding, or SAME padding the fold would change): the op keeps its
    strides as they are.

    Weights shallower than the IFM (a grouped convolution: the ones kernel of an average pool
    run as a convolution has one input per group) keep their size: the folded IFM interleaves
    the columns' channels (j*C + c), so the plan records the fold factor (``width_fold``) and
    the op reads each group's channels with stride C, as the NPU does."""
    sy, sx = plan.stride
    ifm = plan.ifm_shape
    factor, stride_after = resize_factor(ifm[2], sx)
    if factor == 1 or not (sx > 3 or ifm[3] * factor <= 8):
        return True
    if plan.padding == "EXPLICIT":
        return False
    kw = plan.kernel_hw[1]
    ifm_pad = needed_total_padding(ifm[2], sx, kw)
    left, right = folded_filter_padding(plan.padding, ifm_pad, stride_after, factor, kw, ifm[2])
    if plan.padding == "SAME" and ifm_pad != needed_total_padding(ifm[2] // factor, stride_after,
                                                                  (kw + 1 + left + right) // factor):
        return False
    padded = np.pad(plan.hwio, ((0, 0), (left, right), (0, 0), (0, 0)), constant_values=_weights_zero_point(plan))
    h, w, i, o = padded.shape
    if i != ifm[3]:
        plan.extra["width_fold"] = factor
    plan.hwio = padded.reshape(h, w // factor, i * factor, o)
    plan.ifm_shape = (ifm[0], ifm[1], ifm[2] // factor, ifm[3] * factor)
    plan.stride = (sy, stride_after)
    plan.modified = True
    return True


def fixup_strided(plan: ConvPlan, first: bool) -> None:
    """Strides of a convolution that is the network's first op or has a width stride of 4 or
    more: fold the width stride into depth where possible (``_fold_width_stride``); then an OFM
    axis of size 1 gets stride 1, its padding computed with the stride it had."""
    if plan.kind != "conv" or not (first or plan.stride[1] >= 4):
        return
    if not _fold_width_stride(plan):
        return
    sy, sx = plan.stride
    if plan.ofm_shape[1] == 1 or plan.ofm_shape[2] == 1:
        # Deviation: Vela computes this padding on the IFM shape from before the fold, which after a
        # fold gives a window that is shifted or runs off the folded IFM; the folded shape gives
        # the padding Vela uses when no OFM axis is 1 (and is the same when nothing was folded).
        folded = plan.ifm_shape
        plan.explicit = kernel_padding(plan.padding, (folded[1], folded[2]), plan.dilated_hw, plan.stride,
                                       plan.explicit)
        plan.padding = "EXPLICIT"
        plan.stride = (1 if plan.ofm_shape[1] == 1 else sy, 1 if plan.ofm_shape[2] == 1 else sx)


def batched_fc(plan: ConvPlan) -> None:
    """Vela's ``convert_batched_fc_shape``."""
    if plan.kind != "fc" or plan.ifm_shape[0] == 1:
        return
    n = plan.ifm_shape[0]
    h, w = BATCH_SPLIT.get(n, (1, n))
    plan.ifm_shape = (1, h, w, plan.ifm_shape[3])
    plan.ofm_shape = (1, h, w, plan.ofm_shape[3])
    if h == 1 and w > 4:
        plan.kind = "conv"
        plan.padding = "SAME"


def absorb_pad(plan: ConvPlan, op: Operation, lowering: Lowering) -> None:
    """Use the padding of a PAD that ``lower_pad`` decided this op absorbs."""
    absorbed = lowering.absorbed_pads.get(op)
    if absorbed is None:
        return
    pad, pads = absorbed
    source = pad.operands[0]
    plan.ifm = source
    plan.ifm_shape = shape4(shape_list(source))
    plan.padding = "EXPLICIT"
    plan.explicit = pads


def fixup_dilation(plan: ConvPlan) -> None:
    """Vela's ``fixup_dilation_gt2``: dilation d > 2 as a kernel dilated by d // h in software
    and h (1 or 2) in hardware."""
    if plan.kind not in ("conv", "depthwise"):
        return
    dh, dw = plan.dilation
    if dh <= 2 and dw <= 2:
        return
    hw_h, hw_w = (1 if dh & 1 else 2), (1 if dw & 1 else 2)
    sh, sw = dh // hw_h, dw // hw_w
    kh, kw, i, o = plan.hwio.shape
    sparse = np.full(((kh - 1) * sh + 1, (kw - 1) * sw + 1, i, o), _weights_zero_point(plan), dtype=plan.hwio.dtype)
    sparse[::sh, ::sw] = plan.hwio
    plan.hwio = sparse
    plan.modified = True
    plan.dilation = (hw_h, hw_w)


def hardware_padding(plan: ConvPlan) -> tuple[int, int, int, int]:
    """Vela's ``add_padding_fields``."""
    ifm_hw = (plan.ifm_shape[1], plan.ifm_shape[2])
    if plan.kind == "tconv" and plan.upscale != (1, 1):
        return upscaled_padding(plan.padding, ifm_hw, plan.kernel_hw, plan.upscale)
    if plan.kind == "tconv" and plan.padding == "VALID":
        # stride 1: the OFM is the IFM grown by the kernel, i.e. k - 1 padding on every side (Vela
        # computes none here, which cannot produce that OFM)
        kh, kw = plan.kernel_hw
        return kh - 1, kw - 1, kh - 1, kw - 1
    if plan.kind == "fc":
        return 0, 0, 0, 0
    return kernel_padding(plan.padding, ifm_hw, plan.dilated_hw, plan.stride, plan.explicit)


# ---------------------------------------------------------------------------------------------
# Emission
def _axis_quant(elem: Type, axis: int) -> Type:
    """A per-axis quantisation moved to ``axis`` (the output-channel axis of the new layout)."""
    if isinstance(elem, QuantUniformType) and elem.axis is not None and elem.axis != axis:
        return QuantUniformType(elem.storage_type, elem.expressed_type, elem.scales, elem.zero_points, axis,
                                elem.storage_min, elem.storage_max)
    return elem


def _bias(b: Builder, plan: ConvPlan, channels: int) -> Value:
    """The op's bias, or zeros (int64 for 16-bit IFMs, as Vela's ``fixup_bias_tensors``)."""
    if plan.bias is not None:
        return plan.bias
    elem = I64 if _ifm_bits(plan) == 16 and not plan.extra.get("bias32") else I32
    return b.const(np.zeros(channels, dtype=np.int64), tensor((channels,), elem))


def _weights(b: Builder, plan: ConvPlan, array: np.ndarray, shape: tuple[int, ...], axis: int) -> Value:
    """The weight constant: the model's own when unchanged, else a new one."""
    if plan.source is not None and plan.kind == plan.source_kind and not plan.modified:
        return plan.source
    return b.const(array, tensor(shape, _axis_quant(plan.weight_elem, axis)))


def emit(plan: ConvPlan, b: Builder) -> Value:
    """Create the npu op of ``plan``; its result is the 4-D OFM."""
    padding = hardware_padding(plan)
    ifm = b.reshape(plan.ifm, plan.ifm_shape)
    ofm_type = tensor(plan.ofm_shape, plan.ofm_elem)
    act = b.activation(plan.activation, ofm_type)
    common: dict[str, Any] = {"activation": act, "rounding": plan.rounding}
    if "rescale" in plan.extra:
        common["rescale"] = plan.extra["rescale"]
    kh, kw, i, o = plan.hwio.shape
    if plan.kind == "fc":
        weights = _weights(b, plan, plan.hwio[0, 0].T, (o, i), 0)
        return b.npu(VectorProductOp, [ifm, weights, _bias(b, plan, o)], ofm_type, plan.name, **common)
    kernel = b.kernel((kh, kw), plan.stride, plan.dilation, padding)
    if plan.kind == "depthwise":
        weights = _weights(b, plan, np.transpose(plan.hwio, (2, 0, 1, 3)), (1, kh, kw, o), 3)
        return b.npu(DepthwiseConv2DOp, [ifm, weights, _bias(b, plan, o)], ofm_type, plan.name, kernel=kernel,
                     resampling=plan.extra.get("resampling"), pool_padding=plan.extra.get("pool_padding"), **common)
    weights = _weights(b, plan, np.transpose(plan.hwio, (3, 0, 1, 2)), (o, kh, kw, i), 0)
    if plan.kind == "tconv":
        resampling = "transpose" if plan.upscale != (1, 1) else "none"
        return b.npu(TransposeConv2DOp, [ifm, weights, _bias(b, plan, o)], ofm_type, plan.name, kernel=kernel,
                     resampling=resampling, **common)
    return b.npu(Conv2DOp, [ifm, weights, _bias(b, plan, o)], ofm_type, plan.name, kernel=kernel,
                 width_fold=plan.extra.get("width_fold"), pool_padding=plan.extra.get("pool_padding"), **common)


def symmetric_weights(plan: ConvPlan) -> None:
    """--force-symmetric-int-weights: the weights' zero points become 0 (Vela's
    ``fixup_asymmetric_weights``, for convolutions on int8/int16 IFMs)."""
    elem = plan.weight_elem
    if plan.kind in ("conv", "depthwise") and _ifm_bits(plan) in (8, 16) and isinstance(elem, QuantUniformType) \
            and any(elem.zero_points):
        plan.weight_elem = QuantUniformType(elem.storage_type, elem.expressed_type, elem.scales,
                                            [0] * len(elem.zero_points), elem.axis, elem.storage_min, elem.storage_max)
        plan.modified = True


def rewrite(plan: ConvPlan, op: Operation, lowering: Lowering, from_conv_op: bool = True) -> None:
    """Apply Vela's rewrites to ``plan`` (see the module docstring)."""
    if lowering.force_symmetric_weights:
        symmetric_weights(plan)
    if from_conv_op:
        depthwise_to_conv(plan)
        conv_to_fc(plan)
    absorbed = op in lowering.absorbed_pads
    if not absorbed:
        fixup_strided(plan, lowering.is_first(op))
    batched_fc(plan)
    absorb_pad(plan, op, lowering)
    fixup_dilation(plan)


def lower_mac(op: Operation, lowering: Lowering) -> None:
    """Lower a tfl conv_2d, depthwise_conv_2d, fully_connected or transpose_conv."""
    plan = plan_of(op, lowering)
    rewrite(plan, op, lowering)
    b = lowering.builder(op)
    b.finish(op, [emit(plan, b)])


__all__ = ["ConvPlan", "emit", "lower_mac", "plan_of", "rewrite"]
