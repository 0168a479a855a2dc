"""Every model the repo ships schedules, on a shared-SRAM and a small dedicated-SRAM target and
with both strategies (or, for the listed cases, reports in one diagnostic that its arena does not fit);
the printed schedule parses back to the same text and npu-check-schedule finds nothing wrong with it."""
from __future__ import annotations

from pathlib import Path

import pytest

import npu_opt.dialects  # noqa: F401
import npu_opt.passes  # noqa: F401
from npu_opt.ir.parser import parse_module
from npu_opt.ir.printer import print_op
from targeted_import import imported_with_target, run_pipeline

DATA = Path(__file__).resolve().parents[3] / "data"
MODELS = sorted(p.stem for p in DATA.glob("*.tflite"))
TARGETS = {
    "shared": ("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram", None),
    "dedicated-16k": ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram", 16384),
}
# The cases whose arena does not fit the target's fast storage: one diagnostic with the bytes needed.
DOES_NOT_FIT = {
    ("wide_image", "dedicated-16k", "Size"):
        "the Sram allocation spans 18432 bytes, more than the arena cache size of 16384 bytes",
}


@pytest.mark.parametrize("strategy", ["Performance", "Size"])
@pytest.mark.parametrize("target", sorted(TARGETS))
@pytest.mark.parametrize("model", MODELS)
def test_model_schedules_and_passes_the_checker(model: str, target: str, strategy: str) -> None:
    accel, system, mode, cache = TARGETS[target]
    module = imported_with_target(model, accel, system, mode, cache)
    errors = run_pipeline(module, f"schedule{{optimise={strategy}}}")
    expected = DOES_NOT_FIT.get((model, target, strategy))
    if expected is not None:
        assert errors.count("error:") == 1 and expected in errors, errors
        return
    assert not errors, errors
    text = print_op(module)
    again = parse_module(text, f"{model}.mlir")
    assert print_op(again) == text, "print(parse(x)) is not a fixed point on the scheduled IR"
    assert run_pipeline(again, "npu-check-schedule") == ""
