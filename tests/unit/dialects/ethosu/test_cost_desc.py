"""The cost model's descriptions of decoded command-stream operations (dialects/ethosu/cost_desc.py),
on Vela legacy's conv model: kinds, shapes, memories and weights read from the registers."""
from __future__ import annotations

from pathlib import Path

import pytest

from npu_opt.dialects.ethosu.cost_desc import (
    CostedOp, accelerator_name, block_config, describe, dma_desc, group_parts, region_area,
)
from npu_opt.dialects.ethosu.ops_stream import DmaOp, ProgramOp
from npu_opt.hardware.perf.op_desc import OpKind, Resampling
from npu_opt.hardware.perf.shape import Shape4
from npu_opt.hardware.target import resolve_target
from npu_opt.tools import api

DATA = Path(__file__).resolve().parents[3] / "data"


def _programs(name: str) -> list[ProgramOp]:
    module = api.load(str(DATA / "vela" / "compiled" / name)).module
    return [op for op in module.walk() if isinstance(op, ProgramOp)]


def test_accelerator_from_the_config_word():
    assert accelerator_name(6151) == "ethos-u55-128"
    assert accelerator_name(268447752) == "ethos-u65-256"
    with pytest.raises(ValueError, match="names product 3"):
        accelerator_name(3 << 28)


def test_regions_are_memories_of_the_target():
    shared = resolve_target("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram")
    dedicated = resolve_target("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram")
    assert [region_area(r, shared) for r in (0, 1, 2, 3)] == ["OffChipFlash", "Sram", "Sram", "Sram"]
    assert [region_area(r, dedicated) for r in (0, 1, 2)] == ["Dram", "Dram", "Sram"]


def test_the_ops_of_conv_described():
    target = resolve_target("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram")
    first, second = _programs("conv.u55-128.legacy.tflite")
    (conv,) = group_parts(first)
    assert [type(d).__name__ for d in conv.weight_dmas] == ["DmaOp"]
    desc = describe(conv, target)
    assert (desc.kind, desc.ifm.shape, desc.ofm.shape) == (OpKind.CONV2D, Shape4(1, 8, 4, 6), Shape4(1, 4, 4, 8))
    assert (desc.weights.encoded_bytes, desc.weights.raw_elements, desc.weights.memory) == (368, 288, "Sram")
    assert desc.activation == "relu"  # (the clamp starts at the zero point 3, not at -128)
    assert block_config(conv.first, desc, target.accelerator).ofm_block == Shape4(1, 4, 4, 8)
    kinds = [describe(item, target).kind for item in group_parts(second) if isinstance(item, CostedOp)]
    assert kinds == [OpKind.MAX_POOL, OpKind.AVG_POOL, OpKind.TRANSPOSE_CONV2D, OpKind.VECTOR_PRODUCT]
    transpose = [item for item in group_parts(second) if isinstance(item, CostedOp)][2]
    assert describe(transpose, target).resampling is Resampling.TRANSPOSE


def test_a_feature_map_dma_is_a_copy_between_memories():
    target = resolve_target("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram")
    program = _programs("conv.u55-128.legacy.tflite")[0]
    (dma,) = [op for op in program.regions[0].blocks[0].ops if isinstance(op, DmaOp)]
    desc = dma_desc(dma, target)
    assert (desc.kind, desc.ifm.memory, desc.ofm.memory, desc.ifm.storage_bytes()) == (OpKind.DMA, "Dram", "Dram", 368)
