"""The NPU's elementwise operations on operand values already read (zero points removed): the
operation itself and the OFM scale it ends with.

Design notes: docs/simulator_design.md, section The operations."""
from __future__ import annotations

import numpy as np

from npu_opt.interpreters.ethosu.compute import add_sub
from npu_opt.interpreters.npu.arith import leading_zeros, rescale, shift_round, wrap32


def elementwise(mode: str, a: np.ndarray, b: np.ndarray | None, *, scale_mode: str, opa: tuple[int, int],
                opb: int, ofm_scale: tuple[int, int], rounding: str, ifm_bits: int, wide: bool) -> np.ndarray:
    """The rescaled result (before the OFM zero point) of ``mode`` on A and B. ``wide``: an
    operand is 32-bit, where a multiply applies only the OFM scale's shift."""
    multiplier, shift = ofm_scale
    if mode in ("add", "sub"):
        assert b is not None
        return rescale(add_sub(a, b, mode, scale_mode, opa, opb, ifm_bits), multiplier, shift, rounding)
    if mode == "mul":
        assert b is not None
        return rescale(a * b, 1 if wide else multiplier, shift, rounding)
    if mode in ("min", "max"):
        assert b is not None
        chosen = np.minimum(a, b) if mode == "min" else np.maximum(a, b)
        return rescale(chosen, multiplier, shift, rounding)
    if mode == "abs":
        return rescale(np.abs(a), multiplier, shift, rounding)
    if mode == "lrelu":
        return np.where(a >= 0, a, rescale(a, multiplier, shift, rounding))
    if mode == "clz":
        return leading_zeros(a)
    if mode == "shl":
        assert b is not None
        return wrap32(np.left_shift(a, np.clip(b, 0, 32)))
    if mode == "shr":
        assert b is not None
        return shift_round(a, np.clip(b, 0, 63), "away_zero" if rounding == "tflite" else rounding)
    raise ValueError(f"elementwise mode '{mode}' is not modelled")


__all__ = ["elementwise"]
