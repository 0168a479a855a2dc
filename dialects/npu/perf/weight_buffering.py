"""Which weights to stream into fast storage, and how to slice them: Vela's default policy.

When weights live in slow permanent storage (flash, DRAM) and the fast storage is elsewhere, Vela
copies them into an SRAM buffer by DMA instead of letting the NPU read them in place (Vela 5.2.0
``Scheduler.propose_weight_buffering``, non-cascaded case). Its policy, reproduced here so that a
scheduler (and the fidelity benchmark) can cost ops the way Vela does:

* vector products (fully connected) never stream; neither do ops whose weights need no DMA;
* if the whole transfer fits under the previous op's compute ("slack"), one buffer holds all of
  it, prefetched under the previous op;
* otherwise the OFM depth is cut: a first slice sized to what the slack covers (a multiple of 16,
  at least 16), then slices sized so that each slice's transfer takes about as long as computing
  the first slice (rounded to the OFM block depth), double-buffered;
* the op's own slack for the next op is its compute cycles, or those of its last slice if sliced.

``propose_weight_buffering`` is pure: the encoder and the compute-cycle estimate are passed in.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Callable

from npu_opt.dialects.npu.accelerators import OFM_SPLIT_DEPTH
from npu_opt.dialects.npu.perf.arch import PerfTarget
from npu_opt.dialects.npu.perf.block_config import BlockConfig
from npu_opt.dialects.npu.perf.dma import WeightStreaming
from npu_opt.dialects.npu.perf.estimate import op_compute_cycles
from npu_opt.dialects.npu.perf.memory import mem2mem_cycles
from npu_opt.dialects.npu.perf.op_desc import NpuOpDesc, OpKind
from npu_opt.dialects.npu.perf.weight_size import EncodedWeights

Encoder = Callable[[tuple[int, ...]], EncodedWeights]
"""Encodes the op's weights for the given OFM depth slices (weight_size.encode_weights)."""


@dataclass(frozen=True)
class BufferingDecision:
    """The outcome for one op: the weight stream used, how it is DMA'd, the op's own slack."""

    encoded: EncodedWeights
    streaming: WeightStreaming | None
    """None: the NPU reads the weights from permanent storage."""
    slack_cycles: float
    """Cycles of this op under which the next op's DMA can run."""
    desc: NpuOpDesc
    """The op description with its weights where the NPU reads them and at the encoded size."""


def weights_need_dma(perf: PerfTarget, weights_memory: str) -> bool:
    """Weights in flash or DRAM, with a fast storage elsewhere, are worth copying."""
    return weights_memory in ("Dram", "OffChipFlash") and perf.permanent_storage != perf.fast_storage


def _round_down(value: float, multiple: int) -> float:
    return (value // multiple) * multiple


def _round_up(value: float, multiple: int) -> float:
    return ((value + multiple - 1) // multiple) * multiple


def propose_weight_buffering(perf: PerfTarget, desc: NpuOpDesc, block: BlockConfig, encode: Encoder,
                             prev_slack: float, buffer_limit: float = math.inf,
                             cascaded: bool = False) -> BufferingDecision:
    """Vela's weight-buffering choice for ``desc`` (whose weights are in permanent storage) run
    with ``block`` after an op that leaves ``prev_slack`` cycles; ``buffer_limit`` is the fast
    storage free for buffers (bytes), ``cascaded`` whether the op is inside a cascade (then one
    full-depth buffer, and Vela charges no full-transfer time)."""
    weights = desc.weights
    if weights is None:
        raise ValueError("propose_weight_buffering needs an op with weights")
    depth = desc.ofm.shape.depth
    full = encode((0, depth))
    fast = replace(desc, weights=replace(weights, memory=perf.fast_storage, buffered=True))
    own = float(op_compute_cycles(perf, fast, block))

    def in_place(encoded: EncodedWeights) -> BufferingDecision:
        placed = replace(desc, weights=replace(weights, encoded_bytes=encoded.total_bytes, buffered=False))
        return BufferingDecision(encoded, None, own, placed)

    if desc.kind is OpKind.VECTOR_PRODUCT or not weights_need_dma(perf, weights.memory):
        return in_place(full)
    encoded = full
    slack = own
    full_transfer = 0.0
    if not cascaded:
        full_transfer = mem2mem_cycles(perf, weights.memory, perf.fast_storage, full.total_bytes)
        half_limit = buffer_limit // 2
        if full_transfer > prev_slack:
            prebuffer_bytes = min(prev_slack / full_transfer * full.total_bytes, half_limit)
        else:
            prebuffer_bytes = min(full.total_bytes, half_limit)
        if prebuffer_bytes < full.total_bytes:
            block_depth = block.ofm_block.depth
            prebuffer_depth = int(max(OFM_SPLIT_DEPTH, _round_down(depth * (prebuffer_bytes / full.total_bytes),
                                                                   OFM_SPLIT_DEPTH)))
            pre_cycles = op_compute_cycles(perf, fast.with_ofm_depth(prebuffer_depth), block)
            buffering_depth = _round_up(depth * (pre_cycles / full_transfer), block_depth)
            if (buffering_depth / depth) * full.total_bytes > half_limit:
                buffering_depth = (half_limit / full.total_bytes) * depth
            while True:
                if buffering_depth > block_depth:
                    buffering_depth = _round_down(buffering_depth, block_depth)
                else:
                    buffering_depth = _round_down(buffering_depth, OFM_SPLIT_DEPTH)
                buffering_depth = int(max(buffering_depth, OFM_SPLIT_DEPTH))
                slices = [0]
                if prebuffer_depth < depth:
                    slices += list(range(prebuffer_depth, depth, buffering_depth))
                slices.append(depth)
                encoded = encode(tuple(slices))
                if encoded.double_buffer_size <= buffer_limit or prebuffer_depth == OFM_SPLIT_DEPTH:
                    break
                if buffering_depth > prebuffer_depth:
                    buffering_depth = int(_round_up(buffering_depth // 2, OFM_SPLIT_DEPTH))
                else:
                    prebuffer_depth = int(_round_up(prebuffer_depth // 2, OFM_SPLIT_DEPTH))
            tail = encoded.depth_slices[-1] - encoded.depth_slices[-2]
            slack = float(op_compute_cycles(perf, fast.with_ofm_depth(tail), block))
    buffer_size = min(encoded.total_bytes, encoded.max_range_bytes)
    if buffer_size > buffer_limit:
        return in_place(full)
    double = encoded.double_buffer_size <= buffer_limit and buffer_size < encoded.total_bytes
    streaming = WeightStreaming(weights.memory, perf.fast_storage, encoded.total_bytes,
                                full.total_bytes if not cascaded else 0, encoded.first_slice_bytes, double, slack)
    placed = replace(fast, weights=replace(fast.weights, encoded_bytes=encoded.total_bytes))  # type: ignore[arg-type]
    return BufferingDecision(encoded, streaming, slack, placed)


__all__ = ["BufferingDecision", "Encoder", "propose_weight_buffering", "weights_need_dma"]
