"""``npu-opt --pareto=FILE``: the (cycles, SRAM) frontier a schedule search found, as a table or a plot.

The frontier is read from the module's ``npu.search`` (npu-search-schedule writes it when the
pipeline runs with an SRAM budget, ``--pass='schedule{sram-budget=N}'``): one row per point,
each the strategy, SRAM target and flags (POINT_FLAGS: full stripe growth, prefetch overlap,
cascade joins, fastest block configs, ...; ``buffer_limit=N`` and ``width_bands=N`` with their
number) that re-make it (``schedule{sram-budget=SRAM}`` with the
point's SRAM as the budget chooses that point again), its total cycles and SRAM bytes, whether
the search chose it, and where the Vela-equivalent Performance and Size schedules landed.

The suffix of FILE picks the form: ``.csv`` a table (one row per point, per module with
``--split-input-file``; points numbered from 1 as ``--summary`` numbers them; a Size point's
``sram_target`` is the one it was scheduled with when it is the chosen one, else empty, since
Size makes its own), ``.svg`` or ``.png`` a picture drawn with matplotlib (the ``[plot]``
extra): SRAM on x, cycles on y, the frontier as a staircase, the chosen point ringed and the
Vela-equivalent schedules marked. The flag may be given more than once (a table and a plot).
"""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass

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
    from npu_opt.dialects.npu.target import target_of

    search = module.attr(SEARCH_ATTR)
    if not isinstance(search, SearchAttr):
        return None
    target = target_of(module, required=False)
    labels = ("", "", "") if target is None else (target.accelerator.name, target.system.name,
                                                  target.memory_mode.name)
    from npu_opt.dialects.npu.schedule_attrs import SCHEDULE_ATTR, ScheduleAttr

    schedule = module.attr(SCHEDULE_ATTR)
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


def render_plot(frontiers: list[Frontier], path: str, reference: str = "Vela-equivalent") -> bytes:
    """One panel per frontier: SRAM (KiB) on x, total cycles on y, in the format of ``path``;
    ``reference`` names the Performance and Size points marked beside the frontier."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(7, 4.2 * len(frontiers) + 0.4), layout="constrained")
    for axes, f in zip(figure.subplots(len(frontiers), 1, squeeze=False)[:, 0], frontiers):
        xs = [point.sram / 1024 for point in f.points]
        ys = [point.cycles for point in f.points]
        axes.step(xs, ys, where="post", color="#3465a4", zorder=2)
        axes.plot(xs, ys, "o", color="#3465a4", label="frontier (npu-opt)", zorder=3)
        axes.plot([xs[f.chosen]], [ys[f.chosen]], "o", markersize=14, markerfacecolor="none",
                  markeredgecolor="#cc0000", label=f"chosen (budget {f.budget / 1024:.1f} KiB)", zorder=4)
        for name, end, marker in ((f"{reference} Performance", f.performance, "s"),
                                  (f"{reference} Size", f.size, "^")):
            if end is not None:
                axes.plot([end[1] / 1024], [end[0]], marker, color="#4e9a06", markerfacecolor="none",
                          markersize=9, label=name, zorder=4)
        axes.set_xlabel("SRAM used (KiB)")
        axes.set_ylabel("total cycles")
        axes.set_title(f"{f.network}: {f.accelerator}, {f.system_config}, {f.memory_mode}", fontsize=10)
        axes.grid(True, alpha=0.3)
        axes.legend(fontsize=8)
    from npu_opt.tools.figure_file import figure_bytes
    return figure_bytes(figure, path)


def render(frontiers: list[Frontier], path: str) -> bytes:
    """The file ``path`` asks for (by its suffix)."""
    if path.lower().endswith(TABLE_SUFFIXES):
        return render_table(frontiers).encode()
    return render_plot(frontiers, path)


__all__ = ["COLUMNS", "Frontier", "check_request", "collect", "missing_search", "render", "render_plot",
           "render_table"]
