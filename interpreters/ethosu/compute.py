"""The NPU operations on values already read from memory: the kernel walk of convolutions and
pooling over the (upscaled, padded) IFM, elementwise operand scaling, and the output stage
(rescale with the stream's rounding mode, OFM zero point, clamp, saturation).

Design notes: docs/simulator_design.md, section The operations."""
from __future__ import annotations

import numpy as np

from npu_opt.dialects.ethosu.attrs import KernelAttr
from npu_opt.dialects.npu.quant import pooling_scale
from npu_opt.interpreters.npu.arith import add_headroom, rescale, scaled_operands, shift_round, wide_product
from npu_opt.interpreters.npu.table import table_lookup
from npu_opt.interpreters.npu.windows import upscale_array

ROUNDING = {"tfl": "tflite", "natural": "half_up", "truncate": "to_zero"}
"""The OFM_PRECISION rounding codes as interpreters/npu/arith.py names the same computations."""
UPSCALE = {"none": 1, "nearest": 2, "transpose": 2}


def rounding_of(code: str) -> str:
    return ROUNDING[code]


def ifm_extent(ofm: int, stride: int, dilated: int, before: int, after: int, upscale: int) -> tuple[int, int]:
    """(IFM rows or columns the operation reads, the same in the upscaled IFM): the NPU has no
    IFM size registers, the window's reach from the OFM size, kernel and padding gives it."""
    upscaled = (ofm - 1) * stride + dilated - before - after
    return -(-upscaled // upscale), upscaled


def window_input(values: np.ndarray, kernel: KernelAttr, upscale: str, upscaled_hw: tuple[int, int],
                 fill: float) -> tuple[np.ndarray, np.ndarray]:
    """The IFM [h, w, c] upscaled and padded as the kernel walks it, and a mask of the positions
    that are IFM (not padding). ``fill`` stands in padding and transpose's inserted zeros."""
    h_up, w_up = upscaled_hw
    c = values.shape[2]
    grown = upscale_array(values.astype(np.float64), upscale, fill)
    inside = upscale_array(np.ones(values.shape[:2] + (1,), dtype=bool), upscale, False)[..., 0]
    grown, inside = grown[:h_up, :w_up], inside[:h_up, :w_up]
    top, left, bottom, right = kernel.padding
    padded = np.full((top + h_up + bottom, left + w_up + right, c), fill, dtype=np.float64)
    padded[top:top + h_up, left:left + w_up] = grown
    mask = np.zeros(padded.shape[:2], dtype=bool)
    mask[top:top + h_up, left:left + w_up] = inside
    return padded, mask


def taps(kernel: KernelAttr, out_hw: tuple[int, int]):
    """(ky, kx, row slice, column slice) of each kernel tap over the padded input."""
    (kh, kw), (sy, sx), (dy, dx) = kernel.size, kernel.stride, kernel.dilation
    oh, ow = out_hw
    for ky in range(kh):
        for kx in range(kw):
            rows = slice(ky * dy, ky * dy + (oh - 1) * sy + 1, sy)
            yield ky, kx, rows, slice(kx * dx, kx * dx + (ow - 1) * sx + 1, sx)


def convolve(padded: np.ndarray, weights: np.ndarray, kernel: KernelAttr, out_hw: tuple[int, int],
             depthwise: bool) -> np.ndarray:
    """Sum over taps of IFM x weight (OHWI; I = 1 depthwise) as exact int64: float64 sums of
    9-bit x 16-bit products stay far below 2^53."""
    acc = np.zeros(out_hw + (weights.shape[0],), dtype=np.float64)
    flat = acc.reshape(-1, weights.shape[0])
    for ky, kx, rows, cols in taps(kernel, out_hw):
        window = padded[rows, cols]
        if depthwise:
            acc += window * weights[:, ky, kx, 0].astype(np.float64)
        else:  # one 2-D product of a contiguous copy: BLAS's fast path
            rows = np.ascontiguousarray(window).reshape(-1, window.shape[2])
            flat += rows @ weights[:, ky, kx, :].astype(np.float64).T
    return acc.astype(np.int64)


def pool(padded: np.ndarray, mask: np.ndarray, kernel: KernelAttr, out_hw: tuple[int, int], mode: str,
         ) -> tuple[np.ndarray, np.ndarray]:
    """(the window maximum or sum per OFM element, the IFM positions each window covers)."""
    count = np.zeros(out_hw, dtype=np.int64)
    result = None
    for _, _, rows, cols in taps(kernel, out_hw):
        window, inside = padded[rows, cols], mask[rows, cols]
        count += inside
        if mode == "max":
            masked = np.where(inside[..., None], window, -np.inf)
            result = masked if result is None else np.maximum(result, masked)
        else:
            part = np.where(inside[..., None], window, 0.0)
            result = part if result is None else result + part
    assert result is not None
    return result.astype(np.int64), count


def average(sums: np.ndarray, count: np.ndarray, rounding: str) -> np.ndarray:
    """The NPU's own average (per-channel scaling without an OFM scale): the sum times the
    reciprocal of the covered positions, as Vela's pooling scale writes it."""
    out = np.zeros_like(sums)
    for n in np.unique(count):
        if n == 0:
            continue
        multiplier, shift = pooling_scale(int(n))
        where = count == n
        out[where] = rescale(sums[where], multiplier, shift, rounding)
    return out


def add_sub(a: np.ndarray, b: np.ndarray, mode: str, scale_mode: str, opa: tuple[int, int], opb: int,
            ifm_bits: int) -> np.ndarray:
    """Operands A and B (zero points removed) scaled by OPA/OPB_SCALE and added or subtracted.
    With a 32-bit scale on one operand (Vela's advanced scaling) that operand is rescaled with
    TFLite's double rounding from 20 (8-bit) or 15 bits of headroom, and the other is shifted
    left by the headroom less one: the arithmetic Vela's scales are derived for."""
    if scale_mode == "opa16_opb16":
        a2 = shift_round(wide_product(a, opa[0]), opa[1], "tflite")
        b2 = wide_product(b, opb)
    else:
        headroom = add_headroom(ifm_bits)
        a2, b2 = scaled_operands(a, b, headroom, 0 if scale_mode == "opa32" else 1, opa[0], opa[1] + headroom)
    return a2 + b2 if mode == "add" else a2 - b2


BUILTIN_INPUT_UNIT = 0x3000
"""The built-in tanh and sigmoid read the rescaled value in units of 1/0x3000 (Vela scales their
input by 0x3000 x the IFM scale) and give 16-bit results in units of 1/32768."""


def builtin_activation(scaled: np.ndarray, function: str) -> np.ndarray:
    """The built-in tanh or sigmoid, evaluated in float64 and rounded to the nearest 1/32768 (as
    the npu interpreter does: the NPU's own 16-bit function is not documented bit for bit)."""
    real = np.asarray(scaled, dtype=np.float64) / BUILTIN_INPUT_UNIT
    value = np.tanh(real) if function == "tanh" else 1.0 / (1.0 + np.exp(-real))
    return np.round(value * 32768.0).astype(np.int64)


def output_stage(scaled: np.ndarray, zero_point: int, low: int, high: int, ofm_bits: int, ofm_signed: bool,
                 table: np.ndarray | None) -> np.ndarray:
    """The rescaled values plus the OFM zero point, clamped to the activation range, through
    the LUT when there is one, saturated to the OFM type. A 32-bit OFM without a LUT is written
    as computed (saturated): the 16-bit zero point and clamp registers do not apply to it."""
    type_low = -(1 << (ofm_bits - 1)) if ofm_signed else 0
    type_high = (1 << (ofm_bits - 1)) - 1 if ofm_signed else (1 << ofm_bits) - 1
    values = np.asarray(scaled)
    if not (ofm_bits == 32 and table is None):
        values = np.minimum(np.maximum(values + zero_point, low), high)
        values = np.asarray(values, dtype=np.int64)
        if table is not None:
            values = table_lookup(values, table, low < 0)
    return np.asarray(np.minimum(np.maximum(values, type_low), type_high), dtype=np.int64)


__all__ = ["BUILTIN_INPUT_UNIT", "builtin_activation", "add_sub", "average", "convolve", "ifm_extent", "output_stage", "pool", "rounding_of", "taps",
           "window_input", "UPSCALE"]
