"""Which IFM rows an OFM stripe reads, and the padded (and upscaled) input window a kernel
computes from.

This is the rule the npu kernels and the stripe-by-stripe executor share
(``interpreters.scheduled``): for OFM rows [first, last) of an op, ``ifm_rows_needed`` gives
the IFM rows [lo, hi) the executor passes, clipped to the IFM; ``input_window`` turns those rows
back into the rows the kernel's windows slide over, with the padding of the true image edges
(and, for ops with resampling, the x2 upscaled IFM) put in place.
"""
from __future__ import annotations

import numpy as np

from npu_opt.dialects.npu.attrs import KernelAttr
from npu_opt.dialects.npu.interfaces import costed
from npu_opt.ir.core import Operation
from npu_opt.ir.types import RankedTensorType


def is_windowed(op: Operation) -> bool:
    """Whether the OFM rows of ``op`` read a window of IFM rows (its CostedOp kind says); every
    other op reads the rows it writes."""
    kind = costed(op)
    return kind is not None and kind.kind.is_windowed


def upscale_of(op: Operation) -> int:
    """The IFM upscaling factor of the op's resampling mode: 2 for 'nearest' and 'transpose'."""
    mode = op.attr("resampling")
    text = None if mode is None else str(getattr(mode, "value", mode))
    return 1 if text in (None, "none") else 2


def resampling_of(op: Operation) -> str:
    mode = op.attr("resampling")
    return "none" if mode is None else str(getattr(mode, "value", mode))


def _ifm_height(op: Operation) -> int:
    t = op.operands[0].type
    return t.shape[1] if isinstance(t, RankedTensorType) and t.rank == 4 else 1


def _kernel(op: Operation) -> KernelAttr:
    kernel = op.attr("kernel")
    return kernel if isinstance(kernel, KernelAttr) else KernelAttr((1, 1))


def _replicates(op: Operation) -> bool:
    """True when the op's padding holds the IFM's edge values (``padding_mode = "replicate"``)."""
    mode = op.attr("padding_mode")
    return mode is not None and str(getattr(mode, "value", mode)) == "replicate"


def upscaled_rows(op: Operation, first: int, last: int) -> tuple[int, int]:
    """Rows [u_lo, u_hi) of the upscaled, unpadded IFM the OFM rows [first, last) read, before
    clipping (negative or past the end where the window reaches into the padding)."""
    kernel = _kernel(op)
    u_lo = first * kernel.stride_h - kernel.pad_top
    u_hi = (last - 1) * kernel.stride_h - kernel.pad_top + kernel.dilated_height
    return u_lo, u_hi


def ifm_rows_needed(op: Operation, first: int, last: int) -> tuple[int, int]:
    """IFM rows [lo, hi) that OFM rows [first, last) of ``op`` read, clipped to the IFM. For
    elementwise, table, reduce and vector-product ops these are the same rows; for windowed ops
    the rows under the kernel (in IFM rows before the x2 upscale of a resampling op)."""
    if last <= first:
        return first, first
    if not is_windowed(op):
        ifm_t, ofm_t = op.operands[0].type, op.results[0].type
        if isinstance(ifm_t, RankedTensorType) and ifm_t.rank == 4 and ifm_t.shape[1] == 1 \
                and isinstance(ofm_t, RankedTensorType) and ofm_t.rank == 4 and ofm_t.shape[1] > 1:
            return 0, 1  # a broadcast one-row IFM is read whole by every stripe
        return first, last
    height = _ifm_height(op)
    up = upscale_of(op)
    u_lo, u_hi = upscaled_rows(op, first, last)
    u_lo, u_hi = max(u_lo, 0), min(u_hi, height * up)
    if u_hi <= u_lo:
        return 0, 0
    return u_lo // up, -(-u_hi // up)


def upscale_array(x: np.ndarray, mode: str, fill: object) -> np.ndarray:
    """``x`` (rows and columns its third and second last axes) upscaled x2 as ``mode`` says:
    'nearest' repeats every row and column, 'transpose' puts each value at the even position of
    its 2x2 block and ``fill`` elsewhere, 'none' leaves it."""
    if mode == "nearest":
        return np.repeat(np.repeat(x, 2, axis=-3), 2, axis=-2)
    if mode == "transpose":
        shape = list(x.shape)
        shape[-3], shape[-2] = 2 * shape[-3], 2 * shape[-2]
        out = np.full(shape, fill, dtype=x.dtype)
        out[..., ::2, ::2, :] = x
        return out
    return x


def upscale(op: Operation, x: np.ndarray, fill: float) -> np.ndarray:
    """The IFM ``x`` (N, H, W, C) upscaled x2 as the op's resampling does."""
    return upscale_array(x, resampling_of(op), fill)


def input_window(op: Operation, x: np.ndarray, fill: float, ofm_rows: tuple[int, int] | None,
                 ofm_height: int) -> np.ndarray:
    """The rows the op's windows slide over for OFM rows ``ofm_rows`` (all rows when None), padded
    with ``fill`` at the image edges (with the nearest edge value for an op whose
    ``padding_mode`` is 'replicate'): row 0 of the result is under OFM row ``first``'s window top.
    ``x`` holds the IFM rows ``ifm_rows_needed`` names (the whole IFM without a stripe)."""
    first, last = ofm_rows if ofm_rows is not None else (0, ofm_height)
    kernel = _kernel(op)
    up = upscale_of(op)
    lo, hi = ifm_rows_needed(op, first, last) if ofm_rows is not None else (0, _ifm_height(op))
    if x.shape[1] != hi - lo:
        raise ValueError(f"the IFM block has {x.shape[1]} rows, but OFM rows [{first}, {last}) read {hi - lo}")
    x = upscale(op, x, fill)
    u_lo, u_hi = upscaled_rows(op, first, last)
    n, rows, width, channels = x.shape
    if _replicates(op) and rows and u_hi > u_lo:
        # the padding holds the nearest edge value: every window row and column reads its
        # coordinate clamped to the (upscaled) image, which the block holds
        image_rows = _ifm_height(op) * up
        row_of = np.clip(np.arange(u_lo, u_hi), 0, image_rows - 1) - lo * up
        if row_of.min() < 0 or row_of.max() >= rows:
            raise ValueError(f"replicate padding of OFM rows [{first}, {last}) reads IFM rows outside the "
                             f"block [{lo}, {hi})")
        column_of = np.clip(np.arange(-kernel.pad_left, width + kernel.pad_right), 0, width - 1)
        return x[:, row_of][:, :, column_of]
    out = np.full((n, max(u_hi - u_lo, 0), width + kernel.pad_left + kernel.pad_right, channels), fill,
                  dtype=x.dtype)
    start = max(u_lo, lo * up)
    stop = min(u_hi, lo * up + rows)
    if stop > start:
        out[:, start - u_lo:stop - u_lo, kernel.pad_left:kernel.pad_left + width, :] = \
            x[:, start - lo * up:stop - lo * up]
    return out


def sliding(window: np.ndarray, kernel: KernelAttr, out_h: int, out_w: int):
    """Yield ((ky, kx), view) for every kernel tap: the (N, out_h, out_w, C) strided view of the
    padded ``window`` that tap multiplies."""
    for ky in range(kernel.height):
        y0 = ky * kernel.dilation_h
        for kx in range(kernel.width):
            x0 = kx * kernel.dilation_w
            yield (ky, kx), window[:, y0:y0 + (out_h - 1) * kernel.stride_h + 1:kernel.stride_h,
                                   x0:x0 + (out_w - 1) * kernel.stride_w + 1:kernel.stride_w, :]


__all__ = ["ifm_rows_needed", "is_windowed", "input_window", "resampling_of", "sliding", "upscale",
           "upscale_array", "upscale_of", "upscaled_rows"]
