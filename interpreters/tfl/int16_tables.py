"""TFLite's interpolated int16 lookup tables: how its reference kernels compute int16 EXP, LOG
and RSQRT (and what the int16 softmax tables are a special case of).

Design notes: docs/interpreter_design.md, section tfl kernels: int16 lookup tables (kernels/int16_tables)."""
from __future__ import annotations

import ctypes
import ctypes.util
from functools import lru_cache
from typing import Callable

import numpy as np

from npu_opt.interpreters.tfl.quantize import Quant, float_to_int32, round_half_away

FloatFn = Callable[[np.ndarray], np.ndarray]

STEPS = 512
"""Intervals of an int16 table (it has STEPS + 1 anchors)."""


def _libm(name: str, fallback: Callable[[np.ndarray], np.ndarray]) -> FloatFn:
    """Single-precision ``name`` (e.g. "expf") from the C library, applied element-wise to
    float32 arrays; without a loadable libm, ``fallback`` in float64 rounded once to float32."""
    library = ctypes.util.find_library("m")
    function = None
    if library is not None:
        try:
            function = getattr(ctypes.CDLL(library), name)
            function.restype = ctypes.c_float
            function.argtypes = [ctypes.c_float]
        except (OSError, AttributeError):
            function = None

    def evaluate(values: np.ndarray) -> np.ndarray:
        flat = np.asarray(values, dtype=np.float32).ravel()
        if function is None:
            with np.errstate(all="ignore"):
                out = fallback(flat.astype(np.float64)).astype(np.float32)
        else:
            out = np.fromiter((function(float(v)) for v in flat), dtype=np.float32,
                              count=flat.size)
        return out.reshape(np.shape(values))
    evaluate.__name__ = name
    return evaluate


EXPF = _libm("expf", np.exp)
LOGF = _libm("logf", np.log)


def _grid_ends(q: Quant) -> tuple[np.float32, np.float32]:
    """The real values of the storage minimum and maximum, scale * (stored - zero) in float32."""
    return (q.scale32 * np.float32(q.low - q.zero), q.scale32 * np.float32(q.high - q.zero))


def _saturate16(values: np.ndarray) -> np.ndarray:
    """C's float -> int16 after clamping to [-32768, 32767] with std::min/max: NaN passes the
    clamp and converts through int32's "indefinite" value, whose low 16 bits are 0."""
    clamped = np.clip(values, np.float32(-32768.0), np.float32(32767.0))
    return np.where(np.isnan(clamped), 0, float_to_int32(clamped))


def populate(fn: FloatFn, q_in: Quant, q_out: Quant) -> np.ndarray:
    """The 513 anchors (int64 holding int16 values) of ``fn`` from ``q_in``'s grid to
    ``q_out``'s, as TFLite's int16 table builder computes them in float32."""
    one = np.float32
    in_low, in_high = _grid_ends(q_in)
    out_low, out_high = _grid_ends(q_out)
    step = (in_high - in_low) / one(STEPS)
    to_grid = one(65536.0) / (out_high - out_low)
    starts = in_low + np.arange(STEPS, dtype=np.float32) * step
    ends = in_low + np.arange(1, STEPS + 1, dtype=np.float32) * step
    midpoints = starts + step / one(2.0)
    with np.errstate(all="ignore"):
        sample = round_half_away(fn(starts) * to_grid)
        interpolated = round_half_away((fn(ends) * to_grid + sample) / one(2.0))
        midpoint_error = interpolated - round_half_away(fn(midpoints) * to_grid)
        anchors = sample - round_half_away(midpoint_error / one(2.0))
        last = round_half_away(fn(np.array([in_high], dtype=np.float32)) * to_grid)
    return _saturate16(np.concatenate([anchors, last]).astype(np.float32))


def _wrap16(values: np.ndarray) -> np.ndarray:
    """``values`` wrapped to int16 as a C cast does."""
    return ((values + (1 << 15)) & 0xFFFF) - (1 << 15)


def lookup(table: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Interpolate ``table`` at every int16 stored value of ``x`` (int64 result)."""
    value = np.asarray(x, dtype=np.int64)
    index = 256 + (value >> 7)
    base = table[index]
    slope = _wrap16(table[index + 1] - base)
    delta = _wrap16((slope * (value & 0x7F) + 64) >> 7)
    return _wrap16(base + delta)


def _exp(q_in: Quant, q_out: Quant) -> FloatFn:
    """exp, as the table's function."""
    return EXPF


def _log(q_in: Quant, q_out: Quant) -> FloatFn:
    """log, with the output range's real minimum for inputs <= 0."""
    floor = q_out.scale32 * np.float32(q_out.low - q_out.zero)
    return lambda v: np.where(v <= 0, floor, LOGF(np.maximum(v, np.float32(1e-30))))


def _rsqrt(q_in: Quant, q_out: Quant) -> FloatFn:
    """1 / sqrt in float32, with 32767 output steps for inputs <= 0."""
    ceiling = np.float32(32767.0) * q_out.scale32
    def evaluate(v: np.ndarray) -> np.ndarray:
        with np.errstate(all="ignore"):
            inverse = np.float32(1.0) / np.sqrt(np.maximum(v, np.float32(1e-30)))
        return np.where(v <= 0, ceiling, inverse).astype(np.float32)
    return evaluate


FUNCTIONS: dict[str, Callable[[Quant, Quant], FloatFn]] = {"exp": _exp, "log": _log,
                                                          "rsqrt": _rsqrt}
"""The functions TFLite tabulates for int16, by op name, given the (input, output) grids."""


@lru_cache(maxsize=64)
def table_for(name: str, q_in: Quant, q_out: Quant) -> np.ndarray:
    """The (cached) int16 table of function ``name`` between the two grids."""
    table = populate(FUNCTIONS[name](q_in, q_out), q_in, q_out)
    table.setflags(write=False)
    return table


__all__ = ["EXPF", "LOGF", "STEPS", "lookup", "populate", "table_for"]
