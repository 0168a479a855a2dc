"""Weight DMAs in the IR, as the scheduling passes write them and the estimate reads them: the
queries npu-insert-dma, npu-buffer-weights and npu-estimate share.

Design notes: docs/cost_model_design.md, section Weight DMAs (weight_dma)."""
from __future__ import annotations

from typing import Callable

from npu_opt.dialects.npu.ops_common import NpuComputeOp, encoding_of, feature_map, is_constant
from npu_opt.dialects.npu.ops_memory import DmaOp
from npu_opt.hardware.perf.arch import PerfTarget
from npu_opt.hardware.perf.block_config import BlockConfig
from npu_opt.dialects.npu.perf.ir_adapter import op_weights_hwio
from npu_opt.hardware.perf.op_desc import NpuOpDesc
from npu_opt.hardware.perf.shape import round_up
from npu_opt.hardware.codec.weight_size import SCALE_RECORD_BYTES, EncodedWeights, WeightRange
from npu_opt.dialects.npu.perf.weight_streams import WeightStreams
from npu_opt.dialects.npu.schedule_attrs import STREAM_ATTR, UNHIDDEN_ATTR, StreamAttr
from npu_opt.ir.analysis import AnalysisManager
from npu_opt.ir.core import Operation, Value

Encoder = Callable[[tuple[int, ...]], EncodedWeights]
"""Encodes an op's weights for the given OFM depth slices."""


def weights_of(op: Operation) -> Value | None:
    """The value ``op`` reads as its weights (a constant, or a weight DMA's copy), if any."""
    weights = getattr(op, "weights", None) if isinstance(op, NpuComputeOp) else None
    return weights if isinstance(weights, Value) else None


def weight_dma(op: Operation) -> DmaOp | None:
    """The ``npu.dma`` copying a constant that ``op`` reads as its weights, if there is one."""
    weights = weights_of(op)
    producer = getattr(weights, "op", None)
    if isinstance(producer, DmaOp) and is_constant(producer.operands[0]):
        return producer
    return None


def is_weight_dma(op: Operation) -> bool:
    """An ``npu.dma`` of a constant whose every reader takes it as its weights: its cost is
    part of those ops' cost, not an op of its own."""
    if not isinstance(op, DmaOp) or not is_constant(op.operands[0]):
        return False
    users = op.results[0].users()
    return bool(users) and all(weights_of(user) is op.results[0] for user in users)


def is_prefetched(dma: Operation) -> bool:
    """True if ``dma``'s stream is prefetched under the op before its reader: npu-buffer-weights
    chose it (``npu.stream``) and npu-allocate did not drop it (``npu.unhidden``)."""
    stream = dma.attr(STREAM_ATTR)
    return isinstance(stream, StreamAttr) and stream.prefetch and dma.attr(UNHIDDEN_ATTR) is None


def weight_source(op: Operation) -> Value | None:
    """The constant behind ``op``'s weights (through its weight DMA)."""
    dma = weight_dma(op)
    return dma.operands[0] if dma is not None else weights_of(op)


def source_area(dma: DmaOp, target: object) -> str:
    """The memory area the weight DMA copies from (the constant's permanent storage)."""
    return feature_map(dma.operands[0], target).area


def arena_placement(ops: list[Operation], target) -> dict[Value, str] | None:
    """With a separate fast storage: the arena as the area of every feature map placed in fast
    storage (Vela takes its scheduling decisions before it moves them there, and npu-estimate
    chains the DMA slack as those decisions saw it); else None. Weight copies stay where their
    DMA puts them."""
    if not target.is_spilling_enabled:
        return None
    fast, arena = target.fast_storage_area, target.feature_map_storage_area
    placement: dict[Value, str] = {}
    weight_dmas: dict[Operation | None, bool] = {}  # (each op asked once: values share producers)
    for op in ops:
        if weight_dmas.setdefault(op, is_weight_dma(op)):
            continue
        for value in [*op.operands, *op.results]:
            enc = encoding_of(value)
            if enc is None or enc.area != fast or is_constant(value):
                continue
            producer = getattr(value, "op", None)
            dma = weight_dmas.get(producer)
            if dma is None:
                dma = weight_dmas[producer] = is_weight_dma(producer)
            if not dma:
                placement[value] = arena
    return placement or None


def raw_encoding(raw: int, depth: int, slices: tuple[int, ...], cores: int) -> EncodedWeights:
    """Stream sizes when weights are taken uncompressed: raw bytes per channel plus scale
    records, each core's range padded to 16 bytes."""
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


def weight_encoder(op: Operation, desc: NpuOpDesc, perf: PerfTarget, block: BlockConfig,
                   analyses: AnalysisManager, encode_weights: bool = True) -> tuple[Encoder, bool]:
    """The sizer of ``op``'s weight streams and whether it sizes them raw: the codec model on
    the weight values (shared per module by ``WeightStreams``), or raw sizes when
    ``encode_weights`` is off or the values are not in the IR (an elided constant)."""
    if encode_weights:
        cached = WeightStreams.of(op, analyses).cached_encoder(op, perf, desc, block)
        if cached is not None:  # made for these weights and block: no need to read the values again
            return cached, False
    hwio = op_weights_hwio(op) if encode_weights else None
    weights = desc.weights
    assert weights is not None and desc.block_type is not None
    if hwio is None:
        raw, depth, cores = weights.raw_elements, desc.ofm.shape.depth, perf.accel.cores

        def raw_size(slices: tuple[int, ...]) -> EncodedWeights:
            return raw_encoding(raw, depth, slices, cores)
        return raw_size, True
    return WeightStreams.of(op, analyses).encoder(op, hwio, perf, desc, block), False


__all__ = ["Encoder", "arena_placement", "is_prefetched", "is_weight_dma", "raw_encoding", "source_area", "weight_dma", "weight_encoder", "weight_source",
           "weights_of"]
