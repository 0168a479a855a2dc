"""Passes npu-opt knows. Importing this package registers all of them."""
from npu_opt.passes import canonicalize, cse, dce, npu_legalize, npu_perf, npu_place, test_passes  # noqa: F401  (registration on import)

__all__ = ["canonicalize", "cse", "dce", "npu_legalize", "npu_perf", "npu_place", "test_passes"]
