"""Passes npu-opt knows, by name. Importing this package declares them all; a pass's module is
imported when a pipeline names the pass (or when every pass is listed), keeping start-up short.

A new pass module adds one line to ``PASS_MODULES``; tests/unit/ir/test_lazy_registry.py checks
that the table names exactly what the modules register.
"""
from __future__ import annotations

import importlib
from typing import Any

from npu_opt.ir.pass_registry import declare_passes

PASS_MODULES: dict[str, tuple[str, ...]] = {
    "canonicalize": ("canonicalize",),
    "cse": ("cse",),
    "dce": ("dce",),
    "npu_legalize": ("npu-legalize",),
    "npu_order": ("npu-order",),
    "npu_perf": ("npu-select-block-config", "npu-estimate", "estimate"),
    "ethosu_estimate": ("ethosu-estimate",),
    "npu_place": ("npu-format-nhcwb16", "npu-place-tensors"),
    "schedule.allocate": ("npu-allocate",),
    "schedule.buffer_weights": ("npu-buffer-weights",),
    "schedule.check_schedule": ("npu-check-schedule",),
    "schedule.form_cascades": ("npu-form-cascades",),
    "schedule.insert_dma": ("npu-insert-dma",),
    "schedule.pipeline": ("schedule",),
    "schedule.place_fast_storage": ("npu-place-fast-storage",),
    "schedule.search": ("npu-search-schedule",),
    "schedule.width_bands": ("npu-width-bands",),
    "codegen.flash_layout": ("npu-flash-layout",),
    "codegen.lower_commands": ("npu-lower-commands",),
    "codegen.outline": ("npu-outline",),
    "codegen.pipeline": ("compile",),
    "test_passes": ("test-crash", "test-error", "test-dataflow", "test-break-ir"),
}
"""Module (under npu_opt.passes) -> the passes and named pipelines it registers."""

for _module, _names in PASS_MODULES.items():
    declare_passes(f"{__name__}.{_module}", _names)


def __getattr__(name: str) -> Any:
    """``npu_opt.passes.cse`` and friends still work as attributes: import the module on access."""
    if name in PASS_MODULES:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = list(PASS_MODULES)
