"""Block configs chosen for the fewest estimated cycles (npu-select-block-config{choose=cycles},
npu.schedule's fastest_blocks): never slower than Vela's block for the op as the chooser sees
it, schedules that pass npu-check-schedule and compute what the legalised model computes, the
IR flag doing what the option does, and the schedule search offering it as a knob."""
from __future__ import annotations

import pytest

import npu_opt.dialects  # noqa: F401
import npu_opt.passes  # noqa: F401
from npu_opt.hardware.perf.arch import perf_target
from npu_opt.hardware.perf.block_choice import fastest_block_config
from npu_opt.hardware.perf.block_config import select_block_config
from npu_opt.hardware.perf.estimate import estimate_op
from npu_opt.dialects.npu.perf.ir_adapter import OpDescription, is_costed
from npu_opt.dialects.npu.perf.ir_attrs import BLOCK_ATTR
from npu_opt.dialects.npu.schedule_attrs import SCHEDULE_ATTR, SEARCH_ATTR, ScheduleAttr
from npu_opt.dialects.npu.target_attr import target_of
from npu_opt.ir.analysis import AnalysisManager
from targeted_import import MODELS, check_scheduled, imported_with_target, run_pipeline

SHARED = ("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram")
DEDICATED = ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram_384KB")
CHOOSER_MODELS = ["conv", "kernels", "weight_stream", "branches", "dilation", "odd_channels"]


@pytest.mark.parametrize("target", [SHARED, DEDICATED], ids=["shared", "dedicated"])
@pytest.mark.parametrize("model", CHOOSER_MODELS)
def test_the_fastest_block_is_never_slower_than_velas(model: str, target: tuple[str, str, str]):
    module = imported_with_target(model, *target)
    assert run_pipeline(module, "npu-legalize,npu-order,npu-format-nhcwb16,npu-place-tensors") == ""
    perf = perf_target(target_of(module))
    analyses = AnalysisManager()
    tried = 0
    for op in module.walk():
        desc = analyses.get(OpDescription, op).desc if is_costed(op) else None
        if desc is None or desc.block_type is None:
            continue
        vela = select_block_config(desc, perf.accel)
        assert vela is not None
        chosen = fastest_block_config(perf, (desc,), vela)
        assert estimate_op(perf, desc, chosen).total_cycles <= estimate_op(perf, desc, vela).total_cycles
        if chosen is not vela:  # only for a strict gain
            assert estimate_op(perf, desc, chosen).total_cycles < estimate_op(perf, desc, vela).total_cycles
        tried += 1
    assert tried


@pytest.mark.parametrize("target", [SHARED, DEDICATED], ids=["shared", "dedicated"])
@pytest.mark.parametrize("model", MODELS)
def test_schedules_with_fastest_blocks_check_and_compute_as_the_legalised_model(model: str,
                                                                              target: tuple[str, str, str]):
    check_scheduled(model, target, "schedule{choose=cycles}")


def _total_cycles(module) -> float:
    from npu_opt.dialects.npu.perf.ir_attrs import TOTALS_ATTR
    return module.attr(TOTALS_ATTR).cycle("total")


def test_the_flag_in_npu_schedule_does_what_the_option_does():
    by_option = imported_with_target("kernels", *SHARED)
    assert run_pipeline(by_option, "schedule{choose=cycles}") == ""
    by_flag = imported_with_target("kernels", *SHARED)
    assert run_pipeline(by_flag, "npu-legalize,npu-order,npu-format-nhcwb16,npu-place-tensors{check-limit=false}") == ""
    arena = target_of(by_flag).arena_cache_size
    by_flag.attributes[SCHEDULE_ATTR] = ScheduleAttr("Performance", arena, arena).replaced(fastest_blocks=True)
    from npu_opt.passes.schedule.pipeline import SCHEDULE_TAIL

    head_end = "npu-select-block-config,npu-insert-dma,npu-order{dmas-only=true},"
    assert run_pipeline(by_flag, head_end + SCHEDULE_TAIL) == ""
    blocks = [[op.attr(BLOCK_ATTR) for op in m.walk() if op.attr(BLOCK_ATTR) is not None] for m in (by_option, by_flag)]
    assert blocks[0] == blocks[1]
    plain = imported_with_target("kernels", *SHARED)
    assert run_pipeline(plain, "schedule") == ""
    assert blocks[0] != [op.attr(BLOCK_ATTR) for op in plain.walk() if op.attr(BLOCK_ATTR) is not None]
    assert _total_cycles(by_option) < _total_cycles(plain)


def test_the_search_tries_fastest_blocks_and_keeps_them_where_they_win():
    module = imported_with_target("kernels", *SHARED)
    assert run_pipeline(module, "schedule{sram-budget=100000}") == ""
    schedule, search = module.attr(SCHEDULE_ATTR), module.attr(SEARCH_ATTR)
    assert schedule.fastest_blocks
    chosen = search.points[search.chosen]
    assert "fastest_blocks" in chosen.flags
    assert _total_cycles(module) == pytest.approx(chosen.cycles, abs=1)


def test_weight_slices_stay_whole_16_channel_units_under_shallow_blocks():
    # The fastest block of an op on a small NPU can be 4 or 8 channels deep; its weight slices
    # are whole blocks and whole 16-channel units (npu-check-schedule's rule 6), found by
    # scheduling wide_batch (a 300-channel conv) on the U55-32 and U55-64.
    from npu_opt.hardware.perf.weight_buffering import slice_unit

    assert [slice_unit(d) for d in (4, 8, 16, 32, 48, 64)] == [16, 16, 16, 32, 48, 64]
    for accelerator in ("ethos-u55-32", "ethos-u55-64"):
        check_scheduled("wide_batch", (accelerator,), "schedule{choose=cycles}")
