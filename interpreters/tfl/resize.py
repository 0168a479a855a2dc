"""Kernels of tfl.resize_bilinear and tfl.resize_nearest_neighbor on NHWC tensors, with the
coordinate arithmetic of TFLite's reference kernels.

Both map each output row y (and column x, alike) to input coordinates. With ``align_corners``
the scale is (in - 1) / (out - 1) (when out > 1), else in / out; with ``half_pixel_centers``
sample centres sit at +0.5. TFLite computes the coordinates in float32 for float and uint8
tensors, and for bilinear int8/int16 in 10-bit fixed point (the weights of the four
neighbours are then integers summing to 2**20, rounded back half away from zero). The kernels
here compute the per-row and per-column coordinates once, as small vectors, and gather the
four (or one) neighbours for the whole tensor at once.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from npu_opt.dialects.tfl.common import TFL
from npu_opt.interpreters.tfl.shape import index_values, round_half_away, shaped_result
from npu_opt.dialects.tfl.ops_reduce import ResizeBilinearOp, ResizeNearestNeighborOp
from npu_opt.ir.interpreter import fail

ONE_10 = 1 << 10
"""1.0 in the 10-bit fixed point of TFLite's integer bilinear resize."""


def _target_size(op: Any, args: list[Any]) -> tuple[np.ndarray, int, int]:
    """The NHWC input and the (height, width) the ``size`` operand asks for."""
    data = args[0]
    if data.ndim != 4:
        raise fail(op, f"the input has rank {data.ndim}, a resize needs an NHWC (rank 4) tensor")
    size = index_values(op, args[1], "size")
    if len(size) != 2 or min(size) < 1:
        raise fail(op, f"size {size} must hold two positive values (height, width)")
    if op.align_corners and op.half_pixel_centers:
        raise fail(op, "align_corners and half_pixel_centers cannot both be set")
    return data, size[0], size[1]


def _float_scale(in_size: int, out_size: int, align_corners: bool) -> np.float32:
    """The float32 step between output samples in input coordinates."""
    if align_corners and out_size > 1:
        return np.float32(in_size - 1) / np.float32(out_size - 1)
    return np.float32(in_size) / np.float32(out_size)


# ---------------------------------------------------------------------------------------------
# Bilinear


def _float_axis(in_size: int, out_size: int, align_corners: bool, half_pixel: bool
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per output index along one axis: the lower and upper input neighbours and the float32
    fraction of the way from the lower to the upper one."""
    scale = _float_scale(in_size, out_size, align_corners)
    positions = np.arange(out_size, dtype=np.float32)
    if half_pixel:
        where = (positions + np.float32(0.5)) * scale - np.float32(0.5)
    else:
        where = positions * scale
    lower = np.maximum(np.floor(where).astype(np.int64), 0)
    upper = np.minimum(np.ceil(where).astype(np.int64), in_size - 1)
    fraction = (where - lower.astype(np.float32)).astype(np.float32)
    return lower, upper, fraction


def _bilinear_float(data: np.ndarray, height: int, width: int, align: bool, half: bool) -> np.ndarray:
    """Float32 blend of the four neighbours, summed in TFLite's order (top-left, bottom-left,
    top-right, bottom-right), each weight a product of two factors; integer outputs (uint8)
    are rounded half away from zero."""
    y0, y1, dy = _float_axis(data.shape[1], height, align, half)
    x0, x1, dx = _float_axis(data.shape[2], width, align, half)
    values = data.astype(np.float32)
    top, bottom = values[:, y0], values[:, y1]
    one = np.float32(1)
    dy = dy[None, :, None, None]
    dx = dx[None, None, :, None]
    blend = top[:, :, x0] * (one - dy) * (one - dx)
    blend = blend + bottom[:, :, x0] * dy * (one - dx)
    blend = blend + top[:, :, x1] * (one - dy) * dx
    blend = blend + bottom[:, :, x1] * dy * dx
    if data.dtype.kind == "f":
        return blend.astype(data.dtype)
    return round_half_away(blend).astype(data.dtype)


def _fixed_axis(in_size: int, out_size: int, align_corners: bool, half_pixel: bool
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per output index along one axis: lower and upper input neighbours and the upper one's
    weight in 1/1024ths (the lower one's is 1024 minus it), with C's truncating divisions."""
    if align_corners and out_size > 1:
        step = (ONE_10 * (in_size - 1) + (out_size - 1) // 2) // (out_size - 1)
    else:
        step = (ONE_10 * in_size + out_size // 2) // out_size
    where = np.arange(out_size, dtype=np.int64) * step
    if half_pixel:
        where = where + step // 2 - ONE_10 // 2
    lower = np.maximum(_c_div(where, ONE_10), 0)
    upper = np.minimum(_c_div(where + ONE_10 - 1, ONE_10), in_size - 1)
    return lower, upper, where - ONE_10 * lower


def _c_div(numerator: np.ndarray, divisor: int) -> np.ndarray:
    """Integer division rounding toward zero (C's ``/``), for a positive divisor."""
    quotient = np.abs(numerator) // divisor
    return np.where(numerator < 0, -quotient, quotient)


def _bilinear_fixed(data: np.ndarray, height: int, width: int, align: bool, half: bool) -> np.ndarray:
    """Integer blend: each neighbour times its two 10-bit weights, summed in int64, then divided
    by 2**20 rounding half away from zero (TFLite's int8/int16 path)."""
    y0, y1, wy = _fixed_axis(data.shape[1], height, align, half)
    x0, x1, wx = _fixed_axis(data.shape[2], width, align, half)
    values = data.astype(np.int64)
    top, bottom = values[:, y0], values[:, y1]
    wy = wy[None, :, None, None]
    wx = wx[None, None, :, None]
    total = (top[:, :, x0] * (ONE_10 - wy) * (ONE_10 - wx) + bottom[:, :, x0] * wy * (ONE_10 - wx)
             + top[:, :, x1] * (ONE_10 - wy) * wx + bottom[:, :, x1] * wy * wx)
    half_unit = 1 << 19
    nudged = total + np.where(total > 0, half_unit, -half_unit)
    return _c_div(nudged, 1 << 20).astype(data.dtype)


@TFL.kernel(ResizeBilinearOp)
def resize_bilinear(op: ResizeBilinearOp, args: list[Any]) -> list[np.ndarray]:
    """Bilinear resize: fixed point for int8 and int16 (stored integers, the quantisation is
    unchanged), float32 arithmetic for float and uint8."""
    data, height, width = _target_size(op, args)
    if data.dtype in (np.int8, np.int16):
        result = _bilinear_fixed(data, height, width, op.align_corners, op.half_pixel_centers)
    elif data.dtype in (np.float32, np.uint8):
        result = _bilinear_float(data, height, width, op.align_corners, op.half_pixel_centers)
    else:
        raise fail(op, f"{data.dtype} tensors are not supported (float32, int8, int16, uint8 are)")
    return [shaped_result(op, 0, result)]


# ---------------------------------------------------------------------------------------------
# Nearest neighbour


def _nearest_axis(in_size: int, out_size: int, align_corners: bool, half_pixel: bool) -> np.ndarray:
    """The input index each output index copies: (i + offset) * scale in float32, rounded half
    away from zero with align_corners, else floored; at most in - 1, and at least 0 with
    half_pixel_centers."""
    scale = _float_scale(in_size, out_size, align_corners)
    offset = np.float32(0.5 if half_pixel else 0.0)
    where = (np.arange(out_size, dtype=np.float32) + offset) * scale
    if align_corners:
        picked = round_half_away(where)
    else:
        picked = np.floor(where)
    index = np.minimum(picked.astype(np.int64), in_size - 1)
    return np.maximum(index, 0) if half_pixel else index


@TFL.kernel(ResizeNearestNeighborOp)
def resize_nearest_neighbor(op: ResizeNearestNeighborOp, args: list[Any]) -> list[np.ndarray]:
    """Nearest-neighbour resize: a gather of rows and columns, exact for every element type."""
    data, height, width = _target_size(op, args)
    rows = _nearest_axis(data.shape[1], height, op.align_corners, op.half_pixel_centers)
    cols = _nearest_axis(data.shape[2], width, op.align_corners, op.half_pixel_centers)
    return [shaped_result(op, 0, data[:, rows][:, :, cols])]


__all__ = ["resize_bilinear", "resize_nearest_neighbor"]
