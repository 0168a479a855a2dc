"""The memories a command stream addresses: one byte array per base-pointer region, each byte
remembering whether a command (or the caller, for inputs and read-only data) wrote it, so reads
of bytes nobody wrote and addresses past a region's end are located errors.

Design notes: docs/simulator_design.md, section Regions and checks."""
from __future__ import annotations

import numpy as np

from npu_opt.ir.diagnostics import UserError

READ_ONLY, SCRATCH, FAST_SCRATCH = 0, 1, 2
"""Vela's region numbers: read-only data (weights, scales, LUTs), the arena scratch, the fast scratch."""
SHRAM = -1
"""The key of the NPU's internal memory (a DMA's ``internal`` end; the LUTs live at its end)."""


Access = tuple[int, bool, "np.ndarray | tuple[int, int]"]
"""(region, whether it writes, the byte addresses or a [start, end) span) of one access."""


class SimulatorError(UserError):
    """A command the simulator cannot run, or a memory access the stream should not make."""


class Region:
    """One region: its bytes and which of them hold written data."""

    def __init__(self, number: int, size: int, data: bytes | None = None) -> None:
        self.number = number
        self.label = "SHRAM" if number == SHRAM else f"region {number}"
        self.bytes = np.zeros(size, dtype=np.uint8)
        self.written = np.zeros(size, dtype=bool)
        if data is not None:
            self.bytes[:len(data)] = np.frombuffer(bytes(data), dtype=np.uint8)
            self.written[:len(data)] = True

    @property
    def size(self) -> int:
        return int(self.bytes.size)


class Memory:
    """The regions of one ethos-u operator's run; ``where`` names the op for every error."""

    def __init__(self, regions: dict[int, Region]) -> None:
        self.regions = regions
        self.where = "before the first op"
        self.moved = 0
        """Bytes read and written since the last ``take_moved``: the trace's traffic figure."""
        self.accesses: list[Access] | None = None
        """When a list, every read and write is appended to it (the wait checks' footprints)."""

    def _note(self, number: int, writes: bool, where: np.ndarray | tuple[int, int]) -> None:
        if self.accesses is not None:
            self.accesses.append((number, writes, where))

    def region(self, number: int) -> Region:
        if number not in self.regions:
            known = ", ".join(str(n) for n in sorted(self.regions))
            raise SimulatorError(f"{self.where}: region {number} has no base pointer (the regions are {known})")
        return self.regions[number]

    def _check(self, region: Region, addresses: np.ndarray, width: int, what: str) -> None:
        if addresses.size == 0:
            return
        low, high = int(addresses.min()), int(addresses.max()) + width
        if low < 0 or high > region.size:
            bad = low if low < 0 else high - 1
            raise SimulatorError(f"{self.where}: {what} address {bad} is outside {region.label} (size {region.size})")

    def read(self, number: int, addresses: np.ndarray, width: int, what: str) -> np.ndarray:
        """The little-endian values of ``width`` bytes at each address (as int64, unsigned)."""
        region = self.region(number)
        addresses = np.asarray(addresses, dtype=np.int64)
        self._check(region, addresses, width, what)
        offsets = addresses[..., None] + np.arange(width)
        unwritten = ~region.written[offsets]
        if unwritten.any():
            first = int(offsets[unwritten].min())
            raise SimulatorError(f"{self.where}: {what} reads byte {first} of {region.label}, which nothing wrote")
        self.moved += int(addresses.size) * width
        self._note(region.number, False, offsets)
        raw = region.bytes[offsets].astype(np.int64)
        return (raw << (8 * np.arange(width))).sum(axis=-1)

    def write(self, number: int, addresses: np.ndarray, values: np.ndarray, width: int, what: str) -> None:
        """Store the low ``width`` bytes of each value at its address."""
        region = self.region(number)
        addresses = np.asarray(addresses, dtype=np.int64)
        self._check(region, addresses, width, what)
        values = np.asarray(values, dtype=np.int64)
        for k in range(width):
            region.bytes[addresses + k] = (values >> (8 * k)) & 0xFF
            region.written[addresses + k] = True
        self.moved += int(addresses.size) * width
        self._note(region.number, True, addresses[..., None] + np.arange(width))

    def read_bytes(self, number: int, start: int, length: int, what: str) -> bytes:
        """``length`` bytes from ``start``, sliced rather than gathered address by address."""
        region = self.region(number)
        if length == 0:
            return b""
        self._check(region, np.array([start, start + length - 1]), 1, what)
        unwritten = np.flatnonzero(~region.written[start:start + length])
        if unwritten.size:
            raise SimulatorError(f"{self.where}: {what} reads byte {start + int(unwritten[0])} of {region.label}, "
                                 "which nothing wrote")
        self.moved += length
        self._note(region.number, False, (start, start + length))
        return region.bytes[start:start + length].tobytes()

    def write_bytes(self, number: int, start: int, data: bytes, what: str) -> None:
        """Store ``data`` from ``start``, as one slice."""
        region = self.region(number)
        if not data:
            return
        self._check(region, np.array([start, start + len(data) - 1]), 1, what)
        region.bytes[start:start + len(data)] = np.frombuffer(data, dtype=np.uint8)
        region.written[start:start + len(data)] = True
        self.moved += len(data)
        self._note(region.number, True, (start, start + len(data)))


__all__ = ["Access", "FAST_SCRATCH", "Memory", "READ_ONLY", "Region", "SCRATCH", "SHRAM", "SimulatorError"]
