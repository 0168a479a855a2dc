"""NPU compute cycles and MAC counts of one operation (no DMA, no memory-bound limit), modelled on
Vela 5.2's compute estimate.

Design notes: docs/cost_model_design.md, section Compute cycles (compute)."""
from __future__ import annotations

import math
from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

from npu_opt.hardware.accelerators import (
    SUB_KERNEL_LIMITS, ActivationCycleCase, BlockType, OutputCycleCase,
)
from npu_opt.hardware.perf.arch import PerfTarget
from npu_opt.hardware.perf.block_config import BlockConfig
from npu_opt.hardware.perf.memory import burst_adjusted_bytes
from npu_opt.hardware.perf.op_desc import (
    LUT_ACTIVATIONS, RELU_ACTIVATIONS, NpuOpDesc, OpKind, TensorDesc,
)
from npu_opt.hardware.perf.shape import Shape4, div_up, round_up

_CONV_LIKE = (BlockType.CONVOLUTION, BlockType.DEPTHWISE, BlockType.POOLING, BlockType.REDUCE_SUM,
              BlockType.VECTOR_PRODUCT)
_DEPTH_ACCUMULATING = (BlockType.CONVOLUTION, BlockType.VECTOR_PRODUCT, BlockType.REDUCE_SUM)
"""Block types that sum over the IFM depth, one IFM-depth block at a time."""
_ROW_PAIR_TYPES = (BlockType.CONVOLUTION, BlockType.DEPTHWISE, BlockType.VECTOR_PRODUCT)
"""Block types that may run a 1-row OFM as 1x4 micro-blocks on 2-row micro-block machines."""

_PIPELINE_STALL: Mapping[tuple[str, bool], int] = MappingProxyType({
    ("ethos-u55-32", False): 3, ("ethos-u55-32", True): 7,
    ("ethos-u55-64", True): 3, ("ethos-u55-128", True): 3,
})
"""MAC-pipeline stall per kernel step, keyed by (accelerator, 40-bit accumulator); 2 otherwise."""
_THIN_BLOCK_STALLS = "ethos-u55-32"
"""The one accelerator that also stalls per micro-block layer on thin 40-bit blocks."""

_ELEMENTWISE_OUTPUT_CASE: Mapping[str, OutputCycleCase] = MappingProxyType({
    "mul": OutputCycleCase.ACC40_OR_MUL, "add": OutputCycleCase.ADD_SUB, "sub": OutputCycleCase.ADD_SUB,
})
"""Output rate of 8/16-bit elementwise operators (Vela never uses the "simple" add/sub rate)."""


def _elementwise_output_case(desc: NpuOpDesc) -> OutputCycleCase:
    """Output-table entry of an elementwise op: 32-bit inputs and 32-bit products have their own."""
    if desc.ifm.bits == 32:
        return (OutputCycleCase.ELEMENTWISE_32BIT_BINARY if desc.ifm2 is not None
                else OutputCycleCase.ELEMENTWISE_32BIT_UNARY)
    if desc.elementwise == "mul" and desc.ofm.bits == 32:
        return OutputCycleCase.MUL_32BIT_OFM
    return _ELEMENTWISE_OUTPUT_CASE.get(desc.elementwise, OutputCycleCase.DEFAULT)


def output_cycle_case(desc: NpuOpDesc, block: BlockConfig) -> OutputCycleCase:
    """Which entry of the output-cycles table the op uses."""
    if desc.kind.is_elementwise:
        return _elementwise_output_case(desc)
    if desc.block_type in _CONV_LIKE and block.acc_bits == 40:
        return OutputCycleCase.ACC40_OR_MUL
    return OutputCycleCase.MAX_POOL if desc.kind is OpKind.MAX_POOL else OutputCycleCase.DEFAULT


def activation_cycle_case(desc: NpuOpDesc) -> ActivationCycleCase:
    """Which entry of the activation-cycles table the fused activation uses."""
    if desc.activation in LUT_ACTIVATIONS:
        return ActivationCycleCase.LUT
    if desc.activation in RELU_ACTIVATIONS:
        return ActivationCycleCase.RELU
    return ActivationCycleCase.NONE


def _block_move_cycles(perf: PerfTarget, tensor: TensorDesc, block: Shape4, is_read: bool) -> float:
    """Latency plus burst-adjusted transfer of the part of ``block`` inside ``tensor`` (its
    element count stands for the byte count, as Vela has it)."""
    area = tensor.memory
    latency = perf.read_latency(area) if is_read else perf.write_latency(area)
    present = tensor.shape.min(block).elements()
    moved = burst_adjusted_bytes(perf, is_read, area, tensor.format, tensor.bits, block, tensor.shape, present)
    return latency + moved / perf.bytes_per_cycle(area)


def block_transfer_cycles(perf: PerfTarget, desc: NpuOpDesc, block: BlockConfig) -> tuple[float, float]:
    """Cycles to fetch one IFM block and to write one OFM block."""
    return (_block_move_cycles(perf, desc.ifm, block.ifm_block, True),
            _block_move_cycles(perf, desc.ofm, block.ofm_block, False))


def output_cycles_per_element(perf: PerfTarget, desc: NpuOpDesc, block: BlockConfig) -> float:
    """Output-stage cycles per OFM element; for elementwise ops at least the command overhead
    spread over the block."""
    accel = perf.accel
    rate = max(accel.output_cycles(output_cycle_case(desc, block)),
               accel.activation_cycles(activation_cycle_case(desc)))
    if not desc.kind.is_elementwise:
        return rate
    per_block = block.ofm_block.elements()
    fetch, write = block_transfer_cycles(perf, desc, block)
    overhead = (fetch + write + rate * per_block) / 4
    return max(rate, overhead / per_block)


def sub_kernel_sizes(desc: NpuOpDesc) -> list[int]:
    """Element counts of the sub-kernels the (undilated) kernel is cut into, rows outermost."""
    limit_h, limit_w = SUB_KERNEL_LIMITS[desc.block_type]

    def pieces(length: int, limit: int) -> list[int]:
        full, rest = divmod(length, limit)
        return [limit] * full + ([rest] if rest else [])

    return [h * w for h in pieces(desc.kernel.height, limit_h) for w in pieces(desc.kernel.width, limit_w)]


def _micro_block(perf: PerfTarget, desc: NpuOpDesc) -> Shape4:
    """The OFM micro-block the op runs with: 2-row micro-block machines run an even-width,
    1-row OFM with a 1-row kernel as 1x4 micro-blocks."""
    ub = perf.accel.ofm_ublock
    ofm = desc.ofm.shape
    if (ub.height == 2 and desc.block_type in _ROW_PAIR_TYPES and ofm.height == 1 and ofm.width % 2 == 0
            and desc.kernel.height == 1):
        return Shape4(1, 1, 4, ub.depth)
    return Shape4(1, ub.height, ub.width, ub.depth)


@dataclass(frozen=True)
class _UblockGrid:
    """An OFM block measured in micro-blocks: across (x), down (y) and deep (z)."""

    across: int
    down: int
    deep: int

    @classmethod
    def of(cls, block: Shape4, ublock: Shape4) -> "_UblockGrid":
        return cls(div_up(block.width, ublock.width), div_up(block.height, ublock.height),
                   div_up(block.depth, ublock.depth))

    @property
    def plane(self) -> int:
        """Micro-blocks in one layer of the block."""
        return self.across * self.down


def _kernel_step(desc: NpuOpDesc, block: BlockConfig) -> int:
    """Kernel elements consumed per MAC step: depthwise takes 4, part-kernel convolution 4 (2 at
    16 bits), everything else one."""
    if desc.block_type is BlockType.DEPTHWISE:
        return 4
    if desc.block_type is BlockType.CONVOLUTION and block.is_partkernel:
        return 2 if desc.ifm.bits == 16 else 4
    return 1


def _slice_passes(desc: NpuOpDesc, block: BlockConfig, ifm_block: Shape4) -> int:
    """How often a sub-kernel is walked per OFM block: a part-kernel convolution walks it once per
    8-deep slice of the IFM block, others once."""
    if desc.block_type is BlockType.CONVOLUTION and block.is_partkernel:
        return div_up(ifm_block.depth, 8)
    return 1


def _step_cycles(perf: PerfTarget, desc: NpuOpDesc, grid: _UblockGrid, elements: int) -> int:
    """Cycles of one kernel step over one micro-block layer of the block. Pooling has no weights
    and takes a whole sub-kernel (at least 4 elements) as its one step."""
    accel = perf.accel
    wide = desc.ifm.bits == 16
    if desc.block_type is BlockType.POOLING:
        doubled = wide and accel.name != "ethos-u55-32"
        return max(4, elements) * grid.plane * (2 if doubled else 1)
    weight_fetch = 4 * accel.ofm_ublock.depth
    plane = 4 * grid.plane
    if desc.block_type is BlockType.DEPTHWISE and wide:
        plane *= 2
    return max(weight_fetch, plane)


def _stalls(grid: _UblockGrid, steps: int, stall: int, thin_block_stalls: bool) -> int:
    """Stall cycles of one walk of a sub-kernel: a single-micro-block plane cannot hide the
    pipeline latency between steps (between all of them but the first in each deeper layer)."""
    total = 0
    if grid.plane == 1:
        total = stall * steps if grid.deep == 1 else stall * (steps - 1) * grid.deep
    if thin_block_stalls and grid.deep > 1 and (grid.across == 1 or grid.down == 1):
        total += stall * grid.deep
    return total


def dpu_block_cycles(perf: PerfTarget, desc: NpuOpDesc, block: BlockConfig) -> float:
    """DPU cycles of one OFM block (all sub-kernels and IFM-depth passes, per core)."""
    accel = perf.accel
    ifm_block = desc.ifm.shape.min(block.ifm_block)
    grid = _UblockGrid.of(desc.ofm.shape.min(block.ofm_block), _micro_block(perf, desc))
    acc40 = block.acc_bits == 40
    stall = _PIPELINE_STALL.get((accel.name, acc40), 2)
    thin_block_stalls = acc40 and accel.name == _THIN_BLOCK_STALLS
    step = _kernel_step(desc, block)
    passes = _slice_passes(desc, block, ifm_block)
    total = 0
    for elements in sub_kernel_sizes(desc):
        steps = 1 if desc.block_type is BlockType.POOLING else div_up(elements, step)
        walk = _step_cycles(perf, desc, grid, elements) * steps * grid.deep
        total += (walk + _stalls(grid, steps, stall, thin_block_stalls)) * passes
    if desc.block_type in _DEPTH_ACCUMULATING:
        total *= div_up(desc.ifm.shape.depth, ifm_block.depth)
    return total / accel.cores


def _output_block_cycles(perf: PerfTarget, desc: NpuOpDesc, block: BlockConfig, ofm_block: Shape4) -> float:
    """Output-unit cycles of one OFM block, at least the time to fetch its scales and biases."""
    cycles: float = math.ceil(output_cycles_per_element(perf, desc, block) * ofm_block.elements())
    if desc.has_bias:
        latency = perf.read_latency(desc.weights.memory)  # type: ignore[union-attr]
        cycles = max(cycles, 10 * ofm_block.depth * latency / 256)
    return cycles


def conv_cycles(perf: PerfTarget, desc: NpuOpDesc, block: BlockConfig) -> float:
    """Cycles of a conv-like op (conv, depthwise, pooling, vector product, reduce sum)."""
    ofm_block = desc.ofm.shape.min(block.ofm_block)
    blocks = desc.ofm.shape.div_round_up(ofm_block).elements()
    dpu = dpu_block_cycles(perf, desc, block)
    output = _output_block_cycles(perf, desc, block, ofm_block)
    fetch, write = block_transfer_cycles(perf, desc, block)
    overhead = (fetch + write + output + dpu) / 4
    stages = (max(dpu, overhead), max(output, overhead))
    return max(stages) * blocks + min(stages)


def compute_cycles(perf: PerfTarget, desc: NpuOpDesc, block: BlockConfig | None) -> int:
    """Whole-op compute cycles: 0 for a DMA."""
    if desc.block_type is None:
        return 0
    if block is None:
        raise ValueError(f"a {desc.kind.value} op needs a block config to be costed")
    if desc.kind.is_elementwise:
        stored = desc.ofm.shape.round_up(desc.ofm.format.rounding).elements()
        return math.ceil(output_cycles_per_element(perf, desc, block) * stored)
    return int(conv_cycles(perf, desc, block))


def nn_macs(desc: NpuOpDesc) -> int:
    """MACs of the network operation: kernel x IFM depth x OFM elements (without IFM depth for
    depthwise and pooling; 0 for elementwise and DMA)."""
    kind = desc.block_type
    if kind not in _CONV_LIKE:
        return 0
    per_output = desc.kernel.elements_wh()
    if kind not in (BlockType.DEPTHWISE, BlockType.POOLING):
        per_output *= desc.ifm.shape.depth
    return per_output * desc.ofm.shape.elements()


def _padded(length: int, block: int, quantum: int) -> int:
    """``length`` covered by ``block``-long pieces, each rounded up to ``quantum``."""
    block = min(block, length)
    return (length // block) * round_up(block, quantum) + round_up(length % block, quantum)


def hw_macs(perf: PerfTarget, desc: NpuOpDesc, block: BlockConfig | None) -> int:
    """MAC-array slots the op occupies: the OFM padded to micro-blocks within each block, times
    the kernel elements (padded to the kernel step), times the IFM depth padded to the 8-wide
    dot product (not for depthwise and pooling)."""
    kind = desc.block_type
    if kind not in _CONV_LIKE or block is None:
        return 0
    ublock = _micro_block(perf, desc)
    ofm = desc.ofm.shape
    ofm_block = ofm.min(block.ofm_block)
    volume = (ofm.batch * _padded(ofm.height, ofm_block.height, ublock.height)
              * _padded(ofm.width, ofm_block.width, ublock.width) * _padded(ofm.depth, ofm_block.depth, ublock.depth))
    step = _kernel_step(desc, block)
    kernel = sum(round_up(e, step) for e in sub_kernel_sizes(desc))
    if kind in (BlockType.DEPTHWISE, BlockType.POOLING):
        return volume * kernel
    return volume * kernel * round_up(desc.ifm.shape.depth, perf.accel.ifm_ublock.depth)


__all__ = [
    "activation_cycle_case", "block_transfer_cycles", "compute_cycles", "conv_cycles", "dpu_block_cycles",
    "hw_macs", "nn_macs", "output_cycle_case", "output_cycles_per_element", "sub_kernel_sizes",
]
