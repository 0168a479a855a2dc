"""Weight-stream slicing (hardware/perf/weight_buffering.py): the prefetch share, the slice
depth rounding, the shrinking sequence of slicings and the whole choice under a tight buffer.
Expected values worked by hand from the policy in the module docstring (checked against Vela 5.2
on the corpus by bench/perf_fidelity.py)."""
from __future__ import annotations

import math

import pytest

from npu_opt.hardware.perf import (
    Kernel, NpuOpDesc, OpKind, Shape4, TensorDesc, WeightsDesc, resolve_perf_target, select_block_config,
)
from npu_opt.hardware.perf.weight_buffering import (
    depth_boundaries, prefetch_bytes, propose_weight_buffering, slicings, snap_slice_depth,
)
from npu_opt.hardware.codec.weight_size import EncodedWeights, WeightRange


def test_prefetch_is_the_hidden_share_capped_at_half_the_buffer() -> None:
    # 1000 bytes taking 500 cycles: 100 cycles of slack hide a fifth; 600 hide all of it.
    assert prefetch_bytes(1000, 500.0, 100.0, math.inf) == 200.0
    assert prefetch_bytes(1000, 500.0, 600.0, math.inf) == 1000
    assert prefetch_bytes(1000, 500.0, 600.0, 300) == 300
    assert prefetch_bytes(1000, 500.0, 0.0, math.inf) == 0.0


@pytest.mark.parametrize("estimate, block_depth, expected", [
    (200.0, 32, 192),   # several blocks: whole blocks
    (40.5, 40, 32),     # a 40-deep block is no 16-channel multiple: whole blocks come in 80s
    (80.5, 40, 80),     # just over two 40-deep blocks: two blocks (80, a multiple of 16)
    (40.0, 40, 32),     # under one unit: whole 16-channel units
    (95.9, 24, 48),     # 24-deep blocks in 48s; a fraction of a channel never counts
    (33.0, 8, 32),
    (3.0, 8, 16),       # never below 16
    (15.0, 64, 16),
])
def test_slice_depth_rounding(estimate: float, block_depth: int, expected: int) -> None:
    assert snap_slice_depth(estimate, block_depth) == expected


def test_slicings_halve_the_deeper_slice_until_the_first_is_16() -> None:
    assert list(slicings(64, 200.0, 32)) == [(64, 192), (64, 96), (64, 32), (32, 32), (16, 32)]
    # a 40-deep block: 40 is not a multiple of 16, so slices are 16-channel units below 80
    assert list(slicings(128, 40.5, 40)) == [(128, 32), (64, 32), (32, 32), (16, 32)]
    assert list(slicings(48, 17.9, 16)) == [(48, 16), (32, 16), (16, 16)]
    assert list(slicings(16, 1000.0, 64)) == [(16, 960)]


def test_depth_boundaries() -> None:
    assert depth_boundaries(100, 16, 32) == (0, 16, 48, 80, 100)
    assert depth_boundaries(64, 64, 16) == (0, 64)
    assert depth_boundaries(17, 16, 16) == (0, 16, 17)
    assert depth_boundaries(33, 40, 16) == (0, 33)


def _encoder(per_channel: int):
    """A stand-in encoder: 16-byte-rounded slices of ``per_channel`` bytes per OFM channel."""
    def encode(slices: tuple[int, ...]) -> EncodedWeights:
        sizes = [-(-(b - a) * per_channel // 16) * 16 for a, b in zip(slices, slices[1:])]
        ranges = tuple(WeightRange(0, a, 10 * (b - a), s - 10 * (b - a)) for a, b, s in zip(slices, slices[1:], sizes))
        return EncodedWeights(tuple(slices), ranges, sum(sizes), (max(sizes[0::2]), max(sizes[1::2], default=0)))
    return encode


@pytest.mark.parametrize("accelerator, system, mode", [
    ("ethos-u55-32", "Ethos_U55_High_End_Embedded", "Shared_Sram"),
    ("ethos-u65-512", "Ethos_U65_High_End", "Dedicated_Sram"),
])
def test_a_tight_buffer_shrinks_the_slices_until_two_fit(accelerator: str, system: str, mode: str) -> None:
    # A 3x3 convolution with 99 input and 200 output channels, weights in flash, no slack: the
    # first slice is 16 deep; with room for only ~3 KiB of weights the slicing shrinks until both
    # buffers fit, and every boundary after the first is a whole step apart.
    perf = resolve_perf_target(accelerator, system, mode)
    desc = NpuOpDesc(OpKind.CONV2D, TensorDesc(Shape4(1, 20, 20, 99)), TensorDesc(Shape4(1, 20, 20, 200), 8, "NHCWB16"),
                     kernel=Kernel(3, 3), weights=WeightsDesc(200 * 891, 200 * 891, "OffChipFlash"))
    block = select_block_config(desc, perf.accel)
    assert block is not None
    encode = _encoder(900)
    roomy = propose_weight_buffering(perf, desc, block, encode, prev_slack=0.0)
    tight = propose_weight_buffering(perf, desc, block, encode, prev_slack=0.0, buffer_limit=3 * 16 * 900)
    # Roomy: the copy of 16 channels outlasts their compute, so one slice takes the rest.
    assert roomy.encoded.depth_slices == (0, 16, 200)
    # Tight (43200 B): 16-channel slices are 14400 B; a 32-channel step would need 28800 B in
    # each of the two buffers (57600 B), so the step halves to 16.
    assert tight.encoded.depth_slices == (0,) + tuple(range(16, 200, 16)) + (200,)
    assert tight.encoded.double_buffer_size == 28800
    assert tight.streaming is not None and tight.streaming.double_buffered
    # the slack left for the next op is the last (8-channel) slice's compute, less than 184 channels'
    assert tight.slack_cycles < roomy.slack_cycles
    # Enough slack to hide the whole transfer: one full-depth buffer.
    hidden = propose_weight_buffering(perf, desc, block, encode, prev_slack=1e12)
    assert hidden.encoded.depth_slices == (0, 200) and hidden.streaming is not None
    assert not hidden.streaming.double_buffered


def test_no_room_for_a_slice_reads_in_place_and_cascades_take_one_buffer() -> None:
    perf = resolve_perf_target("ethos-u55-32", "Ethos_U55_High_End_Embedded", "Shared_Sram")
    desc = NpuOpDesc(OpKind.CONV2D, TensorDesc(Shape4(1, 20, 20, 99)), TensorDesc(Shape4(1, 20, 20, 200), 8, "NHCWB16"),
                     kernel=Kernel(3, 3), weights=WeightsDesc(200 * 891, 200 * 891, "OffChipFlash"))
    block = select_block_config(desc, perf.accel)
    assert block is not None
    encode = _encoder(900)
    # 1000 bytes hold no 16-channel slice (14400 B): the NPU reads the weights from flash
    starved = propose_weight_buffering(perf, desc, block, encode, prev_slack=0.0, buffer_limit=1000)
    assert starved.streaming is None and starved.encoded.depth_slices == (0, 200)
    assert starved.desc.weights is not None and starved.desc.weights.memory == "OffChipFlash"
    # inside a cascade: one full-depth buffer, no full-transfer time charged
    cascaded = propose_weight_buffering(perf, desc, block, encode, prev_slack=0.0, cascaded=True)
    assert cascaded.encoded.depth_slices == (0, 200) and cascaded.streaming is not None
    assert cascaded.streaming.full_transfer_bytes == 0 and not cascaded.streaming.double_buffered
    assert cascaded.desc.weights is not None and cascaded.desc.weights.buffered
