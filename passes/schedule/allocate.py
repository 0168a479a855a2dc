"""``npu-allocate``: an address for every tensor that needs scratch storage, per memory area.

The storage live ranges of each function (passes/schedule/live_ranges.py: who shares storage,
where, how many bytes, from when to when) are packed into each memory area by one of three
allocators (the ``allocator`` option):

* ``hillclimb`` (default, as Vela): priority order by urgency, lowest-address placement, then a
  bounded deterministic search over the order (alloc_hillclimb.py);
* ``greedy``: best fit in order of start time (alloc_greedy.py);
* ``linear``: addresses only grow, ranges holding one constant's bytes share (alloc_linear.py).

Every range's size is rounded up to 16 bytes and every offset is a multiple of 16. The pass
writes (dialects/npu/schedule_attrs.py): ``npu.alloc`` on each op defining a value of a range,
the same attribute for all of them (the owner, concat writers, ops writing in place; views
take none, they alias their source), ``npu.arg_alloc`` on ``func.func`` with an entry per
argument (``#npu.alloc`` with size 0 for an argument that needs no storage), and ``npu.usage``
on the module: per memory area the highest end address and the lower bound (the most bytes
live at once), the largest over the module's functions (each function's scratch starts at 0).

Limits. Each area's allocation is checked against the target: the fast storage, when the arena
is elsewhere (Dedicated_Sram), must fit the arena cache size; every area must fit the address
space. Exceeding either is an error naming the op running when the most bytes are live. With a
shared arena the arena cache size is a target, not a limit (Vela's "SRAM target exceeded"):
exceeding it is a remark.
"""
from __future__ import annotations

from npu_opt.dialects.npu.perf.ir_adapter import OpDescription
from npu_opt.dialects.npu.perf.weight_streams import WeightStreams
from npu_opt.ir.dominance import DominanceInfo
from npu_opt.dialects.npu.schedule_attrs import ALLOC_ATTR, ARG_ALLOC_ATTR, USAGE_ATTR, AllocAttr, UsageAttr
from npu_opt.dialects.npu.target import target_of
from npu_opt.dialects.npu.vela_config import MEMORY_AREAS
from npu_opt.ir.attributes import ArrayAttr
from npu_opt.ir.core import Block, OpResult, Operation, Value
from npu_opt.ir.pass_manager import PassContext
from npu_opt.ir.pass_registry import Pass, PipelineError, option, register_pass, suggest
from npu_opt.passes.npu_order import graph_blocks, is_view
from npu_opt.passes.schedule.alloc_greedy import greedy_allocate
from npu_opt.passes.schedule.alloc_hillclimb import hillclimb_allocate
from npu_opt.passes.schedule.alloc_linear import linear_allocate
from npu_opt.passes.schedule.live_ranges import LiveRange, align, live_ranges, memory_usage, op_times

ALIGNMENT = 16
"""Bytes every address and reserved size is a multiple of (Vela's allocation quantum)."""

ALLOCATORS = ("hillclimb", "greedy", "linear")
"""Values of the ``allocator`` option."""

_STATISTICS = {
    "ranges": "live ranges given an address",
    **{f"{area.lower()}-used": f"bytes the allocation spans in {area} (largest over functions)" for area in MEMORY_AREAS},
    **{f"{area.lower()}-bound": f"most bytes live at once in {area}: the lower bound" for area in MEMORY_AREAS},
    **{f"{area.lower()}-overhead-%": f"used over the lower bound in {area}, percent rounded up" for area in MEMORY_AREAS},
}


def allocate_ranges(ranges: list[LiveRange], allocator: str, limit: int | None = None) -> list[int]:
    """Offsets for ``ranges`` (all in one area) by the named allocator."""
    if allocator == "linear":
        return linear_allocate(ranges, ALIGNMENT)
    if allocator == "greedy":
        return greedy_allocate(ranges, ALIGNMENT)
    return hillclimb_allocate(ranges, ALIGNMENT, limit=limit)


def _name(op: Operation) -> str:
    name = getattr(op.attr("name"), "value", None)
    return f"'{name}' ({op.name})" if name else f"'{op.name}'"


@register_pass("npu-allocate", statistics=_STATISTICS)
class Allocate(Pass):
    """Give each tensor needing scratch storage an address in its memory area (``npu.alloc``,
    ``npu.arg_alloc``) and record per area the bytes used and the lower bound (``npu.usage``).

    Live ranges come from npu.time (npu-order) and the schedule's attributes (cascades' rolling
    buffers, weight streams); the allocator option picks Vela's hill-climb (default), greedy
    best fit, or linear allocation. Errors when an area does not fit its hard limit (the
    arena cache size of a Dedicated_Sram fast storage, the address space); a remark when the
    shared fast storage exceeds the arena cache size."""

    PRESERVES = (WeightStreams, OpDescription, DominanceInfo)
    """The weight encodings, op descriptions and dominance stay valid: addresses (attributes)
    change neither weight values, operands, types nor control flow."""

    allocator: str = option("hillclimb", "how to pack live ranges: hillclimb | greedy | linear")

    def __post_init__(self) -> None:
        if self.allocator not in ALLOCATORS:
            raise PipelineError(f"option 'allocator' of pass 'npu-allocate' is one of {', '.join(ALLOCATORS)}, "
                                f"not '{self.allocator}'{suggest(self.allocator, ALLOCATORS)}")

    def run(self, module: Operation, ctx: PassContext) -> None:
        target = target_of(module)
        usage: dict[str, tuple[int, int]] = {}
        for block in list(graph_blocks(module)):
            try:
                ranges = live_ranges(block, target)
            except ValueError as err:  # an incomplete npu.time numbering
                ctx.error(f"cannot allocate: {err}", block.parent_op())
                return
            for area, used, bound in self._allocate_block(block, ranges, target, ctx):
                old = usage.get(area, (0, 0))
                usage[area] = (max(old[0], used), max(old[1], bound))
        for area, (used, bound) in usage.items():
            key = area.lower()
            ctx.stat(f"{key}-used", used)
            ctx.stat(f"{key}-bound", bound)
            if bound:
                ctx.stat(f"{key}-overhead-%", -(-(used - bound) * 100 // bound))
        attr = UsageAttr(tuple((area, used, bound) for area, (used, bound) in sorted(usage.items())))
        if module.attr(USAGE_ATTR) != attr:
            ctx.rewriter.set_attr(module, USAGE_ATTR, attr)

    def _allocate_block(self, block: Block, ranges: list[LiveRange], target, ctx: PassContext
                        ) -> list[tuple[str, int, int]]:
        """Allocate one function's ranges area by area, write the attributes, check the limits;
        (area, used, bound) per area."""
        alloc: dict[Value, AllocAttr] = {}
        result = []
        for area in sorted({r.area for r in ranges}):
            chosen = [r for r in ranges if r.area == area]
            hard, soft = self._limits(area, target)
            offsets = allocate_ranges(chosen, self.allocator, (soft or hard)[0])
            used = 0
            for r, offset in zip(chosen, offsets):
                reserve = align(r.size, ALIGNMENT)
                used = max(used, offset + reserve)
                attr = AllocAttr(area, offset, reserve, r.first, r.last)
                for value in r.values:
                    alloc[value] = attr
            ctx.stat("ranges", len(chosen))
            bound = max(memory_usage(chosen, alignment=ALIGNMENT), default=0)
            result.append((area, used, bound))
            self._check(block, chosen, area, used, hard, soft, ctx)
        self._write(block, alloc, ctx)
        return result

    @staticmethod
    def _limits(area: str, target) -> tuple[tuple[int, str], tuple[int, str] | None]:
        """The hard limit of ``area``'s bytes and the soft target (or None), each with its name."""
        space = (target.accelerator.max_address_offset, "address space")
        if area == target.fast_storage_area:
            if target.is_spilling_enabled:
                return (target.arena_cache_size, "arena cache size"), None
            if target.arena_cache_size < space[0]:
                return space, (target.arena_cache_size, "arena cache size")
        return space, None

    @staticmethod
    def _check(block: Block, ranges: list[LiveRange], area: str, used: int, hard: tuple[int, str],
               soft: tuple[int, str] | None, ctx: PassContext) -> None:
        """Report an allocation of ``area`` above its limit, naming the op at the peak."""
        limit = hard if used > hard[0] else soft
        if limit is None or used <= limit[0]:
            return
        usage = memory_usage(ranges, alignment=ALIGNMENT)
        peak = max(usage, default=0)
        order, times = op_times(block)
        at_peak = next((op for op in order if times[op] == usage.index(peak)), None) if usage else None
        where = f"while {_name(at_peak)} runs" if at_peak is not None else "at the start"
        what = (f"the {area} allocation spans {used} bytes, more than the {limit[1]} of {limit[0]} bytes; "
                f"{peak} bytes are live at once {where}")
        anchor = at_peak if at_peak is not None else block.parent_op()
        if limit is hard:
            ctx.error(what, anchor)
        else:
            ctx.remark(what + " (a target, not a hard limit)", anchor)

    @staticmethod
    def _write(block: Block, alloc: dict[Value, AllocAttr], ctx: PassContext) -> None:
        """``npu.alloc`` on the defining ops, ``npu.arg_alloc`` on the function."""
        done: set[Operation] = set()
        for value, attr in alloc.items():
            if not isinstance(value, OpResult) or value.op in done:
                continue
            op = value.op
            if is_view(op) and len(op.operands) == 1:
                continue  # a reshape or slice aliases its source; it owns nothing
            done.add(op)
            if len(op.results) == 1:
                new = attr
            else:  # one entry per result, as npu.arg_alloc
                new = ArrayAttr([alloc.get(r, AllocAttr(attr.area, 0, 0, attr.first, attr.first))
                                 for r in op.results])
            if op.attr(ALLOC_ATTR) != new:
                ctx.rewriter.set_attr(op, ALLOC_ATTR, new)
        function = block.parent_op()
        if function is not None and block.args:
            entries = []
            for arg in block.args:
                entry = alloc.get(arg)
                if entry is None:  # needs no storage: an empty range at time 0
                    some = next(iter(alloc.values()), None)
                    entry = AllocAttr(some.area if some is not None else "Sram", 0, 0, 0, 0)
                entries.append(entry)
            array = ArrayAttr(entries)
            if function.attr(ARG_ALLOC_ATTR) != array:
                ctx.rewriter.set_attr(function, ARG_ALLOC_ATTR, array)


__all__ = ["ALIGNMENT", "ALLOCATORS", "Allocate", "allocate_ranges"]
