"""Diagnostics as data: severity, message, location and notes, rendered MLIR-style.

``file:line:col: error: message`` followed by the source line and a caret. Several diagnostics
can be reported per run; handlers decide whether they are printed or checked against
``// expected-error`` annotations (see ir.expected).
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Callable, TextIO

from npu_opt.ir.location import FileLineColLoc, FusedLoc, Location, NameLoc, UnknownLoc

SEVERITIES = ("error", "warning", "note", "remark")
PROGRAM = ["npu-opt"]
"""The name location-less diagnostics start with; a tool sets its own (npu-translate)."""
_MAX_SOURCE_WIDTH = 160


@dataclass
class Diagnostic:
    severity: str
    message: str
    location: Location | None = None
    notes: list["Diagnostic"] = field(default_factory=list)

    def attach_note(self, message: str, location: Location | None = None) -> "Diagnostic":
        note = Diagnostic("note", message, location)
        self.notes.append(note)
        return note


class UserError(Exception):
    """A problem with the user's input or command line; reported as a diagnostic, never a traceback."""

    def __init__(self, message: str, location: Location | None = None) -> None:
        super().__init__(message)
        self.diagnostic = Diagnostic("error", message, location)


class SourceManager:
    """Remembers the text of each input so diagnostics can show the offending line."""

    def __init__(self) -> None:
        self._texts: dict[str, str] = {}
        self._line_starts: dict[str, list[int]] = {}

    def add(self, name: str, text: str) -> None:
        self._texts[name] = text
        self._line_starts.pop(name, None)

    def line(self, name: str, line: int) -> str | None:
        text = self._texts.get(name)
        if text is None:
            return None
        starts = self._line_starts.get(name)
        if starts is None:
            starts = [0]
            pos = text.find("\n")
            while pos != -1:
                starts.append(pos + 1)
                pos = text.find("\n", pos + 1)
            self._line_starts[name] = starts
        if not 1 <= line <= len(starts):
            return None
        end = text.find("\n", starts[line - 1])
        return text[starts[line - 1]: end if end != -1 else len(text)]


def location_prefix(loc: Location | None) -> str:
    """The ``file:line:col`` (or name) a diagnostic starts with."""
    if loc is None or isinstance(loc, UnknownLoc):
        return PROGRAM[0]
    flc = loc.file_line_col()
    if flc is not None:
        text = f"{flc.file}:{flc.line}:{flc.col}"
        if isinstance(loc, NameLoc):
            text += f" ({loc.name})"
        return text
    if isinstance(loc, NameLoc):
        return f'"{loc.name}"'
    if isinstance(loc, FusedLoc):
        return str(loc)
    return str(loc)


def render(diag: Diagnostic, sources: SourceManager | None = None) -> str:
    """MLIR-style text of a diagnostic and its notes, with source line and caret when known."""
    lines = [f"{location_prefix(diag.location)}: {diag.severity}: {diag.message}"]
    flc = diag.location.file_line_col() if diag.location is not None else None
    if sources is not None and flc is not None:
        source = sources.line(flc.file, flc.line)
        if source is not None:
            col = max(flc.col - 1, 0)
            start = 0
            if len(source) > _MAX_SOURCE_WIDTH:
                start = max(0, col - _MAX_SOURCE_WIDTH // 2)
                source = source[start:start + _MAX_SOURCE_WIDTH]
            lines.append(source.rstrip("\r"))
            lines.append(" " * (col - start) + "^")
    text = "\n".join(lines)
    for note in diag.notes:
        text += "\n" + render(note, sources)
    return text


Handler = Callable[[Diagnostic], None]


class DiagnosticEngine:
    """Collects diagnostics and passes them to the active handler (by default: print to stderr)."""

    def __init__(self, sources: SourceManager | None = None, stream: TextIO | None = None) -> None:
        self.sources = sources or SourceManager()
        self.stream = stream
        self.handler: Handler = self._print
        self.error_count = 0
        self.show_remarks = True

    def _print(self, diag: Diagnostic) -> None:
        if diag.severity == "remark" and not self.show_remarks:
            return
        stream = self.stream or sys.stderr
        stream.write(render(diag, self.sources) + "\n")

    def emit(self, diag: Diagnostic) -> Diagnostic:
        if diag.severity == "error":
            self.error_count += 1
        self.handler(diag)
        return diag

    def error(self, message: str, location: Location | None = None) -> Diagnostic:
        return self.emit(Diagnostic("error", message, location))

    def warning(self, message: str, location: Location | None = None) -> Diagnostic:
        return self.emit(Diagnostic("warning", message, location))

    def remark(self, message: str, location: Location | None = None) -> Diagnostic:
        return self.emit(Diagnostic("remark", message, location))

    @property
    def has_errors(self) -> bool:
        return self.error_count > 0


def file_loc(file: str, line: int, col: int) -> FileLineColLoc:
    return FileLineColLoc(file, line, col)
