"""Op descriptions along the schedule pipeline: computed once where no pass changes what they read.

* ``placed`` (dialects/npu/perf/ir_adapter.py) gives what ``describe_op`` with a placement gives,
  from the op's description without overrides (reference: ``describe_op`` itself);
* npu-form-cascades and npu-allocate keep ``OpDescription`` cached (they only set attributes),
  npu-buffer-weights keeps it when it erased no DMA and drops it when an op now reads its
  weights in place (its description changes: reference, a fresh ``describe_op``).
"""
from __future__ import annotations

import io

import pytest

import npu_opt.dialects  # noqa: F401
import npu_opt.passes  # noqa: F401
from npu_opt.dialects.npu.perf.ir_adapter import OpDescription, describe_op, is_costed, placed
from npu_opt.dialects.npu.target_attr import target_of
from npu_opt.ir.analysis import AnalysisManager
from npu_opt.ir.core import Operation
from npu_opt.ir.diagnostics import DiagnosticEngine
from npu_opt.ir.pass_manager import PassManager
from npu_opt.ir.pass_registry import parse_pipeline
from npu_opt.passes.schedule.pipeline import REORDER_DMAS
from targeted_import import imported_with_target

FRONT = ("npu-legalize,npu-order,npu-format-nhcwb16,npu-place-tensors,npu-select-block-config,npu-insert-dma,"
         + REORDER_DMAS)
CONFIGS = {
    "shared": ("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram"),
    "dedicated": ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram"),
}


def _imported(model: str, config: str) -> Operation:
    return imported_with_target(model, *CONFIGS[config])


def _run(module: Operation, pipeline: str, analyses: AnalysisManager | None = None) -> AnalysisManager:
    engine = DiagnosticEngine(stream=io.StringIO())
    engine.show_remarks = False
    manager = PassManager(parse_pipeline(pipeline), engine, verify_each=True, analyses=analyses)
    manager.run(module)
    return manager.analyses


@pytest.mark.parametrize("model", ["conv", "elementwise", "branches", "kernels"])
def test_placed_equals_describing_with_the_placement(model: str) -> None:
    module = _imported(model, "dedicated")
    _run(module, FRONT)
    target = target_of(module)
    ops = [op for op in module.walk() if is_costed(op)]
    assert ops
    for op in ops:
        desc = describe_op(op, target)
        assert desc is not None
        values = [*op.operands, *op.results]
        for area in ("Sram", "OffChipFlash"):
            for value in values:  # each value alone, then all at once
                placement = {value: area}
                assert placed(op, desc, placement) == describe_op(op, target, placement=placement)
            everything = {value: area for value in values}
            assert placed(op, desc, everything) == describe_op(op, target, placement=everything)
        assert placed(op, desc, None) is desc


def _cached_descriptions(analyses: AnalysisManager, module: Operation) -> int:
    return sum(1 for op in module.walk() if analyses.cached(OpDescription, op) is not None)


def test_cascades_and_allocation_keep_descriptions() -> None:
    module = _imported("conv", "shared")
    analyses = _run(module, f"{FRONT},npu-buffer-weights")
    costed = sum(1 for op in module.walk() if is_costed(op))
    for op in module.walk():  # make sure every costed op's description is cached
        if is_costed(op):
            analyses.get(OpDescription, op)
    before = dict(analyses.computed)
    _run(module, "npu-form-cascades,npu-select-block-config,npu-allocate", analyses)
    assert analyses.computed["OpDescription"] == before["OpDescription"]
    assert _cached_descriptions(analyses, module) == costed


@pytest.mark.parametrize("limit, kept", [(0, True), (1, False)])
def test_buffer_weights_keeps_descriptions_unless_it_erases_a_dma(limit: int, kept: bool) -> None:
    module = _imported("conv", "shared")
    analyses = _run(module, FRONT)
    for op in module.walk():
        if is_costed(op):
            analyses.get(OpDescription, op)
    _run(module, f"npu-buffer-weights{{buffer-limit={limit}}}" if limit else "npu-buffer-weights", analyses)
    target = target_of(module)
    costed = [op for op in module.walk() if is_costed(op)]
    assert (_cached_descriptions(analyses, module) == len(costed)) is kept
    for op in costed:  # whatever is cached (or computed afresh) describes the IR as it is now
        assert analyses.get(OpDescription, op).desc == describe_op(op, target)
