"""MLIR string literal quoting and unquoting (escapes are `\\`, `\\"`, `\\n`, `\\t` and `\\XX` hex)."""
from __future__ import annotations

import re

# Every character but printable ASCII other than '"' and '\\' (as a negated class: the equivalent
# positive class up to U+10FFFF costs ~6 ms to compile at import, this one 0.1 ms).
_NEEDS_ESCAPE = re.compile(r'[^\x20\x21\x23-\x5b\x5d-\x7e]')
_ESCAPE = re.compile(r'\\(?:([0-9a-fA-F]{2})|(.))', re.S)
_SIMPLE = {"n": "\n", "t": "\t", "\\": "\\", '"': '"'}
BARE_ID = re.compile(r"[A-Za-z_][A-Za-z0-9_$.]*\Z")


def _escape_char(match: re.Match[str]) -> str:
    ch = match.group(0)
    if ch == "\\":
        return "\\\\"
    if ch == '"':
        return '\\22'
    if ch == "\n":
        return "\\0A"
    if ch == "\t":
        return "\\09"
    if ord(ch) >= 0x80:
        try:
            data = ch.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate (from bytes decoded with surrogateescape)
            try:
                data = ch.encode("utf-8", "surrogateescape")
            except UnicodeEncodeError:
                data = ch.encode("utf-8", "surrogatepass")
        return "".join(f"\\{b:02X}" for b in data)
    return f"\\{ord(ch):02X}"


def quote_string(value: str) -> str:
    """Quote ``value`` the way MLIR prints string attributes (non-printables as ``\\XX``)."""
    if _NEEDS_ESCAPE.search(value) is None:
        return f'"{value}"'
    return '"' + _NEEDS_ESCAPE.sub(_escape_char, value) + '"'


def unquote_string(token: str) -> str:
    """Turn a lexed string literal (with its quotes) back into its value.

    Raises ValueError on an unknown escape. Hex escapes denote bytes, decoded as UTF-8.
    """
    body = token[1:-1]
    if "\\" not in body:
        return body
    out = bytearray()
    pos = 0
    for match in _ESCAPE.finditer(body):
        out += body[pos:match.start()].encode("utf-8")
        hexbyte, simple = match.groups()
        if hexbyte is not None:
            out.append(int(hexbyte, 16))
        elif simple in _SIMPLE:
            out += _SIMPLE[simple].encode("utf-8")
        else:
            raise ValueError(f"unknown escape '\\{simple}' in string literal")
        pos = match.end()
    out += body[pos:].encode("utf-8")
    return out.decode("utf-8", errors="replace")


def symbol_text(name: str) -> str:
    """``@name`` or ``@"quoted name"`` as MLIR prints a symbol reference."""
    return "@" + (name if BARE_ID.match(name) else quote_string(name))


def key_text(name: str) -> str:
    """An attribute-dictionary key: bare when it can be, quoted otherwise."""
    return name if BARE_ID.match(name) else quote_string(name)


INT64_MAX = (1 << 63) - 1
UINT32_MAX = (1 << 32) - 1


def brief_number(text: str) -> str:
    """A numeral for a message: itself when short, else its head and its digit count."""
    return text if len(text) <= 24 else f"{text[:12]}... ({len(text)} digits)"


def bounded_int(text: str, limit: int, what: str, low: int | None = None) -> int:
    """The value of the decimal numeral ``text`` (optionally signed), which must not exceed ``limit``
    (nor be below ``low``; without it, its magnitude must not exceed ``limit``).

    Raises ValueError naming the value and the limit. Length is checked before conversion, so a
    numeral of thousands of digits is refused at once (Python refuses over 4,300 digits anyway).
    """
    negative = text.startswith("-")
    digits = text.lstrip("+-").lstrip("0") or "0"
    bound = -low if negative and low is not None else limit
    if len(digits) > len(str(bound)) or int(digits) > bound:
        if negative and low is not None:
            raise ValueError(f"{what} {brief_number(text)} is smaller than {low}")
        raise ValueError(f"{what} {brief_number(text)} is larger than {limit}")
    value = int(digits)
    return -value if negative else value
