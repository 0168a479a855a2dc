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

    def value(self, symbol: int) -> int:
        """A symbol's weight: a palette slot, else a direct sign-magnitude code."""
        code = self.palette[symbol] if symbol < len(self.palette) else symbol - len(self.palette) + self.direct_offset
        return -(code >> 1) if code & 1 else code >> 1


def _unary_quotients(bits: int, positions: int, carry: int, second: _Bits | None,
                     truncated: bool) -> tuple[list[int], int]:
    """Quotients finished in one chunk of unary positions (a set bit continues the quotient).
    Weight chunks (``second`` given) read one more bit per set first bit: each position then adds
    0, 1 or 2, and a quotient ends at a position adding less than 2 (or at every position when
    truncated). Zero-run chunks add 1 per set bit and end a quotient at a clear one."""
    done: list[int] = []
    count = carry
    if second is None:
        for i in range(positions):
            if bits >> i & 1:
                count += 1
            else:
                done.append(count)
                count = 0
        return done, count
    ones = bin(bits & ((1 << positions) - 1)).count("1")
    extra = second.take(ones)
    for i in range(positions):
        step = 0
        if bits >> i & 1:
            step = 1 + (extra & 1)
            extra >>= 1
        count += step
        if step < 2 or truncated:
            done.append(count)
            count = 0
    return done, count


def decode_weights(data: bytes) -> np.ndarray:
    """The weights of a whole stream (sections and slices up to the end mark), as int16."""
    bits = _Bits(bytes(data))
    coding = _Coding()
    out: list[int] = []
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
        out.extend(_decode_slice(bits, coding, zero_div, not started))
        started = True
    return np.asarray(out, dtype=np.int16)


def _decode_slice(bits: _Bits, coding: _Coding, zero_div: int, first: bool) -> list[int]:
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
        for q in weight_q:
            if len(symbols) < count:
                symbols.append((q << weight_div) + bits.take(weight_div))
        for q in run_q:
            if len(runs) < run_count:
                runs.append((q << zero_div) + bits.take(zero_div))
        pending = weight_on or run_on or bool(weight_q) or bool(run_q)
        weight_q, run_q = new_weight_q, new_run_q
        if not (weight_on or run_on):
            pending = False
    if len(symbols) < count or (zero_runs and len(runs) < run_count):
        raise WeightStreamError(f"the slice at bit {start} holds {count} weight(s) but its chunks end after "
                                f"{len(symbols)}")
    out: list[int] = []
    run_index = 0
    if zero_runs and new_palette:
        out.extend([0] * runs[0])
        run_index = 1
    for symbol in symbols:
        out.append(coding.value(symbol))
        if zero_runs:
            out.extend([0] * runs[run_index])
            run_index += 1
    return out


__all__ = ["WeightStreamError", "decode_weights"]
