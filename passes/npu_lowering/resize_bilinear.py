"""Lowering of RESIZE_BILINEAR, as Vela 5.2 runs it on the NPU (``fixup_resize``).

Design notes: docs/lowering_design.md, section Lowering RESIZE_BILINEAR (npu_lowering/resize_bilinear)."""
from __future__ import annotations

import numpy as np

from npu_opt.dialects.npu.attrs import OffsetAttr
from npu_opt.dialects.npu.ops_conv import DepthwiseConv2DOp
from npu_opt.dialects.npu.ops_memory import ConcatOp
from npu_opt.dialects.npu.ops_pool import AvgPoolOp
from npu_opt.ir.core import Operation, Value
from npu_opt.ir.types import I8, I32, Type, element_type_of
from npu_opt.passes.npu_lowering.builder import Builder, quant_type, tensor
from npu_opt.passes.npu_lowering.context import Lowering
from npu_opt.passes.npu_lowering.pool import avgpool_nop
from npu_opt.passes.npu_lowering.shape import WRITE_ROUNDING, lower_resize_nearest, resize_size, upscale_steps
from npu_opt.passes.npu_lowering.view import shape4, shape_list, view_of

PHASE_PADDING: tuple[tuple[int, int, int, int], ...] = ((1, 1, 0, 0), (1, 0, 0, 1), (0, 1, 1, 0), (0, 0, 1, 1))
"""Padding (top, left, bottom, right) of the depthwise convolution of each output phase
(row parity, column parity) = (0, 0), (0, 1), (1, 0), (1, 1): towards the neighbours it blends."""

WEIGHT_ONE = 16
"""The bilinear weights are stored in sixteenths (their quantisation scale is 1/16)."""


def lower_resize_bilinear(op: Operation, lowering: Lowering) -> None:
    """Replace a tfl.resize_bilinear by the NPU ops Vela runs for it (see the module docstring)."""
    view = view_of(op)
    assert view.ifm is not None and view.ofm is not None
    ifm4, ofm4 = list(shape4(shape_list(view.ifm))), list(shape4(shape_list(view.ofm)))
    if ifm4 == ofm4 or ifm4[1] == ifm4[2] == 1:
        lower_resize_nearest(op, lowering)
        return
    b = lowering.builder(op)
    ifm = b.reshape(view.ifm, ifm4)
    elem = element_type_of(view.ofm.type)
    if bool(view.attr("half_pixel_centers", False)):
        b.finish(op, [_half_pixel(b, ifm, ifm4, ofm4, elem)])
        return
    align = bool(view.attr("align_corners", False))
    current, name, (up_h, up_w) = upscale_steps(b, ifm, ifm4, ofm4, elem, align, resize_size(op))
    padding = (0, 0, 0, 0) if align else (0, 0, up_h - 1, up_w - 1)
    ofm_type = tensor(ofm4, elem)
    result = b.npu(AvgPoolOp, [current], ofm_type, name, kernel=b.kernel((up_h, up_w), padding=padding),
                   resampling="nearest", activation=b.activation("none", ofm_type, avgpool=True),
                   rounding=WRITE_ROUNDING, resize_size=resize_size(op) if current is ifm else None)
    b.finish(op, [result])


def phase_kernels(ifm_hw: tuple[int, int], ofm_hw: tuple[int, int]) -> list[np.ndarray]:
    """The 2x2 bilinear kernel of each output phase, in sixteenths, for half-pixel centres: the
    weight of a tap is the product of its row and column weights, the nearer tap getting one
    minus the fractional source position (Vela's ``_compute_kernels``)."""
    kernels = []
    for row in (1, 2):
        for col in (1, 2):
            frac_h = _fraction(row, ifm_hw[0], ofm_hw[0])
            frac_w = _fraction(col, ifm_hw[1], ofm_hw[1])
            kernel = np.array([[frac_h * frac_w, frac_h * (1 - frac_w)],
                               [(1 - frac_h) * frac_w, (1 - frac_h) * (1 - frac_w)]]) * WEIGHT_ONE
            kernels.append(kernel)
    return kernels


def _fraction(index: int, ifm_size: int, ofm_size: int) -> float:
    """Fractional part of output ``index``'s source position with half-pixel centres."""
    position = (index + 0.5) * (ifm_size / ofm_size) - 0.5
    return position - max(np.floor(position), 0)


def _half_pixel(b: Builder, ifm: Value, ifm4: list[int], ofm4: list[int], elem: Type) -> Value:
    """The copy and the four phase convolutions of a half-pixel x2 resize, interleaved."""
    channels = ifm4[3]
    copy = avgpool_nop(b, ifm, tensor(ifm4, elem), "rb_init_avgpool")
    weight_type = tensor((1, 2, 2, channels), quant_type(I8, 1.0 / WEIGHT_ONE, 0))
    bias_type = tensor((channels,), I32)
    part_type = tensor(ifm4, elem)
    parts, offsets = [], []
    for index, kernel in enumerate(phase_kernels((ifm4[1], ifm4[2]), (ofm4[1], ofm4[2]))):
        weights = np.repeat(kernel.astype(np.int64)[None, :, :, None], channels, axis=3)
        parts.append(b.npu(DepthwiseConv2DOp, [copy, b.const(weights, weight_type),
                                               b.const(np.zeros(channels, dtype=np.int64), bias_type)],
                           part_type, f"depthwise_conv_{index}",
                           kernel=b.kernel((2, 2), padding=PHASE_PADDING[index]),
                           activation=b.activation("none", part_type), rounding="away_zero",
                           padding_mode="replicate"))
        offsets.append(OffsetAttr((0, index // 2, index % 2, 0)))
    return b.npu(ConcatOp, parts, tensor(ofm4, elem), offsets=offsets, strides=[1, 2, 2, 1])


__all__ = ["PHASE_PADDING", "WEIGHT_ONE", "lower_resize_bilinear", "phase_kernels"]
