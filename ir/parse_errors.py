"""Turning lark's exceptions into one clear, located ParseError.

Where lark only knows that a token did not lex, these helpers look at the text to say what is
really wrong: an unbalanced bracket, an unterminated string, a bad operand, custom op syntax.
"""
from __future__ import annotations

import re
from typing import Any

from lark import Lark, Token
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from npu_opt.ir.diagnostics import UserError
from npu_opt.ir.lexing import ANGLE_DEPTH, MAX_NESTING, _STRING_RE, _VALUE_NAME, _compile
from npu_opt.ir.location import FileLineColLoc


class ParseError(UserError):
    """A syntax or name-resolution error at a source position."""


def _pos(state: Any, token: Token) -> FileLineColLoc:
    return FileLineColLoc(state.filename, token.line, token.column)  # type: ignore[arg-type]


def _error(state: Any, message: str, token: Token | None, offset: int = 0) -> ParseError:
    """An error ``offset`` characters into ``token`` (which may span lines)."""
    if token is None or token.line is None:
        return ParseError(message, FileLineColLoc(state.filename, 1, 1))
    line, col = token.line, token.column + offset  # type: ignore[operator]
    newline = str(token).rfind("\n", 0, offset) if offset else -1
    if newline != -1:
        line += token.count("\n", 0, offset)
        col = offset - newline
    return ParseError(message, FileLineColLoc(state.filename, line, col))


def _parse_int(text: str) -> int:
    if "x" in text:
        sign = -1 if text.startswith("-") else 1
        return sign * int(text.lstrip("+-"), 16)
    return int(text)


_TERMINAL_NAMES = {
    "VALUE": "SSA value", "CARET_ID": "block name", "SYMBOL": "symbol name", "STRING": "string",
    "BARE_ID": "identifier", "FLOAT": "float", "INT": "integer", "BUILTIN_TYPE": "type",
    "TENSOR_TYPE": "tensor type", "DIALECT_TYPE": "dialect type", "DIALECT_ATTR": "dialect attribute",
    "DENSE": "dense attribute", "DENSE_RESOURCE": "dense_resource attribute",
    "LPAR": "'('", "RPAR": "')'", "LBRACE": "'{'", "RBRACE": "'}'", "LSQB": "'['", "RSQB": "']'",
    "COLON": "':'", "COMMA": "','", "EQUAL": "'='", "MORETHAN": "'>'", "LESSTHAN": "'<'",
    "__ANON_0": "'->'", "_END": "end of file", "$END": "end of file",
}
_BARE_AT = re.compile(r"[A-Za-z_][A-Za-z0-9_$.]*")


def _describe_expected(parser: Lark, expected: set[str]) -> str:
    names = []
    terminals = {t.name: t for t in parser.terminals}
    for name in sorted(expected):
        if name in _TERMINAL_NAMES:
            names.append(_TERMINAL_NAMES[name])
        elif name in terminals and terminals[name].pattern.type == "str":
            names.append(f"'{terminals[name].pattern.value}'")
        else:
            names.append(name.lower())
    names = sorted(set(names))
    if len(names) > 6:
        names = names[:6] + ["..."]
    return ", ".join(names)


_OPENERS = {"(": ")", "[": "]", "{": "}", "<": ">"}
_BRACKET_EVENT = re.compile(r'[()\[\]{}<"]|(?<!-)>|//')  # ``->`` is an arrow, not a bracket
_STRING_AT = _compile(_STRING_RE)
_BRACKETED_HEAD = re.compile(r"(?:tensor|dense_resource|dense|[!#][A-Za-z_][A-Za-z0-9_$.]*)(?=<)")
_HEAD_TERMINALS = {"tensor": "TENSOR_TYPE", "dense": "DENSE", "dense_resource": "DENSE_RESOURCE",
                   "!": "DIALECT_TYPE", "#": "DIALECT_ATTR"}


def line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of ``offset`` in ``text``."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


_DIAGNOSIS_EVENTS = 200_000
"""How many brackets and strings _diagnose_brackets looks at before giving up (bounds its time)."""


def _diagnose_brackets(text: str, pos: int) -> tuple[str, int] | None:
    """Explain why the bracketed text opening at ``pos`` could not be lexed, if it is unbalanced.

    Scans forward (skipping strings, comments and ``->``) and returns a message and the offset to
    report it at, or None when the brackets are balanced or the scan gives up.
    """
    stack: list[tuple[str, int]] = []
    angles = deepest_angle = 0
    at = pos
    for _ in range(_DIAGNOSIS_EVENTS):
        m = _BRACKET_EVENT.search(text, at)
        if m is None:
            opener, where = stack[-1]
            line, col = line_col(text, where)
            return (f"unexpected end of file; expected '{_OPENERS[opener]}' to close the '{opener}' "
                    f"at line {line}, column {col}", len(text))
        event, at = m.group(0), m.start()
        if event == "//":
            newline = text.find("\n", at)
            at = len(text) if newline == -1 else newline
            continue
        if event == '"':
            string = _STRING_AT.match(text, at)
            if string is None:
                return "unterminated string (expected '\"' before the end of the line)", at
            at = string.end()
            continue
        at = m.end()
        if event in _OPENERS:
            stack.append((event, m.start()))
            if len(stack) > MAX_NESTING:
                return f"brackets are nested more than {MAX_NESTING} levels deep", m.start()
            if event == "<":
                angles += 1
                deepest_angle = max(deepest_angle, angles)
            continue
        opener, where = stack.pop()
        angles -= opener == "<"
        if _OPENERS[opener] != event:
            line, col = line_col(text, where)
            return (f"unexpected '{event}'; expected '{_OPENERS[opener]}' to close the '{opener}' at "
                    f"line {line}, column {col}", m.start())
        if not stack:
            break
    else:
        return None
    if deepest_angle > ANGLE_DEPTH:
        return (f"'<' brackets are nested {deepest_angle} levels deep here; a type or dialect "
                f"attribute may nest at most {ANGLE_DEPTH}", pos)
    return None


_SPACE = re.compile(r"\s*")
_OPERAND_RUN = _compile(r"(?:%[A-Za-z0-9_$.\-]++(?:#[0-9]++)?\s*+,\s*+)*+")


def _diagnose_operands(text: str, pos: int) -> tuple[str, int] | None:
    """Point at the first thing in the operand list opening at ``pos`` that is not an SSA value."""
    at = _SPACE.match(text, pos + 1).end()  # type: ignore[union-attr]
    if text.startswith(")", at):
        return None
    at = _OPERAND_RUN.match(text, at).end()  # type: ignore[union-attr]  # skip the well-formed "%v," items
    while True:
        value = _VALUE_NAME.match(text, at)
        if value is None:
            return f"expected an SSA value (like %0) in the operand list, found {_shown(text, at)}", at
        at = _SPACE.match(text, value.end()).end()  # type: ignore[union-attr]
        if text.startswith(",", at):
            at = _SPACE.match(text, at + 1).end()  # type: ignore[union-attr]
        elif text.startswith(")", at):
            return None
        else:
            return f"expected ',' or ')' in the operand list, found {_shown(text, at)}", at


def _shown(text: str, at: int) -> str:
    if at >= len(text):
        return "the end of the file"
    word = _VALUE_NAME.match(text, at) or _BARE_AT.match(text, at)
    return f"'{word.group(0)[:40]}'" if word else f"'{repr(text[at])[1:-1]}'"


def translate_lark_error(err: UnexpectedInput, text: str, filename: str, parser: Lark) -> ParseError:
    line, col = err.line, err.column
    if isinstance(err, UnexpectedCharacters):
        pos = err.pos_in_stream
        allowed = err.allowed
    elif isinstance(err, UnexpectedToken) and err.token.type != "$END":
        pos = err.token.start_pos
        allowed = err.expected
    else:  # the input ended early
        expected = err.expected if isinstance(err, UnexpectedToken) else set(err.expected)
        line, col = line_col(text, len(text))
        message = f"unexpected end of file; expected {_describe_expected(parser, expected)}"
        return ParseError(message, FileLineColLoc(filename, line, col))
    if pos is None or pos >= len(text):
        line, col = line_col(text, len(text))
        message = f"unexpected end of file; expected {_describe_expected(parser, allowed)}"
        return ParseError(message, FileLineColLoc(filename, line, col))
    char = text[pos]
    diagnosis = None
    head = _BRACKETED_HEAD.match(text, pos)
    if head is not None and _HEAD_TERMINALS.get(head.group(0), _HEAD_TERMINALS.get(char)) in allowed:
        # A type or attribute token that did not lex: say which bracket is unbalanced.
        diagnosis = _diagnose_brackets(text, head.end())
    elif char == "(" and "OPERANDS" in allowed:
        diagnosis = _diagnose_operands(text, pos)
    word = _BARE_AT.match(text, pos)
    if diagnosis is not None:
        message, offset = diagnosis
        line, col = line_col(text, offset)
    elif (char == '"' and _STRING_AT.match(text, pos) is None) or (
            char == "@" and text.startswith('"', pos + 1) and _STRING_AT.match(text, pos + 1) is None):
        message = "unterminated string (expected '\"' before the end of the line)"
    elif word and "." in word.group(0) and ("STRING" in allowed or "VALUE" in allowed):
        message = (f"unexpected '{word.group(0)}': the custom assembly form of ops is not supported "
                   "(only module, func.func and return have one); write it in generic form: "
                   "\"name\"(operands) : (types) -> (types)")
    elif word:
        message = f"unexpected '{word.group(0)[:40]}'; expected {_describe_expected(parser, allowed)}"
    elif isinstance(err, UnexpectedToken):
        message = f"unexpected '{str(err.token)[:40]}'; expected {_describe_expected(parser, allowed)}"
    else:
        shown = repr(char)[1:-1]
        message = f"unexpected character '{shown}'; expected {_describe_expected(parser, allowed)}"
    return ParseError(message, FileLineColLoc(filename, line or 1, col or 1))
