"""Accelerator constants of dialects.npu against Vela 5.2.0.

Every expected value below was read from ethos-u-vela 5.2.0, ``ethosu/vela/architecture_features.py``
(the wheel on PyPI), and is repeated here by hand, so a change on either side shows up:

* ``ArchitectureFeatures.accelerator_configs``: per configuration the tuple
  (macs, cores, ofm_ublock, ifm_ublock, shram_banks, shram_granules, elem_units), micro-blocks
  written ``Block(w, h, d)``;
* ``_generate_output_perf_tables``: ``output_cycles_per_elem`` (8 entries) and
  ``activation_cycles_per_elem`` (3 entries);
* ``ArchitectureFeatures.__init__``: ``max_outstanding_dma`` and the AXI port address width and bytes
  per cycle per family, ``shram_*`` settings, ``ofm_block_max``, ``max_outstanding_kernels``,
  ``sub_kernel_limits``; the class constants ``OFMSplitDepth``, ``SubKernelMax``, ``MAX_BLOCKDEP``;
* ``SHRAMElements``: element bit sizes and alignments;
* ``tensor.py``: ``Tensor.AllocationQuantum``.
"""
from __future__ import annotations

import pytest

from npu_opt.hardware import accelerators as acc
from npu_opt.hardware.accelerators import (
    ACCELERATORS, ActivationCycleCase, Block, BlockType, OutputCycleCase, ShramElement, accelerator,
)
from npu_opt.hardware.errors import TargetError

# name: (MACs per cycle per core, cores, OFM ublock (w, h, d), IFM ublock (w, h, d), SHRAM banks,
#        SHRAM granules [IFM8, IFM16, IFM8_EW, IFM16_EW, IFM32, Acc16, Acc32, Acc40], elementwise units)
# -- architecture_features.py, accelerator_configs.
VELA_CONFIGS = {
    "ethos-u55-32": (32, 1, (1, 1, 4), (1, 1, 8), 16, (2, 2, 2, 2, 4, 4, 4, 4), 1),
    "ethos-u55-64": (64, 1, (1, 1, 8), (1, 1, 8), 16, (2, 2, 2, 2, 4, 4, 4, 8), 2),
    "ethos-u55-128": (128, 1, (2, 1, 8), (2, 1, 8), 24, (4, 4, 4, 4, 8, 4, 8, 12), 4),
    "ethos-u55-256": (256, 1, (2, 2, 8), (2, 2, 8), 48, (8, 8, 8, 8, 16, 8, 16, 20), 8),
    "ethos-u65-256": (256, 1, (2, 2, 8), (2, 2, 8), 48, (8, 8, 8, 8, 16, 8, 16, 20), 8),
    "ethos-u65-512": (256, 2, (2, 2, 8), (2, 2, 8), 48, (8, 8, 8, 8, 16, 8, 16, 20), 8),
}

# name: (output cycles per element, indexed by OutputCycleCase; activation cycles per element
#        [LUT, ReLU, none]) -- architecture_features.py, _generate_output_perf_tables.
VELA_PERF = {
    "ethos-u55-32": ((2.0, 3.0, 3.0, 3.0, 4.0, 6.0, 1.0, 2.0), (1.0, 1.0, 0.0)),
    "ethos-u55-64": ((1.0, 1.5, 1.5, 1.5, 2.0, 3.0, 0.5, 1.0), (1.0, 1.0, 0.0)),
    "ethos-u55-128": ((0.75, 1.25, 0.75, 0.75, 1.0, 1.5, 0.25, 0.5), (1.0, 0.5, 0.0)),
    "ethos-u55-256": ((0.625, 1.125, 0.5, 0.375, 0.5, 0.75, 0.125, 0.25), (1.0, 0.25, 0.0)),
    "ethos-u65-256": ((0.625, 1.125, 0.5, 0.375, 0.5, 0.75, 0.125, 0.25), (1.0, 0.25, 0.0)),
    "ethos-u65-512": ((0.3125, 0.5625, 0.25, 0.1875, 0.25, 0.375, 0.0625, 0.125), (0.5, 0.125, 0.0)),
}


def test_the_six_u55_u65_configurations_exist_in_vela_order():
    assert list(ACCELERATORS) == ["ethos-u55-32", "ethos-u55-64", "ethos-u55-128", "ethos-u55-256",
                                  "ethos-u65-256", "ethos-u65-512"]


@pytest.mark.parametrize("name", list(VELA_CONFIGS))
def test_accelerator_config_table(name):
    macs, cores, ofm, ifm, banks, granules, elem_units = VELA_CONFIGS[name]
    config = accelerator(name)
    assert config.macs_per_cycle == macs
    assert config.cores == cores
    assert config.ofm_ublock == Block(*ofm)
    assert config.ifm_ublock == Block(*ifm)
    assert config.shram_banks == banks
    assert config.shram_granules == granules
    assert config.elem_units == elem_units
    # Vela asserts MACs = ublock height x width x 8 (dot-product width) x ublock depth.
    assert macs == ofm[0] * ofm[1] * 8 * ofm[2]


@pytest.mark.parametrize("name", list(VELA_PERF))
def test_output_and_activation_cycles_per_element(name):
    output, activation = VELA_PERF[name]
    config = accelerator(name)
    assert config.output_cycles_per_elem == output
    assert config.activation_cycles_per_elem == activation
    # Named indices, as _estimate_output_cycles_per_element picks them (npu_performance.py).
    assert config.output_cycles(OutputCycleCase.MAX_POOL) == output[6]
    assert config.output_cycles(OutputCycleCase.DEFAULT) == output[7]
    assert config.activation_cycles(ActivationCycleCase.LUT) == activation[0]
    assert config.activation_cycles(ActivationCycleCase.NONE) == 0.0


@pytest.mark.parametrize("name, family, axi_bytes, address_bits, dma", [
    # ArchitectureFeatures.__init__: U55 has 8-byte, 32-bit AXI ports and 1 outstanding DMA;
    # U65 has 16-byte, 40-bit ports and 2.
    ("ethos-u55-32", "ethos-u55", 8.0, 32, 1),
    ("ethos-u55-256", "ethos-u55", 8.0, 32, 1),
    ("ethos-u65-256", "ethos-u65", 16.0, 40, 2),
    ("ethos-u65-512", "ethos-u65", 16.0, 40, 2),
])
def test_axi_ports_and_dma_per_family(name, family, axi_bytes, address_bits, dma):
    config = accelerator(name)
    assert config.family == family
    assert config.is_u55 == (family == "ethos-u55") and config.is_u65 == (family == "ethos-u65")
    assert config.axi_port_bytes_per_cycle == axi_bytes
    assert config.axi_address_width == address_bits
    assert config.max_address_offset == 1 << address_bits  # 4 GiB / 1 TiB: default arena cache size
    assert config.max_outstanding_dma == dma


@pytest.mark.parametrize("name, reserved_end, total, available_with_lut, lut_address", [
    # shram_reserved_unused_banks = 2 if banks > 16 else 0; shram_total_banks = banks - that;
    # available_shram_banks(True) takes 2 more banks (the LUT) when none are reserved;
    # shram_lut_address = 1024 * available_shram_banks(True).
    ("ethos-u55-32", 0, 16, 14, 14 * 1024),
    ("ethos-u55-64", 0, 16, 14, 14 * 1024),
    ("ethos-u55-128", 2, 22, 22, 22 * 1024),
    ("ethos-u55-256", 2, 46, 46, 46 * 1024),
    ("ethos-u65-512", 2, 46, 46, 46 * 1024),
])
def test_shram_banks_and_lut(name, reserved_end, total, available_with_lut, lut_address):
    config = accelerator(name)
    assert config.shram_reserved_end_banks == reserved_end
    assert config.shram_total_banks == total
    assert config.available_shram_banks(False) == total
    assert config.available_shram_banks(True) == available_with_lut
    assert config.shram_lut_address == lut_address
    assert config.shram_size_bytes == config.shram_banks * 1024
    assert config.lut_banks == 2


def test_granule_accessors_follow_shram_elements():
    config = accelerator("ethos-u55-128")  # granules 4, 4, 4, 4, 8, 4, 8, 12
    assert config.ifm_bank_granule(8) == 4 and config.ifm_bank_granule(32) == 8
    assert config.ifm_bank_granule(16, elementwise=True) == 4
    assert [config.accumulator_granule(b) for b in (16, 32, 40)] == [4, 8, 12]
    assert config.granule(ShramElement.ACC40) == 12
    with pytest.raises(ValueError):
        config.accumulator_granule(24)
    # calc_ifm_block_depth: at most 8 * 32 // bits channels per IFM block.
    assert [config.max_ifm_block_depth(b) for b in (8, 16, 32)] == [32, 16, 8]


def test_shared_constants():
    assert acc.SHRAM_BANK_SIZE == 1024                    # shram_bank_size, bytes
    assert acc.SHRAM_RESERVED_OUTPUT_BANKS == 2           # shram_reserved_output_banks
    assert acc.SHRAM_RESERVED_WEIGHT_BANKS == 0           # shram_reserved_weight_banks
    assert acc.SHRAM_LUT_SIZE == 2048                     # shram_lut_size, bytes
    assert acc.SHRAM_LUT_SLOT_SIZE == 256                 # shram_lut_slot_size, bytes
    assert acc.OFM_BLOCK_MAX == Block(64, 32, 128)        # ofm_block_max (w, h, d)
    assert acc.SUB_KERNEL_MAX == Block(8, 8, 65536)       # SubKernelMax
    assert acc.OFM_SPLIT_DEPTH == 16                      # OFMSplitDepth
    assert acc.MAX_BLOCKDEP == 3                          # MAX_BLOCKDEP
    assert acc.MAX_OUTSTANDING_KERNELS == 2               # max_outstanding_kernels
    assert acc.DPU_DOT_PRODUCT_WIDTH == 8                 # dpu_dot_product_width
    assert acc.STORAGE_ROUNDING_NHCWB16 == 16             # storage_rounding_quantums[NHCWB16] depth
    assert acc.ALLOCATION_QUANTUM == 16                   # tensor.py Tensor.AllocationQuantum
    # SHRAMElements.BitSizes / PreAlign / PostAlign, in ShramElement order.
    assert acc.SHRAM_ELEMENT_BITS == (8, 16, 8, 16, 32, 16, 32, 40)
    assert acc.SHRAM_ELEMENT_PRE_ALIGN == (1, 1, 1, 1, 1, 8, 8, 8)
    assert acc.SHRAM_ELEMENT_POST_ALIGN == (8, 8, 8, 8, 8, 1, 1, 1)
    assert acc.ACCUMULATOR_BITS == (16, 32, 40)
    assert acc.DEFAULT_ACCELERATOR == "ethos-u55-256"    # vela.py --accelerator-config default


def test_block_type_limits():
    # sub_kernel_limits; min_block_sizes = the OFM ublock (h, w), (1, 1) for FC and elementwise.
    assert acc.SUB_KERNEL_LIMITS[BlockType.CONVOLUTION] == (8, 8)
    assert acc.SUB_KERNEL_LIMITS[BlockType.VECTOR_PRODUCT] == (1, 1)
    assert acc.SUB_KERNEL_LIMITS[BlockType.ELEMENTWISE] == (1, 1)
    config = accelerator("ethos-u55-128")  # ofm ublock 2 wide, 1 high
    assert config.min_block_sizes[BlockType.CONVOLUTION] == (1, 2)
    assert config.min_block_sizes[BlockType.VECTOR_PRODUCT] == (1, 1)
    assert config.min_block_sizes[BlockType.ELEMENTWISE] == (1, 1)


def test_total_macs_counts_both_u65_512_cores():
    assert accelerator("ethos-u65-512").total_macs_per_cycle == 512
    assert accelerator("ethos-u55-128").total_macs_per_cycle == 128


def test_names_are_case_insensitive_and_unknown_ones_get_a_suggestion():
    assert accelerator("Ethos-U55-128") is accelerator("ethos-u55-128")
    with pytest.raises(TargetError, match=r"unknown accelerator 'ethos-u55-12'; did you mean 'ethos-u55-128'\?"
                                          r" \(known accelerators: ethos-u55-32, "):
        accelerator("ethos-u55-12")
    with pytest.raises(TargetError, match="unknown accelerator 'u85'"):
        accelerator("u85")
