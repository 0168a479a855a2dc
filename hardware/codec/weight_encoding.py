"""The Ethos-U weight codec ("mlw", Vela 5.2's format): reordered weight streams to the exact bytes
Vela's encoder writes. Sizes are the lengths of those bytes, so sizing and writing cannot differ.

Design notes: docs/weight_codec.md."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator

import numpy as np

from npu_opt.hardware.codec import mlw_core
from npu_opt.hardware.codec.palette_sections import palette_sections

WEIGHT_LIMIT = 255
"""The codec codes weights in -255..255 (9-bit sign-magnitude)."""
NO_UNCOMPRESSED = 100
"""Raw bits of a section whose raw parameter set must not be used (mixed palette/direct): more
than any other set costs, so the search never picks it."""

_CODES = np.arange(512, dtype=np.int32)
_CODES.flags.writeable = False
_VALUE_OF_CODE = np.where(_CODES & 1, -(_CODES >> 1), _CODES >> 1) + 256
"""Per sign-magnitude code, the index of its value in a value histogram (value + 256)."""
_SIGN_MAGNITUDE = np.where(np.arange(-256, 256) < 0, (-np.arange(-256, 256) << 1) | 1,
                           np.arange(-256, 256) << 1).astype(np.int32)
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
    direct_offset: int
    """Smallest sign-magnitude code below 31 in use: subtracted from codes outside the palette."""
    palette: np.ndarray
    """The palette's sign-magnitude codes, most frequent first (``palette_size`` of them)."""

    def as_section(self) -> tuple:
        """The section as mlw_core.encode_sections takes it."""
        return (self.symbols, self.runs if self.zero_runs else None, self.raw_bits, self.direct_offset,
                self.palette_bits, self.palette)


def _sign_magnitude(values: np.ndarray) -> np.ndarray:
    """The codec's value code: magnitude times two, plus one for negatives."""
    return ((np.abs(values) << 1) | (values < 0)).astype(np.int32)


def code_section(values: np.ndarray) -> SectionCode:
    """The codec's mode, palette and symbols for the section ``values`` (int, -255..255)."""
    offset = values + 256
    counts = np.bincount(offset, minlength=512)
    zeros = int(counts[256])
    zero_runs = zeros > 4 * max(int(counts[:256].max()), int(counts[257:].max()))
    # Frequency of each sign-magnitude code (code 1, "minus zero", never occurs).
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
    lookup = _CODES + np.int32(size - direct_offset)
    lookup[0] = 1 + size - direct_offset
    lookup[palette] = np.arange(palette.size, dtype=np.int32)
    if zero_runs:
        coded = np.flatnonzero(values)
        if not used.size:
            coded = np.zeros(1, np.int64)  # an all-zero section codes its first zero as a weight
        edges = np.concatenate(((-1,), coded, (values.size,)))
        runs = (edges[1:] - edges[:-1] - 1).astype(np.int32)
    else:
        coded = slice(None)
        runs = _CODES[:0]
    if counts[0]:  # -256: outside the codec's range (encode_stream refuses it before)
        symbols = lookup[_sign_magnitude(values[coded])]
    else:
        symbols = lookup[_SIGN_MAGNITUDE][offset[coded]]
    # A palette of one value is padded with code 0 (the codec has no one-entry palette).
    entries = np.zeros(size, np.int32)
    entries[:palette.size] = palette
    return SectionCode(zero_runs, size, bits, raw_bits, symbols, runs, direct_offset, entries)


def _checked(stream: np.ndarray) -> np.ndarray:
    """``stream`` as int64, after checking every weight is in the codec's range."""
    values = np.asarray(stream, dtype=np.int64).reshape(-1)
    if values.size:
        low, high = int(values.min()), int(values.max())
        if low < -WEIGHT_LIMIT or high > WEIGHT_LIMIT:
            at = int(np.flatnonzero((values < -WEIGHT_LIMIT) | (values > WEIGHT_LIMIT))[0])
            raise ValueError(f"weight {int(values[at])} at stream position {at} is outside the codec's range "
                             f"-{WEIGHT_LIMIT}..{WEIGHT_LIMIT}")
    return values


def stream_sections(stream: np.ndarray) -> list[SectionCode]:
    """The coded palette sections of one reordered weight stream (one empty section for an empty
    stream: the codec still writes its slice header)."""
    values = _checked(stream)
    starts = palette_sections(values) + [values.size]
    return [code_section(values[a:b]) for a, b in zip(starts, starts[1:]) if b > a or values.size == 0]


def encode_stream(stream: np.ndarray) -> bytes:
    """The codec's bytes for one reordered weight stream (a multiple of 16), as
    ``ethosu.mlw_codec.encode`` returns them."""
    return mlw_core.encode_sections([code.as_section() for code in stream_sections(stream)])


def encode_streams(streams: Iterable[np.ndarray]) -> Iterator[bytes]:
    """``encode_stream`` of each stream, lazily (a generator of streams is read one at a time)."""
    return (encode_stream(stream) for stream in streams)


def encoded_sizes(streams: Iterable[np.ndarray]) -> list[int]:
    """Bytes the codec produces for each reordered weight stream: the length of its encoding."""
    return [len(encoded) for encoded in encode_streams(streams)]


def encoded_size(stream: np.ndarray) -> int:
    """Bytes the codec produces for one reordered weight stream (a multiple of 16)."""
    return len(encode_stream(stream))


__all__ = ["NO_UNCOMPRESSED", "SectionCode", "WEIGHT_LIMIT", "code_section", "encode_stream", "encode_streams",
           "encoded_size", "encoded_sizes", "stream_sections"]
