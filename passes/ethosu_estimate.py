"""``ethosu-estimate``: the cycles, MACs and traffic of compiled command streams (ours or Vela's,
``tfl.ethos_u`` ops holding ``ethosu.program``s) in our performance model, written as npu-estimate
writes them (``npu.cost`` per scheduled op, ``npu.cost_totals`` on the module), so --summary and
--summary-csv report any compiled model. Design notes: docs/command_stream_costing.md."""
from __future__ import annotations

from npu_opt.dialects.ethosu.cost_desc import (
    CostedOp, accelerator_name, block_config, describe, dma_desc, encoded_weight_bytes, group_parts, region_area,
)
from npu_opt.dialects.ethosu.ops_stream import DmaOp, ProgramOp
from npu_opt.dialects.npu.perf.ir_attrs import COST_ATTR, TOTALS_ATTR, CostAttr
from npu_opt.dialects.npu.target_attr import TARGET_ATTR, TargetAttr, target_of
from npu_opt.dialects.tfl.ops_ethosu import EthosUOp
from npu_opt.dialects.tfl.tflite.ethosu_ir import blob_bytes, payload_bytes
from npu_opt.hardware.accelerators import accelerator
from npu_opt.hardware.perf.arch import PerfTarget, perf_target
from npu_opt.hardware.perf.dma import WeightStreaming
from npu_opt.hardware.perf.estimate import estimate_op, op_compute_cycles
from npu_opt.hardware.perf.op_desc import MEMORY_AREAS, NpuOpDesc, derived
from npu_opt.hardware.perf.shape import round_up
from npu_opt.hardware.perf.weight_buffering import buffered_cycles
from npu_opt.hardware.target import Target, resolve_target
from npu_opt.ir.core import Operation
from npu_opt.ir.pass_manager import PassContext
from npu_opt.ir.pass_registry import Pass, option, register_pass


@register_pass("ethosu-estimate", statistics={
    "programs": "command streams costed",
    "ops": "scheduled ops costed (their stripes and depth slices together)",
    "parts": "NPU operations of the streams",
    "streamed": "ops whose weights are DMA'd before they run",
})
class EthosuEstimate(Pass):
    """Estimate each command stream's scheduled ops with the performance model (npu.cost) and the
    module totals (npu.cost_totals), from the registers alone: the kind, feature maps, kernel,
    block config, weight streams and DMAs of each NPU operation, its stripes and depth slices
    costed as the one op they are. The target is the module's npu.target (the command-line
    flags), else the accelerator each operator's CONFIG word names with Vela's default system
    config and memory mode."""

    chain_slack: bool = option(True, "let an op's DMAs hide under the previous op's compute, as npu-estimate does "
                                     "(false: every DMA costs its full time)")

    def run(self, module: Operation, ctx: PassContext) -> None:
        given = target_of(module, required=False)
        programs = [op for op in module.walk() if isinstance(op, ProgramOp)]
        if given is None:
            given = self._target_of_streams(module, programs, ctx)
        totals: list[CostAttr] = []
        for program in programs:
            target = self._target(program, given, ctx)
            if target is None:
                continue
            self._estimate_program(program, target, totals, ctx)
            ctx.stat("programs")
        summed = CostAttr.summed(totals)
        compiled = [op for op in module.walk() if isinstance(op, EthosUOp)]
        if compiled and given is not None:
            summed = summed.replaced(stored=_constants_stored(compiled, given))
        ctx.rewriter.set_attr(module, TOTALS_ATTR, summed)

    @staticmethod
    def _target_of_streams(module: Operation, programs: list[ProgramOp], ctx: PassContext) -> Target | None:
        """When every operator's CONFIG word names one accelerator: the module's npu.target set to
        it on Vela's defaults (the reports read the clock and memories there); else None."""
        words = {int(owner.attr("npu_config").value) for p in programs
                 if (owner := p.parent_op()) is not None and owner.attr("npu_config") is not None}
        try:
            names = {accelerator_name(word) for word in words}
        except ValueError:
            return None  # (each operator's error comes with its own target)
        if len(names) != 1:
            return None
        ctx.rewriter.set_attr(module, TARGET_ATTR, TargetAttr.get(names.pop()))
        return target_of(module)

    @staticmethod
    def _target(program: ProgramOp, given: Target | None, ctx: PassContext) -> Target | None:
        """The target of ``program``: the module's when given (it must be the accelerator the
        operator's CONFIG word names), else the CONFIG word's accelerator on Vela's defaults."""
        owner = program.parent_op()
        config = owner.attr("npu_config") if owner is not None else None
        named = None
        if config is not None:
            try:
                named = accelerator_name(int(config.value))
            except ValueError as err:
                ctx.error(str(err), owner)
                return None
        if given is not None:
            if named is not None and accelerator(named).name != given.accelerator.name:
                ctx.error(f"the operator's CONFIG word names {named}, but the target is "
                          f"{given.accelerator.name}: cost it on {named} (--target={named})", owner)
                return None
            return given
        if named is None:
            ctx.error("no target: the stream's operator has no CONFIG word and the module no npu.target "
                      "(give --target)", program)
            return None
        return resolve_target(named)

    def _estimate_program(self, program: ProgramOp, target: Target, totals: list[CostAttr],
                          ctx: PassContext) -> None:
        """Cost the program's scheduled ops in stream order, chaining the DMA slack; a remark
        says how its operations were grouped and what they cost."""
        perf = perf_target(target)
        slack, ops, parts, cycles = 0.0, 0, 0, 0.0
        for item in group_parts(program):
            if isinstance(item, DmaOp):
                cost = estimate_op(perf, dma_desc(item, target), None, None, slack if self.chain_slack else 0.0)
                anchor, slack = item, 0.0
                attr = CostAttr.of(cost)
            else:
                measured = self._estimate_op(item, target, perf, slack, ctx)
                if measured is None:
                    continue
                attr, slack = measured
                anchor = item.first
                ops, parts = ops + 1, parts + len(item.parts)
            ctx.rewriter.set_attr(anchor, COST_ATTR, attr)
            totals.append(attr)
            cycles += attr.cycle("total")
        ctx.stat("ops", ops)
        ctx.stat("parts", parts)
        ctx.remark(f"{_count(parts, 'NPU operation')} costed as {_count(ops, 'scheduled op')} on "
                   f"{target.accelerator.name}: {cycles:,.0f} cycles", program)

    def _estimate_op(self, costed: CostedOp, target: Target, perf: PerfTarget, prev_slack: float,
                     ctx: PassContext) -> tuple[CostAttr, float] | None:
        """The cost of one scheduled op and the slack it leaves the next; None (an error said why)
        when its block does not fit the cost model's SHRAM layout."""
        dmas = costed.weight_dmas
        desc = describe(costed, target)
        block = block_config(costed.first, desc, perf.accel)
        if block is None and desc.block_type is not None:
            size = "x".join(str(n) for n in costed.first.block.size)
            ctx.error(f"block {size} does not fit this operation's IFM and accumulators in "
                      f"{perf.accel.name}'s SHRAM as the cost model lays it out", costed.first)
            return None
        streaming = None
        planned = _as_planned(desc, target)
        if dmas and desc.weights is not None:
            ctx.stat("streamed")
            stream_bytes = sum(int(d.length) for d in dmas)
            destination = region_area(dmas[0].dst.region, target)
            desc = derived(desc, weights=derived(desc.weights, memory=destination, buffered=True,
                                                 encoded_bytes=stream_bytes))
            tail = buffered_cycles(perf, _as_planned(desc, target), block)(costed.parts[-1].op.ofm.depth)
            streaming = WeightStreaming(region_area(dmas[0].src.region, target), destination, stream_bytes,
                                        0 if costed.interleaved else stream_bytes, round_up(int(dmas[0].length), 16),
                                        len({d.dst.address for d in dmas}) > 1, tail)
            slack = tail
        elif desc.weights is not None:
            fast = derived(planned, weights=derived(desc.weights, memory=perf.fast_storage, buffered=True))
            slack = float(op_compute_cycles(perf, fast, block))
        else:
            slack = float(op_compute_cycles(perf, planned, block))
        cost = estimate_op(perf, desc, block, streaming, prev_slack if self.chain_slack else 0.0)
        stored = [0] * len(MEMORY_AREAS)
        if desc.weights is not None:
            source = region_area((dmas[0].src.region if dmas else costed.first.weights.region), target)
            stored[MEMORY_AREAS.index(source)] = sum(int(d.length) for d in dmas) if dmas else desc.weights.encoded_bytes
        encoded = encoded_weight_bytes(costed) if desc.weights is not None else 0
        raw = desc.weights.raw_elements if desc.weights is not None else 0
        return CostAttr.of(cost, encoded, tuple(stored), raw), slack


def _constants_stored(compiled: list[Operation], target: Target) -> tuple[int, ...]:
    """Per memory area, the bytes a compiled model keeps there for good: in its permanent
    storage each distinct read-only tensor and each operator's command-stream payload, every one
    rounded up to 16 bytes as Vela lays them out (what its summary counts as memory used)."""
    read_only = {id(attr): op for op in compiled if (attr := op.attr("read_only")) is not None}  # (shared once)
    total = sum(round_up(len(blob_bytes(op, "read_only")), 16) for op in read_only.values())
    total += sum(round_up(payload_bytes(op), 16) for op in compiled)
    return tuple(total if area == target.permanent_storage_area else 0 for area in MEMORY_AREAS)


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


def _as_planned(desc: NpuOpDesc, target: Target) -> NpuOpDesc:
    """``desc`` with its feature maps in fast storage moved back to the arena, where they were
    when the scheduler took its weight-buffering decisions (the DMA slack npu-estimate chains)."""
    if not target.is_spilling_enabled:
        return desc
    fast, arena = target.fast_storage_area, target.feature_map_storage_area
    changes = {name: derived(fm, memory=arena) for name in ("ifm", "ifm2", "ofm")
               if (fm := getattr(desc, name)) is not None and fm.memory == fast}
    return derived(desc, **changes) if changes else desc


__all__ = ["EthosuEstimate"]
