"""Each storage live range's span in Vela 5.2's live-range time, which orders Vela's hill-climb
allocation: two time steps per scheduled op (a cascade's members share its first one), a
weight buffer live from its reader's step (the first buffer one earlier when prefetched; the
buffer of a double-buffered stream its last slice does not read ends a step early), feature maps from their
producer's step to one past their last reader's, graph inputs from 0 and graph outputs to one
past the last step; and the order in which Vela first meets each range (``vela_ranks``), which
breaks its ties and orders each range's neighbours. The allocator's placements follow Vela's only
when ranges come to it with Vela's spans and in Vela's order (docs/codegen_design.md, Scratch
addresses)."""
from __future__ import annotations

from typing import Callable, Sequence

from npu_opt.dialects.npu.perf.weight_dma import is_prefetched, is_weight_dma
from npu_opt.dialects.npu.schedule_attrs import CASCADE_ATTR, CascadeAttr
from npu_opt.dialects.npu.execution_order import storage_home
from npu_opt.ir.core import Block, BlockArgument, OpResult, Operation, Value

FIRST_STEP = 2
"""Vela's first scheduled op runs at time 2 (the graph's inputs are marked at 0)."""


IsWeightDma = Callable[[Operation], bool]
"""``is_weight_dma``, or a caller's memo of it (the IR does not change while one caller asks)."""


def remembered_weight_dmas() -> IsWeightDma:
    """``is_weight_dma`` answering each op once (for one caller over an IR that does not change)."""
    known: dict[Operation, bool] = {}

    def test(op: Operation) -> bool:
        found = known.get(op)
        if found is None:
            found = known[op] = is_weight_dma(op)
        return found
    return test


def vela_steps(order: Sequence[Operation], weight_dma: IsWeightDma = is_weight_dma
               ) -> tuple[dict[Operation, int], int]:
    """Vela's time of each executed op in ``order`` (weight DMAs take their reader's), and the
    step after the last op (where graph outputs end)."""
    steps: dict[Operation, int] = {}
    cascades: dict[int, int] = {}
    step = FIRST_STEP
    for op in order:
        if weight_dma(op):
            continue
        cascade = op.attr(CASCADE_ATTR)
        if isinstance(cascade, CascadeAttr) and cascade.id in cascades:
            steps[op] = cascades[cascade.id]
            continue
        steps[op] = step
        if isinstance(cascade, CascadeAttr):
            cascades[cascade.id] = step
        step += 2
    for op in order:
        if weight_dma(op):
            readers = [steps[user] for user in op.results[0].users() if user in steps]
            steps[op] = min(readers, default=step)
    return steps, step


def vela_span(r: object, at: dict[int, Operation], steps: dict[Operation, int], end: int,
              weight_dma: IsWeightDma = is_weight_dma) -> tuple[int, int]:
    """(start, end) of the range ``r`` (a LiveRange) in Vela's time; ``at`` maps a schedule time
    to its op, ``steps`` and ``end`` are ``vela_steps``'."""
    owner = r.owner  # type: ignore[attr-defined]
    producer = owner.op if isinstance(owner, OpResult) else None
    if producer is not None and weight_dma(producer) and r.kind == "weights":  # type: ignore[attr-defined]
        reader = steps[producer]
        # the second buffer of a double-buffered stream is filled while the first is read
        start = reader - (1 if is_prefetched(producer) and not r.second else 0)  # type: ignore[attr-defined]
        return start, reader + 1 - (1 if r.early_end else 0)  # type: ignore[attr-defined]
    first = at.get(r.first)  # type: ignore[attr-defined]
    start = 0 if isinstance(owner, BlockArgument) or first is None else steps.get(first, 0)
    if r.kind == "output":  # type: ignore[attr-defined]
        return start, end + 1
    last = at.get(r.last)  # type: ignore[attr-defined]
    return start, (steps.get(last, start) if last is not None else start) + 1


def vela_ranks(block: Block, order: Sequence[Operation], ranges: Sequence[object],
               weight_dma: IsWeightDma = is_weight_dma, home: Callable[[Value], Value] = storage_home) -> list[int]:
    """Per range of ``ranges`` (LiveRanges of ``block``), the position at which Vela's live-range
    walk first meets it: the function's arguments, then op by op in ``order`` its operands, its
    results and last the weight buffers it reads (first buffer, then second); a range never met
    comes after, in list order."""
    owner: dict[Value, int] = {}
    second: dict[Value, int] = {}
    for index, r in enumerate(ranges):
        for value in r.values:  # type: ignore[attr-defined]
            (second if r.second else owner)[value] = index  # type: ignore[attr-defined]
    rank: dict[int, int] = {}

    def meet(value: Value, table: dict[Value, int]) -> None:
        index = table.get(value)
        if index is None:  # (the value's storage home only when the value is not a range's own)
            index = table.get(home(value))
        if index is not None and index not in rank:
            rank[index] = len(rank)

    for arg in block.args:
        meet(arg, owner)
    for op in order:
        if weight_dma(op):
            continue
        buffers = [v for v in op.operands if isinstance(v, OpResult) and weight_dma(v.op)]
        for value in op.operands:
            if value not in buffers:
                meet(value, owner)
        for value in op.results:
            meet(value, owner)
        for value in buffers:
            meet(value, owner)
            meet(value, second)
    for index in range(len(ranges)):
        if index not in rank:
            rank[index] = len(rank)
    return [rank[index] for index in range(len(ranges))]


__all__ = ["IsWeightDma", "remembered_weight_dmas", "vela_ranks", "vela_span", "vela_steps"]
