"""Layout helpers the drawing reports (``--pareto``, ``--memory-timeline``) share: readable units,
axis ranges that outliers do not squeeze, and point labels placed so that they do not overlap.

Large models give cycles in the tens of millions and megabytes of SRAM; matplotlib would print
them as "1e7" offsets, and one far-off reference point would stretch an axis until the frontier
is a sliver. These functions pick a unit (k or M cycles, KiB), decide which extra points fit the
view, and place text in display space after the figure's layout is fixed.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

CORE_SHARE = 1 / 3
"""The least share of an axis the frontier (the data a panel is about) keeps: a reference point
that would squeeze it below this is drawn at the edge with its value instead."""


def cycle_unit(largest: float, span: float) -> tuple[float, str]:
    """(divisor, unit name) for cycle counts up to ``largest`` whose frontier spans ``span``:
    millions, thousands or cycles, the largest unit in which the ticks need few decimals."""
    span = span or largest * 0.1
    if largest >= 1e6 and span >= 2e5:
        return 1e6, "M cycles"
    if largest >= 1e4 and span >= 200:
        return 1e3, "k cycles"
    return 1.0, "cycles"


def byte_unit(largest: float) -> tuple[float, str]:
    """(divisor, unit name) for byte counts up to ``largest``: KiB from 10,000 bytes, else bytes."""
    return (1024.0, "KiB") if largest >= 10_000 else (1.0, "bytes")


def view_range(core: Sequence[float], extras: Sequence[float], share: float = CORE_SHARE,
               pad: float = 0.08) -> tuple[float, float]:
    """The axis range showing every value of ``core`` and each value of ``extras`` that leaves the
    core at least ``share`` of the range (nearest first), with ``pad`` of the span either side."""
    low, high = min(core), max(core)
    span = high - low or max(abs(high) * 0.1, 1.0)
    core_span = span
    for value in sorted(extras, key=lambda v: 0.0 if low <= v <= high else min(abs(v - low), abs(v - high))):
        new_low, new_high = min(low, value), max(high, value)
        if core_span / max(new_high - new_low, core_span) >= share:
            low, high = new_low, new_high
    span = max(high - low, core_span)
    return low - pad * span, high + pad * span


def plain_ticks(axes: Any) -> None:
    """Ticks on both axes of ``axes`` at round steps (1, 2, 5), labelled as plain numbers with
    thousands separators (no "1e6" offset or exponent)."""
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    def label(value: float, _: Any) -> str:
        return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.6g}"

    for axis in (axes.xaxis, axes.yaxis):
        axis.set_major_locator(MaxNLocator(steps=[1, 2, 5, 10]))
        axis.set_major_formatter(FuncFormatter(label))


def fmt_value(value: float) -> str:
    """A scaled value for a label: whole with thousands separators from 100, else four significant digits."""
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:.4g}"


def _box(x: float, y: float, ux: int, uy: int, gap_x: float, gap_y: float, width: float, height: float
         ) -> tuple[float, float, float, float]:
    """The display-space box of a label of ``width`` x ``height`` set off from the point (x, y) in
    the direction (ux, uy) by (gap_x, gap_y); centred on the point along an axis whose direction is 0."""
    left = x + gap_x if ux > 0 else x - gap_x - width if ux < 0 else x - width / 2
    bottom = y + gap_y if uy > 0 else y - gap_y - height if uy < 0 else y - height / 2
    return left, bottom, left + width, bottom + height


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    """The area two boxes share."""
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def place_labels(axes: Any, anchors: Sequence[tuple[float, float]], texts: Sequence[str], fontsize: float = 8,
                 avoid: Sequence[tuple[float, float, float]] = (), blockers: Sequence[Any] = (),
                 colour: str = "black") -> list[Any]:
    """Write ``texts[i]`` beside the data point ``anchors[i]`` of ``axes``, each at the first of a
    ring of offsets (growing outwards) whose box hits no other label, marker (``anchors``, and
    ``avoid``: (x, y, radius in points)), other text (``blockers``: artists already drawn) or the
    axes' edge; labels moved away from their point get a thin leader line. Call after the figure's
    layout is final (positions are in display space)."""
    figure = axes.figure
    to_display = axes.transData.transform
    scale = figure.dpi / 72.0
    frame = axes.get_window_extent()
    marker = 4.5 * scale
    circles = [(*to_display(p), marker) for p in anchors]
    circles += [(*to_display((x, y)), radius * scale) for x, y, radius in avoid]
    taken = [(x - r, y - r, x + r, y + r) for x, y, r in circles]
    taken += [(box.x0, box.y0, box.x1, box.y1) for box in (artist.get_window_extent() for artist in blockers)]
    points = [tuple(to_display(p)) for p in anchors]
    placed = []
    for (px, py), text in zip(anchors, texts):
        x, y = to_display((px, py))
        width, height = (0.62 * fontsize * len(text) + 2) * scale, (fontsize + 2) * scale
        best = None
        for ring in (1.0, 1.8, 2.8, 4.0, 5.5):
            for ux, uy in ((1, 1), (1, -1), (-1, 1), (-1, -1), (1, 0), (-1, 0), (0, 1), (0, -1)):
                box = _box(x, y, ux, uy, 5 * ring * scale, 4 * ring * scale, width, height)
                outside = max(0.0, frame.x0 - box[0]) + max(0.0, box[2] - frame.x1) \
                    + max(0.0, frame.y0 - box[1]) + max(0.0, box[3] - frame.y1)
                mid_x, mid_y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
                own = (mid_x - x) ** 2 + (mid_y - y) ** 2
                # First no overlap, then no other point nearer the label than its own (that misleads).
                cost = (sum(_overlap(box, other) for other in taken) + outside * height * 10,
                        sum(1 for ox, oy in points if (mid_x - ox) ** 2 + (mid_y - oy) ** 2 < own))
                if best is None or cost < best[0]:
                    best = (cost, box, ring)
                if cost == (0, 0):
                    break
            if best is not None and best[0] == (0, 0):
                break
        assert best is not None
        _, box, ring = best
        taken.append(box)
        centre = axes.transData.inverted().transform(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2))
        if ring > 1.0:  # moved away from its point: a leader line, under the label's backing
            axes.plot([px, centre[0]], [py, centre[1]], color="#555555", linewidth=0.6, zorder=5)
        artist = axes.text(centre[0], centre[1], text, ha="center", va="center", fontsize=fontsize, color=colour,
                           zorder=6, bbox=dict(facecolor="white", edgecolor="none", alpha=0.7, pad=0.3))
        placed.append(artist)
    return placed


def edge_position(x: float, y: float, xlim: tuple[float, float], ylim: tuple[float, float]
                  ) -> tuple[float, float, str, tuple[float, float]] | None:
    """Where a point outside the view (``xlim``, ``ylim``) is drawn on its edge: (x, y) clamped, a
    matplotlib triangle marker pointing its way, and the unit direction; None inside the view."""
    cx, cy = min(max(x, xlim[0]), xlim[1]), min(max(y, ylim[0]), ylim[1])
    if (cx, cy) == (x, y):
        return None
    ux = (x > xlim[1]) - (x < xlim[0])
    uy = (y > ylim[1]) - (y < ylim[0])
    marker = {(1, 0): ">", (-1, 0): "<", (0, 1): "^", (0, -1): "v"}.get((ux, uy), ">" if ux > 0 else "<")
    return cx, cy, marker, (float(ux), float(uy))


__all__ = ["CORE_SHARE", "byte_unit", "cycle_unit", "edge_position", "fmt_value", "place_labels", "plain_ticks",
           "view_range"]
