"""The ethosu ``Dialect`` object, apart so the op modules can import it without the package."""
from __future__ import annotations

from npu_opt.ir.opdef import Dialect, register_dialect

ETHOSU = register_dialect(Dialect(
    "ethosu",
    "Arm Ethos-U command streams at register level: one op per NPU operation or DMA, its register "
    "values as typed attributes, in a program that ends with a stop; encoded to and decoded from "
    "the 32-bit command words Vela writes."))

__all__ = ["ETHOSU"]
