"""Dialects npu-opt knows, by name. Importing this package declares them all; each dialect's
package is imported, registering all of its ops and attributes, the first time IR or code names
the dialect (so `npu-opt` on a builtin-only module imports neither tfl nor npu)."""
from __future__ import annotations

import importlib
from typing import Any

from npu_opt.ir.opdef import declare_dialect

DIALECT_MODULES: dict[str, str] = {
    "builtin": "builtin", "ethosu": "ethosu", "func": "func", "npu": "npu", "test": "test", "tfl": "tfl",
}
"""Dialect name -> its package under npu_opt.dialects."""

for _name, _module in DIALECT_MODULES.items():
    declare_dialect(_name, f"{__name__}.{_module}")


def __getattr__(name: str) -> Any:
    """``npu_opt.dialects.tfl`` and friends still work as attributes: import the package on access."""
    if name in DIALECT_MODULES.values():
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = list(DIALECT_MODULES.values())
