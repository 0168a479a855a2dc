"""The order in which the NPU consumes weights: the padded brick stream the encoder compresses.

Design notes: docs/cost_model_design.md, section Weight order (weight_reorder)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np



def _round_up(value: int, multiple: int) -> int:
    """``value`` rounded up to a multiple (here rather than from hardware.perf.shape: importing
    the perf package from the codec closes a cycle, as hardware.perf.caches imports this module)."""
    return -(-value // multiple) * multiple


@dataclass(frozen=True)
class _Brick:
    """The walk inside one (OFM block, IFM block, sub-kernel): offsets from the blocks' first
    channels, in stream order, and whether each element lies inside the sub-kernel."""

    ofm: np.ndarray
    row: np.ndarray
    column: np.ndarray
    ifm: np.ndarray
    inside: np.ndarray


@lru_cache(maxsize=256)
def _brick(ofm_depth: int, ifm_depth: int, sub: tuple[int, int, int, int], ifm_ublock: int, ofm_ublock: int,
           depthwise: bool, partkernel: bool, ifm_bits: int) -> _Brick:
    """The walk for blocks of ``ofm_depth`` x ``ifm_depth`` channels over sub-kernel ``sub``
    = (first row, first column, rows, columns): axes IFM micro-block (part-kernel-first), OFM
    micro-block, kernel element, IFM micro-block (depth-first), OFM channel, IFM channel.
    Memoised: layers of one network share a few block shapes."""
    top, left, rows, columns = sub
    elements = rows * columns
    if partkernel:
        elements = _round_up(elements, 2 if ifm_bits == 16 else 4)
    elif depthwise:
        elements = _round_up(elements, 4)
    ifm_steps = np.arange(0, ifm_depth, ifm_ublock)
    walk_ifm_first = ifm_steps if partkernel else np.zeros(1, np.int64)
    walk_ifm_inner = np.zeros(1, np.int64) if partkernel else ifm_steps
    element = np.arange(elements)
    ofm = (np.arange(0, ofm_depth, ofm_ublock)[None, :, None, None, None, None]
           + np.arange(ofm_ublock)[None, None, None, None, :, None])
    ifm = (walk_ifm_first[:, None, None, None, None, None] + walk_ifm_inner[None, None, None, :, None, None]
           + np.arange(1 if depthwise else ifm_ublock)[None, None, None, None, None, :])
    e = element[None, None, :, None, None, None]
    shape = np.broadcast_shapes(ofm.shape, ifm.shape, e.shape)
    def spread(axes: np.ndarray) -> np.ndarray:
        flat = np.broadcast_to(axes, shape).reshape(-1)
        flat.flags.writeable = False  # shared by every call with these arguments (memoised)
        return flat

    return _Brick(spread(ofm), spread(top + e // columns), spread(left + e % columns), spread(ifm),
                  spread((e // columns) < rows))


def reorder_weights(ohwi: np.ndarray, ifm_ublock_depth: int, ofm_ublock_depth: int, ofm_block_depth: int,
                    depthwise: bool, partkernel: bool, ifm_bits: int, decomp_h: int = 8,
                    decomp_w: int = 8) -> np.ndarray:
    """The weights ``ohwi`` (O x H x W x I, zero point already subtracted) in NPU stream order,
    zero padded, as int16: gathered along ``stream_cells`` from a copy of the weights with a
    zero cell that padding points to."""
    if ohwi.shape[0] == 0:
        return np.zeros(0, np.int16)
    cells = stream_cells(ohwi.shape, ifm_ublock_depth, ofm_ublock_depth, ofm_block_depth, depthwise, partkernel,
                         ifm_bits, decomp_h, decomp_w)
    source = np.zeros(ohwi.size + 1, np.int16)
    source[:ohwi.size] = ohwi.reshape(-1)
    return source[cells]


def stream_cells(shape: tuple[int, ...], ifm_ublock_depth: int, ofm_ublock_depth: int, ofm_block_depth: int,
                 depthwise: bool, partkernel: bool, ifm_bits: int, decomp_h: int = 8,
                 decomp_w: int = 8) -> np.ndarray:
    """For each weight of the NPU's stream, in order, its flat index in the O x H x W x I
    weights of ``shape``, or O*H*W*I (one past the last) where the stream holds padding. The
    encoder gathers along it; the command-stream simulator scatters decoded weights back along it.

    Blocks of the same extent share one walk (``_brick``): the cells of all of them are computed
    at once."""
    ofm_depth, kernel_h, kernel_w, ifm_depth = shape
    ifm_block_depth = 16 if partkernel or ifm_bits == 16 else 32
    zero_cell = ofm_depth * kernel_h * kernel_w * ifm_depth
    if ofm_depth == 0:
        return np.zeros(0, np.int64)
    subs = [(y, x, min(decomp_h, kernel_h - y), min(decomp_w, kernel_w - x))
            for y in range(0, kernel_h, decomp_h) for x in range(0, kernel_w, decomp_w)]
    ofm_groups = _block_groups(ofm_depth, ofm_block_depth)
    if depthwise:
        ifm_groups = [(np.zeros(1, np.int64), ifm_ublock_depth)]
    elif partkernel:
        ifm_groups = _block_groups(ifm_depth, ifm_block_depth)
    else:
        ifm_groups = [(np.arange(0, ifm_depth, ifm_block_depth), ifm_block_depth)]
    # Cells are indexed in 32 bits when they fit (half the memory traffic of the index arithmetic).
    index = np.int32 if zero_cell < (1 << 31) - 1 else np.int64
    channel_cells = kernel_h * kernel_w * ifm_depth
    pieces = []
    for ofm_starts, ofm_extent in ofm_groups:
        per_ifm_group = []
        ofm_base = (ofm_starts * channel_cells).astype(index)[:, None, None]
        for ifm_starts, ifm_extent in ifm_groups:
            per_sub = []
            ifm_base = ifm_starts.astype(index)[None, :, None]
            for sub in subs:
                walk = _brick(ofm_extent, ifm_extent, sub, ifm_ublock_depth, ofm_ublock_depth, depthwise,
                              partkernel, ifm_bits)
                # A cell is the walk's offset from the block's first weight plus the block's first
                # weight; the walk stays inside the weights where its channels do and it is inside.
                offset = (((walk.ofm * kernel_h + walk.row) * kernel_w + walk.column) * ifm_depth
                          + walk.ifm).astype(index)
                cell = ofm_base + ifm_base + offset[None, None, :]
                keep_ofm = walk.ofm[None, :] < (ofm_depth - ofm_starts)[:, None]
                keep_ifm = (walk.ifm[None, :] < (ifm_depth - ifm_starts)[:, None]) & walk.inside[None, :]
                if keep_ofm.all() and keep_ifm.all():
                    per_sub.append(cell)
                else:
                    per_sub.append(np.where(keep_ofm[:, None, :] & keep_ifm[None, :, :], cell, index(zero_cell)))
            cells = np.concatenate(per_sub, axis=2)
            per_ifm_group.append(cells.reshape(cells.shape[0], -1))
        pieces.append(np.concatenate(per_ifm_group, axis=1).reshape(-1))
    return np.concatenate(pieces)


def forget_walks() -> None:
    """Drop the memoised block walks (hardware.perf.caches.clear_caches calls this)."""
    _brick.cache_clear()


def _block_groups(depth: int, block: int) -> list[tuple[np.ndarray, int]]:
    """Blocks of ``block`` channels over ``depth``: (first channels, extent) of the full blocks,
    then of the clipped last block if there is one."""
    full = depth // block
    groups = [(np.arange(full) * block, block)] if full else []
    if depth % block:
        groups.append((np.array([full * block]), depth % block))
    return groups


def padded_weight_count(ofm_depth: int, kernel_h: int, kernel_w: int, ifm_depth: int, ifm_ublock_depth: int,
                        ofm_ublock_depth: int, ofm_block_depth: int, depthwise: bool, partkernel: bool,
                        ifm_bits: int, decomp_h: int = 8, decomp_w: int = 8) -> int:
    """Length of ``reorder_weights``' stream, computed without building it."""
    ifm_block_depth = 16 if partkernel or ifm_bits == 16 else 32
    step = 2 if ifm_bits == 16 else 4
    kernel = 0
    for sub_y in range(0, kernel_h, decomp_h):
        for sub_x in range(0, kernel_w, decomp_w):
            e = min(kernel_h - sub_y, decomp_h) * min(kernel_w - sub_x, decomp_w)
            kernel += _round_up(e, step) if partkernel else _round_up(e, 4) if depthwise else e
    ofm = sum(_round_up(min(ofm_block_depth, ofm_depth - z), ofm_ublock_depth)
              for z in range(0, ofm_depth, ofm_block_depth))
    if depthwise:
        return ofm * kernel
    if partkernel:
        ifm = sum(_round_up(min(ifm_block_depth, ifm_depth - z), ifm_ublock_depth)
                  for z in range(0, ifm_depth, ifm_block_depth))
    else:
        ifm = _round_up(ifm_depth, ifm_block_depth)
    return ofm * kernel * ifm


__all__ = ["forget_walks", "padded_weight_count", "reorder_weights", "stream_cells"]
