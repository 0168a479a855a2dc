"""Pinned compute cycles, DPU block cycles and hardware MACs on a spread of ops (perf/compute.py).

The numbers were recorded from the compute model before its rewrite in its own structure (the
rewrite was checked equal on 20,000 random ops); they cover every block type, every accelerator,
8/16-bit IFMs, 32/40-bit accumulators, part-kernel traversal, kernels split into sub-kernels, the
pipeline stalls of single-micro-block planes and thin 40-bit blocks on ethos-u55-32, and the 1x4
micro-blocks of 1-row OFMs on 2-row micro-block machines.
"""
from __future__ import annotations

import pytest

from npu_opt.hardware.perf.arch import resolve_perf_target
from npu_opt.hardware.perf.block_config import BlockConfig, ShramLayout
from npu_opt.hardware.perf.compute import compute_cycles, dpu_block_cycles, hw_macs, output_cycle_case
from npu_opt.hardware.perf.op_desc import Kernel, NpuOpDesc, OpKind, TensorDesc, WeightsDesc
from npu_opt.hardware.perf.shape import Shape4

_LAYOUT = ShramLayout(0, 1, 1, 2, 3)

# accelerator, kind, IFM HWC, OFM HWC, IFM bits, kernel WH, OFM block HWD, IFM block depth,
# accumulator bits, part-kernel -> DPU cycles per block, compute cycles, hardware MACs
CONV_LIKE = [
    ("ethos-u55-32", "conv2d", (8, 8, 16), (8, 8, 16), 8, (3, 3), (8, 8, 16), 16, 32, False, 9216.0, 12176, 147456),
    ("ethos-u55-32", "conv2d", (8, 8, 16), (8, 8, 16), 16, (3, 3), (1, 1, 16), 16, 40, True, 920.0, 59143, 163840),
    ("ethos-u55-32", "conv2d", (4, 1, 32), (4, 1, 32), 16, (1, 1), (4, 1, 16), 8, 40, False, 368.0, 928, 4096),
    ("ethos-u55-32", "depthwise_conv2d", (1, 1, 8), (1, 1, 8), 8, (3, 3), (1, 1, 8), 8, 32, False, 108.0, 157, 96),
    ("ethos-u55-32", "avg_pool", (8, 8, 16), (4, 4, 16), 16, (2, 2), (4, 4, 16), 16, 40, False, 256.0, 1068, 1024),
    ("ethos-u55-64", "conv2d", (1, 1, 64), (1, 1, 64), 16, (1, 1), (1, 1, 32), 16, 40, False, 512.0, 1182, 4096),
    ("ethos-u55-64", "max_pool", (16, 16, 8), (8, 8, 8), 16, (2, 2), (8, 8, 8), 8, 32, False, 512.0, 824, 2048),
    ("ethos-u55-128", "conv2d", (8, 8, 16), (8, 8, 16), 8, (3, 3), (8, 8, 16), 16, 32, True, 1536.0, 2192, 196608),
    ("ethos-u55-128", "conv2d", (9, 9, 40), (1, 1, 24), 8, (9, 9), (1, 1, 24), 32, 32, False, 16476.0, 20701, 155520),
    ("ethos-u55-128", "depthwise_conv2d", (10, 10, 24), (5, 5, 24), 16, (5, 5), (5, 5, 16), 16, 40, False, 1680.0,
     3936, 20160),
    ("ethos-u55-128", "vector_product", (1, 1, 100), (1, 1, 10), 8, (1, 1), (1, 1, 16), 32, 32, False, 256.0, 340,
     3328),
    ("ethos-u55-256", "conv2d", (1, 16, 8), (1, 16, 8), 8, (1, 1), (2, 16, 8), 8, 32, False, 32.0, 128, 1024),
    ("ethos-u55-256", "conv2d", (1, 15, 8), (1, 15, 8), 8, (1, 1), (2, 16, 8), 8, 32, False, 32.0, 123, 2048),
    ("ethos-u55-256", "depthwise_conv2d", (1, 8, 16), (1, 8, 16), 8, (3, 1), (1, 8, 16), 16, 32, False, 64.0, 120, 512),
    ("ethos-u55-256", "reduce_sum", (6, 6, 70), (6, 6, 1), 8, (1, 1), (6, 6, 8), 32, 32, False, 108.0, 193, 20736),
    ("ethos-u55-256", "lut", (7, 7, 3), (7, 7, 3), 8, (1, 1), (7, 7, 8), 8, 32, False, 64.0, 156, 512),
    ("ethos-u65-256", "transpose_conv2d", (4, 4, 8), (8, 8, 8), 8, (4, 4), (8, 8, 8), 8, 32, True, 256.0, 408, 65536),
    ("ethos-u65-256", "avg_pool", (20, 20, 8), (2, 2, 8), 8, (10, 10), (2, 2, 8), 8, 32, False, 108.0, 215, 3200),
    ("ethos-u65-512", "conv2d", (32, 32, 3), (16, 16, 32), 8, (3, 3), (16, 16, 16), 8, 32, True, 768.0, 2060, 786432),
    ("ethos-u65-512", "conv2d", (1, 2, 64), (1, 2, 64), 16, (1, 1), (1, 2, 64), 16, 40, True, 1024.0, 1318, 32768),
]

# accelerator, operator, IFM bits, OFM bits, binary, activation, format -> output case, compute cycles
ELEMENTWISE = [
    ("ethos-u55-32", "add", 8, 8, True, "none", "NHWC", "ADD_SUB", 5400),
    ("ethos-u55-64", "mul", 8, 32, True, "none", "NHWC", "MUL_32BIT_OFM", 1350),
    ("ethos-u55-128", "mul", 16, 16, True, "relu", "NHCWB16", "ACC40_OR_MUL", 1080),
    ("ethos-u55-256", "sub", 32, 32, True, "none", "NHWC", "ELEMENTWISE_32BIT_BINARY", 563),
    ("ethos-u55-256", "abs", 32, 32, False, "none", "NHWC", "ELEMENTWISE_32BIT_UNARY", 1013),
    ("ethos-u65-256", "max", 8, 8, True, "sigmoid", "NHCWB16", "DEFAULT", 1440),
    ("ethos-u65-512", "exp", 16, 16, False, "lut", "NHWC", "DEFAULT", 450),
]


@pytest.mark.parametrize("row", CONV_LIKE, ids=lambda r: f"{r[0]}-{r[1]}-{r[4]}bit-k{r[5][0]}x{r[5][1]}")
def test_conv_like_cycles_are_pinned(row: tuple) -> None:
    accel, kind, ifm, ofm, bits, kernel, ofm_block, ifm_depth, acc, partkernel, dpu, cycles, macs = row
    perf = resolve_perf_target(accel)
    weights = None
    if kind in ("conv2d", "depthwise_conv2d", "transpose_conv2d", "vector_product"):
        weights = WeightsDesc(1000, kernel[0] * kernel[1] * ifm[2] * ofm[2], "Sram")
    desc = NpuOpDesc(OpKind(kind), TensorDesc(Shape4(1, *ifm), bits), TensorDesc(Shape4(1, *ofm), 8),
                     kernel=Kernel(*kernel), weights=weights)
    ifm_block = Shape4(1, ofm_block[0] + kernel[1] - 1, ofm_block[1] + kernel[0] - 1, ifm_depth)
    block = BlockConfig(Shape4(1, *ofm_block), ifm_block, acc, partkernel, _LAYOUT)
    assert dpu_block_cycles(perf, desc, block) == dpu
    assert compute_cycles(perf, desc, block) == cycles
    assert hw_macs(perf, desc, block) == macs


@pytest.mark.parametrize("row", ELEMENTWISE, ids=lambda r: f"{r[0]}-{r[1]}-{r[2]}bit")
def test_elementwise_cycles_are_pinned(row: tuple) -> None:
    accel, operator, ifm_bits, ofm_bits, binary, activation, fmt, case, cycles = row
    shape = Shape4(1, 5, 9, 20)
    desc = NpuOpDesc(OpKind.ELEMENTWISE_BINARY if binary else OpKind.ELEMENTWISE_UNARY,
                     TensorDesc(shape, ifm_bits, fmt), TensorDesc(shape, ofm_bits, fmt),
                     TensorDesc(shape, ifm_bits, fmt) if binary else None, activation=activation, elementwise=operator)
    block = BlockConfig(Shape4(1, 4, 8, 16), Shape4(1, 4, 8, 16), 32, False, _LAYOUT)
    assert output_cycle_case(desc, block).name == case
    assert compute_cycles(resolve_perf_target(accel), desc, block) == cycles


def test_single_micro_block_stalls_on_u55_32() -> None:
    # ethos-u55-32, 40-bit accumulators: stall 7 per step. A 1x1x16 OFM block is one micro-block
    # (1x1x4) in plane and 4 deep; the part-kernel 3x3 at 16 bits takes ceil(9/2) = 5 steps per
    # 8-deep IFM slice, 2 slices. Per walk: step max(16 weight, 4) x 5 steps x 4 deep = 320,
    # stalls 7 x (5 - 1) x 4 = 112, thin-block stalls 7 x 4 = 28; x 2 slices = 920.
    perf = resolve_perf_target("ethos-u55-32")
    desc = NpuOpDesc(OpKind.CONV2D, TensorDesc(Shape4(1, 8, 8, 16), 16), TensorDesc(Shape4(1, 8, 8, 16), 8),
                     kernel=Kernel(3, 3), weights=WeightsDesc(1000, 9 * 16 * 16, "Sram"))
    block = BlockConfig(Shape4(1, 1, 1, 16), Shape4(1, 3, 3, 16), 40, True, _LAYOUT)
    assert dpu_block_cycles(perf, desc, block) == 920
