"""``npu-opt --summary``: a short human summary of a scheduled module, and the schedule readers
the reports share.

Design notes: docs/tools_design.md, section The summary (summary)."""
from __future__ import annotations

from typing import Any

from npu_opt.ir.core import Operation, Value


# --- schedule readers (also used by perf_report and memory_timeline) -------------------------
def stream_dma(op: Operation) -> Operation | None:
    """The DMA carrying the ``#npu.stream`` of ``op``'s weights (None if they are not streamed).
    A DMA op carrying a stream is its own answer."""
    from npu_opt.dialects.npu.schedule_attrs import STREAM_ATTR, StreamAttr

    if isinstance(op.attr(STREAM_ATTR), StreamAttr):
        return op
    weights = getattr(op, "weights", None)
    candidates = [weights] if isinstance(weights, Value) else list(op.operands)
    for value in candidates:
        producer = getattr(value, "op", None)
        if producer is not None and producer.name == "npu.dma" and isinstance(producer.attr(STREAM_ATTR), StreamAttr):
            return producer
    return None


def weight_stream(op: Operation) -> Any:
    """The ``#npu.stream`` of the DMA feeding ``op``'s weights (None if they are not streamed)."""
    from npu_opt.dialects.npu.schedule_attrs import STREAM_ATTR

    dma = stream_dma(op)
    return dma.attr(STREAM_ATTR) if dma is not None else None


def result_alloc(op: Operation) -> Any:
    """The ``#npu.alloc`` of the tensor ``op`` defines (None without one)."""
    from npu_opt.dialects.npu.schedule_attrs import ALLOC_ATTR, AllocAttr

    alloc = op.attr(ALLOC_ATTR)
    return alloc if isinstance(alloc, AllocAttr) else None


def cascades(module: Operation) -> list[list[Operation]]:
    """The cascades of ``module``: members grouped by block and ``npu.cascade`` id, in IR order
    (executed ops only: a concatenation rolling in a cascade carries its id but runs nothing)."""
    from npu_opt.dialects.npu.schedule_attrs import CASCADE_ATTR, CascadeAttr
    from npu_opt.ir.traits import MemoryOnly

    groups: dict[tuple[int, int], list[Operation]] = {}
    for op in module.walk():
        cascade = op.attr(CASCADE_ATTR)
        if isinstance(cascade, CascadeAttr) and not op.has_trait(MemoryOnly):
            groups.setdefault((id(op.parent), cascade.id), []).append(op)
    return list(groups.values())


def streams(module: Operation) -> list[tuple[Operation, Any]]:
    """Every ``npu.dma`` carrying an ``npu.stream``, with its stream, in IR order."""
    from npu_opt.dialects.npu.schedule_attrs import STREAM_ATTR, StreamAttr

    found = []
    for op in module.walk():
        stream = op.attr(STREAM_ATTR)
        if isinstance(stream, StreamAttr):
            found.append((op, stream))
    return found


# --- the summary -----------------------------------------------------------------------------
def _count(value: float) -> str:
    return f"{int(value):,}" if float(value).is_integer() else f"{value:,.1f}"


def _cycles(value: float) -> str:
    """Cycles as whole numbers, rounded as the search rounds its points' totals, so the summary's
    total and the chosen point's agree."""
    return f"{int(round(value)):,}"


def _plural(count: int, noun: str) -> str:
    return f"{count:,} {noun}" + ("" if count == 1 else "s")


def _bytes(value: int) -> str:
    return f"{value:,} B ({value / 1024:.2f} KiB)"


def summary_text(module: Operation, input_name: str) -> str:
    """The summary of an estimated module (check ``summary_csv.missing_costs`` first)."""
    from npu_opt.dialects.npu.perf.ir_attrs import TOTALS_ATTR
    from npu_opt.dialects.npu.perf.weight_dma import is_prefetched
    from npu_opt.dialects.npu.schedule_attrs import USAGE_ATTR, ScheduleAttr, UsageAttr, knob_phrases
    from npu_opt.dialects.npu.schedule_policy import schedule_policy
    from npu_opt.dialects.npu.target_attr import target_of
    from npu_opt.tools.summary_csv import accelerator_label, network_name

    totals = module.attr(TOTALS_ATTR)
    target = target_of(module, required=False)
    name = network_name(input_name) or "<stdin>"
    lines = [f"Network summary for {name}"]
    if target is not None:
        lines.append(f"  Target: {accelerator_label(target.accelerator.name)}, {target.system.name}, "
                     f"{target.memory_mode.name}, {target.core_clock / 1e6:g} MHz")
    schedule = schedule_policy(module)
    if isinstance(schedule, ScheduleAttr):
        beyond = knob_phrases(schedule.point_flags(), schedule.buffer_limit, schedule.width_bands, lambda n: f"{n:,} B")
        lines.append(f"  Schedule: {schedule.strategy} (arena cache size {schedule.arena_cache_size:,} B, "
                     f"SRAM target {schedule.sram_target:,} B{'; ' + ', '.join(beyond) if beyond else ''})")
    lines.extend(_search_lines(module))
    cycles = totals.cycle("total")
    lines.append(f"  Total cycles: {_cycles(cycles)} (NPU {_cycles(totals.cycle('npu'))})")
    if target is not None and cycles > 0:
        clock = float(target.core_clock)
        lines.append(f"  Inference time: {cycles / clock * 1e3:.4g} ms, {clock / cycles:.2f} inferences/s "
                     f"at {clock / 1e6:g} MHz")
    elif target is None:
        lines.append("  Inference time: unknown (no npu.target clock)")
    else:
        lines.append(f"  Inference time: not estimated: no op runs on the NPU ({_cpu_ops(module)} on the CPU, "
                     "which npu-opt does not estimate)")
    usage = module.attr(USAGE_ATTR)
    if isinstance(usage, UsageAttr):
        # (the most bytes live at once is this schedule's; the lower bound below is any schedule's)
        lines.append("  Memory used / live at the peak:")
        for area, used, bound in usage:
            lines.append(f"    {area}: {_bytes(used)} / {_bytes(bound)}")
    else:
        lines.append("  Memory used: not allocated (no npu.usage: npu-allocate has not run)")
    groups = cascades(module)
    lines.append(f"  Cascades: {len(groups)} ({_plural(sum(len(g) for g in groups), 'cascaded op')})")
    found = streams(module)
    if found:
        double = sum(1 for _, s in found if s.buffering == "double")
        lines.append(f"  Weight streams: {len(found)} ({double} double-buffered, "
                     f"{sum(1 for dma, _ in found if is_prefetched(dma))} prefetched, {_plural(sum(s.bytes for _, s in found), 'byte')}, "
                     f"{_plural(sum(s.buffer_bytes for _, s in found), 'buffer byte')})")
    else:
        lines.append("  Weight streams: 0")
    lines.extend(bound_lines(module, cycles, usage))
    return "\n".join(lines) + "\n"


def _cpu_ops(module: Operation) -> str:
    """How many ops npu-legalize left on the CPU (``npu.placement = "cpu"``), as a phrase."""
    from npu_opt.ir.attributes import StringAttr
    from npu_opt.passes.npu_legalize import PLACEMENT_ATTR

    count = sum(1 for op in module.walk()
                if isinstance(op.attr(PLACEMENT_ATTR), StringAttr) and op.attr(PLACEMENT_ATTR).value == "cpu")
    return _plural(count, "op")


def _percent(value: float, bound: int) -> str:
    from npu_opt.dialects.npu.perf.lower_bound import percent_of

    share = percent_of(value, bound)
    return "n/a, nothing has to be there" if share is None else f"{share:.0f} % of bound"


def bound_lines(module: Operation, cycles: float, usage: Any) -> list[str]:
    """The lower bound (dialects/npu/perf/lower_bound.py) and our cycles and fast-storage bytes
    as a percentage of it; a line saying why when there is no bound (no target)."""
    from npu_opt.dialects.npu.perf.lower_bound import lower_bound
    from npu_opt.dialects.npu.schedule_attrs import UsageAttr
    from npu_opt.dialects.npu.target_attr import target_of

    target = target_of(module, required=False)
    if target is None:
        return ["  Lower bound: unknown (no npu.target)"]
    bound = lower_bound(module)
    area = target.fast_storage_area
    lines = ["  Lower bound (no schedule goes below it):",
             f"    cycles: {_cycles(bound.cycles)} (ours: {_percent(cycles, bound.cycles)})"]
    sram = f"    {area}: {_bytes(bound.sram_bytes)}"
    if isinstance(usage, UsageAttr):
        sram += f" (ours: {_percent(usage.used(area), bound.sram_bytes)})"
    lines.append(sram)
    return lines


def _search_lines(module: Operation) -> list[str]:
    """What a schedule search (``npu.search``) chose and what the frontier offered; [] without one."""
    from npu_opt.dialects.npu.schedule_attrs import SEARCH_ATTR, ScheduleAttr, SearchAttr, knob_phrases
    from npu_opt.dialects.npu.schedule_policy import schedule_policy

    search = module.attr(SEARCH_ATTR)
    schedule = schedule_policy(module)
    if not isinstance(search, SearchAttr):
        return []
    lines = [f"  Search: the fastest of {_plural(len(search.points), 'frontier point')} within {search.budget:,} B "
             f"of SRAM is point {search.chosen + 1}"]
    for name, end in (("Performance", search.performance), ("Size", search.size)):
        if end is not None:
            lines.append(f"    Vela-equivalent {name}: {end[0]:,} cycles, {end[1]:,} B")
    for index, point in enumerate(search.points):
        mark = " <- chosen" if index == search.chosen else ""
        flags = "".join(f", {words}" for words in knob_phrases(point.flags, point.buffer_limit, point.width_bands,
                                                                 lambda n: f"{n:,} B"))
        # (Size makes its own SRAM target, the cascaded MIN schedule's peak: the knob says nothing)
        own = schedule.sram_target if point.strategy == "Size" and index == search.chosen and isinstance(
            schedule, ScheduleAttr) else None  # (the chosen Size point's own target, as scheduled)
        target = (f", SRAM target {point.sram_target:,} B" if point.strategy != "Size"
                  else f", SRAM target {own:,} B" if own is not None else "")
        lines.append(f"    point {index + 1}: {point.cycles:,} cycles, {point.sram:,} B "
                     f"({point.strategy}{target}{flags}){mark}")
    return lines


# --- what the driver asks for ----------------------------------------------------------------
class Reports:
    """The network reports one run asked for (``--summary``, ``--summary-csv``,
    ``--memory-timeline``, ``--pareto``): checked before any work, collected per module after the passes,
    written after the IR. Each needs its attributes; a module without them is an error naming
    the pass to run, and then no report file is written."""

    def __init__(self, summary: bool, csv_path: str | None, timeline_path: str | None,
                 pareto_paths: list[str] | None = None) -> None:
        self.summary = summary
        self.csv_path = csv_path
        self.timeline_path = timeline_path
        self.pareto_paths = list(pareto_paths or [])
        self.texts: list[str] = []
        self.csv_rows: list[dict[str, Any]] = []
        self.timelines: list[Any] = []
        self.frontiers: list[Any] = []
        self.modules = 0
        """Modules collected so far (chunks of --split-input-file)."""

    @classmethod
    def of(cls, args: Any) -> "Reports | None":
        """The reports ``args`` ask for; None if none."""
        summary = bool(getattr(args, "summary", False))
        csv_path = getattr(args, "summary_csv", None)
        timeline = getattr(args, "memory_timeline", None)
        pareto = getattr(args, "pareto", None) or []
        return cls(summary, csv_path, timeline, pareto) if summary or csv_path or timeline or pareto else None

    def check(self) -> None:
        """Before any work: the output paths are writable and the timeline can be drawn
        (UserError if not)."""
        from npu_opt.tools.output import check_output_path

        for path in (self.csv_path, self.timeline_path, *self.pareto_paths):
            if path:
                check_output_path(path)
        for path in self.pareto_paths:
            from npu_opt.tools.pareto import check_request as check_pareto
            check_pareto(path)
        if self.timeline_path:
            from npu_opt.tools.memory_timeline import check_request
            check_request(self.timeline_path)

    def collect(self, module: Operation, input_name: str) -> str | None:
        """Take what the reports need from ``module``; the error message if it lacks it."""
        index = self.modules
        self.modules += 1
        from npu_opt.tools.summary_csv import missing_costs, network_name, summary_row

        if self.summary or self.csv_path:
            missing = missing_costs(module, "--summary-csv" if self.csv_path else "--summary")
            if missing is not None:
                return missing
        if self.timeline_path:
            from npu_opt.tools.memory_timeline import collect, missing_allocations

            title = network_name(input_name) or "<stdin>"
            timeline = collect(module, title if index == 0 else f"{title} #{index + 1}")
            if timeline is None:
                return missing_allocations()
            self.timelines.append(timeline)
        if self.pareto_paths:
            from npu_opt.tools.pareto import collect as collect_frontier, missing_search

            frontier = collect_frontier(module, network_name(input_name) or "<stdin>")
            if frontier is None:
                return missing_search()
            self.frontiers.append(frontier)
        if self.summary:
            self.texts.append(summary_text(module, input_name))
        if self.csv_path:
            self.csv_rows.append(summary_row(module, input_name))
        return None

    def write(self, write_output: Any, stdout: Any) -> None:
        """Write the report files (atomically, through ``write_output``) and the summary."""
        if self.csv_path:
            from npu_opt.tools.summary_csv import render
            write_output(self.csv_path, render(self.csv_rows))
        if self.timeline_path:
            from npu_opt.tools.memory_timeline import render as draw
            write_output(self.timeline_path, draw(self.timelines, self.timeline_path))
        for path in self.pareto_paths:
            from npu_opt.tools.pareto import render as render_frontier
            write_output(path, render_frontier(self.frontiers, path))
        if self.summary:
            stdout.write("".join(self.texts))
            stdout.flush()


__all__ = ["Reports", "cascades", "result_alloc", "stream_dma", "streams", "summary_text", "weight_stream"]
