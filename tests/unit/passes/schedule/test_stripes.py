"""Stripe arithmetic of npu-form-cascades (passes/schedule/stripes.py)."""
from __future__ import annotations

import pytest

from npu_opt.hardware.perf.op_desc import Kernel, Resampling
from npu_opt.hardware.perf.shape import Shape4
from npu_opt.passes.schedule.stripes import (
    brick_bytes, input_extent, min_stripe_height, producer_stripe_height, rolling_buffer_shape, stripe_input,
    tensor_bytes,
)


def test_input_extent_stride_kernel_dilation() -> None:
    assert input_extent(1, 1, 3, Resampling.NONE) == 3
    assert input_extent(12, 2, 3, Resampling.NONE) == 25  # MobileNetV1 conv1: Vela's IFM stripe 25 rows
    assert input_extent(6, 2, 3, Resampling.NONE) == 13
    assert input_extent(4, 1, Kernel(3, 3, dilation_y=2).area_height(), Resampling.NONE) == 8


def test_input_extent_upscaling() -> None:
    assert input_extent(4, 1, 1, Resampling.NEAREST) == 3  # (3 + 1 + 1) / 2 rounded up
    assert input_extent(4, 1, 3, Resampling.TRANSPOSE) == 3  # (3 + 3) / 2
    with pytest.raises(ValueError):
        input_extent(0, 1, 1, Resampling.NONE)


def test_stripe_input_is_clamped_to_the_ifm() -> None:
    ifm = Shape4(1, 10, 8, 4)
    window = stripe_input(Shape4(1, 6, 8, 16), ifm, Kernel(3, 3, 1, 2), Resampling.NONE)
    assert window == Shape4(1, 10, 8, 4)  # 13 rows needed, 10 exist; width 10 clamped to 8
    assert stripe_input(Shape4(1, 2, 8, 16), ifm, Kernel(3, 3), Resampling.NONE) == Shape4(1, 4, 8, 4)


def test_min_stripe_height() -> None:
    assert min_stripe_height(None, Resampling.NONE) == 1
    assert min_stripe_height(2, Resampling.NONE) == 2
    assert min_stripe_height(1, Resampling.NEAREST) == 2
    assert min_stripe_height(3, Resampling.NEAREST) == 4
    assert min_stripe_height(None, Resampling.TRANSPOSE) == 1


def test_producer_stripe_height() -> None:
    assert producer_stripe_height(3, 2, 1, False) == 6
    assert producer_stripe_height(3, 1, 2, False) == 4  # a whole number of upscaled rows
    assert producer_stripe_height(3, 2, 1, True) == 8  # even in a chain with nearest upscaling
    assert producer_stripe_height(4, 1, 1, True) == 4


def test_rolling_buffer_shape_matches_vela_on_mobilenet_v1() -> None:
    # conv1 (stripe 12x112x32) into the depthwise (window 14 rows): 28 rows, 100352 bytes
    assert rolling_buffer_shape(Shape4(1, 12, 112, 32), Shape4(1, 14, 112, 32)) == Shape4(1, 28, 112, 32)
    assert rolling_buffer_shape(Shape4(1, 12, 112, 64), Shape4(1, 13, 112, 64)) == Shape4(1, 26, 112, 64)
    # wider consumer window, depth rounded to bricks
    assert rolling_buffer_shape(Shape4(1, 1, 7, 17), Shape4(1, 3, 9, 17)) == Shape4(1, 6, 9, 32)


def test_bytes() -> None:
    assert brick_bytes(Shape4(1, 2, 3, 17), 1) == 2 * 3 * 32
    assert tensor_bytes(Shape4(1, 3, 3, 3), 1, nhcwb16=False) == 32  # 27 rounded to 16
    assert tensor_bytes(Shape4(1, 3, 3, 3), 2, nhcwb16=True) == 288
