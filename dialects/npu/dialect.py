"""The npu ``Dialect`` object, in a module of its own so the op modules can import it without
importing the package ``__init__`` (which imports them)."""
from __future__ import annotations

from npu_opt.ir.opdef import Dialect, register_dialect

NPU = register_dialect(Dialect(
    "npu",
    "Arm Ethos-U NPU: the operations the NPU executes (convolutions, pooling, vector products, "
    "elementwise and table-lookup operations, memory-only views and DMA) and the hardware target "
    "they are scheduled for.",
    kernel_modules=("npu_opt.interpreters.npu",)))

__all__ = ["NPU"]
