"""Rescale arithmetic of the NPU, as Vela computes it (``scaling.py``, ``numeric_util.py``).

The NPU rescales an accumulator by a 32-bit multiplier and a 6-bit right shift:
``out = round(acc * multiplier / 2^shift)``. ``quantise_scale`` turns a real scale into that
pair; the ``*_scale`` functions give the scales of each kind of op from the quantisation of its
operand and result types; ``activation_clamp`` gives the quantised clamp range of a fused
activation.
"""
from __future__ import annotations

import math

import numpy as np

from npu_opt.ir.types import QuantUniformType


def round_away_zero(x: float) -> int:
    """Round half away from zero (C's ``round``)."""
    return int(math.trunc(x + (0.5 if x >= 0 else -0.5)))


def quantise_scale(scale: float) -> tuple[int, int]:
    """(multiplier, shift) with scale = multiplier / 2^shift: the binary mantissa of ``scale``
    (in [1/2, 1)) rounded to 31 fractional bits, so the multiplier lies in [2^30, 2^31]. The
    NPU's shift field holds 0..63; a scale needing another shift gets (0, 16), i.e. zero."""
    mantissa, exponent = math.frexp(scale)
    shift = 31 - exponent
    if shift < 0 or shift > 63:
        return 0, 16
    return round_away_zero(math.ldexp(mantissa, 31)), shift


def reduced_quantise_scale(scale: float) -> tuple[int, int]:
    """``quantise_scale`` with the multiplier rounded to 15 bits (at most 32767), for int16
    operations with int64 biases (Vela's choice there)."""
    multiplier, shift = quantise_scale(scale)
    return min((multiplier + (1 << 15)) >> 16, 32767), shift - 16


def pooling_scale(kernel_elements: int, rescale_bits: int = 0) -> tuple[int, int]:
    """1/N for an average pool over N = ``kernel_elements``, as (multiplier, shift): with
    2^k the smallest power of two >= N (k = bit length of N - 1), the multiplier is
    2^k (2^n + 1) / N rounded down, n = 31 - ``rescale_bits``, and the shift n + k."""
    k = (kernel_elements - 1).bit_length()
    fraction_bits = 31 - rescale_bits
    return ((1 << k) * ((1 << fraction_bits) + 1)) // kernel_elements, fraction_bits + k


def elementwise_mul_scale(in1: float, in2: float, out: float, double: bool = False) -> tuple[int, int]:
    """(multiplier, shift) of a Mul: in1 * in2 / out, in float32 unless ``double`` (as Vela)."""
    if double:
        rescale = float(np.double(in1) * np.double(in2) / np.double(out))
    else:
        rescale = float(np.float32(in1) * np.float32(in2) / np.float32(out))
    return quantise_scale(rescale)


def add_sub_scale(in1: float, in2: float, out: float, bits: int) -> tuple[int, int, int, int, int]:
    """Vela's advanced Add/Sub scaling: (input multiplier, input shift, output multiplier,
    output shift, index of the operand rescaled: 0 or 1). The operand with the smaller scale is
    rescaled to the larger one, with 20 (8-bit) or 15 (16-bit) bits of headroom."""
    hi, lo = max(in1, in2), min(in1, in2)
    headroom = 20 if bits == 8 else 15
    input_rescale = np.double(lo) * (1 << headroom) / (2 * np.double(hi))
    output_rescale = (2 * np.double(hi)) / (np.double(out) * (1 << headroom))
    out_mult, out_shift = quantise_scale(float(output_rescale))
    in_mult, in_shift = quantise_scale(float(input_rescale))
    return in_mult, in_shift, out_mult, out_shift, 0 if in1 < in2 else 1


def quantise_float32(value: float, scale: float = 1.0, zero_point: int = 0) -> int:
    """A real value in quantised units, computed in float32 as Vela does."""
    return zero_point + round_away_zero(float(np.float32(value) / np.float32(scale)))


def scale_and_zero_point(quant: QuantUniformType | None) -> tuple[float, int]:
    """(scale, zero point) of a per-tensor quantisation; (1.0, 0) for plain integers."""
    if quant is None:
        return 1.0, 0
    return quant.scales[0], quant.zero_points[0]


REAL_BOUNDS = {
    "none": (None, None), "clip": (None, None), "lut": (None, None),
    "relu": (0.0, None), "relu6": (0.0, 6.0), "relu_0_to_1": (0.0, 1.0), "relu_n1_to_1": (-1.0, 1.0),
    "tanh": (-1.0, 1.0), "sigmoid": (0.0, 1.0),
}
"""Real-valued clamp of each activation kind (Vela's ``create_activation_function``)."""


def activation_clamp(kind: str, quant: QuantUniformType | None, type_range: tuple[int, int],
                     avgpool_quirk: bool = False) -> tuple[int, int]:
    """The quantised clamp range the NPU's ACTIVATION_MIN/MAX registers get for ``kind`` on an
    OFM with quantisation ``quant`` and storage range ``type_range`` (Vela's
    ``generate_activation``), limited to int16. ``avgpool_quirk`` applies Vela's treatment of
    a ReLU fused into an average pool whose OFM zero point is not 0 (the bound is quantised
    twice, ``create_npu_activation``)."""
    lo_real, hi_real = REAL_BOUNDS[kind]
    scale, zp = scale_and_zero_point(quant)
    if avgpool_quirk and zp and kind not in ("tanh", "sigmoid", "lut"):
        lo_real = None if lo_real is None else scale * quantise_float32(lo_real, scale, zp)
        hi_real = None if hi_real is None else scale * quantise_float32(hi_real, scale, zp)
    lo = type_range[0] if lo_real is None else quantise_float32(lo_real, scale, zp)
    hi = type_range[1] if hi_real is None else quantise_float32(hi_real, scale, zp)
    lo = max(lo, -(1 << 15), type_range[0])
    hi = min(hi, (1 << 15) - 1, type_range[1])
    return lo, hi


__all__ = [
    "REAL_BOUNDS", "activation_clamp", "add_sub_scale", "elementwise_mul_scale", "pooling_scale",
    "quantise_float32", "quantise_scale", "reduced_quantise_scale", "round_away_zero", "scale_and_zero_point",
]
