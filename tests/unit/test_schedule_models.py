"""Every model the repo ships schedules, on a shared-SRAM and a small dedicated-SRAM target and
with both strategies; the printed schedule parses back to the same text, and npu-check-schedule
(written from the rules, not from the passes) finds nothing wrong with it."""
from __future__ import annotations

from pathlib import Path

import pytest

import npu_opt.dialects  # noqa: F401
import npu_opt.passes  # noqa: F401
from npu_opt.ir.parser import parse_module
from npu_opt.ir.printer import print_op
from targeted_import import imported_with_target, run_pipeline

DATA = Path(__file__).resolve().parents[1] / "data"
MODELS = sorted(p.stem for p in DATA.glob("*.tflite"))
TARGETS = {
    "shared": ("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram", None),
    "dedicated-16k": ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram", 16384),
}


@pytest.mark.parametrize("strategy", ["Performance", "Size"])
@pytest.mark.parametrize("target", sorted(TARGETS))
@pytest.mark.parametrize("model", MODELS)
def test_model_schedules_and_passes_the_checker(model: str, target: str, strategy: str) -> None:
    accel, system, mode, cache = TARGETS[target]
    module = imported_with_target(model, accel, system, mode, cache)
    errors = run_pipeline(module, f"schedule{{optimise={strategy}}}")
    if "more than the arena cache size" in errors:
        pytest.skip(f"{model} does not fit {cache} bytes of fast storage (reported as one error): {errors[:200]}")
    assert not errors, errors
    text = print_op(module)
    again = parse_module(text, f"{model}.mlir")
    assert print_op(again) == text, "print(parse(x)) is not a fixed point on the scheduled IR"
    assert run_pipeline(again, "npu-check-schedule") == ""
