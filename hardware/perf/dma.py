"""DMA terms of an op's NPU cycles: LUT loads, memory copies and weight streaming, costed by the
cycles they cannot hide under the previous op's compute.

Design notes: docs/cost_model_design.md, section DMA cycles (dma)."""
from __future__ import annotations

from dataclasses import dataclass

from npu_opt.hardware.perf.arch import PerfTarget
from npu_opt.hardware.perf.memory import mem2mem_cycles
from npu_opt.hardware.perf.op_desc import SHRAM, NpuOpDesc, OpKind


@dataclass(frozen=True)
class WeightStreaming:
    """How an op's weights are DMA'd into fast storage.

    ``stream_bytes`` is the encoded stream as sliced (all slices: what the DMAs move);
    ``full_transfer_bytes`` the full-depth encoding Vela times the whole transfer with (0 for an
    op inside a cascade: Vela charges cascaded ops no full transfer); ``first_bytes`` the first
    depth slice (every core's range rounded up to 16 bytes); ``tail_cycles`` the compute cycles of
    the last slice.
    """

    source: str
    destination: str
    stream_bytes: int
    full_transfer_bytes: int
    first_bytes: int
    double_buffered: bool = False
    tail_cycles: float = 0.0


def lut_dma_cycles(perf: PerfTarget, desc: NpuOpDesc) -> float:
    """Cycles to load the op's LUT into SHRAM (0 without one)."""
    if desc.lut_bytes <= 0:
        return 0.0
    return mem2mem_cycles(perf, desc.lut_memory, SHRAM, desc.lut_bytes)


def memcpy_cycles(perf: PerfTarget, desc: NpuOpDesc) -> float:
    """Cycles of a DMA op copying its IFM to its OFM (0 within one memory, as in Vela)."""
    if desc.kind is not OpKind.DMA or desc.ifm.memory == desc.ofm.memory:
        return 0.0
    return mem2mem_cycles(perf, desc.ifm.memory, desc.ofm.memory, desc.ifm.storage_bytes())


def weight_transfer_cycles(perf: PerfTarget, streaming: WeightStreaming) -> tuple[float, float]:
    """(first slice, full) transfer cycles of streamed weights."""
    first = mem2mem_cycles(perf, streaming.source, streaming.destination, streaming.first_bytes)
    full = 0.0
    if streaming.full_transfer_bytes:
        full = mem2mem_cycles(perf, streaming.source, streaming.destination, streaming.full_transfer_bytes)
    return first, full


def npu_cycles_with_dma(perf: PerfTarget, desc: NpuOpDesc, compute: float, streaming: WeightStreaming | None,
                        prev_slack: float) -> tuple[float, float]:
    """(NPU cycles, DMA cycles) of an op with ``compute`` cycles, after a previous op that left
    ``prev_slack`` cycles for DMA to hide under."""
    dma = lut_dma_cycles(perf, desc) + memcpy_cycles(perf, desc)
    if streaming is None:
        return compute + max(dma - prev_slack, 0.0), dma
    first, full = weight_transfer_cycles(perf, streaming)
    if streaming.double_buffered:
        npu = max(full - prev_slack + streaming.tail_cycles, compute + max(first - prev_slack, 0.0))
    else:
        npu = compute + full - min(first, prev_slack)
    return npu + dma, dma + max(first, full)


__all__ = ["WeightStreaming", "lut_dma_cycles", "memcpy_cycles", "npu_cycles_with_dma", "weight_transfer_cycles"]
