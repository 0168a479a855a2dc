"""Feature maps as the NPU addresses them: the byte address of each element of an ethosu.fm
through its four tiles and its strides, in NHWC or NHCWB16, and reads and writes of whole boxes.

Design notes: docs/simulator_design.md, section Feature maps."""
from __future__ import annotations

import numpy as np

from npu_opt.dialects.ethosu.attrs import FeatureMapAttr
from npu_opt.interpreters.ethosu.memory import Memory, SimulatorError

ELEMENT_BYTES = {"uint8": 1, "int8": 1, "uint16": 2, "int16": 2, "int32": 4}
SIGNED = {"uint8": False, "int8": True, "uint16": False, "int16": True, "int32": True}


def element_bytes(fm: FeatureMapAttr) -> int:
    if fm.dtype not in ELEMENT_BYTES:
        raise SimulatorError(f"feature-map data type '{fm.dtype}' is not modelled")
    return ELEMENT_BYTES[fm.dtype]


def addresses(fm: FeatureMapAttr, height: int, width: int, depth: int) -> np.ndarray:
    """An int64 array [height, width, depth] of each element's byte address in the fm's region.
    Columns left of width0 lie in tile 0 (rows below height0 in tile 2), the others in tile 1
    (rows below height1 in tile 3); each tile counts rows and columns from its own corner."""
    size = element_bytes(fm)
    height0, height1, width0 = fm.tiles
    stride_x, stride_y, stride_c = fm.strides
    y = np.arange(height)[:, None]
    x = np.arange(width)[None, :]
    right = x >= width0
    lower = np.where(right, y >= height1, y >= height0)
    tile = right.astype(np.int64) + 2 * lower.astype(np.int64)
    row = y - np.where(lower, np.where(right, height1, height0), 0)
    column = x - np.where(right, width0, 0)
    bases = np.asarray(fm.bases, dtype=np.int64)[tile]
    pixel = bases + row * stride_y + column * stride_x
    c = np.arange(depth)
    if fm.layout == "NHCWB16":
        channel = (c // 16) * stride_c + (c % 16) * size
    elif fm.layout == "NHWC":
        channel = c * stride_c
    else:
        raise SimulatorError(f"feature-map layout '{fm.layout}' is not modelled")
    return pixel[:, :, None] + channel[None, None, :]


def read_fm(memory: Memory, fm: FeatureMapAttr, shape: tuple[int, int, int], what: str) -> np.ndarray:
    """The fm's elements [h, w, c] as signed or unsigned int64 values."""
    size = element_bytes(fm)
    raw = memory.read(fm.region, addresses(fm, *shape), size, what)
    if SIGNED[fm.dtype]:
        top = 1 << (8 * size - 1)
        raw = np.where(raw >= top, raw - 2 * top, raw)
    return raw


def write_fm(memory: Memory, fm: FeatureMapAttr, values: np.ndarray, what: str) -> None:
    """Store ``values`` [h, w, c] (already within the fm's type range)."""
    memory.write(fm.region, addresses(fm, *values.shape), values, element_bytes(fm), what)


def type_range(dtype: str) -> tuple[int, int]:
    bits = 8 * ELEMENT_BYTES[dtype]
    return (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if SIGNED[dtype] else (0, (1 << bits) - 1)


__all__ = ["ELEMENT_BYTES", "addresses", "element_bytes", "read_fm", "type_range", "write_fm"]
