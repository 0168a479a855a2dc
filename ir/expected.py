"""``--verify-diagnostics``: check emitted diagnostics against ``// expected-*`` annotations.

Supports ``expected-error``, ``-warning``, ``-note`` and ``-remark``, each optionally ``-re`` (regex
parts in ``{{...}}``), with ``@+N``, ``@-N``, ``@above`` and ``@below`` line offsets, as MLIR does.
A diagnostic nobody expected, or an expectation nothing produced, is an error.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from npu_opt.ir.diagnostics import Diagnostic, DiagnosticEngine
from npu_opt.ir.location import FileLineColLoc
from npu_opt.ir.strings import bounded_int, brief_number

_ANNOTATION = re.compile(
    r"expected-(error|warning|note|remark)(-re)?(?:@(above|below|[+-][0-9]+))?\s*\{\{(.*)\}\}")


@dataclass
class Expectation:
    severity: str
    line: int
    pattern: re.Pattern[str]
    text: str
    annotation_line: int
    annotation_col: int
    matched: bool = False
    problem: str | None = None
    """Why the annotation itself is unusable (reported as a failure; it matches nothing)."""


def _compile(text: str, is_regex: bool) -> re.Pattern[str]:
    if not is_regex:
        return re.compile(re.escape(text))
    parts = re.split(r"\{\{(.*?)\}\}", text)
    return re.compile("".join(p if i % 2 else re.escape(p) for i, p in enumerate(parts)))


_NEVER = re.compile(r"(?!)")
MAX_LINE_OFFSET = 1 << 31
"""The largest ``@+N``/``@-N`` accepted; a larger one cannot name a line of any real file."""


def _offset_target(line: int, where: str) -> tuple[int, str | None]:
    """The line ``@+N``/``@-N`` on ``line`` names, or (-1, why) when N is out of range."""
    try:
        return line + bounded_int(where, MAX_LINE_OFFSET, "line offset"), None
    except ValueError:
        return -1, (f"line offset @{where[0]}{brief_number(where[1:])} in an expected-diagnostic "
                    f"annotation is larger than {MAX_LINE_OFFSET}")


def parse_expectations(text: str, first_line: int = 1) -> list[Expectation]:
    """Find annotations in ``text``, whose first line is line ``first_line`` of its file."""
    found: list[Expectation] = []
    for offset, line in enumerate(text.split("\n")):
        if "expected-" not in line:
            continue
        for m in _ANNOTATION.finditer(line):
            severity, is_regex, where, message = m.groups()
            # a line may hold one annotation; '}}' inside the message ends at the last '}}'
            number = first_line + offset
            problem = None
            if where in (None, ""):
                target = number
            elif where == "above":
                target = number - 1
            elif where == "below":
                target = number + 1
            else:
                target, problem = _offset_target(number, where)
            try:
                pattern = _compile(message, bool(is_regex))
            except re.error as err:
                pattern, problem = _NEVER, f"invalid regex in expected-{severity}-re: {err}"
            found.append(Expectation(severity, target, pattern, message, number, m.start() + 1,
                                     problem=problem))
    return found


class DiagnosticVerifier:
    """A diagnostics handler that matches each diagnostic to an expectation."""

    def __init__(self, engine: DiagnosticEngine, filename: str, expectations: list[Expectation]) -> None:
        self.engine = engine
        self.filename = filename
        self.expectations = expectations
        self.unexpected: list[Diagnostic] = []

    def handle(self, diag: Diagnostic) -> None:
        for item in [diag, *diag.notes]:
            if not self._match(item):
                self.unexpected.append(item)

    def _match(self, diag: Diagnostic) -> bool:
        loc = diag.location.file_line_col() if diag.location is not None else None
        for exp in self.expectations:
            if exp.matched or exp.problem is not None or exp.severity != diag.severity:
                continue
            if loc is None or loc.line != exp.line or loc.file != self.filename:
                continue
            if exp.pattern.search(diag.message):
                exp.matched = True
                return True
        return False

    def failures(self) -> list[Diagnostic]:
        """The mismatches, as error diagnostics ready to print."""
        out: list[Diagnostic] = []
        for diag in self.unexpected:
            out.append(Diagnostic("error", f"unexpected {diag.severity}: {diag.message}", diag.location))
        for exp in self.expectations:
            if exp.problem is not None:
                out.append(Diagnostic("error", exp.problem,
                                      FileLineColLoc(self.filename, exp.annotation_line, exp.annotation_col)))
            elif not exp.matched:
                out.append(Diagnostic("error", f'expected {exp.severity} "{exp.text}" was not produced',
                                      FileLineColLoc(self.filename, exp.annotation_line, exp.annotation_col)))
        return out
