"""Whole generic-op lines read without lark: the parser's fast path for the long uniform runs of
imported IR, which lark would spend most of the parse time on.

Design notes: docs/tools_design.md, section Fast generic-op lines (fast_lines)."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable

from lark import Token

from npu_opt.ir.lexing import _OPERANDS_OK, _VALUE_NAME
from npu_opt.ir.location import FileLineColLoc, NameLoc
from npu_opt.ir.opdef import lookup_dialect, lookup_op
from npu_opt.ir.core import Operation

if TYPE_CHECKING:  # pragma: no cover
    from npu_opt.ir.parser import _Builder


class FastPathBail(Exception):
    """The placeholder parse cannot be trusted to equal the ordinary one: parse the text again."""


MARK = "\x00"
"""Delimits a placeholder; input holding it is never given to the fast path."""

_HEAD = r"[ \t]*+(?:(?P<result>%[A-Za-z0-9_$.\-]++)[ \t]*+=[ \t]*+)?"
"""The start of a candidate line: indentation and an optional single ``%name =`` (what the RESULTS
terminal lexes there), up to the op name's opening quote (the line pattern goes on from there)."""

MIN_LINES = 64
"""Below this many candidate lines the ordinary parse is as fast; the fast path is not tried."""


def line_pattern(pieces: dict[str, str]) -> str:
    """A line's head (_HEAD) then a GENERIC_OP token (built from the grammar's own terminals, as
    ``pieces['whole']``, starting at group ``name``) that ends its line: only blanks may follow it
    before the newline. (One match per line: a head that matches only with its ``%name =`` is not
    there without it, as the op name's quote cannot start where ``%`` does.)"""
    return (
        rf"{_HEAD}(?P<name>{pieces['name']})\s*+(?P<operands>{pieces['operands']})\s*+"
        rf"(?:(?P<properties>{pieces['properties']})\s*+)?(?:(?P<attributes>{pieces['attributes']})\s*+)?"
        rf"(?P<signature>{pieces['signature']})(?:[ \t]*+loc\(\s*+(?P<loc>{pieces['name']})\s*+\))?"
        r"[ \t]*+(?=\n|\Z)")


Line = tuple[int, int, "str | None", "re.Match[str]"]
"""(line number, offset of the line's start, result name or None, the line_pattern match)."""


def find_runs(body: str, line_re: re.Pattern[str], end: int | None = None) -> tuple[str, list[list[Line]]] | None:
    """``body[:end]`` with each run of fast-path lines replaced by a placeholder, and the runs;
    None when there are too few such lines to be worth it (or the text holds the placeholder
    mark). (``end`` spares the caller a copy of the IR without its resource trailer.)"""
    n = len(body) if end is None else end
    if body.count('"(', 0, min(n, 1 << 16)) < min(8, MIN_LINES) or body.find(MARK, 0, n) >= 0:
        return None
    match, find, count = line_re.match, body.find, body.count
    runs: list[list[Line]] = []
    parts: list[str] = []
    run: list[Line] = []
    copied = 0  # body[:copied] is in parts (or replaced)
    run_start = run_end = 0
    pos, line = 0, 1
    while pos < n:
        m = match(body, pos, n)
        if m is not None and count("\n", m.start("name"), m.end()) == 0:
            result = m.group("result")
            start = m.start("result") if result is not None else m.start("name")
            if not run:
                run_start = start
            run.append((line, pos, result, m))
            run_end = m.end()
            pos = run_end + 1
            line += 1
            continue
        if run:
            parts.append(body[copied:run_start])
            parts.append(f"{MARK}{len(runs)}{chr(10) * (len(run) - 1)}{MARK}")
            runs.append(run)
            copied, run = run_end, []
        newline = find("\n", pos, n)
        if newline < 0:
            break
        pos = newline + 1
        line += 1
    if run:
        parts.append(body[copied:run_start])
        parts.append(f"{MARK}{len(runs)}{chr(10) * (len(run) - 1)}{MARK}")
        runs.append(run)
        copied = run_end
    if sum(len(r) for r in runs) < MIN_LINES:
        return None
    parts.append(body[copied:n])
    return "".join(parts), runs


def parse_runs(parser: Any, builder: "_Builder", make_state: Callable[[], Any], body: str,
               end: int | None = None) -> list[Operation] | None:
    """The top-level ops of ``body[:end]`` parsed by ``parser`` with its runs of whole generic-op
    lines read here (``builder.state`` set to ``make_state()`` meanwhile); None when it has too few
    of them, or when anything at all went wrong or looks unusual (the caller then parses the text
    the ordinary way, which reports any error at its place)."""
    found = find_runs(body, builder.pieces["line"], end)
    if found is None:
        return None
    skeleton, runs = found
    builder.state = state = make_state()
    state.runs = runs
    try:
        ops = parser.parse(skeleton, start="start")
        builder._check_blocks_defined(state.scopes[0])  # successors of top-level ops
    except Exception:  # noqa: BLE001 - every error is reported by the ordinary parse
        return None
    finally:
        builder.state = None  # type: ignore[assignment]
    if state.next_run != len(runs) or state.scopes[0].forward:
        return None  # a placeholder lark did not reduce as an operation, or values never defined
    return ops


def flatten_runs(items: list[Any]) -> list[Operation]:
    """``items`` with each op_run list spliced in place (and anything but ops dropped): what
    the rules collecting operations (start, region, block) keep."""
    if not any(isinstance(item, list) for item in items):
        return [item for item in items if isinstance(item, Operation)]
    flat: list[Operation] = []
    for item in items:
        if isinstance(item, list):
            flat.extend(item)
        elif isinstance(item, Operation):
            flat.append(item)
    return flat


def build_run(builder: "_Builder", token: str) -> list[Operation]:
    """The ops of the run whose placeholder is ``token``, in order; FastPathBail when a line is
    not one the fast path builds exactly as the ordinary path would (or runs come out of order)."""
    state = builder.state
    index = int(token.strip("\x00\n"))
    if index != state.next_run:
        raise FastPathBail(f"run {index} reached out of order")
    state.next_run += 1
    ops = []
    for entry in state.runs[index]:
        try:
            ops.append(_build_line(builder, state, entry))
        except FastPathBail:
            ops.append(_general_line(builder, entry))
    return ops


_PIECES = ("name", "operands", "properties", "attributes", "signature", "loc")


def _general_line(builder: "_Builder", entry: Line) -> Operation:
    """The op of a line the fast path doubts, built by the rules lark would run for it, from the
    very tokens lark would lex there (RESULTS, GENERIC_OP): same IR, same errors at the same
    file:line:col."""
    line, line_at, result, m = entry
    text = m.string
    results = None
    if result is not None:
        at = text.index("%", line_at)
        equals = text.index("=", at)
        results = Token("RESULTS", text[at:equals + 1], at, line, at - line_at + 1)
    at = m.start("name")
    op_text = text[at:m.end()].rstrip(" \t")
    token = Token("GENERIC_OP", op_text, at, line, at - line_at + 1)
    return builder.whole_generic_op([results, token, None])


def _build_line(builder: "_Builder", state: Any, entry: Line) -> Operation:
    """One op, as _quick_generic_op then operation() build it (same objects, same positions)."""
    line, line_at, result, m = entry
    name, operands, props, attrs, signature, loc_text = m.group(*_PIECES)
    if "\\" in name:
        raise FastPathBail("escape in an op name")
    if props is not None:
        props = builder._quick_dictionary(props[1:-1])
        if props is None:
            raise FastPathBail("properties")
    if attrs is not None:
        attrs = builder._quick_dictionary(attrs)
        if attrs is None:
            raise FastPathBail("attributes")
    fn_type = builder._quick_signature(signature)
    if fn_type is None:
        raise FastPathBail("signature")
    inputs = fn_type.inputs
    if operands == "()":
        values: list[Any] = []
        if inputs:
            raise FastPathBail("operand count")
    else:
        if _OPERANDS_OK.match(operands) is None:
            raise FastPathBail("operands")
        uses = _VALUE_NAME.findall(operands)
        if len(uses) != len(inputs):
            raise FastPathBail("operand count")
        defined = state.scopes[-1].values  # (where _lookup finds a value defined earlier in the block)
        values = []
        for use, t in zip(uses, inputs):
            group = defined.get(use)
            values.append(group[0] if group is not None and group[0].type is t else _lookup(state, use, t))
    loc = None
    if loc_text is not None:
        if "\\" in loc_text:
            raise FastPathBail("escape in a location")
        loc = NameLoc(loc_text[1:-1], None)
    name = name[1:-1]
    cls = state.op_classes.get(name)
    if cls is None:
        cls = _op_class(state, name)
    results = fn_type.results
    if result is not None:
        if len(results) != 1:
            raise FastPathBail("result count")
        scope = state.scopes[-1]
        if not scope.isolated or scope.forward or result in scope.values:
            _check_define(state, result)  # (it only looks at the innermost scope when that is isolated)
        column = m.start("result") - line_at + 1
    else:
        column = m.start("name") - line_at + 1
    pos = FileLineColLoc(state.filename, line, column)
    op = cls(name, values, results, attrs, props, (), (), location=pos if loc is None else loc, pos=pos)
    if result is not None:
        state.scopes[-1].values[result] = list(op.results)
    return op


def _op_class(state: Any, name: str) -> type[Operation]:
    """The class _make_op builds ``name`` with; FastPathBail where _make_op reports an error."""
    cls = lookup_op(name)
    if cls is None:
        dialect = name.split(".", 1)[0]
        registered = lookup_dialect(dialect)
        if registered is not None and not registered.allow_unknown_ops:
            raise FastPathBail("unregistered op")
        if registered is None and not state.options.allow_unregistered:
            raise FastPathBail("unregistered dialect")
        cls = Operation
    if name == "builtin.module":
        raise FastPathBail("a module without its region")
    state.op_classes[name] = cls
    return cls


def _lookup(state: Any, use: str, type_: Any) -> Any:
    """The value ``use`` names when it is already defined with ``type_``; FastPathBail for
    everything _lookup would treat otherwise (forward references, errors, ``#n`` numbers)."""
    if "#" in use:
        raise FastPathBail("result number")
    for scope in reversed(state.scopes):
        group = scope.values.get(use)
        if group is not None:
            value = group[0]
            if value.type is not type_:
                raise FastPathBail("type mismatch")
            return value
        if scope.forward or scope.isolated:
            raise FastPathBail("forward reference")
    raise FastPathBail("undefined value")  # pragma: no cover - the outermost scope is isolated


def _check_define(state: Any, name: str) -> None:
    """That _define would just bind ``name``: FastPathBail for a redefinition or pending forward
    references (checked before the op is built, which records its operands' uses)."""
    scopes = state.scopes
    innermost = scopes[-1]
    if innermost.forward:
        raise FastPathBail("forward references pending")
    for scope in reversed(scopes):
        if name in scope.values:
            raise FastPathBail("redefinition")
        if scope.isolated:
            break
