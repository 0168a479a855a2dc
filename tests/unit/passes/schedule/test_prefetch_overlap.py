"""npu-allocate{prefetch-overlap=true} on every model of tests/data: the schedules it settles
(prefetches kept live from the previous op, dropped ones issued after it) pass
npu-check-schedule, and the scheduled interpreter, which reads every tensor at its allocated
bytes, computes what the plain interpreter computes on the legalised model; so a buffer placed
over bytes the previous op frees never corrupts data. The dropped prefetches are costed
un-hidden: against the same IR with ``npu.unhidden`` taken off, each reader costs more."""
from __future__ import annotations

import functools
import io
from pathlib import Path

import numpy as np
import pytest

import npu_opt.dialects  # noqa: F401
import npu_opt.passes  # noqa: F401
from npu_opt.dialects.npu.perf.ir_attrs import COST_ATTR
from npu_opt.dialects.npu.perf.weight_dma import is_prefetched
from npu_opt.dialects.npu.schedule_policy import schedule_policy
from npu_opt.dialects.npu.schedule_attrs import STREAM_ATTR, UNHIDDEN_ATTR, USAGE_ATTR, StreamAttr
from npu_opt.interpreters.scheduled import run_scheduled
from npu_opt.ir.diagnostics import DiagnosticEngine
from npu_opt.ir.interpreter import run_function
from npu_opt.ir.parser import parse_module
from npu_opt.ir.pass_manager import PassFailure, PassManager
from npu_opt.ir.pass_registry import parse_pipeline
from npu_opt.ir.printer import print_op
from targeted_import import imported_with_target, seeded_inputs

DATA = Path(__file__).resolve().parents[3] / "data"
MODELS = sorted(p.stem for p in DATA.glob("*.tflite"))
TARGETS = {
    "shared": ("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram"),
    "dedicated": ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram_384KB"),
}
OVERLAP = "schedule{optimise=Performance prefetch-overlap=true}"
NO_KERNEL = {"custom": "a CUSTOM operator", "generic": "GATHER, outside the tfl dialect"}
"""Models holding an operator no interpreter can run: only their schedules are checked."""


def _run(module, pipeline: str) -> str:
    """Run ``pipeline`` on ``module``; the diagnostics printed (errors raise PassFailure)."""
    stream = io.StringIO()
    engine = DiagnosticEngine(stream=stream)
    engine.show_remarks = False
    PassManager(parse_pipeline(pipeline), engine).run(module)
    return stream.getvalue()


@functools.lru_cache(maxsize=None)
def _printed(model: str, pipeline: str, target: str) -> str:
    module = imported_with_target(model, *TARGETS[target])
    _run(module, pipeline)
    return print_op(module)


def _function(module):
    return next(op for op in module.walk() if op.name == "func.func")


def _dmas(module) -> list:
    return [op for op in module.walk() if op.name == "npu.dma" and isinstance(op.attr(STREAM_ATTR), StreamAttr)]


@pytest.mark.parametrize("target", sorted(TARGETS))
@pytest.mark.parametrize("model", MODELS)
def test_overlapping_prefetches_schedule_check_and_run_as_the_legalised_model(model: str, target: str):
    text = _printed(model, OVERLAP, target)
    scheduled = parse_module(text, f"{model}.mlir")
    try:
        _run(parse_module(text, f"{model}.mlir"), "npu-check-schedule")
    except PassFailure as failure:  # pragma: no cover - the message is the point
        pytest.fail(f"npu-check-schedule rejects {model} ({target}) with prefetch-overlap: {failure}")
    for dma in _dmas(scheduled):  # a DMA marked unhidden was prefetched (its stream says so) and is no more
        assert dma.attr(UNHIDDEN_ATTR) is None or (dma.attr(STREAM_ATTR).prefetch and not is_prefetched(dma))
    if model in NO_KERNEL:
        return
    reference = parse_module(_printed(model, "estimate", target), f"{model}.mlir")
    inputs = seeded_inputs(_function(reference))
    expected = run_function(reference, inputs)
    got = run_scheduled(scheduled, inputs)
    assert len(got) == len(expected)
    for index, (a, b) in enumerate(zip(got, expected)):
        assert a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes(), \
            f"output #{index}: {np.count_nonzero(a != b)} of {a.size} elements differ"


def _reader_cycles(module) -> dict[str, float]:
    """Total cycles of each reader of an ``npu.unhidden`` weight DMA, by its name."""
    return {reader.attr("name").value: reader.attr(COST_ATTR).cycle("total")
            for dma in _dmas(module) if dma.attr(UNHIDDEN_ATTR) is not None for reader in dma.results[0].users()}


@pytest.mark.parametrize("model", ["int16", "kernels", "dilation"])
def test_a_dropped_prefetch_is_costed_without_the_previous_ops_slack(model: str):
    # The same IR with npu.unhidden taken off (the transfer hidden under the previous op as a
    # prefetch's would be) costs each reader of a dropped prefetch less, and nothing else changes.
    text = _printed(model, OVERLAP, "shared")
    assert "npu.unhidden" in text, "this model has no dropped prefetch any more: pick another"
    dropped = parse_module(text, f"{model}.mlir")
    _run(dropped, "npu-estimate")
    hidden = parse_module(text.replace(", npu.unhidden", "").replace("npu.unhidden, ", ""), f"{model}.mlir")
    _run(hidden, "npu-estimate")
    assert "npu.unhidden" not in print_op(hidden)
    slower = _reader_cycles(dropped)
    assert slower
    costs = {op.attr("name").value: op.attr(COST_ATTR).cycle("total") for op in hidden.walk()
             if op.attr(COST_ATTR) is not None and op.attr("name") is not None}
    for name, cycles in slower.items():
        assert cycles > costs[name], (name, cycles, costs[name])
    for op in dropped.walk():  # every other op costs the same
        if op.attr(COST_ATTR) is not None and op.attr("name") is not None and op.attr("name").value not in slower:
            assert op.attr(COST_ATTR).cycle("total") == costs[op.attr("name").value], op.attr("name").value


def _sram_used(text: str, model: str) -> int:
    module = parse_module(text, f"{model}.mlir")
    usage = module.attr(USAGE_ATTR)
    return next(used for area, used, _ in usage.areas if area == "Sram")


def test_size_lets_prefetched_buffers_share_freed_bytes_by_default():
    # Under Size, npu-form-cascades writes prefetch_overlap into npu.policy and npu-allocate
    # follows it: cpu_middle in a shared SRAM takes no more bytes than with the option off. Vela's
    # placement puts a prefetched buffer over the bytes of a double buffer the op before no longer
    # reads in its last slice: the settling keeps that prefetch (its DMA shares the tail, issued
    # after that op) rather than dropping it, as the half steps do with the option off, so both
    # give the same schedule. The default is the same schedule as the option on.
    size = _printed("cpu_middle", "schedule{optimise=Size}", "shared")
    module = parse_module(size, "cpu_middle.mlir")
    assert schedule_policy(module).prefetch_overlap
    assert size == _printed("cpu_middle", "schedule{optimise=Size prefetch-overlap=true}", "shared")
    kept = _printed("cpu_middle", "schedule{optimise=Size prefetch-overlap=false}", "shared")
    assert _sram_used(size, "cpu_middle") <= _sram_used(kept, "cpu_middle")
    assert "npu.shares_tail" in size and "npu.unhidden" not in size


@pytest.mark.parametrize("model", ["cpu_middle", "weight_stream"])
def test_performance_keeps_every_prefetch_by_default(model: str):
    default = _printed(model, "schedule", "shared")
    assert not schedule_policy(parse_module(default, f"{model}.mlir")).prefetch_overlap
    assert default == _printed(model, "schedule{prefetch-overlap=false}", "shared")
    assert "npu.unhidden" not in default


def test_a_new_strategy_brings_its_own_prefetch_policy():
    # A module scheduled for Performance (no overlap) scheduled again for Size takes Size's policy;
    # one whose npu.schedule already names the strategy keeps its flag (a search's choice).
    again = parse_module(_printed("cpu_middle", "schedule", "shared"), "cpu_middle.mlir")
    _run(again, "npu-form-cascades{optimise=Size}")
    assert schedule_policy(again).prefetch_overlap
    kept = parse_module(_printed("cpu_middle", "schedule", "shared"), "cpu_middle.mlir")
    _run(kept, "npu-form-cascades")
    assert not schedule_policy(kept).prefetch_overlap
