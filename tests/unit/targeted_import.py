"""Test helper: a TFLite model imported and given a target, as npu-opt's target flags do, so
the scheduling and interpreter tests share one way of building their input module."""
from __future__ import annotations

import argparse
from pathlib import Path

from npu_opt.dialects.tfl.tflite import import_tflite
from npu_opt.ir.core import Operation
from npu_opt.tools.target_options import apply_target, prepare_target

DATA = Path(__file__).resolve().parents[1] / "data"
"""The models the repository ships (tests/data)."""


def imported_with_target(model: str | Path, accelerator: str, system_config: str | None = None,
                         memory_mode: str | None = None, arena_cache_size: int | None = None) -> Operation:
    """``model`` (a tests/data model name, or a path) imported, with the target npu-opt's
    ``--target``/``--system-config``/``--memory-mode``/``--arena-cache-size`` would give it."""
    path = Path(model) if isinstance(model, Path) else DATA / f"{model}.tflite"
    request = prepare_target(argparse.Namespace(target=accelerator, system_config=system_config,
                                                memory_mode=memory_mode, config=[],
                                                arena_cache_size=arena_cache_size))
    assert request is not None
    module = import_tflite(path.read_bytes(), path.stem)
    apply_target(module, request)
    return module
