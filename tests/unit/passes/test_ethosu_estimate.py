"""ethosu-estimate against npu-estimate: Vela legacy's compiled models, costed from their command
streams alone, give the cycles our estimate gives the same schedule (within 1%) where our
schedule is Vela's (the runs tests/unit/passes/codegen/test_lower_commands.py finds byte-identical)."""
from __future__ import annotations

from pathlib import Path

import pytest

from npu_opt.dialects.ethosu.ops_block import BlockOp
from npu_opt.dialects.npu.perf.ir_attrs import COST_ATTR, TOTALS_ATTR
from npu_opt.tools import api

DATA = Path(__file__).resolve().parents[2] / "data"
CONFIGS = {
    "u55-128": ("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram"),
    "u65-256": ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram"),
}
SAME_SCHEDULE = [("compiled/conv.u55-128.legacy", "conv", "u55-128"), ("compiled/conv.u65-256.legacy", "conv", "u65-256"),
                 ("compiled/weight_stream.u65-256.legacy", "weight_stream", "u65-256"),
                 ("deployable/stride3.u55-128", "stride3", "u55-128"), ("deployable/stride3.u65-256", "stride3", "u65-256"),
                 ("deployable/odd_channels.u65-256", "odd_channels", "u65-256"),
                 ("deployable/dilation.u55-128", "dilation", "u55-128")]
"""Vela legacy outputs (tests/data/vela) whose runs our lowering writes byte for byte."""


CASCADED = [("cascaded/wide_image.u55-128", "wide_image", "u55-128"),
            ("cascaded/wide_image.u65-256", "wide_image", "u65-256")]
"""Vela legacy's Size outputs whose cascades are our Size schedule's (tests/data/vela/cascaded)."""


def _cycles(path: Path, config: str, pipeline: str) -> float:
    accelerator, system, memory = CONFIGS[config]
    model = api.load(str(path))
    model.set_target(accelerator, system_config=system, memory_mode=memory)
    model.run(pipeline)
    return model.summary()["cycles_total"]


@pytest.mark.parametrize("compiled,source,config", SAME_SCHEDULE)
def test_vela_stream_costs_what_our_schedule_costs(compiled: str, source: str, config: str):
    theirs = _cycles(DATA / "vela" / f"{compiled}.tflite", config, "ethosu-estimate")
    ours = _cycles(DATA / f"{source}.tflite", config, "schedule{optimise=Performance}")
    assert theirs > 0
    assert abs(theirs - ours) <= 0.01 * ours, (theirs, ours)


@pytest.mark.parametrize("compiled,source,config", CASCADED)
def test_a_cascade_s_stripes_cost_what_its_ops_cost(compiled: str, source: str, config: str):
    """wide_image's cascade runs its ops in 84 interleaved stripes through rolling buffers; put
    back together they are the 10 ops our Size schedule costs, at the same cycles."""
    theirs = _cycles(DATA / "vela" / f"{compiled}.tflite", config, "ethosu-estimate")
    ours = _cycles(DATA / f"{source}.tflite", config, "schedule{optimise=Size}")
    assert abs(theirs - ours) <= 0.01 * ours, (theirs, ours)


def test_stripes_are_grouped_into_their_ops():
    model = api.load(str(DATA / "vela" / "cascaded" / "wide_image.u55-128.tflite"))
    model.run("ethosu-estimate")
    parts = [op for op in model.module.walk() if isinstance(op, BlockOp)]
    costed = [op for op in parts if op.attr(COST_ATTR) is not None]
    assert (len(parts), len(costed)) == (84, 10)


def test_each_scheduled_op_is_costed_once():
    """conv's five NPU ops (one weight DMA each for two of them) give five npu.cost and the totals."""
    model = api.load(str(DATA / "vela" / "compiled" / "conv.u55-128.legacy.tflite"))
    model.run("ethosu-estimate")
    costed = [op for op in model.module.walk() if op.attr(COST_ATTR) is not None]
    assert [op.name for op in costed] == ["ethosu.conv2d", "ethosu.pool", "ethosu.pool", "ethosu.conv2d",
                                          "ethosu.conv2d"]
    assert model.module.attr(TOTALS_ATTR).cycle("total") == 2742


def test_the_target_comes_from_the_config_word():
    """Without target flags the CONFIG word's accelerator is costed on Vela's default system."""
    model = api.load(str(DATA / "vela" / "compiled" / "conv.u65-256.legacy.tflite"))
    model.run("ethosu-estimate")
    assert model.module.attr(TOTALS_ATTR).cycle("total") > 0


def test_a_target_other_than_the_stream_s_is_an_error():
    model = api.load(str(DATA / "vela" / "compiled" / "conv.u55-128.legacy.tflite"))
    model.set_target("ethos-u65-256")
    with pytest.raises(api.NpuOptError, match="CONFIG word names ethos-u55-128, but the target is"):
        model.run("ethosu-estimate")


def test_summary_of_a_compiled_model_costs_its_streams(capsys):
    """``npu-opt model_vela.tflite --summary`` runs ethosu-estimate when no pass is named, on the
    accelerator the CONFIG word names."""
    from npu_opt.tools.npu_opt import main

    path = DATA / "vela" / "compiled" / "conv.u55-128.legacy.tflite"
    assert main([str(path), "--summary", "-o", "/dev/null"]) == 0
    text = capsys.readouterr().out
    assert "Target: Ethos_U55_128" in text and "Total cycles: 2,742" in text
