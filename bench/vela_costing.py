"""Cost a lowered graph (vela_graph.py) with our performance model, the way Vela schedules it.

Vela's Performance schedule for a memory mode with an unlimited arena cache (the benchmark's
configs A and B) runs every op on its whole OFM (no cascades, one block config per op) and
streams weights from slow permanent storage into SRAM with its default weight-buffering policy.
So per op, in pass order: the block config from the search, the weight stream from our encoder
model (weight_size.py), the buffering decision (weight_buffering.py) given the previous op's
slack, then ``estimate_op``. The decisions and the slack chain are made with the feature maps
where the scheduler sees them (the arena: DRAM with Dedicated_Sram), the final estimate with
them in fast storage, as Vela does.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from dialects.npu.perf import (
    BlockConfig, NpuOpDesc, OpCost, PerfTarget, TensorDesc, WeightsDesc, estimate_op, op_compute_cycles,
    select_block_config,
)
from dialects.npu.perf.weight_buffering import BufferingDecision, propose_weight_buffering
from dialects.npu.perf.weight_size import encode_weights, weights_digest

from bench.vela_graph import Tensor, VelaOp, assign_formats, assign_memory, pass_order
from bench.vela_lowering import LoweredGraph


@dataclass
class CostedOp:
    op: VelaOp
    desc: NpuOpDesc
    block: BlockConfig | None
    cost: OpCost
    buffering: BufferingDecision | None


def _tensor_desc(tensor: Tensor, shape, planned: bool) -> TensorDesc:
    return TensorDesc(shape, tensor.bits, tensor.format, tensor.planned_memory if planned else tensor.memory)


def describe(op: VelaOp, perf: PerfTarget, planned: bool = False) -> NpuOpDesc:
    """The cost-model description of ``op`` (weights in permanent storage, size not yet known);
    ``planned``: with the tensor placement the scheduler sees (vela_graph.assign_memory)."""
    weights = None
    if op.weights is not None:
        weights = WeightsDesc(max(1, op.weights.size), int(op.weights.size), perf.permanent_storage, False)
    return NpuOpDesc(
        op.kind, _tensor_desc(op.ifm, op.ifm_shape, planned), _tensor_desc(op.ofm, op.ofm_shape, planned),
        _tensor_desc(op.ifm2, op.ifm2_shape, planned) if op.ifm2 is not None else None, op.kernel, weights, op.activation,
        op.elementwise, lut_bytes=op.lut_bytes, lut_memory=perf.permanent_storage)


def schedule(graph: LoweredGraph, perf: PerfTarget) -> list[VelaOp]:
    """Order the ops, then decide formats and memory placement."""
    order = pass_order(graph.ops, graph.outputs, graph.groups)
    assign_formats(order)
    assign_memory(order, perf.feature_map_storage, perf.fast_storage, perf.permanent_storage)
    return order


def cost_graph(graph: LoweredGraph, perf: PerfTarget) -> list[CostedOp]:
    """Every op of ``graph`` costed in Vela's pass order, DMA slack chained from op to op."""
    results: list[CostedOp] = []
    prev_slack = 0.0
    for op in schedule(graph, perf):
        planned = describe(op, perf, planned=True)
        final = describe(op, perf)
        block = select_block_config(final, perf.accel)
        decision = None
        if op.weights is not None and block is not None:
            weights, digest = op.weights, weights_digest(op.weights)
            block_type = final.block_type

            def encode(slices: tuple[int, ...], weights=weights, digest=digest, block=block, block_type=block_type):
                return encode_weights(weights, perf.accel, block_type, op.ifm.bits, block.ofm_block.depth, slices,
                                      digest=digest)

            decision = propose_weight_buffering(perf, planned, block, encode, prev_slack)
            final = replace(final, weights=decision.desc.weights)
            cost = estimate_op(perf, final, block, decision.streaming, prev_slack)
            slack = decision.slack_cycles
        else:
            cost = estimate_op(perf, final, block, None, prev_slack)
            slack = float(op_compute_cycles(perf, planned, block))
        results.append(CostedOp(op, final, block, cost, decision))
        prev_slack = slack
    return results


__all__ = ["CostedOp", "cost_graph", "describe", "schedule"]
