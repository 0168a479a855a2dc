"""OFM block configuration: how an op's OFM is cut into blocks that fit the NPU's shared buffer.

The NPU produces its OFM one block at a time. While it works on a block, the shared buffer (SHRAM:
1 KiB banks; the first two hold output, the last ones the activation LUT) holds two copies of the
IFM data the block reads and two copies of the block's accumulators. A block config names the OFM
block (height x width x depth), the IFM block that feeds it, the accumulator width and the order
weights are traversed in. The search here scores every block that fits by the IFM and weight
elements fetched per OFM element and keeps the cheapest; it picks what Vela 5.2 picks (the unit
tests compare it with vectors recorded from Vela), including which of two equally cheap blocks
wins, so the float arithmetic of the score is kept operation for operation.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterator

import numpy as np

from npu_opt.hardware.accelerators import (
    OFM_BLOCK_MAX, OFM_SPLIT_DEPTH, SHRAM_BANK_SIZE, SHRAM_RESERVED_OUTPUT_BANKS, SUB_KERNEL_MAX,
    AcceleratorConfig, BlockType,
)
from npu_opt.hardware.perf.op_desc import Kernel, NpuOpDesc, Resampling
from npu_opt.hardware.perf.shape import Shape4, div_up, round_up

LUT_BANKS = 2
"""SHRAM banks an activation LUT occupies (2048 bytes)."""

SMALL_BLOCK = 4
"""Among equally cheap blocks, one at most this high and wide that covers the IFM better wins."""


@dataclass(frozen=True)
class ShramLayout:
    """Which SHRAM banks a block config uses: IFM [ifm_start, ifm_end), the second elementwise
    operand from ifm2_start, accumulators [acc_start, lut_start), the LUT from lut_start."""

    ifm_start: int
    ifm_end: int
    ifm2_start: int
    acc_start: int
    lut_start: int


@dataclass(frozen=True)
class BlockConfig:
    """A chosen OFM block with its IFM block, accumulator width, traversal and SHRAM layout.

    ``ofm_block`` is the searched block (on 2-row micro-block machines a 1-row op runs 1-row blocks
    but the config keeps the searched height, as Vela reports it). ``cost`` is the search's score
    (IFM and weight elements fetched per OFM element); NaN for a block given by the caller.
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
        ofm, ifm = self.ofm_block, self.ifm_block
        return [ofm.height, ofm.width, ifm.depth, ofm.depth]

    def __str__(self) -> str:
        """``HxWxD`` of the OFM block, as the perf report prints it."""
        return f"{self.ofm_block.height}x{self.ofm_block.width}x{self.ofm_block.depth}"


# -- per-op rules ----------------------------------------------------------------------------
def choose_part_kernel(ifm: Shape4, ifm_bits: int, kernel: Kernel) -> bool:
    """Whether weights are traversed kernel-position first rather than depth first.

    Depth-first feeds the MACs 32 channels (16 at 16 bit) of one kernel position at a time;
    part-kernel feeds 8 channels of 4 positions (2 at 16 bit). The one that pads less wins: the
    used fraction is C / ceil32(C) against C*K / (ceil8(C) * ceil4(K)); a tie keeps depth-first.
    A shallow IFM (8 channels or fewer) always goes part-kernel. Compared in integers:
    K * ceil32(C) > ceil8(C) * ceil4(K) is the same test with C cancelled out.
    """
    channels = ifm.depth
    if channels <= 8:
        return True
    positions = kernel.elements_wh()
    wide = ifm_bits == 8
    depth_first_padded = round_up(channels, 32 if wide else 16)
    part_kernel_padded = round_up(channels, 8) * round_up(positions, 4 if wide else 2)
    return positions * depth_first_padded > part_kernel_padded


def accumulator_bits(block_type: BlockType, ifm_bits: int, scaled: bool) -> int:
    """40-bit accumulators for a rescaled 16-bit IFM (except pooling), else 32-bit."""
    return 40 if ifm_bits == 16 and block_type is not BlockType.POOLING and scaled else 32


def ifm_block_depth(accel: AcceleratorConfig, ifm: Shape4, ifm_bits: int, is_partkernel: bool) -> int:
    """IFM block depth of a convolution or vector product (equal-depth ops use the OFM's): at most
    16 channels (32 for a depth-first op on 8- or 32-bit data: softmax's ReduceSum reads int32),
    in IFM micro-block steps (4 at 16 bit)."""
    cap = 16 if ifm_bits == 16 or is_partkernel else 32
    step = 4 if ifm_bits == 16 else accel.ifm_ublock.depth
    return round_up(min(ifm.depth, cap), step)


def _ifm_extent(ofm_extent: int, stride: int, taps: int, resampling: Resampling, step: int) -> int:
    """IFM rows (or columns) that ``ofm_extent`` OFM rows read through one sub-kernel of ``taps``
    taps, in upscaled coordinates (a nearest-neighbour upscale reads one more), in ``step``s."""
    reach = (ofm_extent - 1) * stride + taps + (resampling is Resampling.NEAREST)
    return round_up(div_up(reach, resampling.upscale), step)


def _taps_y(kernel: Kernel) -> int:
    """Rows of the dilated kernel one sub-kernel pass covers (the hardware splits at 8)."""
    return min(kernel.area_height(), SUB_KERNEL_MAX.height)


def _taps_x(kernel: Kernel) -> int:
    """Columns of the dilated kernel one sub-kernel pass covers."""
    return min(kernel.area_width(), SUB_KERNEL_MAX.width)


def ifm_block_for(accel: AcceleratorConfig, ofm_block: Shape4, kernel: Kernel, resampling: Resampling) -> Shape4:
    """The IFM block feeding ``ofm_block``, in OFM micro-block steps; its depth is the OFM block's
    (the caller sets it for convolutions)."""
    ub = accel.ofm_ublock
    return Shape4(1, _ifm_extent(ofm_block.height, kernel.stride_y, _taps_y(kernel), resampling, ub.height),
                  _ifm_extent(ofm_block.width, kernel.stride_x, _taps_x(kernel), resampling, ub.width),
                  ofm_block.depth)


def _runs_single_rows(accel: AcceleratorConfig, ofm: Shape4, kernel: Kernel) -> bool:
    """A 1-row OFM made by a 1-row kernel runs 1-row blocks on machines whose micro-block is two
    rows high, which halves the accumulators a block needs."""
    return ofm.height == 1 and kernel.height == 1 and accel.ofm_ublock.height == 2


def fit_block_for_ofm(accel: AcceleratorConfig, ofm: Shape4, kernel: Kernel, block: Shape4) -> Shape4:
    """``block`` as it actually runs on ``ofm`` (see ``_runs_single_rows``)."""
    return block.with_height(min(block.height, ofm.height)) if _runs_single_rows(accel, ofm, kernel) else block


# -- SHRAM banks -----------------------------------------------------------------------------
def _double_buffer_banks(nbytes, granule: int):
    """Banks for two copies of an ``nbytes`` buffer, in whole allocation granules (works
    elementwise on numpy arrays too)."""
    return round_up(2 * div_up(nbytes, SHRAM_BANK_SIZE), granule)


def _ifm_bytes(pixels, depth, ifm_bits: int):
    """One IFM block in SHRAM: each pixel's channels padded to a multiple of 8 bytes."""
    return pixels * round_up(depth * ifm_bits // 8, 8)


def _acc_bytes(pixels, depth, acc_bits: int):
    """One block of accumulators: each pixel's depth padded to 8 accumulators."""
    return pixels * round_up(depth, 8) * (acc_bits // 8)


def try_layout(accel: AcceleratorConfig, elementwise: str, ofm_block: Shape4, ifm_block: Shape4,
               ifm_bits: int, ifm_granule: int, acc_bits: int, acc_granule: int,
               lut_banks: int) -> ShramLayout | None:
    """Place a block's buffers in SHRAM, or None if they do not fit.

    The IFM buffers start after the reserved output banks; the LUT banks sit at the top. An
    elementwise op (``elementwise`` is "full" or "scalar") has no accumulators: its IFM region
    runs up to the LUT and must leave room for an equally large second operand unless that is a
    scalar. Any other op puts its accumulators right below the LUT, and the IFM must end at or
    before them.
    """
    lut_start = accel.shram_banks - lut_banks
    ifm_start = SHRAM_RESERVED_OUTPUT_BANKS
    ifm_banks = _double_buffer_banks(_ifm_bytes(ifm_block.elements_wh(), ifm_block.depth, ifm_bits), ifm_granule)
    after_ifm = ifm_start + ifm_banks
    if elementwise:
        operands = 2 if elementwise == "full" else 1
        if ifm_start + operands * ifm_banks > lut_start:
            return None
        return ShramLayout(ifm_start, lut_start, after_ifm, lut_start, lut_start)
    acc_banks = _double_buffer_banks(_acc_bytes(ofm_block.elements_wh(), ofm_block.depth, acc_bits), acc_granule)
    acc_start = lut_start - acc_banks
    if after_ifm > acc_start:
        return None
    return ShramLayout(ifm_start, after_ifm, after_ifm, acc_start, lut_start)


@dataclass(frozen=True)
class _OpTraits:
    """What the search and the check of a given block need to know about the op."""

    elementwise: str
    """"" for ops with accumulators, else "full" or "scalar" (the second operand)."""
    equal_depth: bool
    """IFM block as deep as the OFM block (elementwise, pooling, depthwise)."""
    is_partkernel: bool
    acc_bits: int
    acc_granule: int
    ifm_granule: int
    lut_banks: int
    ifm_depth: int
    """IFM block depth when it does not follow the OFM block."""


def _op_traits(accel: AcceleratorConfig, block_type: BlockType, ifm: Shape4, uses_scalar: bool, ifm_bits: int,
               kernel: Kernel, uses_lut: bool, scaled: bool, is_partkernel: bool | None) -> _OpTraits:
    """The per-op facts the block search works from; ``is_partkernel`` None lets the rule choose."""
    elementwise = ("scalar" if uses_scalar else "full") if block_type is BlockType.ELEMENTWISE else ""
    kernel_op = block_type in (BlockType.CONVOLUTION, BlockType.DEPTHWISE)
    if is_partkernel is None:
        is_partkernel = kernel_op and choose_part_kernel(ifm, ifm_bits, kernel)
    acc = accumulator_bits(block_type, ifm_bits, scaled)
    return _OpTraits(
        elementwise=elementwise,
        equal_depth=bool(elementwise) or block_type in (BlockType.POOLING, BlockType.DEPTHWISE),
        is_partkernel=is_partkernel, acc_bits=acc, acc_granule=accel.accumulator_granule(acc),
        ifm_granule=accel.ifm_bank_granule(ifm_bits, elementwise=bool(elementwise)),
        lut_banks=max(LUT_BANKS if uses_lut else 0, accel.shram_reserved_end_banks),
        ifm_depth=ifm_block_depth(accel, ifm, ifm_bits, is_partkernel))


# -- the search ------------------------------------------------------------------------------
def _candidate_depths(ofm_depth: int, limit: int, step: int) -> Iterator[int]:
    """OFM block depths to try, in order: whole 16-channel splits while below the OFM depth,
    then micro-block steps, up to ``limit``."""
    depth = max(step, min(limit, OFM_SPLIT_DEPTH))
    while True:
        if depth < ofm_depth:
            depth = round_up(depth, OFM_SPLIT_DEPTH)
        if depth > limit:
            return
        yield depth
        depth += step


def _position_of(values: np.ndarray, wanted: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Index of each ``wanted`` in the sorted ``values`` (clipped) and whether it is there."""
    index = np.minimum(np.searchsorted(values, wanted), len(values) - 1)
    return index, values[index] == wanted


def _pick(cost: np.ndarray, coverage: np.ndarray, small: np.ndarray) -> int | None:
    """Flat index of the winning candidate in scan order (depth, height, width), or None.

    The first candidate at the lowest cost wins unless a later, equally cheap small block exists;
    then the last of the small ones with the best (lowest) IFM coverage ratio wins.
    """
    flat = cost.ravel()
    if not np.isfinite(flat).any():
        return None
    ties = np.flatnonzero(flat == flat.min())
    later_small = ties[1:][small.ravel()[ties[1:]]]
    if later_small.size == 0:
        return int(ties[0])
    ratios = coverage.ravel()[later_small]
    return int(later_small[np.flatnonzero(ratios == ratios.min())[-1]])


@lru_cache(maxsize=65536)
def find_block_config(accel: AcceleratorConfig, block_type: BlockType, ofm: Shape4, ifm: Shape4,
                      ifm2: Shape4 | None, uses_scalar: bool, ifm_bits: int, kernel: Kernel, uses_lut: bool,
                      scaled: bool, resampling: Resampling = Resampling.NONE) -> BlockConfig | None:
    """The cheapest OFM block config that fits SHRAM, or None if none fits (memoised).

    Every block of micro-block multiples up to the OFM (at most 32 x 64 x 128) is scored at once
    on a depth x height x width grid. Score: IFM plus weight elements fetched, per OFM element
    (elementwise: the number of blocks), halved when both IFM buffers together hold the whole IFM.
    A block whose transpose was tried first (lower height) and did not fit is not considered.
    """
    if ifm2 is not None and ifm2.elements() > ifm.elements():
        ifm = ifm2  # elementwise: size the search on the larger input
    op = _op_traits(accel, block_type, ifm, uses_scalar, ifm_bits, kernel, uses_lut, scaled, None)
    ub = accel.ofm_ublock
    limit = ofm.min(Shape4(1, OFM_BLOCK_MAX.height, OFM_BLOCK_MAX.width, OFM_BLOCK_MAX.depth)).round_up(
        Shape4(1, ub.height, ub.width, ub.depth))
    depths = np.fromiter(_candidate_depths(ofm.depth, limit.depth, ub.depth), dtype=np.int64)
    heights = np.arange(ub.height, limit.height + 1, ub.height, dtype=np.int64)
    widths = np.arange(ub.width, limit.width + 1, ub.width, dtype=np.int64)
    if depths.size == 0:
        return None
    d, h, w = depths[:, None, None], heights[None, :, None], widths[None, None, :]
    rows = np.minimum(h, ofm.height) if _runs_single_rows(accel, ofm, kernel) else h
    ifm_h = np.array([_ifm_extent(int(x), kernel.stride_y, _taps_y(kernel), resampling, ub.height)
                      for x in heights], dtype=np.int64)[None, :, None]
    ifm_w = np.array([_ifm_extent(int(x), kernel.stride_x, _taps_x(kernel), resampling, ub.width)
                      for x in widths], dtype=np.int64)[None, None, :]
    ifm_d = d if op.equal_depth else np.full_like(d, op.ifm_depth)

    # SHRAM fit, as try_layout decides it, for the whole grid
    lut_start = accel.shram_banks - op.lut_banks
    ifm_banks = _double_buffer_banks(_ifm_bytes(ifm_h * ifm_w, ifm_d, ifm_bits), op.ifm_granule)
    if op.elementwise:
        fits = SHRAM_RESERVED_OUTPUT_BANKS + (2 if op.elementwise == "full" else 1) * ifm_banks <= lut_start
    else:
        acc_banks = _double_buffer_banks(_acc_bytes(rows * w, d, op.acc_bits), op.acc_granule)
        fits = SHRAM_RESERVED_OUTPUT_BANKS + ifm_banks <= lut_start - acc_banks
    fits = np.broadcast_to(fits, (len(depths), len(heights), len(widths)))
    # a block is skipped when its transpose (height and width swapped) came first and did not fit
    tr_row, row_ok = _position_of(heights, widths)
    tr_col, col_ok = _position_of(widths, heights)
    transpose_failed = ~fits[:, tr_row[None, :], tr_col[:, None]]
    skipped = (h > w) & row_ok[None, None, :] & col_ok[None, :, None] & transpose_failed
    usable = fits & ~skipped

    # score, in Vela's float operation order (ties must break alike)
    convolution = block_type in (BlockType.CONVOLUTION, BlockType.DEPTHWISE)
    sub_kernels = div_up(kernel.area_width(), SUB_KERNEL_MAX.width) * div_up(kernel.area_height(),
                                                                             SUB_KERNEL_MAX.height)
    block_count_wh = div_up(ofm.width, w) * div_up(ofm.height, rows)
    weight_reads = (kernel.area_width() * kernel.area_height() if convolution else 0) * ifm.depth * block_count_wh
    if block_type is not BlockType.DEPTHWISE:
        weight_reads = weight_reads * (d * (ofm.depth / d))
    ifm_reads = ifm_w * ifm_h * ifm.depth * sub_kernels * ((ofm.width / w) * (ofm.height / rows))
    if not op.equal_depth:
        ifm_reads = ifm_reads * div_up(ofm.depth, d)
    if op.elementwise:
        cost = np.maximum(ofm.elements() / (h * w * d), 1)
    else:
        cost = (ifm_reads + weight_reads) / ofm.elements()
    cost = np.where(ifm.elements() < ifm_h * ifm_w * ifm_d * 2, cost / 2, cost)
    cost = np.where(usable, np.broadcast_to(cost, usable.shape), np.inf)
    coverage = ifm.elements_wh() / (np.minimum(ifm.height, ifm_h) * np.minimum(ifm.width, ifm_w))
    small = (h <= SMALL_BLOCK) & (w <= SMALL_BLOCK)
    winner = _pick(cost, np.broadcast_to(coverage, cost.shape), np.broadcast_to(small, cost.shape))
    if winner is None:
        return None
    di, hi, wi = np.unravel_index(winner, cost.shape)
    searched = Shape4(1, int(heights[hi]), int(widths[wi]), int(depths[di]))
    ifm_block = Shape4(1, int(ifm_h[0, hi, 0]), int(ifm_w[0, 0, wi]), int(ifm_d[di, 0, 0]))
    layout = try_layout(accel, op.elementwise, fit_block_for_ofm(accel, ofm, kernel, searched), ifm_block, ifm_bits,
                        op.ifm_granule, op.acc_bits, op.acc_granule, op.lut_banks)
    assert layout is not None
    return BlockConfig(searched, ifm_block, op.acc_bits, op.is_partkernel, layout, float(cost[di, hi, wi]))


def select_block_config(desc: NpuOpDesc, accel: AcceleratorConfig) -> BlockConfig | None:
    """The block config Vela would choose for ``desc`` (None for a DMA op, or if nothing fits)."""
    if desc.block_type is None:
        return None
    return find_block_config(accel, desc.block_type, desc.ofm.block_shape, desc.ifm.block_shape,
                             desc.ifm2.block_shape if desc.ifm2 is not None else None, desc.ifm2_scalar, desc.ifm.bits,
                             desc.kernel, desc.uses_lut, desc.rescaled, desc.resampling)


def _on_block_grid(accel: AcceleratorConfig, block: Shape4) -> bool:
    """Whether each of ``block``'s extents is a positive micro-block multiple within the maximum block."""
    ub = accel.ofm_ublock
    extents = ((block.height, OFM_BLOCK_MAX.height, ub.height), (block.width, OFM_BLOCK_MAX.width, ub.width),
               (block.depth, OFM_BLOCK_MAX.depth, ub.depth))
    return all(0 < extent <= top and extent % step == 0 for extent, top, step in extents)


def check_block_config(desc: NpuOpDesc, accel: AcceleratorConfig, ofm_block: Shape4,
                       is_partkernel: bool | None = None) -> BlockConfig | None:
    """``ofm_block`` as a block config for ``desc`` if it is on the block grid and fits SHRAM,
    else None (a block given by the user or a previous run, validated; memoised on what it
    depends on: the scheduling passes ask it of every op with a block, in every run)."""
    if desc.block_type is None:
        return None
    ifm = desc.ifm.block_shape
    if desc.ifm2 is not None and desc.ifm2.block_shape.elements() > ifm.elements():
        ifm = desc.ifm2.block_shape
    return _checked_block(accel, desc.block_type, ifm, desc.ifm2_scalar, desc.ifm.bits, desc.kernel, desc.uses_lut,
                          desc.rescaled, desc.resampling, desc.ofm.block_shape, ofm_block, is_partkernel)


@lru_cache(maxsize=65536)
def _checked_block(accel: AcceleratorConfig, block_type: BlockType, ifm: Shape4, ifm2_scalar: bool, ifm_bits: int,
                   kernel: Kernel, uses_lut: bool, rescaled: bool, resampling: Resampling, ofm: Shape4,
                   ofm_block: Shape4, is_partkernel: bool | None) -> BlockConfig | None:
    """``check_block_config`` on the fields of the description it reads."""
    if not _on_block_grid(accel, ofm_block):
        return None
    op = _op_traits(accel, block_type, ifm, ifm2_scalar, ifm_bits, kernel, uses_lut, rescaled, is_partkernel)
    ifm_block = ifm_block_for(accel, ofm_block, kernel, resampling)
    if not op.equal_depth:
        ifm_block = ifm_block.with_depth(op.ifm_depth)
    layout = try_layout(accel, op.elementwise, fit_block_for_ofm(accel, ofm, kernel, ofm_block),
                        ifm_block, ifm_bits, op.ifm_granule, op.acc_bits, op.acc_granule, op.lut_banks)
    if layout is None:
        return None
    return BlockConfig(ofm_block, ifm_block, op.acc_bits, op.is_partkernel, layout)


__all__ = [
    "BlockConfig", "LUT_BANKS", "ShramLayout", "accumulator_bits", "check_block_config", "choose_part_kernel",
    "find_block_config", "fit_block_for_ofm", "ifm_block_depth", "ifm_block_for", "select_block_config",
    "try_layout",
]
