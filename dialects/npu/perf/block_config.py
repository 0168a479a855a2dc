"""OFM block configuration: the SHRAM fit test and Vela's block-config search.

The NPU computes its OFM one block at a time. For each block it holds the IFM data the block needs
(double-buffered) and the block's accumulators in its shared buffer (SHRAM), 1 KiB banks of which
the first two are reserved for the output and the last ones for the activation LUT. A block config
is the OFM block (height x width x depth), the IFM block that feeds it, the accumulator width and
the weight traversal order; it must fit the SHRAM, and among those that fit Vela picks the one
that fetches the fewest IFM and weight elements per OFM element.

This follows Vela 5.2.0 ``architecture_allocator.py`` (``find_block_config``,
``try_block_config``, ``_try_block_config``): the same candidates in the same order, the same cost
arithmetic (evaluated in the same order, so that equal costs tie the same way) and the same
tie-break. ``find_block_config`` is memoised on the op's shape signature.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from npu_opt.dialects.npu.accelerators import (
    OFM_BLOCK_MAX, OFM_SPLIT_DEPTH, SHRAM_BANK_SIZE, SHRAM_RESERVED_OUTPUT_BANKS, SUB_KERNEL_MAX,
    AcceleratorConfig, BlockType,
)
from npu_opt.dialects.npu.perf.op_desc import Kernel, NpuOpDesc, Resampling
from npu_opt.dialects.npu.perf.shape import Shape4, div_up, round_up

LUT_BANKS = 2
"""SHRAM banks an activation LUT occupies (2048 bytes)."""


@dataclass(frozen=True)
class ShramLayout:
    """Bank indices of the SHRAM regions: IFM [ib_start, ib_end), IFM2 from ib_start2,
    accumulators [ab_start, lut_start), LUT from lut_start."""

    ib_start: int
    ib_end: int
    ib_start2: int
    ab_start: int
    lut_start: int


@dataclass(frozen=True)
class BlockConfig:
    """A chosen OFM block with its IFM block, accumulator width, traversal and SHRAM layout.

    ``ofm_block`` is the searched block (Vela keeps the un-clamped height even where the Conv1D
    rule runs a 1-row block). ``cost`` is the search's relative cost (IFM and weight elements
    fetched per OFM element); it is NaN for a block given by the caller.
    """

    ofm_block: Shape4
    ifm_block: Shape4
    acc_bits: int
    is_partkernel: bool
    layout: ShramLayout
    cost: float = math.nan

    @property
    def traversal(self) -> str:
        """``part_kernel`` or ``depth_first``: the order weights are consumed in."""
        return "part_kernel" if self.is_partkernel else "depth_first"

    def vela_repr(self) -> list[int]:
        """Vela's printed form: [OFM block height, width, IFM block depth, OFM block depth]."""
        return [self.ofm_block.height, self.ofm_block.width, self.ifm_block.depth, self.ofm_block.depth]

    def __str__(self) -> str:
        """``HxWxD`` of the OFM block, as the perf report prints it."""
        return f"{self.ofm_block.height}x{self.ofm_block.width}x{self.ofm_block.depth}"


# -- small rules -----------------------------------------------------------------------------
def choose_part_kernel(ifm: Shape4, ifm_bits: int, kernel: Kernel) -> bool:
    """Part-kernel-first traversal when the IFM is at most 8 deep or it uses the MACs better
    than depth-first (strictly better: on a tie the cost model assumes depth-first)."""
    if ifm.depth <= 8:
        return True
    elements = kernel.elements_wh()
    depth_utilisation = ifm.depth / round_up(ifm.depth, 32 if ifm_bits == 8 else 16)
    part_utilisation = (ifm.depth * elements
                        / (round_up(ifm.depth, 8) * round_up(elements, 4 if ifm_bits == 8 else 2)))
    return part_utilisation > depth_utilisation


def accumulator_bits(block_type: BlockType, ifm_bits: int, scaled: bool) -> int:
    """40-bit accumulators for a rescaled 16-bit IFM (except pooling), else 32-bit."""
    return 40 if ifm_bits == 16 and block_type is not BlockType.POOLING and scaled else 32


def ifm_block_depth(accel: AcceleratorConfig, ifm: Shape4, ifm_bits: int, is_partkernel: bool) -> int:
    """IFM block depth of a convolution or vector product (equal-depth ops use the OFM's)."""
    if ifm_bits == 16:
        return round_up(min(ifm.depth, 16), 4)
    return round_up(min(ifm.depth, 16 if is_partkernel else 32), accel.ifm_ublock.depth)


def _required(out: int, stride: int, area: int, upscale: int, nearest: int) -> int:
    return math.ceil(((out - 1) * stride + area + nearest) / upscale)


def ifm_block_for(accel: AcceleratorConfig, ofm_block: Shape4, kernel: Kernel, resampling: Resampling) -> Shape4:
    """The IFM block feeding ``ofm_block``: one sub-kernel (at most 8x8) of input, rounded up to
    the OFM micro-block; its depth is the OFM block's (the caller changes it for convolutions)."""
    up = resampling.upscale
    nearest = 1 if resampling is Resampling.NEAREST else 0
    ub = accel.ofm_ublock
    height = _required(ofm_block.height, kernel.stride_y, min(kernel.area_height(), SUB_KERNEL_MAX.height),
                       up, nearest)
    width = _required(ofm_block.width, kernel.stride_x, min(kernel.area_width(), SUB_KERNEL_MAX.width),
                      up, nearest)
    return Shape4(1, round_up(height, ub.height), round_up(width, ub.width), ofm_block.depth)


def fit_block_for_ofm(accel: AcceleratorConfig, ofm: Shape4, kernel: Kernel, block: Shape4) -> Shape4:
    """The Conv1D rule of 2-row micro-block machines: a 1-row OFM with a 1-row kernel runs 1-row
    blocks, which changes the IFM-to-accumulator ratio."""
    if ofm.height == 1 and kernel.height == 1 and accel.ofm_ublock.height == 2:
        return block.with_height(min(block.height, ofm.height))
    return block


def try_layout(accel: AcceleratorConfig, elementwise: str, ofm_block: Shape4, ifm_block: Shape4,
               ifm_bits: int, ifm_granule: int, acc_bits: int, acc_granule: int,
               lut_banks: int) -> ShramLayout | None:
    """Fit an IFM block (double-buffered) and, unless ``elementwise`` ("full" or "scalar"), the
    accumulators of an OFM block into SHRAM below the LUT; None if they do not fit."""
    ifm_bytes = ifm_block.elements_wh() * round_up((ifm_block.depth * ifm_bits) // 8, 8)
    ifm_banks = round_up(div_up(ifm_bytes, SHRAM_BANK_SIZE) * 2, ifm_granule)
    lut_start = accel.shram_banks - lut_banks
    ifm_end = SHRAM_RESERVED_OUTPUT_BANKS + ifm_banks
    ifm2_start = ifm_end
    acc_start = lut_start
    if not elementwise:
        acc_bytes = (ofm_block.elements_wh() * round_up(ofm_block.depth, 8) * acc_bits) // 8
        acc_start -= round_up(div_up(acc_bytes, SHRAM_BANK_SIZE) * 2, acc_granule)
    else:
        ifm2_banks = ifm_banks if elementwise == "full" else 0
        if ifm2_start + ifm2_banks > acc_start:
            return None
        ifm_end = acc_start
    if ifm_end > acc_start:
        return None
    return ShramLayout(SHRAM_RESERVED_OUTPUT_BANKS, ifm_end, ifm2_start, acc_start, lut_start)


@dataclass(frozen=True)
class _Setup:
    """What the search and the validation of a given block share."""

    elementwise: str
    equal_depth: bool
    is_partkernel: bool
    acc_bits: int
    acc_granule: int
    ifm_granule: int
    lut_banks: int
    ifm_depth: int


def _setup(accel: AcceleratorConfig, block_type: BlockType, ifm: Shape4, uses_scalar: bool, ifm_bits: int,
           kernel: Kernel, uses_lut: bool, scaled: bool, is_partkernel: bool | None) -> _Setup:
    elementwise = ""
    if block_type is BlockType.ELEMENTWISE:
        elementwise = "scalar" if uses_scalar else "full"
    depthwise = block_type is BlockType.DEPTHWISE
    equal_depth = bool(elementwise) or block_type is BlockType.POOLING or depthwise
    if is_partkernel is None:
        is_partkernel = (block_type is BlockType.CONVOLUTION or depthwise) and choose_part_kernel(
            ifm, ifm_bits, kernel)
    acc = accumulator_bits(block_type, ifm_bits, scaled)
    ifm_granule = accel.ifm_bank_granule(ifm_bits, elementwise=bool(elementwise))
    lut_banks = max(LUT_BANKS if uses_lut else 0, accel.shram_reserved_end_banks)
    depth = ifm_block_depth(accel, ifm, ifm_bits, is_partkernel)
    return _Setup(elementwise, equal_depth, is_partkernel, acc, accel.accumulator_granule(acc), ifm_granule,
                  lut_banks, depth)


# -- the search ------------------------------------------------------------------------------
@lru_cache(maxsize=65536)
def find_block_config(accel: AcceleratorConfig, block_type: BlockType, ofm: Shape4, ifm: Shape4,
                      ifm2: Shape4 | None, uses_scalar: bool, ifm_bits: int, kernel: Kernel, uses_lut: bool,
                      scaled: bool, resampling: Resampling = Resampling.NONE) -> BlockConfig | None:
    """The cheapest OFM block config that fits SHRAM, or None if none fits (memoised).

    Candidates: heights and widths in micro-block steps up to the OFM (at most 32 x 64), depths
    from 16 (or one micro-block) in micro-block steps, rounded up to 16 while below the OFM
    depth, up to 128. Cost = (IFM + weight elements fetched) / OFM elements (for elementwise ops:
    the number of blocks), halved when two IFM blocks hold the whole IFM; on an equal cost a
    block of at most 4x4 that covers the IFM no worse replaces the best.
    """
    if ifm2 is not None and ifm2.elements() > ifm.elements():
        ifm = ifm2  # elementwise: size the search on the larger input
    s = _setup(accel, block_type, ifm, uses_scalar, ifm_bits, kernel, uses_lut, scaled, None)
    depthwise = block_type is BlockType.DEPTHWISE
    convolution = block_type is BlockType.CONVOLUTION or depthwise
    ub = accel.ofm_ublock
    ifm_repeats = div_up(kernel.area_width(), SUB_KERNEL_MAX.width) * div_up(kernel.area_height(),
                                                                              SUB_KERNEL_MAX.height)
    weight_fetch_wh = kernel.area_width() * kernel.area_height() if convolution else 0
    space = ofm.min(Shape4(1, OFM_BLOCK_MAX.height, OFM_BLOCK_MAX.width, OFM_BLOCK_MAX.depth)).round_up(
        Shape4(1, ub.height, ub.width, ub.depth))

    # The loops work on plain integers (this runs for every candidate); per-axis IFM extents
    # depend only on the OFM height or width, so they are computed once.
    up = resampling.upscale
    nearest = 1 if resampling is Resampling.NEAREST else 0
    sub_h = min(kernel.area_height(), SUB_KERNEL_MAX.height)
    sub_w = min(kernel.area_width(), SUB_KERNEL_MAX.width)
    heights = range(ub.height, space.height + 1, ub.height)
    widths = range(ub.width, space.width + 1, ub.width)
    ifm_h_of = {h: round_up(_required(h, kernel.stride_y, sub_h, up, nearest), ub.height) for h in heights}
    ifm_w_of = {w: round_up(_required(w, kernel.stride_x, sub_w, up, nearest), ub.width) for w in widths}
    conv1d = ofm.height == 1 and kernel.height == 1 and ub.height == 2  # fit_block_for_ofm's rule
    lut_start = accel.shram_banks - s.lut_banks
    ifm_elements = ifm.elements()
    ifm_wh = ifm.elements_wh()
    ofm_elements = ofm.elements()

    best: tuple[int, int, int, int] | None = None  # (height, width, depth, ifm block depth)
    best_cost = math.inf
    best_coverage = math.inf
    depth = max(ub.depth, min(space.depth, OFM_SPLIT_DEPTH))
    if depth < ofm.depth:
        depth = round_up(depth, OFM_SPLIT_DEPTH)
    while depth <= space.depth:
        ifm_depth = depth if s.equal_depth else s.ifm_depth
        pixel_bytes = round_up((ifm_depth * ifm_bits) // 8, 8)
        acc_pixel_bytes = round_up(depth, 8) * s.acc_bits
        full_d = div_up(ofm.depth, depth)
        blocks_d = ofm.depth / depth
        wont_fit: set[tuple[int, int]] = set()
        for height in heights:
            fitted_h = min(height, ofm.height) if conv1d else height
            ifm_h = ifm_h_of[height]
            full_h = div_up(ofm.height, fitted_h)
            blocks_h = ofm.height / fitted_h
            for width in widths:
                if (height, width) in wont_fit:
                    continue  # its transpose did not fit: neither will this
                ifm_w = ifm_w_of[width]
                # SHRAM fit (try_layout, inlined): double-buffered IFM above the reserved output
                # banks, accumulators (or the IFM2 of an elementwise op) below the LUT.
                ifm_end = SHRAM_RESERVED_OUTPUT_BANKS + round_up(
                    div_up(ifm_w * ifm_h * pixel_bytes, SHRAM_BANK_SIZE) * 2, s.ifm_granule)
                if not s.elementwise:
                    acc_bytes = (fitted_h * width * acc_pixel_bytes) // 8
                    fits = ifm_end <= lut_start - round_up(div_up(acc_bytes, SHRAM_BANK_SIZE) * 2, s.acc_granule)
                else:
                    ifm2 = ifm_end - SHRAM_RESERVED_OUTPUT_BANKS if s.elementwise == "full" else 0
                    fits = ifm_end + ifm2 <= lut_start
                if not fits:
                    wont_fit.add((width, height))
                    continue
                # The arithmetic below keeps Vela's evaluation order: equal costs must tie alike.
                full_w = div_up(ofm.width, width)
                weight_fetch = weight_fetch_wh * ifm.depth * (full_w * full_h)
                if not depthwise:
                    weight_fetch *= depth * blocks_d
                ifm_fetch = ifm_w * ifm_h * ifm.depth * ifm_repeats * ((ofm.width / width) * blocks_h)
                if not s.equal_depth:
                    ifm_fetch *= full_d
                if s.elementwise:
                    cost = max(ofm_elements / (height * width * depth), 1)
                else:
                    cost = (ifm_fetch + weight_fetch) / ofm_elements
                if ifm_elements < ifm_h * ifm_w * ifm_depth * 2:
                    cost = cost / 2
                if cost > best_cost:
                    continue
                if cost == best_cost:
                    coverage = ifm_wh / (min(ifm.height, ifm_h) * min(ifm.width, ifm_w))
                    if not (coverage <= best_coverage and height <= 4 and width <= 4):
                        continue
                    best_coverage = coverage
                else:
                    best_coverage = math.inf
                best_cost = cost
                best = (height, width, depth, ifm_depth)
        depth += ub.depth
        if depth < ofm.depth:
            depth = round_up(depth, OFM_SPLIT_DEPTH)
    if best is None:
        return None
    height, width, depth, ifm_depth = best
    searched = Shape4(1, height, width, depth)
    ifm_block = Shape4(1, ifm_h_of[height], ifm_w_of[width], ifm_depth)
    layout = try_layout(accel, s.elementwise, fit_block_for_ofm(accel, ofm, kernel, searched), ifm_block, ifm_bits,
                        s.ifm_granule, s.acc_bits, s.acc_granule, s.lut_banks)
    assert layout is not None
    return BlockConfig(searched, ifm_block, s.acc_bits, s.is_partkernel, layout, best_cost)


def select_block_config(desc: NpuOpDesc, accel: AcceleratorConfig) -> BlockConfig | None:
    """The block config Vela would choose for ``desc`` (None for a DMA op, or if nothing fits)."""
    if desc.block_type is None:
        return None
    return find_block_config(accel, desc.block_type, desc.ofm.shape, desc.ifm.shape,
                             desc.ifm2.shape if desc.ifm2 is not None else None, desc.ifm2_scalar, desc.ifm.bits,
                             desc.kernel, desc.uses_lut, desc.rescaled, desc.resampling)


def check_block_config(desc: NpuOpDesc, accel: AcceleratorConfig, ofm_block: Shape4,
                       is_partkernel: bool | None = None) -> BlockConfig | None:
    """``ofm_block`` as a block config for ``desc`` if it is valid (micro-block multiples within
    the maximum block) and fits SHRAM, else None (Vela's ``try_block_config``)."""
    if desc.block_type is None:
        return None
    ub = accel.ofm_ublock
    for value, limit, step in ((ofm_block.height, OFM_BLOCK_MAX.height, ub.height),
                               (ofm_block.width, OFM_BLOCK_MAX.width, ub.width),
                               (ofm_block.depth, OFM_BLOCK_MAX.depth, ub.depth)):
        if not (0 < value <= limit and value % step == 0):
            return None
    ifm = desc.ifm.shape
    if desc.ifm2 is not None and desc.ifm2.shape.elements() > ifm.elements():
        ifm = desc.ifm2.shape
    s = _setup(accel, desc.block_type, ifm, desc.ifm2_scalar, desc.ifm.bits, desc.kernel, desc.uses_lut,
               desc.rescaled, is_partkernel)
    ifm_block = ifm_block_for(accel, ofm_block, desc.kernel, desc.resampling)
    if not s.equal_depth:
        ifm_block = ifm_block.with_depth(s.ifm_depth)
    block = fit_block_for_ofm(accel, desc.ofm.shape, desc.kernel, ofm_block)
    layout = try_layout(accel, s.elementwise, block, ifm_block, desc.ifm.bits, s.ifm_granule, s.acc_bits,
                        s.acc_granule, s.lut_banks)
    if layout is None:
        return None
    return BlockConfig(ofm_block, ifm_block, s.acc_bits, s.is_partkernel, layout)


__all__ = [
    "BlockConfig", "LUT_BANKS", "ShramLayout", "accumulator_bits", "check_block_config", "choose_part_kernel",
    "find_block_config", "fit_block_for_ofm", "ifm_block_depth", "ifm_block_for", "select_block_config",
    "try_layout",
]
