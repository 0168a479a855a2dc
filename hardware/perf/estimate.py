"""The per-op estimate: ``estimate_op`` puts compute, traffic and DMA together into an ``OpCost``.

Vela 5.2.0 ``estimate_full_op_performance``: the NPU column is the compute cycles with the DMA
terms (dma.py); each memory's access cycles are its burst-adjusted bytes over its bandwidth
(access.py); the op's total is the largest of them all (compute and memory traffic are assumed to
overlap perfectly within an op; network totals are sums over ops).

``estimate_op`` is a pure function of hashable arguments, memoised with ``functools.lru_cache``:
the scheduler may ask for the same (op, stripe, block, placement) many times.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from npu_opt.hardware.perf.access import TrafficTally, operand_traffic
from npu_opt.hardware.perf.arch import PerfTarget
from npu_opt.hardware.perf.block_config import BlockConfig, select_block_config
from npu_opt.hardware.perf.compute import compute_cycles, hw_macs, nn_macs
from npu_opt.hardware.perf.dma import WeightStreaming, npu_cycles_with_dma
from npu_opt.hardware.perf.op_desc import MEMORY_AREAS, SHRAM, NpuOpDesc, OpKind

ACCESS_COLUMNS: tuple[str, ...] = ("sram", "dram", "on_chip_flash", "off_chip_flash")
"""Column names of the per-memory access cycles, in ``MEMORY_AREAS`` order."""


@dataclass(frozen=True)
class OpCost:
    """What one op costs. Cycle counts are NPU core cycles; per-memory tuples are in
    ``MEMORY_AREAS`` order (Sram, Dram, OnChipFlash, OffChipFlash)."""

    block: BlockConfig | None
    compute_cycles: int
    """DPU/output pipeline cycles (no DMA)."""
    dma_cycles: float
    """Cycles of the op's DMA transfers (LUT, memcpy, weight streaming), hidden or not."""
    npu_cycles: float
    """Compute plus the DMA cycles not hidden under the previous op (Vela's "NPU" column)."""
    access_cycles: tuple[float, ...]
    bytes_read: tuple[float, ...]
    bytes_written: tuple[float, ...]
    nn_macs: int
    hw_macs: int
    fm_read: tuple[float, ...] = (0.0,) * 4
    """Of ``bytes_read``, feature-map bytes (IFMs, feature-map copies) per memory."""
    fm_written: tuple[float, ...] = (0.0,) * 4
    weight_read: tuple[float, ...] = (0.0,) * 4
    """Of ``bytes_read``, compressed weights read by the NPU and weight streams read by DMA."""
    weight_written: tuple[float, ...] = (0.0,) * 4
    """Of ``bytes_written``, weight streams written by DMA into their buffers."""

    @property
    def total_cycles(self) -> float:
        """The op's cycles: the slowest of the NPU and every memory."""
        return max(self.npu_cycles, *self.access_cycles)

    @property
    def slack_cycles(self) -> float:
        """NPU cycles the next op's DMA can hide under (Vela uses the compute cycles)."""
        return float(self.compute_cycles)

    def access(self, area: str) -> float:
        """Access cycles of one memory area."""
        return self.access_cycles[MEMORY_AREAS.index(area)]

    def as_dict(self) -> dict[str, float | int | str]:
        """The report columns of this op (block as ``HxWxD``)."""
        row: dict[str, float | int | str] = {"block": str(self.block) if self.block else "",
                                             "npu_cycles": self.npu_cycles}
        for column, value in zip(ACCESS_COLUMNS, self.access_cycles):
            row[f"{column}_access_cycles"] = value
        row.update(total_cycles=self.total_cycles, nn_macs=self.nn_macs, hw_macs=self.hw_macs)
        return row


@lru_cache(maxsize=1 << 16)
def estimate_op(perf: PerfTarget, desc: NpuOpDesc, block: BlockConfig | None = None,
                streaming: WeightStreaming | None = None, prev_slack: float = 0.0) -> OpCost:
    """Cost ``desc`` on ``perf``.

    ``block`` defaults to the block config Vela would pick (block_config.py); ``streaming``
    describes weights DMA'd into fast storage (None: the weights are read where ``desc`` says);
    ``prev_slack`` is how many cycles of DMA the previous op hides. Raises ValueError if no block
    config fits the op.
    """
    if block is None and desc.block_type is not None:
        block = select_block_config(desc, perf.accel)
        if block is None:
            raise ValueError(f"no block config fits the {desc.kind.value} op {desc.ofm.shape}")
    compute = compute_cycles(perf, desc, block)
    npu, dma = npu_cycles_with_dma(perf, desc, compute, streaming, prev_slack)
    tally = TrafficTally()
    operand_traffic(perf, desc, block, tally)
    if desc.lut_bytes > 0:
        tally.add(desc.lut_memory, desc.lut_bytes, purpose="other")
        tally.add(SHRAM, desc.lut_bytes, write=True, purpose="other")
    if desc.kind is OpKind.DMA and desc.ifm.memory != desc.ofm.memory:
        nbytes = desc.ifm.storage_bytes()
        tally.add(desc.ifm.memory, nbytes)
        tally.add(desc.ofm.memory, nbytes, write=True)
    if streaming is not None:
        tally.add(streaming.source, streaming.stream_bytes, purpose="weights")
        tally.add(streaming.destination, streaming.stream_bytes, write=True, purpose="weights")
    traffic = tally.freeze()
    fm, weights = traffic.purpose("fm"), traffic.purpose("weights")
    return OpCost(block, compute, dma, npu, traffic.access_cycles(perf), traffic.read, traffic.written,
                  nn_macs(desc), hw_macs(perf, desc, block), fm[0], fm[1], weights[0], weights[1])


@lru_cache(maxsize=1 << 16)
def op_compute_cycles(perf: PerfTarget, desc: NpuOpDesc, block: BlockConfig | None = None) -> int:
    """Only the compute cycles (the quick query a scheduler makes per proposal, Vela's
    ``estimate_op_performance``); ``block`` defaults to the chosen block config."""
    if block is None and desc.block_type is not None:
        block = select_block_config(desc, perf.accel)
        if block is None:
            raise ValueError(f"no block config fits the {desc.kind.value} op {desc.ofm.shape}")
    return compute_cycles(perf, desc, block)


__all__ = ["ACCESS_COLUMNS", "OpCost", "estimate_op", "op_compute_cycles"]
