"""Each IR fact (an ``npu.*`` discardable attribute) has its one writer listed here: the pass that sets
or removes it through the rewriter (or inserts an op carrying it) while the schedule pipelines run on
tests/data models. A pass that starts writing a fact another pass owns fails this test."""
from __future__ import annotations

import functools

import pytest

import npu_opt.dialects  # noqa: F401
import npu_opt.passes  # noqa: F401
from npu_opt.ir.core import Operation
from npu_opt.ir.pass_manager import PassManager
from npu_opt.ir.rewriter import Rewriter
from npu_opt.passes.schedule.pipeline import SCHEDULE_HEAD, SCHEDULE_TAIL
from targeted_import import imported_with_target, run_pipeline

WRITERS: dict[str, str] = {
    "npu.time": "npu-order",
    "npu.placement": "npu-legalize",
    "npu.fusable_activation": "npu-legalize",
    "npu.block": "npu-select-block-config",
    "npu.band": "npu-width-bands",
    "npu.stripe": "npu-form-cascades",
    "npu.cascade": "npu-form-cascades",
    "npu.search": "npu-search-schedule",
    "npu.schedule": "npu-search-schedule",
    "npu.policy": "npu-form-cascades",
    "npu.alloc": "npu-allocate",
    "npu.arg_alloc": "npu-allocate",
    "npu.second_buffer": "npu-allocate",
    "npu.unhidden": "npu-allocate",
    "npu.shares_tail": "npu-allocate",
    "npu.stream": "npu-buffer-weights",
    "npu.usage": "npu-allocate",
    "npu.cost": "npu-estimate",
    "npu.cost_totals": "npu-estimate",
}
"""Every fact and the one pass that decides it. (Weight DMAs are issued where the facts of the
passes deciding them say, but only npu-order numbers them: dialects/npu/dma_issue.py.)"""

TARGETS = {
    "shared": ("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram"),
    "dedicated": ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram", 16384),
}
RUNS = [
    ("weight_stream", "shared", "schedule{optimise=Performance prefetch-overlap=true}"),
    ("weight_stream", "shared", "schedule{optimise=Size}"),
    ("kernels", "shared", "schedule{optimise=Performance prefetch-overlap=true}"),  # a prefetch taken back
    ("branches", "dedicated", "schedule{sram-budget=100000000}"),
    ("cpu_middle", "shared", "schedule"),
    ("elementwise", "shared", "schedule"),
    ("kernels", "dedicated",
     SCHEDULE_HEAD + "," + SCHEDULE_TAIL.replace("npu-width-bands", "npu-width-bands{bands=2}", 1)),
]
"""Models, targets and pipelines that together make every pass write what it writes."""


def _root(op: Operation) -> Operation:
    while (parent := op.parent_op()) is not None:
        op = parent
    return op


@functools.lru_cache(maxsize=None)
def _observed() -> dict[str, frozenset[str]]:
    """The passes seen writing each ``npu.*`` attribute over ``RUNS`` (the search's scratch
    copies included: there the passes of the schedule tail write)."""
    found: dict[str, set[str]] = {}
    running: dict[int, str] = {}  # id of a module being run -> the pass running on it

    class Recorder:
        def before_pass(self, pass_, module: Operation) -> None:
            running[id(module)] = pass_.NAME

        def after_pass(self, pass_, module: Operation, ctx) -> None:
            pass

    def note(op: Operation, name: str) -> None:
        if name.startswith("npu."):
            found.setdefault(name, set()).add(running.get(id(_root(op)), "(no pass)"))

    patch = pytest.MonkeyPatch()
    init, set_attr, remove_attr = PassManager.__init__, Rewriter.set_attr, Rewriter.remove_attr
    insert_before, insert_after = Rewriter.insert_before, Rewriter.insert_after

    def recorded_init(self, *args, **kwargs) -> None:
        init(self, *args, **kwargs)
        self.instrumentations = [*self.instrumentations, Recorder()]

    def recorded_insert(insert):
        def wrapper(self, op: Operation, anchor: Operation) -> Operation:
            inserted = insert(self, op, anchor)
            for name in op.attributes:
                note(op, name)
            return inserted
        return wrapper

    patch.setattr(PassManager, "__init__", recorded_init)
    patch.setattr(Rewriter, "set_attr", lambda self, op, name, attr: (note(op, name), set_attr(self, op, name, attr))[1])
    patch.setattr(Rewriter, "remove_attr", lambda self, op, name: (note(op, name), remove_attr(self, op, name))[1])
    patch.setattr(Rewriter, "insert_before", recorded_insert(insert_before))
    patch.setattr(Rewriter, "insert_after", recorded_insert(insert_after))
    try:
        for model, target, pipeline in RUNS:
            errors = run_pipeline(imported_with_target(model, *TARGETS[target]), pipeline)
            assert errors == "", f"{model} ({target}) {pipeline}: {errors}"
    finally:
        patch.undo()
    return {name: frozenset(passes) for name, passes in found.items()}


def test_every_fact_has_the_writers_listed() -> None:
    expected = {name: frozenset({writer}) for name, writer in WRITERS.items()}
    observed = _observed()
    unlisted = {name: sorted(passes) for name, passes in observed.items() if name not in expected}
    assert not unlisted, f"facts without an entry in WRITERS: {unlisted}"
    extra = {name: sorted(passes - expected[name]) for name, passes in observed.items() if passes - expected[name]}
    assert not extra, f"facts written by a pass that does not own them: {extra}"


def test_the_runs_exercise_every_listed_writer() -> None:
    # (so a fact whose writer stopped writing it, or a run that stopped reaching it, is noticed)
    expected = {name: frozenset({writer}) for name, writer in WRITERS.items()}
    observed = _observed()
    missing = {name: sorted(passes - observed.get(name, frozenset())) for name, passes in expected.items()
               if passes - observed.get(name, frozenset())}
    assert not missing, f"listed writers not seen writing: {missing}"

