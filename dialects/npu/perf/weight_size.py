"""Encoded weight streams: sizes per depth slice and core, as the weight DMAs and reads see them.

A weighted op's weights are stored as one stream per OFM depth slice and core (Vela 5.2.0
``weight_compressor.encode_weight_and_scale_tensor``): for each slice ``[d0, d1)`` and each core
``c`` (channels ``d0 + c, d0 + c + cores, ...``), 10 bytes of scale/bias record per channel padded
to 16 bytes, then the compressed weights of those channels (weight_reorder.py,
weight_encoding.py). The sizes decide the weight DMA cycles (the first slice is what can be
prefetched under the previous op) and the double-buffer sizes (the largest even and odd slices).

Encoding is costly and the scheduler asks for the same slicings repeatedly, so each (weights,
slice, core, traversal) stream size is memoised on a digest of the weight values.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np

from npu_opt.dialects.npu.accelerators import SUB_KERNEL_MAX, AcceleratorConfig, BlockType
from npu_opt.dialects.npu.perf.shape import round_up
from npu_opt.dialects.npu.perf.weight_encoding import encoded_stream_bytes
from npu_opt.dialects.npu.perf.weight_reorder import reorder_weights

SCALE_RECORD_BYTES = 10
"""Bytes per OFM channel of bias (40 bits), multiplier (32 bits) and shift (8 bits)."""


@dataclass(frozen=True)
class WeightRange:
    """One core's part of one depth slice of the stream."""

    core: int
    depth_offset: int
    scale_bytes: int
    weight_bytes: int

    @property
    def total_bytes(self) -> int:
        """Scale records plus compressed weights (without the padding between them)."""
        return self.scale_bytes + self.weight_bytes


@dataclass(frozen=True)
class EncodedWeights:
    """The encoded stream of one op for one depth slicing."""

    depth_slices: tuple[int, ...]
    ranges: tuple[WeightRange, ...]
    total_bytes: int
    double_buffer_sizes: tuple[int, int]
    """Largest slice at even and at odd slice positions (bytes)."""

    @property
    def first_slice_bytes(self) -> int:
        """Bytes of the first depth slice's DMA (each core's range rounded up to 16)."""
        first = self.depth_slices[0]
        return sum(round_up(r.total_bytes, 16) for r in self.ranges if r.depth_offset == first)

    @property
    def max_range_bytes(self) -> int:
        return max(self.double_buffer_sizes)

    @property
    def double_buffer_size(self) -> int:
        return sum(self.double_buffer_sizes)


def encoder_part_kernel(block_type: BlockType, hwio_shape: tuple[int, ...], ifm_bits: int) -> bool:
    """The weight encoder's traversal choice: part-kernel-first for convolutions with at most 8
    input channels or at least the depth-first utilisation (note ``>=``, where the block-config
    search uses ``>``)."""
    if block_type is not BlockType.CONVOLUTION:
        return False
    kh, kw, ifm_depth = hwio_shape[0], hwio_shape[1], hwio_shape[2]
    kernel = kh * kw
    depth_utilisation = ifm_depth / round_up(ifm_depth, 32 if ifm_bits == 8 else 16)
    part_utilisation = (ifm_depth / round_up(ifm_depth, 8)) * (kernel / round_up(kernel, 4 if ifm_bits == 8 else 2))
    return part_utilisation >= depth_utilisation or ifm_depth <= 8


_STREAM_CACHE: dict[tuple, int] = {}


def weights_digest(hwio: np.ndarray) -> str:
    """A key for memoising encodings of these weight values."""
    data = np.ascontiguousarray(hwio)
    return hashlib.blake2b(data.tobytes() + str((data.shape, data.dtype.str)).encode(), digest_size=16).hexdigest()


def _stream_bytes(digest: str, ohwi: np.ndarray, accel: AcceleratorConfig, block_depth: int, depthwise: bool,
                  partkernel: bool, ifm_bits: int, dilation: tuple[int, int]) -> int:
    key = (digest, ohwi.shape, accel.ifm_ublock.depth, accel.ofm_ublock.depth, block_depth, depthwise, partkernel,
           ifm_bits, dilation)
    size = _STREAM_CACHE.get(key)
    if size is None:
        stream = reorder_weights(ohwi, accel.ifm_ublock.depth, accel.ofm_ublock.depth, block_depth, depthwise,
                                 partkernel, ifm_bits, SUB_KERNEL_MAX.height // dilation[1],
                                 SUB_KERNEL_MAX.width // dilation[0])
        size = encoded_stream_bytes(stream)
        if len(_STREAM_CACHE) > 100_000:
            _STREAM_CACHE.clear()
        _STREAM_CACHE[key] = size
    return size


def encode_weights(hwio: np.ndarray, accel: AcceleratorConfig, block_type: BlockType, ifm_bits: int,
                   ofm_block_depth: int, depth_slices: tuple[int, ...] | None = None,
                   dilation: tuple[int, int] = (1, 1), zero_point: np.ndarray | int = 0,
                   digest: str | None = None) -> EncodedWeights:
    """The encoded stream of weights ``hwio`` (H x W x I x O; 2-D I x O for a vector product)
    sliced at ``depth_slices`` (default: one slice), for OFM blocks ``ofm_block_depth`` deep.

    ``dilation`` is (x, y); ``zero_point`` is subtracted first (per output channel or scalar);
    ``digest`` (weights_digest) saves rehashing the values on repeated calls.
    """
    weights = np.asarray(hwio).astype(np.int16) - np.asarray(zero_point).astype(np.int16)
    if weights.ndim == 2:
        weights = weights[None, None, :, :]
    ofm_depth = weights.shape[3]
    slices = tuple(depth_slices) if depth_slices is not None else (0, ofm_depth)
    if len(slices) < 2 or slices[0] != 0 or slices[-1] != ofm_depth or list(slices) != sorted(set(slices)):
        raise ValueError(f"depth slices {slices} must rise from 0 to the OFM depth {ofm_depth}")
    digest = digest or weights_digest(weights)
    depthwise = block_type is BlockType.DEPTHWISE
    partkernel = encoder_part_kernel(block_type, weights.shape, ifm_bits)
    ohwi = np.transpose(weights, (3, 0, 1, 2))
    cores = accel.cores
    ranges: list[WeightRange] = []
    total = 0
    buffers = [0, 0]
    for index, (d0, d1) in enumerate(zip(slices, slices[1:])):
        start = total
        for core in range(min(cores, d1 - d0)):
            core_block_depth = (ofm_block_depth + cores - 1 - core) // cores
            if core_block_depth == 0:
                continue
            channels = ohwi[d0 + core:d1:cores]
            scale_bytes = SCALE_RECORD_BYTES * channels.shape[0]
            weight_bytes = _stream_bytes(f"{digest}:{d0}:{d1}:{core}", channels, accel, core_block_depth, depthwise,
                                         partkernel, ifm_bits, dilation)
            ranges.append(WeightRange(core, d0, scale_bytes, weight_bytes))
            total += round_up(scale_bytes, 16) + weight_bytes
        buffers[index % 2] = max(buffers[index % 2], total - start)
    return EncodedWeights(slices, tuple(ranges), total, (buffers[0], buffers[1]))


__all__ = ["EncodedWeights", "SCALE_RECORD_BYTES", "WeightRange", "encode_weights", "encoder_part_kernel",
           "weights_digest"]
