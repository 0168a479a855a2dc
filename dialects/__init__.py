"""Dialects npu-opt knows. Importing this package registers all of them."""
from npu_opt.dialects import builtin, func, npu, test, tfl  # noqa: F401  (registration happens on import)

__all__ = ["builtin", "func", "npu", "test", "tfl"]
