"""Byte layouts of feature maps: where each element of a tensor lives in its memory area.

Design notes: docs/interpreter_design.md, section Byte layouts (schedule_exec/layout)."""
from __future__ import annotations

import numpy as np

BRICK = 16
"""Channels per NHCWB16 brick."""

FORMATS: tuple[str, ...] = ("NHWC", "NHCWB16")


def _as4d(shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """A shape of rank <= 4 as NHWC, padding on the left with ones (TFLite's convention)."""
    if len(shape) > 4:
        raise ValueError(f"a feature map has at most 4 dimensions, not {len(shape)} ({list(shape)})")
    padded = (1,) * (4 - len(shape)) + tuple(int(d) for d in shape)
    return padded  # type: ignore[return-value]


def stored_depth(depth: int, fmt: str) -> int:
    """The channels a row stores: the depth, rounded up to whole bricks in NHCWB16."""
    return -(-depth // BRICK) * BRICK if fmt == "NHCWB16" else depth


def footprint(shape: tuple[int, ...], itemsize: int, fmt: str = "NHWC", rows: int | None = None) -> int:
    """Bytes a tensor of ``shape`` takes in ``fmt`` (``rows``: a rolling buffer of that many rows)."""
    n, h, w, c = _as4d(shape)
    return n * (h if rows is None else rows) * w * stored_depth(c, fmt) * itemsize


def address_map(shape: tuple[int, ...], itemsize: int, fmt: str = "NHWC", base: int = 0,
                rows: int | None = None) -> np.ndarray:
    """Byte offset of every element of a tensor of ``shape`` stored at ``base`` in ``fmt``.

    ``rows``: the tensor lives in a rolling buffer of that many rows (of the full width and
    depth), row ``h`` in slot ``h mod rows``; None stores every row. The result has ``shape``.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown feature-map format '{fmt}' (expected {' or '.join(FORMATS)})")
    if rows is not None and rows < 1:
        raise ValueError(f"a rolling buffer holds at least one row, not {rows}")
    n, h, w, c = _as4d(shape)
    slots = h if rows is None else rows
    depth = stored_depth(c, fmt)
    ni = np.arange(n, dtype=np.int64)[:, None, None, None]
    hi = (np.arange(h, dtype=np.int64) % slots)[None, :, None, None]
    wi = np.arange(w, dtype=np.int64)[None, None, :, None]
    ci = np.arange(c, dtype=np.int64)[None, None, None, :]
    row = (ni * slots + hi) * (w * depth)
    if fmt == "NHWC":
        element = row + wi * depth + ci
    else:
        element = row + (ci // BRICK) * (w * BRICK) + wi * BRICK + ci % BRICK
    return (base + element * itemsize).reshape(tuple(int(d) for d in shape))


def gather(memory: np.ndarray, addresses: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """The elements of ``dtype`` whose first bytes are at ``addresses`` in ``memory`` (uint8)."""
    dtype = np.dtype(dtype).newbyteorder("<")
    size = dtype.itemsize
    if addresses.size and (addresses.min() < 0 or addresses.max() + size > memory.size):
        raise IndexError(f"a read of bytes {int(addresses.min())}..{int(addresses.max()) + size - 1} "
                         f"is outside the memory area of {memory.size} bytes")
    raw = memory[addresses[..., None] + np.arange(size, dtype=np.int64)]
    return np.ascontiguousarray(raw).view(dtype).reshape(addresses.shape).astype(dtype.newbyteorder("="))


def scatter(memory: np.ndarray, addresses: np.ndarray, values: np.ndarray) -> None:
    """Store ``values`` (same shape as ``addresses``) at ``addresses`` in ``memory`` (uint8)."""
    values = np.asarray(values)
    if values.shape != addresses.shape:
        raise ValueError(f"a write of {list(values.shape)} elements to a region of {list(addresses.shape)}")
    dtype = values.dtype.newbyteorder("<")
    size = dtype.itemsize
    if addresses.size and (addresses.min() < 0 or addresses.max() + size > memory.size):
        raise IndexError(f"a write of bytes {int(addresses.min())}..{int(addresses.max()) + size - 1} "
                         f"is outside the memory area of {memory.size} bytes")
    raw = np.ascontiguousarray(values.astype(dtype)).view(np.uint8).reshape(*values.shape, size)
    memory[addresses[..., None] + np.arange(size, dtype=np.int64)] = raw


__all__ = ["BRICK", "FORMATS", "address_map", "footprint", "gather", "scatter", "stored_depth"]
