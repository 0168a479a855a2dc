"""Encoded size of weight streams: the exact bit count of the Ethos-U weight codec ("mlw"), since
a weight DMA moves the compressed bytes.

Design notes: docs/cost_model_design.md, section Weight encoding size (weight_encoding)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import numpy as np

from npu_opt.hardware.codec.grc_search import Runs, SearchJob, search_runs
from npu_opt.hardware.codec.palette_sections import palette_sections

MAX_SLICE = 32767
"""Most symbols one slice may carry."""
SLICE_HEADER_BITS = 3 + 15 + 3 + 1 + 1
"""Zero-run divisor, length, weight divisor, truncation flag, new-palette flag."""
PALETTE_HEADER_BITS = 5 + 5 + 3
"""Direct offset, palette size, palette entry width (first slice of a section)."""
END_MARKER_BITS = 3
NO_UNCOMPRESSED = 100
"""Per-symbol bits that make the uncompressed parameter set useless (mixed palette/direct)."""
_IMPOSSIBLE = 128
"""Search cost of a symbol a parameter set cannot code. The codec charges 10000; any cost above
101 takes the same decisions: the set is at least 61 bits above the cheapest one next step (which
grows by at most the 40-bit price plus 21 bits, divisor 5 codes every symbol), so it switches
there and never is the cheapest, as with 10000; a small cost lets the search use 16-bit sums."""

# Weight parameter sets: divisor (remainder bits) and mode 0 = plain, 1 = truncated, 2 = raw.
W_DIVISOR = np.array([0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 0])
W_MODE = np.array([0] * 6 + [1] * 6 + [2])
Z_DIVISOR = np.array([0, 1, 2, 3])


def _weight_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per symbol value (0..511) and weight set: search cost, unary word positions, other bits
    (continuation + remainder). The raw set's column is filled in per section."""
    q = np.arange(512)[:, None] >> W_DIVISOR[None, :]
    truncated = W_MODE[None, :] == 1
    cost = np.where(truncated, np.minimum(q + 1, 2), q + 1) + W_DIVISOR[None, :]
    cost = np.where((truncated & (q > 2)) | (q > 31), _IMPOSSIBLE, cost)
    positions = np.where(truncated, 1, q // 2 + 1)
    extra = np.where(truncated, (q > 0).astype(np.int64), (q + 1) // 2) + W_DIVISOR[None, :]
    positions[:, -1] = 0
    return cost, positions, extra


_W_COST, _W_POSITIONS, _W_EXTRA = _weight_tables()
_EXTRA_SHIFT = 24
"""A slice's unary word positions sum to less than 2**24 (at most 32767 symbols, 257 each)."""
_W_PACKED = ((np.where(np.arange(len(W_MODE)) == len(W_MODE) - 1, 0, _W_EXTRA) << _EXTRA_SHIFT)
             | _W_POSITIONS).reshape(-1)
"""Per (symbol value * sets + set): the other bits (none for the raw set, whose bits are the
section's) above the unary word positions, so that one gather and one sum per slice give both."""
_SIGN_MAGNITUDE = np.where(np.arange(-256, 256) < 0, (-np.arange(-256, 256) << 1) | 1, np.arange(-256, 256) << 1)
_SIGN_MAGNITUDE[0] = 0
"""The codec's value code of each value -255..255, indexed by value + 256 (-256 has none: 0)."""


def _index_width(count: int) -> int:
    """Bits to tell ``count`` palette entries apart."""
    return max(0, int(count - 1).bit_length()) if count > 1 else 0


@dataclass(frozen=True)
class SectionCode:
    """How the codec codes one palette section: its mode, palette and symbol streams."""

    zero_runs: bool
    palette_size: int
    palette_bits: int
    raw_bits: int
    """Bits per symbol of the raw parameter set (NO_UNCOMPRESSED when it may not be used)."""
    symbols: np.ndarray
    runs: np.ndarray
    """Zero-run lengths (one more than symbols) in zero-run mode, else empty."""

    @property
    def header_bits(self) -> int:
        """Slice header plus palette of the section's first slice."""
        return SLICE_HEADER_BITS + PALETTE_HEADER_BITS + self.palette_bits * self.palette_size

    def weight_table(self) -> np.ndarray:
        """Search cost of each symbol value under each weight set for this section (read-only,
        one array per raw width, so that a search over many sections holds each table once)."""
        table = _WEIGHT_TABLES.get(self.raw_bits)
        if table is None:
            table = _W_COST.copy()
            table[:, -1] = self.raw_bits
            table.flags.writeable = False
            _WEIGHT_TABLES[self.raw_bits] = table
        return table


_WEIGHT_TABLES: dict[int, np.ndarray] = {}


_CODES = np.arange(512)
_CODES.flags.writeable = False
_VALUE_OF_CODE = np.where(_CODES & 1, -(_CODES >> 1), _CODES >> 1) + 256
"""Per sign-magnitude code, the index of its value in a value histogram (value + 256)."""


def _sign_magnitude(values: np.ndarray) -> np.ndarray:
    """The codec's value code: magnitude times two, plus one for negatives."""
    return (np.abs(values) << 1) | (values < 0)


def code_section(values: np.ndarray) -> SectionCode:
    """The codec's mode, palette and symbols for the section ``values`` (int, -255..255)."""
    offset = values + 256
    counts = np.bincount(offset, minlength=512)
    zeros = int(counts[256])
    zero_runs = zeros > 4 * max(int(counts[:256].max()), int(counts[257:].max()))
    # Frequency of each sign-magnitude code (code 1, "minus zero", never occurs).
    codes = _CODES
    by_code = counts[_VALUE_OF_CODE]
    by_code[1] = 0
    if zero_runs:
        by_code[0] = 0
    used = np.flatnonzero(by_code)
    largest = int(used[-1]) if used.size else 0
    nonzero_small = np.flatnonzero(by_code[:31])
    direct_offset = int(nonzero_small[0]) if nonzero_small.size else 31
    # Most frequent first; equal counts: the larger code first.
    ranked = used[np.lexsort((-used, -by_code[used]))]
    if not used.size:
        direct_offset = 0
    fits = 0 < used.size <= 32
    room = 32 if fits else min(32, 511 - largest)
    if room == 1:
        room = 0
    chosen = ranked[:room]
    covered = int(by_code[chosen].sum())
    if covered > int(by_code.sum()) // 2:
        palette = chosen
        size = max(2, chosen.size) if chosen.size else 0
        widest = int(chosen.max()) if chosen.size else 0
    else:
        palette = chosen[:0]
        size = 0
        widest = largest
    bits = max(2, widest.bit_length())
    if fits:
        raw_bits = _index_width(size)
    elif size == 0:
        raw_bits = bits
    else:
        raw_bits = NO_UNCOMPRESSED
    # Symbols: palette slot, or the code shifted past the palette (a zero codes as "minus zero").
    lookup = codes + (size - direct_offset)
    lookup[0] = 1 + size - direct_offset
    lookup[palette] = np.arange(palette.size)
    if zero_runs:
        coded = np.flatnonzero(values)
        if not used.size:
            coded = np.zeros(1, np.int64)  # an all-zero section codes its first zero as a weight
        edges = np.concatenate(((-1,), coded, (values.size,)))
        runs = edges[1:] - edges[:-1] - 1
    else:
        coded = slice(None)
        runs = np.zeros(0, np.int64)
    if counts[0]:  # -256: outside the codec's range (the lookup below fails as the codec would)
        symbols = lookup[_sign_magnitude(values[coded])]
    else:
        symbols = lookup[_SIGN_MAGNITUDE][offset[coded]]
    return SectionCode(zero_runs, size, bits, raw_bits, symbols, runs)


def _zero_run_table(runs: np.ndarray) -> np.ndarray:
    """Search cost of each run length (0..longest) under each zero-run set."""
    q = np.arange(int(runs.max()) + 1)[:, None] >> Z_DIVISOR[None, :]
    return q + 1 + Z_DIVISOR[None, :]


def _slices(code: SectionCode, weight_runs: Runs, zero_runs: Runs | None) -> tuple[np.ndarray, np.ndarray]:
    """(start, end) of every slice: cut at every parameter change and every MAX_SLICE symbols."""
    n = code.symbols.size
    # Each stream's run ends rise strictly: the weight stream's alone are the bounds already;
    # with the zero-run stream's, the merged ends are sorted and repeats dropped.
    ends = weight_runs.ends
    if zero_runs is not None:
        ends = np.sort(np.concatenate((ends, zero_runs.ends)))
    bounds = np.concatenate((ends[(ends > 0) & (ends < n)], (n,)))
    if zero_runs is not None and bounds.size > 1:
        bounds = bounds[np.concatenate(((True,), bounds[1:] != bounds[:-1]))]
    if n and bounds.size:
        start = np.concatenate(([0], bounds[:-1]))
        if int((bounds - start).max()) <= MAX_SLICE:
            return start, bounds
    starts: list[int] = []
    previous = 0
    for bound in bounds.tolist():
        starts.extend(range(previous, bound, MAX_SLICE))
        previous = bound
    start = np.asarray(starts, np.int64)
    end = np.append(start[1:], n)
    return start, end


def _section_bits(code: SectionCode, weight_runs: Runs, zero_runs: Runs | None) -> int:
    """Bits of one coded section: slice headers, palette, unary words and the other bits."""
    start, end = _slices(code, weight_runs, zero_runs)
    length = end - start
    w_set = weight_runs.sets[np.searchsorted(weight_runs.ends, end)]
    packed = np.add.reduceat(_W_PACKED[code.symbols * len(W_MODE) + np.repeat(w_set, length)], start)
    words = -(-(packed & ((1 << _EXTRA_SHIFT) - 1)) // 12)
    raw = int(length[w_set == len(W_MODE) - 1].sum())
    bits = code.header_bits + SLICE_HEADER_BITS * (start.size - 1)
    bits += int((12 * words).sum()) + int((packed >> _EXTRA_SHIFT).sum()) + code.raw_bits * raw
    if zero_runs is not None:
        # The first slice codes the runs before and after its symbols; later ones only after.
        z_count = length.copy()
        z_count[0] += 1
        z_set = zero_runs.sets[np.searchsorted(zero_runs.ends, end)]
        divisor = Z_DIVISOR[z_set]
        per_run = np.repeat(divisor, z_count)
        z_positions = (code.runs >> per_run) + 1
        z_first = np.concatenate(([0], np.cumsum(z_count)[:-1]))
        word = np.where(divisor < 3, 12, 8)
        z_words = -(-np.add.reduceat(z_positions, z_first) // word)
        bits += int((word * z_words).sum()) + int((divisor * z_count).sum())
    return bits


BATCH_SYMBOLS = 1 << 21
"""Most weights searched in one batch (bounds the batch's working memory, about 40 B each)."""


def encoded_sizes(streams: Iterable[np.ndarray]) -> list[int]:
    """Bytes the codec produces for each reordered weight stream (a multiple of 16); the streams
    are searched together, in batches of about BATCH_SYMBOLS weights (a generator of streams is
    consumed batch by batch)."""
    sizes: list[int] = []
    group: list[np.ndarray] = []
    held = 0
    for stream in streams:
        if group and held + len(stream) > BATCH_SYMBOLS:
            sizes += _encoded_batch(group)
            group, held = [], 0
        group.append(stream)
        held += len(stream)
    return sizes + (_encoded_batch(group) if group else [])


def _encoded_batch(streams: list[np.ndarray]) -> list[int]:
    """``encoded_sizes`` of one batch: all its sections searched together."""
    sections: list[tuple[int, SectionCode]] = []
    for index, stream in enumerate(streams):
        values = np.asarray(stream, dtype=np.int64)
        starts = palette_sections(stream) + [values.size]  # (the stream's own type: less to scan)
        for a, b in zip(starts, starts[1:]):
            if b > a:
                sections.append((index, code_section(values[a:b])))
    weight_runs = search_runs([SearchJob(code.symbols, code.weight_table()) for _, code in sections])
    z_jobs = [SearchJob(code.runs, _zero_run_table(code.runs), runs.ends - 1)
              for (_, code), runs in zip(sections, weight_runs) if code.zero_runs]
    z_found = iter(search_runs(z_jobs))
    bits = [END_MARKER_BITS] * len(streams)
    for (index, code), runs in zip(sections, weight_runs):
        bits[index] += _section_bits(code, runs, next(z_found) if code.zero_runs else None)
    return [-(-b // 128) * 16 for b in bits]


def encoded_stream_bytes(stream: np.ndarray) -> int:
    """Bytes the codec produces for one reordered weight stream (a multiple of 16)."""
    return encoded_sizes([stream])[0]


__all__ = ["SectionCode", "code_section", "encoded_sizes", "encoded_stream_bytes"]
