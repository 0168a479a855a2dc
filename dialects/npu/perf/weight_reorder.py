"""The order in which the NPU consumes weights: the padded brick stream the encoder compresses.

The weight decoder feeds the MAC array OFM micro-block by OFM micro-block, IFM micro-block by IFM
micro-block, kernel element by kernel element, within sub-kernels of at most 8x8 (less with
dilation). The stream is padded with zeros where the tensor does not fill a micro-block (IFM depth
to the 32- or 16-deep IFM block for depth-first traversal, or to 8 within each IFM block for
part-kernel-first; OFM depth to the micro-block; sub-kernel elements to 4 (or 2) for depthwise and
part-kernel-first). Loop nest, outermost first (this is the layout of Vela 5.2.0's mlw codec
``reorder``):

1. OFM blocks of ``ofm_block_depth`` channels;
2. IFM depth in steps of the IFM block depth (32; 16 for part-kernel-first or 16-bit IFMs;
   a single pass for depthwise);
3. sub-kernel rows, 4. sub-kernel columns;
5. part-kernel-first only: IFM micro-blocks of the IFM block (clipped to the IFM depth);
6. OFM micro-blocks of the OFM block;
7. kernel elements, x fastest (padded elements are zero);
8. depth-first only: IFM micro-blocks of the IFM block (not clipped: padded);
9. OFM channels of a micro-block; 10. IFM channels of a micro-block (1 for depthwise).

The padded length sets the raw size of the stream; its zero runs and value statistics set the
encoded size (weight_encoding.py).
"""
from __future__ import annotations

import numpy as np

from npu_opt.dialects.npu.perf.shape import div_up, round_up


def reorder_weights(ohwi: np.ndarray, ifm_ublock_depth: int, ofm_ublock_depth: int, ofm_block_depth: int,
                    depthwise: bool, partkernel: bool, ifm_bits: int, decomp_h: int = 8,
                    decomp_w: int = 8) -> np.ndarray:
    """The weights ``ohwi`` (O x H x W x I, zero point already subtracted) in NPU stream order,
    zero padded, as int16."""
    ofm_depth, kernel_h, kernel_w, ifm_depth = ohwi.shape
    ifm_block_depth = 16 if partkernel or ifm_bits == 16 else 32
    src = np.asarray(ohwi, dtype=np.int16)
    pieces: list[np.ndarray] = []
    ifm_block_starts = [0] if depthwise else list(range(0, ifm_depth, ifm_block_depth))
    for ofm_block_z in range(0, ofm_depth, ofm_block_depth):
        clipped_ofm = min(ofm_block_depth, ofm_depth - ofm_block_z)
        ofm_ublocks = np.arange(0, clipped_ofm, ofm_ublock_depth)
        for ifm_block_z in ifm_block_starts:
            if depthwise:
                clipped_ifm = ifm_ublock_depth
            elif partkernel:
                clipped_ifm = min(ifm_block_depth, ifm_depth - ifm_block_z)
            else:
                clipped_ifm = ifm_block_depth
            for sub_y in range(0, kernel_h, decomp_h):
                sub_h = min(kernel_h - sub_y, decomp_h)
                for sub_x in range(0, kernel_w, decomp_w):
                    sub_w = min(kernel_w - sub_x, decomp_w)
                    elements = sub_w * sub_h
                    if partkernel:
                        elements = round_up(elements, 2 if ifm_bits == 16 else 4)
                    elif depthwise:
                        elements = round_up(elements, 4)
                    outer = np.arange(0, clipped_ifm, ifm_ublock_depth) if partkernel else np.zeros(1, int)
                    inner = np.arange(0, clipped_ifm, ifm_ublock_depth) if not partkernel else np.zeros(1, int)
                    ifm_z_in_ublock = np.arange(1 if depthwise else ifm_ublock_depth)
                    element = np.arange(elements)
                    # Axes: outer, ofm ublock, element, inner, ofm channel, ifm channel.
                    o_ax = outer[:, None, None, None, None, None]
                    u_ax = ofm_ublocks[None, :, None, None, None, None]
                    e_ax = element[None, None, :, None, None, None]
                    i_ax = inner[None, None, None, :, None, None]
                    oz_ax = np.arange(ofm_ublock_depth)[None, None, None, None, :, None]
                    iz_ax = ifm_z_in_ublock[None, None, None, None, None, :]
                    kx = e_ax % sub_w
                    ky = e_ax // sub_w
                    ifm_z = ifm_block_z + i_ax + o_ax + iz_ax
                    ofm_z = ofm_block_z + u_ax + oz_ax
                    valid = (ifm_z < ifm_depth) & (ofm_z < ofm_depth) & (ky < sub_h)
                    shape = np.broadcast_shapes(valid.shape)
                    valid = np.broadcast_to(valid, shape)
                    oz = np.broadcast_to(np.minimum(ofm_z, ofm_depth - 1), shape)
                    wy = np.broadcast_to(np.minimum(sub_y + ky, kernel_h - 1), shape)
                    wx = np.broadcast_to(sub_x + kx, shape)
                    iz = np.broadcast_to(np.minimum(ifm_z, ifm_depth - 1), shape)
                    values = np.where(valid, src[oz, wy, np.minimum(wx, kernel_w - 1), iz], 0)
                    pieces.append(values.reshape(-1).astype(np.int16))
    if not pieces:
        return np.zeros(0, np.int16)
    return np.concatenate(pieces)


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
            kernel += round_up(e, step) if partkernel else round_up(e, 4) if depthwise else e
    ofm = sum(round_up(min(ofm_block_depth, ofm_depth - z), ofm_ublock_depth)
              for z in range(0, ofm_depth, ofm_block_depth))
    if depthwise:
        return ofm * kernel
    if partkernel:
        ifm = sum(round_up(min(ifm_block_depth, ifm_depth - z), ifm_ublock_depth)
                  for z in range(0, ifm_depth, ifm_block_depth))
    else:
        ifm = div_up(ifm_depth, ifm_block_depth) * ifm_block_depth
    return ofm * kernel * ifm


__all__ = ["padded_weight_count", "reorder_weights"]
