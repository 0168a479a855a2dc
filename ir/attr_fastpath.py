"""A fast path for the attribute dictionaries of generic ops.

Most dictionaries in real graphs hold only scalars, strings and small integer arrays
(``stride_h = 2 : i32``, ``padding = "SAME"``, ``tile = "op17"``). Decoding those with regexes
is several times faster than running them through the lark grammar, which matters when no two
dictionaries in a file are spelled alike. Anything else returns None and takes the grammar path.
"""
from __future__ import annotations

import math
import re

from npu_opt.ir.attributes import FALSE, TRUE, UNIT, ArrayAttr, Attribute, FloatAttr, IntegerAttr, StringAttr
from npu_opt.ir.type_parser import builtin_scalar
from npu_opt.ir.types import FloatType, I64, IndexType, IntegerType

_ENTRY = re.compile(
    r'\s*([A-Za-z_][A-Za-z0-9_$.]*)\s*(?:=\s*("[^"\\\n]*"|\[[^\[\]"{}<>()]*\]|[^,"\[\]{}<>()]+?))?\s*(,|\Z)')
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


def simple_dictionary(body: str) -> dict[str, Attribute] | None:
    """Decode the inside of ``{...}`` when every entry is simple; None otherwise (or on duplicates)."""
    result: dict[str, Attribute] = {}
    pos = 0
    end = len(body)
    if not body.strip():
        return result
    while pos < end:
        m = _ENTRY.match(body, pos)
        if m is None:
            return None
        key, value, sep = m.groups()
        if key in result:
            return None
        if value is None:
            attr: Attribute | None = UNIT
        else:
            attr = _value(value.strip())
            if attr is None:
                return None
        result[key] = attr
        pos = m.end()
        if not sep:
            break
    return result if pos >= end else None
