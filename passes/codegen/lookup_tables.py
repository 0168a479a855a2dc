"""Where each lookup table of a program sits in SHRAM and which need a DMA: Vela 5.2 keeps the
tables it has copied while nothing overwrites them, reuses a slot holding an equal table, and
otherwise copies into the slot overlapping the fewest tables present (docs/codegen_design.md,
Lookup tables)."""
from __future__ import annotations

from dataclasses import dataclass, field

from npu_opt.hardware.accelerators import AcceleratorConfig

LUT_BYTES = 2048
"""SHRAM bytes set aside for lookup tables."""
SLOT_BYTES = 256
"""SHRAM bytes per LUT slot (ACTIVATION's lut0-lut7)."""


@dataclass
class LutPlacer:
    """The tables in SHRAM as a program runs: (bytes, SHRAM address) in order of arrival."""

    accel: AcceleratorConfig
    present: list[tuple[bytes, int]] = field(default_factory=list)

    def op_without_table(self) -> None:
        """An operation without a table ran: with no reserved SHRAM banks its accumulators or
        IFM buffers may overwrite the tables."""
        if self.accel.shram_reserved_end_banks == 0:
            self.present = []

    def place(self, table: bytes) -> tuple[int, bool]:
        """(SHRAM address, whether a DMA must copy it) of ``table`` for the next operation."""
        for data, address in self.present:
            if data == table:
                return address, False
        start = self.accel.shram_lut_address
        size = len(table)
        best, fewest = start, None
        for address in range(start, start + LUT_BYTES, size):
            overlaps = sum(1 for data, at in self.present if address < at + len(data) and at < address + size)
            if fewest is None or overlaps < fewest:
                best, fewest = address, overlaps
        self.present = [(table, best)] + [(data, at) for data, at in self.present
                                           if not (best < at + len(data) and at < best + size)]
        return best, True

    def slot(self, address: int) -> int:
        return (address - self.accel.shram_lut_address) // SLOT_BYTES


__all__ = ["LUT_BYTES", "LutPlacer", "SLOT_BYTES"]
