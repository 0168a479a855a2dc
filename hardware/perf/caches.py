"""Forgetting the performance model's memoised results, for benchmarks that time a cold start."""
from __future__ import annotations

from npu_opt.hardware.codec.weight_reorder import forget_walks
from npu_opt.hardware.perf.block_choice import fastest_block_config
from npu_opt.hardware.perf.block_config import find_block_config
from npu_opt.hardware.perf.estimate import estimate_op, op_compute_cycles


def clear_caches() -> None:
    """Forget every memoised block config, estimate and weight-stream walk."""
    find_block_config.cache_clear()
    fastest_block_config.cache_clear()
    estimate_op.cache_clear()
    op_compute_cycles.cache_clear()
    forget_walks()


__all__ = ["clear_caches"]
