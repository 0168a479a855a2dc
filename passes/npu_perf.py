"""The block-config selection and performance estimation passes, and the ``estimate`` pipeline.

Design notes: docs/cost_model_design.md, section Block configs and the estimate passes (npu_perf)."""
from __future__ import annotations

from typing import Literal, NamedTuple

from npu_opt.dialects.npu.ops_common import NpuComputeOp
from npu_opt.hardware.perf import BlockConfig, estimate_op, op_compute_cycles, select_block_config
from npu_opt.hardware.perf.arch import perf_target
from npu_opt.hardware.perf.block_choice import fastest_block_config
from npu_opt.hardware.perf.dma import WeightStreaming
from npu_opt.dialects.npu.perf.ir_adapter import OpDescription, describe_op, is_costed, placed, report_name, with_weights
from npu_opt.dialects.npu.perf.ir_attrs import BLOCK_ATTR, COST_ATTR, TOTALS_ATTR, BlockAttr, CostAttr, op_block_config, striped
from npu_opt.hardware.perf.op_desc import MEMORY_AREAS, NpuOpDesc, derived
from npu_opt.hardware.perf.weight_buffering import buffered_cycles, streamed
from npu_opt.dialects.npu.perf.weight_dma import (
    Encoder, arena_placement, is_weight_dma, source_area, weight_dma, weight_encoder, weight_source,
)
from npu_opt.hardware.codec.weight_size import SCALE_RECORD_BYTES, WeightEncoder
from npu_opt.dialects.npu.perf.weight_streams import WeightStreams
from npu_opt.hardware.perf.shape import round_up
from npu_opt.dialects.npu.schedule_policy import schedule_policy
from npu_opt.dialects.npu.schedule_attrs import (
    CASCADE_ATTR, STREAM_ATTR, UNHIDDEN_ATTR, ScheduleAttr, SearchKnob, StreamAttr,
)
from npu_opt.dialects.npu.target_attr import target_of
from npu_opt.dialects.npu.execution_order import runs_by_function
from npu_opt.ir.core import Operation, Value
from npu_opt.ir.dominance import DominanceInfo
from npu_opt.ir.pass_manager import PassContext
from npu_opt.ir.pass_registry import Pass, option, register_pass, register_pipeline


class _Step(NamedTuple):
    """One op of an NPU run, prepared for costing: its description, block configuration, the
    description as planned (feature maps where the buffering decisions saw them), the sizer of its
    weight streams (None without weights), the area its weight DMA copies from (None: weights read
    in place), the DMA's ``npu.stream`` and whether the op is in a cascade."""

    op: Operation
    desc: NpuOpDesc
    block: BlockConfig | None
    planned: NpuOpDesc
    encode: Encoder | None
    source: str | None
    stream: StreamAttr | None
    cascaded: bool
    unhidden: bool = False
    """The weight DMA carries ``npu.unhidden``: it waits for the previous op, no slack hides it."""


def _constants(step: _Step, seen: set[Value]) -> tuple[int, tuple[int, ...], int]:
    """The op's compressed weight bytes (the stream it reads, without scale records), the bytes
    its constants take in permanent storage per memory, as Vela lays them out there (the weight
    stream sliced as its DMA copies it, a separate tensor of its scale records and its LUT, each
    padded to 16 bytes), and the bytes of its weights before encoding, as the NPU computes with
    them (0 when a constant in ``seen`` was counted already; the op's constant is added)."""
    stored = dict.fromkeys(MEMORY_AREAS, 0)
    desc, encoded_weights = step.desc, 0
    if desc.lut_bytes > 0 and desc.lut_memory in stored:
        stored[desc.lut_memory] += round_up(desc.lut_bytes, 16)
    if step.encode is not None and step.block is not None and desc.weights is not None:
        depth = desc.ofm.shape.depth
        streamed_slices = step.source is not None and step.stream is not None
        encoded = step.encode(tuple(step.stream.slices) if streamed_slices else (0, depth))  # type: ignore[union-attr]
        stream_bytes = step.stream.bytes if streamed_slices else encoded.total_bytes  # type: ignore[union-attr]
        area = step.source if step.source is not None else desc.weights.memory
        if area in stored:
            stored[area] += round_up(stream_bytes, 16) + round_up(SCALE_RECORD_BYTES * depth, 16)
        encoded_weights = sum(r.weight_bytes for r in encoded.ranges)
    original = 0
    source = weight_source(step.op)
    if desc.weights is not None and source is not None and source not in seen:
        seen.add(source)
        original = desc.weights.raw_elements  # one byte each: the NPU's weights are 8-bit
    return encoded_weights, tuple(stored[a] for a in MEMORY_AREAS), original


def _costed_ops(module: Operation) -> list[Operation]:
    return [op for op in module.walk() if is_costed(op)]


def _later_placements(op: Operation, arena: dict[Value, str] | None, target) -> list[dict[Value, str]]:
    """Where later passes may yet put ``op``'s operands, beside where they are now: its feature
    maps back in the arena (npu-place-fast-storage decides which stay in a separate fast
    storage), its weights read in place from where their DMA copies them (npu-buffer-weights
    erases a DMA no buffer fits), and both."""
    dma = weight_dma(op)
    in_place = {dma.results[0]: source_area(dma, target)} if dma is not None else {}
    return [where for where in (arena or {}, in_place, {**(arena or {}), **in_place}) if where]


def _block_text(block: BlockConfig) -> str:
    """An OFM block as HxWxD."""
    shape = block.ofm_block
    return f"{shape.height}x{shape.width}x{shape.depth}"


@register_pass("npu-select-block-config", statistics={
    "ops": "NPU compute ops given a block config",
    "faster": "ops given a faster block than Vela's (choose=cycles)",
})
class SelectBlockConfig(Pass):
    """Choose each NPU compute op's OFM block configuration (npu.block), as Vela's search does.

    The search tries every OFM block of micro-block multiples (at most 32 x 64 x 128) whose IFM
    block (double-buffered) and accumulators fit the SHRAM banks left by the reserved output banks
    and the LUT, and keeps the one fetching the fewest IFM and weight elements per OFM element.
    An op with an ``npu.stripe`` is searched as producing that stripe (its input window as IFM).
    Results are memoised on the op's shape signature. With ``choose=cycles`` (or the module's
    ``npu.schedule`` flag ``fastest_blocks``, a schedule search's knob) each op instead takes the
    block of a coarse grid with the fewest estimated cycles (hardware/perf/block_choice.py),
    Vela's unless another is strictly faster."""

    KNOBS = (SearchKnob("fastest_blocks", (True,), "fewer cycles; weight buffers may change size with the block"),)
    """The npu.schedule knob this pass reads, as the schedule search tries it."""

    PRESERVES = (OpDescription, DominanceInfo, WeightStreams)
    """Setting npu.block changes neither the ops' descriptions nor the control flow; the weight
    encoders check their block depth on every request, so a new block re-encodes only that op."""

    choose: Literal["", "vela", "cycles"] = option(
        "", "vela (Vela's traffic score), cycles (fewest estimated cycles) or empty (cycles when the module's "
            "npu.schedule has fastest_blocks, else vela)")

    def run(self, module: Operation, ctx: PassContext) -> None:
        target = target_of(module)
        accel = target.accelerator
        schedule = schedule_policy(module)
        fastest = self.choose == "cycles" or (
            not self.choose and isinstance(schedule, ScheduleAttr) and schedule.fastest_blocks)
        perf = perf_target(target) if fastest else None
        ops = list(_costed_ops(module))
        arena = arena_placement(ops, target) if fastest else None
        for op in ops:
            if not isinstance(op, NpuComputeOp):
                continue
            desc = ctx.analyses.get(OpDescription, op).desc
            if desc is None or desc.block_type is None:
                continue
            block = select_block_config(striped(op, desc), accel)
            if block is None:
                ctx.error(f"no block configuration of {accel.name} fits this op's IFM and accumulators in SHRAM", op)
                continue
            if perf is not None:
                block = self._fastest(op, desc, block, perf, arena, target, ctx)
            attr = BlockAttr.of(block)
            if op.attr(BLOCK_ATTR) != attr:
                ctx.rewriter.set_attr(op, BLOCK_ATTR, attr)
            ctx.stat("ops")

    @staticmethod
    def _fastest(op: Operation, desc: NpuOpDesc, vela: BlockConfig, perf, arena: dict[Value, str] | None, target,
                 ctx: PassContext) -> BlockConfig:
        """``choose=cycles``: the fastest block for ``op`` (``vela`` unless another is strictly
        faster), costed where its operands are and where later passes may yet put them, with
        its weights at their encoded size, as npu-estimate costs them; a remark when it differs."""
        searched = striped(op, desc)
        placements = [searched] + [striped(op, placed(op, desc, where)) for where in _later_placements(op, arena, target)]
        if desc.weights is not None:
            encode, _ = weight_encoder(op, searched, perf, vela, ctx.analyses)
            encoded = encode((0, desc.ofm.shape.depth)).total_bytes
            placements = [with_weights(p, encoded) for p in placements]
        faster = fastest_block_config(perf, tuple(placements), vela)
        if faster is not vela:
            ctx.stat("faster")
            ctx.remark(f"block {_block_text(faster)} instead of Vela's {_block_text(vela)}: "
                       f"{estimate_op(perf, placements[0], faster).total_cycles:.0f} estimated cycles, not "
                       f"{estimate_op(perf, placements[0], vela).total_cycles:.0f}", op)
        return faster


@register_pass("npu-estimate", statistics={
    "ops": "NPU ops estimated",
    "streamed": "ops whose weights are DMA'd into fast storage",
    "decided-in-arena": "modules whose DMA slack chain saw fast-storage feature maps in the arena",
    "raw-weights": "ops whose weight values are missing (elided), sized uncompressed",
})
class Estimate(Pass):
    """Estimate every NPU op's cycles, MACs and memory traffic (npu.cost), and the module totals.

    It reads the schedule's decisions and decides nothing.

    Design notes: docs/cost_model_design.md, section npu-estimate (npu_perf.Estimate)."""

    weight_buffering: bool = option(True, "cost weight DMAs as the IR says (false: every op reads its weights "
                                          "in place, whatever DMAs the IR has)")
    encode_weights: bool = option(True, "predict weight stream sizes with the codec model (false: raw "
                                        "sizes, faster)")
    decide_in_arena: bool = option(True, "chain DMA slack with placed feature maps still in the arena, as "
                                         "npu-buffer-weights decides")

    def run(self, module: Operation, ctx: PassContext) -> None:
        target = target_of(module)
        perf = perf_target(target)
        totals: list[CostAttr] = []
        arena = arena_placement(_costed_ops(module), target) if self.decide_in_arena else None
        if arena:
            ctx.stat("decided-in-arena")
        weights_seen: set[Value] = set()  # weight constants counted in an op's original_weights
        for _, runs in runs_by_function(module, ctx):
            for run in runs:  # each NPU stretch starts with nothing to hide its DMA under
                ops = [op for op in run if is_costed(op) and not is_weight_dma(op)]
                self._estimate_run(ops, target, perf, arena, totals, weights_seen, ctx)
        ctx.rewriter.set_attr(module, TOTALS_ATTR, CostAttr.summed(totals))

    def _estimate_run(self, ops: list[Operation], target, perf, arena: dict[Value, str] | None,
                      totals: list[CostAttr], weights_seen: set[Value], ctx: PassContext) -> None:
        """Cost one stretch of NPU ops in schedule order, chaining the DMA slack from op to op.
        The slicings the run's DMAs name are encoded first, in one codec batch."""
        steps = [step for step in (self._prepare(op, target, perf, arena, ctx) for op in ops) if step is not None]
        self._encode_slicings(steps, ctx)
        prev_slack = 0.0
        for step in steps:
            desc, streaming, slack = self._read(step, perf)
            if streaming is not None:
                ctx.stat("streamed")
            slack_before = 0.0 if step.unhidden else prev_slack
            cost = CostAttr.of(estimate_op(perf, desc, step.block, streaming, slack_before),
                               *_constants(step, weights_seen))
            ctx.rewriter.set_attr(step.op, COST_ATTR, cost)
            totals.append(cost)
            prev_slack = slack
            ctx.stat("ops")

    def _prepare(self, op: Operation, target, perf, arena: dict[Value, str] | None,
                 ctx: PassContext) -> _Step | None:
        """What costing ``op`` needs besides the slack before it; None for an op not costed (no
        description, or no block configuration: an error says so)."""
        desc = ctx.analyses.get(OpDescription, op).desc
        if desc is None:
            return None
        block = self._block(op, desc, perf, ctx)
        if desc.block_type is not None and block is None:
            return None
        dma = weight_dma(op)
        stream = dma.attr(STREAM_ATTR) if dma is not None and self.weight_buffering else None
        if isinstance(stream, StreamAttr) and stream.depth != desc.ofm.shape.depth:
            # (npu-check-schedule's rule 6: the slices cover the OFM depth; nothing can cost the rest)
            ctx.error(f"the weight slices of '{report_name(op)}' end at depth {stream.depth} but its OFM depth is "
                      f"{desc.ofm.shape.depth}", dma)
            return None
        placement = dict(arena or {})
        if dma is not None and not self.weight_buffering:  # read where the DMA would copy from
            placement[dma.results[0]] = source_area(dma, target)
            desc = describe_op(op, target, placement={dma.results[0]: source_area(dma, target)})
            dma = None
        planned = placed(op, desc, placement)
        assert desc is not None and planned is not None
        encode = None
        if desc.weights is not None and block is not None:
            encode, raw = weight_encoder(op, desc, perf, block, ctx.analyses, self.encode_weights)
            if raw and self.encode_weights:
                ctx.remark(f"the weight values of '{report_name(op)}' are not in the IR (an elided constant, "
                           f"e.g. printed with --elide-large-constants); its weight stream is sized raw "
                           f"({desc.weights.raw_elements} weights, uncompressed) instead of by the codec model", op)
                ctx.stat("raw-weights")
        source = source_area(dma, target) if dma is not None else None
        if dma is not None and not isinstance(stream, StreamAttr) and desc.weights is not None:
            ctx.error(f"the weight DMA of '{report_name(op)}' has no npu.stream: npu-buffer-weights decides how "
                      "the weights stream, npu-estimate reads it", dma)
            return None
        return _Step(op, desc, block, planned, encode, source, stream if isinstance(stream, StreamAttr) else None,
                     op.attr(CASCADE_ATTR) is not None, dma is not None and dma.attr(UNHIDDEN_ATTR) is not None)

    @staticmethod
    def _read(step: _Step, perf) -> tuple[NpuOpDesc, WeightStreaming | None, float]:
        """The op's description as costed, its weight streaming as the IR says and the slack it
        leaves the next op."""
        desc, planned, block, encode = step.desc, step.planned, step.block, step.encode
        if encode is None or block is None:
            return desc, None, float(op_compute_cycles(perf, planned.as_scheduled(), block))
        depth = desc.ofm.shape.depth
        full = encode((0, depth))
        planned = with_weights(planned, full.total_bytes)
        if step.source is None:  # no DMA: the weights are read where they are
            return with_weights(desc, full.total_bytes), None, buffered_cycles(perf, planned, block)(depth)
        stream = step.stream
        assert stream is not None, "a weight DMA without npu.stream is reported by _prepare"
        stream_bytes = stream.bytes
        streaming, slack = streamed(perf, planned, block, encode, step.source, stream.slices,
                                    stream.buffering == "double", stream_bytes, step.cascaded)
        assert desc.weights is not None
        fast = derived(desc.weights, memory=perf.fast_storage, buffered=True, encoded_bytes=stream_bytes)
        return derived(desc, weights=fast), streaming, slack

    @staticmethod
    def _encode_slicings(steps: list[_Step], ctx: PassContext) -> None:
        """Encode the slicings the run's weight DMAs name, all in one codec batch (the codec's
        parameter search costs far less per weight on many streams at once)."""
        streams: WeightStreams | None = None
        for step in steps:
            if isinstance(step.encode, WeightEncoder) and step.stream is not None:
                streams = WeightStreams.of(step.op, ctx.analyses)
                streams.speculative(step.encode)(step.stream.slices)
        if streams is not None:
            streams.encode_queued()

    def _block(self, op: Operation, desc: NpuOpDesc, perf, ctx: PassContext) -> BlockConfig | None:
        if desc.block_type is None:
            return None
        given = op.attr(BLOCK_ATTR)
        if not isinstance(given, BlockAttr):
            ctx.error(f"'{report_name(op)}' has no npu.block: npu-select-block-config chooses the block "
                      "configurations npu-estimate reads", op)
            return None
        block = op_block_config(op, desc, perf.accel)  # (a striped op's: checked on its stripe)
        if block is None:
            ctx.error(f"block configuration {given} does not fit this op on {perf.accel.name}", op)
        return block


register_pipeline("estimate",
                  "npu-legalize,npu-order,npu-format-nhcwb16,npu-place-tensors,npu-select-block-config,npu-insert-dma,"
                  "npu-order{dmas-only=true},npu-buffer-weights,npu-order{dmas-only=true},npu-estimate",
                  "legalise TFL ops to npu ops, order them as Vela runs them, choose formats and memory areas, "
                  "choose block configs, copy and buffer weights, and estimate cycles, MACs and traffic")

__all__ = ["Estimate", "SelectBlockConfig"]
