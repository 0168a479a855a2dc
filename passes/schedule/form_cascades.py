"""``npu-form-cascades``: which ops run as cascades, with which stripes (Vela 5.2 legacy), so a
schedule fits its SRAM target; written as ``npu.cascade`` and ``npu.stripe``.

Design notes: docs/scheduler_design.md, section npu-form-cascades (form_cascades)."""
from __future__ import annotations

from typing import Callable, Literal

from npu_opt.ir.dominance import DominanceInfo
from npu_opt.hardware.perf import select_block_config
from npu_opt.hardware.perf.arch import perf_target
from npu_opt.hardware.perf.estimate import estimate_op
from npu_opt.dialects.npu.perf.ir_adapter import OpDescription, op_weights_hwio, report_name
from npu_opt.hardware.perf.op_desc import NpuOpDesc
from npu_opt.dialects.npu.perf.weight_dma import weight_dma
from npu_opt.hardware.perf.shape import Shape4, round_up
from npu_opt.dialects.npu.perf.weight_streams import WeightStreams
from npu_opt.dialects.npu.schedule_policy import POLICY_ATTR
from npu_opt.dialects.npu.schedule_attrs import (
    CASCADE_ATTR, SCHEDULE_ATTR, STRATEGIES, STRIPE_ATTR, CascadeAttr, ScheduleAttr, SearchKnob, StripeAttr,
)
from npu_opt.dialects.npu.target_attr import target_of
from npu_opt.ir.core import Block, Operation
from npu_opt.ir.pass_manager import PassContext
from npu_opt.ir.pass_registry import Pass, option, register_pass
from npu_opt.dialects.npu.execution_order import runs_by_function
from npu_opt.passes.schedule.cascade_builder import (
    Cascade, SchedOp, build_cascades, grow_stripes, min_stripes,
)
from npu_opt.passes.schedule.cascade_ops import concat_read_by, sched_ops

SCALE_RECORD_BYTES = 10
"""Bytes of one OFM channel's bias/scale record, for weights whose values are not in the IR."""


def min_memory_requirement(ops: list[SchedOp]) -> int:
    """The largest sum of the whole feature maps one op must hold, its IFM2 included (Size's
    first SRAM target)."""
    return max(((op.ifm_bytes if op.full_ifm else 0) + op.full_ifm2_bytes + (op.ofm_bytes if op.full_ofm else 0)
                for op in ops), default=0)


def _growth_non_local(cascade: Cascade, records: list[SchedOp], ops: list[Operation],
                      non_local: dict[int, int]) -> dict[int, int]:
    """What stripe growth counts live beside each member of a MIN cascade (shared fast storage),
    as Vela's sub-schedule does: what the MIN schedule had live beside the cascade at its start,
    the same for every member, and for the members after the first the first op's whole IFM
    when another op of the run reads it too (it then lives through the cascade). Not each
    member's own MIN-schedule neighbours: a tensor live beside a later member only because the
    network's output or a CPU op still needs it is not counted, as in Vela (so its final
    schedule can exceed the MIN peak by that tensor, allocated honestly afterwards). Vela's rule
    knows only chains: a cascade holding a join, a branch point, a fork or a rolling
    concatenation (the knobs beyond Vela's) keeps each member's own MIN-schedule neighbours,
    among them the block input or second operand that lives across the members."""
    from npu_opt.passes.schedule.check_rules import readers

    first = cascade.start
    if any(records[i].ifm2_producer is not None or records[i].branch_join is not None or records[i].fork
           or records[i].concat_reader is not None for i in cascade.members) or cascade.concats:
        return {index: non_local.get(index, 0) for index in cascade.members}
    parallel = non_local.get(first, 0)
    run = set(ops)
    ifm = ops[first].operands[0] if ops[first].operands else None
    shared = ifm is not None and sum(reader in run for reader in readers(ifm)[0]) > 1
    persistent = records[first].ifm_bytes if shared else 0
    return {index: parallel + (persistent if index != first else 0) for index in cascade.members}


def min_schedule_peak(ops: list[SchedOp], cascades: list[Cascade], non_local: dict[int, int]) -> int:
    """Peak fast-storage bytes of the cascaded MIN schedule in a shared arena (Size's SRAM limit
    for stripe growth): a cascade member takes its cascade's buffers plus what is live beside the
    cascade's first op; any other op its own IFM and OFM (none when it overwrites the IFM) plus
    what is live beside it."""
    member_of = {i: c for c in cascades for i in c.members}
    peak = 0
    for op in ops:
        cascade = member_of.get(op.index)
        if cascade is not None:
            used = cascade.mem_usage + non_local.get(cascade.start, 0)
        else:
            used = op.ifm_bytes + (0 if op.reuses_ifm else op.ofm_bytes) + non_local.get(op.index, 0)
        peak = max(peak, used)
    return peak


@register_pass("npu-form-cascades", statistics={
    "cascades": "cascades formed",
    "ops-cascaded": "ops in a cascade",
    "largest-cascade": "ops in the longest cascade",
    "rolling-bytes": "bytes of the rolling buffers of all cascades",
    "grown": "cascades of the MIN build whose stripes stripe growth tried (none: its mode changes nothing)",
})
class FormCascades(Pass):
    """Group chains of ops into cascades and choose their stripes, as Vela 5.2's legacy scheduler
    does (see the module docstring): MIN stripes, the greedy builder under the SRAM target, the
    MAX-fits shortcut, then per-cascade stripe growth. Writes ``npu.stripe`` and ``npu.cascade``,
    and the strategy and SRAM target it scheduled for as the module's ``npu.schedule``."""

    PRESERVES = (WeightStreams, OpDescription, DominanceInfo)
    """The weight encodings, op descriptions and dominance stay valid: npu.stripe/npu.cascade and
    npu.schedule change neither weight values, operands, types nor control flow."""

    KNOBS = (SearchKnob("stripe_growth", ("full", "cost"), "taller stripes, or those of fewest estimated cycles"),
             SearchKnob("cascade_joins", (True,), "a rolling buffer instead of a whole feature map at a residual add"),
             SearchKnob("cascade_branches", (True,), "a whole residual block as one cascade"),
             SearchKnob("cascade_concats", (True,), "a concatenation rolling in one cascade with its parts"))
    """The npu.schedule knobs this pass reads, as the schedule search tries them."""

    sram_target: int = option(-1, "fast-storage bytes to schedule for (-1: the module's npu.schedule sram_target, "
                                  "else the target's arena cache size)")
    optimise: str = option("", "Performance or Size (empty: the module's npu.schedule strategy, else Performance)")
    weight_buffers: bool = option(True, "count cascade members' weight buffers (full-depth encoding per stripe) "
                                        "while growing stripes")
    stripe_growth: Literal["", "vela", "full", "cost"] = option(
        "", "vela (stop at the first height that does not fit), full (the tallest that fits), cost (the fewest "
            "estimated cycles) or empty (the module's npu.schedule, else vela)")
    cascade_joins: bool = option(False, "let a cascade run through a residual add whose second input is "
                                        "written outside it (OR-ed with npu.schedule)")
    cascade_branches: bool = option(False, "let a whole residual block be one cascade (implies cascade-joins, "
                                           "OR-ed with npu.schedule)")
    cascade_concats: bool = option(False, "let a channel concatenation, its writers and its reader be one "
                                          "cascade, as a fire module (OR-ed with npu.schedule)")

    def run(self, module: Operation, ctx: PassContext) -> None:
        target = target_of(module)
        schedule = module.attr(SCHEDULE_ATTR)
        strategy = self.optimise or (schedule.strategy if isinstance(schedule, ScheduleAttr) else "Performance")
        if strategy not in STRATEGIES:
            ctx.error(f"optimise must be {' or '.join(STRATEGIES)}, not '{strategy}'")
            return
        growth = self.stripe_growth or (schedule.stripe_growth if isinstance(schedule, ScheduleAttr) else "vela")
        joins = self.cascade_joins or (isinstance(schedule, ScheduleAttr) and schedule.cascade_joins)
        branches = self.cascade_branches or (isinstance(schedule, ScheduleAttr) and schedule.cascade_branches)
        concats = self.cascade_concats or (isinstance(schedule, ScheduleAttr) and schedule.cascade_concats)
        limit = self.sram_target
        if limit < 0:
            limit = schedule.sram_target if isinstance(schedule, ScheduleAttr) else target.arena_cache_size
        min_peaks: list[int] = []
        largest = 0
        for block, runs in runs_by_function(module, ctx):
            formed: set[Operation] = set()
            next_id = 0  # ids count the function's cascades from 0, as they are formed
            for run in runs:
                for cascade, ops, records in self._schedule_run(block, run, target, strategy, limit, ctx, min_peaks,
                                                                growth, joins, branches, concats):
                    formed.update(self._write(cascade, ops, next_id, ctx))
                    next_id += 1
                    ctx.stat("cascades")
                    ctx.stat("ops-cascaded", len(cascade.members))
                    ctx.stat("rolling-bytes", cascade.rolling_bytes(records))
                    largest = max(largest, len(cascade.members))
            for op in block.ops:
                if op not in formed:
                    for name in (STRIPE_ATTR, CASCADE_ATTR):
                        if op.attr(name) is not None:
                            ctx.rewriter.remove_attr(op, name)
        # Size in a shared arena: what follows (weight buffering, fast storage for feature maps)
        # works under the cascaded MIN schedule's peak, not the arena cache size
        sram_target = max(min_peaks) if min_peaks else limit
        base = schedule if isinstance(schedule, ScheduleAttr) else ScheduleAttr(strategy, target.arena_cache_size, 0)
        if strategy == "Size" and base.buffer_limit > sram_target:
            # (a search's choice: the passes after may fill more than the MIN schedule needs)
            ctx.remark(f"Size: the passes after the cascades may fill {base.buffer_limit} bytes of fast storage "
                       f"(npu.schedule's buffer_limit), more than the cascaded MIN schedule's {sram_target}", module)
            sram_target = base.buffer_limit
        # a schedule that already names this strategy keeps its prefetch choice (a search may have
        # made it); otherwise the strategy's own: Size lets prefetched buffers share freed bytes
        overlap = base.prefetch_overlap if base is schedule and base.strategy == strategy else strategy == "Size"
        policy = base.replaced(strategy=strategy, arena_cache_size=target.arena_cache_size, sram_target=sram_target,
                               stripe_growth=growth, prefetch_overlap=overlap, cascade_joins=joins,
                               cascade_branches=branches, cascade_concats=concats)
        if module.attr(POLICY_ATTR) != policy:
            ctx.rewriter.set_attr(module, POLICY_ATTR, policy)
        if largest > ctx.stats["largest-cascade"]:
            ctx.stat("largest-cascade", largest - ctx.stats["largest-cascade"])

    # -- one NPU run ---------------------------------------------------------------------------
    def _schedule_run(self, block: Block, run: list[Operation], target, strategy: str, limit: int,
                      ctx: PassContext, min_peaks: list[int],
                      growth: str = "vela",
                      joins: bool = False,
                      branches: bool = False,
                      concats: bool = False) -> list[tuple[Cascade, list[Operation], list[SchedOp]]]:
        describe: Callable[[Operation], NpuOpDesc] = lambda op: ctx.analyses.get(OpDescription, op).desc  # noqa: E731
        records, ops = sched_ops(run, describe, joins, branches, concats)
        if not records:
            return []
        spilling = target.is_spilling_enabled
        non_local = self._non_local(block, ops, records, target, spilling)
        build_limit = limit if strategy == "Performance" else min_memory_requirement(records)
        scope = [r.index for r in records]
        built = build_cascades(records, scope, min_stripes(records), build_limit, spilling, non_local)
        stops = {stop.index: stop.reason for stop in built.stops}
        if strategy == "Performance" and not spilling:
            peak = self._max_peak(block, target)
            if peak is not None and peak < limit:
                ctx.remark(f"no cascades: the uncascaded schedule needs at most {peak} bytes of fast storage, "
                           f"under the SRAM target of {limit} bytes (everything fits)", ops[0])
                return []
        if strategy == "Performance":
            growth_limit = limit
        elif spilling:
            # only the rolling buffers live in fast storage: the MIN schedule peaks at its
            # largest cascade's (nothing at all without cascades)
            growth_limit = max((c.mem_usage for c in built.cascades), default=0)
            min_peaks.append(growth_limit)
        else:
            growth_limit = min_schedule_peak(records, built.cascades, non_local)
            min_peaks.append(growth_limit)
            if built.cascades:
                ctx.remark(f"Size: the cascaded MIN schedule peaks at {growth_limit} bytes of fast storage (the "
                           f"minimum memory requirement was {build_limit} bytes); its cascades' stripes grow "
                           f"under that limit", ops[0])
        sizes = self._weight_buffers(ops, records, target, ctx) if self.weight_buffers else (lambda s: {})
        cycles = self._stripe_cycles(ops, target, ctx) if growth == "cost" else None
        cascades: list[Cascade] = []
        for cascade in built.cascades:
            ctx.stat("grown")
            weights = self._staged_weights(cascade, records, sizes, growth_limit,
                                           0 if spilling else non_local.get(cascade.start, 0), ops, ctx)
            beside = non_local if spilling else _growth_non_local(cascade, records, ops, non_local)
            grown = grow_stripes(records, cascade, growth_limit, spilling, beside, weights, growth, cycles)
            if grown.cascades is None:
                cascades.append(cascade)
            else:
                cascades.extend(grown.cascades)
                # Vela's sub-schedule replaces the MIN cascade: its members keep their staged buffers
                for formed in grown.cascades:
                    formed.staged = weights(dict(formed.stripes))
                for index in cascade.members[:-1]:
                    stops.pop(index, None)
                # the chain still ends where the MIN build ended it, for the MIN build's reason
                stops.update({stop.index: stop.reason for stop in grown.stops if stop.index != cascade.end})
            ctx.remark(f"stripe growth of the cascade '{records[cascade.start].name}'..'{records[cascade.end].name}':"
                       f" {grown.note}", ops[cascade.end])
        for cascade in cascades:
            rolling = cascade.rolling_bytes(records)
            ctx.remark(f"cascade of {len(cascade.members)} ops from '{records[cascade.start].name}' to "
                       f"'{records[cascade.end].name}': final stripe {cascade.stripes[cascade.end].height} rows, "
                       f"{rolling} bytes of rolling buffers, {cascade.mem_usage} bytes of fast storage",
                       ops[cascade.start])
            for index in cascade.members:
                join = records[index].branch_join
                if join in cascade.members:
                    ctx.remark(f"'{records[index].name}' is a branch point of the cascade: '{records[join].name}' "
                               f"reads its OFM too, after '{records[index + 1].name}' and the ops between have "
                               f"pulled it ahead, so it rolls in {cascade.rolling[index].height} rows",
                               ops[index])
                readers = ([records[r].name for r in records[index].consumers if r in cascade.members]
                           if records[index].fork and index in cascade.rolling else [])
                if len(readers) > 1:
                    ctx.remark(f"'{records[index].name}' is a fork of the cascade: {', '.join(map(repr, readers))} "
                               f"read its OFM, so it rolls in {cascade.rolling[index].height} rows, enough for the "
                               "one that lags most", ops[index])
            for reader, shape in cascade.concats.items():
                parts = ", ".join(repr(records[p].name) for p in records[reader].ifm_from)
                concat = concat_read_by(ops[reader])
                ctx.remark(f"the concatenation {report_name(concat)!r} that '{records[reader].name}' reads rolls in "
                           f"the cascade: {parts} write their parts into one buffer of "
                           f"{shape.height}x{shape.width}x{shape.depth}", concat)
        for index, reason in sorted(stops.items()):
            if reason:
                ctx.remark(f"cascading stops at '{records[index].name}': {reason}", ops[index])
        return [(cascade, ops, records) for cascade in cascades]

    @staticmethod
    def _non_local(block: Block, ops: list[Operation], records: list[SchedOp], target,
                   spilling: bool) -> dict[int, int]:
        """Fast-storage bytes live beside each op in the MIN schedule, its own IFM/OFM excluded."""
        if spilling:
            return {}
        from npu_opt.passes.schedule.live_ranges import live_ranges, memory_usage, op_times

        _, times = op_times(block)
        ranges = [r for r in live_ranges(block, target) if r.kind != "weights"]
        area = target.fast_storage_area
        usage = memory_usage(ranges, area, alignment=16, length=max(times.values(), default=-1) + 1)
        result: dict[int, int] = {}
        for record, op in zip(records, ops):
            own = record.ifm_bytes + (0 if record.reuses_ifm else record.ofm_bytes)
            result[record.index] = max(0, usage[times[op]] - own)
        return result

    @staticmethod
    def _max_peak(block: Block, target) -> int | None:
        """Peak fast-storage bytes of the uncascaded schedule (feature maps, and weight buffers
        where npu-buffer-weights has streamed weights)."""
        from npu_opt.passes.schedule.live_ranges import live_ranges, memory_usage

        try:
            usage = memory_usage(live_ranges(block, target), target.fast_storage_area, alignment=16)
        except ValueError:
            return None
        return max(usage, default=0)

    @staticmethod
    def _staged_weights(cascade: Cascade, records: list[SchedOp],
                        sizes: Callable[[dict[int, Shape4]], dict[int, int]], limit: int, beside: int,
                        ops: list[Operation], ctx: PassContext) -> Callable[[dict[int, Shape4]], dict[int, int]]:
        """The weight buffers stripe growth counts for one MIN cascade: a member's weights are
        staged in fast storage only when their full-depth buffer (encoded for the MIN stripe) fits
        in what the limit leaves beside the MIN cascade at that member (its buffers plus what else
        is live there); the others are read in place and cost no fast storage."""
        room = limit - cascade.mem_usage - beside
        at_min = sizes(dict(cascade.stripes))
        staged = {i for i, size in at_min.items() if 0 < size <= room}
        left = [i for i, size in at_min.items() if size > room]
        if left:
            names = ", ".join(f"'{records[i].name}' ({at_min[i]} bytes)" for i in left)
            ctx.remark(f"weight buffers not counted while growing stripes: {names}; the limit of {limit} bytes "
                       f"leaves {max(room, 0)} bytes beside the MIN cascade's {cascade.mem_usage + beside} bytes",
                       ops[cascade.start])
        return lambda stripes: sizes({i: s for i, s in stripes.items() if i in staged})

    @staticmethod
    def _stripe_cycles(ops: list[Operation], target, ctx: PassContext) -> Callable[[dict[int, Shape4]], float]:
        """Estimated cycles of the ops of a stripe proposal: each op whole, on the block config
        Vela's search picks for its stripe (what npu-select-block-config will pick), weights
        read where they are (the buffering comes after)."""
        perf = perf_target(target)

        def op_cycles(index: int, stripe: Shape4) -> float:  # (the block search and estimate are memoised)
            desc: NpuOpDesc = ctx.analyses.get(OpDescription, ops[index]).desc
            block = select_block_config(desc.with_ofm_stripe(stripe.min(desc.ofm.shape)), perf.accel)
            try:
                return estimate_op(perf, desc, block).total_cycles
            except ValueError:  # no block fits: never the fastest
                return float("inf")

        return lambda stripes: sum(op_cycles(i, s) for i, s in stripes.items())

    @staticmethod
    def _weight_buffers(ops: list[Operation], records: list[SchedOp], target,
                        ctx: PassContext) -> Callable[[dict[int, Shape4]], dict[int, int]]:
        """Bytes of each member's weight buffer for a stripe proposal: the weights encoded at full
        depth for the block config of the op's stripe, when they live outside fast storage (an op
        reading an ``npu.dma`` copy of them counts too, wherever the copy was placed)."""
        perf = perf_target(target)
        cache: dict[tuple[int, object], int] = {}

        def size(index: int, stripe: Shape4) -> int:
            op = ops[index]
            desc: NpuOpDesc = ctx.analyses.get(OpDescription, op).desc
            # weights npu-insert-dma copies in (from flash or DRAM) need a buffer; weights that
            # already live in fast storage are read in place
            if desc.weights is None or (desc.weights.memory == target.fast_storage_area and weight_dma(op) is None):
                return 0
            striped = desc.with_ofm_stripe(stripe.min(desc.ofm.shape))
            block = select_block_config(striped, perf.accel)
            if block is None:
                return 0
            key = (index, block)
            if key not in cache:
                hwio = op_weights_hwio(op)
                depth = desc.ofm.shape.depth
                if hwio is None:
                    cache[key] = round_up(desc.weights.raw_elements, 16) + round_up(SCALE_RECORD_BYTES * depth, 16)
                else:
                    encoder = WeightStreams.of(op, ctx.analyses).encoder(op, hwio, perf, striped, block)
                    cache[key] = encoder((0, depth)).total_bytes
            return cache[key]

        return lambda stripes: {i: size(i, s) for i, s in stripes.items()}

    # -- writing -------------------------------------------------------------------------------
    @staticmethod
    def _write(cascade: Cascade, ops: list[Operation], cascade_id: int, ctx: PassContext) -> list[Operation]:
        """Write the cascade's attributes with its id (its index in the function); returns the
        ops written (members and the concatenations rolling in it)."""
        for index in cascade.members:
            op = ops[index]
            ofm = op.results[0]
            stripe = cascade.stripes[index]
            shape = tuple(ofm.type.shape) if hasattr(ofm.type, "shape") else ()
            height = min(stripe.height, shape[-3]) if len(shape) >= 3 else stripe.height
            ctx.rewriter.set_attr(op, STRIPE_ATTR, StripeAttr((height, stripe.width, stripe.depth)))
            rolling = cascade.rolling.get(index)
            ctx.rewriter.set_attr(op, CASCADE_ATTR, CascadeAttr(
                cascade_id, None if rolling is None else (rolling.height, rolling.width, rolling.depth),
                cascade.staged.get(index, 0)))
        written = [ops[i] for i in cascade.members]
        for reader, shape in cascade.concats.items():
            concat = concat_read_by(ops[reader])
            assert concat is not None, "a rolling concatenation's reader reads it"
            ctx.rewriter.set_attr(concat, CASCADE_ATTR, CascadeAttr(cascade_id, (shape.height, shape.width,
                                                                                 shape.depth)))
            written.append(concat)
        return written


__all__ = ["FormCascades", "min_memory_requirement", "min_schedule_peak"]
