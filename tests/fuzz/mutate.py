"""Mutations of IR text and TFLite flatbuffers, each driven by a seeded ``random.Random``.

Text mutations aim at the classes of bugs a parser and verifier meet: broken punctuation, spliced
fragments, huge or odd numbers, deep nesting, escapes and unicode, repeated spans (slow paths).
Flatbuffer mutations flip bytes, truncate, and overwrite aligned words (offsets, lengths, shape
entries, option values) with boundary values, including NaN and infinity bit patterns.
"""
from __future__ import annotations

import random
import re
import struct
from typing import Callable

from tests.fuzz.seeds import Seeds

_PUNCT = list('{}()<>[]"\\%@#!^:,=-+*/.?x \n\t0123456789')
_UNICODE = ["\u00e9", "\u2028", "\u00a0", "\ufeff", "\U0001f600", "\x00", "\x7f", "\u0301", "\ud800"]
_NUMBERS = ["0", "-1", "1", "2147483647", "2147483648", "-2147483649", "9223372036854775807",
            "9223372036854775808", "18446744073709551616", "-0.0", "nan", "inf", "-inf", "1e999",
            "0x7FC00000", "0.0", "1.5e-45", "4294967296", "65536", "127", "-128", "255", "256"]
_BIG_LENGTHS = [19, 20, 40, 4299, 4300, 4301, 5000, 20000]
_DIGITS = re.compile(r"[0-9]+")
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_DICT_ENTRY = re.compile(r"[A-Za-z_][\w.$]* = ")


def _pick(pattern: re.Pattern[str], rng: random.Random, text: str) -> re.Match[str] | None:
    """A match of ``pattern``: the first one after a random position (or the first of all).

    Finding all matches of a 70 KB printed model for every case cost more than running it."""
    return pattern.search(text, rng.randrange(len(text) + 1)) or pattern.search(text)


def _span(rng: random.Random, text: str, longest: int = 64) -> tuple[int, int]:
    start = rng.randrange(len(text) + 1)
    return start, min(len(text), start + rng.randint(1, longest))


def _flip(rng: random.Random, text: str, seeds: Seeds) -> str:
    at = rng.randrange(len(text) + 1)
    return text[:at] + rng.choice(_PUNCT) + text[at + 1:]


def _delete(rng: random.Random, text: str, seeds: Seeds) -> str:
    start, end = _span(rng, text)
    return text[:start] + text[end:]


def _duplicate(rng: random.Random, text: str, seeds: Seeds) -> str:
    start, end = _span(rng, text)
    return text[:end] + text[start:end] * rng.choice([1, 1, 2, 8]) + text[end:]


def _repeat_span(rng: random.Random, text: str, seeds: Seeds) -> str:
    """Repeat a short span into ~10-20 KB: quadratic code paths show up as hangs."""
    start, end = _span(rng, text, 12)
    piece = text[start:end] or ","
    return text[:end] + piece * (rng.randint(10_000, 20_000) // len(piece)) + text[end:]


def _insert_token(rng: random.Random, text: str, seeds: Seeds) -> str:
    at = rng.randrange(len(text) + 1)
    return text[:at] + rng.choice(seeds.tokens) + text[at:]


def _splice(rng: random.Random, text: str, seeds: Seeds) -> str:
    other = rng.choice(seeds.texts)
    if rng.random() < 0.5:  # at line boundaries, so whole ops move between functions
        a, b = text.split("\n"), other.split("\n")
        return "\n".join(a[:rng.randint(0, len(a))] + b[rng.randint(0, len(b)):])
    return text[:rng.randint(0, len(text))] + other[rng.randint(0, len(other)):]


def _number(rng: random.Random, text: str, seeds: Seeds) -> str:
    m = _pick(_DIGITS, rng, text)
    if m is None:
        return _insert_token(rng, text, seeds)
    if rng.random() < 0.5:
        value = rng.choice(_NUMBERS)
    else:
        value = "9" * rng.choice(_BIG_LENGTHS)
    return text[:m.start()] + value + text[m.end():]


def _nest(rng: random.Random, text: str, seeds: Seeds) -> str:
    at = rng.randrange(len(text) + 1)
    depth = rng.choice([50, 129, 300, 2000])
    open_, close = rng.choice([("(", ")"), ("[", "]"), ("<", ">"), ("{", "}"), ("loc(fused[", "])")])
    body = open_ * depth + (close * depth if rng.random() < 0.7 else "")
    return text[:at] + body + text[at:]


def _string(rng: random.Random, text: str, seeds: Seeds) -> str:
    """Put escapes, backslash runs, quotes or unicode inside a string literal."""
    m = _pick(_STRING, rng, text)
    extra = rng.choice(["\\" * rng.choice([1, 2, 3, 64, 65, 5000]), '\\"', "\\22", "\\0A", "\\FF", "\\x",
                        "\\n", "\\t", "\\", rng.choice(_UNICODE)])
    if m is None:
        return text + f'"{extra}"'
    inner = rng.randint(m.start() + 1, m.end() - 1)
    return text[:inner] + extra + text[inner:]


def _unicode(rng: random.Random, text: str, seeds: Seeds) -> str:
    at = rng.randrange(len(text) + 1)
    return text[:at] + rng.choice(_UNICODE) + text[at:]


def _drop_entry(rng: random.Random, text: str, seeds: Seeds) -> str:
    """Remove one ``key = value`` entry of an attribute dictionary (a required attribute goes)."""
    m = _pick(_DICT_ENTRY, rng, text)
    if m is None:
        return _delete(rng, text, seeds)
    end = m.end()
    depth = 0
    while end < len(text):
        ch = text[end]
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            if depth == 0:
                break
            depth -= 1
        elif ch == "," and depth == 0:
            end += 1
            break
        end += 1
    return text[:m.start()] + text[end:]


_TENSOR_DIMS = re.compile(r"tensor<((?:[0-9?]+x)*)")
_FLOAT = re.compile(r"-?[0-9]+\.[0-9]+(?:e[-+]?[0-9]+)?")
_SPECIAL_FLOATS = ["0x7FC00000", "0x7F800000", "0xFF800000", "1.0e+39", "-0.0", "0.0", "1.0e-45", "nan", "inf"]


def _shape(rng: random.Random, text: str, seeds: Seeds) -> str:
    """Change the rank or a dimension of one tensor type (rank 0, zero, dynamic, extra dims)."""
    m = _pick(_TENSOR_DIMS, rng, text)
    if m is None:
        return _number(rng, text, seeds)
    dims = m.group(1).split("x")[:-1]
    kind = rng.random()
    if kind < 0.3:
        dims = []
    elif kind < 0.5 and dims:
        del dims[rng.randrange(len(dims))]
    elif kind < 0.7:
        dims.insert(rng.randint(0, len(dims)), rng.choice(["1", "2", "?", "0", "7"]))
    elif dims:
        dims[rng.randrange(len(dims))] = rng.choice(["0", "?", "1", "65536", "2147483648"])
    new = "".join(d + "x" for d in dims)
    return text[:m.start(1)] + new + text[m.end(1):]


def _special_float(rng: random.Random, text: str, seeds: Seeds) -> str:
    """Replace a float literal by NaN, an infinity (as MLIR's hex form) or a boundary value."""
    m = _pick(_FLOAT, rng, text)
    if m is None:
        return _number(rng, text, seeds)
    return text[:m.start()] + rng.choice(_SPECIAL_FLOATS) + text[m.end():]


TEXT_MUTATIONS: list[Callable[[random.Random, str, Seeds], str]] = [
    _flip, _flip, _delete, _duplicate, _insert_token, _insert_token, _splice, _number, _number,
    _nest, _string, _unicode, _drop_entry, _drop_entry, _repeat_span, _shape, _shape, _special_float,
]


def mutate_text(rng: random.Random, seeds: Seeds) -> bytes:
    """A seed text with one to four mutations; sometimes made invalid UTF-8 on purpose."""
    text = rng.choice(seeds.texts)
    for _ in range(rng.choice([1, 1, 1, 2, 2, 3, 4])):
        mutation = rng.choice(TEXT_MUTATIONS)
        if mutation is _repeat_span and rng.random() < 0.8:
            mutation = _flip  # the big inputs are slow to run; keep them a small share
        text = mutation(rng, text, seeds)
    data = text.encode("utf-8", "surrogatepass")
    if rng.random() < 0.02:
        at = rng.randrange(len(data) + 1)
        data = data[:at] + bytes([rng.choice([0x80, 0xC3, 0xFF, 0xED])]) + data[at:]
    return data


_WORDS = [0, 1, 0xFFFFFFFF, 0x7FFFFFFF, 0x80000000, 2, 3, 4, 8, 16, 255, 65535, 0x10000]
_FLOATS = [float("nan"), float("inf"), float("-inf"), 0.0, -0.0, 1e30, -1.0, 1.4e-45]


def mutate_model(rng: random.Random, seeds: Seeds) -> bytes:
    """A seed model with one to four byte-level mutations."""
    data = bytearray(rng.choice(seeds.models))
    for _ in range(rng.choice([1, 1, 2, 3, 4])):
        kind = rng.random() if len(data) >= 8 else 0.95  # too short for words: only truncate
        if kind < 0.25:
            at = rng.randrange(len(data))
            data[at] = rng.randrange(256)
        elif kind < 0.6:
            at = rng.randrange(0, max(1, len(data) - 4)) & ~3
            data[at:at + 4] = struct.pack("<I", rng.choice(_WORDS))
        elif kind < 0.8:
            at = rng.randrange(0, max(1, len(data) - 4)) & ~3
            data[at:at + 4] = struct.pack("<f", rng.choice(_FLOATS))
        elif kind < 0.9:
            at = rng.randrange(0, max(1, len(data) - 4)) & ~3
            word = struct.unpack_from("<i", data, at)[0]
            data[at:at + 4] = struct.pack("<i", max(-2**31, min(2**31 - 1, word + rng.choice([-1, 1, -4, 4]))))
        else:
            data = data[:rng.randrange(len(data) + 1)]
        if not data:
            break
    return bytes(data)
