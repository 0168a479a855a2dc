"""Parameter types of declared attributes (ir/attrdef.py): how one value is checked, read and written.

Each type is reusable: a bounded integer, a number, a word from a list, a string, a shape such as
``4x4x8``, a list ``[a, b]``, a nested record ``[...]`` and a map of ``KEY = VALUE`` entries.
"""
from __future__ import annotations

import re
from typing import Any, Iterable, Iterator, Sequence

from npu_opt.ir.strings import INT64_MAX, brief_number, quote_string, unquote_string
from npu_opt.ir.type_parser import AttributeSyntaxError, split_top_level

_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_INTEGER = re.compile(r"[-+]?(?:0[xX][0-9a-fA-F]+|[0-9]+)\Z")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def describe_choices(choices: Sequence[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    return choices[0] if len(choices) == 1 else f"{', '.join(choices[:-1])} or {choices[-1]}"


def entries_of(body: str) -> Iterator[tuple[str, int]]:
    """Each comma-separated entry of ``body`` outside brackets and strings, stripped, with its offset."""
    offset = 0
    for part in split_top_level(body):
        yield part.strip(), offset + len(part) - len(part.lstrip())
        offset += len(part) + 1


class ParamType:
    """How a parameter's value is checked (``normalize``), read (``parse``) and written (``print``)."""

    description = "a value"

    def normalize(self, value: Any) -> Any:
        """``value`` as stored; ValueError phrased to follow the parameter's name (or naming it
        where the message says ``{name}``)."""
        return value

    def parse(self, text: str) -> Any:
        raise NotImplementedError

    def print(self, value: Any) -> str:
        return str(value)


class Int(ParamType):
    """A decimal (or ``0x`` hexadecimal) integer of at most 64 bits, within ``[low, high]``."""

    def __init__(self, low: int | None = None, high: int | None = None) -> None:
        self.low, self.high = low, high
        bounds = [f"at least {low}" if low is not None else "", f"at most {high}" if high is not None else ""]
        self.description = "an integer" + (" " + " and ".join(b for b in bounds if b) if any(bounds) else "")

    def normalize(self, value: Any) -> int:
        if isinstance(value, float) and not value.is_integer():
            raise ValueError(f"must be an integer, not {value}")
        value = int(value)
        if self.low is not None and value < self.low:
            raise ValueError("must not be negative, not " + str(value) if self.low == 0
                             else f"must be at least {self.low}, not {value}")
        if self.high is not None and value > self.high:
            raise ValueError(f"must be at most {self.high}, not {value}")
        return value

    def parse(self, text: str) -> int:
        if not _INTEGER.match(text):
            raise AttributeSyntaxError(f"expected an integer, found '{brief_number(text[:40])}'")
        value = int(text, 0) if len(text) <= 24 and not re.match(r"[-+]?0[0-9]", text) else (
            int(text) if len(text) <= 24 else None)
        if value is None or not -INT64_MAX - 1 <= value <= INT64_MAX:
            raise AttributeSyntaxError(f"integer {brief_number(text)} does not fit in 64 bits")
        return value


class Number(ParamType):
    """A non-integral count (cycles, bytes): written whole when whole, else to three decimals."""

    description = "a number"

    def normalize(self, value: Any) -> float:
        return float(value)

    def parse(self, text: str) -> float:
        try:
            return float(text)
        except ValueError:
            raise AttributeSyntaxError(f"'{text[:40]}' is not a number") from None

    def print(self, value: float) -> str:
        return format_number(value)


def format_number(value: float) -> str:
    """Integers without a decimal point, other values to 3 decimals (trailing zeros dropped)."""
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.3f}".rstrip("0").rstrip(".")


class Bool(ParamType):
    """Present or not (a flag)."""

    description = "a flag"

    def normalize(self, value: Any) -> bool:
        return bool(value)


class Word(ParamType):
    """One of a fixed list of bare words."""

    def __init__(self, choices: Sequence[str], what: str = "") -> None:
        self.choices = tuple(choices)
        self.what = what
        """What a value is called in messages (by default the parameter's name)."""
        self.description = "one of " + ", ".join(self.choices)

    def normalize(self, value: Any) -> str:
        if value not in self.choices:
            expected = describe_choices(self.choices) if len(self.choices) < 3 else "one of " + ", ".join(self.choices)
            raise ValueError(f"unknown {{name}} '{value}' (expected {expected})")
        return value

    def parse(self, text: str) -> str:
        if not _WORD.match(text):
            raise AttributeSyntaxError(f"expected a word, found '{text[:40]}'")
        return text


class String(ParamType):
    """A quoted string."""

    description = "a string"

    def normalize(self, value: Any) -> str:
        if not isinstance(value, str):
            raise ValueError(f"must be a string, not {value!r}")
        return value

    def parse(self, text: str) -> str:
        match = _STRING.match(text)
        if match is None:
            raise AttributeSyntaxError(f"expected a string, found '{text[:40]}'")
        if match.end() != len(text):
            raise AttributeSyntaxError(f"unexpected '{text[match.end():].strip()[:40]}' after the string")
        return unquote_string(text)

    def print(self, value: str) -> str:
        return quote_string(value)


class NamedTable(ParamType):
    """A quoted name, optionally followed by its definition ``{key = value, ...}`` (values bare words,
    strings or numbers, kept as written for the attribute to check); ``format_value(key, value)``
    writes a value back."""

    description = 'a string, optionally followed by `{key = value, ...}`'

    def __init__(self, format_value: Any = None) -> None:
        self.format_value = format_value or (lambda key, value: str(value))

    def normalize(self, value: Any) -> tuple[str, Any]:
        name, table = value
        return String().normalize(name), None if table is None else tuple((str(k), v) for k, v in table)

    def parse(self, text: str) -> tuple[str, Any]:
        match = _STRING.match(text)
        if match is None:
            raise AttributeSyntaxError(f"expected a name as a string, found '{text[:40]}'")
        name, rest = unquote_string(match.group()), text[match.end():].strip()
        if not rest:
            return name, None
        if not (rest.startswith("{") and rest.endswith("}")):
            raise AttributeSyntaxError(f"expected '{{key = value, ...}}' after the name, found '{rest[:40]}'")
        table = []
        for entry, _ in entries_of(rest[1:-1]):
            if not entry and rest[1:-1].strip() == "":
                break
            key, equals, value = (part.strip() for part in entry.partition("="))
            if not equals or not _WORD.match(key) or not value:
                raise AttributeSyntaxError(f"expected 'key = value' in the definition, found '{entry[:40]}'")
            table.append((key, unquote_string(value) if value.startswith('"') else value))
        return name, tuple(table)

    def print(self, value: tuple[str, Any]) -> str:
        name, table = value
        if table is None:
            return quote_string(name)
        return quote_string(name) + " {" + ", ".join(f"{k} = {self.format_value(k, v)}" for k, v in table) + "}"


def closest(name: str, known: Sequence[str]) -> str | None:
    """The known name ``name`` was most likely meant to be, or None."""
    import difflib  # (only on the error path)

    found = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    return found[0] if found else None


class Dims(ParamType):
    """``count`` positive sizes written ``AxBxC`` (a kernel ``3x3``, a stripe ``2x56x32``)."""

    def __init__(self, count: int, names: str = "") -> None:
        self.count = count
        self.names = names or "x".join("HWD"[:count])
        self.description = f"{count} positive sizes {self.names}"

    def normalize(self, value: Any) -> tuple[int, ...]:
        values = tuple(int(v) for v in value)
        if len(values) != self.count or min(values) < 1:
            raise ValueError(f"must be {self.description}, not {list(values)}")
        return values

    def parse(self, text: str) -> tuple[int, ...]:
        parts = [part.strip() for part in text.split("x")]
        if len(parts) != self.count or not all(part.isdigit() for part in parts):
            raise AttributeSyntaxError(f"expected {self.names}, found '{text[:40]}'")
        return tuple(Int().parse(part) for part in parts)

    def print(self, value: tuple[int, ...]) -> str:
        return "x".join(str(v) for v in value)


class List(ParamType):
    """``[a, b, ...]`` of one element type, of a fixed ``length`` or at least ``least`` long; with
    ``brackets=False`` (a parameter that is the whole body) the brackets may be left out."""

    def __init__(self, element: ParamType, length: int | None = None, least: int = 0, brackets: bool = True) -> None:
        self.element, self.length, self.least, self.brackets = element, length, least, brackets
        count = f"{length} values" if length is not None else f"at least {least} values" if least else "values"
        self.description = f"a list of {count}, each {element.description}"

    def normalize(self, value: Any) -> tuple:
        values = tuple(self.element.normalize(v) for v in value)
        if self.length is not None and len(values) != self.length:
            raise ValueError(f"takes {self.length} values, not {list(values)}")
        if len(values) < self.least:
            raise ValueError(f"takes at least {self.least} values, not {list(values)}")
        return values

    def parse(self, text: str) -> tuple:
        inner = text.strip()
        if inner.startswith("[") and inner.endswith("]"):
            inner = inner[1:-1]
        elif self.brackets:
            raise AttributeSyntaxError(f"expected a list '[a, b, ...]', found '{inner[:40]}'")
        return tuple(self.element.parse(part) for part, _ in entries_of(inner) if part)

    def print(self, value: tuple) -> str:
        text = ", ".join(self.element.print(v) for v in value)
        return f"[{text}]" if self.brackets else text


class Record(ParamType):
    """A declared record (an AttrDef without a name), written ``[...]`` with its own syntax."""

    def __init__(self, cls: Any) -> None:
        self.cls = cls
        self.description = f"a {cls.__name__} `[...]`"

    def normalize(self, value: Any) -> Any:
        return value if isinstance(value, self.cls) else self.cls(*value)

    def parse(self, text: str) -> Any:
        if not (text.startswith("[") and text.endswith("]")):
            raise AttributeSyntaxError(f"expected a {self.cls.__name__} '[...]', found '{text[:60]}'")
        try:
            return self.cls.parse(text[1:-1])
        except AttributeSyntaxError as err:
            raise AttributeSyntaxError(str(err).removeprefix(f"a {self.cls.__name__}: ")) from None


class Map(ParamType):
    """``KEY = VALUE`` entries, each key (a word from ``keys``) at most once, in the order written."""

    def __init__(self, keys: Word, value: ParamType) -> None:
        self.keys, self.value = keys, value
        self.description = f"`KEY = VALUE` entries, KEY {keys.description}, VALUE {value.description}"

    def normalize(self, value: Any) -> tuple[tuple[str, Any], ...]:
        pairs = []
        for entry in value:
            key, rest = entry[0], (entry[1] if len(entry) == 2 else tuple(entry[1:]))
            try:
                pairs.append((self.keys.normalize(key), self.value.normalize(rest)))
            except ValueError as err:
                raise ValueError(f"entry {key} {err}") from None
        if len({key for key, _ in pairs}) != len(pairs):
            raise ValueError("has a key given twice")
        return tuple(pairs)

    def parse_entries(self, entries: Iterable[tuple[str, str]]) -> tuple:
        pairs = []
        for key, text in entries:
            try:
                pairs.append((key, self.value.normalize(self.value.parse(text))))
            except ValueError as err:
                raise AttributeSyntaxError(f"{key} {err}") from None
        return tuple(pairs)

    def print_entries(self, value: tuple) -> list[str]:
        return [f"{key} = {self.value.print(v)}" for key, v in value]


__all__ = ["Bool", "Dims", "Int", "List", "Map", "NamedTable", "Number", "ParamType", "Record", "String", "Word",
           "closest", "describe_choices", "entries_of", "format_number"]
