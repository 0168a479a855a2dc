"""Block-config selection and performance estimation passes, and the ``estimate`` pipeline.

* ``npu-select-block-config``: per NPU compute op, the OFM block configuration Vela's search
  picks (dialects/npu/perf/block_config.py), recorded as ``npu.block = #npu.block<...>``.
* ``npu-estimate``: per NPU op (compute ops and DMAs), the cost model's estimate
  (dialects/npu/perf/estimate.py), recorded as ``npu.cost = #npu.cost<...>``, and the module's
  sums as ``npu.cost_totals``. Ops are costed in schedule order (``npu.time``, from npu-order;
  IR order without it): each op's weight DMA may hide under the previous NPU op's compute, and
  the chain restarts after a CPU op and in each function. Weights in slow permanent storage are
  streamed into fast storage with Vela's weight-buffering policy, their size predicted by the
  weight-codec model.
  With a separate fast storage (Dedicated_Sram), the buffering decisions and the slack chain see
  the feature maps npu-place-tensors moved to SRAM still in the arena (Vela decides before it
  moves them; ``decide-in-arena``), the final estimate sees them in SRAM.
* ``estimate`` = ``npu-legalize,npu-order,npu-format-nhcwb16,npu-place-tensors,npu-select-block-config,
  npu-estimate`` (formats and placement: passes/npu_place.py); ``npu-opt --perf-report=FILE``
  then writes the per-op table (tools/perf_report.py).

Both passes read the module's ``npu.target``.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable, NamedTuple

from npu_opt.dialects.npu.ops_common import NpuComputeOp, encoding_of, is_constant
from npu_opt.dialects.npu.perf import BlockConfig, check_block_config, estimate_op, op_compute_cycles, select_block_config
from npu_opt.dialects.npu.perf.arch import perf_target
from npu_opt.dialects.npu.perf.dma import WeightStreaming
from npu_opt.dialects.npu.perf.ir_adapter import (
    OpDescription, describe_op, is_costed, op_weights_hwio, report_name, with_weights,
)
from npu_opt.dialects.npu.perf.ir_attrs import BLOCK_ATTR, COST_ATTR, TOTALS_ATTR, BlockAttr, CostAttr
from npu_opt.dialects.npu.perf.op_desc import NpuOpDesc
from npu_opt.dialects.npu.perf.weight_buffering import propose_weight_buffering
from npu_opt.dialects.npu.perf.weight_size import EncodedWeights, WeightEncoder
from npu_opt.dialects.npu.perf.weight_streams import WeightStreams
from npu_opt.dialects.npu.target import target_of
from npu_opt.passes.npu_order import graph_blocks, npu_runs
from npu_opt.ir.core import Operation, Value
from npu_opt.ir.dominance import DominanceInfo
from npu_opt.ir.pass_manager import PassContext
from npu_opt.ir.pass_registry import Pass, option, register_pass, register_pipeline


class _Step(NamedTuple):
    """One op of an NPU run, prepared for costing: its description, block configuration, the
    description as planned (feature maps where the buffering decisions see them) and the sizer of
    its weight streams (None without weights)."""

    op: Operation
    desc: NpuOpDesc
    block: BlockConfig | None
    planned: NpuOpDesc
    encode: Callable[[tuple[int, ...]], EncodedWeights] | None


def _costed_ops(module: Operation) -> list[Operation]:
    return [op for op in module.walk() if is_costed(op)]


@register_pass("npu-select-block-config", statistics={
    "ops": "NPU compute ops given a block config",
})
class SelectBlockConfig(Pass):
    """Choose each NPU compute op's OFM block configuration (npu.block), as Vela's search does.

    The search tries every OFM block of micro-block multiples (at most 32 x 64 x 128) whose IFM
    block (double-buffered) and accumulators fit the SHRAM banks left by the reserved output banks
    and the LUT, and keeps the one fetching the fewest IFM and weight elements per OFM element.
    Results are memoised on the op's shape signature."""

    PRESERVES = (OpDescription, DominanceInfo)
    """Setting npu.block changes neither the ops' descriptions nor the control flow."""

    def run(self, module: Operation, ctx: PassContext) -> None:
        target = target_of(module)
        accel = target.accelerator
        for op in _costed_ops(module):
            if not isinstance(op, NpuComputeOp):
                continue
            desc = ctx.analyses.get(OpDescription, op).desc
            if desc is None or desc.block_type is None:
                continue
            block = select_block_config(desc, accel)
            if block is None:
                ctx.error(f"no block configuration of {accel.name} fits this op's IFM and accumulators in SHRAM", op)
                continue
            ctx.rewriter.set_attr(op, BLOCK_ATTR, BlockAttr.of(block))
            ctx.stat("ops")


@register_pass("npu-estimate", statistics={
    "ops": "NPU ops estimated",
    "streamed": "ops whose weights are DMA'd into fast storage",
    "decided-in-arena": "modules whose buffering decisions saw fast-storage feature maps in the arena",
    "raw-weights": "ops whose weight values are missing (elided), sized uncompressed",
})
class Estimate(Pass):
    """Estimate every NPU op's cycles, MACs and memory traffic (npu.cost), and the module totals.

    Per op: compute cycles of the DPU/output pipeline, network and hardware MAC counts, bytes read
    and written per memory area with the burst-length model, access cycles per memory, DMA cycles
    (LUT loads, copies, weight streaming not hidden under the previous op), and total = the
    largest of NPU and access cycles (Vela's legacy performance model). An op's npu.block is used
    when present (and checked), else the block-config search runs. With a separate fast storage,
    weight-buffering decisions and the slack handed to the next op are computed with SRAM feature
    maps seen in the arena (Vela's scheduler decides before moving them), the estimate itself with
    them in SRAM."""

    weight_buffering: bool = option(True, "stream weights from flash or DRAM into fast storage with Vela's "
                                          "policy (else the NPU reads them in place)")
    encode_weights: bool = option(True, "predict each weight stream's compressed size with the codec model "
                                        "(else take the raw size; faster)")
    decide_in_arena: bool = option(True, "take weight-buffering decisions (and the DMA slack chain) with the "
                                         "feature maps npu-place-tensors moved to fast storage still in the "
                                         "arena, as Vela's scheduler does")

    def run(self, module: Operation, ctx: PassContext) -> None:
        target = target_of(module)
        perf = perf_target(target)
        totals: list[CostAttr] = []
        arena = self._arena_placement(_costed_ops(module), target) if self.decide_in_arena else None
        if arena:
            ctx.stat("decided-in-arena")
        for block in list(graph_blocks(module)):
            try:
                runs = npu_runs(block)
            except ValueError as err:
                ctx.error(str(err), block.parent_op())
                continue
            for run in runs:  # each NPU stretch starts with nothing to hide its DMA under
                self._estimate_run([op for op in run if is_costed(op)], target, perf, arena, totals, ctx)
        ctx.rewriter.set_attr(module, TOTALS_ATTR, CostAttr.total(totals))

    def _estimate_run(self, ops: list[Operation], target, perf, arena: dict[Value, str] | None,
                      totals: list[CostAttr], ctx: PassContext) -> None:
        """Cost one stretch of NPU ops in schedule order, chaining the DMA slack from op to op.
        Each op is prepared once (block, description as planned, weight encoder; diagnostics in op
        order); with weight buffering the chain first runs dry to encode its slicings in one batch."""
        steps = [step for step in (self._prepare(op, target, perf, arena, ctx) for op in ops) if step is not None]
        known: dict[int, tuple[float, tuple[NpuOpDesc, WeightStreaming | None, float]]] = {}
        if self.weight_buffering and self.encode_weights:
            known = self._encode_slicings_ahead(steps, perf, ctx)
        prev_slack = 0.0
        for index, step in enumerate(steps):
            dry = known.get(index)
            if dry is not None and dry[0] == prev_slack:
                desc, streaming, slack = dry[1]
            else:
                desc, streaming, slack = self._decide(step, perf, prev_slack, step.encode)
            if streaming is not None:
                ctx.stat("streamed")
            cost = CostAttr.of(estimate_op(perf, desc, step.block, streaming, prev_slack))
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
        planned = describe_op(op, target, placement=arena) if arena else desc
        assert planned is not None
        encode = self._encoder(op, desc, perf, block, ctx) if desc.weights is not None and block is not None else None
        return _Step(op, desc, block, planned, encode)

    def _decide(self, step: _Step, perf, prev_slack: float,
                encode: Callable[[tuple[int, ...]], EncodedWeights] | None
                ) -> tuple[NpuOpDesc, WeightStreaming | None, float]:
        """The op's description as costed, its weight streaming and the slack it leaves the next
        op, after an op that left ``prev_slack``; ``encode`` sizes its weight streams."""
        desc, planned, block = step.desc, step.planned, step.block
        if encode is None or block is None:
            return desc, None, float(op_compute_cycles(perf, planned.as_scheduled(), block))
        full = encode((0, desc.ofm.shape.depth))
        desc = with_weights(desc, full.total_bytes)
        planned = with_weights(planned, full.total_bytes)
        if not self.weight_buffering:
            return desc, None, float(op_compute_cycles(perf, planned.as_scheduled(), block))
        decision = propose_weight_buffering(perf, planned, block, encode, prev_slack)
        return replace(desc, weights=decision.desc.weights), decision.streaming, decision.slack_cycles

    def _encode_slicings_ahead(self, steps: list[_Step], perf, ctx: PassContext
                               ) -> dict[int, tuple[float, tuple[NpuOpDesc, WeightStreaming | None, float]]]:
        """Encode the weight slicings the run's buffering decisions will ask for in one codec batch
        (a search per op costs far more per weight: grc_search.py): the chain runs dry first, with
        speculative encoders that queue the slicings not encoded yet and answer with stand-in
        sizes. The slicing an op takes and the slack it leaves the next op depend on its full-depth
        stream and its slice depths only (no buffer limit applies here), so the dry chain asks for
        what the real one will; a wrong guess would cost time, never a different result (the real
        chain encodes whatever else it asks for). Returns, per step that queued nothing, the slack
        before it and its decision, which the real chain reuses when its slack is the same."""
        known: dict[int, tuple[float, tuple[NpuOpDesc, WeightStreaming | None, float]]] = {}
        streams: WeightStreams | None = None
        prev_slack = 0.0
        for index, step in enumerate(steps):
            encode = step.encode
            if isinstance(encode, WeightEncoder):
                streams = WeightStreams.of(step.op, ctx.analyses)
                encode = streams.speculative(encode)
            before = streams.queued() if streams is not None else 0
            decided = self._decide(step, perf, prev_slack, encode)
            if (streams.queued() if streams is not None else 0) == before:
                known[index] = (prev_slack, decided)
            prev_slack = decided[2]
        if streams is not None:
            streams.encode_queued()
        return known

    @staticmethod
    def _arena_placement(ops: list[Operation], target) -> dict[Value, str] | None:
        """With a separate fast storage: the arena as the area of every feature map placed in
        fast storage (Vela decides weight buffering before it moves them there); else None."""
        if not target.is_spilling_enabled:
            return None
        fast, arena = target.fast_storage_area, target.feature_map_storage_area
        placement: dict[Value, str] = {}
        for op in ops:
            for value in [*op.operands, *op.results]:
                enc = encoding_of(value)
                if enc is not None and enc.area == fast and not is_constant(value):
                    placement[value] = arena
        return placement or None

    def _block(self, op: Operation, desc: NpuOpDesc, perf, ctx: PassContext) -> BlockConfig | None:
        if desc.block_type is None:
            return None
        given = op.attr(BLOCK_ATTR)
        if isinstance(given, BlockAttr):
            block = check_block_config(desc, perf.accel, given.ofm_block, given.is_partkernel)
            if block is None:
                ctx.error(f"block configuration {given} does not fit this op on {perf.accel.name}", op)
            return block
        block = select_block_config(desc, perf.accel)
        if block is None:
            ctx.error(f"no block configuration of {perf.accel.name} fits this op ({report_name(op)})", op)
        return block

    def _encoder(self, op: Operation, desc: NpuOpDesc, perf, block: BlockConfig, ctx: PassContext):
        """The weight-stream sizer of ``op``: the codec model on the weight values, or raw sizes
        when encoding is off or the values are not in the IR (a remark says so)."""
        hwio = op_weights_hwio(op) if self.encode_weights else None
        weights = desc.weights
        assert weights is not None and desc.block_type is not None
        if hwio is None:
            raw = weights.raw_elements
            if self.encode_weights:
                ctx.remark(f"the weight values of '{report_name(op)}' are not in the IR (an elided constant, "
                           f"e.g. printed with --elide-large-constants); its weight stream is sized raw "
                           f"({raw} weights, uncompressed) instead of by the codec model", op)
                ctx.stat("raw-weights")

            def raw_size(slices: tuple[int, ...]) -> EncodedWeights:
                return _raw_encoding(raw, desc.ofm.shape.depth, slices, perf.accel.cores)
            return raw_size
        return WeightStreams.of(op, ctx.analyses).encoder(op, hwio, perf, desc, block)


def _raw_encoding(raw: int, depth: int, slices: tuple[int, ...], cores: int) -> EncodedWeights:
    """Stream sizes when weights are taken uncompressed: raw bytes per channel plus scale records,
    each range padded to 16 bytes."""
    from npu_opt.dialects.npu.perf.shape import round_up
    from npu_opt.dialects.npu.perf.weight_size import SCALE_RECORD_BYTES, WeightRange

    per_channel = raw / depth
    ranges = []
    total = 0
    buffers = [0, 0]
    for index, (d0, d1) in enumerate(zip(slices, slices[1:])):
        start = total
        for core in range(min(cores, d1 - d0)):
            channels = len(range(d0 + core, d1, cores))
            weight_bytes = round_up(int(round(per_channel * channels)), 16)
            ranges.append(WeightRange(core, d0, SCALE_RECORD_BYTES * channels, weight_bytes))
            total += round_up(SCALE_RECORD_BYTES * channels, 16) + weight_bytes
        buffers[index % 2] = max(buffers[index % 2], total - start)
    return EncodedWeights(tuple(slices), tuple(ranges), total, (buffers[0], buffers[1]))


register_pipeline("estimate",
                  "npu-legalize,npu-order,npu-format-nhcwb16,npu-place-tensors,npu-select-block-config,npu-estimate",
                  "legalise TFL ops to npu ops, order them as Vela runs them, choose formats and memory areas, "
                  "choose block configs and estimate cycles, MACs and traffic")

__all__ = ["Estimate", "SelectBlockConfig"]
