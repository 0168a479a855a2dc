"""Where the weight codec starts a new palette section: its savings heuristic, as a scan.

Design notes: docs/cost_model_design.md, section Palette sections of the codec (palette_sections)."""
from __future__ import annotations

import numpy as np

from npu_opt.hardware.codec import mlw_core

WINDOWS = (32, 64, 128, 256, 512)
"""Non-zero values between two palette checks (doubled while the section has a palette)."""


def _index_bits(entries: int) -> int:
    """Index width the heuristic assumes for a palette of ``entries`` values (0 for one, at
    most 8)."""
    return min(8, int(entries - 1).bit_length()) if entries > 1 else 0


def _toward_zero(numerator: int, denominator: int) -> int:
    """Integer division rounding toward zero (the heuristic's arithmetic)."""
    quotient = abs(numerator) // denominator
    return quotient if numerator >= 0 else -quotient


def _first_palette_pays(window: int, entries: int, index_entries: int) -> bool:
    """Whether a first palette of ``entries`` values (``index_entries`` of them indexed) pays
    over ``window`` values."""
    if index_entries > 32:
        return False
    return _toward_zero(window * (90 - _index_bits(index_entries) * 15), 16) - entries * 8 - 20 > 0


def _most_distinct(window: int) -> int:
    """The most distinct values a window can hold and still pay for a first palette (counting
    one fewer, in case zeros are left out of the index)."""
    return max((d for d in range(1, 513) if _first_palette_pays(window, d - 1, d - 1)), default=0)


_LIMITS = {window: _most_distinct(window) for window in WINDOWS}


_PAIRS = tuple((window, _LIMITS[window]) for window in WINDOWS)


def could_split(values: np.ndarray) -> bool:
    """False when no window of the stream can pay for a first palette (then there is one section).

    Before the first palette, checks fall on windows holding a whole aligned block of ``window``
    non-zero values, so their palettes have at least that block's distinct values: a stream none
    of whose blocks has few enough for its window stays one section (mlw_core.may_split counts
    them; ``values`` int16, -255..255)."""
    return bool(mlw_core.may_split(np.ascontiguousarray(values, dtype=np.int16), _PAIRS))


class _Scan:
    """The section scan, jumping from event to event: only where a value is new to a section
    that has a palette, or where the section's non-zero count reaches a check, can anything
    change. Which values a window holds comes from each position's previous equal value."""

    def __init__(self, values: np.ndarray) -> None:
        self.size = values.size
        self.zero_at = (values == 0).tolist()
        self.nonzero_at = np.flatnonzero(values).tolist()
        zeros_before = np.concatenate(([0], np.cumsum(values == 0)))
        self.zeros_before = zeros_before.tolist()
        self.nonzeros_before = (np.arange(1, values.size + 1) - zeros_before[1:]).tolist()
        order = np.argsort(values, kind="stable")
        repeat = values[order][1:] == values[order][:-1]
        self.previous = np.full(values.size, -1, np.int64)
        self.previous[order[1:][repeat]] = order[:-1][repeat]
        self.start = 0
        self.palette: int | None = None
        self.starts = [0]

    def zeros(self, first: int, last: int) -> int:
        """Zeros among positions first..last (inclusive)."""
        return self.zeros_before[last + 1] - self.zeros_before[first]

    def nonzeros_since_start(self, at: int) -> int:
        """The scan's non-zero count of the open section at ``at`` (one less than the count)."""
        return at - self.start - self.zeros(self.start, at)

    def open_section(self, at: int) -> None:
        self.start = at
        if self.starts[-1] != at:
            self.starts.append(at)

    def window_start(self, at: int, window: int) -> int:
        """Start of a palette covering the last ``window + 2`` non-zero values up to ``at`` (the
        section start if it has fewer)."""
        back = self.nonzeros_before[at] - (window + 2)
        if back < 0:
            return self.start
        return max(self.nonzero_at[back], self.start)

    def distinct(self, first: int, last: int) -> int:
        """Distinct values among positions first..last."""
        return int(np.count_nonzero(self.previous[first:last + 1] < first))

    def next_event(self, at: int) -> int:
        """The first position from ``at`` where the scan may change state."""
        step = 64 if self.palette is not None else 32
        count = self.nonzeros_since_start(at)
        if count > 0 and count % step == 0:
            return at
        wanted = max(step, (count // step + 1) * step)
        target = wanted + (self.nonzeros_before[self.start - 1] if self.start else 0)
        event = self.nonzero_at[target] if target < len(self.nonzero_at) else self.size
        if self.palette is not None and event > at:
            fresh = np.flatnonzero(self.previous[at:event] < self.start)
            if fresh.size:
                event = at + int(fresh[0])
        return event

    def check_windows(self, at: int, skip_zero: int) -> None:
        """The periodic palette checks after position ``at``."""
        for base in WINDOWS:
            window = base * (2 if self.palette is not None else 1)
            nonzeros = self.nonzeros_since_start(at)
            if nonzeros <= 0 or nonzeros % window:
                continue
            begin = self.window_start(at, window)
            entries = self.distinct(begin, at)
            indexed = entries - skip_zero
            if self.palette is None:
                pays = _first_palette_pays(window, entries, indexed)
            else:
                narrower = (_index_bits(self.palette - skip_zero) - _index_bits(indexed)) * 15
                pays = _toward_zero(window * narrower, 16) - entries * 8 - 20 > 0
            if pays:
                self.palette = entries
                self.open_section(begin)

    def run(self) -> list[int]:
        at = self.next_event(0)
        while at < self.size:
            span = at - self.start
            zeros_so_far = self.zeros(self.start, at - 1) if at > self.start else 0
            skip_zero = 1 if zeros_so_far > span // 4 else 0
            if self.palette is not None and self.previous[at] < self.start:
                self.palette += 1
                grown = self.palette - 1 - skip_zero
                widens = grown >= 0 and grown & (grown - 1) == 0
                if widens and (span - zeros_so_far > 512 or self.palette - skip_zero > 32):
                    self.palette = None
                    self.open_section(at)
            self.check_windows(at, skip_zero)
            at = self.next_event(at + 1) if at + 1 < self.size else self.size
        return self.starts


def palette_sections(values: np.ndarray) -> list[int]:
    """Start positions of the codec's palette sections of ``values`` (always starting with 0)."""
    if not could_split(values):
        return [0]
    return _Scan(np.asarray(values, dtype=np.int64)).run()


__all__ = ["could_split", "palette_sections"]
