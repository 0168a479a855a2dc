"""Cascade joins (``npu-form-cascades{cascade-joins}``, ``#npu.schedule<..., cascade_joins>``): a
binary elementwise op of two feature maps may be a cascade member, reading its second feature map
stripe by stripe from the whole tensor. Models with residual adds, scheduled with the knob on the
two targets of test_schedule_models.py, must pass npu-check-schedule and give exactly the
legalised run's outputs when run stripe by stripe in their modelled memory."""
from __future__ import annotations

import functools

import numpy as np
import pytest

import npu_opt.dialects  # noqa: F401
import npu_opt.passes  # noqa: F401
from npu_opt.dialects.npu.ops_common import is_constant
from npu_opt.dialects.npu.schedule_policy import schedule_policy
from npu_opt.dialects.npu.schedule_attrs import ALLOC_ATTR, CASCADE_ATTR, AllocAttr, CascadeAttr
from npu_opt.interpreters.scheduled import run_scheduled
from npu_opt.ir.interpreter import run_function
from npu_opt.ir.parser import parse_module
from npu_opt.ir.printer import print_op
from targeted_import import imported_with_target, run_pipeline, seeded_inputs

TARGETS = {
    "shared": ("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram", None),
    "dedicated-16k": ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram", 16384),
}
BINARY = ("npu.add", "npu.sub", "npu.mul", "npu.minimum", "npu.maximum")
MODELS = ["branches", "cpu_middle", "elementwise", "int16_elementwise"]
"""tests/data models with an elementwise op of two feature maps (branches: a residual block)."""


@functools.lru_cache(maxsize=None)
def _scheduled(model: str, target: str, strategy: str, joins: bool) -> str:
    """``model`` scheduled on ``target``, printed (each test parses its own copy)."""
    module = imported_with_target(model, *TARGETS[target])
    option = " cascade-joins=true" if joins else ""
    errors = run_pipeline(module, f"schedule{{optimise={strategy}{option}}}")
    assert not errors, errors
    return print_op(module)


def _func(module):
    return next(op for op in module.walk() if op.name == "func.func")


def _joins(module) -> list:
    """Cascade members that read two feature maps (neither a constant)."""
    return [op for op in _func(module).regions[0].entry.ops
            if op.name in BINARY and isinstance(op.attr(CASCADE_ATTR), CascadeAttr)
            and not any(is_constant(v) for v in op.operands)]


@pytest.mark.parametrize("strategy", ["Performance", "Size"])
@pytest.mark.parametrize("target", sorted(TARGETS))
@pytest.mark.parametrize("model", MODELS)
def test_joined_schedule_checks_and_runs_like_the_legalised_model(model: str, target: str, strategy: str) -> None:
    module = parse_module(_scheduled(model, target, strategy, True), f"{model}.mlir")
    assert schedule_policy(module).cascade_joins
    assert run_pipeline(module, "npu-check-schedule") == ""
    reference = imported_with_target(model, *TARGETS[target])
    assert run_pipeline(reference, "estimate") == ""
    inputs = seeded_inputs(_func(reference))
    expected = run_function(reference, inputs)
    got = run_scheduled(module, inputs)
    assert len(got) == len(expected)
    for index, (a, b) in enumerate(zip(got, expected)):
        assert a.shape == b.shape and a.dtype == b.dtype
        assert a.tobytes() == b.tobytes(), f"output #{index}: {np.count_nonzero(a != b)} of {a.size} elements differ"


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_the_residual_adds_join_only_with_the_knob(target: str) -> None:
    joined = parse_module(_scheduled("branches", target, "Size", True), "branches.mlir")
    plain = parse_module(_scheduled("branches", target, "Size", False), "branches.mlir")
    assert "join" in [op.attr("name").value for op in _joins(joined)]
    assert _joins(plain) == []
    assert not schedule_policy(plain).cascade_joins


def test_a_joins_second_operand_must_stay_live_until_its_cascade_ends() -> None:
    # On the dedicated target 'join' and 'residual' are in one cascade: 'join' reads the whole
    # OFM of 'right_project' at every stripe until 'residual' (the cascade's last op) has run.
    module = parse_module(_scheduled("branches", "dedicated-16k", "Size", True), "branches.mlir")
    ops = list(_func(module).regions[0].entry.ops)
    join = next(op for op in ops if op.attr("name") is not None and op.attr("name").value == "join")
    cascade = join.attr(CASCADE_ATTR)
    end = max(op.attr("npu.time").value for op in ops
              if isinstance(op.attr(CASCADE_ATTR), CascadeAttr) and op.attr(CASCADE_ATTR).id == cascade.id)
    join_time = join.attr("npu.time").value
    assert end > join_time
    second = join.operands[1].op
    alloc = second.attr(ALLOC_ATTR)
    assert isinstance(alloc, AllocAttr) and alloc.last >= end
    second.attributes[ALLOC_ATTR] = AllocAttr(alloc.area, alloc.offset, alloc.size, (alloc.first, join_time))
    errors = run_pipeline(module, "npu-check-schedule")
    assert f"is live until time {join_time}, before its last reader at time {end}" in errors
