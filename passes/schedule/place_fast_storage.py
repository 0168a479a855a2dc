"""``npu-place-fast-storage``: which intermediate feature maps stay in a separate fast storage once
cascades are formed, so it fits its cache size.

Design notes: docs/scheduler_design.md, section npu-place-fast-storage (place_fast_storage)."""
from __future__ import annotations

from npu_opt.dialects.npu.perf.weight_streams import WeightStreams
from npu_opt.ir.dominance import DominanceInfo
from npu_opt.dialects.npu.interfaces import costed
from npu_opt.dialects.npu.ops_common import NpuComputeOp, encoding_of, with_encoding
from npu_opt.dialects.npu.ops_memory import ConcatOp
from npu_opt.dialects.npu.attrs import FmAttr
from npu_opt.hardware.perf.access import element_access
from npu_opt.hardware.perf.arch import perf_target
from npu_opt.dialects.npu.perf.ir_adapter import OpDescription, report_name
from npu_opt.dialects.npu.perf.ir_attrs import op_block_config
from npu_opt.dialects.npu.schedule_policy import schedule_policy
from npu_opt.dialects.npu.schedule_attrs import CASCADE_ATTR, CascadeAttr, ScheduleAttr
from npu_opt.dialects.npu.target_attr import target_of
from npu_opt.ir.core import Block, OpResult, Operation, Value
from npu_opt.ir.pass_manager import PassContext
from npu_opt.ir.pass_registry import Pass, option, register_pass
from npu_opt.ir.types import RankedTensorType
from npu_opt.dialects.npu.execution_order import graph_blocks, is_view
from npu_opt.passes.schedule.fast_storage_choice import Candidate, choose_fast_storage
from npu_opt.passes.schedule.live_ranges import LiveRange, live_ranges, memory_usage, rolling_concat


def move_to_area(value: Value, area: str | None, ctx: PassContext) -> bool:
    """Put ``value`` in memory ``area`` (None: its kind's default) keeping its format, through
    the rewriter; False when it is already there or is not a tensor an op produces."""
    t = value.type
    if not isinstance(t, RankedTensorType) or not isinstance(value, OpResult):
        return False
    old = encoding_of(value)
    fmt = old.format if old is not None else "NHWC"
    new = None if fmt == "NHWC" and area is None else FmAttr(fmt, area)
    if new == old:
        return False
    with ctx.rewriter.modify(value.op):
        value.type = with_encoding(t, new)
    return True


def shared_storage(value: Value) -> list[Value]:
    """``value`` and every value stored in the same bytes: views of it (a reshape or slice reads
    in place), the tensor it views, and, for a part of a concatenation, the concatenation and
    its other parts (each writer writes its slice of one tensor). They share one memory area."""
    group = {value: None}
    pending = [value]
    while pending:
        current = pending.pop()
        near = [user.results[0] for user in current.users() if is_view(user) and user.results]
        producer = current.op if isinstance(current, OpResult) else None
        if producer is not None and is_view(producer):
            near += list(producer.operands)
        for other in near:
            if other not in group:
                group[other] = None
                pending.append(other)
    return list(group)


def _move_with_views(value: Value, ctx: PassContext) -> None:
    """Return ``value`` to the arena with every value stored in its bytes (``shared_storage``):
    a view stays in its source's area, and a concatenation's parts in the concatenation's."""
    for shared in shared_storage(value):
        move_to_area(shared, None, ctx)


@register_pass("npu-place-fast-storage", statistics={
    "kept": "feature maps kept in fast storage after competing for it",
    "evicted": "feature maps returned to the arena because fast storage is full",
    "cascade-results": "cascade results returned to the arena",
})
class PlaceFastStorage(Pass):
    """With a separate fast storage (Dedicated_Sram), keep in it the intermediate feature maps
    that fit its limit and are accessed most; return the others, and cascade results, to the
    arena (the ``#npu.fm`` area of their type). Reads ``npu.time``, ``npu.cascade``, ``npu.block``
    and ``npu.stream``; the limit is the module's ``npu.schedule`` SRAM target, else the target's
    arena cache size."""

    PRESERVES = (WeightStreams, DominanceInfo)
    """The weight encodings and dominance stay valid: memory areas of feature maps change neither weight values nor control flow."""

    limit: int = option(-1, "fast-storage bytes available (-1: the module's npu.schedule sram_target, "
                            "else the target's arena cache size)")

    def run(self, module: Operation, ctx: PassContext) -> None:
        target = target_of(module)
        if not target.is_spilling_enabled:
            return
        limit = self.limit
        if limit < 0:
            schedule = schedule_policy(module)
            limit = schedule.sram_target if isinstance(schedule, ScheduleAttr) else target.arena_cache_size
        fast, arena = target.fast_storage_area, target.feature_map_storage_area
        for block in list(graph_blocks(module)):
            self._return_cascade_results(block, fast, arena, ctx)
            try:
                ranges = live_ranges(block, target)
            except ValueError as err:
                ctx.error(str(err), block.parent_op())
                continue
            self._place(block, ranges, fast, arena, limit, module, ctx)

    @staticmethod
    def _return_cascade_results(block: Block, fast: str, arena: str, ctx: PassContext) -> None:
        """The last member of a cascade writes its whole OFM to the arena (Vela moves only
        rolling buffers and OFMs of ops outside cascades into fast storage). A member writing a
        part of a concatenation that rolls in its cascade writes into that rolling buffer."""
        for op in block.ops:
            cascade = op.attr(CASCADE_ATTR)
            if isinstance(cascade, CascadeAttr) and cascade.rolling is None and op.results \
                    and rolling_concat(op.results[0]) is None:
                value = op.results[0]
                enc = encoding_of(value)
                if enc is not None and enc.area == fast:
                    _move_with_views(value, ctx)
                    ctx.stat("cascade-results")

    def _place(self, block: Block, ranges: list[LiveRange], fast: str, arena: str, limit: int,
               module: Operation, ctx: PassContext) -> None:
        in_fast = [r for r in ranges if r.area == fast]
        if not in_fast:
            return
        horizon = max(r.last for r in ranges) + 1
        usage = memory_usage(in_fast, length=horizon)
        competing = [r for r in in_fast if self._may_compete(r)]
        if max(usage, default=0) <= limit or not competing:
            return
        scores = self._access_scores(competing, module, ctx)
        candidates = [Candidate(index, r.first, r.last, r.size, scores[index]) for index, r in enumerate(competing)]
        choice = choose_fast_storage(candidates, usage, limit)
        reasons = {**{k: "it does not fit next to the other fast-storage data live with it"
                      for k in choice.evicted_never_fit},
                   **{k: "it lives far longer than its neighbours" for k in choice.evicted_outlier},
                   **{k: "feature maps accessed more often fill the fast storage while it lives"
                      for k in choice.evicted_by_choice}}
        for index, r in enumerate(competing):
            if index in choice.kept:
                ctx.stat("kept")
                continue
            for value in r.values:
                _move_with_views(value, ctx)
            ctx.stat("evicted")
            owner = r.owner
            what = (f"the parts of the concatenation '{report_name(owner.op)}' are written"
                    if isinstance(owner.op, ConcatOp) else f"'{report_name(owner.op)}' writes its OFM")
            ctx.remark(f"{what} ({r.size} bytes, live {r.first}..{r.last}) to the arena in {arena}, not to fast "
                       f"storage ({limit} bytes): {reasons[index]}", owner.op)

    @staticmethod
    def _may_compete(r: LiveRange) -> bool:
        """An intermediate feature map written by an NPU compute op outside any cascade; or a
        concatenation whose parts all are (one tensor, as Vela's OFM of each writer: kept or
        returned to the arena whole)."""
        if r.kind != "feature_map":
            return False
        owner = r.owner
        producer = owner.op if isinstance(owner, OpResult) else None
        writers = list(producer.operands) if isinstance(producer, ConcatOp) else [owner]
        return bool(list(owner.users())) and all(
            isinstance(w := value.op if isinstance(value, OpResult) else None, NpuComputeOp)
            and costed(w) is not None and w.attr(CASCADE_ATTR) is None for value in writers)

    @staticmethod
    def _access_scores(competing: list[LiveRange], module: Operation, ctx: PassContext) -> list[int]:
        """Per range, the elements its writer writes and its readers read (as IFM or IFM2) with
        each op's block configuration: what moving it to the arena would cost."""
        perf = perf_target(target_of(module))
        index_of = {value: index for index, r in enumerate(competing) for value in r.values}
        scores = [0] * len(competing)
        seen: set[Operation] = set()
        for r in competing:
            for value in r.values:
                for op in [value.op if isinstance(value, OpResult) else None, *value.users()]:
                    if op is None or op in seen or costed(op) is None:
                        continue
                    seen.add(op)
                    desc = ctx.analyses.get(OpDescription, op).desc
                    if desc is None:
                        continue
                    access = element_access(desc, op_block_config(op, desc, perf.accel))
                    operands = list(op.operands)
                    for position, count in ((0, access.ifm_read), (1, access.ifm2_read)):
                        if position < len(operands) and operands[position] in index_of:
                            scores[index_of[operands[position]]] += count
                    if op.results and op.results[0] in index_of:
                        scores[index_of[op.results[0]]] += access.ofm_write
        return scores


__all__ = ["PlaceFastStorage", "move_to_area"]
