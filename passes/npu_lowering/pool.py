"""Lowering of AVERAGE_POOL_2D and MAX_POOL_2D, and the 1x1 average-pool "no-op" other lowerings
use to copy, requantise or apply an activation.

Design notes: docs/lowering_design.md, section Lowering pools (npu_lowering/pool)."""
from __future__ import annotations

import numpy as np

from npu_opt.dialects.npu.ops_pool import AvgPoolOp, MaxPoolOp
from npu_opt.ir.attributes import Attribute
from npu_opt.ir.core import Operation, Value
from npu_opt.ir.types import I32, Type, element_type_of
from npu_opt.passes.npu_lowering.builder import Builder, quant_type, storage, tensor
from npu_opt.passes.npu_lowering.context import ACTIVATION_OF_FAF, Lowering
from npu_opt.passes.npu_lowering.conv import ConvPlan, emit, rewrite
from npu_opt.passes.npu_lowering.padding import kernel_padding
from npu_opt.passes.npu_lowering.support import pool_strides
from npu_opt.passes.npu_lowering.view import quant, shape4, shape_list, view_of


def avgpool_nop(b: Builder, ifm: Value, ofm_type: Type, name: str, activation: str = "none",
                rescale: tuple[int, int] | None = None, resampling: str | None = None,
                rounding: str | None = None, resize_size: Attribute | None = None) -> Value:
    """A 1x1 stride-1 average pool (Vela's ``create_avgpool_nop``): copies and requantises ``ifm``
    into ``ofm_type``, applying ``activation``; ``rounding`` when not TFLite's (Vela rounds a
    concatenation's writes and a resize's steps half up)."""
    explicit = rescale is not None
    return b.npu(AvgPoolOp, [ifm], ofm_type, name, kernel=b.kernel((1, 1)),
                 activation=b.activation(activation, ofm_type, avgpool=True, explicit=explicit),
                 rescale=b.rescale(*rescale) if rescale else None, resampling=resampling, rounding=rounding,
                 resize_size=resize_size)


def _ones_plan(kind: str, name: str, ifm: Value, ifm4: tuple[int, ...], ofm4: tuple[int, ...], ofm_elem: Type,
               size: tuple[int, int], stride: tuple[int, int], padding: str, activation: str) -> ConvPlan:
    """A (depthwise) convolution with a kernel of ones scaled by 1/(h*w): the average pool as a
    MAC operation. Weights have the IFM's type with that scale."""
    kh, kw = size
    channels = ofm4[3]
    welem = quant_type(storage(ifm.type), 1.0 / (kh * kw), 0)
    hwio = np.ones((kh, kw, 1, channels), dtype=np.int64)
    return ConvPlan(kind, name, ifm, ifm4, hwio, welem, None, ofm4, ofm_elem, stride, (1, 1), padding,
                    activation=activation)


def lower_pool(op: Operation, lowering: Lowering) -> None:
    """Lower a tfl average_pool_2d or max_pool_2d."""
    view = view_of(op)
    assert view.ifm is not None and view.ofm is not None
    stride_w, stride_h, padding = pool_strides(view)
    kh, kw = view.int("filter_height"), view.int("filter_width")
    act = ACTIVATION_OF_FAF[view.faf()]
    b = lowering.builder(op)
    ifm4, ofm4 = shape4(shape_list(view.ifm)), shape4(shape_list(view.ofm))
    ofm_elem = element_type_of(view.ofm.type)
    if op.name == "tfl.average_pool_2d" and stride_w > 3:
        plan = _ones_plan("conv", b.name + "_conv2d", view.ifm, ifm4, ofm4, ofm_elem, (kh, kw), (stride_h, stride_w),
                          padding, act)
        plan.rounding = "away_zero"
        plan.extra["pool_padding"] = "explicit" if op in lowering.absorbed_pads else padding.lower()
        rewrite(plan, op, lowering, from_conv_op=False)
        b.finish(op, [emit(plan, b)])
        return
    if op.name == "tfl.average_pool_2d" and op in lowering.absorbed_pads:
        plan = _ones_plan("depthwise", b.name, view.ifm, ifm4, ofm4, ofm_elem, (kh, kw), (stride_h, stride_w),
                          padding, act)
        source = lowering.absorbed_pads[op][0].operands[0]
        if storage(source.type).is_unsigned:
            plan.rounding = "half_up"
            plan.extra["bias32"] = True
        else:
            plan.rounding = "away_zero"
            plan.extra["pool_padding"] = "explicit"
            q = quant(source)
            zp = q.zero_points[0] if q is not None else 0
            plan.bias = b.const(np.full(ofm4[3], zp * kh * kw, dtype=np.int64), tensor((ofm4[3],), I32))
        rewrite(plan, op, lowering, from_conv_op=False)
        b.finish(op, [emit(plan, b)])
        return
    ifm = b.reshape(view.ifm, ifm4)
    pads = kernel_padding(padding, (ifm4[1], ifm4[2]), (kh, kw), (stride_h, stride_w))
    kernel = b.kernel((kh, kw), (stride_h, stride_w), (1, 1), pads)
    ofm_type = tensor(ofm4, ofm_elem)
    cls = AvgPoolOp if op.name == "tfl.average_pool_2d" else MaxPoolOp
    activation = b.activation(act, ofm_type, avgpool=cls is AvgPoolOp)
    b.finish(op, [b.npu(cls, [ifm], ofm_type, kernel=kernel, activation=activation)])


__all__ = ["avgpool_nop", "lower_pool"]
