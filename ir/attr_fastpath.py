"""A fast path for the attribute dictionaries of generic ops.

Most dictionaries in real graphs hold only scalars, strings and small integer arrays
(``stride_h = 2 : i32``, ``padding = "SAME"``, ``tile = "op17"``), and imported constants add a
type and a dense value (``qtype = tensor<...>, value = dense_resource<k> : tensor<...>``).
Decoding those with regexes is several times faster than running them through the lark grammar,
which matters when no two dictionaries in a file are spelled alike. Anything else returns None
and takes the grammar path, which also reports every error.
"""
from __future__ import annotations

import functools
import math
import re
from typing import Callable

from npu_opt.ir.attributes import FALSE, TRUE, UNIT, ArrayAttr, Attribute, FloatAttr, IntegerAttr, StringAttr
from npu_opt.ir.type_parser import builtin_scalar
from npu_opt.ir.types import FloatType, I64, IndexType, IntegerType

_ENTRY = re.compile(
    r'\s*([A-Za-z_][A-Za-z0-9_$.]*)\s*(?:=\s*("[^"\\\n]*"|\[[^\[\]"{}<>()]*\]|[^,"\[\]{}<>()]*[^,"\[\]{}<>()\s]))?\s*(,|\Z)')
# (a plain value ends at a non-space: a lazy ``+?`` before ``\s*`` was quadratic in a run of spaces)
_SCALAR = re.compile(r"\s*(true|false|[-+]?[0-9]+|[-+]?[0-9]+\.[0-9]*(?:[eE][-+]?[0-9]+)?)"
                     r"(?:\s*:\s*([a-z0-9]+))?\s*\Z")
_VALUES: dict[str, Attribute | None] = {}


def _scalar(text: str) -> Attribute | None:
    m = _SCALAR.match(text)
    if m is None:
        return None
    literal, type_text = m.groups()
    if literal in ("true", "false"):
        return None if type_text else (TRUE if literal == "true" else FALSE)
    try:
        type_ = I64 if type_text is None else builtin_scalar(type_text)  # may refuse a huge width
        if "." in literal:
            if type_text is None:
                return None  # f64 default: leave to the grammar for exact error handling
            value = float(literal)
            if not isinstance(type_, FloatType) or not math.isfinite(value):
                return None  # out of range: the grammar path reports it
            return FloatAttr(value, type_)
        if isinstance(type_, (IntegerType, IndexType)):
            return IntegerAttr(int(literal), type_)
    except (ValueError, OverflowError):
        return None
    return None


def _value(text: str) -> Attribute | None:
    found = _VALUES.get(text, False)
    if found is not False:
        return found  # type: ignore[return-value]
    if text.startswith('"'):
        attr: Attribute | None = StringAttr(text[1:-1])
    elif text.startswith("["):
        inner = text[1:-1].strip()
        items = [_scalar(part) for part in inner.split(",")] if inner else []
        attr = None if any(item is None for item in items) else ArrayAttr(items)  # type: ignore[arg-type]
    else:
        attr = _scalar(text)
    if len(_VALUES) < 65536:
        _VALUES[text] = attr
    return attr


TypedValue = Callable[[str, str, str], "Attribute | None"]
"""Decodes a value that needs its type: (kind, literal, type text) -> the attribute, or None to
leave the dictionary to the grammar. ``kind`` is "type" (literal ''), "dense" or "dense_resource"
(literal: the ``dense<...>`` / ``dense_resource<...>`` text)."""


@functools.lru_cache(maxsize=1)
def _typed_entry() -> re.Pattern[str]:
    """``_ENTRY`` plus types and dense values (compiled on first use: the pattern is ~10 kB; the
    parser compiles it through its pattern cache instead and passes it to simple_dictionary)."""
    return re.compile(typed_entry_pattern())


def typed_entry_pattern() -> str:
    """The text of the ``_typed_entry`` pattern."""
    from npu_opt.ir.lexing import angle_brackets
    head = r"[A-Za-z_!][A-Za-z0-9_$.]*+"
    type_ = rf"{head}(?:{angle_brackets()})?"
    return (
        r'\s*+([A-Za-z_][A-Za-z0-9_$.]*+)\s*+(?:=\s*+(?:'
        r'(?P<string>"[^"\\\n]*+")'
        r'|(?P<array>\[[^\[\]"{}<>()]*+\])'
        rf'|(?P<resource>dense_resource<[^<>]*+>)\s*+:\s*+(?P<resource_type>{type_})'
        rf'|(?P<dense>dense<[^<>]*+>)\s*+:\s*+(?P<dense_type>{type_})'
        rf'|(?P<type>{head}{angle_brackets()})'
        r'|(?P<plain>[^,"\[\]{}<>()]*[^,"\[\]{}<>()\s])'  # ends at a non-space: linear (a lazy +? was not)
        r'))?\s*+(,|\Z)')


_GROUPS = ("string", "plain", "array", "type", "resource", "resource_type", "dense", "dense_type")


def _typed_value(m: re.Match[str], typed: TypedValue) -> Attribute | None:
    """The value of one ``_typed_entry`` match (UNIT when it has none); its groups are fetched
    in one call (a dictionary of an imported constant has two entries, each once)."""
    string, plain, array, type_, resource, resource_type, dense, dense_type = m.group(*_GROUPS)
    if string is not None:
        return StringAttr(string[1:-1])
    if plain is not None:
        text = plain.strip()
        found = _value(text)
        if found is None and _BARE_TYPE.fullmatch(text):
            return typed("type", "", text)  # i32, index, f32, none, !d.t
        return found
    if array is not None:
        return _value(array.strip())
    if type_ is not None:
        return typed("type", "", type_)
    if resource is not None:
        return typed("dense_resource", resource, resource_type)
    if dense is not None:
        return typed("dense", dense, dense_type)
    return UNIT


_BARE_TYPE = re.compile(r"[A-Za-z_!][A-Za-z0-9_$.]*")


def simple_dictionary(body: str, typed: TypedValue | None = None,
                      entry: re.Pattern[str] | None = None) -> dict[str, Attribute] | None:
    """Decode the inside of ``{...}`` when every entry is simple (or, given ``typed``, a type or a
    dense value); None otherwise (or on duplicates). ``entry`` is the compiled
    ``typed_entry_pattern()`` when the caller has it."""
    result: dict[str, Attribute] = {}
    pos = 0
    end = len(body)
    if not body.strip():
        return result
    if typed is None:
        entry = _ENTRY
    elif entry is None:
        entry = _typed_entry()
    while pos < end:
        m = entry.match(body, pos)
        if m is None:
            return None
        key = m.group(1)
        if key in result:
            return None
        if typed is not None:
            attr = _typed_value(m, typed)
        elif m.group(2) is None:
            attr = UNIT
        else:
            attr = _value(m.group(2).strip())
        if attr is None:
            return None
        result[key] = attr
        pos = m.end()
        if not m.group(m.re.groups):
            break
    return result if pos >= end else None
