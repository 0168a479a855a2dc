"""SHRAM fitting and block-config search rules (hardware/perf/block_config.py), worked by hand
from Vela 5.2.0 ``architecture_allocator.py`` and the SHRAM constants of hardware/accelerators.py."""
from __future__ import annotations

import pytest

from npu_opt.hardware.accelerators import BlockType, accelerator
from npu_opt.hardware.perf import Kernel, NpuOpDesc, OpKind, Shape4, TensorDesc, WeightsDesc, check_block_config
from npu_opt.hardware.perf.block_config import (
    accumulator_bits, choose_part_kernel, find_block_config, fit_block_for_ofm, ifm_block_depth, ifm_block_for,
    select_block_config, try_layout,
)
from npu_opt.hardware.perf.op_desc import Resampling
from npu_opt.hardware.codec.weight_size import encoder_part_kernel

U55_64 = accelerator("ethos-u55-64")
U55_128 = accelerator("ethos-u55-128")
U65 = accelerator("ethos-u65-256")


def fm(h: int, w: int, c: int, bits: int = 8) -> TensorDesc:
    return TensorDesc(Shape4(1, h, w, c), bits)


def test_layout_of_a_16_bit_conv_block_fills_shram_exactly() -> None:
    # U55-128, 8x8x16 OFM block fed by a 10x10x16 IFM block of 16-bit elements:
    #   IFM bytes = 100 px * round_up(16 * 16 / 8, 8) = 3200 -> 4 banks, x2 = 8, IFM16 granule 4 -> 8:
    #   IFM banks [2, 10). Accumulators 40-bit: 64 * 16 * 40 / 8 = 5120 B -> 5 banks x2 = 10, Acc40
    #   granule 12 -> 12, below the LUT at 24 - 2 = 22: [10, 22). The IFM ends exactly where they start.
    layout = try_layout(U55_128, "", Shape4(1, 8, 8, 16), Shape4(1, 10, 10, 16), 16, 4, 40, 12, 2)
    assert layout is not None
    assert (layout.ifm_start, layout.ifm_end, layout.acc_start, layout.lut_start) == (2, 10, 10, 22)
    # One more IFM column (10x11: 3520 B -> 4 banks, same) still fits; 12 columns (3840 B) too;
    # 13 columns: 4160 B -> 5 banks x2 = 10 -> granule 4 -> 12 banks: [2, 14) overlaps [10, 22).
    assert try_layout(U55_128, "", Shape4(1, 8, 8, 16), Shape4(1, 10, 13, 16), 16, 4, 40, 12, 2) is None


def test_lut_takes_banks_only_where_no_end_banks_are_reserved() -> None:
    # U55-64 has 16 banks and no reserved end banks: a LUT moves the accumulators down by 2.
    # 4x4x16 block, 32-bit accumulators: 256 B -> 1 bank x2 = 2, granule 4 -> 4 banks.
    without = try_layout(U55_64, "", Shape4(1, 4, 4, 16), Shape4(1, 6, 6, 16), 8, 2, 32, 4, 0)
    with_lut = try_layout(U55_64, "", Shape4(1, 4, 4, 16), Shape4(1, 6, 6, 16), 8, 2, 32, 4, 2)
    assert without is not None and (without.acc_start, without.lut_start) == (12, 16)
    assert with_lut is not None and (with_lut.acc_start, with_lut.lut_start) == (10, 14)
    # On U55-128 (2 reserved end banks) the LUT costs nothing: the search uses max(2, 2) banks.
    a = NpuOpDesc(OpKind.AVG_POOL, fm(8, 8, 16), fm(8, 8, 16))
    b = NpuOpDesc(OpKind.AVG_POOL, fm(8, 8, 16), fm(8, 8, 16), activation="lut", lut_bytes=1024)
    assert select_block_config(a, U55_128).layout == select_block_config(b, U55_128).layout  # type: ignore[union-attr]


def test_elementwise_scalar_needs_no_second_ifm_buffer() -> None:
    # Elementwise IFM 8x8x16 8-bit: 1024 B -> 1 bank x2 = 2, granule 4 -> 4: IFM [2, 6); the IFM2
    # needs another 4 ([6, 10)) unless it is a scalar. The IFM region then extends to the LUT.
    full = try_layout(U55_128, "full", Shape4(1, 8, 8, 16), Shape4(1, 8, 8, 16), 8, 4, 32, 8, 2)
    assert full is not None and (full.ifm_end, full.ifm2_start, full.acc_start) == (22, 6, 22)
    # Enough IFM to leave no room for IFM2: 16x16x16 = 4 KiB -> 4 banks x2 = 8: [2, 10), IFM2 [10, 18)
    # fits below 22; at 24x16x16 (6 KiB -> 12 banks) IFM2 [14, 26) does not, but a scalar does.
    assert try_layout(U55_128, "full", Shape4(1, 24, 16, 16), Shape4(1, 24, 16, 16), 8, 4, 32, 8, 2) is None
    assert try_layout(U55_128, "scalar", Shape4(1, 24, 16, 16), Shape4(1, 24, 16, 16), 8, 4, 32, 8, 2) is not None


def test_accumulator_and_ifm_depth_rules() -> None:
    assert accumulator_bits(BlockType.CONVOLUTION, 16, scaled=True) == 40
    assert accumulator_bits(BlockType.POOLING, 16, scaled=True) == 32
    assert accumulator_bits(BlockType.CONVOLUTION, 16, scaled=False) == 32
    assert accumulator_bits(BlockType.CONVOLUTION, 8, scaled=True) == 32
    # 16-bit: round_up(min(D, 16), 4); 8-bit: 32 deep (16 part-kernel) in micro-blocks of 8.
    assert ifm_block_depth(U55_128, Shape4(1, 1, 1, 6), 16, False) == 8
    assert ifm_block_depth(U55_128, Shape4(1, 1, 1, 100), 8, False) == 32
    assert ifm_block_depth(U55_128, Shape4(1, 1, 1, 100), 8, True) == 16
    assert ifm_block_depth(U55_128, Shape4(1, 1, 1, 3), 8, True) == 8


def test_part_kernel_choice_and_its_tie_with_the_encoder() -> None:
    # IFM depth 24, 3-element kernel: depth-first uses 24/32 = 0.75 of the MACs, part-kernel
    # 24*3 / (24*4) = 0.75: a tie. The block search wants strictly better (depth-first); the weight
    # encoder takes >= (part-kernel) - the mismatch Vela has too.
    assert not choose_part_kernel(Shape4(1, 8, 8, 24), 8, Kernel(3, 1))
    assert encoder_part_kernel(BlockType.CONVOLUTION, (1, 3, 24, 16), 8)
    assert choose_part_kernel(Shape4(1, 8, 8, 8), 8, Kernel(1, 1))  # depth <= 8
    assert not choose_part_kernel(Shape4(1, 8, 8, 64), 8, Kernel(1, 1))


def test_ifm_block_uses_at_most_one_sub_kernel_and_the_micro_block() -> None:
    # 10x3 kernel, stride (1, 2), 13x6 OFM block on U55-128 (micro-block w2 h1):
    # height (13-1)*2 + min(10, 8) = 32, width (6-1)*1 + 3 = 8 -> 32x8.
    assert ifm_block_for(U55_128, Shape4(1, 13, 6, 16), Kernel(3, 10, 1, 2), Resampling.NONE) == Shape4(1, 32, 8, 16)
    # Nearest-neighbour 2x upscaling halves the rows needed, plus one: ceil((4-1+1+1)/2) = 3 -> 4 on 2x2.
    assert ifm_block_for(U65, Shape4(1, 4, 4, 8), Kernel(1, 1), Resampling.NEAREST) == Shape4(1, 4, 4, 8)


def test_conv1d_rule_on_two_row_micro_blocks() -> None:
    block = Shape4(1, 2, 8, 16)
    assert fit_block_for_ofm(U65, Shape4(1, 1, 20, 16), Kernel(3, 1), block) == Shape4(1, 1, 8, 16)
    assert fit_block_for_ofm(U65, Shape4(1, 4, 20, 16), Kernel(3, 1), block) == block
    assert fit_block_for_ofm(U55_128, Shape4(1, 1, 20, 16), Kernel(3, 1), block) == block


def test_search_is_memoised_on_the_shape_signature() -> None:
    desc = NpuOpDesc(OpKind.CONV2D, fm(16, 16, 32), fm(16, 16, 32), kernel=Kernel(3, 3),
                     weights=WeightsDesc(9216, 9216))
    other_memory = NpuOpDesc(OpKind.CONV2D, TensorDesc(Shape4(1, 16, 16, 32), 8, "NHCWB16", "Dram"),
                             fm(16, 16, 32), kernel=Kernel(3, 3), weights=WeightsDesc(100, 9216))
    first = select_block_config(desc, U55_128)
    hits = find_block_config.cache_info().hits
    assert select_block_config(other_memory, U55_128) is first  # memory and format do not matter
    assert find_block_config.cache_info().hits == hits + 1


def test_check_block_config() -> None:
    desc = NpuOpDesc(OpKind.CONV2D, fm(8, 8, 16), fm(8, 8, 16), kernel=Kernel(3, 3), weights=WeightsDesc(2304, 2304))
    chosen = select_block_config(desc, U55_128)
    assert chosen is not None
    checked = check_block_config(desc, U55_128, chosen.ofm_block)
    assert checked is not None and checked.layout == chosen.layout and checked.ifm_block == chosen.ifm_block
    assert check_block_config(desc, U55_128, Shape4(1, 8, 7, 16)) is None  # width not a multiple of 2
    assert check_block_config(desc, U55_128, Shape4(1, 8, 8, 136)) is None  # deeper than 128
    # 32x64x128 does not fit: 32-bit accumulators alone need 1 MiB.
    assert check_block_config(desc, U55_128, Shape4(1, 32, 64, 128)) is None


def test_a_block_too_big_for_a_small_shram_is_refused() -> None:
    # U55-32 has 16 banks: a 32x64 pooling block needs 32*64*16 B = 32 KiB of IFM alone.
    desc = NpuOpDesc(OpKind.AVG_POOL, fm(32, 64, 16), fm(32, 64, 16))
    assert check_block_config(desc, accelerator("ethos-u55-32"), Shape4(1, 32, 64, 16)) is None
    assert select_block_config(desc, accelerator("ethos-u55-32")) is not None


@pytest.mark.parametrize("name", ["ethos-u55-32", "ethos-u55-64", "ethos-u55-128", "ethos-u55-256",
                                  "ethos-u65-256", "ethos-u65-512"])
def test_every_accelerator_finds_a_config_for_common_ops(name: str) -> None:
    accel = accelerator(name)
    ops = [
        NpuOpDesc(OpKind.CONV2D, fm(56, 56, 64), fm(56, 56, 64), kernel=Kernel(3, 3), weights=WeightsDesc(1, 36864)),
        NpuOpDesc(OpKind.DEPTHWISE_CONV2D, fm(112, 112, 32), fm(56, 56, 32), kernel=Kernel(3, 3, 2, 2),
                  weights=WeightsDesc(1, 288)),
        NpuOpDesc(OpKind.VECTOR_PRODUCT, fm(1, 1, 1024), fm(1, 1, 1000), weights=WeightsDesc(1, 1024000)),
        NpuOpDesc(OpKind.ELEMENTWISE_BINARY, fm(28, 28, 40), fm(28, 28, 40), fm(28, 28, 40), elementwise="add"),
        NpuOpDesc(OpKind.MAX_POOL, fm(1, 1000, 1), fm(1, 1, 1), kernel=Kernel(1000, 1)),
        NpuOpDesc(OpKind.CONV2D, fm(8, 8, 32, 16), fm(8, 8, 32, 16), kernel=Kernel(3, 3), weights=WeightsDesc(1, 9216)),
    ]
    for desc in ops:
        block = select_block_config(desc, accel)
        assert block is not None, desc.kind
        assert block.ofm_block.height % accel.ofm_ublock.height == 0
        assert block.ofm_block.width % accel.ofm_ublock.width == 0
        assert block.ofm_block.depth % accel.ofm_ublock.depth == 0
