"""TFLite flatbuffers to and from the tfl dialect: ``import_tflite`` and ``export_tflite``.

The two halves load on first use (PEP 562 ``__getattr__``): reading a model does not import the
exporter and its ``flatbuffers`` builder, which only writing one needs.
"""
from __future__ import annotations

from importlib import import_module
from typing import Any

_HOMES: dict[str, str] = {
    "export_tflite": "npu_opt.dialects.tfl.tflite.exporter",
    "import_tflite": "npu_opt.dialects.tfl.tflite.importer",
    "is_tflite": "npu_opt.dialects.tfl.tflite.importer",
}
"""Each public name and the module defining it."""


def __getattr__(name: str) -> Any:
    """Load the half of the package defining ``name`` (then cache it as a module attribute)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(list(globals()) + list(_HOMES))


__all__ = ["import_tflite", "export_tflite", "is_tflite"]
