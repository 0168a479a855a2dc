"""Live feature-map bytes per scheduled NPU op, and the check against the arena cache size.

Vela schedules for a fast-storage limit (``arena_cache_size``: the SRAM cache of Dedicated_Sram,
or the SRAM arena itself): when the feature maps live while an op runs do not fit, it cascades
ops or leaves tensors in slower memory. No pass does that yet, so npu-place-tensors at least
says where the limit is exceeded. A tensor is live from the op that writes it (time 0 for graph
inputs) to its last reader (the end for graph outputs); views alias the tensor they view, and
the inputs of a concatenation are parts of its result. Sizes are storage sizes: NHCWB16 rounds
the depth up to 16. The ranges are passes/schedule/live_ranges.py's (which also sizes rolling
buffers and weight streams), without in-place elementwise reuse, as before.
"""
from __future__ import annotations

from dataclasses import dataclass

from npu_opt.dialects.npu.ops_common import NpuOp
from npu_opt.ir.core import Block, Operation
from npu_opt.passes.schedule.live_ranges import live_ranges, memory_usage, op_times, storage_bytes


@dataclass(frozen=True)
class MemoryPeak:
    """The op during which the most feature-map bytes are live in one memory."""

    op: Operation
    time: int
    live_bytes: int
    over_limit_ops: int
    """How many NPU ops run with more live bytes than the limit."""


def memory_peak(block: Block, target: object, area: str, limit: int) -> MemoryPeak | None:
    """The NPU op of ``block`` with the most live feature-map bytes in ``area`` (schedule order),
    with the count of NPU ops over ``limit``; None when the block runs no NPU op."""
    order, times = op_times(block)
    ranges = live_ranges(block, target, fuse_in_place=False)
    usage = memory_usage(ranges, area, length=max(times.values(), default=-1) + 1)
    best: MemoryPeak | None = None
    over = 0
    for op in order:
        time = times[op]
        live = usage[time]
        if not isinstance(op, NpuOp):
            continue
        over += live > limit
        if best is None or live > best.live_bytes:
            best = MemoryPeak(op, time, live, 0)
    if best is None:
        return None
    return MemoryPeak(best.op, best.time, best.live_bytes, over)


__all__ = ["MemoryPeak", "memory_peak", "storage_bytes"]
