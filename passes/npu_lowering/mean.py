"""MEAN as the NPU computes it: depthwise sums, then one rescaling multiply.

Depthwise convolutions with a kernel of ones sum the reduced axes into 32 bits (``<name>_conv_<i>``;
the kernel is at most 64 rows and 4096 elements, so a tall reduction is split into row bands,
each reading its slice of the IFM and added up by ``<name>_add_<i>``). An elementwise multiply by
1/N folded into the output rescale (``<name>_mul``) writes the OFM. A mean over the channels
first views the IFM with the channels as a spatial axis; a mean over axes of size 1 is a copy
(``npu.dma``). The op names are Vela's, so reports can be compared layer by layer.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from npu_opt.dialects.npu.attrs import OffsetAttr
from npu_opt.dialects.npu.ops_conv import DepthwiseConv2DOp
from npu_opt.dialects.npu.ops_elementwise import AddOp, MulOp
from npu_opt.dialects.npu.ops_memory import DmaOp, SliceOp
from npu_opt.dialects.npu.quant import quantise_scale, scale_and_zero_point
from npu_opt.ir.core import Operation, Value
from npu_opt.ir.types import I32, I64, IntegerType, element_type_of
from npu_opt.passes.npu_lowering.builder import Builder, quant_type, storage, tensor
from npu_opt.passes.npu_lowering.context import Lowering
from npu_opt.passes.npu_lowering.view import constant, quant, shape_list, view_of

MAX_KERNEL, MAX_HEIGHT = 4096, 64
"""Largest depthwise kernel the NPU runs: 4096 elements, 64 rows."""


@dataclass(frozen=True)
class MeanPlan:
    """How a MEAN is cut into depthwise sums: the 4D IFM the sums read, the 4D shape of each sum,
    the kernel width and the kernel height of each row band (top to bottom)."""

    ifm_shape: tuple[int, int, int, int]
    sum_shape: tuple[int, int, int, int]
    reduce_h: bool
    reduce_w: bool
    kernel_w: int
    bands: tuple[int, ...]

    @property
    def count(self) -> int:
        """Elements averaged into each output."""
        return sum(self.bands) * self.kernel_w

    def read_shape(self, band: int) -> tuple[int, int, int, int]:
        """The IFM slice band ``band`` reads."""
        n, h, w, c = self.ifm_shape
        return (n, self.bands[band] if self.reduce_h else h, self.kernel_w if self.reduce_w else w, c)

    def band_offset(self, band: int) -> int:
        """First IFM row of band ``band``."""
        return sum(self.bands[:band])


def plan_mean(shape: list[int], axes: set[int]) -> MeanPlan | None:
    """The sums that average ``shape`` over ``axes`` (non-negative), or None when every reduced
    axis has size 1 (the mean is a copy). A channel mean needs one of H, W of size 1: the channels
    take that axis's place."""
    pad = 4 - len(shape)
    dims = [1] * pad + list(shape)
    reduced = [False] * pad + [i in axes for i in range(len(shape))]
    if not any(r and d > 1 for r, d in zip(reduced, dims)):
        return None
    if reduced[3] and dims[3] > 1:
        unit = 2 if dims[2] == 1 else 1  # the spatial axis of size 1 gives way to the channels
        dims = [d for i, d in enumerate(dims) if i != unit] + [1]
        reduced = [r for i, r in enumerate(reduced) if i != unit] + [False]
    n, h, w, c = dims
    sum_shape = tuple(1 if r else d for r, d in zip(reduced, dims))
    rows = h if reduced[1] else 1
    cols = w if reduced[2] else 1
    if rows > MAX_HEIGHT and rows * cols <= MAX_KERNEL and reduced[1] and reduced[2]:
        # too tall for one kernel but small enough: read the rows as one long row
        dims, rows, cols = [n, 1, h * w, c], 1, h * w
    band = min(MAX_KERNEL // cols, rows, MAX_HEIGHT)
    bands = (band,) * (rows // band) + ((rows % band,) if rows % band else ())
    return MeanPlan(tuple(dims), sum_shape, reduced[1], reduced[2], cols, bands)  # type: ignore[arg-type]


def mean_rescale(in_scale: float, out_scale: float, count: int) -> tuple[int, int]:
    """(multiplier, shift) applying in_scale / out_scale / count to a 32-bit sum, as TFLite's
    reference does: the Q31 multiplier of the scale ratio absorbs 1/count after a left shift by
    floor(log2 count) (at most 32, and keeping the total shift within 62)."""
    multiplier, shift = quantise_scale(float(np.double(in_scale) / np.double(out_scale)))
    headroom = max(0, min(count.bit_length() - 1, 32, 62 - shift))
    scaled = ((multiplier << headroom) // count + (1 << 31)) % (1 << 32) - (1 << 31)  # as an int32
    return scaled, shift + headroom


def lower_mean(op: Operation, lowering: Lowering) -> None:
    """Replace a tfl.mean by its depthwise sums and rescaling multiply (or a copy)."""
    view = view_of(op)
    b = lowering.builder(op)
    assert view.ifm is not None and view.ofm is not None
    shape = shape_list(view.ifm) or []
    axes = {int(a) % len(shape) for a in np.reshape(constant(op.operands[1]), -1)}  # type: ignore[arg-type]
    plan = plan_mean(shape, axes)
    if plan is None:
        _lower_as_copy(op, b, view.ifm, view.ofm, shape)
        return
    ifm = b.reshape(view.ifm, plan.ifm_shape)
    out_scale, out_zp = scale_and_zero_point(quant(view.ofm))
    sum_type = tensor(plan.sum_shape, quant_type(I32, out_scale, out_zp))
    bias_type = I64 if storage(view.ifm.type).width == 16 else I32
    channels = plan.ifm_shape[3]
    sums: list[Value] = []
    for band, rows in enumerate(plan.bands):
        read = plan.read_shape(band)
        source = ifm
        if read != plan.ifm_shape:
            source = b.npu(SliceOp, [ifm], tensor(read, element_type_of(ifm.type)), f"{b.name}_read_{band}",
                           offset=OffsetAttr((0, plan.band_offset(band), 0, 0)))
        kernel_shape = (1, rows, plan.kernel_w, channels)
        ones = b.const(np.ones(kernel_shape, dtype=np.int64),
                       tensor(kernel_shape, quant_type(IntegerType(8, "unsigned"), 1.0, 0)))
        zeros = b.const(np.zeros(channels, dtype=np.int64), tensor((channels,), bias_type))
        # Vela names each sum by cloning the MEAN with a suffix that repeats its name
        sums.append(b.npu(DepthwiseConv2DOp, [source, ones, zeros], sum_type, f"{b.name}{b.name}_conv_{band}",
                          kernel=b.kernel((rows, plan.kernel_w)), activation=b.activation("none", sum_type),
                          rescale=b.rescale(1, 0)))
    total = _add_up(b, sums, plan.sum_shape)
    in_scale, _ = scale_and_zero_point(quant(view.ifm))
    multiplier, shift = mean_rescale(in_scale, out_scale, plan.count)
    factor = b.const([multiplier], tensor((1, 1, 1, 1), quant_type(I32, 1.0, 0)))
    ofm_type = tensor(plan.sum_shape, element_type_of(view.ofm.type))
    result = b.npu(MulOp, [total, factor], ofm_type, f"{b.name}_mul", activation=b.activation("none", ofm_type),
                   rescale=b.rescale(1, shift), rounding="tflite")
    b.finish(op, [result])


def _add_up(b: Builder, sums: list[Value], shape: tuple[int, ...]) -> Value:
    """The band sums added from the bottom band up (``<name>_add_<i>``), in 32 bits unscaled."""
    if len(sums) == 1:
        return sums[0]
    add_type = tensor(shape, quant_type(I32, 1.0, 0))
    bottom_up = sums[::-1]
    total = b.npu(AddOp, bottom_up[:2], add_type, f"{b.name}_add_0", activation=b.activation("none", add_type),
                  rescale=b.rescale(1, 0))
    for index, partial in enumerate(bottom_up[2:], start=1):
        total = b.npu(AddOp, [partial, total], add_type, f"{b.name}_add_{index}",
                      activation=b.activation("none", add_type), rescale=b.rescale(1, 0))
    return total


def _lower_as_copy(op: Operation, b: Builder, ifm: Value, ofm: Value, shape: list[int]) -> None:
    """A mean over axes of size 1: a DMA copy, or a requantising copy when the scales differ."""
    if element_type_of(ifm.type) is element_type_of(ofm.type):
        b.finish(op, [b.npu(DmaOp, [ifm], ifm.type)])
        return
    from npu_opt.passes.npu_lowering.pool import avgpool_nop
    ifm_4d = [1] * (4 - len(shape)) + list(shape)
    b.finish(op, [avgpool_nop(b, b.reshape(ifm, ifm_4d), tensor(ifm_4d, element_type_of(ofm.type)), b.name)])


__all__ = ["MeanPlan", "lower_mean", "mean_rescale", "plan_mean"]
