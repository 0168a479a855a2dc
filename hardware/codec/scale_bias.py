"""The NPU's per-output-channel scale/bias records: 10 bytes each, as the weight streams carry them
in front of each core's compressed weights.

Design notes: docs/weight_codec.md, section Scale/bias records."""
from __future__ import annotations

import numpy as np

SCALE_RECORD_BYTES = 10
"""Bytes per OFM channel of bias (40 bits), multiplier (32 bits) and shift (8 bits, 6 used)."""
BIAS_BITS = 40
MULTIPLIER_BITS = 32
SHIFT_BITS = 6


def _field(name: str, values: np.ndarray, low: int, high: int) -> np.ndarray:
    """``values`` as int64, after checking each lies in low..high (an error names the first that
    does not, its channel and the limit)."""
    array = np.asarray(values)
    if array.dtype.kind not in "iu" and array.size:
        raise ValueError(f"{name} must be integers, not {array.dtype}")
    wide = array.astype(object) if array.dtype == np.uint64 else array
    outside = np.flatnonzero((wide < low) | (wide > high)) if array.size else np.zeros(0, np.int64)
    if outside.size:
        at = int(outside[0])
        raise ValueError(f"{name} {int(array.reshape(-1)[at])} of channel {at} is outside {low}..{high}")
    return np.asarray(array, dtype=np.int64)


def _per_channel(name: str, values: np.ndarray | int, count: int) -> np.ndarray:
    """``values`` for each of ``count`` channels: as given, or one value repeated."""
    flat = np.asarray(values).reshape(-1)
    if flat.size == 1:
        return np.broadcast_to(flat, (count,))
    if flat.size != count:
        raise ValueError(f"{flat.size} {name} for {count} channels: give one per channel or one for all")
    return flat


def scale_bias_records(bias: np.ndarray, multipliers: np.ndarray | int, shifts: np.ndarray | int) -> bytes:
    """The records of channels with biases ``bias`` and rescales ``multipliers``/``shifts`` (one
    each per channel, or one for all): per channel, little-endian, the bias in 40-bit two's
    complement, the multiplier in 32 bits, the shift in the low 6 bits of the last byte."""
    biases = _field("bias", np.asarray(bias).reshape(-1), -(1 << (BIAS_BITS - 1)), (1 << (BIAS_BITS - 1)) - 1)
    count = biases.size
    scale = _field("multiplier", _per_channel("multipliers", multipliers, count), 0, (1 << MULTIPLIER_BITS) - 1)
    shift = _field("shift", _per_channel("shifts", shifts, count), 0, (1 << SHIFT_BITS) - 1)
    records = np.zeros((count, SCALE_RECORD_BYTES), np.uint8)
    byte = np.arange(5, dtype=np.int64)
    records[:, 0:5] = (biases[:, None] >> (8 * byte)) & 0xFF  # (arithmetic shift: two's complement)
    records[:, 5:9] = (scale[:, None] >> (8 * byte[:4])) & 0xFF
    records[:, 9] = shift
    return records.tobytes()


__all__ = ["SCALE_RECORD_BYTES", "scale_bias_records"]
