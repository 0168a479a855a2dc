"""Pinned element-access counts (perf/access.py) and block-transfer bursts (perf/memory.py).

The numbers were recorded from both modules before their rewrite in their own structure (each
rewrite was checked equal on tens of thousands of random inputs). They cover every layout and
direction of the burst model, with and without the "stride equals depth" cases, and the access
counts of every conv-like block type and of elementwise ops with and without broadcast scalars.
"""
from __future__ import annotations

import pytest

from npu_opt.hardware.perf.access import ElementAccess, element_access
from npu_opt.hardware.perf.arch import resolve_perf_target
from npu_opt.hardware.perf.block_config import BlockConfig, ShramLayout
from npu_opt.hardware.perf.memory import achieved_burst_bytes
from npu_opt.hardware.perf.op_desc import Kernel, NpuOpDesc, OpKind, TensorDesc, TensorFormat, WeightsDesc
from npu_opt.hardware.perf.shape import Shape4

_LAYOUT = ShramLayout(0, 1, 1, 2, 3)

# accelerator, read, format, bits, block HWD, tensor width (tensor 8 x width x 64) -> burst bytes
BURSTS = [
    ("ethos-u55-128", True, "NHWC", 8, (2, 8, 1), 9, 8),
    ("ethos-u55-128", True, "NHWC", 8, (2, 8, 16), 9, 16),
    ("ethos-u55-128", False, "NHWC", 16, (2, 8, 2), 9, 32),
    ("ethos-u55-128", False, "NHWC", 8, (2, 8, 32), 9, 16),
    ("ethos-u65-512", False, "NHWC", 8, (2, 8, 32), 9, 32),
    ("ethos-u65-512", False, "NHWC", 32, (2, 8, 64), 9, 64),
    ("ethos-u55-64", True, "NHCWB16", 8, (4, 4, 32), 2, 128),
    ("ethos-u55-64", True, "NHCWB16", 8, (4, 5, 16), 3, 80),
    ("ethos-u65-512", False, "NHCWB16", 8, (4, 5, 16), 3, 160),
    ("ethos-u65-512", False, "NHCWB16", 16, (4, 3, 16), 1, 192),
]

# kind, IFM HWC, OFM HWC, format, kernel WH, OFM block HWD, IFM block HW
# -> (IFM reads, weight reads, scale reads, OFM writes)
CONV_LIKE = [
    ("conv2d", (16, 16, 20), (16, 16, 40), "NHCWB16", (3, 3), (8, 8, 16), (10, 10), (38400, 34560, 40, 12288)),
    ("conv2d", (20, 20, 3), (10, 10, 8), "NHWC", (9, 9), (4, 4, 8), (15, 15), (24300, 17496, 8, 800)),
    ("depthwise_conv2d", (8, 8, 40), (8, 8, 40), "NHCWB16", (3, 3), (4, 8, 16), (6, 10), (4608, 720, 40, 3072)),
    ("avg_pool", (8, 8, 24), (4, 4, 24), "NHWC", (2, 2), (4, 4, 8), (8, 8), (1536, 0, 0, 384)),
    ("reduce_sum", (5, 5, 33), (5, 5, 1), "NHCWB16", (1, 1), (5, 5, 8), (5, 5), (1200, 0, 0, 400)),
    ("vector_product", (1, 1, 100), (1, 1, 30), "NHWC", (1, 1), (1, 1, 16), (1, 1), (200, 3200, 30, 30)),
]

# IFM HWC, IFM bits, IFM2 HWC (None: unary), IFM2 bits, format; OFM 4x4x20 int8
# -> (IFM reads, IFM2 reads, OFM writes)
ELEMENTWISE = [
    ((4, 4, 20), 8, (4, 4, 20), 8, "NHCWB16", (512, 512, 512)),
    ((4, 4, 20), 8, (1, 1, 1), 8, "NHWC", (320, 0, 320)),
    ((4, 4, 20), 16, (1, 1, 1), 16, "NHCWB16", (512, 16, 512)),
    ((1, 1, 1), 8, (4, 4, 20), 8, "NHWC", (0, 320, 320)),
    ((1, 1, 1), 16, (1, 1, 1), 16, "NHCWB16", (16, 512, 512)),
    ((1, 1, 1), 8, (1, 1, 1), 8, "NHWC", (0, 320, 320)),
    ((4, 4, 20), 16, None, 8, "NHCWB16", (512, 0, 512)),
    ((1, 1, 1), 32, None, 8, "NHWC", (1, 0, 320)),
]


@pytest.mark.parametrize("row", BURSTS)
def test_burst_lengths_are_pinned(row: tuple) -> None:
    accel, is_read, fmt, bits, block, width, burst = row
    perf = resolve_perf_target(accel)
    assert achieved_burst_bytes(perf, is_read, TensorFormat(fmt), bits, Shape4(1, *block),
                                Shape4(1, 8, width, 64)) == burst


@pytest.mark.parametrize("row", CONV_LIKE, ids=lambda r: r[0])
def test_conv_like_access_is_pinned(row: tuple) -> None:
    kind, ifm, ofm, fmt, kernel, ofm_block, ifm_block, expected = row
    weights = None
    if kind not in ("avg_pool", "reduce_sum"):
        weights = WeightsDesc(1000, kernel[0] * kernel[1] * ifm[2] * ofm[2], "Sram")
    desc = NpuOpDesc(OpKind(kind), TensorDesc(Shape4(1, *ifm), 8, fmt), TensorDesc(Shape4(1, *ofm), 8, fmt),
                     kernel=Kernel(*kernel), weights=weights)
    block = BlockConfig(Shape4(1, *ofm_block), Shape4(1, *ifm_block, 16), 32, False, _LAYOUT)
    access = element_access(desc, block)
    assert (access.ifm_read, access.weight_read, access.scale_read, access.ofm_write) == expected
    assert access.ifm2_read == 0


@pytest.mark.parametrize("row", ELEMENTWISE)
def test_elementwise_access_is_pinned(row: tuple) -> None:
    ifm, ifm_bits, ifm2, ifm2_bits, fmt, expected = row
    second = TensorDesc(Shape4(1, *ifm2), ifm2_bits, fmt) if ifm2 else None
    desc = NpuOpDesc(OpKind.ELEMENTWISE_BINARY if ifm2 else OpKind.ELEMENTWISE_UNARY,
                     TensorDesc(Shape4(1, *ifm), ifm_bits, fmt), TensorDesc(Shape4(1, 4, 4, 20), 8, fmt), second,
                     elementwise="add" if ifm2 else "abs")
    block = BlockConfig(Shape4(1, 4, 4, 16), Shape4(1, 4, 4, 16), 32, False, _LAYOUT)
    access = element_access(desc, block)
    assert (access.ifm_read, access.ifm2_read, access.ofm_write) == expected
    assert access.weight_read == access.scale_read == 0


def test_a_dma_accesses_nothing() -> None:
    fm = TensorDesc(Shape4(1, 4, 4, 8))
    assert element_access(NpuOpDesc(OpKind.DMA, fm, fm), None) == ElementAccess()
