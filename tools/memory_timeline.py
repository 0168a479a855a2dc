"""``npu-opt --memory-timeline=FILE``: a picture of where and when every tensor lives.

Design notes: docs/tools_design.md, section The memory timeline (memory_timeline)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from npu_opt.ir.core import Operation
from npu_opt.ir.diagnostics import UserError

SUFFIXES: tuple[str, ...] = (".svg", ".png")


@dataclass(frozen=True)
class Interval:
    """One allocation: a tensor's bytes ``[offset, offset + size)`` over times ``[first, last]``."""

    label: str
    offset: int
    size: int
    first: int
    last: int
    dma: bool = False


@dataclass
class Timeline:
    """What one module's picture shows: allocations per memory area, cascade spans, DMA times."""

    title: str
    areas: dict[str, list[Interval]] = field(default_factory=dict)
    cascades: list[tuple[int, int]] = field(default_factory=list)
    """(first time, last time) of each cascade."""
    dma_times: list[int] = field(default_factory=list)
    bounds: dict[str, int] = field(default_factory=dict)
    """Per area, the most bytes live at one time (``npu.usage``), drawn as "live at the peak"."""


def check_request(path: str) -> None:
    """Fail before any work (UserError) if ``path`` has a suffix we cannot draw or matplotlib is
    not installed."""
    if not path.lower().endswith(SUFFIXES):
        raise UserError(f"--memory-timeline: '{path}' must end in .svg or .png")
    from npu_opt.tools.figure_file import require_matplotlib
    require_matplotlib("--memory-timeline")


def _label(op: Operation) -> str:
    """The op's report name; a DMA is named after what it copies."""
    from npu_opt.dialects.npu.perf.ir_adapter import report_name

    if op.name == "npu.dma" and op.attr("name") is None:
        source = getattr(op.operands[0], "op", None) if op.operands else None
        return ("dma " + (report_name(source) if source is not None and source.attr("name") is not None else "")).rstrip()
    return report_name(op) or op.name


def collect(module: Operation, title: str) -> Timeline | None:
    """The timeline of ``module``; None when it has no allocation."""
    from npu_opt.dialects.npu.schedule_attrs import (
        ALLOC_ATTR, ARG_ALLOC_ATTR, CASCADE_ATTR, SECOND_BUFFER_ATTR, TIME_ATTR, USAGE_ATTR, AllocAttr, CascadeAttr,
        UsageAttr,
    )

    timeline = Timeline(title)
    usage = module.attr(USAGE_ATTR)
    if isinstance(usage, UsageAttr):
        timeline.bounds = {area: bound for area, _, bound in usage}
    spans: dict[tuple[int, int], list[int]] = {}
    for op in module.walk():
        time = op.attr(TIME_ATTR)
        when = getattr(time, "value", None)
        if op.name == "npu.dma" and isinstance(when, int):
            timeline.dma_times.append(when)
        cascade = op.attr(CASCADE_ATTR)
        if isinstance(cascade, CascadeAttr) and isinstance(when, int):
            span = spans.setdefault((id(op.parent), cascade.id), [when, when])
            span[0], span[1] = min(span[0], when), max(span[1], when)
        for alloc, suffix in ((op.attr(ALLOC_ATTR), ""), (op.attr(SECOND_BUFFER_ATTR), " (2nd buffer)")):
            if isinstance(alloc, AllocAttr):
                timeline.areas.setdefault(alloc.area, []).append(Interval(
                    _label(op) + suffix, alloc.offset, alloc.size, alloc.first, alloc.last, op.name == "npu.dma"))
        arg_allocs = op.attr(ARG_ALLOC_ATTR)
        for index, alloc in enumerate(getattr(arg_allocs, "elements", None) or ()):
            if isinstance(alloc, AllocAttr):
                timeline.areas.setdefault(alloc.area, []).append(
                    Interval(f"arg{index}", alloc.offset, alloc.size, alloc.first, alloc.last))
    timeline.cascades = sorted((first, last) for first, last in spans.values())
    return timeline if timeline.areas else None


def missing_allocations(flag: str = "--memory-timeline") -> str:
    """The error for a module without allocations."""
    return (f"{flag} needs the tensors allocated, but the module has no 'npu.alloc' attribute: "
            "run npu-allocate (or a schedule pipeline that ends with it) first")


TENSOR_COLOUR = "#8fb3d9"
DMA_COLOUR = "#c9a0dc"
CASCADE_COLOUR = "#f2d7a6"


def _legend_handles(timeline: Timeline, area: str, intervals: list[Interval]) -> list[Any]:
    """One legend entry per kind of mark the panel shows, the rectangle kinds first."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles = [Patch(facecolor=TENSOR_COLOUR, edgecolor="#1f3b57", linewidth=0.6,
                     label="tensor (npu.alloc): live times x bytes")]
    if any(i.dma for i in intervals):
        handles.append(Patch(facecolor=DMA_COLOUR, edgecolor="#1f3b57", linewidth=0.6, hatch="//",
                             label="copy made by an npu.dma"))
    if timeline.cascades:
        handles.append(Patch(facecolor=CASCADE_COLOUR, alpha=0.6, label="cascade (time span)"))
    if area in timeline.bounds:
        bound = timeline.bounds[area]
        handles.append(Line2D([], [], color="#b2182b", linestyle="--", linewidth=0.8,
                              label=f"live at the peak ({bound:,} B)"))
    if timeline.dma_times:
        handles.append(Line2D([], [], marker="v", color="#6a3d9a", linestyle="none", markersize=6,
                              label="DMA (time it runs)"))
    return handles


def render(timelines: list[Timeline], path: str) -> bytes:
    """The picture of ``timelines`` in the format ``path``'s suffix names (SVG or PNG); addresses
    in KiB when an area spans 10,000 bytes or more, a legend of every kind of mark right of each panel."""
    from matplotlib.figure import Figure
    from matplotlib.patches import Rectangle

    from npu_opt.tools.plot_layout import byte_unit, plain_ticks

    panels = [(t, area, intervals) for t in timelines for area, intervals in sorted(t.areas.items())]
    figure = Figure(figsize=(12, 2.8 * len(panels) + 0.6), layout="constrained")
    axes_list = figure.subplots(len(panels), 1, squeeze=False)[:, 0]
    for axes, (timeline, area, intervals) in zip(axes_list, panels):
        start = min(i.first for i in intervals)
        end = max(i.last for i in intervals) + 1
        top_bytes = max((i.offset + i.size for i in intervals), default=1) or 1
        scale, unit = byte_unit(max(top_bytes, timeline.bounds.get(area, 0)))
        top = top_bytes / scale
        for first, last in timeline.cascades:
            axes.axvspan(first, last + 1, color=CASCADE_COLOUR, alpha=0.6, zorder=0)
        for item in sorted(intervals, key=lambda i: (i.first, i.offset)):
            axes.add_patch(Rectangle((item.first, item.offset / scale), item.last + 1 - item.first, item.size / scale,
                                     facecolor=DMA_COLOUR if item.dma else TENSOR_COLOUR, edgecolor="#1f3b57",
                                     linewidth=0.6, zorder=2, hatch="//" if item.dma else None))
            if len(intervals) <= 40:
                axes.text(item.first + 0.05, (item.offset + item.size / 2) / scale, item.label[:24], fontsize=6,
                          va="center", ha="left", zorder=3, clip_on=True)
        if area in timeline.bounds:
            axes.axhline(timeline.bounds[area] / scale, color="#b2182b", linestyle="--", linewidth=0.8, zorder=3)
        if timeline.dma_times:
            axes.plot(timeline.dma_times, [top * 1.05] * len(timeline.dma_times), "v", color="#6a3d9a",
                      markersize=5, clip_on=False, zorder=4)
        axes.set_xlim(start, max(end, start + 1))
        axes.set_ylim(0, top * 1.05)
        plain_ticks(axes)
        axes.set_xlabel("time (npu.time)")
        axes.set_ylabel(f"address ({unit})")
        axes.set_title(f"{timeline.title}: {area} ({top_bytes:,} bytes spanned)", fontsize=9)
        axes.legend(handles=_legend_handles(timeline, area, intervals), loc="upper left",
                    bbox_to_anchor=(1.01, 1.0), borderaxespad=0, fontsize=7)
    from npu_opt.tools.figure_file import figure_bytes
    return figure_bytes(figure, path)


__all__ = ["Interval", "SUFFIXES", "Timeline", "check_request", "collect", "missing_allocations", "render"]
