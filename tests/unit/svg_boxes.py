"""Read matplotlib's SVG output in tests: the texts it draws and the boxes of its named groups."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

SVG = "{http://www.w3.org/2000/svg}"


def svg_texts(path: Path) -> list[str]:
    """Every text matplotlib drew (it writes each one as a comment before its glyphs)."""
    return re.findall(r"<!-- (.*?) -->", path.read_text(encoding="utf-8"))


def group_box(path: Path, group: str) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) of the first path in the group with id ``group`` (an axes'
    background patch, a legend's frame), in SVG units (y grows downwards)."""
    root = ElementTree.parse(path).getroot()
    for element in root.iter(f"{SVG}g"):
        if element.get("id") == group:
            first = next(element.iter(f"{SVG}path"))
            numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", first.get("d", ""))]
            xs, ys = numbers[0::2], numbers[1::2]
            return min(xs), min(ys), max(xs), max(ys)
    raise AssertionError(f"no group {group!r} in {path}")
