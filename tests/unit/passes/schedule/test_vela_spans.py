"""Live ranges in Vela's time (passes/schedule/vela_spans.py) and the hill-climb order they give:
conv.tflite on a U55 gets Vela 5.2's live-range times and its scratch addresses (vela
--verbose-allocation: input 0-3 at 0x0, the weight buffer 2-3 at 0x140, the conv's OFM 2-5 at
0xc0, the maxpool's OFM 6-9 at 0x0, the avgpool's 8-11 at 0x40, the prefetched buffer 9-11 at 0x80)."""
from __future__ import annotations

from pathlib import Path

import npu_opt.dialects  # noqa: F401  (registers the dialects)
import npu_opt.passes  # noqa: F401  (registers the passes)
from npu_opt.dialects.npu.execution_order import graph_blocks
from npu_opt.dialects.npu.schedule_attrs import ALLOC_ATTR
from npu_opt.dialects.npu.target_attr import target_of
from npu_opt.ir.core import OpResult
from npu_opt.passes.schedule.live_ranges import live_ranges
from npu_opt.tools import api

DATA = Path(__file__).resolve().parents[3] / "data"


def test_conv_ranges_and_addresses_are_vela_s():
    loaded = api.load(str(DATA / "conv.tflite"))
    loaded.set_target("ethos-u55-128", system_config="Ethos_U55_High_End_Embedded", memory_mode="Shared_Sram")
    loaded.run("schedule{optimise=Performance}")
    (block,) = graph_blocks(loaded.module)
    found = {}
    for r in live_ranges(block, target_of(loaded.module)):
        owner = r.owner
        name = owner.op.name if isinstance(owner, OpResult) else "input"
        alloc = owner.op.attr(ALLOC_ATTR) if isinstance(owner, OpResult) else None
        found.setdefault(name, []).append((r.vela, None if alloc is None else alloc.offset))
    assert found["input"] == [((0, 3), None)]
    assert found["npu.dma"] == [((2, 3), 0x140), ((9, 11), 0x80)]
    assert found["npu.conv2d"] == [((2, 5), 0xC0)]
    assert found["npu.max_pool"] == [((6, 9), 0x0)]
    assert found["npu.avg_pool"] == [((8, 11), 0x40)]
    assert block.parent_op().attr("npu.arg_alloc").elements[0].offset == 0  # type: ignore[union-attr]


def _scheduled_ranges(model: str) -> list:
    loaded = api.load(str(DATA / f"{model}.tflite"))
    loaded.set_target("ethos-u55-128", system_config="Ethos_U55_High_End_Embedded", memory_mode="Shared_Sram")
    loaded.run("schedule{optimise=Performance}")
    (block,) = graph_blocks(loaded.module)
    return live_ranges(block, target_of(loaded.module))


def test_ranges_are_ranked_in_the_order_vela_s_walk_meets_them():
    """two_outputs on a U55, as Vela 5.2's live-range graph lists them (its allocator's input
    order): per op its inputs, its outputs, then the (double-buffered) weight buffers it reads."""
    ranked = sorted(_scheduled_ranges("two_outputs"), key=lambda r: r.vela_rank)
    found = [(r.owner.op.name if isinstance(r.owner, OpResult) else "input", r.second, r.vela) for r in ranked]
    assert [r.vela_rank for r in ranked] == list(range(12))
    assert found == [("input", False, (0, 3)), ("npu.conv2d", False, (2, 9)), ("npu.dma", False, (2, 2)),
                     ("npu.dma", True, (2, 3)), ("npu.max_pool", False, (4, 7)), ("npu.conv2d", False, (6, 13)),
                     ("npu.dma", False, (5, 6)), ("npu.dma", True, (6, 7)), ("npu.conv2d", False, (8, 11)),
                     ("npu.dma", False, (7, 8)), ("npu.dma", True, (8, 9)), ("npu.avg_pool", False, (10, 13))]


def test_an_ifm_handed_over_by_an_earlier_npu_run_is_not_overwritten_in_place():
    """cpu_middle's add reads the side convolution of the first NPU run (through the CPU's pad):
    Vela write-protects that tensor, so the add's output takes a range of its own (Vela's 4-11
    and 10-13 in its time), where an add within one run would write over its IFM."""
    ranges = _scheduled_ranges("cpu_middle")
    add = next(r for r in ranges if isinstance(r.owner, OpResult) and r.owner.op.name == "npu.add")
    side = next(r for r in ranges if r.vela == (4, 11))
    assert add.vela == (10, 13) and add.kind == "output"
    assert len(add.values) == 1 and add.owner not in side.values
