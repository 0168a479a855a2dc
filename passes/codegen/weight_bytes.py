"""An op's encoded weight buffer as the scheduled IR reads it: the depth slicing of its weight
stream (``npu.stream``; whole depth without one), each (slice, core) range's scale records and
compressed weights, in Vela's layout (docs/codegen_design.md, The read-only data)."""
from __future__ import annotations

from dataclasses import dataclass

from npu_opt.dialects.ethosu.attrs import StreamAttr as EthosuStream
from npu_opt.dialects.npu.perf.ir_adapter import describe_op, op_weights_hwio, weights_source
from npu_opt.dialects.npu.perf.ir_attrs import op_block_config
from npu_opt.dialects.npu.perf.weight_dma import weight_dma
from npu_opt.dialects.npu.schedule_attrs import STREAM_ATTR, StreamAttr
from npu_opt.hardware.codec.weight_buffer import RangeBytes, stream_ranges, weight_buffer
from npu_opt.hardware.codec.weight_size import WeightEncoder
from npu_opt.hardware.perf.shape import round_up
from npu_opt.hardware.target import Target
from npu_opt.interpreters.npu.scale_records import op_scale_bias
from npu_opt.ir.analysis import Analysis, AnalysisManager
from npu_opt.ir.core import Operation


class LoweringError(Exception):
    """Something the lowering cannot express or does not handle yet, located at ``op``."""

    def __init__(self, op: Operation, message: str) -> None:
        super().__init__(f"'{op.name}': {message}")
        self.op = op


@dataclass(frozen=True)
class WeightBuffer:
    """An op's weight buffer: its depth slices' bounds and per slice the ranges of its cores."""

    slices: tuple[int, ...]
    ranges: tuple[RangeBytes, ...]
    part_kernel: bool
    """The weights are encoded part-kernel first (the traversal the NPU is told)."""

    @staticmethod
    def range_bytes(part: RangeBytes) -> int:
        """A range's bytes in the buffer: its records padded to 16, then its weights."""
        return round_up(len(part.scales), 16) + len(part.weights)

    @property
    def by_slice(self) -> list[list[RangeBytes]]:
        """The ranges of each depth slice (one per core that computes part of it), slice by slice."""
        grouped: list[list[RangeBytes]] = []
        for part in self.ranges:
            if grouped and grouped[-1][0].depth_offset == part.depth_offset:
                grouped[-1].append(part)
            else:
                grouped.append([part])
        return grouped

    @property
    def data(self) -> bytes:
        """The buffer's bytes, range after range."""
        return weight_buffer(list(self.ranges))


def weight_stream_of(op: Operation) -> StreamAttr | None:
    """The ``npu.stream`` of the DMA copying ``op``'s weights, if they are copied."""
    dma = weight_dma(op)
    stream = dma.attr(STREAM_ATTR) if dma is not None else None
    return stream if isinstance(stream, StreamAttr) else None


def weight_buffer_of(op: Operation, target: Target) -> WeightBuffer | None:
    """``op``'s encoded weight buffer on ``target``, None for an op without weights."""
    if weights_source(op) is None:
        return None
    desc = describe_op(op, target)
    if desc is None or desc.block_type is None:
        return None
    block = op_block_config(op, desc, target.accelerator)
    if block is None:
        raise LoweringError(op, "its npu.block does not fit the accelerator, so its weights cannot be encoded")
    hwio = op_weights_hwio(op)
    if hwio is None:
        raise LoweringError(op, "its weights are not constant values, so they cannot be encoded")
    dilation = (desc.kernel.dilation_x, desc.kernel.dilation_y)
    encoder = WeightEncoder(hwio, target.accelerator, desc.block_type, desc.ifm.bits, block.ofm_block.depth,
                            dilation)
    stream = weight_stream_of(op)
    slices = tuple(stream.slices) if stream is not None else None
    bias, multipliers, shifts = op_scale_bias(op)
    ranges = stream_ranges(encoder, bias, multipliers, shifts, slices)
    return WeightBuffer(encoder.checked(slices), tuple(ranges), encoder.part_kernel)


def core_streams(region: int, address: int, ranges: list[RangeBytes], cores: int) -> dict[str, EthosuStream]:
    """The ``scales`` and ``weights`` streams of one depth slice whose per-core ranges lie one after
    the other from ``address``; on two cores a core without a range reads nothing (length 0)."""
    found: dict[str, list[tuple[int, int]]] = {"scales": [], "weights": []}
    for part in ranges:
        records = round_up(len(part.scales), 16)
        found["scales"].append((address, records))
        found["weights"].append((address + records, len(part.weights)))
        address += WeightBuffer.range_bytes(part)
    streams = {}
    for name, pieces in found.items():
        (base, length), rest = pieces[0], pieces[1:]
        if cores == 2:
            base1, length1 = rest[0] if rest else (base, 0)
            streams[name] = EthosuStream.build(region=region, base=base, length=length, base1=base1, length1=length1)
        else:
            streams[name] = EthosuStream.build(region=region, base=base, length=length)
    return streams


class WeightBuffers(Analysis):
    """Each weighted op's encoded buffer, encoded once for the read-only layout, the lowering and
    the outlining of one compile (their passes change no weights, streams or blocks, and say so)."""

    def __init__(self, module: Operation, manager: AnalysisManager) -> None:
        super().__init__(module, manager)
        self._buffers: dict[Operation, WeightBuffer | None] = {}

    def of(self, op: Operation, target: Target) -> WeightBuffer | None:
        """``weight_buffer_of(op, target)``, encoded at the first request."""
        if op not in self._buffers:
            self._buffers[op] = weight_buffer_of(op, target)
        return self._buffers[op]


__all__ = ["LoweringError", "WeightBuffer", "WeightBuffers", "core_streams", "weight_buffer_of", "weight_stream_of"]
