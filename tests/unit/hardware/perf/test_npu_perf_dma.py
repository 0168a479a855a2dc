"""Burst model, DMA cycles and weight streaming (dialects/npu/perf: memory.py, dma.py,
weight_buffering.py), with numbers worked by hand and two cases Vela 5.2.0 reports on the corpus."""
from __future__ import annotations

import pytest

from npu_opt.hardware.perf import (
    Kernel, NpuOpDesc, OpKind, Shape4, TensorDesc, WeightStreaming, WeightsDesc, estimate_op,
    resolve_perf_target, select_block_config,
)
from npu_opt.hardware.perf.dma import npu_cycles_with_dma
from npu_opt.hardware.perf.memory import achieved_burst_bytes, burst_adjusted_bytes, mem2mem_cycles
from npu_opt.hardware.perf.op_desc import TensorFormat
from npu_opt.hardware.perf.weight_buffering import propose_weight_buffering, weights_need_dma
from npu_opt.hardware.codec.weight_size import EncodedWeights, WeightRange

U55 = resolve_perf_target("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram")
U65 = resolve_perf_target("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram")


def test_memory_bandwidths() -> None:
    # U55 High End Embedded: SRAM 8 B/cycle; off-chip flash 8 x 0.125 = 1 B/cycle, burst 128, latency 64.
    assert U55.bytes_per_cycle("Sram") == 8 and U55.bytes_per_cycle("OffChipFlash") == 1
    assert (U55.burst_length("OffChipFlash"), U55.read_latency("OffChipFlash")) == (128, 64)
    # U65 High End: SRAM 16 B/cycle; DRAM 16 x 0.234375 = 3.75 B/cycle, latency 500/250.
    assert U65.bytes_per_cycle("Dram") == 3.75 and U65.write_latency("Dram") == 250
    assert U65.bytes_per_cycle("Shram") == 16 and U65.read_latency("Shram") == 0


def test_burst_lengths() -> None:
    # NHWC read of an 8-deep 8-bit block: one pixel's 8 bytes per burst; SRAM bursts are 32 B: x4.
    block = Shape4(1, 4, 8, 8)
    assert achieved_burst_bytes(U55, True, TensorFormat.NHWC, 8, block, Shape4(1, 8, 8, 8)) == 8
    assert burst_adjusted_bytes(U55, True, "Sram", TensorFormat.NHWC, 8, block, Shape4(1, 8, 8, 8), 100) == 400
    # NHCWB16 read: a brick row, 16 channels x block width 8 = 128 B >= 32: no inflation.
    assert burst_adjusted_bytes(U55, True, "Sram", TensorFormat.NHCWB16, 8, block, Shape4(1, 8, 8, 8), 100) == 100
    # NHWC write of a 64-deep block: min(512, 16 x 8 x 1 core, 64 x 8) bits = 128 bits = 16 B.
    assert achieved_burst_bytes(U55, False, TensorFormat.NHWC, 8, Shape4(1, 1, 1, 64), Shape4(1, 1, 1, 64)) == 16
    # The same NHWC read from flash (burst 128 B): x16.
    assert burst_adjusted_bytes(U55, True, "OffChipFlash", TensorFormat.NHWC, 8, block, block, 10) == 160


def test_mem2mem_cycles() -> None:
    # 1000 B flash -> SRAM: read 1000 // 1 + 64 = 1064, write 1000 // 8 = 125: 1064.
    assert mem2mem_cycles(U55, "OffChipFlash", "Sram", 1000) == 1064
    # 1000 B DRAM -> SRAM on U65: 1000 // 3.75 + 500 = 766.
    assert mem2mem_cycles(U65, "Dram", "Sram", 1000) == 766


POOL = NpuOpDesc(OpKind.AVG_POOL, TensorDesc(Shape4(1, 8, 8, 16)), TensorDesc(Shape4(1, 8, 8, 16)))


def test_weight_streaming_formulas() -> None:
    # Single buffer, one slice of 1000 B (first = full = 1064 cycles), compute 500, previous op's
    # slack 300: 500 + 1064 - min(1064, 300) = 1264.
    single = WeightStreaming("OffChipFlash", "Sram", 1000, 1000, 1000)
    assert npu_cycles_with_dma(U55, POOL, 500, single, 300.0)[0] == 1264
    # Double buffer, first slice 400 B (464 cycles), last slice's compute 200:
    # max(1064 - 300 + 200, 500 + max(464 - 300, 0)) = max(964, 664) = 964.
    double = WeightStreaming("OffChipFlash", "Sram", 1000, 1000, 400, double_buffered=True, tail_cycles=200)
    assert npu_cycles_with_dma(U55, POOL, 500, double, 300.0)[0] == 964
    # Inside a cascade Vela charges no full transfer: 500 + 0 - min(1064, 300) = 200.
    cascaded = WeightStreaming("OffChipFlash", "Sram", 1000, 0, 1000)
    assert npu_cycles_with_dma(U55, POOL, 500, cascaded, 300.0)[0] == 200


def test_lut_load_hides_under_the_previous_op() -> None:
    # kws_dscnn's softmax "sub1" on config A (Vela 5.2.0 reports NPU 1069): its exp LUT is 1024 B
    # in flash: 1024 // 1 + 64 = 1088 cycles (SHRAM takes 1024 // 8 = 128); compute 24 cycles; the
    # previous op (the row max pool) left 43 cycles: 24 + (1088 - 43) = 1069.
    sub = NpuOpDesc(OpKind.ELEMENTWISE_BINARY, TensorDesc(Shape4(1, 1, 1, 12)),
                    TensorDesc(Shape4(1, 1, 1, 12), 32, "NHCWB16"), TensorDesc(Shape4(1, 1, 1, 1), 8, "NHCWB16"),
                    elementwise="sub", activation="lut", lut_bytes=1024, lut_memory="OffChipFlash")
    cost = estimate_op(U55, sub, None, None, 43.0)
    assert cost.compute_cycles == 24 and cost.npu_cycles == 1069 and cost.dma_cycles == 1088
    assert cost.bytes_read[3] == 1024  # the LUT read from off-chip flash (not charged: a DMA)
    # Without slack the whole load shows.
    assert estimate_op(U55, sub).npu_cycles == 24 + 1088


def _kws_first_conv() -> NpuOpDesc:
    # kws_dscnn's first CONV_2D as Vela runs it: 49x10x1 with stride 2 folded into depth: IFM 49x5x2,
    # kernel 3 wide x 10 high, stride (1, 2), 64 output channels, ReLU; weights in off-chip flash.
    return NpuOpDesc(OpKind.CONV2D, TensorDesc(Shape4(1, 49, 5, 2)), TensorDesc(Shape4(1, 25, 5, 64), 8, "NHCWB16"),
                     kernel=Kernel(3, 10, 1, 2), weights=WeightsDesc(3840, 3840, "OffChipFlash"), activation="relu")


def _kws_encoder(slices: tuple[int, ...]) -> EncodedWeights:
    # The codec's sizes for these weights (also what our encoder model gives): the full-depth stream
    # is 4432 B; sliced at [0, 16, 64]: 160 B of scales + 960 B, then 480 + 2848 B.
    if slices == (0, 64):
        return EncodedWeights(slices, (WeightRange(0, 0, 640, 3792),), 4432, (4432, 0))
    assert slices == (0, 16, 64), slices
    return EncodedWeights(slices, (WeightRange(0, 0, 160, 960), WeightRange(0, 16, 480, 2848)), 4448, (1120, 3328))


def test_vela_weight_buffering_of_kws_first_conv() -> None:
    # Vela 5.2.0 (config A) reports NPU 21994 and SRAM access 3560 for this op, with weights sliced
    # [0, 16, 64] and double-buffered. By hand: full transfer 4432 + 64 = 4496 cycles > slack 0, so
    # the prefetched part is 0 bytes -> first slice 16 channels; the 16-channel compute
    # (pre_cycles) sets the slice step: round_up(64 * pre / 4496, 13x6x16's depth 16) -> slices
    # [0, 16, 64]. NPU = max(4496 - 0 + tail, compute 20810 + max(1120 + 64 - 0, 0)) = 21994,
    # with tail = the 48-channel slice's compute 15818.
    perf = U55
    desc = _kws_first_conv()
    block = select_block_config(desc, perf.accel)
    assert block is not None and block.vela_repr() == [13, 6, 8, 16]
    decision = propose_weight_buffering(perf, desc, block, _kws_encoder, prev_slack=0.0)
    assert decision.encoded.depth_slices == (0, 16, 64)
    assert decision.streaming is not None and decision.streaming.double_buffered
    assert decision.streaming.first_bytes == 1120 and decision.slack_cycles == 15818
    cost = estimate_op(perf, decision.desc, block, decision.streaming, 0.0)
    assert cost.compute_cycles == 20810
    assert cost.npu_cycles == 21994
    assert cost.access("Sram") == pytest.approx(3560)
    assert cost.access("OffChipFlash") == 0  # streamed weights are not charged as reads


def test_enough_slack_means_one_prefetched_buffer() -> None:
    # With 10000 cycles of slack the whole 4496-cycle transfer hides: one slice, single buffer,
    # NPU = compute + 4496 - min(4496, 10000) = compute.
    desc = _kws_first_conv()
    block = select_block_config(desc, U55.accel)
    assert block is not None
    decision = propose_weight_buffering(U55, desc, block, _kws_encoder, prev_slack=10000.0)
    assert decision.encoded.depth_slices == (0, 64)
    assert decision.streaming is not None and not decision.streaming.double_buffered
    assert estimate_op(U55, decision.desc, block, decision.streaming, 10000.0).npu_cycles == 20810


def test_vector_products_and_fast_weights_do_not_stream() -> None:
    fc = NpuOpDesc(OpKind.VECTOR_PRODUCT, TensorDesc(Shape4(1, 1, 1, 64)), TensorDesc(Shape4(1, 1, 1, 12)),
                   weights=WeightsDesc(768, 768, "OffChipFlash"))
    block = select_block_config(fc, U55.accel)
    assert block is not None
    full = EncodedWeights((0, 12), (WeightRange(0, 0, 120, 912),), 1040, (1040, 0))
    decision = propose_weight_buffering(U55, fc, block, lambda s: full, prev_slack=0.0)
    assert decision.streaming is None and decision.desc.weights.memory == "OffChipFlash"  # type: ignore[union-attr]
    assert decision.desc.weights.encoded_bytes == 1040  # type: ignore[union-attr]
    assert weights_need_dma(U55, "OffChipFlash") and weights_need_dma(U65, "Dram")
    assert not weights_need_dma(U55, "Sram")
    sram_only = resolve_perf_target("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Sram_Only")
    assert not weights_need_dma(sram_only, "OnChipFlash")
