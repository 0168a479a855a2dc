"""Weight streams: brick order and padding, the codec size model, slices and cores
(dialects/npu/perf: weight_reorder.py, weight_encoding.py, weight_size.py).

The reference sizes were produced once with Vela 5.2.0's weight codec (``ethosu.mlw_codec``:
``encode`` for plain streams, ``reorder_encode(8, 8, weights, block_depth, depthwise,
part_kernel, 8, 8, 8)`` for OHWI volumes) on the deterministic inputs built below."""
from __future__ import annotations

import numpy as np
import pytest

from npu_opt.hardware.accelerators import BlockType, accelerator
from npu_opt.hardware.codec.weight_encoding import encoded_size
from npu_opt.hardware.codec.weight_reorder import padded_weight_count, reorder_weights
from npu_opt.hardware.codec.weight_size import encode_weights


def lcg(n: int, seed: int = 12345) -> np.ndarray:
    """Deterministic pseudo-random int8-range values (a linear congruential generator)."""
    out, x = [], seed
    for _ in range(n):
        x = (1103515245 * x + 12345) % (1 << 31)
        out.append((x >> 16) % 255 - 127)
    return np.array(out, dtype=np.int16)


CODEC_STREAMS = {
    # name: (stream, bytes from mlw_codec.encode)
    "zeros64": (np.zeros(64, np.int16), 16),
    "ramp256": ((np.arange(256) % 255 - 127).astype(np.int16), 256),
    "lcg4096": (lcg(4096), 4112),
    "small_values": ((np.arange(1000) % 7 - 3).astype(np.int16), 384),
    "sparse": (np.where(np.arange(2000) % 5 == 0, lcg(2000, 7), 0).astype(np.int16), 608),
}


@pytest.mark.parametrize("name", sorted(CODEC_STREAMS))
def test_stream_size_matches_the_codec(name: str) -> None:
    stream, expected = CODEC_STREAMS[name]
    assert encoded_size(stream) == expected


def test_reordered_volumes_match_the_codec() -> None:
    conv = lcg(16 * 3 * 3 * 16, 99).reshape(16, 3, 3, 16)  # OHWI
    depth_first = reorder_weights(conv, 8, 8, 16, False, False, 8)
    part_kernel = reorder_weights(conv, 8, 8, 16, False, True, 8)
    # Depth-first pads the 16 IFM channels to a 32-deep block: 16 * 9 * 32 = 4608 weights;
    # part-kernel pads each 3x3 sub-kernel to 12 elements: 16 * 12 * 16 = 3072.
    assert (len(depth_first), len(part_kernel)) == (4608, 3072)
    assert (encoded_size(depth_first), encoded_size(part_kernel)) == (3008, 2704)
    depthwise = lcg(16 * 3 * 3, 5).reshape(16, 3, 3, 1)
    stream = reorder_weights(depthwise, 8, 8, 16, True, False, 8)
    assert len(stream) == 16 * 12 and encoded_size(stream) == 176


def test_brick_order_of_a_tiny_depth_first_volume() -> None:
    # O=2, 1x1 kernel, I=3, micro-blocks of 8 channels, 32-deep IFM block: for each OFM channel of the
    # 8-channel micro-block, the 8 IFM channels of each of the 4 IFM micro-blocks... order is: IFM
    # micro-block (4) outer, OFM channel (8) middle, IFM channel (8) inner.
    ohwi = np.array([[[[1, 2, 3]]], [[[4, 5, 6]]]], np.int16)
    stream = reorder_weights(ohwi, 8, 8, 8, False, False, 8)
    assert len(stream) == 4 * 8 * 8
    assert stream[:8].tolist() == [1, 2, 3, 0, 0, 0, 0, 0]
    assert stream[8:16].tolist() == [4, 5, 6, 0, 0, 0, 0, 0]
    assert not stream[16:].any()


@pytest.mark.parametrize("shape,block_depth,depthwise,partkernel,bits", [
    ((64, 3, 3, 32), 16, False, False, 8), ((64, 3, 3, 32), 32, False, True, 8),
    ((30, 10, 3, 2), 16, False, True, 8), ((48, 3, 3, 1), 16, True, False, 8),
    ((24, 9, 9, 20), 8, False, False, 16), ((7, 1, 1, 100), 8, False, False, 8),
])
def test_padded_count_formula(shape: tuple[int, ...], block_depth: int, depthwise: bool, partkernel: bool,
                              bits: int) -> None:
    ohwi = np.ones(shape, np.int16)
    stream = reorder_weights(ohwi, 8, 8, block_depth, depthwise, partkernel, bits)
    assert len(stream) == padded_weight_count(*shape, 8, 8, block_depth, depthwise, partkernel, bits)
    assert int(np.count_nonzero(stream)) == ohwi.size  # every weight once, the rest padding


def test_slices_cores_and_double_buffer_sizes() -> None:
    hwio = np.transpose(lcg(48 * 3 * 3 * 16, 3).reshape(48, 3, 3, 16), (1, 2, 3, 0))
    u55 = accelerator("ethos-u55-128")
    whole = encode_weights(hwio, u55, BlockType.CONVOLUTION, 8, 16)
    assert whole.depth_slices == (0, 48) and len(whole.ranges) == 1
    scale, weights = whole.ranges[0].scale_bytes, whole.ranges[0].weight_bytes
    assert scale == 480 and whole.total_bytes == 480 + weights  # 480 is already a multiple of 16
    sliced = encode_weights(hwio, u55, BlockType.CONVOLUTION, 8, 16, (0, 16, 32, 48))
    assert [r.depth_offset for r in sliced.ranges] == [0, 16, 32]
    # Each slice: 160 B of scales, then its own stream; even slices 0 and 32, odd slice 16.
    sizes = [160 + r.weight_bytes for r in sliced.ranges]
    assert sliced.total_bytes == sum(sizes)
    assert sliced.double_buffer_sizes == (max(sizes[0], sizes[2]), sizes[1])
    assert sliced.first_slice_bytes == 160 + sliced.ranges[0].weight_bytes
    # Two cores (U65-512) split each slice's channels even/odd: one range per core.
    dual = encode_weights(hwio, accelerator("ethos-u65-512"), BlockType.CONVOLUTION, 8, 16, (0, 16, 48))
    assert [(r.core, r.depth_offset) for r in dual.ranges] == [(0, 0), (1, 0), (0, 16), (1, 16)]
    assert all(r.scale_bytes == 80 for r in dual.ranges[:2]) and all(r.scale_bytes == 160 for r in dual.ranges[2:])
    with pytest.raises(ValueError, match="depth slices"):
        encode_weights(hwio, u55, BlockType.CONVOLUTION, 8, 16, (0, 20))


def test_zero_point_and_vector_product_layout() -> None:
    # A vector product's [K, O] weights are encoded as 1x1xKxO; subtracting a zero point of 3 from
    # values of 3 leaves zeros: 64 x 8 (the output padded to a micro-block) = 512 zero weights, which
    # the codec packs into 32 B (as mlw_codec.encode([0] * 512) does), after 16 B of scales.
    weights = np.full((64, 1), 3, np.int16)
    encoded = encode_weights(weights, accelerator("ethos-u55-128"), BlockType.VECTOR_PRODUCT, 8, 8, zero_point=3)
    assert encoded.ranges[0].weight_bytes == 32 and encoded.total_bytes == 48
    assert encoded_size(np.zeros(512, np.int16)) == 32
