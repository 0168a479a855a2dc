"""Memory transfer costs: the burst-length model and memory-to-memory (DMA) copies.

Vela 5.2.0 ``npu_performance.py``: ``_estimate_memory_transfer_efficiency`` and
``measure_mem2mem_cycles``. The NPU fetches a block's data in bursts whose length depends on the
tensor layout and the block shape; a transfer whose natural burst is shorter than the memory's
burst length costs as if every burst were full: bytes x burst_length / achieved burst.
"""
from __future__ import annotations

from npu_opt.dialects.npu.perf.arch import PerfTarget
from npu_opt.dialects.npu.perf.op_desc import TensorFormat
from npu_opt.dialects.npu.perf.shape import Shape4

MAX_NHWC_WRITE_BURST_BITS = 64 * 8
"""Longest burst an NHWC OFM write can reach (bits)."""


def achieved_burst_bytes(perf: PerfTarget, is_read: bool, fmt: TensorFormat, bits: int, block: Shape4,
                         shape: Shape4) -> int:
    """The burst (bytes) a block transfer of a tensor of ``shape`` achieves.

    NHCWB16: a 16-channel brick row (``16 x block width`` elements; writes x cores), or the whole
    block when its depth equals the C-brick stride. NHWC: one pixel's block channels, or the whole
    block row when its depth equals the element stride (reads), capped for writes. The two
    "stride equals depth" tests compare a byte stride with a depth, as Vela does.
    """
    if fmt is TensorFormat.NHCWB16:
        c_stride = (bits * 16 * shape.width) / 8
        if c_stride == block.depth:
            burst = bits * block.depth * block.width
        elif is_read:
            burst = 16 * bits * block.width
        else:
            burst = 16 * bits * block.width * perf.ncores
    else:
        z_stride = bits / 8
        if is_read:
            burst = bits * block.depth * block.width if z_stride == block.depth else bits * block.depth
        elif block.depth <= 16 and z_stride == block.depth:
            burst = bits * block.depth * block.width
        else:
            burst = min(MAX_NHWC_WRITE_BURST_BITS, 16 * bits * perf.ncores, block.depth * bits)
    return burst // 8


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
