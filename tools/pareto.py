"""``npu-opt --pareto=FILE``: the (cycles, SRAM) frontier a schedule search found, as a table or a plot.

Design notes: docs/tools_design.md, section The Pareto frontier (pareto)."""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Any

from npu_opt.dialects.npu.schedule_attrs import SearchPoint
from npu_opt.ir.core import Operation
from npu_opt.ir.diagnostics import UserError

TABLE_SUFFIXES: tuple[str, ...] = (".csv",)
PLOT_SUFFIXES: tuple[str, ...] = (".svg", ".png")

COLUMNS: tuple[str, ...] = ("network", "accelerator", "system_config", "memory_mode", "budget", "point", "strategy",
                            "sram_target", "flags", "total_cycles", "sram_bytes", "chosen", "vela_performance_cycles",
                            "vela_performance_sram", "vela_size_cycles", "vela_size_sram")
"""The table's header; the vela_* columns are the Vela-equivalent strategies' points."""


@dataclass(frozen=True)
class Frontier:
    """One module's search: its labels, the budget, the points and the reference schedules."""

    network: str
    accelerator: str
    system_config: str
    memory_mode: str
    budget: int
    chosen: int
    points: tuple[SearchPoint, ...]
    performance: tuple[int, int] | None
    size: tuple[int, int] | None
    chosen_sram_target: int | None = None
    """The SRAM target the chosen point was scheduled with (``npu.schedule``): under Size the
    strategy makes its own (the cascaded MIN schedule's peak), known only for the point scheduled."""


def check_request(path: str) -> None:
    """Fail before any work (UserError) if ``path`` has a suffix we do not write, or is a plot
    and matplotlib is missing."""
    lowered = path.lower()
    if not lowered.endswith(TABLE_SUFFIXES + PLOT_SUFFIXES):
        raise UserError(f"--pareto: '{path}' must end in .csv (a table), .svg or .png (a plot)")
    if lowered.endswith(PLOT_SUFFIXES):
        from npu_opt.tools.figure_file import require_matplotlib
        require_matplotlib(f"--pareto {path} (a plot)")


def missing_search() -> str:
    """The error for a module without ``npu.search``."""
    return ("--pareto needs a schedule search, but the module has no 'npu.search' attribute: run "
            "--pass='schedule{sram-budget=N}' (N: the SRAM bytes to fit; the frontier is found whatever N is)")


def collect(module: Operation, network: str) -> Frontier | None:
    """The frontier recorded on ``module``; None without one."""
    from npu_opt.dialects.npu.schedule_attrs import SEARCH_ATTR, SearchAttr
    from npu_opt.dialects.npu.target_attr import target_of

    search = module.attr(SEARCH_ATTR)
    if not isinstance(search, SearchAttr):
        return None
    target = target_of(module, required=False)
    labels = ("", "", "") if target is None else (target.accelerator.name, target.system.name,
                                                  target.memory_mode.name)
    from npu_opt.dialects.npu.schedule_attrs import ScheduleAttr
    from npu_opt.dialects.npu.schedule_policy import schedule_policy

    schedule = schedule_policy(module)
    chosen_target = schedule.sram_target if isinstance(schedule, ScheduleAttr) else None
    return Frontier(network, *labels, search.budget, search.chosen, search.points, search.performance, search.size,
                    chosen_target)


def _sram_target(frontier: Frontier, index: int, point: SearchPoint) -> int | str:
    """A point's SRAM target as the summary and the IR give it: the knob, except under Size, whose
    target is its own (the scheduled one for the chosen point, else empty: never computed)."""
    if point.strategy != "Size":
        return point.sram_target
    if index == frontier.chosen and frontier.chosen_sram_target is not None:
        return frontier.chosen_sram_target
    return ""


def render_table(frontiers: list[Frontier]) -> str:
    """The CSV table of every point of ``frontiers``."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for f in frontiers:
        performance = f.performance or ("", "")
        size = f.size or ("", "")
        for index, point in enumerate(f.points):  # (points numbered from 1, as --summary numbers them)
            writer.writerow((f.network, f.accelerator, f.system_config, f.memory_mode, f.budget, index + 1,
                             point.strategy, _sram_target(f, index, point), " ".join(point.knob_words("=")),
                             point.cycles, point.sram,
                             "yes" if index == f.chosen else "no", *performance, *size))
    return out.getvalue()


TABLE_WIDTH = 150
"""Characters per line of the table of points under each panel (monospace, 7 pt, 9 in wide)."""


def point_table(f: Frontier) -> list[str]:
    """The lines of the table under a panel: per point its number (from 1, as ``--summary``
    numbers them; * the chosen one), cycles, SRAM bytes and the knobs that re-make it, as the
    table (``.csv``) spells them, wrapped to TABLE_WIDTH."""
    import textwrap

    lines = [f"{'point':>6}  {'cycles':>13}  {'SRAM (B)':>11}  knobs (* the chosen point)"]
    indent = " " * 38
    for number, point in enumerate(f.points, start=1):
        mark = "*" if number - 1 == f.chosen else " "
        target = f" sram_target={point.sram_target}" if point.strategy == "Performance" and point.sram_target else ""
        knobs = f"{point.strategy}{target} {' '.join(point.knob_words('='))}".rstrip()
        head = f"{number:>5}{mark}  {point.cycles:>13,}  {point.sram:>11,}  "
        lines += textwrap.wrap(knobs, TABLE_WIDTH, initial_indent=head, subsequent_indent=indent)
    return lines


Drawn = tuple[list[tuple[float, float]], list[tuple[float, float, float]], list[Any]]
"""What a panel's point labels need: the points' positions, then what they keep clear of (the
ring's and the edge markers' positions and radii, and the notes written beside them)."""


def _draw_frontier(axes: Any, f: Frontier, reference: str) -> Drawn:
    """One frontier on ``axes``: staircase, chosen point, budget and reference schedules, the
    references far outside the frontier's range drawn on the edge with their values."""
    from npu_opt.tools.plot_layout import (
        byte_unit, cycle_unit, edge_position, fmt_value, plain_ticks, view_range,
    )

    references = [(f"{reference} {name}", end, marker) for name, end, marker in
                  (("Performance", f.performance, "s"), ("Size", f.size, "D")) if end is not None]
    cycles_scale, cycles_unit = cycle_unit(max([p.cycles for p in f.points] + [end[0] for _, end, _ in references]),
                                           max(p.cycles for p in f.points) - min(p.cycles for p in f.points))
    bytes_scale, bytes_unit = byte_unit(max([p.sram for p in f.points] + [end[1] for _, end, _ in references]
                                            + [f.budget]))
    xs = [point.sram / bytes_scale for point in f.points]
    ys = [point.cycles / cycles_scale for point in f.points]
    budget = f.budget / bytes_scale
    xlim = view_range(xs, [end[1] / bytes_scale for _, end, _ in references] + [budget])
    ylim = view_range(ys, [end[0] / cycles_scale for _, end, _ in references])
    axes.set_xlim(*xlim)
    axes.set_ylim(*ylim)
    axes.step(xs, ys, where="post", color="#3465a4", zorder=2)
    axes.plot(xs, ys, "o", color="#3465a4", label="frontier (npu-opt)", zorder=3)
    axes.plot([xs[f.chosen]], [ys[f.chosen]], "o", markersize=14, markerfacecolor="none", markeredgecolor="#cc0000",
              label=f"chosen: point {f.chosen + 1}", zorder=4)
    budget_words = f"budget {f.budget:,} B" + (f" ({fmt_value(budget)} {bytes_unit})" if bytes_scale > 1 else "")
    edges = [(xs[f.chosen], ys[f.chosen], 7.5)]  # the ring, then the edge markers
    notes = []
    if xlim[0] <= budget <= xlim[1]:
        axes.axvline(budget, color="#cc0000", linestyle="--", linewidth=1, zorder=1, label=budget_words)
        notes.append(axes.annotate(budget_words, xy=(budget, 1), xycoords=("data", "axes fraction"), xytext=(3, -3),
                                   textcoords="offset points", ha="left", va="top", fontsize=7, color="#cc0000",
                                   rotation=90))
    else:
        side = xlim[1] if budget > xlim[1] else xlim[0]
        arrow = "\u2192" if budget > xlim[1] else "\u2190"
        axes.plot([side], [ylim[1]], ">" if budget > xlim[1] else "<", color="#cc0000", clip_on=False, zorder=5,
                  label=budget_words)
        notes.append(axes.annotate(f"{budget_words} {arrow}" if budget > xlim[1] else f"{arrow} {budget_words}",
                                   xy=(side, ylim[1]), xytext=(-8 if budget > xlim[1] else 8, -6),
                                   textcoords="offset points", fontsize=7, color="#cc0000",
                                   ha="right" if budget > xlim[1] else "left", va="top"))
        edges.append((side, ylim[1], 5.0))
    for name, end, marker in references:
        x, y = end[1] / bytes_scale, end[0] / cycles_scale
        style = dict(color="#4e9a06", markerfacecolor="none", markersize=9, zorder=4)
        on_edge = edge_position(x, y, xlim, ylim)
        if on_edge is None:
            axes.plot([x], [y], marker, label=name, **style)
            continue
        ex, ey, pointer, (ux, uy) = on_edge
        axes.plot([ex], [ey], pointer, clip_on=False, label=f"{name} (off the axes)",
                  **{**style, "markerfacecolor": "#4e9a06"})
        leftwards = ux > 0 or (ux == 0 and ex > (xlim[0] + xlim[1]) / 2)  # the note goes towards the middle
        notes.append(axes.annotate(f"{name}:\n{fmt_value(x)} {bytes_unit}, {fmt_value(y)} {cycles_unit}",
                                   xy=(ex, ey), xytext=(-10 if leftwards else 10, -10 * uy if uy else 6),
                                   textcoords="offset points", fontsize=7, color="#4e9a06",
                                   ha="right" if leftwards else "left", va="top" if uy > 0 else "bottom",
                                   arrowprops=dict(arrowstyle="->", color="#4e9a06", linewidth=0.8)))
        edges.append((ex, ey, 5.0))
    plain_ticks(axes)
    axes.set_xlabel(f"SRAM used ({bytes_unit})")
    axes.set_ylabel(f"total cycles ({cycles_unit.split()[0]})" if cycles_scale > 1 else "total cycles")
    axes.set_title(f"{f.network}: {f.accelerator}, {f.system_config}, {f.memory_mode}", fontsize=10)
    axes.grid(True, alpha=0.3)
    axes.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncols=3, borderaxespad=0)
    return list(zip(xs, ys)), edges, notes


def render_plot(frontiers: list[Frontier], path: str, reference: str = "Vela-equivalent") -> bytes:
    """One panel per frontier, in the format of ``path``: SRAM on x, total cycles on y (in KiB
    and M or k cycles when large), the frontier as a numbered staircase, the chosen point ringed,
    the budget as a dashed line, and ``reference``'s Performance and Size points marked (on the
    edge, with their values, when far outside the frontier); under each panel, the table of its
    points with the knobs that make them."""
    from matplotlib.figure import Figure

    from npu_opt.tools.plot_layout import place_labels

    tables = [point_table(f) for f in frontiers]
    heights = [h for table in tables for h in (3.6, 0.14 * len(table) + 0.3)]
    figure = Figure(figsize=(9, sum(heights) + 0.2), layout="constrained")
    grid = figure.add_gridspec(len(heights), 1, height_ratios=heights)
    panels = []
    for index, (f, table) in enumerate(zip(frontiers, tables)):
        axes = figure.add_subplot(grid[2 * index])
        panels.append((axes, f, _draw_frontier(axes, f, reference)))
        text_axes = figure.add_subplot(grid[2 * index + 1])
        text_axes.axis("off")
        text_axes.text(0, 1, "\n".join(table), family="monospace", fontsize=7, va="top", ha="left",
                       transform=text_axes.transAxes)
    figure.draw_without_rendering()  # fix the layout: the labels are placed in display space
    figure.set_layout_engine("none")
    for axes, f, (anchors, edges, notes) in panels:
        place_labels(axes, anchors,
                     [str(number) for number in range(1, len(f.points) + 1)], fontsize=8, avoid=edges,
                     blockers=notes)
    from npu_opt.tools.figure_file import figure_bytes
    return figure_bytes(figure, path)


def render(frontiers: list[Frontier], path: str) -> bytes:
    """The file ``path`` asks for (by its suffix)."""
    if path.lower().endswith(TABLE_SUFFIXES):
        return render_table(frontiers).encode()
    return render_plot(frontiers, path)


__all__ = ["COLUMNS", "Frontier", "check_request", "collect", "missing_search", "render", "render_plot",
           "render_table"]
