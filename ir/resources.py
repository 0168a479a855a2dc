"""The ``{-# dialect_resources: {...} #-}`` trailer that carries dense_resource blobs.

It is split off before the lark parse and read by this small scanner, so a 50 MB blob (100 MB of
hex) is located with str.find and decoded by binascii, never run through the lexer. The scanner
works on offsets into the whole input: the blob text is copied once, to decode it.
"""
from __future__ import annotations

import binascii
import re
import struct
from dataclasses import dataclass, field

from npu_opt.ir.attributes import ResourceBlob
from npu_opt.ir.strings import key_text, quote_string, unquote_string

_BLANKS = re.compile(r"[ \t]*")
_TOKEN = re.compile(r'\s*(?:(\{|\}|:|,|#-\})|([A-Za-z_][A-Za-z0-9_$.\-]*)|(")|([-+]?[0-9]+)|(\S))')


_BLOB_ENTRY = re.compile(r'\s*([A-Za-z_][A-Za-z0-9_$.\-]*)\s*:\s*("0x[0-9A-Fa-f]*")\s*([,}])')
"""``key: "0x..."`` and the ',' or '}' after it: the tokens the scanner reads for a blob entry
(an identifier, ':', a string with no escape in it, then the separator), in one match. Anything
else (a quoted key, an escape, an error) is left to the scanner, which reports it."""


class ResourceSyntaxError(ValueError):
    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.offset = offset


@dataclass
class Resources:
    """Blobs by dialect and key, plus external (non-dialect) resource entries kept as text."""

    blobs: dict[str, dict[str, ResourceBlob]] = field(default_factory=dict)
    external: dict[str, dict[str, str]] = field(default_factory=dict)


def find_trailer(text: str) -> int | None:
    """Offset of the line holding the trailer's ``{-#``, or None.

    The trailer starts at the first ``{-#`` that only blanks precede on its line. Found with
    str.find, so a 100 MB input is scanned in milliseconds.
    """
    line_start = 0
    searched = 0
    at = text.find("{-#")
    while at != -1:
        newline = text.rfind("\n", searched, at)
        if newline != -1:
            line_start = newline + 1
        searched = at
        if _BLANKS.match(text, line_start).end() == at:  # type: ignore[union-attr]
            return line_start
        at = text.find("{-#", at + 3)
    return None


def split_trailer(text: str) -> tuple[str, str | None, int]:
    """Return (IR text, trailer text or None, offset of the trailer in ``text``)."""
    at = find_trailer(text)
    if at is None:
        return text, None, len(text)
    return text[:at], text[at:], at


def _string_end(text: str, pos: int) -> int:
    """``pos`` is just after an opening quote; the offset just after the closing quote."""
    end = pos
    while True:
        end = text.find('"', end)
        if end == -1 or text.find("\n", pos, end) != -1:
            raise ResourceSyntaxError("unterminated string in resource trailer", pos - 1)
        backslashes = 0
        while text[end - 1 - backslashes] == "\\":
            backslashes += 1
        if backslashes % 2 == 0:
            return end + 1
        end += 1


def decode_blob(literal: str, offset: int = 0, start: int = 0, end: int | None = None) -> ResourceBlob:
    """``"0xAAAAAAAADATA..."``: a little-endian u32 alignment followed by the data, in hex.

    The literal is ``literal[start:end]`` (all of it by default); errors are reported at ``offset``.
    Like MLIR, the hex digits must come in pairs, with no whitespace or other characters.
    """
    if end is None:
        end = len(literal)
    if not literal.startswith('"0x', start) or end - start < 4 or literal[end - 1] != '"':
        raise ResourceSyntaxError("expected a hex string (\"0x...\") for a resource blob", offset)
    digits = literal[start + 3:end - 1]
    try:
        raw = binascii.unhexlify(digits)  # rejects odd lengths, whitespace and non-hex characters
    except (binascii.Error, ValueError):
        raise ResourceSyntaxError("malformed hex string in resource blob: expected pairs of hex digits "
                                  "(0-9, A-F) after '0x'", offset) from None
    if len(raw) < 4:
        raise ResourceSyntaxError("resource blob is missing its 4-byte alignment prefix", offset)
    alignment = struct.unpack_from("<I", raw)[0]
    if alignment == 0 or alignment & (alignment - 1):
        raise ResourceSyntaxError(f"resource blob alignment {alignment} is not a power of two", offset)
    return ResourceBlob(memoryview(raw)[4:], alignment)


class _Scanner:
    """Tokens of the trailer: (kind, text, offset); a string's text is its raw literal, except for
    blobs, which are returned as (start, end) offsets by ``next_blob`` to avoid copying them."""

    def __init__(self, text: str, pos: int) -> None:
        self.text = text
        self.pos = pos

    def _match(self) -> re.Match[str] | None:
        return _TOKEN.match(self.text, self.pos)

    def next(self) -> tuple[str, str, int]:
        m = self._match()
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
            end = _string_end(self.text, self.pos)
            self.pos = end
            return "string", self.text[start:end], start
        raise ResourceSyntaxError(f"unexpected character '{other}' in resource trailer", start)

    def next_blob(self) -> tuple[int, int]:
        """The (start, end) offsets of the string literal that must come next."""
        m = self._match()
        if m is None or m.group(3) is None:
            at = len(self.text) if m is None else m.start(m.lastindex or 0)
            raise ResourceSyntaxError("expected a hex string for a resource blob", at)
        start = m.start(3)
        end = _string_end(self.text, m.end())
        self.pos = end
        return start, end

    def expect(self, value: str) -> int:
        kind, text, start = self.next()
        if text != value or kind != "punct":
            shown = f"'{text[:20]}'" if kind != "eof" else "the end of the file"
            raise ResourceSyntaxError(f"expected '{value}' in resource trailer, found {shown}", start)
        return start


def parse_trailer(text: str, start: int = 0) -> Resources:
    """Parse the ``{-# ... #-}`` trailer beginning at or after ``text[start]`` and running to the end
    of ``text``. Offsets in errors are relative to ``text``."""
    at = text.find("{-#", start)
    if at == -1:
        raise ResourceSyntaxError("expected '{-#' to start the resource trailer", start)
    scanner = _Scanner(text, at + 3)
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
        if kind == "punct" and sep == "#-}":
            break
        if kind != "punct" or sep != ",":
            raise ResourceSyntaxError("expected ',' or '#-}' in resource trailer", at)
    rest = _BLANKS_AND_NEWLINES.match(text, scanner.pos).end()  # type: ignore[union-attr]
    if rest != len(text):
        raise ResourceSyntaxError("unexpected text after the resource trailer", rest)
    return resources


_BLANKS_AND_NEWLINES = re.compile(r"\s*")


def _key(kind: str, key: str, at: int, what: str) -> str:
    if kind == "string":
        try:
            return unquote_string(key)
        except ValueError as err:
            raise ResourceSyntaxError(str(err), at) from None
    if kind != "id":
        raise ResourceSyntaxError(f"expected {what} in resource trailer", at)
    return key


def _parse_groups(scanner: _Scanner, resources: Resources, dialect: bool) -> None:
    text = scanner.text
    while True:
        kind, owner, at = scanner.next()
        if kind == "punct" and owner == "}":
            return
        owner = _key(kind, owner, at, "a dialect name")
        scanner.expect(":")
        scanner.expect("{")
        while True:
            if dialect:
                m = _BLOB_ENTRY.match(text, scanner.pos)
                if m is not None:  # the commonest entry, read in one match (see _BLOB_ENTRY)
                    start, end = m.span(2)
                    resources.blobs.setdefault(owner, {})[m.group(1)] = decode_blob(text, start, start, end)
                    scanner.pos = m.end()
                    if m.group(3) == "}":
                        break
                    continue
            kind, key, at = scanner.next()
            if kind == "punct" and key == "}":
                break
            key = _key(kind, key, at, "a resource key")
            scanner.expect(":")
            if dialect:
                start, end = scanner.next_blob()
                resources.blobs.setdefault(owner, {})[key] = decode_blob(text, start, start, end)
            else:
                kind, value, at = scanner.next()
                if kind not in ("string", "int", "id"):
                    raise ResourceSyntaxError("expected a string, integer or identifier as a resource value",
                                              at)
                resources.external.setdefault(owner, {})[key] = value
            kind, sep, at = scanner.next()
            if kind == "punct" and sep == "}":
                break
            if kind != "punct" or sep != ",":
                raise ResourceSyntaxError("expected ',' or '}' in resource trailer", at)
        kind, sep, at = scanner.next()
        if kind == "punct" and sep == "}":
            return
        if kind != "punct" or sep != ",":
            raise ResourceSyntaxError("expected ',' or '}' in resource trailer", at)


def trailer_parts(blobs: dict[str, ResourceBlob], external: dict[str, dict[str, str]] | None = None) -> list[str]:
    """The trailer text for ``blobs`` (builtin dialect) and optional external entries, as pieces to
    join (each blob's hex is one piece, so a 100 MB blob is copied as few times as possible)."""
    parts: list[str] = []
    sections = 0
    if blobs:
        parts.append("{-#\n  dialect_resources: {\n    builtin: {\n")
        for index, (key, blob) in enumerate(blobs.items()):
            if index:
                parts.append(",\n")
            head = struct.pack("<I", blob.alignment).hex().upper()
            parts += ["      ", key_text(key), ': "0x', head, blob.data.hex().upper(), '"']
        parts.append("\n    }\n  }")
        sections += 1
    if external:
        parts.append(",\n" if sections else "{-#\n")
        groups = []
        for owner, values in external.items():
            entries = ",\n".join(f"      {key_text(k)}: {v}" for k, v in values.items())
            groups.append(f"    {key_text(owner)}: {{\n{entries}\n    }}")
        parts.append("  external_resources: {\n" + ",\n".join(groups) + "\n  }")
        sections += 1
    if sections:
        parts.append("\n#-}\n")
    return parts


def print_trailer(blobs: dict[str, ResourceBlob], external: dict[str, dict[str, str]] | None = None) -> str:
    """The trailer text for ``blobs`` (builtin dialect) and optional external entries."""
    return "".join(trailer_parts(blobs, external))


__all__ = ["Resources", "find_trailer", "split_trailer", "parse_trailer", "print_trailer", "trailer_parts",
           "ResourceSyntaxError", "decode_blob", "quote_string"]
