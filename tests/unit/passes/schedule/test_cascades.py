"""The cascade builder and stripe growth of npu-form-cascades on plain records."""
from __future__ import annotations

from npu_opt.hardware.perf.op_desc import Kernel, Resampling
from npu_opt.hardware.perf.shape import Shape4
from npu_opt.passes.schedule.cascade_builder import (
    SchedOp, build_cascades, grow_stripes, min_stripes, propose_stripes, schedule_memory,
)


def _chain(count: int, height: int = 32, last_full: bool = True) -> list[SchedOp]:
    """``count`` 3x3 stride-1 pools on 1 x height x 16 x 16 int8, the first reading a graph input."""
    shape = Shape4(1, height, 16, 16)
    size = shape.elements()
    ops = []
    for i in range(count):
        ops.append(SchedOp(index=i, name=f"op{i}", ifm=shape, ofm=shape, kernel=Kernel(3, 3),
                           resampling=Resampling.NONE, ifm_bytes=size, ofm_bytes=size,
                           full_ifm="it is a graph input" if i == 0 else None,
                           full_ofm="it is a graph output" if last_full and i == count - 1 else None,
                           consumers=(i + 1,) if i + 1 < count else ()))
    return ops


def test_min_stripes_follow_the_next_stride() -> None:
    ops = _chain(3)
    ops[2].kernel = Kernel(3, 3, 2, 2)
    assert [s.height for s in min_stripes(ops).values()] == [1, 2, 1]


def test_spilling_chain_cascades_until_an_op_fits() -> None:
    ops = _chain(4)
    result = build_cascades(ops, [0, 1, 2, 3], min_stripes(ops), 16000, spilling=True)
    assert [c.members for c in result.cascades] == [[0, 1, 2, 3]]
    assert result.cascades[0].rolling[0] == Shape4(1, 6, 16, 16)
    roomy = build_cascades(ops, [0, 1, 2, 3], min_stripes(ops), 20000, spilling=True)
    assert roomy.cascades == [] and "everything fits" in roomy.stops[0].reason


def test_branch_and_refusal_stop_chains() -> None:
    ops = _chain(3)
    ops[0].consumers = (1, 2)
    result = build_cascades(ops, [0, 1, 2], min_stripes(ops), 1000, spilling=True)
    assert "branches to 2 consumers" in result.stops[0].reason
    ops = _chain(3)
    ops[1].refusal = "it is a transpose convolution"
    result = build_cascades(ops, [0, 1, 2], min_stripes(ops), 1000, spilling=True)
    assert not result.cascades
    assert "cannot be cascaded: it is a transpose convolution" in result.stops[0].reason


def test_growth_takes_the_tallest_stripe_that_fits() -> None:
    ops = _chain(5)
    cascade = build_cascades(ops, list(range(5)), min_stripes(ops), 16000, spilling=True).cascades[0]
    grown = grow_stripes(ops, cascade, 16000, True, None, lambda stripes: {})
    assert grown.cascades is not None and [c.stripes[4].height for c in grown.cascades] == [5]
    assert schedule_memory(ops, list(range(5)), grown.cascades) == 4 * 2 * 7 * 256
    assert "6 rows needs 16384 bytes" in grown.note


def test_cost_growth_keeps_the_height_estimated_fastest_not_the_tallest() -> None:
    # the same chain and limit as above (heights 2-5 fit): an estimate that likes 4-row final
    # stripes best (a block of 4 rows, say) keeps 4 rows, less SRAM than the tallest, 5
    ops = _chain(5)
    cascade = build_cascades(ops, list(range(5)), min_stripes(ops), 16000, spilling=True).cascades[0]
    seen: list[int] = []

    def cycles(stripes: dict[int, Shape4]) -> float:
        seen.append(stripes[4].height)
        return abs(stripes[4].height - 4) * 100.0 + 1000.0

    grown = grow_stripes(ops, cascade, 16000, True, None, lambda stripes: {}, "cost", cycles)
    assert grown.cascades is not None and [c.stripes[4].height for c in grown.cascades] == [4]
    assert seen[0] == 1 and sorted(set(seen)) == [1, 2, 3, 4, 5]  # (the MIN stripes, then every height that fits)
    assert "the fastest of 5 stripe heights tried" in grown.note
    assert schedule_memory(ops, list(range(5)), grown.cascades) < 4 * 2 * 7 * 256
    # an estimate no height improves on keeps the MIN cascade
    kept = grow_stripes(ops, cascade, 16000, True, None, lambda stripes: {}, "cost",
                        lambda stripes: float(stripes[4].height))
    assert kept.cascades is None and "kept the MIN stripes" in kept.note


def test_proposed_stripes_scale_by_stride_and_stay_even_with_nearest() -> None:
    ops = _chain(3)
    ops[2].kernel = Kernel(3, 3, 2, 2)
    stripes = propose_stripes(ops, [0, 1, 2], 3)
    assert (stripes[2].height, stripes[1].height, stripes[0].height) == (3, 6, 6)
    ops[1].resampling = Resampling.NEAREST
    stripes = propose_stripes(ops, [0, 1, 2], 3)
    assert (stripes[2].height, stripes[1].height, stripes[0].height) == (3, 8, 8)
