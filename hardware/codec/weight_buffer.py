"""An op's weight buffer as the NPU reads it: per OFM-depth slice and core, the channels'
scale/bias records padded to 16 bytes, then the compressed weights (Vela 5.2's layout).

Design notes: docs/weight_codec.md, section The weight buffer."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from npu_opt.hardware.codec.scale_bias import scale_bias_records
from npu_opt.hardware.codec.weight_encoding import encode_stream
from npu_opt.hardware.codec.weight_size import WeightEncoder
from npu_opt.hardware.perf.shape import round_up


@dataclass(frozen=True)
class RangeBytes:
    """One core's part of one depth slice: its scale/bias records and its compressed weights."""

    core: int
    depth_offset: int
    scales: bytes
    weights: bytes


def encoded_stream_bytes(encoder: WeightEncoder, depth_slices: tuple[int, ...] | None = None) -> list[bytes]:
    """The compressed weights of every stream of ``encoder``'s slicing ``depth_slices`` (default:
    the whole depth), in the order of ``encoder(depth_slices).ranges``; what Vela's
    ``npu_encode_weights`` gives for each core's channels of each slice."""
    slices = encoder.checked(depth_slices)
    streams = []
    for part in encoder.parts(slices):
        encoded = encode_stream(encoder.stream(*part))
        encoder.record_size(part, len(encoded))
        streams.append(encoded)
    return streams


def range_channels(depth_offset: int, depth_end: int, core: int, cores: int) -> range:
    """The OFM channels core ``core`` of ``cores`` computes in the slice [depth_offset, depth_end)."""
    return range(depth_offset + core, depth_end, cores)


def stream_ranges(encoder: WeightEncoder, bias: np.ndarray, multipliers: np.ndarray | int, shifts: np.ndarray | int,
                  depth_slices: tuple[int, ...] | None = None) -> list[RangeBytes]:
    """Records and compressed weights of every (slice, core) range of the slicing, in stream order;
    ``bias``, ``multipliers`` and ``shifts`` are per OFM channel of the whole op (or one rescale
    for all)."""
    slices = encoder.checked(depth_slices)
    depth = encoder.depth
    biases = np.asarray(bias).reshape(-1)
    if biases.size != depth:
        raise ValueError(f"{biases.size} biases for an OFM depth of {depth}: give one per output channel")
    scale = np.broadcast_to(np.asarray(multipliers).reshape(-1), (depth,)) if np.size(multipliers) == 1 \
        else np.asarray(multipliers).reshape(-1)
    shift = np.broadcast_to(np.asarray(shifts).reshape(-1), (depth,)) if np.size(shifts) == 1 \
        else np.asarray(shifts).reshape(-1)
    if scale.size != depth or shift.size != depth:
        raise ValueError(f"{scale.size} multipliers and {shift.size} shifts for an OFM depth of {depth}: give one "
                         "per output channel or one for all")
    weights = encoded_stream_bytes(encoder, slices)
    ranges = []
    for (d0, d1, core), compressed in zip(encoder.parts(slices), weights):
        channels = np.asarray(range_channels(d0, d1, core, encoder.accel.cores), dtype=np.int64)
        records = scale_bias_records(biases[channels], scale[channels], shift[channels])
        ranges.append(RangeBytes(core, d0, records, compressed))
    return ranges


def weight_buffer(ranges: list[RangeBytes]) -> bytes:
    """The ranges one after the other, each range's records zero-padded to 16 bytes (the compressed
    weights are a multiple of 16 already): the buffer a weight DMA copies."""
    pieces = []
    for part in ranges:
        pieces += [part.scales, bytes(round_up(len(part.scales), 16) - len(part.scales)), part.weights]
    return b"".join(pieces)


__all__ = ["RangeBytes", "encoded_stream_bytes", "range_channels", "stream_ranges", "weight_buffer"]
