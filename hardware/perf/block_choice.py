"""The OFM block configuration with the fewest estimated cycles (a choice beyond Vela's).

Vela picks an op's block by a traffic score: IFM and weight elements fetched per OFM element
(block_config.find_block_config). That score leaves out what the estimate charges per block
(the DPU's and output pipeline's cycles per block, partial blocks at the OFM edges), so on the
corpus another fitting block often runs the op several per cent faster. ``fastest_block_config``
tries the blocks of a coarse grid (micro-block multiples in powers of two, and the OFM's own
extents) and keeps the one whose ``estimate_op`` total is lowest, Vela's block unless another
is strictly faster. The caller gives the op as its feature maps may end up placed (with a
separate fast storage, npu-place-fast-storage moves them after the choice); a block must be no
slower than Vela's under each. The weights are costed where the op description reads them
(streaming is decided later, with the block chosen here).
"""
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
