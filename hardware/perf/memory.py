"""Memory transfer costs: the burst-length model and memory-to-memory (DMA) copies.

Model of Vela 5.2.0's transfer-efficiency and memory-to-memory estimates. The NPU fetches a
block's data in bursts whose length depends on the tensor layout and the block shape; a transfer
whose natural burst is shorter than the memory's burst length costs as if every burst were full:
bytes x burst_length / achieved burst.
"""
from __future__ import annotations

from npu_opt.hardware.perf.arch import PerfTarget
from npu_opt.hardware.perf.op_desc import TensorFormat
from npu_opt.hardware.perf.shape import Shape4

MAX_NHWC_WRITE_BURST_BITS = 64 * 8
"""Longest burst an NHWC OFM write can reach (bits)."""


def _nhcwb16_burst_bits(perf: PerfTarget, is_read: bool, bits: int, block: Shape4, shape: Shape4) -> int:
    """Burst of an NHCWB16 block: one brick row (16 channels x block width; a write gathers one
    from every core), or the whole block row when the block depth equals the tensor's brick-plane
    stride (a byte stride compared with a depth, as Vela does)."""
    brick_plane_stride = bits * 16 * shape.width / 8
    if brick_plane_stride == block.depth:
        return bits * block.depth * block.width
    return 16 * bits * block.width * (1 if is_read else perf.ncores)


def _nhwc_burst_bits(perf: PerfTarget, is_read: bool, bits: int, block: Shape4) -> int:
    """Burst of an NHWC block: the whole block row when a pixel's block channels are one element
    wide (the element stride, in bytes, equals the block depth; writes only up to 16 channels),
    else one pixel's channels, capped for writes by the port width."""
    element_stride = bits / 8
    contiguous_row = element_stride == block.depth and (is_read or block.depth <= 16)
    if contiguous_row:
        return bits * block.depth * block.width
    pixel = bits * block.depth
    return pixel if is_read else min(MAX_NHWC_WRITE_BURST_BITS, 16 * bits * perf.ncores, pixel)


def achieved_burst_bytes(perf: PerfTarget, is_read: bool, fmt: TensorFormat, bits: int, block: Shape4,
                         shape: Shape4) -> int:
    """The burst (bytes) a block transfer of a tensor of ``shape`` achieves."""
    if fmt is TensorFormat.NHCWB16:
        return _nhcwb16_burst_bits(perf, is_read, bits, block, shape) // 8
    return _nhwc_burst_bits(perf, is_read, bits, block) // 8


def burst_adjusted_bytes(perf: PerfTarget, is_read: bool, area: str, fmt: TensorFormat, bits: int,
                         block: Shape4, shape: Shape4, nbytes: float) -> float:
    """``nbytes`` inflated by the burst efficiency of ``area``: what the memory really moves."""
    length = perf.burst_length(area)
    burst = min(length, achieved_burst_bytes(perf, is_read, fmt, bits, block, shape))
    return nbytes * (length / burst)


def mem2mem_cycles(perf: PerfTarget, source: str, destination: str, nbytes: float) -> float:
    """Cycles of a DMA copy: the slower of reading (plus read latency) and writing."""
    read = nbytes // perf.bytes_per_cycle(source) + perf.read_latency(source)
    write = nbytes // perf.bytes_per_cycle(destination)
    return max(read, write)


__all__ = ["achieved_burst_bytes", "burst_adjusted_bytes", "mem2mem_cycles"]
