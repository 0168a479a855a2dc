"""``npu-check-schedule``: an independent check of a scheduled module, changing nothing; written from
the rules, not from the passes, so it catches their mistakes.

Design notes: docs/scheduler_design.md, section npu-check-schedule (check_schedule)."""
from __future__ import annotations

from npu_opt.dialects.npu.schedule_policy import schedule_policy
from npu_opt.dialects.npu.schedule_attrs import USAGE_ATTR, ScheduleAttr, UsageAttr
from npu_opt.dialects.npu.target_attr import target_of
from npu_opt.hardware.errors import TargetError
from npu_opt.ir.core import Operation
from npu_opt.ir.diagnostics import Diagnostic
from npu_opt.ir.pass_manager import PassContext
from npu_opt.ir.pass_registry import Pass, register_pass
from npu_opt.dialects.npu.execution_order import graph_blocks
from npu_opt.passes.schedule.check_memory import (
    check_allocations, check_limits, check_overlaps, collect, peak_bytes,
)
from npu_opt.passes.schedule.check_rules import (
    check_cascades, check_dmas, check_streams, check_times, function_schedule,
)

ADDRESS_SPACE_WITHOUT_TARGET = 1 << 40
"""The address space assumed without ``npu.target`` (the largest of the accelerators, U65's)."""

RULES = {1: "time", 2: "DMA", 3: "allocation", 4: "memory limit", 5: "cascade", 6: "weight slices"}
"""Rule number -> the short name messages start with."""


@register_pass("npu-check-schedule", statistics={
    "functions": "functions checked",
    "allocations": "allocations checked",
    "violations": "rule violations reported",
    "comparisons": "allocation pairs the overlap sweep compared (at most two per allocation)",
})
class CheckSchedule(Pass):
    """Report every violation of the schedule's rules (times, DMA completion, allocation
    overlaps, sizes and live ranges, memory limits and usage, rolling buffers, weight slices) as
    an error at the offending op. Reads the IR only; decides nothing."""

    def run(self, module: Operation, ctx: PassContext) -> None:
        def report(rule: int, message: str, op: Operation) -> None:
            ctx.stat("violations")
            ctx.error(f"schedule rule {rule} ({RULES[rule]}): {message}", op)

        limits = _limits(module)
        functions = allocations = 0
        used: dict[str, int] = {}
        bound: dict[str, int] = {}
        for block in list(graph_blocks(module)):
            sched = function_schedule(block)
            ctx.stat("functions")
            functions += 1
            check_times(sched, report)
            check_dmas(sched, report)
            check_cascades(sched, report)
            check_streams(sched, report)
            groups = collect(sched, report)
            check_allocations(sched, groups, report)
            check_limits(groups, limits, report)
            for area, (rects, result) in check_overlaps(sched, groups, report).items():
                used[area] = max(used.get(area, 0), max((r.end for r in rects), default=0))
                bound[area] = max(bound.get(area, 0), peak_bytes(rects, result.shared))
                ctx.stat("comparisons", result.comparisons)
            allocations += sum(len(g.allocations) for g in groups.values())
            ctx.stat("allocations", sum(len(g.allocations) for g in groups.values()))
        usage = module.attr(USAGE_ATTR)
        if isinstance(usage, UsageAttr):
            _check_usage(module, usage, used, bound, report)
        if not ctx.failed:  # the verdict, so that a clean check says so (a note: not an error)
            ctx.diagnostics.emit(Diagnostic("note", f"schedule OK: {len(RULES)} rules checked ("
                                            f"{_plural(functions, 'function')}, {_plural(allocations, 'allocation')})",
                                            module.diag_location()))


def _plural(count: int, noun: str) -> str:
    return f"{count:,} {noun}" + ("" if count == 1 else "s")


def _limits(module: Operation):
    """``area -> (bytes, what they are)``: the arena cache size (``npu.schedule``'s, else the
    target's) for a fast storage separate from the arena (Dedicated_Sram) or without a target,
    the accelerator's address space for the other areas. Where the arena is in the fast storage
    (Shared_Sram, Sram_Only) the arena cache size is a target, not a limit, as npu-allocate (a
    warning) and Vela ("SRAM target for arena memory area exceeded", a warning) treat it."""
    try:
        target = target_of(module, required=False)
    except TargetError:
        target = None
    schedule = schedule_policy(module)
    fast = target.fast_storage_area if target is not None else "Sram"
    space = target.accelerator.max_address_offset if target is not None else ADDRESS_SPACE_WITHOUT_TARGET
    # (where the arena is the fast storage, its cache size is a target the schedule may exceed)
    limited = target is None or target.is_spilling_enabled
    cache: tuple[int, str] | None = None
    if limited and isinstance(schedule, ScheduleAttr):
        cache = (schedule.arena_cache_size, "the scheduled arena cache size")
    elif limited and target is not None:
        cache = (target.arena_cache_size, "the target's arena cache size")

    def limit(area: str) -> tuple[int, str]:
        if area == fast and cache is not None:
            return cache
        return space, "the address space"
    return limit


def _check_usage(module: Operation, usage: UsageAttr, used: dict[str, int], bound: dict[str, int],
                 report) -> None:
    """Rule 4: per area, ``used`` is the end of the highest allocation and ``bound`` the most
    bytes live at one time index (storage groups counted once, an in-place pair once at the
    time it shares); an area with allocations must be listed."""
    listed = {area for area, _, _ in usage}
    for area, said_used, said_bound in usage:
        if said_used != used.get(area, 0):
            report(4, f"npu.usage says {area} uses {said_used} bytes but the allocations span "
                      f"{used.get(area, 0)}", module)
        if said_bound != bound.get(area, 0):
            report(4, f"npu.usage says at most {said_bound} bytes of {area} are live at once but the "
                      f"allocations have {bound.get(area, 0)}", module)
    for area in sorted(set(used) - listed):
        if used[area]:
            report(4, f"npu.usage does not list {area}, where the allocations span {used[area]} bytes", module)


__all__ = ["CheckSchedule", "RULES"]
