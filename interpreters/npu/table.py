"""Table lookups, as the ``lut`` activation of every compute op and the ``npu.lut`` kernel do them.

Table formats (``LookupTable`` in ops_common):

- 256 entries (8-bit, or 32-bit for softmax's exponential): the clamped OFM value indexes the
  table directly, offset by 128 when the activation range is signed;
- 512 32-bit entries: the 16-bit interpolating table. The value plus 32768 splits into an entry
  index (its top 9 bits) and a 7-bit fraction; an entry holds a base in its low 16 bits and the
  slope to the next entry in its high 16 bits (both signed); the result is
  base + (slope x fraction) / 128, rounded half up.
"""
from __future__ import annotations

import numpy as np

from npu_opt.ir.core import Operation
from npu_opt.ir.interpreter import fail


def look_up(op: Operation, values: np.ndarray, table: np.ndarray) -> np.ndarray:
    """``values`` (already clamped to the activation range) through ``table``, as int64."""
    act = op.activation_attr()  # type: ignore[attr-defined]
    try:
        return table_lookup(values, np.asarray(table, dtype=np.int64).reshape(-1), act.min < 0)
    except ValueError as error:
        raise fail(op, str(error)) from None


def table_lookup(values: np.ndarray, entries: np.ndarray, signed: bool) -> np.ndarray:
    """``values`` through a table of 256 entries (offset by 128 when ``signed``) or of 512
    interpolating 32-bit entries; ValueError for an index outside the table. Shared with the
    command-stream simulator (interpreters/ethosu), which reads the table from SHRAM."""
    if entries.size == 256:
        index = values + (128 if signed else 0)
        if index.size and (int(index.min()) < 0 or int(index.max()) > 255):
            raise ValueError(f"table index range [{int(index.min())}, {int(index.max())}] is outside [0, 255]")
        return entries[index]
    if entries.size == 512:
        position = values + 32768
        if position.size and (int(position.min()) < 0 or int(position.max()) > 65535):
            raise ValueError("16-bit table input outside [-32768, 32767]")
        words = entries[position >> 7] & 0xFFFFFFFF
        base = ((words & 0xFFFF) ^ 0x8000) - 0x8000
        slope = ((words >> 16) ^ 0x8000) - 0x8000
        return base + ((slope * (position & 127) + 64) >> 7)
    raise ValueError(f"a lookup table has 256 or 512 entries, not {entries.size}")


__all__ = ["look_up", "table_lookup"]
