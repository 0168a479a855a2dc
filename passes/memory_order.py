"""A memory-aware execution order: parallel branches interleaved to keep fewer bytes live.

Vela's order (dialects/npu/execution_order.py) runs one branch of a fork to its end before the
other, whatever the branches hold. ``memory_aware_order`` keeps Vela's order of the CPU ops and reorders the NPU ops
between two of them, a list schedule over their dependencies: of the ops whose producers have
all run, it runs next the one that leaves the fewest bytes live, the bytes its results add less
those it frees (tensors it is the last reader of); ties go to Vela's order. A chain has one
ready op at a time, so on a chain the order is Vela's. Bytes are each tensor's storage
(live_ranges.storage_bytes), views and concatenations counted once at their storage
(``storage_home``).
"""
from __future__ import annotations

from npu_opt.ir.core import Operation, Value
from npu_opt.dialects.npu.execution_order import read_producers, on_cpu, readers_through_views, storage_home
from npu_opt.passes.schedule.live_ranges import storage_bytes


def _producers(op: Operation, inside: set[Operation]) -> set[Operation]:
    """The ops of ``inside`` whose results ``op`` reads, directly or through views."""
    return {producer for producer in read_producers(op) if producer in inside}


def _segment_order(segment: list[Operation]) -> list[Operation]:
    """``segment`` (NPU ops, in Vela's order, dependencies respected) list-scheduled for the
    fewest live bytes (module docstring)."""
    if len(segment) < 3:
        return segment
    rank = {op: index for index, op in enumerate(segment)}
    inside = set(segment)
    waits = {op: _producers(op, inside) for op in segment}
    users: dict[Operation, list[Operation]] = {op: [] for op in segment}
    for op, producers in waits.items():
        for producer in producers:
            users[producer].append(op)
    # storage each op writes and reads, and how many ops of the segment still read each
    writes = {op: {storage_home(r) for r in op.results} for op in segment}
    reads: dict[Operation, set[Value]] = {op: set() for op in segment}
    pending: dict[Value, int] = {}
    for op in segment:
        for home in writes[op]:
            readers = [user for r in op.results for user in readers_through_views(r)]
            count = sum(1 for user in readers if user in inside)
            # read outside the segment (a later stretch, the function's result): never freed here
            pending[home] = count if count == len(readers) else count + 1
            for user in readers:
                if user in inside:
                    reads[user].add(home)
    ready = [op for op in segment if not waits[op]]
    left = {op: len(waits[op]) for op in segment}
    order: list[Operation] = []
    while ready:
        def growth(op: Operation) -> tuple[int, int]:
            added = sum(storage_bytes(home) for home in writes[op])
            freed = sum(storage_bytes(home) for home in reads[op] if pending.get(home) == 1)
            return added - freed, rank[op]
        chosen = min(ready, key=growth)
        ready.remove(chosen)
        order.append(chosen)
        for home in reads[chosen]:
            if home in pending:
                pending[home] -= 1
        for user in users[chosen]:
            left[user] -= 1
            if left[user] == 0:
                ready.append(user)
    if len(order) != len(segment):  # a cycle through views: keep Vela's order
        return segment
    return order


def memory_aware_order(order: list[Operation]) -> list[Operation]:
    """``order`` (Vela's, of one function's executed ops) with the NPU ops between each two CPU
    ops list-scheduled for the fewest live bytes; CPU ops keep their places."""
    result: list[Operation] = []
    segment: list[Operation] = []
    for op in order:
        if on_cpu(op):
            result += _segment_order(segment)
            segment = []
            result.append(op)
        else:
            segment.append(op)
    return result + _segment_order(segment)


__all__ = ["memory_aware_order"]
