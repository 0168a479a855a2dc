"""The stripe plan's input boxes against Vela 5.2's own stripe transform, and the interleaving
of a cascade's members."""
from __future__ import annotations

import random

import pytest

from npu_opt.dialects.npu.stripe_plan import Box, Window, input_box
from npu_opt.hardware.padding import needed_total_padding

vela_stream = pytest.importorskip("ethosu.vela.high_level_command_stream")
vela_shape = pytest.importorskip("ethosu.vela.shape4d")
vela_operation = pytest.importorskip("ethosu.vela.operation")


def _vela_box(ofm: Box, window: Window, shape: tuple[int, int, int, int]) -> tuple[Box, int, int]:
    block_type = (vela_operation.NpuBlockType.ConvolutionMxN if window.whole_depth
                  else vela_operation.NpuBlockType.ConvolutionDepthWise)
    box, top, bottom = vela_stream.Box(list(ofm.start), list(ofm.end)).transform_with_strides_and_skirt(
        [1, window.stride[0], window.stride[1], 1], window.skirt, vela_shape.Shape4D(list(shape)), block_type,
        [0, 0, 0, 0], window.kernel_height, None, None, window.upscale)
    return Box(tuple(int(v) for v in box.start_coord), tuple(int(v) for v in box.end_coord)), top, bottom


@pytest.mark.parametrize("seed", range(200))
def test_input_boxes_are_vela_s(seed: int):
    rng = random.Random(seed)
    kh, kw = rng.randint(1, 7), rng.randint(1, 7)
    sy, sx = rng.randint(1, 3), rng.randint(1, 3)
    height, width, depth = rng.randint(kh, 40), rng.randint(kw, 40), rng.randint(1, 64)
    same = rng.random() < 0.5
    ypad, xpad = needed_total_padding(height, sy, kh), needed_total_padding(width, sx, kw)
    top, left = (ypad // 2, xpad // 2) if same else (0, 0)
    skirt = (top, left, ypad - top, xpad - left)
    out_h = -(-height // sy) if same else (height - kh) // sy + 1
    out_w = -(-width // sx) if same else (width - kw) // sx + 1
    window = Window((sy, sx), skirt, kh, 1, rng.random() < 0.5)
    rows = rng.randint(1, out_h)
    for y in range(0, out_h, rows):
        ofm = Box((0, y, 0, 0), (1, min(y + rows, out_h), out_w, depth))
        assert input_box(ofm, window, (1, height, width, depth)) == _vela_box(ofm, window, (1, height, width, depth))


def test_a_stripe_below_the_top_has_no_top_padding():
    window = Window((1, 1), (1, 1, 1, 1), 3)
    box, top, bottom = input_box(Box((0, 4, 0, 0), (1, 8, 10, 16)), window, (1, 10, 10, 16))
    assert (box.start[1], box.end[1], top, bottom) == (3, 9, 0, 0)
    box, top, bottom = input_box(Box((0, 8, 0, 0), (1, 10, 10, 16)), window, (1, 10, 10, 16))
    assert (box.start[1], box.end[1], top, bottom) == (7, 10, 0, 1)
