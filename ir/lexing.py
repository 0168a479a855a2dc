"""The lexical side of the grammar: regexes for the coarse tokens, built with bounded nesting.

The grammar file (mlir.lark) holds placeholders (@NESTED@, @BRACED@, @PARENS@, @STRING@) that are
replaced by the patterns built here, and the builder re-checks coarse tokens with the *_OK patterns.
"""
from __future__ import annotations

import functools
import re
import sys
from pathlib import Path

_GRAMMAR = Path(__file__).with_name("mlir.lark")

# Possessive quantifiers (``*+``) never give back what they matched, so a coarse token that
# runs into the end of a megabyte of unterminated input fails after one linear scan. Python
# before 3.11 lacks them; the patterns are unambiguous, so plain ``*`` matches the same text.
_POSSESSIVE = sys.version_info >= (3, 11)
_STRING_RE = r'"[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"'


def _nested(open_: str, close: str, plain: str, special: str, depth: int) -> str:
    """A regex for ``open ... close`` with up to ``depth`` nested levels inside.

    ``plain`` is a character class of ordinary characters, matched in runs; ``special`` are the
    alternatives for everything else (strings, arrows), none of which starts with a ``plain``
    character. Every choice is decided by the next character, so the pattern is unambiguous.
    """
    pattern = f"{plain}*+(?:(?:{special}){plain}*+)*+"
    for _ in range(depth):
        pattern = f"{plain}*+(?:(?:{special}|{open_}{pattern}{close}){plain}*+)*+"
    return f"{open_}{pattern}{close}"


# How deeply brackets may nest inside one coarse token (deeper input gets a clear error).
ANGLE_DEPTH, BRACE_DEPTH, PAREN_DEPTH = 8, 8, 4

# ``->`` is always an arrow, never ``-`` followed by a closing ``>``.
_ARROW = r"->|-(?!>)"


# A ``//`` comment runs to the end of the line, and may hold unbalanced brackets and quotes.
_COMMENT = r"\/\/[^\n]*+|\/(?!\/)"  # (``/`` is escaped inside lark's /regex/ literals)


def angle_brackets() -> str:
    """The regex of a balanced ``<...>`` (as in ``tensor<...>`` and ``!d.t<...>`` type tokens)."""
    return _nested("<", ">", r'[^<>"\-]', rf"{_ARROW}|{_STRING_RE}", ANGLE_DEPTH)


def _grammar_text() -> str:
    angle = angle_brackets()
    braced = _nested(r"\{", r"\}", r'[^{}"\/]', rf"{_STRING_RE}|{_COMMENT}", BRACE_DEPTH)
    parens = _nested(r"\(", r"\)", r'[^()<>"\-\/]', rf"{_ARROW}|{_STRING_RE}|{_COMMENT}|{angle}",
                     PAREN_DEPTH)
    text = (_GRAMMAR.read_text().replace("@NESTED@", angle).replace("@BRACED@", braced)
            .replace("@PARENS@", parens).replace("@STRING@", _STRING_RE))
    if not _POSSESSIVE:
        text = text.replace("*+", "*").replace("++", "+")
    return text


def _cache_path() -> str | bool:
    """Where lark keeps its analysed grammar between runs (halves npu-opt's start-up)."""
    import os
    import tempfile
    directory = os.path.join(tempfile.gettempdir(), f"npu-opt-{os.getuid() if hasattr(os, 'getuid') else 0}")
    try:
        os.makedirs(directory, exist_ok=True)
    except OSError:
        return False
    return os.path.join(directory, "mlir-grammar.lark-cache")


MAX_NESTING = 128
"""How deeply fine-grained brackets (regions, nested attributes, locations) may nest."""

_OPEN_TOKENS = ("LPAR", "LBRACE", "LSQB", "LESSTHAN")
_CLOSE_TOKENS = ("RPAR", "RBRACE", "RSQB", "MORETHAN")




@functools.lru_cache(maxsize=None)
def chars_except(excluded: str) -> str:
    """A character class of every character but those of ``excluded``, spelled as ranges.

    It is the set ``[^...]`` names, but Python's regex engine tests a negated class of two or
    more characters (not one) up to three times slower per character than a class of ranges
    (measured on the generic-op line pattern: 19.1 us to 9.9 us for an imported layer's lines)."""
    ranges: list[str] = []
    low = 0
    for code in sorted({ord(c) for c in excluded}) + [0x110000]:
        if code > low:
            ranges.append(_escape(low) if code - 1 == low else f"{_escape(low)}-{_escape(code - 1)}")
        low = code + 1
    return "[" + "".join(ranges) + "]"


def _escape(code: int) -> str:
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


_NEGATED = re.compile(r"(?<!\\)\[\^((?:[^\\\]\[\-]|\\[^A-Za-z0-9]|\\[nt])++)\]")
"""A negated class of single characters: plain ones (no range, no nested '['), escaped
punctuation and ``\\n``/``\\t`` (``[^<>"\\-]``, ``[^"\\\\\\n]``)."""
_ESCAPED = re.compile(r"\\(.)", re.S)
_CONTROL = {"n": "\n", "t": "\t"}


def faster_classes(pattern: str) -> str:
    """``pattern`` with each negated class of single characters (see _NEGATED) spelled as ranges
    (chars_except): the same language, matched faster. For the patterns the parser compiles
    itself from the grammar's terminals; lark's own are left as lark builds them."""
    def ranges(m: re.Match[str]) -> str:
        excluded = _ESCAPED.sub(lambda e: _CONTROL.get(e.group(1), e.group(1)), m.group(1))
        return m.group(0) if len(set(excluded)) < 2 else chars_except(excluded)  # ([^x] is fast)
    return _NEGATED.sub(ranges, pattern)


def _compile(pattern: str) -> re.Pattern[str]:
    """Compile a pattern written with possessive quantifiers (plain ones before Python 3.11)."""
    return re.compile(pattern if _POSSESSIVE else pattern.replace("*+", "*").replace("++", "+"))


_VALUE_NAME = re.compile(r"%[A-Za-z0-9_$.\-]+(?:#[0-9]+)?")
_RESULT_NAME = re.compile(r"(%[A-Za-z0-9_$.\-]+)(?::([0-9]+))?")
_RESULTS_OK = _compile(r"%[A-Za-z0-9_$.\-]++(?::[0-9]++)?(?:[ \t]*+,[ \t]*+%[A-Za-z0-9_$.\-]++(?::[0-9]++)?)*+"
                       r"[ \t]*+=\Z")
_OPERANDS_OK = _compile(r"\((?:\s*+%[A-Za-z0-9_$.\-]++(?:#[0-9]++)?(?:\s*+,\s*+%[A-Za-z0-9_$.\-]++(?:#[0-9]++)?)*+)?"
                        r"\s*+\)\Z")
