"""Ethos-U55 and Ethos-U65 accelerator configurations: the fixed hardware constants.

The numbers are those of Arm's Vela 5.2.0 (``ethosu/vela/architecture_features.py``: the
``accelerator_configs`` table, ``_generate_output_perf_tables``, the SHRAM set-up at the end of
``ArchitectureFeatures.__init__`` and the per-family AXI settings at its start). The scheduling
passes and the performance model read them from here, through the ``Target`` of a module, so
they must match Vela exactly: tests/unit/hardware/test_target_accelerators.py checks each one.

Everything is immutable; one ``AcceleratorConfig`` exists per accelerator name.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

from npu_opt.hardware.errors import TargetError, unknown_name


@dataclass(frozen=True)
class Block:
    """A width x height x depth extent (micro-blocks, OFM block limits, sub-kernel limits).

    Vela writes these as ``Block(w, h, d)``; so does this class, so a table can be compared with
    Vela's by eye.
    """

    width: int
    height: int
    depth: int

    def elements(self) -> int:
        """Number of elements in the block."""
        return self.width * self.height * self.depth

    def __str__(self) -> str:
        return f"{self.width}x{self.height}x{self.depth}"


class ShramElement(enum.IntEnum):
    """What a SHRAM bank group holds, in Vela's order (``SHRAMElements``); indexes ``shram_granules``."""

    IFM8 = 0
    IFM16 = 1
    IFM8_ELEMENTWISE = 2
    IFM16_ELEMENTWISE = 3
    IFM32 = 4
    ACC16 = 5
    ACC32 = 6
    ACC40 = 7


SHRAM_ELEMENT_BITS: tuple[int, ...] = (8, 16, 8, 16, 32, 16, 32, 40)
"""Bits per element of each ShramElement: IFM elements and the 16/32/40-bit accumulators."""
SHRAM_ELEMENT_PRE_ALIGN: tuple[int, ...] = (1, 1, 1, 1, 1, 8, 8, 8)
"""Depth alignment before sizing (accumulators are allocated in depth multiples of 8)."""
SHRAM_ELEMENT_POST_ALIGN: tuple[int, ...] = (8, 8, 8, 8, 8, 1, 1, 1)
"""Byte alignment of one pixel's IFM data (IFM rows are allocated in multiples of 8 bytes)."""
ACCUMULATOR_BITS: tuple[int, ...] = (16, 32, 40)
"""Accumulator widths the NPU offers; 32 is the normal one, 40 is used for 16-bit IFMs."""


class OutputCycleCase(enum.IntEnum):
    """Index into ``output_cycles_per_elem`` (Vela's ``_estimate_output_cycles_per_element``)."""

    ELEMENTWISE_32BIT_BINARY = 0
    ELEMENTWISE_32BIT_UNARY = 1
    MUL_32BIT_OFM = 2
    ACC40_OR_MUL = 3
    SIMPLE_ADD_SUB = 4
    ADD_SUB = 5
    MAX_POOL = 6
    DEFAULT = 7


class ActivationCycleCase(enum.IntEnum):
    """Index into ``activation_cycles_per_elem``: a LUT activation (sigmoid, tanh, ...), ReLU, none."""

    LUT = 0
    RELU = 1
    NONE = 2


class BlockType(enum.Enum):
    """The NPU block types of Vela's ``NpuBlockType`` that have per-type limits."""

    DEFAULT = "default"
    CONVOLUTION = "convolution"
    VECTOR_PRODUCT = "vector-product"
    POOLING = "pooling"
    DEPTHWISE = "depthwise"
    ELEMENTWISE = "elementwise"
    REDUCE_SUM = "reduce-sum"


# Constants shared by every U55/U65 configuration (architecture_features.py).
DPU_DOT_PRODUCT_WIDTH = 8
"""MACs per cycle = ofm ublock height x width x this x ofm ublock depth."""
OFM_BLOCK_MAX = Block(64, 32, 128)
"""Largest OFM block the block-config search may choose (``ofm_block_max``)."""
SUB_KERNEL_MAX = Block(8, 8, 65536)
"""Kernels bigger than 8x8 are split into sub-kernels (``SubKernelMax``)."""
OFM_SPLIT_DEPTH = 16
"""Depth granule when an OFM is split in depth (``OFMSplitDepth``)."""
MAX_BLOCKDEP = 3
"""Largest block dependency between consecutive NPU kernels (``MAX_BLOCKDEP``)."""
MAX_OUTSTANDING_KERNELS = 2
"""Kernels that may be in flight at once (``max_outstanding_kernels``)."""
SHRAM_BANK_SIZE = 1024
"""Bytes per SHRAM bank (``shram_bank_size``)."""
SHRAM_RESERVED_OUTPUT_BANKS = 2
"""Banks kept for the output (``shram_reserved_output_banks``)."""
SHRAM_RESERVED_WEIGHT_BANKS = 0
"""Banks kept for weights (``shram_reserved_weight_banks``)."""
SHRAM_LUT_SIZE = 2048
"""Bytes of the activation look-up table in SHRAM (``shram_lut_size``): two banks."""
SHRAM_LUT_SLOT_SIZE = 256
"""LUTs are placed in 256-byte slots (``shram_lut_slot_size``)."""
STORAGE_ROUNDING_NHCWB16 = 16
"""NHCWB16 tensors are stored with their depth rounded up to 16 (``storage_rounding_quantums``)."""
ALLOCATION_QUANTUM = 16
"""Tensor addresses and sizes are multiples of 16 bytes (tensor.py ``Tensor.AllocationQuantum``)."""

SUB_KERNEL_LIMITS: Mapping[BlockType, tuple[int, int]] = MappingProxyType({
    BlockType.DEFAULT: (8, 8), BlockType.CONVOLUTION: (8, 8), BlockType.VECTOR_PRODUCT: (1, 1),
    BlockType.POOLING: (8, 8), BlockType.DEPTHWISE: (8, 8), BlockType.ELEMENTWISE: (1, 1),
    BlockType.REDUCE_SUM: (8, 8),
})
"""Largest sub-kernel (height, width) per block type (``sub_kernel_limits``)."""


@dataclass(frozen=True)
class AcceleratorConfig:
    """One Ethos-U configuration: its MAC array, SHRAM and performance-model constants.

    ``macs_per_cycle`` is per core, as in Vela (``ethos-u65-512`` is two 256-MAC cores).
    ``output_cycles_per_elem`` is indexed by ``OutputCycleCase`` and
    ``activation_cycles_per_elem`` by ``ActivationCycleCase``.
    """

    name: str
    macs_per_cycle: int
    cores: int
    ofm_ublock: Block
    ifm_ublock: Block
    shram_banks: int
    shram_granules: tuple[int, ...]
    elem_units: int
    output_cycles_per_elem: tuple[float, ...]
    activation_cycles_per_elem: tuple[float, ...]
    axi_port_bytes_per_cycle: float
    """Bytes one AXI port moves per core cycle at clock scale 1: 8 on U55, 16 on U65."""
    axi_address_width: int
    """Address bits of the AXI ports: 32 on U55, 40 on U65."""
    max_outstanding_dma: int
    """DMA transfers in flight at once: 1 on U55, 2 on U65."""
    min_block_sizes: Mapping[BlockType, tuple[int, int]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.macs_per_cycle != (self.ofm_ublock.height * self.ofm_ublock.width
                                   * DPU_DOT_PRODUCT_WIDTH * self.ofm_ublock.depth):
            raise AssertionError(f"{self.name}: MACs per cycle disagree with the OFM micro-block")
        hw = (self.ofm_ublock.height, self.ofm_ublock.width)
        sizes = {kind: hw for kind in BlockType}
        sizes[BlockType.VECTOR_PRODUCT] = sizes[BlockType.ELEMENTWISE] = (1, 1)
        object.__setattr__(self, "min_block_sizes", MappingProxyType(sizes))

    # -- family ----------------------------------------------------------------------------
    @property
    def family(self) -> str:
        """``ethos-u55`` or ``ethos-u65``."""
        return self.name.rsplit("-", 1)[0]

    @property
    def is_u55(self) -> bool:
        return self.family == "ethos-u55"

    @property
    def is_u65(self) -> bool:
        return self.family == "ethos-u65"

    @property
    def total_macs_per_cycle(self) -> int:
        """MACs per cycle over all cores (512 for ``ethos-u65-512``)."""
        return self.macs_per_cycle * self.cores

    @property
    def max_address_offset(self) -> int:
        """Largest addressable offset, 4 GiB on U55 and 1 TiB on U65; the default arena cache size."""
        return 1 << self.axi_address_width

    # -- SHRAM -----------------------------------------------------------------------------
    @property
    def shram_size_bytes(self) -> int:
        return self.shram_banks * SHRAM_BANK_SIZE

    @property
    def shram_reserved_end_banks(self) -> int:
        """Banks at the end of SHRAM kept unused (they hold the LUT): 2 when there are more than 16."""
        return 2 if self.shram_banks > 16 else 0

    @property
    def shram_total_banks(self) -> int:
        """Banks the block-config search may allocate: all banks less the reserved end banks."""
        return self.shram_banks - self.shram_reserved_end_banks

    @property
    def lut_banks(self) -> int:
        """Banks the activation LUT occupies (2048 bytes of 1024-byte banks)."""
        return SHRAM_LUT_SIZE // SHRAM_BANK_SIZE

    def available_shram_banks(self, uses_activation_lut: bool) -> int:
        """Banks for IFM and accumulators. With a LUT on a 16-bank config (no reserved end
        banks) the LUT takes the last two banks away."""
        banks = self.shram_total_banks
        if uses_activation_lut and self.shram_reserved_end_banks == 0:
            banks -= self.lut_banks
        return banks

    @property
    def shram_lut_address(self) -> int:
        """SHRAM byte address of the activation LUT: just past the banks a LUT user may allocate."""
        return SHRAM_BANK_SIZE * self.available_shram_banks(True)

    def granule(self, element: ShramElement) -> int:
        """Bank granularity for ``element``: its bank count is rounded up to a multiple of this."""
        return self.shram_granules[element]

    def ifm_bank_granule(self, bits: int, elementwise: bool = False) -> int:
        """Granule of an IFM buffer of ``bits``-bit elements (8, 16 or 32)."""
        if bits == 32:
            return self.shram_granules[ShramElement.IFM32]
        if bits not in (8, 16):
            raise ValueError(f"IFM elements are 8, 16 or 32 bits, not {bits}")
        if elementwise:
            element = ShramElement.IFM8_ELEMENTWISE if bits == 8 else ShramElement.IFM16_ELEMENTWISE
            return self.shram_granules[element]
        return self.shram_granules[ShramElement.IFM8 if bits == 8 else ShramElement.IFM16]

    def accumulator_granule(self, bits: int) -> int:
        """Granule of a 16-, 32- or 40-bit accumulator buffer."""
        index = {16: ShramElement.ACC16, 32: ShramElement.ACC32, 40: ShramElement.ACC40}.get(bits)
        if index is None:
            raise ValueError(f"accumulators are 16, 32 or 40 bits, not {bits}")
        return self.shram_granules[index]

    def max_ifm_block_depth(self, ifm_bits: int) -> int:
        """Deepest IFM block for ``ifm_bits``-bit elements: 32 for 8-bit, 16 for 16-bit, 8 for 32-bit."""
        return 8 * 32 // ifm_bits

    # -- performance model -----------------------------------------------------------------
    def output_cycles(self, case: OutputCycleCase) -> float:
        return self.output_cycles_per_elem[case]

    def activation_cycles(self, case: ActivationCycleCase) -> float:
        return self.activation_cycles_per_elem[case]


def _u55(name: str, macs: int, ofm: Block, ifm: Block, banks: int, granules: tuple[int, ...],
         elem_units: int, output: tuple[float, ...], activation: tuple[float, ...]) -> AcceleratorConfig:
    """An Ethos-U55 configuration: 8-byte, 32-bit AXI ports and one outstanding DMA."""
    return AcceleratorConfig(name, macs, 1, ofm, ifm, banks, granules, elem_units, output, activation,
                             axi_port_bytes_per_cycle=8.0, axi_address_width=32, max_outstanding_dma=1)


def _u65(name: str, cores: int, output: tuple[float, ...], activation: tuple[float, ...]) -> AcceleratorConfig:
    """An Ethos-U65 configuration: 256 MACs per core, 16-byte, 40-bit AXI ports, two outstanding DMAs."""
    return AcceleratorConfig(name, 256, cores, Block(2, 2, 8), Block(2, 2, 8), 48, _GRANULES_256, 8, output,
                             activation, axi_port_bytes_per_cycle=16.0, axi_address_width=40,
                             max_outstanding_dma=2)


# SHRAM granules in ShramElement order; 256-MAC configurations share one table.
_GRANULES_256 = (8, 8, 8, 8, 16, 8, 16, 20)
# Output/activation cycles per element of 256-MAC cores (ethos-u55-256 and ethos-u65-256 alike).
_OUTPUT_256 = (0.625, 1.125, 0.5, 0.375, 0.5, 0.75, 0.125, 0.25)
_ACTIVATION_256 = (1.0, 0.25, 0.0)

_CONFIGS: tuple[AcceleratorConfig, ...] = (
    _u55("ethos-u55-32", 32, Block(1, 1, 4), Block(1, 1, 8), 16, (2, 2, 2, 2, 4, 4, 4, 4), 1,
         (2.0, 3.0, 3.0, 3.0, 4.0, 6.0, 1.0, 2.0), (1.0, 1.0, 0.0)),
    _u55("ethos-u55-64", 64, Block(1, 1, 8), Block(1, 1, 8), 16, (2, 2, 2, 2, 4, 4, 4, 8), 2,
         (1.0, 1.5, 1.5, 1.5, 2.0, 3.0, 0.5, 1.0), (1.0, 1.0, 0.0)),
    _u55("ethos-u55-128", 128, Block(2, 1, 8), Block(2, 1, 8), 24, (4, 4, 4, 4, 8, 4, 8, 12), 4,
         (0.75, 1.25, 0.75, 0.75, 1.0, 1.5, 0.25, 0.5), (1.0, 0.5, 0.0)),
    _u55("ethos-u55-256", 256, Block(2, 2, 8), Block(2, 2, 8), 48, _GRANULES_256, 8,
         _OUTPUT_256, _ACTIVATION_256),
    _u65("ethos-u65-256", 1, _OUTPUT_256, _ACTIVATION_256),
    _u65("ethos-u65-512", 2, (0.3125, 0.5625, 0.25, 0.1875, 0.25, 0.375, 0.0625, 0.125), (0.5, 0.125, 0.0)),
)

ACCELERATORS: Mapping[str, AcceleratorConfig] = MappingProxyType({c.name: c for c in _CONFIGS})
"""Every supported accelerator by name, smallest first."""

DEFAULT_ACCELERATOR = "ethos-u55-256"
"""Vela's default ``--accelerator-config``."""


def accelerator(name: str) -> AcceleratorConfig:
    """The configuration called ``name`` (case-insensitive, as in Vela); TargetError if unknown."""
    config = ACCELERATORS.get(name.lower())
    if config is None:
        raise TargetError(unknown_name("accelerator", name, ACCELERATORS))
    return config


__all__ = [
    "ACCELERATORS", "ACCUMULATOR_BITS", "ALLOCATION_QUANTUM", "AcceleratorConfig", "ActivationCycleCase",
    "Block", "BlockType", "DEFAULT_ACCELERATOR", "DPU_DOT_PRODUCT_WIDTH", "MAX_BLOCKDEP",
    "MAX_OUTSTANDING_KERNELS", "OFM_BLOCK_MAX", "OFM_SPLIT_DEPTH", "OutputCycleCase", "SHRAM_BANK_SIZE",
    "SHRAM_ELEMENT_BITS", "SHRAM_ELEMENT_POST_ALIGN", "SHRAM_ELEMENT_PRE_ALIGN", "SHRAM_LUT_SIZE",
    "SHRAM_LUT_SLOT_SIZE", "SHRAM_RESERVED_OUTPUT_BANKS", "SHRAM_RESERVED_WEIGHT_BANKS",
    "STORAGE_ROUNDING_NHCWB16", "SUB_KERNEL_LIMITS", "SUB_KERNEL_MAX", "ShramElement", "accelerator",
]
