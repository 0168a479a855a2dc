"""The block-config search, SHRAM layout, traversal choice, softmax and hard-swish tables and the
stride fold factor against vectors recorded from Vela 5.2's own functions
(tests/data/provenance/make_vela_vectors.py): every accelerator from U55-32 to U65-512, odd channel
counts, 8-, 16- and 32-bit inputs."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from npu_opt.hardware.accelerators import BlockType, accelerator
from npu_opt.hardware.perf.block_config import choose_part_kernel, find_block_config, try_layout
from npu_opt.hardware.perf.op_desc import Kernel, Resampling
from npu_opt.hardware.perf.shape import Shape4
from npu_opt.passes.npu_lowering import tables
from npu_opt.passes.npu_lowering.support_ops import resize_factor

VECTORS = json.loads((Path(__file__).parents[3] / "data" / "provenance" / "vela_vectors.json").read_text())


def test_part_kernel_traversal_matches_vela():
    wrong = [c for c in VECTORS["part_kernel"]
             if choose_part_kernel(Shape4(1, 7, 7, c["depth"]), c["bits"], Kernel(*c["kernel"])) != c["part_kernel"]]
    assert wrong == []


def test_shram_layout_matches_vela():
    wrong = []
    for c in VECTORS["layout"]:
        oh, ow, od = c["ofm_block"]
        ih, iw, idp = c["ifm_block"]
        layout = try_layout(accelerator(c["accelerator"]), c["elementwise"], Shape4(1, oh, ow, od),
                            Shape4(1, ih, iw, idp), c["ifm_bits"], c["ifm_granule"], c["acc_bits"], c["acc_granule"],
                            c["lut_banks"])
        got = None if layout is None else [layout.ifm_start, layout.ifm_end, layout.ifm2_start, layout.acc_start,
                                           layout.lut_start]
        if got != c["layout"]:
            wrong.append((c, got))
    assert wrong == []
    assert sum(c["layout"] is None for c in VECTORS["layout"]) > 50  # the vectors exercise both outcomes


@pytest.mark.parametrize("name", sorted({c["accelerator"] for c in VECTORS["block_config"]}))
def test_block_config_search_matches_vela(name: str):
    wrong = []
    cases = [c for c in VECTORS["block_config"] if c["accelerator"] == name]
    for c in cases:
        config = find_block_config(accelerator(name), BlockType(c["block_type"]), Shape4.of(c["ofm"]), Shape4.of(c["ifm"]),
                                   Shape4.of(c["ifm2"]) if c["ifm2"] is not None else None, c["scalar"], c["bits"],
                                   Kernel(*c["kernel"]), c["uses_lut"], c["scaled"], Resampling(c["resampling"]))
        got = None
        if config is not None:
            lay = config.layout
            got = {"ofm_block": list(config.ofm_block), "ifm_block": list(config.ifm_block),
                   "part_kernel": config.is_partkernel, "acc_bits": config.acc_bits,
                   "layout": [lay.ifm_start, lay.ifm_end, lay.ifm2_start, lay.acc_start, lay.lut_start]}
        if got != c["config"]:
            wrong.append((c, got))
    assert wrong == []
    assert len(cases) == 60


@pytest.mark.parametrize("case", VECTORS["softmax_exp"], ids=lambda c: f"beta{c['beta']}-scale{c['scale']}")
def test_softmax_exp_table_matches_vela(case: dict):
    assert tables.softmax_exp_lut(case["beta"], case["scale"]) == case["table"]


@pytest.mark.parametrize("case", VECTORS["hardswish"], ids=lambda c: f"{c['ifm']}-{c['ofm']}")
def test_hardswish_table_matches_vela(case: dict):
    assert tables.hardswish_lut(tuple(case["ifm"]), tuple(case["ofm"]), case["unsigned"]) == case["table"]


def test_stride_fold_factor_matches_vela():
    wrong = [c for c in VECTORS["resize_factor"] if list(resize_factor(c["width"], c["stride"])) != c["result"]]
    assert wrong == []
