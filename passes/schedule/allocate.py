"""``npu-allocate``: an address for every tensor that needs scratch storage, per memory area,
packing the storage live ranges and checking the areas against the target.

Design notes: docs/scheduler_design.md, section npu-allocate (allocate)."""
from __future__ import annotations

from typing import Literal

from npu_opt.dialects.npu.perf.ir_adapter import OpDescription
from npu_opt.dialects.npu.perf.weight_streams import WeightStreams
from npu_opt.ir.dominance import DominanceInfo
from npu_opt.dialects.npu.schedule_attrs import (
    ALLOC_ATTR, ARG_ALLOC_ATTR, SECOND_BUFFER_ATTR, SHARES_TAIL_ATTR, TIME_ATTR, USAGE_ATTR, AllocAttr, ScheduleAttr,
    SearchKnob, UsageAttr,
)
from npu_opt.dialects.npu.target_attr import target_of
from npu_opt.hardware.vela_config import MEMORY_AREAS
from npu_opt.ir.attributes import UNIT, ArrayAttr, IntegerAttr
from npu_opt.ir.core import Block, OpResult, Operation, Value
from npu_opt.ir.pass_manager import PassContext
from npu_opt.ir.pass_registry import Pass, PipelineError, option, register_pass, suggest
from npu_opt.dialects.npu.schedule_policy import schedule_policy
from npu_opt.dialects.npu.dma_issue import place_weight_dmas
from npu_opt.dialects.npu.execution_order import graph_blocks, is_view
from npu_opt.passes.schedule.alloc_greedy import greedy_allocate
from npu_opt.passes.schedule.alloc_bottleneck import Span, bottleneck_allocate
from npu_opt.passes.schedule.alloc_hillclimb import hillclimb_allocate, neighbour_sets
from npu_opt.passes.schedule.alloc_linear import linear_allocate
from npu_opt.passes.schedule.live_ranges import (
    LiveRange, SimpleRange, align, in_half_steps, live_ranges, memory_usage, op_at, op_times, tail_sharing,
)
from npu_opt.passes.schedule.prefetch_overlap import apply_drops, meets, pack_with_overlap, tensor_name
from npu_opt.passes.schedule.sram_peak import op_phrase

ALIGNMENT = 16
"""Bytes every address and reserved size is a multiple of (Vela's allocation quantum)."""

VELA_SEARCH_CAP = 5000
"""Most iterations of Vela's search while its packing is above the area's hard limit (Vela's own
cap is 99,999): a schedule search tries many candidates, and one that does not fit is refused."""

VELA_SEARCH_WORK = 3_000_000
"""Most ranges Vela's search places in one allocation (about 3 s): deep_chain_conv's search places
about 290,000; a chain of tens of thousands of ops would take minutes, as in Vela."""

ALLOCATORS = ("hillclimb", "greedy", "linear")
"""Values of the ``allocator`` option."""

_STATISTICS = {
    "ranges": "live ranges given an address",
    "prefetch-dropped": "prefetched weight DMAs whose buffer overlaps one the previous op uses (prefetch-overlap)",
    "prefetch-moved": "prefetched weight buffers moved to bytes free under the previous op, below the top (prefetch-overlap)",
    "prefetch-into-tail": "prefetched weight buffers sharing bytes with a double buffer the previous op's last "
                          "slice does not read",
    "prefetch-repacks": "repackings kept that hold dropped prefetches whole from their transfer and drop fewer "
                        "bytes in no more space (prefetch-overlap)",
    **{f"{area.lower()}-used": f"bytes the allocation spans in {area} (largest over functions)" for area in MEMORY_AREAS},
    **{f"{area.lower()}-bound": f"most bytes live at once in {area}: the lower bound" for area in MEMORY_AREAS},
    **{f"{area.lower()}-overhead-%": f"used over the lower bound in {area}, percent rounded up" for area in MEMORY_AREAS},
}


def allocate_ranges(ranges: list[LiveRange], allocator: str, limit: int | None = None,
                    hard_limit: int | None = None) -> list[int]:
    """Offsets for ``ranges`` (all in one area) by the named allocator; ``limit`` the bytes to
    aim for, ``hard_limit`` those the area has."""
    if allocator == "linear":
        return linear_allocate(ranges, ALIGNMENT)
    if allocator == "greedy":
        return greedy_allocate(ranges, ALIGNMENT)
    as_vela = _as_vela(ranges, hard_limit)
    if as_vela is not None and _span(ranges, as_vela) <= max(memory_usage(ranges, alignment=ALIGNMENT), default=0):
        return as_vela  # at the lower bound: nothing packs tighter
    ours = hillclimb_allocate(ranges, ALIGNMENT, limit=limit)
    return as_vela if as_vela is not None and _span(ranges, as_vela) <= _span(ranges, ours) else ours


def _as_vela(ranges: list[LiveRange], hard_limit: int | None) -> list[int] | None:
    """Vela's addresses for ``ranges``: its bottleneck search on the ranges' spans in Vela's time,
    met in Vela's order (docs/codegen_design.md, Scratch addresses). None when some range has no
    such span, or when the addresses would let two ranges live together in our times share bytes."""
    spans = [getattr(r, "vela", None) for r in ranges]
    ranks = [getattr(r, "vela_rank", None) for r in ranges]
    if not ranges or None in spans or None in ranks:
        return None
    used = sorted((i for i, r in enumerate(ranges) if r.size > 0), key=lambda i: ranks[i])  # type: ignore[arg-type,return-value]
    # Vela rounds every tensor's bytes to the quantum, but not a rolling buffer's
    found = bottleneck_allocate([Span(spans[i][0], spans[i][1],  # type: ignore[index]
                                      ranges[i].size if ranges[i].kind == "rolling" else align(ranges[i].size, ALIGNMENT))
                                 for i in used], ALIGNMENT, limit=hard_limit, max_iterations=VELA_SEARCH_CAP,
                                 max_placements=VELA_SEARCH_WORK)
    offsets = [0] * len(ranges)
    for i, address in zip(used, found):
        offsets[i] = address
    return None if _clashes(ranges, offsets) else offsets


def _span(ranges: list[LiveRange], offsets: list[int]) -> int:
    """The bytes ``ranges`` at ``offsets`` span (sizes rounded to the quantum)."""
    return max((o + align(r.size, ALIGNMENT) for r, o in zip(ranges, offsets)), default=0)


def _clashes(ranges: list[LiveRange], offsets: list[int]) -> bool:
    """Whether two ranges live at a common time (ours, in half steps where a prefetch may take a
    double buffer's freed tail) share bytes."""
    ends = [o + align(r.size, ALIGNMENT) for r, o in zip(ranges, offsets)]
    timed = _timed(ranges)
    near = neighbour_sets([r.first for r in timed], [r.last for r in timed],
                          [i for i, r in enumerate(ranges) if r.size > 0])
    return any(offsets[i] < ends[j] and offsets[j] < ends[i] for i, group in enumerate(near) for j in group)


@register_pass("npu-allocate", statistics=_STATISTICS)
class Allocate(Pass):
    """Give each tensor needing scratch storage an address in its memory area (``npu.alloc``,
    ``npu.arg_alloc``) and record per area the bytes used and the lower bound (``npu.usage``).

    Live ranges come from npu.time (npu-order) and the schedule's attributes (cascades' rolling
    buffers, weight streams); the allocator option picks Vela's hill-climb (default), greedy
    best fit, or linear allocation. Where a weight buffer prefetched under an op may take the
    bytes of that op's double buffer its last slice does not read (half steps, live_ranges.py),
    the ranges are also packed in half steps and that packing kept when it spans fewer bytes,
    with a remark for each buffer so placed. Errors when an area does not fit its hard limit (the
    arena cache size of a Dedicated_Sram fast storage, the address space); a warning when the
    shared fast storage exceeds the arena cache size (there a target, as in Vela)."""

    KNOBS = (SearchKnob("prefetch_overlap", (True,), "less SRAM, paid in cycles where a prefetch must wait"),)
    """The npu.schedule knob this pass reads, as the schedule search tries it."""

    PRESERVES = (WeightStreams, OpDescription, DominanceInfo)
    """The weight encodings, op descriptions and dominance stay valid: addresses (attributes)
    change neither weight values, operands, types nor control flow."""

    allocator: str = option("hillclimb", "how to pack live ranges: hillclimb | greedy | linear")
    prefetch_overlap: Literal["", "true", "false"] = option(
        "", "let a prefetched weight buffer share bytes the previous op frees, dropping a prefetch that then "
            "overlaps (empty: the module's npu.schedule)")

    def __post_init__(self) -> None:
        if self.allocator not in ALLOCATORS:
            raise PipelineError(f"option 'allocator' of pass 'npu-allocate' is one of {', '.join(ALLOCATORS)}, "
                                f"not '{self.allocator}'{suggest(self.allocator, ALLOCATORS)}")

    def run(self, module: Operation, ctx: PassContext) -> None:
        target = target_of(module)
        schedule = schedule_policy(module)
        # the option, or a schedule search's choice recorded in npu.schedule
        overlap = self.prefetch_overlap == "true" or (
            not self.prefetch_overlap and isinstance(schedule, ScheduleAttr) and schedule.prefetch_overlap)
        usage: dict[str, tuple[int, int]] = {}
        for block in list(graph_blocks(module)):
            try:
                order, _ = op_times(block)
                timed = all(isinstance(op.attr(TIME_ATTR), IntegerAttr) for op in order)
                ranges = live_ranges(block, target, prefetch_overlap=overlap and timed)
            except ValueError as err:  # an incomplete npu.time numbering
                ctx.error(f"cannot allocate: {err}", block.parent_op())
                return
            recorded = order if timed else None
            for area, used, bound in self._allocate_block(block, ranges, target, ctx, overlap, recorded):
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

    def _allocate_block(self, block: Block, ranges: list[LiveRange], target, ctx: PassContext,
                        overlap: bool = False, timed: list[Operation] | None = None) -> list[tuple[str, int, int]]:
        """Allocate one function's ranges area by area, write the attributes, check the limits;
        (area, used, bound) per area. With ``prefetch-overlap`` the prefetches are settled once
        the addresses are known, and the ranges written are those of the settled schedule: the
        order npu-order gives the function (``timed``: its recorded order) once it reads the
        prefetches taken back (``npu.unhidden``, ``npu.shares_tail``)."""
        areas = sorted({r.area for r in ranges})
        offset_of: dict[tuple[Value, bool], int] = {}  # (owner, second buffer) -> offset
        dropped: list[Operation] = []  # prefetched DMAs whose prefetch overlap dropped
        tails: list[Operation] = []  # prefetched DMAs whose buffers take a freed double-buffer tail
        for area in areas:
            chosen = [r for r in ranges if r.area == area]
            hard, soft = self._limits(area, target)
            limit = (soft or hard)[0]
            if overlap:
                packed = pack_with_overlap(chosen, lambda some: allocate_ranges(some, self.allocator, limit, hard[0]))
                offsets = packed.offsets
                dropped += apply_drops(packed, op_phrase, ctx)
                tails += _overlap_tail_sharers(packed.ranges, packed.tails, ctx)
            else:
                offsets = _pack(chosen, self.allocator, limit, hard[0])
                tails += _tail_sharers(chosen, offsets, ctx)
            offset_of.update(((r.owner, r.second), offset) for r, offset in zip(chosen, offsets))
        _mark_tail_sharers(block, tails, ctx)
        issued: list[Operation] | None = None
        if overlap or tails:
            # a prefetch into a freed tail is issued after the op it fills under (the interpreter
            # and the hardware copy when the DMA is issued; its transfer still runs under that op),
            # as is a dropped one: the ranges are planned for the times npu-order then gives
            if (dropped or tails) and timed is not None:
                issued = place_weight_dmas(timed)
            ranges = live_ranges(block, target, order=issued)  # as npu-check-schedule reads the settled schedule
        alloc: dict[Value, AllocAttr] = {}
        second: dict[Value, AllocAttr] = {}
        result = []
        for area in areas:
            chosen = [r for r in ranges if r.area == area]
            offsets = [offset_of[(r.owner, r.second)] for r in chosen]
            if overlap:
                _assert_disjoint(chosen, offsets)
            used = 0
            for r, offset in zip(chosen, offsets):
                reserve = align(r.size, ALIGNMENT)
                used = max(used, offset + reserve)
                attr = AllocAttr(area, offset, reserve, (r.first, r.last))
                for value in r.values:
                    (second if r.second else alloc)[value] = attr
            ctx.stat("ranges", len(chosen))
            bound = max(memory_usage(_timed(chosen), alignment=ALIGNMENT), default=0)
            result.append((area, used, bound))
            hard, soft = self._limits(area, target)
            self._check(block, chosen, area, used, hard, soft, ctx, issued)
        self._write(block, alloc, ctx)
        for op in block.ops:  # the second buffers of double-buffered weight streams
            if op.results and op.results[0] in second:
                if op.attr(SECOND_BUFFER_ATTR) != second[op.results[0]]:
                    ctx.rewriter.set_attr(op, SECOND_BUFFER_ATTR, second[op.results[0]])
            elif op.attr(SECOND_BUFFER_ATTR) is not None:
                ctx.rewriter.remove_attr(op, SECOND_BUFFER_ATTR)
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
               soft: tuple[int, str] | None, ctx: PassContext, order: list[Operation] | None = None) -> None:
        """Report an allocation of ``area`` above its limit, naming the op at the peak (in
        ``order``, the settled schedule's, when given)."""
        limit = hard if used > hard[0] else soft
        if limit is None or used <= limit[0]:
            return
        timed = _timed(ranges)
        usage = memory_usage(timed, alignment=ALIGNMENT)
        peak = max(usage, default=0)
        when = usage.index(peak) // (2 if timed is not ranges else 1) if usage else -1
        at_peak = op_at(block, when, order)
        where = f"while {op_phrase(at_peak)} runs" if at_peak is not None else "at the start"
        what = (f"the {area} allocation spans {used} bytes, more than the {limit[1]} of {limit[0]} bytes; "
                f"{peak} bytes are live at once {where}")
        anchor = at_peak if at_peak is not None else block.parent_op()
        if limit is hard:
            ctx.error(what, anchor)
        else:  # Vela too warns ("SRAM target exceeded") and goes on
            ctx.warning(what + f"; with the arena in {area}, the arena cache size is a target, not a limit, "
                        "so the schedule stands", anchor)

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
                new = ArrayAttr([alloc.get(r, AllocAttr(attr.area, 0, 0, (attr.first, attr.first)))
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
                    entry = AllocAttr(some.area if some is not None else "Sram", 0, 0, (0, 0))
                entries.append(entry)
            array = ArrayAttr(entries)
            if function.attr(ARG_ALLOC_ATTR) != array:
                ctx.rewriter.set_attr(function, ARG_ALLOC_ATTR, array)


# --- half steps ----------------------------------------------------------------------------------
def _pack(ranges: list[LiveRange], allocator: str, limit: int | None, hard_limit: int | None = None) -> list[int]:
    """Offsets for ``ranges`` (one area): packed on whole time indices, and where a prefetch may
    take bytes of a double buffer the op before no longer reads (``tail_sharing``) packed in half
    steps too, keeping that packing only when it spans fewer bytes (so schedules it does not
    improve keep their addresses)."""
    offsets = allocate_ranges(ranges, allocator, limit, hard_limit)
    if not tail_sharing(ranges):
        return offsets
    halved = allocate_ranges(in_half_steps(ranges), allocator, limit, hard_limit)

    def span(found: list[int]) -> int:
        return max((o + align(r.size, ALIGNMENT) for r, o in zip(ranges, found)), default=0)
    return halved if span(halved) < span(offsets) else offsets


def _timed(ranges: list[LiveRange]) -> list[LiveRange] | list[SimpleRange]:
    """``ranges`` in half steps where a prefetch may take the bytes of a double buffer the op
    before no longer reads in its last slice (``tail_sharing``), for the bytes live at once (as
    npu-check-schedule counts them); otherwise ``ranges`` itself."""
    return in_half_steps(ranges) if tail_sharing(ranges) else ranges


def _tail_sharers(ranges: list[LiveRange], offsets: list[int], ctx: PassContext) -> list[Operation]:
    """The DMAs whose prefetched weight buffer was placed over bytes of the previous op's double
    buffer that its last slice no longer reads (Vela's live ranges allow it; so do ours), each
    with a remark."""
    found: list[Operation] = []
    for early, late in tail_sharing(ranges):
        a, b = ranges[early], ranges[late]
        if offsets[early] < offsets[late] + align(b.size, ALIGNMENT) and offsets[late] < offsets[early] + align(
                a.size, ALIGNMENT):
            which = "second" if a.second else "first"
            ctx.remark(f"the prefetched weights of {_reader(b)} take bytes of the {which} buffer of {_reader(a)}'s "
                       "weights, which its last depth slice does not read: the prefetch runs under that slice, as "
                       "Vela's live ranges allow, and its DMA is issued after that op",
                       _dma_of(b))
            ctx.stat("prefetch-into-tail")
            dma = _dma_of(b)
            if dma is not None and dma not in found:
                found.append(dma)
    return found


def _dma_of(r: LiveRange) -> Operation | None:
    return r.owner.op if isinstance(r.owner, OpResult) else None


def _reader(r: LiveRange) -> str:
    """The op reading a weight buffer's DMA result, named for a remark."""
    dma = _dma_of(r)
    users = list(dma.results[0].users()) if dma is not None else []
    return op_phrase(users[0]) if users else "a weight DMA"


# --- prefetch overlap ------------------------------------------------------------------------------
def _assert_disjoint(ranges: list[LiveRange], offsets: list[int]) -> None:
    """Assert that no two of ``ranges`` (one area) live at a common time (in half steps where a
    prefetch takes a freed tail) share bytes: the settled prefetches must leave an allocation
    npu-check-schedule accepts (rule 3)."""
    timed = _timed(ranges)
    active: list[int] = []
    for i in sorted(range(len(ranges)), key=lambda i: timed[i].first):
        active = [j for j in active if timed[j].last >= timed[i].first]
        for j in active:
            r = ranges[i]
            assert not meets(r, offsets[i], ranges[j], offsets[j]), (
                f"prefetch-overlap left {tensor_name(r, op_phrase)} (live {r.first}..{r.last}) over "
                f"{tensor_name(ranges[j], op_phrase)} "
                f"(live {ranges[j].first}..{ranges[j].last})")
        active.append(i)


def _overlap_tail_sharers(ranges: list[LiveRange], tails: list[int], ctx: PassContext) -> list[Operation]:
    """The DMAs of the prefetched buffers prefetch-overlap's settling let take a freed
    double-buffer tail (``Settled.tails``), each with a remark."""
    found: list[Operation] = []
    for index in tails:
        dma = _dma_of(ranges[index])
        if dma is None or dma in found:
            continue
        ctx.remark(f"the prefetched weights of {_reader(ranges[index])} take bytes of a double buffer of the "
                   "previous op that its last depth slice does not read, as Vela's live ranges allow; the DMA "
                   "is issued after that op", dma)
        ctx.stat("prefetch-into-tail")
        found.append(dma)
    return found


def _mark_tail_sharers(block: Block, tails: list[Operation], ctx: PassContext) -> None:
    """``npu.shares_tail`` on the weight DMAs in ``tails`` and on no other op of ``block``: their
    prefetch is issued after the previous op (dialects/npu/dma_issue.py)."""
    chosen = set(tails)
    for op in block.ops:
        if op in chosen:
            if op.attr(SHARES_TAIL_ATTR) is None:
                ctx.rewriter.set_attr(op, SHARES_TAIL_ATTR, UNIT)
        elif op.attr(SHARES_TAIL_ATTR) is not None:
            ctx.rewriter.remove_attr(op, SHARES_TAIL_ATTR)


__all__ = ["ALIGNMENT", "ALLOCATORS", "Allocate", "allocate_ranges"]
