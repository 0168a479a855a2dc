"""The ``{-# dialect_resources: {...} #-}`` trailer that carries dense_resource blobs.

It is split off before the lark parse and read by this small scanner, so a 50 MB blob (100 MB of
hex) is located with str.find and decoded by bytes.fromhex, never run through the lexer.
"""
from __future__ import annotations

import re
import struct
from dataclasses import dataclass, field

from ir.attributes import ResourceBlob
from ir.strings import key_text, quote_string, unquote_string

_TRAILER_START = re.compile(r"^[ \t]*\{-#", re.M)
_TOKEN = re.compile(r'\s*(?:(\{|\}|:|,|#-\})|([A-Za-z_][A-Za-z0-9_$.\-]*)|(")|([-+]?[0-9]+)|(\S))')


class ResourceSyntaxError(ValueError):
    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.offset = offset


@dataclass
class Resources:
    """Blobs by dialect and key, plus external (non-dialect) resource entries kept as text."""

    blobs: dict[str, dict[str, ResourceBlob]] = field(default_factory=dict)
    external: dict[str, dict[str, str]] = field(default_factory=dict)


def split_trailer(text: str) -> tuple[str, str | None, int]:
    """Return (IR text, trailer text or None, offset of the trailer in ``text``)."""
    m = _TRAILER_START.search(text)
    if m is None:
        return text, None, len(text)
    return text[:m.start()], text[m.start():], m.start()


def _read_string(text: str, pos: int) -> tuple[str, int]:
    """``pos`` is just after an opening quote; return the raw literal and the position after it."""
    end = pos
    while True:
        end = text.find('"', end)
        if end == -1 or text.find("\n", pos, end) != -1:
            raise ResourceSyntaxError("unterminated string in resource trailer", pos - 1)
        backslashes = 0
        while text[end - 1 - backslashes] == "\\":
            backslashes += 1
        if backslashes % 2 == 0:
            return text[pos - 1:end + 1], end + 1
        end += 1


def decode_blob(literal: str, offset: int) -> ResourceBlob:
    """``"0xAAAAAAAADATA..."``: a little-endian u32 alignment followed by the data, in hex."""
    body = literal[1:-1]
    if not body.startswith("0x"):
        raise ResourceSyntaxError("expected a hex string (\"0x...\") for a resource blob", offset)
    try:
        raw = bytes.fromhex(body[2:])
    except ValueError:
        raise ResourceSyntaxError("malformed hex string in resource blob", offset) from None
    if len(raw) * 2 != len(body) - 2:  # bytes.fromhex skips whitespace; MLIR does not
        raise ResourceSyntaxError("malformed hex string in resource blob", offset)
    if len(raw) < 4:
        raise ResourceSyntaxError("resource blob is missing its 4-byte alignment prefix", offset)
    alignment = struct.unpack_from("<I", raw)[0]
    if alignment == 0 or alignment & (alignment - 1):
        raise ResourceSyntaxError(f"resource blob alignment {alignment} is not a power of two", offset)
    return ResourceBlob(memoryview(raw)[4:], alignment)


class _Scanner:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def next(self) -> tuple[str, str, int]:
        m = _TOKEN.match(self.text, self.pos)
        if m is None:
            return "eof", "", len(self.text)
        start = m.start(m.lastindex or 0)
        self.pos = m.end()
        punct, ident, quote, number, other = m.groups()
        if punct is not None:
            return "punct", punct, start
        if ident is not None:
            return "id", ident, start
        if number is not None:
            return "int", number, start
        if quote is not None:
            literal, self.pos = _read_string(self.text, self.pos)
            return "string", literal, start
        raise ResourceSyntaxError(f"unexpected character '{other}' in resource trailer", start)

    def expect(self, value: str) -> int:
        kind, text, start = self.next()
        if text != value or kind != "punct":
            raise ResourceSyntaxError(f"expected '{value}' in resource trailer, found '{text[:20]}'", start)
        return start


def parse_trailer(text: str) -> Resources:
    """Parse a ``{-# ... #-}`` trailer. Offsets in errors are relative to ``text``."""
    scanner = _Scanner(text)
    start = text.index("{-#")
    scanner.pos = start + 3
    resources = Resources()
    while True:
        kind, section, at = scanner.next()
        if kind == "punct" and section == "#-}":
            break
        if kind != "id" or section not in ("dialect_resources", "external_resources"):
            raise ResourceSyntaxError(
                "expected 'dialect_resources' or 'external_resources' in resource trailer", at)
        scanner.expect(":")
        scanner.expect("{")
        _parse_groups(scanner, resources, section == "dialect_resources")
        kind, sep, at = scanner.next()
        if sep == "#-}":
            break
        if sep != ",":
            raise ResourceSyntaxError("expected ',' or '#-}' in resource trailer", at)
    rest = text[scanner.pos:].strip()
    if rest:
        raise ResourceSyntaxError("unexpected text after the resource trailer", len(text) - len(rest))
    return resources


def _parse_groups(scanner: _Scanner, resources: Resources, dialect: bool) -> None:
    while True:
        kind, owner, at = scanner.next()
        if kind == "punct" and owner == "}":
            return
        if kind != "id":
            raise ResourceSyntaxError("expected a dialect name in resource trailer", at)
        scanner.expect(":")
        scanner.expect("{")
        while True:
            kind, key, at = scanner.next()
            if kind == "punct" and key == "}":
                break
            if kind == "string":
                key = unquote_string(key)
            elif kind != "id":
                raise ResourceSyntaxError("expected a resource key", at)
            scanner.expect(":")
            kind, value, at = scanner.next()
            if dialect:
                if kind != "string":
                    raise ResourceSyntaxError("expected a hex string for a resource blob", at)
                resources.blobs.setdefault(owner, {})[key] = decode_blob(value, at)
            else:
                resources.external.setdefault(owner, {})[key] = value
            kind, sep, at = scanner.next()
            if sep == "}":
                break
            if sep != ",":
                raise ResourceSyntaxError("expected ',' or '}' in resource trailer", at)
        kind, sep, at = scanner.next()
        if sep == "}":
            return
        if sep != ",":
            raise ResourceSyntaxError("expected ',' or '}' in resource trailer", at)


def print_trailer(blobs: dict[str, ResourceBlob], external: dict[str, dict[str, str]] | None = None) -> str:
    """The trailer text for ``blobs`` (builtin dialect) and optional external entries."""
    sections = []
    if blobs:
        entries = ",\n".join(f"      {key_text(k)}: \"{b.hex()}\"" for k, b in blobs.items())
        sections.append("  dialect_resources: {\n    builtin: {\n" + entries + "\n    }\n  }")
    if external:
        groups = []
        for owner, values in external.items():
            entries = ",\n".join(f"      {key_text(k)}: {v}" for k, v in values.items())
            groups.append(f"    {key_text(owner)}: {{\n{entries}\n    }}")
        sections.append("  external_resources: {\n" + ",\n".join(groups) + "\n  }")
    if not sections:
        return ""
    return "{-#\n" + ",\n".join(sections) + "\n#-}\n"


__all__ = ["Resources", "split_trailer", "parse_trailer", "print_trailer", "ResourceSyntaxError",
           "quote_string"]
