"""Where a schedule's SRAM peaks, and what the search's no-fit error says about it.

When no candidate fits the budget, "the smallest needs N bytes" tells the user nothing they can
act on. The peak of that smallest schedule does: the op running when the most bytes are live,
the tensors that make those bytes, and what could lower them or make room (a dedicated SRAM,
where feature maps live in DRAM; a larger budget).
"""
from __future__ import annotations

from dataclasses import dataclass

from npu_opt.dialects.npu.target_attr import target_of
from npu_opt.ir.core import Operation
from npu_opt.dialects.npu.execution_order import graph_blocks
from npu_opt.passes.schedule.live_ranges import align, live_at, live_ranges, memory_usage, op_at

ALIGNMENT = 16
"""Range sizes are counted as npu-allocate rounds them."""


@dataclass(frozen=True)
class SramPeak:
    """The most bytes of ``area`` live at once in a scheduled module, the op running then (None:
    before the first op) and the largest tensors live then, as (phrase, bytes), largest first."""

    live: int
    op: Operation | None
    tensors: tuple[tuple[str, int], ...]


def op_phrase(op: Operation) -> str:
    """An op as a message names it: its ``name`` attribute and its kind."""
    name = getattr(op.attr("name"), "value", None)
    return f"'{name}' ({op.name})" if name else f"'{op.name}'"


def _tensor_phrase(values: list) -> str:
    """The tensor a live range holds: the op writing it, or the function argument."""
    owner = values[0]
    op = getattr(owner, "op", None)
    if op is None:
        return f"argument #{getattr(owner, 'index', '?')}"
    return f"the result of {op_phrase(op)}"


def sram_peak(module: Operation, area: str = "Sram", shown: int = 2) -> SramPeak | None:
    """The peak of ``area`` over the module's functions of an allocated schedule (None: nothing
    lives in ``area``), with the ``shown`` largest tensors live at it."""
    target = target_of(module)
    found: SramPeak | None = None
    for block in graph_blocks(module):
        ranges = [r for r in live_ranges(block, target) if r.area == area]
        usage = memory_usage(ranges, alignment=ALIGNMENT)
        if not usage or (found is not None and max(usage) <= found.live):
            continue
        peak = max(usage)
        time = usage.index(peak)
        op = op_at(block, time)
        largest = sorted(live_at(ranges, time), key=lambda r: -align(r.size, ALIGNMENT))[:shown]
        found = SramPeak(peak, op, tuple((_tensor_phrase(r.values), align(r.size, ALIGNMENT)) for r in largest))
    return found


def _bytes(count: int) -> str:
    """``count`` with its unit, singular for one."""
    return f"{count} byte" if count == 1 else f"{count} bytes"


def no_fit_message(budget: int, tried: int, smallest: Operation | None, sram: int, describe: str,
                   size_sram: int | None) -> str:
    """The search's error when none of ``tried`` schedules fits ``budget``: the smallest one
    (``describe``, ``sram`` bytes, built as ``smallest``), the op at its peak and the tensors live
    there, and what would make it fit. ``size_sram``: the SRAM of Vela's Size schedule (None: refused)."""
    text = f"no schedule fits the SRAM budget of {_bytes(budget)}: the smallest of {tried} schedules tried ({describe}) " \
           f"needs {sram} bytes"
    peak = sram_peak(smallest) if smallest is not None else None
    if peak is not None:
        where = f"while {op_phrase(peak.op)} runs" if peak.op is not None else "before the first op"
        parts = ", ".join(f"{phrase}: {size} bytes" for phrase, size in peak.tensors)
        text += f"; {peak.live} bytes are live at once {where} ({parts})"
    if size_sram is not None and size_sram != sram:
        text += f"; the Size strategy's schedule needs {size_sram} bytes"
    target = target_of(smallest) if smallest is not None else None
    shared = target is not None and not target.is_spilling_enabled and target.fast_storage_area == "Sram"
    room = f"a budget of at least {sram} bytes"
    if shared:
        return text + (f"; feature maps live in the SRAM in memory mode {target.memory_mode.name}: {room}, or a "
                       "memory mode with a dedicated SRAM (feature maps in DRAM, the SRAM their cache) would fit")
    return text + f"; {room} (and an --arena-cache-size of as much) would fit"


__all__ = ["SramPeak", "no_fit_message", "op_phrase", "sram_peak"]
