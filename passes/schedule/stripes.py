"""Stripe arithmetic of the cascading scheduler (input a stripe needs, the smallest stripe, upward
propagation, rolling buffer sizes), pure so it can be tested on its own.

Design notes: docs/scheduler_design.md, section Stripe arithmetic (stripes)."""
from __future__ import annotations

from npu_opt.hardware.perf.op_desc import Kernel, Resampling
from npu_opt.hardware.perf.shape import Shape4, div_up, round_up

BRICK_DEPTH = 16
"""Channels of one NHCWB16 brick: SRAM sizes of striped feature maps round the depth up to it."""
ALLOCATION_QUANTUM = 16
"""Bytes a whole tensor's size is rounded up to (Vela's ``Tensor.AllocationQuantum``)."""


def input_extent(out: int, stride: int, dilated_kernel: int, resampling: Resampling) -> int:
    """IFM rows (or columns) needed to produce ``out`` OFM rows (or columns), before clamping."""
    if out < 1:
        raise ValueError(f"an OFM extent of {out} produces nothing")
    nearest = 1 if resampling is Resampling.NEAREST else 0
    return div_up((out - 1) * stride + dilated_kernel + nearest, resampling.upscale)


def stripe_input(stripe: Shape4, ifm: Shape4, kernel: Kernel, resampling: Resampling) -> Shape4:
    """The IFM area an OFM ``stripe`` reads: rows and columns from ``input_extent``, clamped to
    the whole ``ifm``; the depth stays the IFM's."""
    height = input_extent(stripe.height, kernel.stride_y, kernel.area_height(), resampling)
    width = input_extent(stripe.width, kernel.stride_x, kernel.area_width(), resampling)
    return ifm.with_hw(min(height, ifm.height), min(width, ifm.width))


def min_stripe_height(next_stride_y: int | None, resampling: Resampling) -> int:
    """Height of an op's smallest OFM stripe: the vertical stride of the op run after it (1 for
    the last op, ``None``), rounded up to even for nearest-neighbour upscaling."""
    height = next_stride_y if next_stride_y is not None else 1
    if resampling is Resampling.NEAREST:
        height += height % 2
    return height


def producer_stripe_height(consumer_stripe_height: int, consumer_stride_y: int, consumer_upscale: int,
                           force_even: bool) -> int:
    """The OFM stripe height the op before a consumer produces per consumer stripe, when stripes
    are proposed from the last op upwards: the consumer's stripe height, first padded to even
    (``force_even``: the chain holds a nearest-neighbour upscaler) or to a whole number of
    upscaled rows, times the consumer's vertical stride."""
    height = consumer_stripe_height
    height += height % 2 if force_even else height % consumer_upscale
    return height * consumer_stride_y


def rolling_buffer_shape(producer_stripe: Shape4, consumer_input: Shape4) -> Shape4:
    """The rolling buffer between a producer writing ``producer_stripe`` per step and a consumer
    reading ``consumer_input`` per step: room for one producer stripe on top of one consumer
    window, in whole consumer windows; the wider width; the depth in whole bricks."""
    window = consumer_input.height
    height = round_up(producer_stripe.height + window, window)
    width = max(producer_stripe.width, consumer_input.width)
    return Shape4(1, height, width, round_up(producer_stripe.depth, BRICK_DEPTH))


def brick_bytes(shape: Shape4, element_bytes: int) -> int:
    """Bytes of a stripe or window held in SRAM as bricks: the depth rounded up to 16 channels."""
    return shape.with_depth(round_up(shape.depth, BRICK_DEPTH)).elements() * element_bytes


def tensor_bytes(shape: Shape4, element_bytes: int, nhcwb16: bool) -> int:
    """Bytes a whole feature map takes in its format, rounded to the allocation quantum."""
    depth = round_up(shape.depth, BRICK_DEPTH) if nhcwb16 else shape.depth
    return round_up(shape.with_depth(depth).elements() * element_bytes, ALLOCATION_QUANTUM)


__all__ = ["ALLOCATION_QUANTUM", "BRICK_DEPTH", "brick_bytes", "input_extent", "min_stripe_height",
           "producer_stripe_height", "rolling_buffer_shape", "stripe_input", "tensor_bytes"]
