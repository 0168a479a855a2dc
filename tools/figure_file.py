"""A matplotlib figure as the bytes of an SVG or PNG file, the same bytes for the same figure.

The reports that draw (``--memory-timeline``, ``--pareto``) write through here: the format comes
from the file's suffix, and the SVG's date and element ids are fixed so that the same IR gives the
same file, as every other npu-opt output does.
"""
from __future__ import annotations

import io
from typing import Any

INSTALL_HINT = "pip install 'npu-opt[plot]'"
"""How to get matplotlib, the optional extra the drawing reports need."""


def require_matplotlib(what: str) -> None:
    """Fail (UserError) before any work when matplotlib, which ``what`` needs, is not installed."""
    try:
        import matplotlib  # noqa: F401 - only checking that it is there
    except ImportError:
        from npu_opt.ir.diagnostics import UserError
        raise UserError(f"{what} needs matplotlib, which is not installed: {INSTALL_HINT}") from None


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


__all__ = ["INSTALL_HINT", "figure_bytes", "require_matplotlib"]
