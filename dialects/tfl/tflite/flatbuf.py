"""A bounds-checked FlatBuffers table reader over a memoryview, with numpy views for vectors.

The generated FlatBuffers Python code trusts its input: a bad offset reads garbage, raises an
arbitrary exception or allocates gigabytes. This reader checks every offset and length against
the buffer before using it and raises ``FlatBufferError`` with what was wrong and where, so a
damaged model becomes one clear error. Scalars are read with ``struct``; scalar vectors become
zero-copy numpy views; nothing loops over bytes in Python.
"""
from __future__ import annotations

import struct
from typing import Any

import numpy as np

_U16 = struct.Struct("<H")
_I32 = struct.Struct("<i")
_U32 = struct.Struct("<I")
_SCALARS = {
    "bool": (struct.Struct("<?"), 1), "i8": (struct.Struct("<b"), 1), "u8": (struct.Struct("<B"), 1),
    "i16": (struct.Struct("<h"), 2), "u16": (_U16, 2), "i32": (_I32, 4), "u32": (_U32, 4),
    "i64": (struct.Struct("<q"), 8), "u64": (struct.Struct("<Q"), 8), "f32": (struct.Struct("<f"), 4),
    "f64": (struct.Struct("<d"), 8),
}


class FlatBufferError(ValueError):
    """The buffer is not a well-formed flatbuffer where the reader looked."""


class Buffer:
    """The bytes of a flatbuffer file and checked primitive reads from them."""

    __slots__ = ("data", "size")

    def __init__(self, data: bytes | bytearray | memoryview) -> None:
        self.data = memoryview(data).cast("B") if not isinstance(data, bytes) else memoryview(data)
        self.size = len(self.data)

    def check(self, pos: int, length: int, what: str) -> None:
        """Raise unless ``length`` bytes at ``pos`` lie inside the buffer."""
        if pos < 0 or length < 0 or pos + length > self.size:
            raise FlatBufferError(f"{what} at byte {pos} ({length} bytes) lies outside the "
                                  f"{self.size}-byte file")

    def u16(self, pos: int, what: str) -> int:
        self.check(pos, 2, what)
        return _U16.unpack_from(self.data, pos)[0]

    def i32(self, pos: int, what: str) -> int:
        self.check(pos, 4, what)
        return _I32.unpack_from(self.data, pos)[0]

    def u32(self, pos: int, what: str) -> int:
        self.check(pos, 4, what)
        return _U32.unpack_from(self.data, pos)[0]

    def root(self, what: str = "root table") -> "Table":
        """The root table (its offset is the file's first four bytes)."""
        return Table(self, self.u32(0, "root offset"), what)


class Table:
    """One table: ``pos`` is where its vtable offset sits. Fields are read by slot number."""

    __slots__ = ("buf", "pos", "vtable", "vtable_size", "object_size", "what")

    def __init__(self, buf: Buffer, pos: int, what: str) -> None:
        self.buf = buf
        self.pos = pos
        self.what = what
        vtable = pos - buf.i32(pos, f"{what}: vtable offset")
        size = buf.u16(vtable, f"{what}: vtable")
        if size < 4 or size % 2:
            raise FlatBufferError(f"{what}: vtable at byte {vtable} has an invalid size {size}")
        buf.check(vtable, size, f"{what}: vtable")
        self.vtable = vtable
        self.vtable_size = size
        self.object_size = buf.u16(vtable + 2, f"{what}: vtable")
        buf.check(pos, self.object_size, f"{what}: table")

    def field_pos(self, slot: int) -> int:
        """Absolute position of field ``slot``, or 0 when the field is absent."""
        entry = 4 + 2 * slot
        if entry >= self.vtable_size:
            return 0
        offset = _U16.unpack_from(self.buf.data, self.vtable + entry)[0]
        if offset == 0:
            return 0
        if offset + 1 > self.object_size:
            raise FlatBufferError(f"{self.what}: field {slot} at offset {offset} lies outside the "
                                  f"{self.object_size}-byte table")
        return self.pos + offset

    def has(self, slot: int) -> bool:
        return self.field_pos(slot) != 0

    def scalar(self, slot: int, kind: str, default: Any = 0) -> Any:
        """A scalar field of type ``kind`` ('i8', 'u32', 'f32', 'bool', ...) or its default."""
        pos = self.field_pos(slot)
        if not pos:
            return default
        packer, size = _SCALARS[kind]
        self.buf.check(pos, size, f"{self.what}: field {slot}")
        return packer.unpack_from(self.buf.data, pos)[0]

    def _indirect(self, slot: int, what: str) -> int:
        """Follow the uoffset stored in field ``slot``; 0 when absent."""
        pos = self.field_pos(slot)
        if not pos:
            return 0
        return pos + self.buf.u32(pos, what)

    def table(self, slot: int, what: str) -> "Table | None":
        target = self._indirect(slot, f"{self.what}: {what}")
        return Table(self.buf, target, f"{self.what}: {what}") if target else None

    def vector(self, slot: int, elem_size: int, what: str) -> tuple[int, int]:
        """(start, length) of vector field ``slot``; (0, 0) when absent."""
        label = f"{self.what}: {what}"
        start = self._indirect(slot, label)
        if not start:
            return 0, 0
        length = self.buf.u32(start, label)
        if length * elem_size > self.buf.size:
            raise FlatBufferError(f"{label}: a vector of {length} elements of {elem_size} bytes is "
                                  f"larger than the {self.buf.size}-byte file")
        self.buf.check(start + 4, length * elem_size, f"{label} ({length} elements)")
        return start + 4, length

    def array(self, slot: int, dtype: str, what: str) -> np.ndarray | None:
        """A scalar vector as a zero-copy read-only numpy view (little-endian ``dtype``)."""
        dt = np.dtype(dtype)
        start, length = self.vector(slot, dt.itemsize, what)
        if not start:
            return None
        return np.frombuffer(self.buf.data, dtype=dt, count=length, offset=start)

    def bytes_view(self, slot: int, what: str) -> memoryview | None:
        """A [ubyte] vector as a memoryview of the file (no copy)."""
        start, length = self.vector(slot, 1, what)
        if not start:
            return None
        return self.buf.data[start:start + length]

    def string(self, slot: int, what: str) -> str | None:
        view = self.bytes_view(slot, what)
        if view is None:
            return None
        return bytes(view).decode("utf-8", errors="replace")

    def tables(self, slot: int, what: str) -> list["Table"]:
        """A vector of tables."""
        start, length = self.vector(slot, 4, what)
        if not start:
            return []
        offsets = np.frombuffer(self.buf.data, dtype="<u4", count=length, offset=start)
        positions = offsets.astype(np.int64) + (start + 4 * np.arange(length, dtype=np.int64))
        return [Table(self.buf, int(p), f"{self.what}: {what}[{i}]") for i, p in enumerate(positions.tolist())]

    def raw_table(self) -> bytes:
        """This table as self-contained bytes: its vtable followed by its inline object, with the
        object's vtable offset rewritten to point at that copy. Fields that are offsets to
        vectors, strings or sub-tables are not followed (they would dangle)."""
        vtable = bytes(self.buf.data[self.vtable:self.vtable + self.vtable_size])
        pad = (-len(vtable)) % 4
        body = bytearray(self.buf.data[self.pos:self.pos + self.object_size])
        if len(body) < 4:
            raise FlatBufferError(f"{self.what}: table of {len(body)} bytes is too small")
        body[0:4] = _I32.pack(len(vtable) + pad)
        return vtable + b"\0" * pad + bytes(body)


def parse_raw_table(raw: bytes) -> list[tuple[int, int, bytes]]:
    """Split bytes made by ``Table.raw_table`` into (slot, field offset, field bytes) triples.

    A field's size is not recorded in a flatbuffer; it is taken as the distance to the next
    field (or the table's end), capped at 8 and rounded down to a power of two, which reproduces
    every scalar field (little-endian: its value comes first) and at worst the padding after it."""
    if len(raw) < 4:
        raise FlatBufferError("raw options table is shorter than a vtable")
    vt_size, obj_size = struct.unpack_from("<HH", raw, 0)
    if vt_size < 4 or vt_size % 2 or vt_size > len(raw):
        raise FlatBufferError("raw options table has an invalid vtable")
    start = vt_size + (-vt_size) % 4
    if start + obj_size > len(raw) or obj_size < 4:
        raise FlatBufferError("raw options table is truncated")
    entries = []
    for slot in range((vt_size - 4) // 2):
        offset = struct.unpack_from("<H", raw, 4 + 2 * slot)[0]
        if offset:
            if offset < 4 or offset >= obj_size:
                raise FlatBufferError(f"raw options table field {slot} lies outside the table")
            entries.append((offset, slot))
    entries.sort()
    fields = []
    for index, (offset, slot) in enumerate(entries):
        end = entries[index + 1][0] if index + 1 < len(entries) else obj_size
        size = 8
        while size > 1 and size > end - offset:
            size //= 2
        fields.append((slot, offset, raw[start + offset:start + offset + size]))
    return fields
