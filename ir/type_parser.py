"""Parsing the text of type tokens (``tensor<...>``, ``!quant.uniform<...>``, ``i8``, ``!d.t<...>``).

The lark grammar lexes a whole type as one token; this module turns the token's text into an
interned Type once and caches it by text, so each distinct type is parsed only once per process.
"""
from __future__ import annotations

import functools
import re
import struct
from typing import Callable

from npu_opt.ir.attributes import Attribute, OpaqueAttr
from npu_opt.ir.lexing import faster_classes
from npu_opt.ir.strings import INT64_MAX, bounded_int
from npu_opt.ir.types import (
    DYNAMIC, FLOAT_KINDS, MAX_QUANT_STORAGE_WIDTH, FloatType, IndexType, IntegerType, NoneType, OpaqueType,
    QuantUniformType, RankedTensorType, Type, UnrankedTensorType,
)


class TypeSyntaxError(ValueError):
    """A malformed type; ``offset`` is the character offset inside the token, when known."""

    def __init__(self, message: str, offset: int = 0) -> None:
        super().__init__(message)
        self.offset = offset


class AttributeSyntaxError(TypeSyntaxError):
    """A dialect attribute parser rejecting the body it was given: reported as a syntax error.

    Any other exception from such a parser is a bug, and reaches the crash reproducer."""


_INT_TYPE = re.compile(r"(si|ui|i)([1-9][0-9]*)\Z")
_DIMS = re.compile(r"(?:(?:[0-9]+|\?)x)*")
_QUANT = re.compile(
    r"\s*([iu])([1-9][0-9]*)(?:<\s*([-+]?[0-9]+)\s*:\s*([-+]?[0-9]+)\s*>)?\s*:\s*(f16|bf16|f32|f64)"
    r"(?:\s*:\s*([0-9]+))?\s*,(.*)\Z", re.S)
# Every repetition below is decided by the next character, so no input makes these backtrack
# (an ambiguous ``[0-9]*\.?[0-9]+`` took seconds on a few thousand digits).
_SCALE = r"[-+]?(?:[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?|\.[0-9]+(?:[eE][-+]?[0-9]+)?|inf|nan)"
_PARAM = re.compile(rf"({_SCALE})(?:\s*:\s*([-+]?[0-9]+))?\Z")
_WS = " \t\r\n"
"""MLIR's whitespace: ``\\s`` and ``str.strip()`` also take control characters such as 0x1D, which
``float()`` refuses."""
_SCALES_ONLY = re.compile(rf"[{_WS}]*+{_SCALE}[{_WS}]*+(?:,[{_WS}]*+{_SCALE}[{_WS}]*+)*+\Z")
"""Per-axis parameters without zero points (what TFLite importers print): checked in one match."""
_QUANT_ELEMENT = re.compile(r'!quant\.uniform<[^<>"]*+(?:<[^<>"]*+>[^<>"]*+)?>')
"""A ``!quant.uniform<...>`` element with no encoding after it (no string, so no comma can be
outside its brackets): the commonest imported element type, which then needs no split_top_level."""
_QUANT_TENSOR_HEAD = r'tensor<((?:[0-9]{1,18}x)++)!quant\.uniform<([^<>",]*+(?:<[^<>",]*+>[^<>",]*+)?),'
"""``tensor<dims x !quant.uniform<head,`` with no '?' dimension: the head is the text before the
first ',' exactly as _quant's partition finds it (see _quant_tensor)."""
@functools.cache
def _quant_tensor_patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The two one-match decoders of an imported tensor type, compiled on first use (7 ms, which
    a run importing a .tflite file and never parsing text does not pay):

    * a tensor of a per-axis ``!quant.uniform`` with scales only (what importers print) and no
      encoding, the parameters checked in the same match (what ``_SCALES_ONLY`` checks);
    * a tensor of a per-tensor ``!quant.uniform`` (``scale[:zero_point]``, what ``_PARAM`` takes)."""
    from npu_opt.ir.regex_cache import compile_shared  # (with the pattern cache it belongs to)

    per_axis = compile_shared(faster_classes(
        rf"{_QUANT_TENSOR_HEAD}\s*+\{{([{_WS}]*+{_SCALE}[{_WS}]*+(?:,[{_WS}]*+{_SCALE}[{_WS}]*+)*+)\}}\s*+>>\Z"))
    per_tensor = compile_shared(faster_classes(
        rf"{_QUANT_TENSOR_HEAD}\s*+({_SCALE})(?:\s*:\s*([-+]?[0-9]+))?\s*+>>\Z"))
    return per_axis, per_tensor

_DIALECT_HEAD = re.compile(r"([#!])([A-Za-z_][A-Za-z0-9_$]*)(?:\.([A-Za-z0-9_$.]*))?")


_INF = float("inf")
MAX_INT_WIDTH = 1 << 24
"""The widest integer type (as MLIR's limit, 2^24 - 1 bits, give or take one)."""


def _bounded(text: str, limit: int, what: str, offset: int = 0, low: int | None = None) -> int:
    """A numeral of a type, refused with a TypeSyntaxError naming it and ``limit`` (or ``low``)
    when out of range."""
    if len(text) < 8 and text.isascii() and text.isdigit() and int(text) <= limit:
        return int(text)  # the common short numeral (a width, an axis), without bounded_int's checks
    try:
        return bounded_int(text, limit, what, low)
    except ValueError as err:
        raise TypeSyntaxError(str(err), offset) from None


@functools.lru_cache(maxsize=None)
def _specials(sep: str) -> re.Pattern[str]:
    """The characters split_top_level looks at (a whole string literal, ``->`` and an unterminated
    ``"`` count as one), so the scan skips everything else in C rather than a Python loop."""
    return re.compile(r'"(?:[^"\\]|\\.)*+"|"|->|[<(\[{>)\]}]|' + re.escape(sep), re.S)


def split_top_level(text: str, sep: str = ",") -> list[str]:
    """Split on ``sep`` outside brackets and strings (the ``>`` of ``->`` closes nothing)."""
    if sep not in text:
        return [text]
    parts: list[str] = []
    depth = 0
    start = 0
    for m in _specials(sep).finditer(text):
        token = m.group()
        if token == sep:
            if depth == 0:
                parts.append(text[start:m.start()])
                start = m.end()
        elif token in "<([{":
            depth += 1
        elif token in ">)]}":
            depth -= 1
        elif token == '"':
            break  # an unterminated string runs to the end
    parts.append(text[start:])
    return parts


def builtin_scalar(text: str) -> Type | None:
    """``i32``, ``si8``, ``ui8``, ``f32``, ``bf16``, ``index``, ``none``; None if not one of them."""
    m = _INT_TYPE.match(text)
    if m:
        sign = {"i": "signless", "si": "signed", "ui": "unsigned"}[m.group(1)]
        return IntegerType(_bounded(m.group(2), MAX_INT_WIDTH, "integer width"), sign)
    if text in FLOAT_KINDS:
        return FloatType(text)
    if text == "index":
        return IndexType()
    if text == "none":
        return NoneType()
    return None


def dialect_parts(text: str) -> tuple[str, str, str | None]:
    """Split ``#dialect.name<body>`` / ``!dialect.name<body>`` into (dialect, name, body)."""
    m = _DIALECT_HEAD.match(text)
    if not m:
        raise TypeSyntaxError(f"expected a dialect name in '{text[:40]}'")
    rest = text[m.end():]
    body: str | None = None
    if rest:
        if not (rest.startswith("<") and rest.endswith(">")):
            raise TypeSyntaxError(f"expected '<' after '{text[:m.end()]}'", m.end())
        body = rest[1:-1]
    return m.group(2), m.group(3) or "", body


class TypeParser:
    """Turns type-token text into Types, caching by text.

    ``attribute_parser`` parses an encoding attribute's text; ``dialect_attr`` turns a
    ``#dialect.name<body>`` into an Attribute (a dialect's own, or an OpaqueAttr).
    """

    def __init__(self, attribute_parser: Callable[[str], Attribute],
                 dialect_attr: Callable[[str, str, str | None], Attribute]) -> None:
        self._cache: dict[str, Type] = {}
        self._quant_heads: dict[str, tuple[IntegerType, FloatType, int | None, int | None, int | None]] = {}
        """``!quant.uniform`` storage, expressed type, axis and range by the text before the first
        ``,`` (``i8<-127:127>:f32:0``): shared by every layer, so decoded once."""
        self._quant_facts: dict[str, tuple] = {}  # per head, for _quant_tensor (see _head_facts)
        self._shapes: dict[str, tuple[int, ...]] = {}  # '8x3x3x8x' -> (8, 3, 3, 8), for _quant_tensor
        self._attribute_parser = attribute_parser
        self._dialect_attr = dialect_attr

    def parse(self, text: str) -> Type:
        found = self._cache.get(text)
        if found is None:
            found = self._parse(text)
            self._cache[text] = found
        return found

    def _parse(self, text: str) -> Type:
        scalar = builtin_scalar(text)
        if scalar is not None:
            return scalar
        if text.startswith("tensor<"):
            return self._tensor(text)
        if text.startswith("!quant.uniform"):
            return self._quant(text)
        if text.startswith("!"):
            dialect, name, body = dialect_parts(text)
            return OpaqueType(dialect, name, body)
        raise TypeSyntaxError(f"unknown type '{text[:40]}'")

    def _tensor(self, text: str) -> Type:
        quick = self._quant_tensor(text)
        if quick is not None:
            return quick
        body = text[len("tensor<"):-1]
        if body.startswith("*"):
            if not body.startswith("*x"):
                raise TypeSyntaxError("expected 'x' after '*' in unranked tensor type", 8)
            return UnrankedTensorType(self._element(body[2:].strip(), 9))
        dims_text = _DIMS.match(body).group(0)  # type: ignore[union-attr]
        shape = [DYNAMIC if d == "?" else int(d) if len(d) < 19 else _bounded(d, INT64_MAX, "tensor dimension", 7)
                 for d in dims_text.split("x")[:-1]]  # (under 19 digits is always within int64)
        rest = body[len(dims_text):]
        if _QUANT_ELEMENT.fullmatch(rest):  # a quantised element and no encoding: straight to _quant
            element = self._cache.get(rest)
            if element is None:
                try:
                    element = self._cache[rest] = self._quant(rest)
                except TypeSyntaxError as err:
                    raise TypeSyntaxError(str(err), 7 + len(dims_text) + err.offset) from None
            return RankedTensorType.from_parsed(tuple(shape), element, None)
        parts = split_top_level(rest)
        if len(parts) > 2:
            raise TypeSyntaxError("expected '>' after the tensor encoding", len(text) - 1)
        element = self._element(parts[0].strip(), 7 + len(dims_text))
        encoding = None
        if len(parts) == 2:
            enc_text = parts[1].strip()
            enc_offset = 7 + len(dims_text) + len(parts[0]) + 1 + (len(parts[1]) - len(parts[1].lstrip()))
            if not enc_text:
                raise TypeSyntaxError("expected a tensor encoding attribute after ','", enc_offset)
            try:
                if enc_text.startswith("#"):
                    encoding = self._dialect_attr(*dialect_parts(enc_text))
                else:
                    encoding = self._attribute_parser(enc_text)
            except AttributeSyntaxError as err:  # (its offset is into the body, after '<')
                body = enc_text.find("<") + 1 + err.offset if err.offset else 0
                raise TypeSyntaxError(str(err), enc_offset + body) from None
            except TypeSyntaxError as err:
                raise TypeSyntaxError(str(err), enc_offset + err.offset) from None
        return RankedTensorType.from_parsed(tuple(shape), element, encoding)  # (every dimension is valid)

    def quant_tensor(self, text: str) -> Type | None:
        """``parse(text)`` when it is a tensor of ``!quant.uniform`` that _quant_tensor decodes
        (so a type naming no dialect to check); None otherwise, without raising."""
        return self._quant_tensor(text)  # (not kept in _cache: each spelling is decoded once per parse)

    def _quant_tensor(self, text: str) -> Type | None:
        """An imported constant's or activation's type, ``tensor<8x3x3x8x!quant.uniform<HEAD,
        params>>`` with a head decoded before, checked in one match and built without the
        element's own cache entry: what _tensor and _quant build for it, or None for anything
        else or anything doubtful (they then decode it, and report any error)."""
        per_axis, per_tensor = _quant_tensor_patterns()
        m = per_axis.match(text) if "{" in text else None  # (only per-axis parameters hold '{')
        if m is not None:
            dims, head, params = m.groups()
            facts = self._quant_facts.get(head) or self._head_facts(head)
            if facts is None or facts[2] is None:
                return None  # (a per-tensor head takes no '{...}': _quant reports it)
            scales = tuple(map(float, params.split(",")))
            if not (sum(scales) < _INF and min(scales) > 0 and facts[3] <= 0 <= facts[4]):
                return None  # (a NaN makes the sum one)
            zero_points: tuple[int, ...] = _zeros(len(scales))
        else:
            m = per_tensor.match(text)
            if m is None:
                return None
            dims, head, scale, zp = m.groups()
            facts = self._quant_facts.get(head) or self._head_facts(head)
            if facts is None or facts[2] is not None or (zp is not None and len(zp) >= 19):
                return None
            scales = (float(scale),)
            zero_points = (0 if zp is None else int(zp),)
            if not (0 < scales[0] < _INF and facts[3] <= zero_points[0] <= facts[4]):
                return None
        storage, expressed_type, axis, lo, hi, key_lo, key_hi = facts
        # the key and fields QuantUniformType.from_parsed builds for these checked parameters
        key = (storage, expressed_type, _packer(len(scales))(*scales), zero_points, axis, key_lo, key_hi)
        element = QuantUniformType._intern_fields(key, {
            "storage_type": storage, "expressed_type": expressed_type, "scales": scales,
            "zero_points": zero_points, "axis": axis, "storage_min": lo, "storage_max": hi})
        shape = self._shapes.get(dims)
        if shape is None:
            shape = self._shapes[dims] = tuple(map(int, dims[:-1].split("x")))
        return RankedTensorType.from_parsed(shape, element, None)

    def _head_facts(self, head: str) -> tuple | None:
        """What _quant_tensor needs of a decoded ``!quant.uniform`` head: its parts, the storage
        range with the defaults filled in, and that range as the interning key spells it; None
        when the head was not decoded yet or QuantUniformType would refuse it."""
        known = self._quant_heads.get(head)
        if known is None:
            return None
        storage, expressed_type, axis, lo, hi = known
        full_min, full_max = storage.value_range()
        low = full_min if lo is None else lo
        high = full_max if hi is None else hi
        if storage.width > MAX_QUANT_STORAGE_WIDTH or not full_min <= low <= high <= full_max:
            return None
        facts = (storage, expressed_type, axis, low, high, None if low == full_min else low,
                 None if high == full_max else high)
        self._quant_facts[head] = facts
        return facts

    def _element(self, text: str, offset: int) -> Type:
        if not text:
            raise TypeSyntaxError("expected an element type", offset)
        if text.startswith("tensor<"):
            raise TypeSyntaxError("invalid tensor element type", offset)
        try:
            return self.parse(text)
        except TypeSyntaxError as err:
            raise TypeSyntaxError(str(err), offset + err.offset) from None

    def _quant(self, text: str) -> QuantUniformType:
        if not (text.startswith("!quant.uniform<") and text.endswith(">")):
            raise TypeSyntaxError("expected '<' after '!quant.uniform'", 14)
        body = text[len("!quant.uniform<"):-1]
        head, _, params = body.partition(",")
        known = self._quant_heads.get(head)
        if known is None:
            m = _QUANT.match(body)
            if not m:
                raise TypeSyntaxError(
                    "expected !quant.uniform<storage[<min:max>]:expressed[:axis], scale[:zero_point]>", 15)
            kind, width, lo_text, hi_text, expressed, axis_text, params = m.groups()
            storage = IntegerType(_bounded(width, MAX_INT_WIDTH, "integer width", 15),
                                  "unsigned" if kind == "u" else "signless")
            known = (storage, FloatType(expressed),
                     None if axis_text is None else _bounded(axis_text, INT64_MAX, "quantisation axis", 15),
                     None if lo_text is None else _bounded(lo_text, INT64_MAX, "storage minimum", 15, -INT64_MAX - 1),
                     None if hi_text is None else _bounded(hi_text, INT64_MAX, "storage maximum", 15, -INT64_MAX - 1))
            self._quant_heads[head] = known  # (the head holds no ',': _QUANT's groups all lie in it)
        storage, expressed_type, axis, lo, hi = known
        params = params.strip()
        if axis is None:
            pairs = [params]
        else:
            if not (params.startswith("{") and params.endswith("}")):
                raise TypeSyntaxError("expected '{' for per-axis quantisation parameters", 15)
            pairs = params[1:-1].split(",")
        scales: list[float] = []
        zero_points: list[int] = []
        if axis is not None and _SCALES_ONLY.match(params, 1, len(params) - 1):
            scales = [float(pair.strip(_WS)) for pair in pairs]
            zero_points = [0] * len(scales)
            pairs = []
        for pair in pairs:
            pm = _PARAM.match(pair.strip(_WS))
            if not pm:
                raise TypeSyntaxError(f"expected a scale[:zero_point], found {pair.strip(_WS)[:40]!r}", 15)
            scales.append(float(pm.group(1)))
            zp = pm.group(2)  # a signed numeral of under 19 characters is always within int64
            zero_points.append(0 if zp is None else int(zp) if len(zp) < 19
                               else _bounded(zp, INT64_MAX, "zero point", 15, -INT64_MAX - 1))
        try:
            return QuantUniformType.from_parsed(storage, expressed_type, scales, zero_points, axis, lo, hi)
        except ValueError as err:
            raise TypeSyntaxError(str(err), 15) from None


@functools.lru_cache(maxsize=64)
def _packer(count: int) -> Callable[..., bytes]:
    """``struct.pack`` of ``count`` little-endian doubles (the scales' part of an interning key)."""
    return struct.Struct(f"<{count}d").pack


@functools.lru_cache(maxsize=64)
def _zeros(count: int) -> tuple[int, ...]:
    """``count`` zero points of 0 (per-axis types printed without them), one tuple per count."""
    return (0,) * count


def opaque_dialect_attr(dialect: str, name: str, body: str | None) -> Attribute:
    """Fallback for dialect attributes nobody registered a parser for."""
    return OpaqueAttr(dialect, name, body)
