"""The performance model's adapter to the IR: npu op -> ``NpuOpDesc`` (``ir_adapter``), the
``#npu.block`` and ``#npu.cost`` attributes (``ir_attrs``), and the analyses that read a module
(``weight_streams``, ``weight_dma``, ``lower_bound``). The model itself is ``hardware.perf``."""
from __future__ import annotations

from npu_opt.dialects.npu.perf import ir_attrs  # noqa: F401  (the #npu.block and #npu.cost classes)
