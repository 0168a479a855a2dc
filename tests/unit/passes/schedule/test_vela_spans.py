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
