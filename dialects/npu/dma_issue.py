"""Where each weight DMA is issued in a function's schedule, read from the facts that decide it
(``npu.stream``'s prefetch, ``npu.unhidden``, ``npu.shares_tail``): the rule npu-order numbers
the DMAs by, and npu-allocate plans the live ranges of a settled schedule with.

Design notes: docs/scheduler_design.md, section Who writes npu.time (dma_issue)."""
from __future__ import annotations

from npu_opt.dialects.npu.execution_order import by_time, is_executed, on_cpu
from npu_opt.dialects.npu.ops_memory import DmaOp
from npu_opt.dialects.npu.perf.weight_dma import is_prefetched, is_weight_dma, weight_dma
from npu_opt.dialects.npu.schedule_attrs import SHARES_TAIL_ATTR, STREAM_ATTR, StreamAttr
from npu_opt.ir.core import Block, Operation


def waits_for_previous(dma: Operation) -> bool:
    """True if npu-allocate took ``dma``'s prefetch back: its buffer shares bytes the previous op
    still uses (``npu.unhidden``) or frees only for its last slice (``npu.shares_tail``), so the DMA
    is issued after that op."""
    stream = dma.attr(STREAM_ATTR)
    return isinstance(stream, StreamAttr) and stream.prefetch and not _prefetched_under_previous(dma)


def _prefetched_under_previous(dma: Operation) -> bool:
    """True if ``dma``'s first buffer fills under the op before its reader, issued before that op:
    a prefetch npu-allocate kept (``is_prefetched``) whose buffer shares no tail either."""
    return is_prefetched(dma) and dma.attr(SHARES_TAIL_ATTR) is None


def place_weight_dmas(order: list[Operation]) -> list[Operation]:
    """``order`` (a function's executed ops in schedule order) with every weight DMA where its
    facts issue it; the other ops keep their order, and a DMA's place in ``order`` is ignored.
    Before each op come, in this order: its own DMA when nothing moved it, the DMA prefetched
    under it (the next op's, ``npu.stream`` with prefetch), and its own DMA when npu-allocate
    took the prefetch back. A prefetch with no NPU op before its reader (a CPU op, or none) stays
    before the reader."""
    ops = [op for op in order if not is_weight_dma(op)]
    first: dict[Operation, Operation] = {}  # op -> its own DMA, issued first before it
    under: dict[Operation, list[Operation]] = {}  # op -> the DMAs prefetched under it
    last: dict[Operation, Operation] = {}  # op -> its own DMA, issued last before it (waits for the previous op)
    placed: set[Operation] = set()
    previous: Operation | None = None  # the last non-DMA op issued, None at the start or after a CPU op
    for op in ops:
        dma = weight_dma(op)
        if dma is not None and dma not in placed:
            placed.add(dma)
            if _prefetched_under_previous(dma) and previous is not None:
                under.setdefault(previous, []).append(dma)
            elif waits_for_previous(dma):
                last[op] = dma
            else:
                first[op] = dma
        if on_cpu(op):
            previous = None
        elif not isinstance(op, DmaOp):
            previous = op
    result: list[Operation] = []
    for op in ops:
        if op in first:
            result.append(first[op])
        result.extend(under.get(op, ()))
        if op in last:
            result.append(last[op])
        result.append(op)
    return result


def dma_free_order(block: Block) -> list[Operation]:
    """The executed ops of ``block`` other than weight DMAs, in the order ``npu.time`` records
    (IR order when none carries one). Raises ValueError naming an op without an integer time
    when others have one: a pass added it after npu-order."""
    return by_time([op for op in block.ops if is_executed(op) and not is_weight_dma(op)],
                   "run npu-order (without dmas-only) after the last pass that adds ops")


__all__ = ["dma_free_order", "place_weight_dmas", "waits_for_previous"]
