"""Live feature-map bytes per scheduled NPU op, and the check against the arena cache size.

Vela schedules for a fast-storage limit (``arena_cache_size``: the SRAM cache of Dedicated_Sram,
or the SRAM arena itself): when the feature maps live while an op runs do not fit, it cascades
ops or leaves tensors in slower memory. No pass does that yet, so npu-place-tensors at least
says where the limit is exceeded. A tensor is live from the op that writes it (time 0 for graph
inputs) to its last reader (the end for graph outputs); views alias the tensor they view, and
the inputs of a concatenation are parts of its result. Sizes are storage sizes: NHCWB16 rounds
the depth up to 16.
"""
from __future__ import annotations

from dataclasses import dataclass

from npu_opt.dialects.npu.ops_common import NpuOp, element_bits, encoding_of, feature_map, is_constant, shape_of
from npu_opt.ir.core import Block, OpResult, Operation, Value
from npu_opt.ir.traits import ReturnLike
from npu_opt.passes.npu_order import concat_user, execution_order, is_view


@dataclass(frozen=True)
class MemoryPeak:
    """The op during which the most feature-map bytes are live in one memory."""

    op: Operation
    time: int
    live_bytes: int
    over_limit_ops: int
    """How many NPU ops run with more live bytes than the limit."""


def _home(value: Value) -> Value:
    """The tensor whose storage ``value`` occupies: through views to their source, and from a
    concatenation input to the concatenation's result."""
    seen = 0
    while seen < 1000:  # views form no cycles; the bound only guards against malformed IR
        seen += 1
        concat = concat_user(value)
        if concat is not None:
            value = concat.results[0]
            continue
        producer = value.op if isinstance(value, OpResult) else None
        if producer is not None and is_view(producer) and len(producer.operands) == 1:
            value = producer.operands[0]
            continue
        return value
    return value


def storage_bytes(value: Value) -> int:
    """Bytes ``value`` takes in memory (NHCWB16: depth rounded up to 16)."""
    shape = list(shape_of(value)) or [1]
    enc = encoding_of(value)
    if enc is not None and enc.format == "NHCWB16":
        shape[-1] = -(-shape[-1] // 16) * 16
    count = 1
    for dim in shape:
        count *= max(dim, 0)
    return count * max(element_bits(value), 8) // 8


def memory_peak(block: Block, target: object, area: str, limit: int) -> MemoryPeak | None:
    """The NPU op of ``block`` with the most live feature-map bytes in ``area`` (schedule order),
    with the count of NPU ops over ``limit``; None when the block runs no NPU op."""
    order = execution_order(block)
    end = len(order)
    first: dict[Value, int] = {}
    last: dict[Value, int] = {}

    def touch(value: Value, time: int, writes: bool) -> None:
        if is_constant(value) or not shape_of(value):
            return
        home = _home(value)
        if writes or not isinstance(home, OpResult):
            first[home] = min(first.get(home, time), 0 if not isinstance(home, OpResult) else time)
        last[home] = max(last.get(home, time), time)

    for time, op in enumerate(order):
        for value in op.operands:
            touch(value, time, False)
        for value in op.results:
            touch(value, time, True)
    terminator = block.last
    if terminator is not None and terminator.has_trait(ReturnLike):
        for value in terminator.operands:
            if not is_constant(value) and shape_of(value):
                last[_home(value)] = end
    sizes = {home: storage_bytes(home) for home in first if feature_map(home, target).area == area}
    change = [0] * (end + 2)  # live bytes gained at each time (a tensor is live first..last)
    for home, size in sizes.items():
        change[first[home]] += size
        change[last[home] + 1] -= size
    best: MemoryPeak | None = None
    over = 0
    live = 0
    for time, op in enumerate(order):
        live += change[time]
        if not isinstance(op, NpuOp):
            continue
        over += live > limit
        if best is None or live > best.live_bytes:
            best = MemoryPeak(op, time, live, 0)
    if best is None:
        return None
    return MemoryPeak(best.op, best.time, best.live_bytes, over)


__all__ = ["MemoryPeak", "memory_peak", "storage_bytes"]
