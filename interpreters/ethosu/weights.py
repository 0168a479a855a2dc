"""What a convolution reads from its weight and scale streams: the 10-byte bias/scale records of
its output channels and its weights decoded and put back in OHWI order from the order the NPU
consumes them (OFM blocks, IFM blocks, sub-kernels, micro-blocks).

Design notes: docs/simulator_design.md, section Weights and scales."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from npu_opt.interpreters.ethosu.mlw_decode import WeightStreamError, decode_weights

RECORD_BYTES = 10
SUB_KERNEL = 8
"""The largest kernel extent the NPU walks at once; bigger kernels are cut into 8x8 sub-kernels
(at dilation 2, 4 taps of the undilated kernel)."""


@dataclass(frozen=True)
class Accelerator:
    """The facts of an NPU configuration the weight order depends on."""

    name: str
    ofm_ublock_depth: int
    ifm_ublock_depth: int
    shram_bytes: int = 0


def accelerator_of(npu_config: int) -> Accelerator:
    """The accelerator the driver payload's CONFIG word names (product and MACs per cycle)."""
    product, macs = (npu_config >> 28) & 0xF, 1 << (npu_config & 0xF)
    names = {0: "ethos-u55", 1: "ethos-u65"}
    if product not in names or macs not in (32, 64, 128, 256, 512):
        raise ValueError(f"NPU CONFIG word {npu_config:#x} names product {product} with {macs} MACs, which the "
                         f"simulator does not know")
    return Accelerator(f"{names[product]}-{macs}", 4 if macs == 32 else 8, 8, ((npu_config >> 8) & 0xFF) * 1024)


def scale_records(data: bytes, channels: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(bias, multiplier, shift) per channel: the bias in 40-bit two's complement, the unsigned
    32-bit multiplier and a 6-bit shift, little-endian."""
    raw = np.frombuffer(bytes(data[:channels * RECORD_BYTES]), dtype=np.uint8).reshape(channels, RECORD_BYTES)
    raw = raw.astype(np.int64)
    bias = sum(raw[:, k] << (8 * k) for k in range(5))
    bias = np.where(bias >= 1 << 39, bias - (1 << 40), bias)
    multiplier = sum(raw[:, 5 + k] << (8 * k) for k in range(4))
    return bias, multiplier, raw[:, 9] & 0x3F


def _blocks(depth: int, block: int, clip: bool) -> list[tuple[int, int]]:
    """(first channel, channels walked) of each block; a clipped last block walks only its own."""
    return [(start, min(block, depth - start) if clip else block) for start in range(0, depth, block)]


def _round_up(value: int, step: int) -> int:
    return -(-value // step) * step


def consumption_order(shape: tuple[int, int, int, int], accelerator: Accelerator, ofm_block_depth: int,
                      depthwise: bool, part_kernel_first: bool, ifm_bits: int,
                      dilation: tuple[int, int]) -> np.ndarray:
    """For each weight of the stream in order, its (o, y, x, i) index in the OHWI weights, or -1
    where the stream holds padding. Returns an int64 array [n, 4]."""
    ofm_depth, kernel_h, kernel_w, ifm_depth = shape
    ou, iu = accelerator.ofm_ublock_depth, accelerator.ifm_ublock_depth
    ifm_block = 16 if part_kernel_first or ifm_bits == 16 else 32
    sub_h, sub_w = SUB_KERNEL // dilation[0], SUB_KERNEL // dilation[1]
    if depthwise:
        ifm_blocks = [(0, 1)]
    else:
        ifm_blocks = _blocks(ifm_depth, ifm_block, clip=part_kernel_first)
    pieces = []
    for o0, o_len in _blocks(ofm_depth, ofm_block_depth, clip=True):
        o_steps = np.arange(0, _round_up(o_len, ou), ou)
        for i0, i_len in ifm_blocks:
            i_steps = np.arange(0, _round_up(i_len, iu), iu) if not depthwise else np.zeros(1, np.int64)
            for top in range(0, kernel_h, sub_h):
                for left in range(0, kernel_w, sub_w):
                    rows, cols = min(sub_h, kernel_h - top), min(sub_w, kernel_w - left)
                    taps = rows * cols
                    if part_kernel_first:
                        taps = _round_up(taps, 2 if ifm_bits == 16 else 4)
                    elif depthwise:
                        taps = _round_up(taps, 4)
                    pieces.append(_brick(o0, o_steps, ou, i0, i_steps, 1 if depthwise else iu, taps, top, left,
                                         rows, cols, part_kernel_first))
    order = np.concatenate(pieces, axis=0) if pieces else np.zeros((0, 4), np.int64)
    limits = np.array([ofm_depth, kernel_h, kernel_w, 1 if depthwise else ifm_depth])
    outside = (order >= limits).any(axis=1) | (order[:, 1] < 0)
    order[outside] = -1
    return order


def _brick(o0: int, o_steps: np.ndarray, ou: int, i0: int, i_steps: np.ndarray, iu: int, taps: int, top: int,
           left: int, rows: int, cols: int, part_kernel_first: bool) -> np.ndarray:
    """The walk over one (OFM block, IFM block, sub-kernel) as [n, 4] indices; taps past the
    sub-kernel get row -1 (padding)."""
    tap = np.arange(taps)
    row = np.where(tap < rows * cols, top + tap // cols, -1)
    col = left + tap % cols
    # axes: ifm step (part-kernel-first) | ofm step | tap | ifm step (depth-first) | ofm lane | ifm lane
    if part_kernel_first:
        grid = np.meshgrid(i_steps, o_steps, tap, np.zeros(1, np.int64), np.arange(ou), np.arange(iu), indexing="ij")
        i_step, o_step, t, _, o_lane, i_lane = grid
    else:
        grid = np.meshgrid(np.zeros(1, np.int64), o_steps, tap, i_steps, np.arange(ou), np.arange(iu), indexing="ij")
        _, o_step, t, i_step, o_lane, i_lane = grid
    o = o0 + o_step + o_lane
    i = i0 + i_step + i_lane
    return np.stack([o.ravel(), row[t].ravel(), col[t].ravel(), i.ravel()], axis=1)


def decode_ohwi(stream: bytes, shape: tuple[int, int, int, int], accelerator: Accelerator, ofm_block_depth: int,
                depthwise: bool, part_kernel_first: bool, ifm_bits: int, dilation: tuple[int, int]) -> np.ndarray:
    """The OHWI weights (I = 1 for a depthwise kernel) a stream holds; ValueError when the stream
    holds fewer weights than the walk consumes."""
    values = decode_weights(stream)
    order = consumption_order(shape, accelerator, ofm_block_depth, depthwise, part_kernel_first, ifm_bits, dilation)
    if values.size < len(order):
        raise WeightStreamError(f"the weight stream holds {values.size} weight(s), but the operation consumes "
                                f"{len(order)}")
    weights = np.zeros((shape[0], shape[1], shape[2], 1 if depthwise else shape[3]), dtype=np.int64)
    keep = order[:, 0] >= 0
    index = order[keep]
    weights[index[:, 0], index[:, 1], index[:, 2], index[:, 3]] = values[:len(order)][keep]
    return weights


__all__ = ["Accelerator", "accelerator_of", "consumption_order", "decode_ohwi", "scale_records"]
