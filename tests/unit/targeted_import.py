"""Test helpers: a TFLite model imported and given a target, as npu-opt's target flags do, a
pipeline run on it, and seeded inputs for it, so the scheduling and interpreter tests share one
way of building and running their input module."""
from __future__ import annotations

from pathlib import Path

import io

import numpy as np

from npu_opt.dialects.tfl.tflite import import_tflite
from npu_opt.ir.core import Operation
from npu_opt.ir.diagnostics import DiagnosticEngine
from npu_opt.ir.pass_manager import PassFailure, PassManager
from npu_opt.ir.pass_registry import parse_pipeline
from npu_opt.tools.run_inputs import function_ports, gather_inputs
from npu_opt.tools.api import set_target

DATA = Path(__file__).resolve().parents[1] / "data"
"""The models the repository ships (tests/data)."""


def with_target(module: Operation, accelerator: str, system_config: str | None = None,
                memory_mode: str | None = None, arena_cache_size: int | None = None) -> Operation:
    """``module`` given the target npu-opt's ``--target``/``--system-config``/``--memory-mode``/
    ``--arena-cache-size`` would give it."""
    return set_target(module, accelerator, system_config=system_config, memory_mode=memory_mode,
                      arena_cache_size=arena_cache_size)


def imported_with_target(model: str | Path, accelerator: str, system_config: str | None = None,
                         memory_mode: str | None = None, arena_cache_size: int | None = None) -> Operation:
    """``model`` (a tests/data model name, or a path) imported, with a target (``with_target``)."""
    path = Path(model) if isinstance(model, Path) else DATA / f"{model}.tflite"
    return with_target(import_tflite(path.read_bytes(), path.stem), accelerator, system_config, memory_mode,
                       arena_cache_size)


def parsed_with_target(text: str, name: str, accelerator: str, system_config: str | None = None,
                       memory_mode: str | None = None, arena_cache_size: int | None = None) -> Operation:
    """MLIR ``text`` (from file ``name``) parsed, with a target (``with_target``)."""
    from npu_opt.ir.parser import parse_module
    return with_target(parse_module(text, name), accelerator, system_config, memory_mode, arena_cache_size)


def run_pipeline(module: Operation, pipeline: str, remarks: bool = False) -> str:
    """Run ``pipeline`` on ``module`` (verifier on); the errors it printed, "" when it
    succeeded; with ``remarks``, everything it printed, its remarks included."""
    stream = io.StringIO()
    engine = DiagnosticEngine(stream=stream)
    engine.show_remarks = remarks
    try:
        PassManager(parse_pipeline(pipeline), engine, verify_each=True).run(module)
    except PassFailure:
        pass
    return stream.getvalue() if engine.has_errors or remarks else ""


def seeded_inputs(func: Operation, seed: int = 0) -> list[np.ndarray]:
    """npu-run's seeded random inputs for ``func``'s arguments (over each one's storage range)."""
    return gather_inputs(function_ports(func)[0], [], seed).arrays


MODELS = sorted(p.stem for p in DATA.glob("*.tflite"))
"""Every model of tests/data, by name."""
NO_KERNEL = {"custom", "generic"}
"""Models holding an operator no interpreter runs (a CUSTOM operator, GATHER)."""


def check_scheduled(model: str, target: tuple[str, ...], pipeline: str) -> str:
    """Schedule ``model`` for ``target`` with ``pipeline`` and check the result: printing and
    parsing it again is a fixed point, npu-check-schedule accepts it, and (unless the model holds
    an operator no interpreter runs) the scheduled interpreter computes, byte for byte, what the
    plain interpreter computes on the legalised model. Returns the scheduled text."""
    from npu_opt.interpreters.scheduled import run_scheduled
    from npu_opt.ir.interpreter import run_function
    from npu_opt.ir.parser import parse_module
    from npu_opt.ir.printer import print_op

    module = imported_with_target(model, *target)
    assert run_pipeline(module, pipeline) == ""
    text = print_op(module)
    assert print_op(parse_module(text, f"{model}.mlir")) == text
    assert run_pipeline(parse_module(text, f"{model}.mlir"), "npu-check-schedule") == ""
    if model not in NO_KERNEL:
        reference = imported_with_target(model, *target)
        assert run_pipeline(reference, "npu-legalize") == ""
        function = next(op for op in reference.walk() if op.name == "func.func")
        inputs = seeded_inputs(function)
        expected = run_function(reference, inputs)
        got = run_scheduled(parse_module(text, f"{model}.mlir"), inputs)
        assert len(got) == len(expected)
        for a, b in zip(got, expected):
            assert a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()
    return text
