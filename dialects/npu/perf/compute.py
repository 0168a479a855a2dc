"""NPU compute cycles and MAC counts of one operation (no DMA, no memory-bound limit).

Vela 5.2.0 ``npu_performance.py``: ``measure_cycle_cost``, ``_estimate_conv_cycles``,
``_estimate_output_cycles_per_element`` and ``_estimate_minimum_memory_cycles``.

The NPU is modelled as a two-stage pipeline over OFM blocks: the DPU (MAC array) computes a block
while the output unit scales, activates and writes the previous one. Per block:

* DPU cycles: per sub-kernel (at most 8x8), ``max(weight-fetch cycles, 4 x OFM micro-blocks in
  the block plane)`` per kernel step, times the micro-blocks in depth, plus pipeline bubbles when
  the block is one micro-block wide and high; times the IFM-depth passes for convolutions;
* output cycles: cycles per element (from the accelerator's output and activation tables) x
  block elements, at least the scale/bias fetch;
* both at least the command overhead, a quarter of (IFM block fetch + OFM block write + output +
  DPU cycles).

Op cycles = max(DPU, output) x blocks + min(DPU, output). Elementwise ops have no DPU stage:
cycles = cycles per element x OFM elements (depth rounded as stored).
"""
from __future__ import annotations

import math

from npu_opt.dialects.npu.accelerators import (
    SUB_KERNEL_LIMITS, ActivationCycleCase, BlockType, OutputCycleCase,
)
from npu_opt.dialects.npu.perf.arch import PerfTarget
from npu_opt.dialects.npu.perf.block_config import BlockConfig
from npu_opt.dialects.npu.perf.memory import burst_adjusted_bytes
from npu_opt.dialects.npu.perf.op_desc import LUT_ACTIVATIONS, RELU_ACTIVATIONS, NpuOpDesc, OpKind
from npu_opt.dialects.npu.perf.shape import Shape4, div_up, round_up

_CONV_LIKE = (BlockType.CONVOLUTION, BlockType.DEPTHWISE, BlockType.POOLING, BlockType.REDUCE_SUM,
              BlockType.VECTOR_PRODUCT)


def output_cycle_case(desc: NpuOpDesc, block: BlockConfig) -> OutputCycleCase:
    """Which entry of the output-cycles table the op uses."""
    if desc.kind.is_elementwise and desc.ifm.bits == 32:
        return (OutputCycleCase.ELEMENTWISE_32BIT_BINARY if desc.ifm2 is not None
                else OutputCycleCase.ELEMENTWISE_32BIT_UNARY)
    mul = desc.kind.is_elementwise and desc.elementwise == "mul"
    if mul and desc.ofm.bits == 32:
        return OutputCycleCase.MUL_32BIT_OFM
    if mul or (desc.block_type in _CONV_LIKE and block.acc_bits == 40):
        return OutputCycleCase.ACC40_OR_MUL
    if desc.kind.is_elementwise and desc.elementwise in ("add", "sub"):
        return OutputCycleCase.ADD_SUB  # Vela never uses the "simple" add/sub rate
    if desc.kind is OpKind.MAX_POOL:
        return OutputCycleCase.MAX_POOL
    return OutputCycleCase.DEFAULT


def activation_cycle_case(desc: NpuOpDesc) -> ActivationCycleCase:
    if desc.activation in LUT_ACTIVATIONS:
        return ActivationCycleCase.LUT
    if desc.activation in RELU_ACTIVATIONS:
        return ActivationCycleCase.RELU
    return ActivationCycleCase.NONE


def block_transfer_cycles(perf: PerfTarget, desc: NpuOpDesc, block: BlockConfig) -> tuple[float, float]:
    """Cycles to fetch one IFM block and to write one OFM block (latency + burst-adjusted
    transfer; the element count is used as the byte count, as in Vela)."""
    ifm, ofm = desc.ifm, desc.ofm
    ifm_elements = ifm.shape.min(block.ifm_block).elements()
    ifm_cycles = perf.read_latency(ifm.memory) + burst_adjusted_bytes(
        perf, True, ifm.memory, ifm.format, ifm.bits, block.ifm_block, ifm.shape, ifm_elements
    ) / perf.bytes_per_cycle(ifm.memory)
    ofm_elements = ofm.shape.min(block.ofm_block).elements()
    ofm_cycles = perf.write_latency(ofm.memory) + burst_adjusted_bytes(
        perf, False, ofm.memory, ofm.format, ofm.bits, block.ofm_block, ofm.shape, ofm_elements
    ) / perf.bytes_per_cycle(ofm.memory)
    return ifm_cycles, ofm_cycles


def output_cycles_per_element(perf: PerfTarget, desc: NpuOpDesc, block: BlockConfig) -> float:
    """Output-stage cycles per OFM element; for elementwise ops at least the command overhead
    spread over the block."""
    accel = perf.accel
    cycles = max(accel.output_cycles(output_cycle_case(desc, block)),
                 accel.activation_cycles(activation_cycle_case(desc)))
    if desc.kind.is_elementwise:
        elements = block.ofm_block.elements()
        ifm_cycles, ofm_cycles = block_transfer_cycles(perf, desc, block)
        command = (ifm_cycles + ofm_cycles + cycles * elements) / 4
        cycles = max(cycles, command / elements)
    return cycles


def sub_kernel_sizes(desc: NpuOpDesc) -> list[int]:
    """Element counts of the sub-kernels the (undilated) kernel is cut into, rows outermost."""
    limit_h, limit_w = SUB_KERNEL_LIMITS[desc.block_type]
    k = desc.kernel
    xs = [min(k.width - i * limit_w, limit_w) for i in range(div_up(k.width, limit_w))]
    ys = [min(k.height - i * limit_h, limit_h) for i in range(div_up(k.height, limit_h))]
    return [x * y for y in ys for x in xs]


def _micro_block(perf: PerfTarget, desc: NpuOpDesc, ofm_block: Shape4) -> tuple[Shape4, Shape4]:
    """The OFM micro-block, and the OFM block (the 1-row rule of 2-row micro-block machines)."""
    ub = perf.accel.ofm_ublock
    if (ub.height == 2 and desc.block_type in (BlockType.CONVOLUTION, BlockType.DEPTHWISE,
                                               BlockType.VECTOR_PRODUCT)
            and desc.ofm.shape.height == 1 and desc.ofm.shape.width % 2 == 0 and desc.kernel.height == 1):
        return Shape4(1, 1, 4, ub.depth), ofm_block.with_height(1)
    return Shape4(1, ub.height, ub.width, ub.depth), ofm_block


def dpu_block_cycles(perf: PerfTarget, desc: NpuOpDesc, block: BlockConfig) -> float:
    """DPU cycles of one OFM block (all sub-kernels and IFM-depth passes, per core)."""
    accel = perf.accel
    ifm_block = desc.ifm.shape.min(block.ifm_block)
    ublock, ofm_block = _micro_block(perf, desc, desc.ofm.shape.min(block.ofm_block))
    nx = div_up(ofm_block.width, ublock.width)
    ny = div_up(ofm_block.height, ublock.height)
    nxy = nx * ny
    nz = div_up(ofm_block.depth, ublock.depth)
    acc40 = block.acc_bits == 40
    kind = desc.block_type
    partkernel = kind is BlockType.CONVOLUTION and block.is_partkernel
    weight_cycles = 32 * ublock.depth // 8
    u55_32 = accel.name == "ethos-u55-32"
    if u55_32:
        delay = 7 if acc40 else 3
    else:
        delay = 3 if acc40 and accel.name in ("ethos-u55-64", "ethos-u55-128") else 2
    total = 0.0
    for elements in sub_kernel_sizes(desc):
        if kind is BlockType.POOLING:
            steps = 1
            cycles = max(4, elements) * nxy * nz
            if desc.ifm.bits == 16 and not u55_32:
                cycles *= 2
        elif kind is BlockType.DEPTHWISE:
            cycles = 4 * nxy * (2 if desc.ifm.bits == 16 else 1)
            steps = div_up(elements, 4)
            cycles = max(weight_cycles, cycles) * steps * nz
        elif not partkernel:  # depth-first conv, vector product, reduce sum
            steps = elements
            cycles = max(weight_cycles, 4 * nxy) * steps * nz
        else:
            steps = div_up(elements, 2 if desc.ifm.bits == 16 else 4)
            cycles = max(weight_cycles, 4 * nxy) * (steps * div_up(ifm_block.depth, 8) * nz)
        bubbles = 0
        if nx == 1 and ny == 1:
            if nz == 1:
                bubbles = delay * steps
            elif steps > 1:
                bubbles = delay * (steps - 1) * nz
        if u55_32 and (nx == 1 or ny == 1) and nz > 1 and acc40:
            bubbles += delay * nz
        if partkernel:
            bubbles *= div_up(ifm_block.depth, 8)
        total += cycles + bubbles
    if kind in (BlockType.CONVOLUTION, BlockType.VECTOR_PRODUCT, BlockType.REDUCE_SUM):
        total *= div_up(desc.ifm.shape.depth, ifm_block.depth)
    return total / accel.cores


def conv_cycles(perf: PerfTarget, desc: NpuOpDesc, block: BlockConfig) -> float:
    """Cycles of a conv-like op (conv, depthwise, pooling, vector product, reduce sum)."""
    ofm_block = desc.ofm.shape.min(block.ofm_block)
    dpu = dpu_block_cycles(perf, desc, block)
    blocks = desc.ofm.shape.div_round_up(ofm_block).elements()
    output = math.ceil(output_cycles_per_element(perf, desc, block) * ofm_block.elements())
    if desc.has_bias:
        output = max(output, 10 * ofm_block.depth * perf.read_latency(desc.weights.memory) / 256)  # type: ignore[union-attr]
    ifm_cycles, ofm_cycles = block_transfer_cycles(perf, desc, block)
    command = (ifm_cycles + ofm_cycles + output + dpu) / 4
    dpu = max(dpu, command)
    output = max(output, command)
    if dpu > output:
        return dpu * blocks + output
    return output * blocks + dpu


def compute_cycles(perf: PerfTarget, desc: NpuOpDesc, block: BlockConfig | None) -> int:
    """Whole-op compute cycles (Vela's ``measure_cycle_cost``): 0 for a DMA."""
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
    the kernel elements (padded to the 4-element steps of depthwise and part-kernel traversal),
    times the IFM depth padded to the 8-wide dot product (not for depthwise and pooling)."""
    kind = desc.block_type
    if kind not in _CONV_LIKE or block is None:
        return 0
    ublock, ofm_block = _micro_block(perf, desc, desc.ofm.shape.min(block.ofm_block))
    ofm = desc.ofm.shape
    volume = (ofm.batch * _padded(ofm.height, ofm_block.height, ublock.height)
              * _padded(ofm.width, ofm_block.width, ublock.width) * _padded(ofm.depth, ofm_block.depth, ublock.depth))
    step = 1
    if kind is BlockType.DEPTHWISE or (kind is BlockType.CONVOLUTION and block.is_partkernel):
        step = 2 if desc.ifm.bits == 16 and kind is BlockType.CONVOLUTION else 4
    kernel = sum(round_up(e, step) for e in sub_kernel_sizes(desc))
    if kind in (BlockType.DEPTHWISE, BlockType.POOLING):
        return volume * kernel
    return volume * kernel * round_up(desc.ifm.shape.depth, perf.accel.ifm_ublock.depth)


__all__ = [
    "activation_cycle_case", "block_transfer_cycles", "compute_cycles", "conv_cycles", "dpu_block_cycles",
    "hw_macs", "nn_macs", "output_cycle_case", "output_cycles_per_element", "sub_kernel_sizes",
]
