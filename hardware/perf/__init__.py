"""The Ethos-U performance model: pure, memoised cost functions over op descriptions (no IR).

One module per concept: ``shape`` (``Shape4``), ``op_desc`` (``NpuOpDesc``), ``arch`` (``PerfTarget``),
``block_config`` and ``block_choice`` (the SHRAM fit and the block search), ``memory`` (bursts and
copies), ``compute``, ``access``, ``dma``, ``weight_buffering`` and ``estimate`` (``estimate_op``).
docs/architecture.md places it; bench/perf_fidelity.py measures it against Vela.
"""
from __future__ import annotations

from npu_opt.hardware.perf.arch import PerfTarget, perf_target, resolve_perf_target
from npu_opt.hardware.perf.block_config import BlockConfig, check_block_config, find_block_config, select_block_config
from npu_opt.hardware.perf.dma import WeightStreaming
from npu_opt.hardware.perf.caches import clear_caches
from npu_opt.hardware.perf.estimate import ACCESS_COLUMNS, OpCost, estimate_op, op_compute_cycles
from npu_opt.hardware.perf.op_desc import (
    Kernel, NpuOpDesc, OpKind, Resampling, TensorDesc, TensorFormat, WeightsDesc,
)
from npu_opt.hardware.perf.shape import Shape4

__all__ = [
    "ACCESS_COLUMNS", "BlockConfig", "Kernel", "NpuOpDesc", "OpCost", "OpKind", "PerfTarget", "Resampling",
    "Shape4", "TensorDesc", "TensorFormat", "WeightStreaming", "WeightsDesc", "check_block_config",
    "clear_caches", "estimate_op", "find_block_config", "op_compute_cycles", "perf_target",
    "resolve_perf_target", "select_block_config",
]
