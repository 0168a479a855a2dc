"""Encoded weight streams: sizes per depth slice and core, as the weight DMAs and reads see them.

Design notes: docs/cost_model_design.md, section Encoded weight stream sizes (weight_size)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from npu_opt.hardware.accelerators import SUB_KERNEL_MAX, AcceleratorConfig, BlockType
from npu_opt.hardware.perf.shape import round_up
from npu_opt.hardware.codec.scale_bias import SCALE_RECORD_BYTES
from npu_opt.hardware.codec.weight_encoding import encoded_sizes
from npu_opt.hardware.codec.weight_reorder import reorder_weights


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
        """The larger of the even and odd double-buffer halves."""
        return max(self.double_buffer_sizes)

    @property
    def double_buffer_size(self) -> int:
        """Both double-buffer halves together."""
        return sum(self.double_buffer_sizes)


def encoder_part_kernel(block_type: BlockType, hwio_shape: tuple[int, ...], ifm_bits: int) -> bool:
    """Whether the weight encoder walks the kernel before the IFM depth: for convolutions with at
    most 8 input channels, or whose kernel-first MAC utilisation is at least the depth-first one
    (``>=`` here, where the block-config search asks for strictly better)."""
    if block_type is not BlockType.CONVOLUTION:
        return False
    elements = hwio_shape[0] * hwio_shape[1]
    channels = hwio_shape[2]
    if channels <= 8:
        return True
    depth_block, element_group = (32, 4) if ifm_bits == 8 else (16, 2)
    by_depth = channels / round_up(channels, depth_block)
    by_kernel = (channels / round_up(channels, 8)) * (elements / round_up(elements, element_group))
    return by_kernel >= by_depth


class WeightEncoder:
    """One op's weights, encoded on demand for any depth slicing; stream sizes are kept.

    ``hwio``: H x W x I x O (2-D I x O for a vector product) with the zero point already
    subtracted, or pass ``zero_point`` (per output channel or scalar); ``dilation`` is (x, y);
    ``part_kernel`` forces the block traversal (default: ``encoder_part_kernel``'s, Vela's choice)."""

    def __init__(self, hwio: np.ndarray, accel: AcceleratorConfig, block_type: BlockType, ifm_bits: int,
                 ofm_block_depth: int, dilation: tuple[int, int] = (1, 1),
                 zero_point: np.ndarray | int = 0, part_kernel: bool | None = None) -> None:
        weights = np.asarray(hwio).astype(np.int16) - np.asarray(zero_point).astype(np.int16)
        if weights.ndim == 2:
            weights = weights[None, None, :, :]
        self.ohwi = np.transpose(weights, (3, 0, 1, 2))
        self.depth = int(weights.shape[3])
        self.accel = accel
        self.ifm_bits = ifm_bits
        self.ofm_block_depth = ofm_block_depth
        self.depthwise = block_type is BlockType.DEPTHWISE
        if part_kernel and self.depthwise:
            raise ValueError("a depthwise convolution's weights have no part-kernel-first traversal")
        self.part_kernel = encoder_part_kernel(block_type, weights.shape, ifm_bits) if part_kernel is None \
            else part_kernel
        self.sub_kernel = (SUB_KERNEL_MAX.height // dilation[1], SUB_KERNEL_MAX.width // dilation[0])
        self._sizes: dict[tuple[int, int, int], int] = {}
        self._encoded: dict[tuple[int, ...], EncodedWeights] = {}
        """Each slicing's stream once assembled (the chain and the estimate ask for the same
        slicings again and again; the sizes behind one never change)."""

    @property
    def signature(self) -> tuple:
        """Everything besides the weight values that shapes the streams."""
        return (self.accel.name, self.ohwi.shape, self.ifm_bits, self.ofm_block_depth, self.depthwise,
                self.part_kernel, self.sub_kernel)

    def stream(self, d0: int, d1: int, core: int) -> np.ndarray:
        """Core ``core``'s channels of slice ``[d0, d1)`` in NPU order."""
        cores = self.accel.cores
        core_block_depth = (self.ofm_block_depth + cores - 1 - core) // cores
        return reorder_weights(self.ohwi[d0 + core:d1:cores], self.accel.ifm_ublock.depth,
                               self.accel.ofm_ublock.depth, core_block_depth, self.depthwise, self.part_kernel,
                               self.ifm_bits, *self.sub_kernel)

    def parts(self, slices: tuple[int, ...]) -> list[tuple[int, int, int]]:
        """(d0, d1, core) of every stream of the slicing, in stream order."""
        cores = self.accel.cores
        parts = []
        for d0, d1 in zip(slices, slices[1:]):
            for core in range(min(cores, d1 - d0)):
                if (self.ofm_block_depth + cores - 1 - core) // cores > 0:
                    parts.append((d0, d1, core))
        return parts

    def record_size(self, part: tuple[int, int, int], size: int) -> None:
        """Keep the encoded size of stream ``part`` = (d0, d1, core)."""
        self._sizes[part] = size

    def missing(self, depth_slices: tuple[int, ...] | None) -> list[tuple[int, int, int]]:
        """The streams of a slicing not encoded yet."""
        slices = self.checked(depth_slices)
        if slices in self._encoded:
            return []
        return [part for part in dict.fromkeys(self.parts(slices)) if part not in self._sizes]

    def checked(self, depth_slices: tuple[int, ...] | None) -> tuple[int, ...]:
        """``depth_slices`` (default: the whole depth), checked to rise from 0 to the OFM depth."""
        slices = tuple(depth_slices) if depth_slices is not None else (0, self.depth)
        if len(slices) < 2 or slices[0] != 0 or slices[-1] != self.depth or list(slices) != sorted(set(slices)):
            raise ValueError(f"depth slices {slices} must rise from 0 to the OFM depth {self.depth}")
        return slices

    def __call__(self, depth_slices: tuple[int, ...] | None = None) -> EncodedWeights:
        """The encoded stream sliced at ``depth_slices`` (default: one slice of the whole depth)."""
        slices = self.checked(depth_slices)
        known = self._encoded.get(slices)
        if known is not None:
            return known
        parts = self.parts(slices)
        encode_together([(self, slices)])
        cores = self.accel.cores
        ranges: list[WeightRange] = []
        total = 0
        halves = [0, 0]
        slice_of = {d0: index for index, d0 in enumerate(slices[:-1])}
        slice_bytes = [0] * (len(slices) - 1)
        for d0, d1, core in parts:
            channels = len(range(d0 + core, d1, cores))
            scale_bytes = SCALE_RECORD_BYTES * channels
            weight_bytes = self._sizes[(d0, d1, core)]
            ranges.append(WeightRange(core, d0, scale_bytes, weight_bytes))
            slice_bytes[slice_of[d0]] += round_up(scale_bytes, 16) + weight_bytes
        for index, size in enumerate(slice_bytes):
            total += size
            halves[index % 2] = max(halves[index % 2], size)
        encoded = self._encoded[slices] = EncodedWeights(slices, tuple(ranges), total, (halves[0], halves[1]))
        return encoded


def encode_together(requests: list[tuple[WeightEncoder, tuple[int, ...] | None]]) -> None:
    """Encode the streams the requested (encoder, slicing) pairs still miss, each once however many
    requests share it."""
    unique: list[tuple[WeightEncoder, tuple[int, int, int]]] = []
    queued: dict[WeightEncoder, set[tuple[int, int, int]]] = {}  # per encoder, the parts in ``unique``
    for encoder, slices in requests:
        seen = queued.setdefault(encoder, set())
        for part in encoder.missing(slices):
            if part not in seen:
                seen.add(part)
                unique.append((encoder, part))
    if not unique:
        return
    sizes = encoded_sizes(encoder.stream(*part) for encoder, part in unique)
    for (encoder, part), size in zip(unique, sizes):
        encoder.record_size(part, size)


def encode_weights(hwio: np.ndarray, accel: AcceleratorConfig, block_type: BlockType, ifm_bits: int,
                   ofm_block_depth: int, depth_slices: tuple[int, ...] | None = None,
                   dilation: tuple[int, int] = (1, 1), zero_point: np.ndarray | int = 0) -> EncodedWeights:
    """One-off encoding of ``hwio`` (see ``WeightEncoder``) sliced at ``depth_slices``."""
    return WeightEncoder(hwio, accel, block_type, ifm_bits, ofm_block_depth, dilation, zero_point)(depth_slices)


__all__ = ["EncodedWeights", "SCALE_RECORD_BYTES", "WeightEncoder", "WeightRange", "encode_together", "encode_weights",
           "encoder_part_kernel"]
