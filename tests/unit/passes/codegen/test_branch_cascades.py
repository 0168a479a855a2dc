"""A residual block run as one cascade (cascade branches): the lowering issues every member's
stripes, pulling each producer a member reads (the branch point and the branch's last conv, for
the join) until its rows exist, as the scheduled executor does; the compiled model simulates as
the scheduled IR runs, and ethosu-estimate finds the scheduled ops again in the stream (two
equal convolutions interleave, rolling buffers wrap between stripes run back to back)."""
from __future__ import annotations

import functools

import numpy as np
import pytest

import npu_opt.dialects  # noqa: F401  (registers the dialects)
import npu_opt.passes  # noqa: F401  (registers the passes)
from npu_opt.dialects.npu.perf.ir_attrs import TOTALS_ATTR
from npu_opt.dialects.npu.schedule_attrs import CASCADE_ATTR, CascadeAttr
from npu_opt.dialects.tfl.tflite import export_tflite, import_tflite
from npu_opt.interpreters.scheduled import run_scheduled
from npu_opt.ir.interpreter import run_function
from npu_opt.ir.parser import parse_module
from npu_opt.ir.printer import print_op
from npu_opt.passes.codegen.pipeline import CODEGEN_PIPELINE
from npu_opt.tools import api
from residual_models import residual_text
from targeted_import import seeded_inputs

TARGETS = {
    "shared": ("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram", None),
    "u55-32": ("ethos-u55-32", "Ethos_U55_High_End_Embedded", "Shared_Sram", None),
    "u65-256": ("ethos-u65-256", "Ethos_U65_High_End", "Shared_Sram", None),
}


@functools.lru_cache(maxsize=None)
def _scheduled(target: str) -> str:
    accelerator, system, memory, arena = TARGETS[target]
    model = api.parse(residual_text(), "residual.mlir")
    model.set_target(accelerator, system_config=system, memory_mode=memory, arena_cache_size=arena)
    model.run("schedule{optimise=Size cascade-branches=true}")
    return model.text()


@functools.lru_cache(maxsize=None)
def _compiled(target: str) -> api.Model:
    """The code generation run on ``_scheduled(target)`` (once for both tests)."""
    compiled = api.parse(_scheduled(target), "scheduled.mlir")
    compiled.run(CODEGEN_PIPELINE)
    return compiled


def _branch_cascade(text: str) -> bool:
    """Some cascade holds a join and both the ops it reads."""
    module = parse_module(text, "scheduled.mlir")
    cascade_of = {id(op): op.attr(CASCADE_ATTR).id for op in module.walk()
                  if isinstance(op.attr(CASCADE_ATTR), CascadeAttr)}
    for op in module.walk():
        if op.name == "npu.add" and id(op) in cascade_of:
            producers = [v.op for v in op.operands if hasattr(v, "op")]
            if all(cascade_of.get(id(p)) == cascade_of[id(op)] for p in producers):
                return True
    return False


@pytest.mark.parametrize("target", list(TARGETS))
def test_a_residual_cascade_compiles_to_what_its_schedule_computes(target: str) -> None:
    text = _scheduled(target)
    assert _branch_cascade(text)
    written = import_tflite(export_tflite(_compiled(target).module), "compiled.tflite")
    scheduled = parse_module(text, "scheduled.mlir")
    inputs = seeded_inputs(next(op for op in scheduled.walk() if op.name == "func.func"), seed=3)
    simulated = run_function(written, inputs)
    expected = run_scheduled(scheduled, inputs)
    assert [np.asarray(a).tobytes() for a in simulated] == [np.asarray(b).tobytes() for b in expected]


@pytest.mark.parametrize("target", list(TARGETS))
def test_the_stream_costs_what_the_schedule_costs(target: str) -> None:
    """ethosu-estimate regroups the stripes into the scheduled ops: its total is the schedule's
    estimate within 0.5 %, and it sees as many ops."""
    text = _scheduled(target)
    scheduled = parse_module(text, "scheduled.mlir")
    compiled = _compiled(target)
    ours, theirs = scheduled.attr(TOTALS_ATTR), compiled.module.attr(TOTALS_ATTR)
    assert abs(theirs.cycle("total") / ours.cycle("total") - 1) < 0.005, (theirs.cycle("total"), ours.cycle("total"))
    costed = [op for op in compiled.module.walk() if op.name.startswith("ethosu.") and op.attr("npu.cost") is not None]
    computing = [op for op in scheduled.walk() if op.name.startswith("npu.") and op.attr("npu.cost") is not None]
    assert len(costed) == len(computing), print_op(compiled.module)[:2000]
