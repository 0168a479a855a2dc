"""``npu-buffer-weights``: how each weight DMA streams into fast storage (``#npu.stream``), decided
in schedule order by Vela's weight-buffering policy.

Design notes: docs/scheduler_design.md, section npu-buffer-weights (buffer_weights)."""
from __future__ import annotations

import math
from typing import Literal, NamedTuple

from npu_opt.dialects.npu.ops_memory import DmaOp
from npu_opt.hardware.perf import BlockConfig, op_compute_cycles
from npu_opt.hardware.perf.arch import PerfTarget, perf_target
from npu_opt.dialects.npu.perf.ir_adapter import OpDescription, is_costed, placed, report_name, with_weights
from npu_opt.dialects.npu.perf.ir_attrs import op_block_config
from npu_opt.hardware.perf.memory import mem2mem_cycles
from npu_opt.hardware.perf.op_desc import NpuOpDesc, OpKind
from npu_opt.hardware.perf.weight_buffering import BufferingDecision, buffered_cycles, propose_weight_buffering
from npu_opt.dialects.npu.perf.weight_dma import Encoder, arena_placement, is_weight_dma, source_area, weight_dma, weight_encoder
from npu_opt.hardware.codec.weight_size import WeightEncoder
from npu_opt.dialects.npu.perf.weight_streams import WeightStreams
from npu_opt.dialects.npu.schedule_attrs import (CASCADE_ATTR, STREAM_ATTR, CascadeAttr, ScheduleAttr,
                                                 SearchKnob, StreamAttr)
from npu_opt.dialects.npu.target_attr import target_of
from npu_opt.ir.core import Operation, Value
from npu_opt.ir.dominance import DominanceInfo
from npu_opt.ir.pass_manager import PassContext
from npu_opt.ir.pass_registry import Pass, option, register_pass
from npu_opt.dialects.npu.schedule_policy import schedule_policy
from npu_opt.dialects.npu.execution_order import runs_by_function
from npu_opt.passes.schedule.fast_storage_usage import FastStorageUsage, Profile


class _Step(NamedTuple):
    """One op of an NPU run, prepared for the chain: its description as planned (weights where
    their DMA copies them from, feature maps where decisions see them), block configuration,
    weight-stream sizer (None without weights), weight DMA and cascade membership."""

    op: Operation
    planned: NpuOpDesc
    block: BlockConfig | None
    encode: Encoder | None
    dma: DmaOp | None
    cascaded: bool
    limit: int
    """Fast-storage bytes free for this op's buffers: the limit less the bytes of other storage
    (feature maps, rolling buffers; not weight buffers) live while its buffer would be."""
    staged: int = 0
    """Bytes of the full-depth buffer stripe growth staged for this cascade member (it keeps it)."""


class _Choice(NamedTuple):
    """What the chain decided for one step: the decision (None when the op has no weight DMA)
    and the slack the op leaves the next one."""

    decision: BufferingDecision | None
    slack: float


CHOICES_KEPT = 1 << 16
"""Buffering decisions ``_choose`` remembers (all are forgotten when the table is full)."""
_CHOSEN: dict[tuple, _Choice] = {}
"""Per (target, planned description, block, weight encoder, read in place or not, cascaded,
bytes free, slack before), the decision: a pure function of those, so candidates of a search
that run an op alike decide it once (docs/schedule_search.md, Caches)."""


class _Snapshot:
    """Fast-storage bytes live at each time of a function, weight buffers left out (they are
    what is being decided): Vela's memory snapshot (passes/schedule/fast_storage_usage.py), and
    the limit the buffers share."""

    def __init__(self, profile: Profile, limit: int) -> None:
        self.limit = limit
        self.usage, self.times = profile
        self.cascade_end: dict[int, int] = {}
        for op, time in self.times.items():
            cascade = op.attr(CASCADE_ATTR)
            if isinstance(cascade, CascadeAttr):
                self.cascade_end[cascade.id] = max(self.cascade_end.get(cascade.id, time), time)

    def free(self, op: Operation) -> int:
        """Bytes of the limit left for ``op``'s weight buffers: the limit less the most bytes
        live from the op's time to its cascade's end (a member's buffer is read until then)."""
        if not self.usage or op not in self.times:
            return self.limit
        start = end = self.times[op]
        cascade = op.attr(CASCADE_ATTR)
        if isinstance(cascade, CascadeAttr):
            end = max(end, self.cascade_end.get(cascade.id, end))
        return self.limit - max(self.usage[start:end + 1], default=0)


def _with_staged(steps: list[_Step]) -> list[_Step]:
    """The steps with the buffers stripe growth staged for cascade members (``npu.cascade``'s
    ``staged``): each member keeps its own, and all of them count in the memory of every member
    of their cascade, as they are in Vela's memory snapshot at the cascade's time."""
    total: dict[int, int] = {}
    for step in steps:
        cascade = step.op.attr(CASCADE_ATTR)
        if isinstance(cascade, CascadeAttr) and cascade.staged:
            total[cascade.id] = total.get(cascade.id, 0) + cascade.staged
    if not total:
        return steps
    out = []
    for step in steps:
        cascade = step.op.attr(CASCADE_ATTR)
        if isinstance(cascade, CascadeAttr) and cascade.id in total:
            step = step._replace(limit=step.limit - total[cascade.id],
                                 staged=cascade.staged if step.dma is not None else 0)
        out.append(step)
    return out


def _why_streamed(step: _Step, perf: PerfTarget, decision: BufferingDecision, prev_slack: float,
                  prev_room: int | None, prefetch: bool) -> str:
    """The remark for a streamed op: its slices and buffers as ``decision`` made them, and why
    (the slack the op before leaves, the bytes free, cascade membership)."""
    assert decision.streaming is not None and step.planned.weights is not None
    encoded = decision.encoded
    name = report_name(step.op)
    depths = [b - a for a, b in zip(encoded.depth_slices, encoded.depth_slices[1:])]
    single = min(encoded.total_bytes, encoded.max_range_bytes)
    if len(depths) == 1:
        shape = f"in one buffer of {single} bytes"
        transfer = mem2mem_cycles(perf, step.planned.weights.memory, perf.fast_storage, encoded.total_bytes)
        if step.cascaded:
            why = "a cascade member takes its weights whole"
        elif transfer <= prev_slack:
            why = f"the {prev_slack:.0f} cycles of slack the op before leaves hide its whole transfer ({transfer:.0f} cycles)"
        else:
            why = f"its {depths[0]} OFM channels are the shallowest slice"
    else:
        slices = f"{len(depths)} slices of {', '.join(map(str, depths))} OFM channels"
        if decision.streaming.double_buffered:
            shape = f"in {slices}, double buffered ({' + '.join(map(str, encoded.double_buffer_sizes))} bytes)"
        else:
            shape = (f"in {slices}, single buffered ({single} bytes: two buffers would take "
                     f"{encoded.double_buffer_size}, over the {max(step.limit, 0)} bytes free)")
        why = (f"the {prev_slack:.0f} cycles of slack the op before leaves (or half the {max(step.limit, 0)} bytes "
               "free) cover only the first slice; each later slice copies while the one before computes")
    if prefetch:
        when = f"prefetched under the op before (its {prev_room} free bytes hold {encoded.double_buffer_size})"
    elif step.cascaded:
        when = "not prefetched: cascade members never are"
    elif prev_room is None:
        when = "not prefetched: no NPU op runs before it"
    else:
        when = (f"not prefetched: {encoded.double_buffer_size} bytes of buffers do not fit the {prev_room} bytes "
                "the op before leaves")
    return f"weights of '{name}' stream {shape}: {why}; {when}"


@register_pass("npu-buffer-weights", statistics={
    "double": "weight DMAs streaming through two alternating buffers",
    "single": "weight DMAs streaming through one buffer",
    "prefetch": "weight DMAs whose first buffer fills under the previous op",
    "in-place": "weight DMAs erased: no buffer fits the limit, the op reads its weights in place",
    "raw-weights": "ops whose weight values are missing (elided), sized uncompressed",
})
class BufferWeights(Pass):
    """Decide how each weight DMA streams (slices, single or double buffer, prefetch) with
    Vela's weight-buffering policy along the schedule's slack chain, and write it as
    ``npu.stream``; erase the DMAs no buffer can serve (see the module docstring)."""

    KNOBS = (SearchKnob("buffer_limit", (), "Size's cascades with weight buffers filling the budget (the search "
                                            "finds the limits)"),)
    """The npu.schedule knob this pass reads, as the schedule search tries it."""

    PRESERVES = (WeightStreams, DominanceInfo)
    """Streams are sized from the weight values and block configs, which this pass leaves. Op
    descriptions are kept too when no DMA was erased (``run``)."""

    optimise: Literal["", "Performance", "Size"] = option("", "the policy whose fast-storage limit applies (empty: "
                                                          "the module's npu.schedule strategy, else Performance)")
    buffer_limit: int = option(0, "fast-storage bytes weight buffers may take (0: from the policy)")
    encode_weights: bool = option(True, "size weight streams with the codec model (false: raw sizes, faster)")
    decide_in_arena: bool = option(True, "decide with placed feature maps still in the arena, as Vela's "
                                         "scheduler does")

    def run(self, module: Operation, ctx: PassContext) -> None:
        target = target_of(module)
        perf = perf_target(target)
        limit = self._limit(module, target)
        schedule = schedule_policy(module)
        # a buffer limit to fill (a search's Size schedule) is a limit on all the buffers live
        # together: a cascade member's buffer must fit beside those of the members before it
        together = isinstance(schedule, ScheduleAttr) and schedule.buffer_limit > 0
        ops = [op for op in module.walk() if is_costed(op)]
        arena = arena_placement(ops, target) if self.decide_in_arena else None
        reads = {op: tuple(op.operands) for op in ops}
        for block, runs in runs_by_function(module, ctx):
            room = _Snapshot(ctx.analyses.get(FastStorageUsage, module).profile(block, target, arena), limit)
            for run in runs:
                steps = [step for step in (self._prepare(op, target, perf, arena, room, ctx) for op in run
                                           if is_costed(op) and not is_weight_dma(op)) if step is not None]
                self._buffer_run(steps, perf, ctx, together)
        if all(tuple(op.operands) == read for op, read in reads.items()):
            # Only npu.stream changed (no op reads its weights from elsewhere now):
            # every op's description stays as it was.
            ctx.preserve(OpDescription)

    def _limit(self, module: Operation, target) -> int:
        """Fast-storage bytes the buffers and whatever else is live may take: the module's
        ``npu.schedule`` SRAM target (Size: the cascaded MIN schedule's peak; Performance: the
        arena cache size, or the target a schedule search chose), the arena cache size before
        any pass has written one. An explicit ``optimise`` of Performance keeps the arena cache
        size whatever the module says."""
        if self.buffer_limit > 0:
            return self.buffer_limit
        schedule = schedule_policy(module)
        if not isinstance(schedule, ScheduleAttr) or self.optimise == "Performance":
            return target.arena_cache_size
        if self.optimise == "Size" or schedule.strategy == "Size":
            return schedule.sram_target
        return min(schedule.sram_target, target.arena_cache_size)

    def _prepare(self, op: Operation, target, perf: PerfTarget, arena: dict[Value, str] | None,
                 room: "_Snapshot", ctx: PassContext) -> _Step | None:
        """What the chain needs of ``op``; None for an op without description or block config
        (npu-select-block-config or npu-estimate reports those)."""
        desc = ctx.analyses.get(OpDescription, op).desc
        if desc is None:
            return None
        block = op_block_config(op, desc, perf.accel) if desc.block_type is not None else None
        if desc.block_type is not None and block is None:
            return None
        dma = weight_dma(op)
        placement = dict(arena or {})
        if dma is not None:
            if len(dma.results[0].users()) > 1:
                ctx.error(f"the weight DMA of '{report_name(op)}' is read by {len(dma.results[0].users())} ops; "
                          "each op streams its weights through its own buffers (npu-insert-dma gives each a copy)", dma)
                return None
            placement[dma.results[0]] = source_area(dma, target)
        planned = placed(op, desc, placement)
        encode = None
        if planned.weights is not None and block is not None:
            encode, raw = weight_encoder(op, planned, perf, block, ctx.analyses, self.encode_weights)
            if raw and self.encode_weights:
                ctx.stat("raw-weights")
                ctx.remark(f"the weight values of '{report_name(op)}' are not in the IR (an elided constant); its "
                           f"weight stream is sized raw ({planned.weights.raw_elements} weights, uncompressed)", op)
        cascaded = op.attr(CASCADE_ATTR) is not None
        return _Step(op, planned, block, encode, dma, cascaded, room.free(op))

    def _buffer_run(self, steps: list[_Step], perf: PerfTarget, ctx: PassContext, together: bool = False) -> None:
        """Decide the run's weight DMAs in schedule order, chaining the slack from op to op (a
        prefetched DMA is issued before the previous op: npu-order places it from ``npu.stream``).

        A first buffer is prefetched when the double buffer fits the memory the previous op
        leaves (its free bytes less its own last buffer: Vela's slack memory). With
        ``together`` (a limit to fill) a cascade member's buffers get the limit less those
        given to the members before it too, as all of them are live until the cascade ends."""
        if not together:
            steps = _with_staged(steps)
        known = self._encode_ahead(steps, perf, ctx) if self.encode_weights else {}
        held: dict[int, int] = {}  # (with a limit to fill) bytes of buffers given to each cascade's members
        whole: dict[int, int] = {}  # (otherwise) full-depth weight bytes of each cascade's members so far
        prev_slack = 0.0
        prev_room: int | None = None  # None: no NPU compute op before in the run
        for index, step in enumerate(steps):
            cascade = step.op.attr(CASCADE_ATTR)
            beside = ((held if together else whole).get(cascade.id, 0) if isinstance(cascade, CascadeAttr)
                      else 0)
            if beside:
                step = step._replace(limit=step.limit - beside)
            dry = known.get(index)
            encoder = step.encode if isinstance(step.encode, WeightEncoder) else None
            choice = (dry[1] if dry is not None and dry[0] == prev_slack and not beside
                      else self._choose(step, perf, prev_slack, step.encode, encoder))
            used = 0
            if step.dma is not None and choice.decision is not None:
                prefetch, used = self._apply(step, choice.decision, prev_room, ctx)
                if step.staged and used > step.limit:
                    used = 0  # a kept buffer that does not fit takes nothing from the room Vela counts
                if together and isinstance(cascade, CascadeAttr) and choice.decision.streaming is not None:
                    held[cascade.id] = beside + sum(step.dma.attr(STREAM_ATTR).buffers)
                elif not together and isinstance(cascade, CascadeAttr):
                    # Vela counts a member's whole weights in the cascade's memory, buffered or not
                    whole[cascade.id] = beside + choice.decision.encoded.total_bytes
                if choice.decision.streaming is not None:
                    ctx.remark(_why_streamed(step, perf, choice.decision, prev_slack, prev_room, prefetch), step.dma)
            prev_slack = choice.slack
            if not isinstance(step.op, DmaOp):
                prev_room = step.limit - used

    @staticmethod
    def _choose(step: _Step, perf: PerfTarget, prev_slack: float, encode: Encoder | None,
                encoder: WeightEncoder | None = None) -> _Choice:
        """The decision for ``step`` after an op that left ``prev_slack``; ``encode`` sizes its
        weight streams. Remembered by what it reads when ``encoder``, the codec's encoder behind
        ``encode``, is given (or the op has no weights); a decision made with stand-in sizes
        (``encode`` speculative) is not kept."""
        if encode is not None and encoder is None:
            return BufferWeights._decide(step, perf, prev_slack, encode)
        limit = math.inf if step.staged else max(step.limit, 0)
        key = (perf, step.planned, step.block, encoder, step.dma is None, step.cascaded, limit, prev_slack)
        found = _CHOSEN.get(key)
        if found is None:
            if encode is not encoder:  # (speculative: stand-in sizes)
                return BufferWeights._decide(step, perf, prev_slack, encode)
            if len(_CHOSEN) >= CHOICES_KEPT:
                _CHOSEN.clear()
            found = _CHOSEN[key] = BufferWeights._decide(step, perf, prev_slack, encode)
        return found

    @staticmethod
    def _decide(step: _Step, perf: PerfTarget, prev_slack: float, encode: Encoder | None) -> _Choice:
        """``_choose`` without its memo."""
        if encode is None or step.block is None:
            return _Choice(None, float(op_compute_cycles(perf, step.planned.as_scheduled(), step.block)))
        depth = step.planned.ofm.shape.depth
        planned = with_weights(step.planned, encode((0, depth)).total_bytes)
        if step.dma is None:  # read in place: the whole OFM's compute is the slack
            return _Choice(None, buffered_cycles(perf, planned, step.block)(depth))
        limit = math.inf if step.staged else max(step.limit, 0)  # a staged buffer is kept whatever fits
        decision = propose_weight_buffering(perf, planned, step.block, encode, prev_slack, limit, step.cascaded)
        return _Choice(decision, decision.slack_cycles)

    def _apply(self, step: _Step, decision: BufferingDecision, prev_room: int | None,
               ctx: PassContext) -> tuple[bool, int]:
        """Write the decision on the DMA, or erase the DMA when the weights are read in place.
        Returns whether the first buffer is prefetched under the previous NPU op and the bytes
        of the buffer used last. Vela prefetches outside cascades when the double buffer fits
        ``prev_room``, the memory the previous NPU op leaves (None: no NPU op before)."""
        dma = step.dma
        assert dma is not None and step.planned.weights is not None
        if decision.streaming is None:
            self._read_in_place(step, decision, step.limit, step.planned.weights.memory, ctx)
            return False, 0
        encoded = decision.encoded
        double = decision.streaming.double_buffered
        buffers = encoded.double_buffer_sizes if double else (min(encoded.total_bytes, encoded.max_range_bytes),)
        prefetch = not step.cascaded and prev_room is not None and encoded.double_buffer_size < prev_room
        ctx.rewriter.set_attr(dma, STREAM_ATTR, StreamAttr(encoded.depth_slices, "double" if double else "single",
                                                           tuple(buffers), encoded.total_bytes, prefetch))
        ctx.stat("double" if double else "single")
        if prefetch:
            ctx.stat("prefetch")
        # the buffer the last slice reads: slices alternate between the buffers from the first
        return prefetch, buffers[(len(encoded.depth_slices) - 2) % len(buffers)]

    @staticmethod
    def _read_in_place(step: _Step, decision: BufferingDecision, limit: int, perf_area: str,
                       ctx: PassContext) -> None:
        """Erase the op's weight DMA (it reads the constant again) and say why."""
        dma, op = step.dma, step.op
        assert dma is not None
        name = report_name(op)
        if step.planned.kind is OpKind.VECTOR_PRODUCT:
            why = "fully connected ops never buffer weights"
        elif decision.needed_bytes:
            why = (f"its smallest weight buffer takes {decision.needed_bytes} bytes, more than the "
                   f"{max(limit, 0)} bytes of fast storage free for weight buffers")
        else:
            why = f"{perf_area} weights need no copy on this target"
        ctx.remark(f"weights of '{name}' are read in place from {perf_area}: {why}", op)
        index = next(i for i, operand in enumerate(op.operands) if operand is dma.results[0])
        ctx.rewriter.set_operand(op, index, dma.operands[0])
        if not dma.results[0].users():
            ctx.rewriter.erase_op(dma)
        ctx.stat("in-place")

    def _encode_ahead(self, steps: list[_Step], perf: PerfTarget, ctx: PassContext
                      ) -> dict[int, tuple[float, _Choice]]:
        """Encode the slicings the run's decisions will ask for in one codec batch: the chain runs
        dry first with speculative encoders, which queue the slicings not encoded yet and answer
        with stand-in sizes. A guess the real chain does not follow costs time, never a different
        result (the real chain encodes whatever else it asks for). Returns, per step that queued
        nothing, the slack before it and its choice, which the real chain reuses when its slack
        is the same."""
        known: dict[int, tuple[float, _Choice]] = {}
        streams: WeightStreams | None = None
        prev_slack = 0.0
        for index, step in enumerate(steps):
            encode = encoder = step.encode
            if isinstance(encode, WeightEncoder):
                streams = WeightStreams.of(step.op, ctx.analyses)
                encode = streams.speculative(encode)
            before = streams.queued() if streams is not None else 0
            choice = self._choose(step, perf, prev_slack, encode,
                                  encoder if isinstance(encoder, WeightEncoder) else None)
            if (streams.queued() if streams is not None else 0) == before:
                known[index] = (prev_slack, choice)
            prev_slack = choice.slack
        if streams is not None:
            streams.encode_queued()
        return known


__all__ = ["BufferWeights"]
