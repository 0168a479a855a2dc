"""Block-config selection and performance estimation passes, and the ``estimate`` pipeline.

* ``npu-select-block-config``: per NPU compute op, the OFM block configuration Vela's search
  picks (dialects/npu/perf/block_config.py), recorded as ``npu.block = #npu.block<...>``. An op
  with an ``npu.stripe`` (npu-form-cascades) gets the block searched for its OFM stripe, as
  Vela's scheduler chooses it per stripe proposal, so the estimate reads the stripe's block.
* ``npu-estimate``: per NPU op (compute ops and DMAs), the cost model's estimate
  (dialects/npu/perf/estimate.py), recorded as ``npu.cost = #npu.cost<...>``, and the module's
  sums as ``npu.cost_totals``. Ops are costed in schedule order (``npu.time``, from npu-order;
  IR order without it): each op's weight DMA may hide under the previous NPU op's compute
  (not one marked ``npu.unhidden``, which waits for that op to end: npu-allocate's
  prefetch-overlap), and the chain restarts after a CPU op and in each function. The estimate reads the weight
  streaming the IR holds (npu-insert-dma's ``npu.dma``, npu-buffer-weights' ``npu.stream``;
  passes/schedule/) and decides nothing; weights without a DMA are read in place, their size
  predicted by the weight-codec model.
  With a separate fast storage (Dedicated_Sram), the slack chain sees the feature maps
  npu-place-tensors moved to SRAM still in the arena, as the buffering decisions did
  (``decide-in-arena``); the final estimate sees them in SRAM.
* ``estimate`` = ``npu-legalize,npu-order,npu-format-nhcwb16,npu-place-tensors,npu-select-block-config,
  npu-insert-dma,npu-buffer-weights,npu-estimate`` (formats and placement: passes/npu_place.py);
  ``npu-opt --perf-report=FILE`` then writes the per-op table (tools/perf_report.py).

Both passes read the module's ``npu.target``.
"""
from __future__ import annotations

from typing import Literal, NamedTuple

from npu_opt.dialects.npu.ops_common import NpuComputeOp
from npu_opt.dialects.npu.perf import BlockConfig, estimate_op, op_compute_cycles, select_block_config
from npu_opt.dialects.npu.perf.arch import perf_target
from npu_opt.dialects.npu.perf.block_choice import fastest_block_config
from npu_opt.dialects.npu.perf.dma import WeightStreaming
from npu_opt.dialects.npu.perf.ir_adapter import OpDescription, describe_op, is_costed, placed, report_name, with_weights
from npu_opt.dialects.npu.perf.ir_attrs import BLOCK_ATTR, COST_ATTR, TOTALS_ATTR, BlockAttr, CostAttr, op_block_config, striped
from npu_opt.dialects.npu.perf.op_desc import MEMORY_AREAS, NpuOpDesc, derived
from npu_opt.dialects.npu.perf.weight_buffering import buffered_cycles, streamed
from npu_opt.dialects.npu.perf.weight_dma import (
    Encoder, is_weight_dma, source_area, weight_dma, weight_encoder, weight_source,
)
from npu_opt.dialects.npu.perf.weight_size import SCALE_RECORD_BYTES, WeightEncoder
from npu_opt.dialects.npu.perf.weight_streams import WeightStreams
from npu_opt.dialects.npu.perf.shape import round_up
from npu_opt.dialects.npu.schedule_attrs import (
    CASCADE_ATTR, SCHEDULE_ATTR, STREAM_ATTR, UNHIDDEN_ATTR, ScheduleAttr, SearchKnob, StreamAttr,
)
from npu_opt.dialects.npu.target import target_of
from npu_opt.passes.npu_order import runs_by_function
from npu_opt.passes.schedule.buffer_weights import arena_placement
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
    block of a coarse grid with the fewest estimated cycles (dialects/npu/perf/block_choice.py),
    Vela's unless another is strictly faster."""

    KNOBS = (SearchKnob("fastest_blocks", (True,), "fewer cycles; weight buffers may change size with the block"),)
    """The npu.schedule knob this pass reads, as the schedule search tries it."""

    PRESERVES = (OpDescription, DominanceInfo, WeightStreams)
    """Setting npu.block changes neither the ops' descriptions nor the control flow; the weight
    encoders check their block depth on every request, so a new block re-encodes only that op."""

    choose: Literal["", "vela", "cycles"] = option(
        "", "vela (Vela's traffic score) or cycles (the fewest estimated cycles of a coarse grid); empty: cycles "
            "when the module's npu.schedule has fastest_blocks, else vela")

    def run(self, module: Operation, ctx: PassContext) -> None:
        target = target_of(module)
        accel = target.accelerator
        schedule = module.attr(SCHEDULE_ATTR)
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

    Per op: compute cycles of the DPU/output pipeline, network and hardware MAC counts, bytes read
    and written per memory area with the burst-length model, access cycles per memory, DMA cycles
    (LUT loads, copies, weight streaming not hidden under the previous op), and total = the
    largest of NPU and access cycles (Vela's legacy performance model). An op's npu.block is used
    when present (and checked), else the block-config search runs.

    The estimate decides nothing: an op whose weights come from an ``npu.dma`` (npu-insert-dma)
    streams them as the DMA's ``npu.stream`` says (npu-buffer-weights; a DMA without one copies
    the whole stream into one buffer), any other reads them in place. The weight DMA is costed as
    part of its op. With a separate fast storage the slack each op hands the next is computed
    with the feature maps npu-place-tensors moved to SRAM still in the arena, as the buffering
    decisions were (``decide-in-arena``), the estimate itself with them in SRAM.

    Each cost also records what Vela's summary reports beside the totals: the bytes of feature maps
    and of weights among those read and written, the op's compressed weight bytes and original
    weight bytes, and what its constants take in permanent storage (``npu.cost``'s
    ``fm_read``..``stored``; tools/summary_csv.py reads them)."""

    weight_buffering: bool = option(True, "cost weight DMAs as the IR says (false: every op reads its weights "
                                          "in place, whatever DMAs the IR has)")
    encode_weights: bool = option(True, "predict each weight stream's compressed size with the codec model "
                                        "(else take the raw size; faster)")
    decide_in_arena: bool = option(True, "compute the DMA slack chain with the feature maps npu-place-tensors "
                                         "moved to fast storage still in the arena, as npu-buffer-weights "
                                         "decides (Vela's scheduler does)")

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
            ctx.remark(f"the weight DMA of '{report_name(op)}' has no npu.stream (npu-buffer-weights has not run): "
                       "it is costed as one copy of the whole stream into a single buffer", op)
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
        slices = stream.slices if stream is not None else (0, depth)
        double = stream is not None and stream.buffering == "double"
        stream_bytes = stream.bytes if stream is not None else full.total_bytes
        streaming, slack = streamed(perf, planned, block, encode, step.source, slices, double, stream_bytes,
                                    step.cascaded)
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
        block = op_block_config(op, desc, perf.accel)  # (a striped op's: checked on its stripe)
        if block is None:
            given = op.attr(BLOCK_ATTR)
            ctx.error(f"block configuration {given} does not fit this op on {perf.accel.name}"
                      if isinstance(given, BlockAttr) else
                      f"no block configuration of {perf.accel.name} fits this op ({report_name(op)})", op)
        return block


register_pipeline("estimate",
                  "npu-legalize,npu-order,npu-format-nhcwb16,npu-place-tensors,npu-select-block-config,npu-insert-dma,"
                  "npu-buffer-weights,npu-estimate",
                  "legalise TFL ops to npu ops, order them as Vela runs them, choose formats and memory areas, "
                  "choose block configs, copy and buffer weights, and estimate cycles, MACs and traffic")

__all__ = ["Estimate", "SelectBlockConfig"]
