"""One BLAS thread for the command-line tools, chosen before numpy is first imported.

numpy's wheels link OpenBLAS, which starts a pool of worker threads when numpy is imported; on
this project's machines that start-up alone costs ~55 ms of CPU per process (a sixth of a whole
``npu-opt --pass=estimate`` run on a small model). npu-opt never calls BLAS (no float matrix
products: its numpy work is integer and element-wise), so the pool is pure cost. The variables
are only defaults: a value the user exported is kept.
"""
from __future__ import annotations

import os

BLAS_THREAD_VARIABLES: tuple[str, ...] = ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
"""Environment variables the BLAS libraries numpy may link read once, when they are loaded."""


def single_threaded_blas() -> None:
    """Ask for one BLAS thread unless the user chose otherwise. Only effective before the first
    ``import numpy`` of the process (a later call changes nothing and is harmless)."""
    for name in BLAS_THREAD_VARIABLES:
        os.environ.setdefault(name, "1")


__all__ = ["BLAS_THREAD_VARIABLES", "single_threaded_blas"]
