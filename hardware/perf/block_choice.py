"""The OFM block configuration with the fewest estimated cycles, a choice beyond Vela's traffic
score, which leaves out per-block pipeline costs.

Design notes: docs/cost_model_design.md, section The fastest block config (block_choice)."""
from __future__ import annotations

from functools import lru_cache

from npu_opt.hardware.accelerators import OFM_BLOCK_MAX
from npu_opt.hardware.perf.arch import PerfTarget
from npu_opt.hardware.perf.block_config import BlockConfig, check_block_config
from npu_opt.hardware.perf.estimate import estimate_op
from npu_opt.hardware.perf.op_desc import NpuOpDesc
from npu_opt.hardware.perf.shape import Shape4, round_up


def _extents(size: int, step: int, top: int) -> list[int]:
    """Block extents tried along one axis: ``step`` times powers of two, and ``size`` rounded up
    to ``step``, all at most ``top``."""
    whole = min(round_up(max(size, 1), step), top)
    tried = {whole}
    extent = step
    while extent < whole:
        tried.add(extent)
        extent *= 2
    return sorted(tried)


@lru_cache(maxsize=1 << 14)
def fastest_block_config(perf: PerfTarget, descs: tuple[NpuOpDesc, ...], vela: BlockConfig) -> BlockConfig:
    """The fitting block of the grid with the fewest estimated total cycles summed over
    ``descs`` (one op as its feature maps may end up placed: a later pass may still move them
    between fast storage and the arena) and no more cycles than ``vela`` (Vela's choice) under
    any of them; ``vela`` unless another is strictly faster. Memoised: a schedule search asks
    again for every candidate."""
    ub = perf.accel.ofm_ublock
    ofm = descs[0].ofm.block_shape
    ceilings = [estimate_op(perf, desc, vela).total_cycles for desc in descs]
    best, best_cycles = vela, sum(ceilings)
    for depth in _extents(ofm.depth, ub.depth, OFM_BLOCK_MAX.depth):
        for height in _extents(ofm.height, ub.height, OFM_BLOCK_MAX.height):
            for width in _extents(ofm.width, ub.width, OFM_BLOCK_MAX.width):
                block = Shape4(1, height, width, depth)
                if block == vela.ofm_block:
                    continue
                candidate = check_block_config(descs[0], perf.accel, block, vela.is_partkernel)
                if candidate is None:
                    continue
                total = 0.0
                for desc, ceiling in zip(descs, ceilings):  # (a placement over its ceiling rules the block out)
                    cycles = estimate_op(perf, desc, candidate).total_cycles
                    if cycles > ceiling:
                        break
                    total += cycles
                else:
                    if total < best_cycles:
                        best, best_cycles = candidate, total
    return best


__all__ = ["fastest_block_config"]
