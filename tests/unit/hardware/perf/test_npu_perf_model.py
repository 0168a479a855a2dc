"""Hand-computed costs of one op per kind on each accelerator family (dialects/npu/perf).

Every expected number below is worked out in the comments from Vela 5.2.0's legacy performance
model (npu_performance.py, architecture_allocator.py) and the constants of
hardware/accelerators.py. Common set-up:

* U55: ethos-u55-128 on Ethos_U55_High_End_Embedded / Shared_Sram: OFM micro-block w2 x h1 x d8,
  24 SHRAM banks (2 reserved at the end), granules IFM8 4, Acc32 8; SRAM 8 B/cycle, burst 32 B,
  latency 32/32; output cycles per element 0.5 (default), 1.5 (add/sub); ReLU 0.5.
* U65: ethos-u65-256 on Ethos_U65_High_End / Dedicated_Sram: micro-block w2 x h2 x d8, 48 banks,
  granules IFM8 8, IFM8 elementwise 8, Acc32 16; SRAM 16 B/cycle, burst 32 B, latency 32/32;
  output cycles 0.25 (default), 0.75 (add/sub).
* Feature maps int8 NHWC in SRAM; weights already in SRAM (no DMA), scale records read with the
  SRAM read latency 32, so the bias fetch costs 10 x 16 x 32 / 256 = 20 cycles per 16-deep block.
* Block transfer of an 8x8x16 NHWC block: an NHWC read (or write) reaches a 16-byte burst (one
  pixel's 16 channels), half the 32-byte SRAM burst, so 1024 bytes cost as 2048:
  U55 32 + 2048/8 = 288 cycles, U65 32 + 2048/16 = 160 cycles.
* Two-stage pipeline: cycles = max(dpu, out) x blocks + min(dpu, out), each stage at least the
  command overhead (ifm transfer + ofm transfer + out + dpu) / 4.
"""
from __future__ import annotations

import pytest

from npu_opt.hardware.perf import (
    Kernel, NpuOpDesc, OpKind, Shape4, TensorDesc, WeightsDesc, estimate_op, resolve_perf_target,
    select_block_config,
)
from npu_opt.hardware.perf.compute import dpu_block_cycles

U55 = resolve_perf_target("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram")
U65 = resolve_perf_target("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram")


def fm(h: int, w: int, c: int) -> TensorDesc:
    return TensorDesc(Shape4(1, h, w, c), 8, "NHWC", "Sram")


def weights(raw: int) -> WeightsDesc:
    """Weights already in an SRAM buffer: encoded size = raw + 10-byte scale records of 16 channels."""
    return WeightsDesc(raw + 160, raw, "Sram", buffered=True)


CONV = NpuOpDesc(OpKind.CONV2D, fm(8, 8, 16), fm(8, 8, 16), kernel=Kernel(3, 3), weights=weights(16 * 9 * 16))
DEPTHWISE = NpuOpDesc(OpKind.DEPTHWISE_CONV2D, fm(8, 8, 16), fm(8, 8, 16), kernel=Kernel(3, 3), weights=weights(144))
POOL = NpuOpDesc(OpKind.AVG_POOL, fm(8, 8, 16), fm(4, 4, 16), kernel=Kernel(2, 2, 2, 2))
ADD = NpuOpDesc(OpKind.ELEMENTWISE_BINARY, fm(8, 8, 16), fm(8, 8, 16), fm(8, 8, 16), elementwise="add")
VECTOR = NpuOpDesc(OpKind.VECTOR_PRODUCT, fm(1, 1, 64), fm(1, 1, 16), weights=weights(64 * 16))


# -- convolution 3x3, 8x8x16 -> 8x8x16 -------------------------------------------------------------
# Block (both): the whole OFM, 8x8x16, is one block. IFM block = (8-1)+3 = 10 rows and columns.
#   IFM depth 16 > 8; depth-first uses 16/32 = 0.5 of the MACs, part-kernel 16*9/(16*12) = 0.75:
#   part-kernel, IFM block depth min(16, 16) = 16.
#   Cost = (IFM 10*10*16 + weights 9*16 * 16) / 1024 = 3.8125, halved because two IFM blocks
#   (3200) hold the 1024-element IFM: 1.90625. Any smaller block re-fetches more.
#   SHRAM U55: IFM 100 px * 16 B = 1600 B -> 2 banks, x2 (double buffer) = 4, granule 4 -> [2, 6);
#   accumulators 64 * 16 * 4 B = 4096 B -> 4 banks x2 = 8, granule 8 -> [14, 22), LUT at 24-2 = 22.
# U55 cycles: nx = 8/2 = 4, ny = 8, 32 micro-blocks per plane, nz = 16/8 = 2.
#   part-kernel: steps = ceil(9/4) = 3, IFM block depth passes ceil(16/8) = 2:
#   dpu = max(32, 4*32) * (3 * 2 * 2) = 1536; x ceil(16/16) = 1 IFM-depth pass.
#   out = 0.5 * 1024 = 512 (>= bias 20); cmd = (288 + 288 + 512 + 1536) / 4 = 656 -> out = 656.
#   cycles = 1536 * 1 block + 656 = 2192.
#   Access: IFM 1024 B read once (one block, one sub-kernel) and OFM 1024 B written, each x2 for
#   the burst: 4096 B / 8 = 512 SRAM cycles (weights in a buffer are not charged).
# U65 cycles: nx = 4, ny = 4, 16 micro-blocks, nz = 2: dpu = max(32, 64) * 12 = 768;
#   out = 0.25 * 1024 = 256; cmd = (160 + 160 + 256 + 768) / 4 = 336; cycles = 768 + 336 = 1104.
#   Access: 4096 B / 16 = 256.
# MACs: 3*3 kernel * 16 IFM channels * 1024 OFM elements = 147456.
# Hardware MACs: 1024 OFM elements (no micro-block padding) * 12 (9 kernel elements in part-kernel
#   steps of 4) * 16 = 196608.

# -- depthwise 3x3, 8x8x16 -------------------------------------------------------------------------
# Block: 8x8x16, IFM block 10x10x16 (equal-depth op), cost (10*10*16 + weights 9*16) / 1024 / 2.
# U55: dpu = max(32, 4*32) * ceil(9/4) * nz 2 = 768 (no IFM-depth loop for depthwise);
#   out = 512; cmd = (288 + 288 + 512 + 768) / 4 = 464 -> out 512; cycles = 768 + 512 = 1280.
# U65: dpu = max(32, 4*16) * 3 * 2 = 384; out = 256; cmd = (160 + 160 + 256 + 384) / 4 = 240;
#   cycles = 384 + 256 = 640.
# MACs: 9 * 1024 = 9216; hardware 1024 * 12 = 12288.

# -- average pool 2x2 stride 2, 8x8x16 -> 4x4x16 ---------------------------------------------------
# Block: the whole OFM 4x4x16, IFM block (4-1)*2+2 = 8 -> 8x8x16.
# U55: nx = 2, ny = 4, nz = 2: dpu = max(4, 4) * 8 * 2 = 64; out = 0.5 * 256 = 128;
#   transfers: IFM 288, OFM 256 B x2 / 8 + 32 = 96; cmd = (288 + 96 + 128 + 64) / 4 = 144, which
#   both stages take: cycles = 144 * 1 + 144 = 288.
#   Access: (1024 + 256) B x2 / 8 = 320.
# U65: nx = 2, ny = 2, nz = 2: dpu = 4 * 4 * 2 = 32; out = 0.25 * 256 = 64; transfers 160 and
#   32 + 512/16 = 64; cmd = (160 + 64 + 64 + 32) / 4 = 80; cycles = 80 + 80 = 160. Access 160.
# MACs: 2*2 * 256 = 1024 (pooling counts kernel x OFM elements); hardware the same.

# -- add, 8x8x16 + 8x8x16 --------------------------------------------------------------------------
# Elementwise: no DPU stage. Block 8x8x16 (cost max(1024/1024, 1) = 1, halved: 0.5).
# U55: 1.5 cycles per element; command overhead (288 + 288 + 1.5*1024) / 4 / 1024 = 0.516 < 1.5;
#   cycles = 1.5 * 1024 = 1536. Access: 3 x 1024 B x2 / 8 = 768.
# U65: 0.75 per element (overhead (160+160+768)/4/1024 = 0.27); cycles = 768; access 6144/16 = 384.

# -- vector product 64 -> 16 -----------------------------------------------------------------------
# U55 block 1x2x16 (height 1, width one micro-block of 2, depth 16: the only candidate); IFM block
#   depth min(64, 32) = 32. Cost (IFM block 1*2*64 * 0.5 blocks) / 16 = 4, halved (64 < 2*64): 2.
#   dpu: OFM block 1x1x16: nx = ny = 1, nz = 2; steps = 1 (1x1 kernel): max(32, 4) * 1 * 2 = 64,
#   x ceil(64/32) = 2 IFM-depth passes = 128. out = max(0.5 * 16 = 8, bias 20) = 20.
#   transfers: IFM 32 elements, NHWC burst 32 bytes (full): 32 + 32/8 = 36; OFM 16 elements,
#   16-byte burst (x2): 32 + 32/8 = 36; cmd = (36 + 36 + 20 + 128) / 4 = 55.
#   cycles = 128 + 55 = 183. Access: IFM 64 B (x1) + OFM 16 B (x2) = 96 B / 8 = 12.
# U65 block 2x2x16 (2-row micro-block; the Conv1D rule runs it 1 row high in SHRAM);
#   dpu = max(32, 4) * 2 * 2 passes = 128; out 20; transfers 32 + 32/16 = 34 each;
#   cmd = (34 + 34 + 20 + 128) / 4 = 54; cycles = 128 + 54 = 182. Access 96 / 16 = 6.
# MACs: 64 * 16 = 1024.

EXPECTED = {
    # name: (desc, U55 (block [h, w, ifm d, ofm d], cycles, sram access), U65 (...), macs)
    "conv": (CONV, ([8, 8, 16, 16], 2192, 512), ([8, 8, 16, 16], 1104, 256), 147456),
    "depthwise": (DEPTHWISE, ([8, 8, 16, 16], 1280, 512), ([8, 8, 16, 16], 640, 256), 9216),
    "avg_pool": (POOL, ([4, 4, 16, 16], 288, 320), ([4, 4, 16, 16], 160, 160), 1024),
    "add": (ADD, ([8, 8, 16, 16], 1536, 768), ([8, 8, 16, 16], 768, 384), 0),
    "vector_product": (VECTOR, ([1, 2, 32, 16], 183, 12), ([2, 2, 32, 16], 182, 6), 1024),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
@pytest.mark.parametrize("family", ["u55", "u65"])
def test_hand_computed_cost(name: str, family: str) -> None:
    desc, u55, u65, macs = EXPECTED[name]
    perf, (block, cycles, sram) = (U55, u55) if family == "u55" else (U65, u65)
    chosen = select_block_config(desc, perf.accel)
    assert chosen is not None and chosen.vela_repr() == block
    cost = estimate_op(perf, desc)
    assert cost.compute_cycles == cycles
    assert cost.npu_cycles == cycles  # no DMA
    assert cost.access("Sram") == pytest.approx(sram)
    assert cost.access("Dram") == cost.access("OnChipFlash") == cost.access("OffChipFlash") == 0
    assert cost.total_cycles == max(cycles, sram)  # the U55 pool is SRAM-bound: 320 > 288
    assert cost.nn_macs == macs


def test_conv_block_layout_and_hardware_macs() -> None:
    block = select_block_config(CONV, U55.accel)
    assert block is not None
    assert (block.layout.ifm_start, block.layout.ifm_end, block.layout.acc_start, block.layout.lut_start) == (2, 6, 14, 22)
    assert block.is_partkernel and block.acc_bits == 32 and block.cost == pytest.approx(1.90625)
    assert estimate_op(U55, CONV).hw_macs == 196608
    assert estimate_op(U55, DEPTHWISE).hw_macs == 12288
    u65 = select_block_config(CONV, U65.accel)
    assert u65 is not None and (u65.layout.ifm_end, u65.layout.acc_start, u65.layout.lut_start) == (10, 30, 46)


def test_dpu_cycles_of_conv() -> None:
    block = select_block_config(CONV, U55.accel)
    assert block is not None and dpu_block_cycles(U55, CONV, block) == 1536


def test_relu_costs_the_relu_rate() -> None:
    # ReLU on U55-128 costs 0.5 cycles per element, the same as the default output rate:
    # no change; on an add (1.5 per element) neither. LUT activations cost 1.0 per element:
    # the add stays at 1.5, the pool's output stage rises to 1.0 * 256 = 256 > cmd 144
    # (cmd itself rises to (288 + 96 + 256 + 64) / 4 = 176): cycles = 256 * 1 + 176 = 432.
    from dataclasses import replace

    assert estimate_op(U55, replace(CONV, activation="relu")).compute_cycles == 2192
    assert estimate_op(U55, replace(POOL, activation="lut")).compute_cycles == 432


def test_ofm_stripe_and_depth_slice() -> None:
    # A 2-row stripe of the 3x3 conv needs (2-1)+3 = 4 input rows.
    stripe = CONV.with_ofm_stripe(Shape4(1, 2, 8, 16))
    assert stripe.ifm.shape == Shape4(1, 4, 8, 16) and stripe.ofm.shape == Shape4(1, 2, 8, 16)
    assert CONV.with_ofm_stripe(CONV.ofm.shape) is CONV
    # Costing a stripe and a depth slice works and is cheaper than the whole op.
    whole = estimate_op(U55, CONV).compute_cycles
    assert estimate_op(U55, stripe).compute_cycles < whole
    half = CONV.with_ofm_depth(8)
    assert half.ifm.shape == CONV.ifm.shape and estimate_op(U55, half).compute_cycles < whole
    assert estimate_op(U55, half).nn_macs == 147456 // 2


def test_estimates_are_memoised() -> None:
    from npu_opt.hardware.perf import find_block_config

    estimate_op(U55, CONV)
    hits = estimate_op.cache_info().hits
    estimate_op(U55, CONV)
    assert estimate_op.cache_info().hits == hits + 1
    before = find_block_config.cache_info().hits
    select_block_config(CONV, U55.accel)
    assert find_block_config.cache_info().hits == before + 1


def test_dma_op_costs_only_its_copy() -> None:
    # 1 KiB from SRAM to DRAM on U65 High End: read 1024 // 16 + 32 = 96, write 1024 // 3.75 = 273.
    copy = NpuOpDesc(OpKind.DMA, fm(8, 8, 16), TensorDesc(Shape4(1, 8, 8, 16), 8, "NHWC", "Dram"))
    cost = estimate_op(U65, copy)
    assert cost.compute_cycles == 0 and cost.block is None
    assert cost.npu_cycles == 273 and cost.dma_cycles == 273
    assert cost.bytes_read[0] == 1024 and cost.bytes_written[1] == 1024
    # Within one memory a copy costs nothing (as in Vela).
    assert estimate_op(U65, NpuOpDesc(OpKind.DMA, fm(8, 8, 16), fm(8, 8, 16))).npu_cycles == 0


def test_invalid_descriptions_are_rejected() -> None:
    with pytest.raises(ValueError, match="needs weights"):
        NpuOpDesc(OpKind.CONV2D, fm(8, 8, 16), fm(8, 8, 16))
    with pytest.raises(ValueError, match="IFM2"):
        NpuOpDesc(OpKind.ELEMENTWISE_BINARY, fm(8, 8, 16), fm(8, 8, 16), elementwise="add")
    with pytest.raises(ValueError, match="unknown memory area"):
        TensorDesc(Shape4(1, 1, 1, 1), 8, "NHWC", "Sdram")
    with pytest.raises(ValueError, match="activation"):
        NpuOpDesc(OpKind.AVG_POOL, fm(8, 8, 16), fm(8, 8, 16), activation="gelu")
