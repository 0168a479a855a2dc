"""Size of a compressed weight stream: a model of the Ethos-U weight codec ("mlw").

The NPU reads weights compressed; how many bytes a DMA moves therefore depends on the values.
This module predicts the encoded size of a reordered weight stream (weight_reorder.py) by
following the codec's own decisions (Vela 5.2.0 ``mlw_codec``, ``mlw_encode.c``) on the stream's
statistics, without producing the bit stream:

* palette sections: the stream is normally one section; the codec's restart heuristic (a new
  palette when a <= 32-entry palette over the last 32..512 non-zero values saves bits) is run
  exactly when some window could pass it, which only happens for low-entropy streams;
* per section: zero-run mode when 0 is more than 4x as common as the next value; a palette of the
  most frequent values when it covers more than half of them; other values coded directly
  (sign-magnitude, offset); each index Golomb-Rice coded;
* Golomb-Rice parameters: the codec's dynamic programme over 13 weight (and 4 zero-run)
  parameter sets with a 40-bit cost per switch (for long streams without zero runs the switch
  points are searched on groups of values, which in practice gives the same size);
* bit stream: 23-bit slice headers (a slice per parameter run, at most 32767 values), the
  palette, 12-bit unary words (8-bit for zero runs with divisor >= 3) padded at the end of each
  slice, remainders; then the end-of-stream marker and padding to 16 bytes.

For the corpus models the prediction is within a few bytes of the codec for depth-first weights
and within about 2 % for zero-heavy (padded) streams; bench/PERF_FIDELITY.md has the numbers.
"""
from __future__ import annotations

import numpy as np

ZERO_RUN_THRESHOLD = 4
SWITCH_COST = 40
"""Bits the parameter search charges for a change of Golomb-Rice parameters."""
SLICE_HEADER_BITS = 3 + 15 + 3 + 1 + 1
PALETTE_HEADER_BITS = 5 + 5 + 3
MAX_SLICE = 32767
EXACT_SEARCH_LIMIT = 65536
"""Streams up to this many values, and zero-run streams of any length, get the codec's exact
per-value parameter search; longer plain streams are searched on groups of values."""

# (truncated, divisor) of the weight parameter sets; the last one is "uncompressed".
_W_PARAMS: tuple[tuple[int, int], ...] = tuple((0, d) for d in range(6)) + tuple((1, d) for d in range(6)) + ((2, 0),)
_Z_DIVS: tuple[int, ...] = (0, 1, 2, 3)


def _index_bits(size: int) -> int:
    """Bits of a palette index for a palette of ``size`` entries."""
    for i in range(7, -1, -1):
        if size > (1 << i):
            return i + 1
    return 0


class _Palette:
    """The codec's palette decision for one section."""

    def __init__(self, values: np.ndarray) -> None:
        freq = np.bincount(values.astype(np.int64) + 256, minlength=512)
        # The two most common values, first index winning ties (as the codec's scan does).
        order = np.argsort(-freq, kind="stable")
        first, second = int(order[0]), int(order[1])
        self.zero_runs = (first - 256 == 0) and freq[first] > ZERO_RUN_THRESHOLD * freq[second]
        counts = np.zeros(512, np.int64)
        for v in np.nonzero(freq)[0]:
            value = int(v) - 256
            if value == 0 and self.zero_runs:
                continue
            counts[(abs(value) << 1) | (value < 0)] = freq[v]
        used = np.nonzero(counts)[0]
        total = int(counts.sum())
        max_value = int(used.max()) if used.size else 0
        leading = np.nonzero(counts[:31])[0]
        self.direct_offset = int(leading[0]) if leading.size else 31
        # Descending count, then descending palette value (the codec sorts count<<16 | value).
        ranked = sorted(((int(counts[v]), int(v)) for v in used), reverse=True)
        self.only_zeros = not ranked
        if self.only_zeros:
            self.direct_offset = 0
        self.only_palette = bool(ranked) and len(ranked) <= 32
        limit = 32 if self.only_palette else min(32, 511 - max_value)
        if limit == 1:
            limit = 0
        chosen = ranked[:limit]
        size = len(chosen)
        covered = sum(c for c, _ in chosen)
        if size == 1:
            size = 2
        if covered > total // 2:
            self.size = size
            bits_value = max((v for _, v in chosen), default=0)
        else:
            self.size = 0
            bits_value = max_value
        self.bits = 2
        while (1 << self.bits) <= bits_value:
            self.bits += 1
        self.lut = [v for _, v in chosen] if self.size else []
        if self.only_palette:
            self.uncompressed_bits = 0
            while (1 << self.uncompressed_bits) < self.size:
                self.uncompressed_bits += 1
        elif self.size == 0:
            self.uncompressed_bits = self.bits
        else:
            self.uncompressed_bits = 100

    def indices(self, values: np.ndarray) -> np.ndarray:
        """The coded index of each value: its palette slot, or the offset direct code."""
        palval = (np.abs(values.astype(np.int64)) << 1) | (values < 0)
        index = palval + self.size - self.direct_offset
        for slot, entry in enumerate(self.lut):
            index[palval == entry] = slot
        return index


def _value_bits(values: np.ndarray, zero_runs: bool, uncompressed_bits: int) -> np.ndarray:
    """Bits to code each value under each parameter set (n x sets); impossible codes cost 10000."""
    if zero_runs:
        q = values[:, None] >> np.array(_Z_DIVS)[None, :]
        return q + 1 + np.array(_Z_DIVS)[None, :]
    trunc = np.array([t for t, _ in _W_PARAMS])[None, :]
    div = np.array([d for _, d in _W_PARAMS])[None, :]
    q = values[:, None] >> div
    bits = np.where(trunc == 1, np.minimum(q + 1, 2) + div, q + 1 + div)
    bits = np.where(((trunc == 1) & (q > 2)) | (q > 31), 10000, bits)
    bits[:, -1] = uncompressed_bits
    return bits


def _search(bits: np.ndarray, free_at: set[int], exact: bool) -> tuple[list[int], list[int]]:
    """The codec's parameter search: (parameter set, end position) of each run.

    ``free_at``: end positions after which a switch costs nothing (the weight stream's switch
    points, for the zero-run stream). With ``exact`` false, long streams are searched on groups
    of values (switches only at group boundaries: a few tenths of a percent larger streams for
    zero-run-heavy data, exact for plain 8-bit data in practice).
    """
    n, sets = bits.shape
    group = 1 if exact else max(1, -(-n // EXACT_SEARCH_LIMIT))
    groups = -(-n // group)
    if group > 1:
        padded = np.zeros((groups * group, sets), bits.dtype)
        padded[:n] = bits
        bits = padded.reshape(groups, group, sets).sum(axis=1)
    free = bytearray(groups)
    for position in free_at:
        if 1 <= position <= groups * group:
            free[(position - 1) // group] = 1
    cost = [0] * sets
    best_of: list[int] = []
    switched_of: list[int] = []
    indices = range(sets)
    for g, row in enumerate(map(tuple, bits.tolist())):
        best_cost = min(cost)
        best = cost.index(best_cost)
        threshold = best_cost + (0 if free[g] else SWITCH_COST)
        mask = 0
        new_cost = []
        for j in indices:
            c = cost[j]
            if threshold < c:
                mask |= 1 << j
                new_cost.append(threshold + row[j])
            else:
                new_cost.append(c + row[j])
        cost = new_cost
        best_of.append(best)
        switched_of.append(mask)
    current = cost.index(min(cost))
    params, ends = [current], [n]
    for g in range(groups - 1, 0, -1):
        if switched_of[g] >> current & 1:
            previous = best_of[g]
            if previous != current:
                params.append(previous)
                ends.append(g * group)
                current = previous
    params.reverse()
    ends.reverse()
    return params, ends


def _unary_bits(q: np.ndarray, truncated: bool) -> tuple[np.ndarray, np.ndarray]:
    """(word positions, extra unary bits) per value of a weight code."""
    if truncated:
        return np.ones_like(q), (q > 0).astype(np.int64)
    return q // 2 + 1, (q + 1) // 2


def _section_bits(values: np.ndarray) -> int:
    """Encoded bits of one palette section (slices with headers and payload)."""
    pal = _Palette(values)
    if pal.zero_runs:
        nonzero = np.nonzero(values)[0]
        if pal.only_zeros:
            nonzero = np.array([0], np.int64)  # an all-zero section codes its first zero as a weight
        weights = pal.indices(values[nonzero])
        bounds = np.concatenate(([-1], nonzero, [values.size]))
        runs = np.diff(bounds) - 1
    else:
        weights = pal.indices(values)
        runs = np.zeros(0, np.int64)
    n = weights.size
    exact = pal.zero_runs or n <= EXACT_SEARCH_LIMIT
    w_params, w_ends = _search(_value_bits(weights, False, pal.uncompressed_bits), set(), exact)
    if n == 0:
        w_params, w_ends = [], []
    z_params: list[int] = []
    z_ends: list[int] = []
    if pal.zero_runs:
        z_params, z_ends = _search(_value_bits(runs, True, 0), set(w_ends), exact)
    # Slices end at every parameter switch of either stream and every MAX_SLICE values.
    cuts = sorted({e for e in w_ends + z_ends if 0 < e < n} | {n})
    slices: list[tuple[int, int]] = []
    start = 0
    for cut in cuts:
        while start < cut:
            stop = min(cut, start + MAX_SLICE)
            slices.append((start, stop))
            start = stop
    if not slices:
        slices = [(0, 0)]
    bits = 0
    wi = zi = 0
    for index, (start, stop) in enumerate(slices):
        first = index == 0
        while wi < len(w_ends) - 1 and w_ends[wi] <= start:
            wi += 1
        while zi < len(z_ends) - 1 and z_ends[zi] <= start:
            zi += 1
        bits += SLICE_HEADER_BITS
        if first:
            bits += PALETTE_HEADER_BITS + pal.bits * pal.size
        if stop > start and w_params:
            bits += _weight_slice_bits(weights[start:stop], w_params[wi], pal.uncompressed_bits)
        if pal.zero_runs:
            z = runs[start + (0 if first else 1):stop + 1]
            div = _Z_DIVS[z_params[zi]]
            positions = int(((z >> div) + 1).sum())
            word = 12 if div < 3 else 8
            bits += word * -(-positions // word) + div * z.size
    return bits


def _weight_slice_bits(values: np.ndarray, param: int, uncompressed_bits: int) -> int:
    truncated, div = _W_PARAMS[param]
    if truncated == 2:
        return uncompressed_bits * values.size
    q = values >> div
    positions, extra = _unary_bits(q, truncated == 1)
    words = -(-int(positions.sum()) // 12)
    return 12 * words + int(extra.sum()) + div * values.size


def _window_could_restart(values: np.ndarray) -> bool:
    """Whether the codec's palette-restart heuristic might fire (some window of 32..512 non-zero
    values has few enough distinct values for a small palette to pay)."""
    nonzero = values[values != 0]
    for window in (32, 64, 128, 256, 512):
        if nonzero.size < window:
            break
        usable = (nonzero.size // window) * window
        chunks = np.sort(nonzero[:usable].reshape(-1, window), axis=1)
        distinct = 1 + (np.diff(chunks, axis=1) != 0).sum(axis=1)
        smallest = int(distinct.min())
        if smallest <= 32 and window * (90 - _index_bits(smallest) * 15) // 16 - smallest * 8 - 20 > 0:
            return True
    return False


def _c_div(a: int, b: int) -> int:
    """Integer division truncating towards zero, as in C."""
    return a // b if a >= 0 else -((-a) // b)


def _palette_sections(values: np.ndarray) -> list[int]:
    """Start positions of the codec's palette sections (its restart heuristic)."""
    if not _window_could_restart(values):
        return [0]
    buf = values.tolist()
    size = len(buf)
    prev = [-1] * 512
    restarts = [0]
    last = 0
    got = False
    palette_size = 0
    zeros = 0
    for i in range(size):
        exclude_zero = 1 if zeros > (i - last) // 4 else 0
        v = buf[i] + 256
        if got and prev[v] < last:
            palette_size += 1
            grown = palette_size - 1 - exclude_zero
            if grown >= 0 and (grown & (grown - 1)) == 0 and (
                    (i - last - zeros) > 512 or (palette_size - exclude_zero) > 32):
                restarts.append(i)
                last, got, zeros = i, False, 0
        prev[v] = i
        if buf[i] == 0:
            zeros += 1
        nz = i - last - zeros
        for window in (32, 64, 128, 256, 512):
            n_win = window * (2 if got else 1)
            if nz <= 0 or nz % n_win:
                continue
            count = 0
            j = i
            while j > last:
                if buf[j] != 0:
                    if count == n_win + 1:
                        break
                    count += 1
                j -= 1
            restart = j
            new_size = sum(1 for p in prev if p >= restart)
            create = False
            if got:
                saving = (_c_div(n_win * (_index_bits(palette_size - exclude_zero) * 15
                                          - _index_bits(new_size - exclude_zero) * 15), 16) - new_size * 8 - 20)
                create = saving > 0
            elif new_size - exclude_zero <= 32:
                saving = _c_div(n_win * (90 - _index_bits(new_size - exclude_zero) * 15), 16) - new_size * 8 - 20
                create = saving > 0
            if create:
                palette_size, got, last = new_size, True, restart
                if restarts[-1] != last:
                    restarts.append(last)
                zeros = sum(1 for k in range(last, i + 1) if buf[k] == 0)
    return restarts


def encoded_stream_bytes(stream: np.ndarray) -> int:
    """Predicted size in bytes of the codec's output for a reordered weight stream (a multiple
    of 16: the stream ends with a marker and padding to 128 bits)."""
    values = np.asarray(stream, dtype=np.int64)
    bits = 0
    if values.size:
        starts = _palette_sections(values) + [values.size]
        for a, b in zip(starts, starts[1:]):
            if b > a:
                bits += _section_bits(values[a:b])
    bits += 3  # end-of-stream marker
    nbytes = -(-bits // 8)
    return -(-nbytes // 16) * 16


__all__ = ["encoded_stream_bytes"]
