"""The search's copies share the original's fast-storage profile while their IR is the original's
(passes/schedule/fast_storage_usage.py), and the decisions npu-buffer-weights remembers change no
schedule (passes/schedule/buffer_weights.py)."""
from __future__ import annotations

import io

import npu_opt.dialects  # noqa: F401
import npu_opt.passes  # noqa: F401
import npu_opt.passes.schedule.fast_storage_usage as usage_module
from npu_opt.dialects.npu.execution_order import graph_blocks
from npu_opt.dialects.npu.perf import ir_attrs
from npu_opt.dialects.npu.perf.weight_dma import arena_placement
from npu_opt.dialects.npu.target_attr import target_of
from npu_opt.ir.analysis import AnalysisManager
from npu_opt.ir.clone import clone
from npu_opt.ir.diagnostics import DiagnosticEngine
from npu_opt.ir.pass_manager import PassManager
from npu_opt.ir.pass_registry import parse_pipeline
from npu_opt.ir.printer import print_op
from npu_opt.passes.schedule import buffer_weights
from npu_opt.passes.schedule.costed_candidates import COSTED
from npu_opt.passes.schedule.fast_storage_usage import FastStorageUsage, fast_storage_profile
from npu_opt.passes.schedule.pipeline import SCHEDULE_HEAD
from targeted_import import imported_with_target

TARGET = ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram_384KB")


def _run(module, pipeline: str) -> None:
    PassManager(parse_pipeline(pipeline), DiagnosticEngine(stream=io.StringIO()), verify_each=True).run(module)


def test_a_copy_answers_with_the_profile_the_original_found_for_its_own_ops(monkeypatch) -> None:
    module = imported_with_target("branches", *TARGET)
    _run(module, SCHEDULE_HEAD)
    target = target_of(module)
    block = next(graph_blocks(module))
    arena = arena_placement([op for op in module.walk()], target)
    computed: list[object] = []
    real = usage_module.fast_storage_profile
    monkeypatch.setattr(usage_module, "fast_storage_profile", lambda *a: computed.append(a) or real(*a))
    original = AnalysisManager().get(FastStorageUsage, module)
    usage, times = original.profile(block, target, arena)
    copy = clone(module)
    shared = original.copied_to(copy, AnalysisManager())
    copied_usage, copied_times = shared.profile(copy.blocks[block], target, arena)
    assert len(computed) == 1  # (found once, for the original)
    assert copied_usage == usage and usage
    assert copied_times == {copy.ops[op]: time for op, time in times.items()}
    copy_arena = arena_placement([op for op in copy.root.walk()], target)
    assert (copied_usage, copied_times) == fast_storage_profile(copy.blocks[block], target, copy_arena)
    without, _ = shared.profile(copy.blocks[block], target, None)  # (without decide-in-arena: another profile)
    assert len(computed) == 2 and without != usage


def test_remembered_decisions_and_costs_change_no_schedule() -> None:
    def searched() -> str:
        module = imported_with_target("branches", *TARGET)
        _run(module, "schedule{sram-budget=30000 jobs=1}")
        return print_op(module)

    COSTED.clear()
    first = searched()
    assert buffer_weights._CHOSEN and ir_attrs._COSTS_MADE
    COSTED.clear()
    buffer_weights._CHOSEN.clear()
    ir_attrs._COSTS_MADE.clear()
    assert searched() == first
