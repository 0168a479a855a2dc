"""Scheduled tests/data models, printed once per (model, pipeline, target) and parsed again per
test, and the plain interpreter's outputs to compare their stripe-by-stripe runs with."""
from __future__ import annotations

import functools
import io
from pathlib import Path

import numpy as np

import npu_opt.dialects  # noqa: F401
import npu_opt.passes  # noqa: F401
from npu_opt.ir.diagnostics import DiagnosticEngine
from npu_opt.ir.interpreter import run_function
from npu_opt.ir.parser import parse_module
from npu_opt.ir.pass_manager import PassManager
from npu_opt.ir.pass_registry import parse_pipeline
from npu_opt.ir.printer import print_op
from targeted_import import imported_with_target, seeded_inputs

DATA = Path(__file__).resolve().parents[1] / "data"
TARGETS = {
    "shared": ("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram"),
    "dedicated": ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram_384KB"),
}
SMALL_ARENA = 12288
"""The ``shared-12k`` target's arena cache size: under Performance, kernels cascades its four ops
k_conv1x7..k_maxpool3 (rolling buffers of 16, 14 and 6 rows); under Size, as Vela, it does not."""


@functools.lru_cache(maxsize=None)
def printed(model: str, pipeline: str, target: str) -> str:
    """``model`` after ``pipeline`` on ``target``, printed (parsed again by each test, so tests
    never share a module)."""
    accel, system, mode = TARGETS[target.removesuffix("-12k")]
    module = imported_with_target(model, accel, system, mode, SMALL_ARENA if target.endswith("-12k") else None)
    engine = DiagnosticEngine(stream=io.StringIO())
    engine.show_remarks = False
    PassManager(parse_pipeline(pipeline), engine).run(module)
    return print_op(module)


def scheduled_module(model: str, pipeline: str, target: str = "shared"):
    """``model`` after ``pipeline`` on ``target``, a module of its own."""
    return parse_module(printed(model, pipeline, target), f"{model}.mlir")


def function_of(module):
    """The module's function."""
    return next(op for op in module.walk() if op.name == "func.func")


def reference_run(model: str, target: str) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """(inputs, outputs of the plain interpreter on the legalised module)."""
    module = scheduled_module(model, "estimate", target)
    inputs = seeded_inputs(function_of(module))
    return inputs, run_function(module, inputs)


def same_bytes(a: np.ndarray, b: np.ndarray) -> bool:
    """Bit-identical arrays (NaNs of float CPU ops included)."""
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()
