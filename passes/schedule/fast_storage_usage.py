"""Fast-storage bytes live at each time of a function without its weight buffers, as an analysis
of the module, so a schedule search's copies compute it once while their IR is the original's.

npu-buffer-weights decides each weight DMA against this profile (Vela's memory snapshot). Each
candidate of a search runs the later passes on a copy of the module, and the first
npu-buffer-weights of most copies sees exactly the original's IR (npu-width-bands and npu-order
changed nothing), so the copies share the original's profiles, keyed by the original's blocks.
Any pass that changes the IR drops the analysis (no pass preserves it but the search, which
writes module attributes only), after which a copy computes its own.

Design notes: docs/schedule_search.md, section Caches."""
from __future__ import annotations

from npu_opt.ir.analysis import Analysis, AnalysisManager
from npu_opt.ir.clone import Clone
from npu_opt.ir.core import Block, Operation, Value
from npu_opt.passes.schedule.live_ranges import live_ranges, memory_usage, op_times

Profile = tuple[list[int], dict[Operation, int]]
"""Bytes live at each time (empty when the function is not consistently timed) and each op's time."""


def fast_storage_profile(block: Block, target, arena: dict[Value, str] | None) -> Profile:
    """The fast-storage bytes live at each time of ``block`` on ``target`` (a ``Target``),
    weight buffers left out, and each op's time. With ``arena`` (decide-in-arena) the feature
    maps moved to fast storage count as in the arena; a cascade's rolling buffers always count."""
    try:
        _, times = op_times(block)
        ranges = live_ranges(block, target)
    except ValueError:  # not consistently timed: npu-buffer-weights reports it elsewhere
        return [], {}
    fast, moved = target.fast_storage_area, arena or {}
    kept = [r for r in ranges if r.area == fast and r.kind != "weights"
            and (r.kind == "rolling" or not any(v in moved for v in r.values))]
    return memory_usage(kept, fast, alignment=16, length=max(times.values(), default=-1) + 1), times


class FastStorageUsage(Analysis):
    """``fast_storage_profile`` of each function body of the anchor module, per decide-in-arena
    setting, computed once; shared with the module's copies (``copied_to``) op for op."""

    def __init__(self, module: Operation, manager: AnalysisManager) -> None:
        super().__init__(module, manager)
        self._found: dict[tuple[Block, bool], Profile] = {}
        """Profiles by the original's block, its ops as times' keys."""
        self._original_block: dict[Block, Block] = {}
        self._original_op: dict[Operation, Operation] = {}
        self._copied_op: dict[Operation, Operation] = {}
        """For the analysis of a copy: its blocks' and ops' originals, and the ops' copies."""

    def profile(self, block: Block, target, arena: dict[Value, str] | None) -> Profile:
        """``fast_storage_profile(block, target, arena)``; ``arena`` is a function of the IR, so
        only whether one is given is part of the key."""
        key = (self._original_block.get(block, block), arena is not None)
        found = self._found.get(key)
        if found is None:
            usage, times = fast_storage_profile(block, target, arena)
            found = self._found[key] = (usage, {self._original_op.get(op, op): t for op, t in times.items()})
        usage, times = found
        if not self._copied_op:
            return usage, times
        return usage, {self._copied_op[op]: t for op, t in times.items()}

    def copied_to(self, copy: Clone, manager: AnalysisManager) -> "FastStorageUsage":
        """This analysis for ``copy.root``, an unchanged copy of this one's module (ir/clone.py),
        sharing the profiles found so far and those either finds later."""
        moved = FastStorageUsage(copy.root, manager)
        moved._found = self._found
        moved._original_block = {new: self._original_block.get(old, old) for old, new in copy.blocks.items()}
        moved._original_op = {new: self._original_op.get(old, old) for old, new in copy.ops.items()}
        moved._copied_op = {original: new for new, original in moved._original_op.items()}
        return moved


__all__ = ["FastStorageUsage", "Profile", "fast_storage_profile"]
