"""Which weights to stream into fast storage, and in what OFM-depth slices: Vela's default policy,
so the scheduler and the fidelity bench cost ops as Vela does.

Design notes: docs/cost_model_design.md, section Weight buffering policy (weight_buffering)."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Iterator

from npu_opt.hardware.accelerators import OFM_SPLIT_DEPTH
from npu_opt.hardware.perf.arch import PerfTarget
from npu_opt.hardware.perf.block_config import BlockConfig
from npu_opt.hardware.perf.dma import WeightStreaming
from npu_opt.hardware.perf.estimate import op_compute_cycles
from npu_opt.hardware.perf.memory import mem2mem_cycles
from npu_opt.hardware.perf.op_desc import NpuOpDesc, OpKind, derived
from npu_opt.hardware.perf.shape import round_up
from npu_opt.hardware.codec.weight_size import EncodedWeights

Encoder = Callable[[tuple[int, ...]], EncodedWeights]
"""Encodes the op's weights for the given OFM depth slices (weight_size.encode_weights)."""

MIN_SLICE = OFM_SPLIT_DEPTH
"""The shallowest weight slice worth a DMA (16 OFM channels)."""


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
    needed_bytes: int = 0
    """When weights that need a DMA are read in place because no buffer fits the limit: the
    buffer the best slicing would have needed (bytes); else 0."""


def weights_need_dma(perf: PerfTarget, weights_memory: str) -> bool:
    """Weights in flash or DRAM, with a fast storage elsewhere, are worth copying."""
    return weights_memory in ("Dram", "OffChipFlash") and perf.permanent_storage != perf.fast_storage


def prefetch_bytes(full_bytes: int, full_transfer: float, prev_slack: float, half_limit: float) -> float:
    """Bytes copied under the previous op: the share of the transfer its slack hides (all of it
    when the slack is long enough), at most half the buffer space."""
    hidden = full_bytes if full_transfer <= prev_slack else prev_slack / full_transfer * full_bytes
    return min(hidden, half_limit)


def _whole_channels(estimate: float, multiple: int) -> int:
    """``estimate`` channels cut down to a multiple of ``multiple`` (a fractional channel never counts)."""
    return math.floor(estimate) // multiple * multiple


def slice_unit(block_depth: int) -> int:
    """The depth a slice is a whole number of when it spans more than one OFM block: whole
    blocks, and whole 16-channel units as every slice boundary must be (the block depth itself
    for the usual blocks, a multiple of 16; 16 for the 4- and 8-deep blocks small NPUs allow)."""
    return math.lcm(block_depth, MIN_SLICE)


def snap_slice_depth(estimate: float, block_depth: int) -> int:
    """A slice depth near ``estimate``: whole units of ``slice_unit`` (whole blocks of 16-channel
    multiples) when deeper than one such unit, else whole 16-channel units; never below 16."""
    unit = slice_unit(block_depth)
    return max(_whole_channels(estimate, unit if estimate > unit else MIN_SLICE), MIN_SLICE)


def _halved(depth: int) -> int:
    """Half of ``depth``, rounded up to whole 16-channel units."""
    return round_up(depth // 2, MIN_SLICE)


def slicings(first: int, steady_estimate: float, block_depth: int) -> Iterator[tuple[int, int]]:
    """Candidate (first slice, following slice) depths, most ambitious first: each step halves
    the deeper of the two; the last candidate has a 16-deep first slice."""
    steady = steady_estimate
    while True:
        steady = snap_slice_depth(steady, block_depth)
        yield first, steady
        if first == MIN_SLICE:
            return
        if steady > first:
            steady = _halved(steady)
        else:
            first = _halved(first)


def depth_boundaries(depth: int, first: int, steady: int) -> tuple[int, ...]:
    """Slice boundaries of an OFM ``depth`` deep: 0, then ``first``, then every ``steady``."""
    return (0,) + tuple(range(first, depth, steady)) + (depth,)


def buffered_cycles(perf: PerfTarget, desc: NpuOpDesc, block: BlockConfig) -> Callable[[int], float]:
    """Compute cycles of ``desc`` (weights at their full-depth encoded size) producing only its
    first ``depth`` OFM channels with the weights in a fast-storage buffer: what a depth slice
    computes in, and so the slack an op leaves the next one (its last slice's cycles)."""
    weights = desc.weights
    assert weights is not None
    fast = derived(desc, weights=derived(weights, memory=perf.fast_storage, buffered=True))

    def cycles_for(ofm_depth: int) -> float:
        return float(op_compute_cycles(perf, fast.with_ofm_depth(ofm_depth), block))
    return cycles_for


def streamed(perf: PerfTarget, desc: NpuOpDesc, block: BlockConfig, encode: Encoder, source: str,
             slices: tuple[int, ...], double: bool, stream_bytes: int, cascaded: bool = False
             ) -> tuple[WeightStreaming, float]:
    """The DMA of weights already decided (``slices``, ``double``, ``stream_bytes`` as the IR
    says, copied from ``source``), as the cost model charges it, and the slack the op leaves the
    next one: the compute of its last slice. ``desc`` has its weights at the full-depth size."""
    full = encode((0, desc.ofm.shape.depth))
    encoded = full if tuple(slices) == full.depth_slices else encode(tuple(slices))
    tail = buffered_cycles(perf, desc, block)(slices[-1] - slices[-2])
    streaming = WeightStreaming(source, perf.fast_storage, stream_bytes, 0 if cascaded else full.total_bytes,
                                encoded.first_slice_bytes, double, tail)
    return streaming, tail


def propose_weight_buffering(perf: PerfTarget, desc: NpuOpDesc, block: BlockConfig, encode: Encoder,
                             prev_slack: float, buffer_limit: float = math.inf,
                             cascaded: bool = False) -> BufferingDecision:
    """The weight-buffering choice for ``desc`` (whose weights are in permanent storage) run with
    ``block`` after an op that leaves ``prev_slack`` cycles; ``buffer_limit`` is the fast storage
    free for buffers (bytes), ``cascaded`` whether the op is inside a cascade (then one full-depth
    buffer, and no full-transfer time is charged)."""
    weights = desc.weights
    if weights is None:
        raise ValueError("propose_weight_buffering needs an op with weights")
    depth = desc.ofm.shape.depth
    full = encode((0, depth))
    fast = derived(desc, weights=derived(weights, memory=perf.fast_storage, buffered=True))
    cycles_for = buffered_cycles(perf, desc, block)
    own = cycles_for(depth)
    if desc.kind is OpKind.VECTOR_PRODUCT or not weights_need_dma(perf, weights.memory):
        in_place = derived(desc, weights=derived(weights, encoded_bytes=full.total_bytes, buffered=False))
        return BufferingDecision(full, None, own, in_place)

    encoded, slack, full_transfer = full, own, 0.0
    if not cascaded:
        full_transfer = mem2mem_cycles(perf, weights.memory, perf.fast_storage, full.total_bytes)
        half_limit = buffer_limit // 2
        prefetched = prefetch_bytes(full.total_bytes, full_transfer, prev_slack, half_limit)
        if prefetched < full.total_bytes:
            encoded = _sliced(depth, block.ofm_block.depth, prefetched / full.total_bytes, full.total_bytes,
                              full_transfer, half_limit, buffer_limit, cycles_for, encode)
            slack = cycles_for(encoded.depth_slices[-1] - encoded.depth_slices[-2])

    buffer_size = min(encoded.total_bytes, encoded.max_range_bytes)
    if buffer_size > buffer_limit:
        in_place = derived(desc, weights=derived(weights, encoded_bytes=full.total_bytes, buffered=False))
        # the slack stays the slicing's tail: Vela keeps the cycles of the slicing it tried
        return BufferingDecision(full, None, slack, in_place, buffer_size)
    double = encoded.double_buffer_size <= buffer_limit and buffer_size < encoded.total_bytes
    streaming = WeightStreaming(weights.memory, perf.fast_storage, encoded.total_bytes,
                                0 if cascaded else full.total_bytes, encoded.first_slice_bytes, double, slack)
    placed = derived(fast, weights=derived(fast.weights, encoded_bytes=encoded.total_bytes))  # type: ignore[arg-type]
    return BufferingDecision(encoded, streaming, slack, placed)


def _sliced(depth: int, block_depth: int, prefetch_share: float, full_bytes: int, full_transfer: float,
            half_limit: float, buffer_limit: float, cycles_for: Callable[[int], float],
            encode: Encoder) -> EncodedWeights:
    """The weights encoded in depth slices: the first covers ``prefetch_share`` of the depth; the
    following ones copy in about the time the first computes, as deep as half the buffer space
    allows; the first candidate slicing whose two buffers fit ``buffer_limit`` (else the last)."""
    first = max(MIN_SLICE, _whole_channels(depth * prefetch_share, MIN_SLICE))
    steady = round_up(math.floor(depth * (cycles_for(first) / full_transfer)), slice_unit(block_depth))
    if (steady / depth) * full_bytes > half_limit:
        steady = (half_limit / full_bytes) * depth
    encoded = None
    for first_depth, steady_depth in slicings(first, steady, block_depth):
        encoded = encode(depth_boundaries(depth, first_depth, steady_depth))
        if encoded.double_buffer_size <= buffer_limit:
            break
    assert encoded is not None
    return encoded


__all__ = ["BufferingDecision", "Encoder", "buffered_cycles", "depth_boundaries", "prefetch_bytes", "propose_weight_buffering",
           "slice_unit", "slicings", "snap_slice_depth", "streamed", "weights_need_dma"]
