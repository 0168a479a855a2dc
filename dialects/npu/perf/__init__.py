"""The Ethos-U performance model: pure, memoised cost functions over op descriptions, so the
scheduler and the estimate can ask the same questions many times cheaply.

Design notes: docs/cost_model_design.md, section The performance model (perf package)."""
from __future__ import annotations

from npu_opt.dialects.npu.perf.arch import PerfTarget, perf_target, resolve_perf_target
from npu_opt.dialects.npu.perf.block_config import BlockConfig, check_block_config, find_block_config, select_block_config
from npu_opt.dialects.npu.perf.dma import WeightStreaming
from npu_opt.dialects.npu.perf.estimate import ACCESS_COLUMNS, OpCost, clear_caches, estimate_op, op_compute_cycles
from npu_opt.dialects.npu.perf.op_desc import (
    Kernel, NpuOpDesc, OpKind, Resampling, TensorDesc, TensorFormat, WeightsDesc,
)
from npu_opt.dialects.npu.perf.shape import Shape4
from npu_opt.dialects.npu.perf import ir_attrs  # noqa: E402,F401  (the #npu.block and #npu.cost classes)

__all__ = [
    "ACCESS_COLUMNS", "BlockConfig", "Kernel", "NpuOpDesc", "OpCost", "OpKind", "PerfTarget", "Resampling",
    "Shape4", "TensorDesc", "TensorFormat", "WeightStreaming", "WeightsDesc", "check_block_config",
    "clear_caches", "estimate_op", "find_block_config", "op_compute_cycles", "perf_target",
    "resolve_perf_target", "select_block_config",
]
