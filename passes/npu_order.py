"""``npu-order``: the execution order of each function's ops, recorded as ``npu.time``.

Every op that executes (NPU compute ops and DMAs, and ops left on the CPU) gets ``npu.time``, its
position in Vela's order (dialects/npu/execution_order.py) or in the memory-aware order
(passes/memory_order.py), counted from 0 in each function; memory-only views, constants and
terminators get none. Weight DMAs are placed by the facts of the passes that decide them
(dialects/npu/dma_issue.py): this pass is the only writer of ``npu.time``. Later passes read the
order through the ``ExecutionOrder`` analysis.
"""
from __future__ import annotations

from typing import Literal

from npu_opt.dialects.npu.dma_issue import dma_free_order, place_weight_dmas
from npu_opt.dialects.npu.execution_order import execution_order_of, graph_blocks, is_executed, respects_dataflow
from npu_opt.dialects.npu.perf.ir_adapter import OpDescription
from npu_opt.dialects.npu.perf.weight_dma import is_weight_dma
from npu_opt.dialects.npu.perf.weight_streams import WeightStreams
from npu_opt.dialects.npu.schedule_attrs import SCHEDULE_ATTR, TIME_ATTR, ScheduleAttr, SearchKnob
from npu_opt.ir.attributes import IntegerAttr
from npu_opt.ir.core import Operation
from npu_opt.ir.dominance import DominanceInfo
from npu_opt.ir.pass_manager import PassContext
from npu_opt.ir.pass_registry import Pass, option, register_pass
from npu_opt.passes.memory_order import memory_aware_order


@register_pass("npu-order", statistics={
    "ops": "executed ops given a schedule position",
    "moved": "ops whose position differs from their place in the IR",
})
class Order(Pass):
    """Number each function's executed ops in Vela's execution order (``npu.time``).

    The order is a reversed depth-first walk from the function's results over operands (an op is
    placed once all users of its results are), then CPU ops reading only graph inputs move to
    the front and other CPU ops move down towards the next CPU op (dialects/npu/execution_order.py).
    With ``order=memory`` the NPU ops between two CPU ops are then list-scheduled for the fewest
    live bytes (passes/memory_order.py): parallel branches interleave; a chain keeps its order.
    Weight DMAs go where their facts issue them (dialects/npu/dma_issue.py): just before their
    reader, before the op before it when npu-buffer-weights prefetches them, back before their
    reader when npu-allocate takes the prefetch back. With ``dmas-only`` the order ``npu.time``
    records is kept and only the weight DMAs are placed again: the schedule pipeline runs it after
    each pass that adds weight DMAs or decides where they go."""

    KNOBS = (SearchKnob("memory_order", (True,), "fewer bytes live where parallel branches interleave"),)
    """The npu.schedule knob this pass reads, as the schedule search tries it."""

    PRESERVES = (WeightStreams, OpDescription, DominanceInfo)
    """Times are attributes: weight values, operands, types and control flow stay (the schedule
    pipeline runs this pass between passes that reuse the weight encodings)."""

    order: Literal["", "vela", "memory"] = option(
        "", "vela (Vela's order) or memory (NPU ops between two CPU ops reordered to keep the fewest bytes live); "
            "empty: memory when the module's npu.schedule has memory_order, else vela")
    dmas_only: bool = option(False, "keep the order npu.time records and place only the weight DMAs again, from "
                                    "their facts (order is then not used; an unordered function stays unordered)")

    def run(self, module: Operation, ctx: PassContext) -> None:
        schedule = module.attr(SCHEDULE_ATTR)
        memory = self.order == "memory" or (
            not self.order and isinstance(schedule, ScheduleAttr) and schedule.memory_order)
        for block in list(graph_blocks(module)):
            file_order = [op for op in block.ops if is_executed(op)]
            if self.dmas_only:
                if all(op.attr(TIME_ATTR) is None for op in file_order):
                    continue  # an unordered function stays so
                try:
                    order = dma_free_order(block)
                except ValueError as err:
                    ctx.error(str(err), block.parent_op())
                    continue
            else:
                order = [op for op in execution_order_of(block) if not is_weight_dma(op)]
                if memory:
                    order = memory_aware_order(order)
                    assert respects_dataflow(order)
            order = place_weight_dmas(order)
            for time, op in enumerate(order):
                current = op.attr(TIME_ATTR)
                if not (isinstance(current, IntegerAttr) and current.value == time):
                    ctx.rewriter.set_attr(op, TIME_ATTR, IntegerAttr(time))
                ctx.stat("ops")
                if file_order[time] is not op:
                    ctx.stat("moved")


__all__ = ["Order"]
