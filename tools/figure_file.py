"""A matplotlib figure as the bytes of an SVG or PNG file, the same bytes for the same figure.

The reports that draw (``--memory-timeline``, ``--pareto``) write through here: the format comes
from the file's suffix, and the SVG's date and element ids are fixed so that the same IR gives the
same file, as every other npu-opt output does.
"""
from __future__ import annotations

import io
from typing import Any


def figure_bytes(figure: Any, path: str) -> bytes:
    """``figure`` saved in the format ``path``'s suffix names (.png, else SVG)."""
    from matplotlib import rcParams

    out = io.BytesIO()
    fmt = "png" if path.lower().endswith(".png") else "svg"
    salt = rcParams["svg.hashsalt"]
    rcParams["svg.hashsalt"] = "npu-opt"  # stable element ids: the same IR gives the same file
    try:
        figure.savefig(out, format=fmt, metadata={"Date": None} if fmt == "svg" else None)
    finally:
        rcParams["svg.hashsalt"] = salt
    return out.getvalue()


__all__ = ["figure_bytes"]
