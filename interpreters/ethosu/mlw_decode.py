"""Decode an NPU weight stream (Vela 5.2's "mlw" format) into its signed 9-bit weights, in the
order the NPU consumes them.

Design notes: docs/simulator_design.md, section The weight stream decoder."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

END_OF_STREAM = 7
"""Zero-run divisor field value that ends the stream (then one bits to a byte, 0xff padding)."""
NO_ZERO_RUNS = 6
"""Zero-run divisor field value of a slice without zero runs."""
RAW_WEIGHTS = 7
"""Weight divisor field value of a slice whose symbols are written in a fixed width."""


class WeightStreamError(ValueError):
    """A weight stream that ends early or holds a field no encoder writes; names the bit offset."""


class _Bits:
    """Least-significant-bit-first reader over the stream's bytes."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.position = 0

    def take(self, width: int) -> int:
        if width == 0:
            return 0
        end = self.position + width
        if end > 8 * len(self.data):
            raise WeightStreamError(f"the weight stream ends at byte {len(self.data)}, but a field of {width} bit(s) "
                                    f"starts at bit {self.position}")
        first, last = self.position >> 3, (end + 7) >> 3
        chunk = int.from_bytes(self.data[first:last], "little") >> (self.position & 7)
        self.position = end
        return chunk & ((1 << width) - 1)

    def split(self, count: int, width: int) -> list[int]:
        """``count`` consecutive fields of ``width`` bits, read as one field and cut up."""
        if width == 0:
            return [0] * count
        whole = self.take(count * width)
        mask = (1 << width) - 1
        return [whole >> (k * width) & mask for k in range(count)]

    def align(self) -> None:
        self.position = (self.position + 7) & ~7

    @property
    def at_end(self) -> bool:
        return self.position >= 8 * len(self.data)


@dataclass
class _Coding:
    """The value coding of the current palette section."""

    direct_offset: int = 0
    palette: list[int] = field(default_factory=list)
    entry_bits: int = 0
    zero_runs: bool | None = None

    def values(self, symbols: np.ndarray) -> np.ndarray:
        """The symbols' weights: a palette slot, else a direct code; both sign-magnitude."""
        size = len(self.palette)
        codes = symbols - size + self.direct_offset
        if size:
            palette = np.asarray(self.palette, dtype=np.int64)
            codes = np.where(symbols < size, palette[np.minimum(symbols, size - 1)], codes)
        return np.where(codes & 1, -(codes >> 1), codes >> 1)


def _run_table(positions: int) -> list[tuple[tuple[int, ...], int]]:
    """For every chunk of ``positions`` zero-run bits: the run lengths it finishes (the first
    still to add the carry) and the count it carries on."""
    table = []
    for bits in range(1 << positions):
        done, count = [], 0
        for i in range(positions):
            if bits >> i & 1:
                count += 1
            else:
                done.append(count)
                count = 0
        table.append((tuple(done), count))
    return table


_RUN_TABLES = {positions: _run_table(positions) for positions in (8, 12)}


CHUNK_MEMO_LIMIT = 1 << 17
_WEIGHT_CHUNKS: dict[tuple[int, int, int, bool], tuple[tuple[int, ...], int]] = {}
"""Memoised weight chunks: (first bits, second bits, positions, truncated) -> the quotients
finished (the first still to add the carry) and the count carried on. Streams repeat few of them."""


def _weight_chunk(bits: int, extra: int, positions: int, truncated: bool) -> tuple[tuple[int, ...], int]:
    done: list[int] = []
    count = 0
    for i in range(positions):
        step = 0
        if bits >> i & 1:
            step = 1 + (extra & 1)
            extra >>= 1
        count += step
        if step < 2 or truncated:
            done.append(count)
            count = 0
    return tuple(done), count


def _unary_quotients(bits: int, positions: int, carry: int, second: _Bits | None,
                     truncated: bool) -> tuple[list[int], int]:
    """Quotients finished in one chunk of unary positions (a set bit continues the quotient).
    Weight chunks (``second`` given) read one more bit per set first bit: each position then adds
    0, 1 or 2, and a quotient ends at a position adding less than 2 (or at every position when
    truncated). Zero-run chunks add 1 per set bit and end a quotient at a clear one."""
    if second is None:
        finished, rest = _RUN_TABLES[positions][bits]
    else:
        bits &= (1 << positions) - 1
        key = (bits, second.take(bin(bits).count("1")), positions, truncated)
        found = _WEIGHT_CHUNKS.get(key)
        if found is None:
            if len(_WEIGHT_CHUNKS) >= CHUNK_MEMO_LIMIT:
                _WEIGHT_CHUNKS.clear()
            found = _WEIGHT_CHUNKS[key] = _weight_chunk(*key)
        finished, rest = found
    if not finished:
        return [], carry + rest
    return [finished[0] + carry, *finished[1:]], rest


def decode_weights(data: bytes) -> np.ndarray:
    """The weights of a whole stream (sections and slices up to the end mark), as int16."""
    bits = _Bits(bytes(data))
    coding = _Coding()
    out: list[np.ndarray] = []
    started = False
    while True:
        zero_div = bits.take(3)
        if zero_div == END_OF_STREAM:
            bits.align()
            if bits.at_end or all(b == 0xFF for b in bits.data[bits.position >> 3:]):
                break
            continue
        if zero_div > 3 and zero_div != NO_ZERO_RUNS:
            raise WeightStreamError(f"zero-run divisor {zero_div} at bit {bits.position - 3}: it must be 0-3 or 6")
        out.append(_decode_slice(bits, coding, zero_div, not started))
        started = True
    return np.concatenate(out).astype(np.int16) if out else np.zeros(0, np.int16)


def _decode_slice(bits: _Bits, coding: _Coding, zero_div: int, first: bool) -> np.ndarray:
    """The weights of one slice: header, optional palette, then rounds of unary chunks and the
    remainders of the symbols the previous round finished."""
    start = bits.position - 3
    count = bits.take(15) + 1
    weight_div = bits.take(3)
    truncated = bool(bits.take(1))
    new_palette = bool(bits.take(1))
    zero_runs = zero_div != NO_ZERO_RUNS
    if first and not new_palette:
        raise WeightStreamError(f"the slice at bit {start} opens the stream without a palette section header")
    if new_palette:
        coding.direct_offset = bits.take(5)
        size = bits.take(5)
        size = size + 1 if size else 0
        coding.entry_bits = bits.take(3) + 2
        coding.palette = [bits.take(coding.entry_bits) for _ in range(size)]
        coding.zero_runs = zero_runs
    elif coding.zero_runs != zero_runs:
        raise WeightStreamError(f"the slice at bit {start} switches zero runs {'on' if zero_runs else 'off'} "
                                f"inside a palette section")
    raw = weight_div == RAW_WEIGHTS
    if raw:
        weight_div = (len(coding.palette) - 1).bit_length() if coding.palette else coding.entry_bits
    elif weight_div > 5:
        raise WeightStreamError(f"weight divisor {weight_div} at bit {start + 18}: it must be 0-5 or 7")
    run_count = count + 1 if new_palette else count
    run_positions = 12 if zero_div < 3 else 8
    weight_positions = 8 if raw and weight_div > 5 else 12

    symbols: list[int] = []
    runs: list[int] = []
    weight_q: list[int] = []  # quotients finished by the last round, awaiting their remainders
    run_q: list[int] = []
    weights_read = runs_read = 0  # quotients read so far
    weight_carry = run_carry = 0
    pending = True
    while pending:
        ahead = weights_read - runs_read if zero_runs else 0
        weight_on = (not zero_runs or ahead < 8) and weights_read < count
        run_on = zero_runs and ahead >= 0 and runs_read < run_count
        first_bits = bits.take(12) if weight_on and not raw else 0
        new_run_q: list[int] = []
        if run_on:
            new_run_q, run_carry = _unary_quotients(bits.take(run_positions), run_positions, run_carry, None, False)
            runs_read += len(new_run_q)
        new_weight_q: list[int] = []
        if weight_on:
            new_weight_q, weight_carry = _unary_quotients(first_bits, weight_positions, weight_carry, bits, truncated)
            weights_read += len(new_weight_q)
        if weight_q:
            weight_q = weight_q[:count - len(symbols)]
            symbols += [(q << weight_div) + r for q, r in zip(weight_q, bits.split(len(weight_q), weight_div))]
        if run_q:
            run_q = run_q[:run_count - len(runs)]
            runs += [(q << zero_div) + r for q, r in zip(run_q, bits.split(len(run_q), zero_div))]
        pending = weight_on or run_on or bool(weight_q) or bool(run_q)
        weight_q, run_q = new_weight_q, new_run_q
        if not (weight_on or run_on):
            pending = False
    if len(symbols) < count or (zero_runs and len(runs) < run_count):
        raise WeightStreamError(f"the slice at bit {start} holds {count} weight(s) but its chunks end after "
                                f"{len(symbols)}")
    values = coding.values(np.asarray(symbols, dtype=np.int64))
    if not zero_runs:
        return values
    lead = runs[0] if new_palette else 0
    after = np.asarray(runs[1:] if new_palette else runs, dtype=np.int64)[:len(symbols)]
    out = np.zeros(lead + len(symbols) + int(after.sum()), dtype=np.int64)
    # each weight follows the previous weights and the zero runs after them
    out[lead + np.arange(len(symbols)) + np.concatenate(([0], np.cumsum(after)[:-1]))] = values
    return out


__all__ = ["WeightStreamError", "decode_weights"]
