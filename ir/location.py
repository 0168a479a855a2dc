"""Source locations of operations: file:line:col, names from the front end, unknown, fused."""
from __future__ import annotations

from dataclasses import dataclass

from npu_opt.ir.strings import quote_string


class Location:
    """Base of all locations. Locations are small frozen values, not interned."""

    __slots__ = ()

    def file_line_col(self) -> "FileLineColLoc | None":
        """The most precise textual position this location carries, if any."""
        return None


@dataclass(frozen=True, slots=True)
class FileLineColLoc(Location):
    file: str
    line: int
    col: int

    def file_line_col(self) -> "FileLineColLoc | None":
        return self

    def __str__(self) -> str:
        return f"loc({self.inner()})"

    def inner(self) -> str:
        return f"{quote_string(self.file)}:{self.line}:{self.col}"


@dataclass(frozen=True, slots=True)
class NameLoc(Location):
    name: str
    child: Location | None = None

    def file_line_col(self) -> "FileLineColLoc | None":
        return self.child.file_line_col() if self.child is not None else None

    def __str__(self) -> str:
        return f"loc({self.inner()})"

    def inner(self) -> str:
        text = quote_string(self.name)
        if self.child is not None and not isinstance(self.child, UnknownLoc):
            text += f"({self.child.inner()})"  # type: ignore[attr-defined]
        return text


@dataclass(frozen=True, slots=True)
class UnknownLoc(Location):
    def __str__(self) -> str:
        return "loc(unknown)"

    def inner(self) -> str:
        return "unknown"


@dataclass(frozen=True, slots=True)
class FusedLoc(Location):
    locations: tuple[Location, ...]

    def file_line_col(self) -> "FileLineColLoc | None":
        for loc in self.locations:
            found = loc.file_line_col()
            if found is not None:
                return found
        return None

    def __str__(self) -> str:
        return f"loc({self.inner()})"

    def inner(self) -> str:
        return "fused[" + ", ".join(loc.inner() for loc in self.locations) + "]"  # type: ignore[attr-defined]


UNKNOWN_LOC = UnknownLoc()
