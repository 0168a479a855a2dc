"""Two-core streams (Ethos-U65-512): each depth slice's weights and scales are split between the
cores, which read them through WEIGHT/SCALE and WEIGHT1/SCALE1; the lowered streams are Vela 5.2
legacy's word for word (tests/data/ethosu/u65-512, made by make_streams.py --configs u65-512)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import npu_opt.dialects  # noqa: F401  (registers the dialects)
import npu_opt.passes  # noqa: F401  (registers the passes)
from npu_opt.dialects.ethosu.encode import encode_program
from npu_opt.dialects.npu.execution_order import graph_blocks, npu_runs
from npu_opt.dialects.npu.target_attr import target_of
from npu_opt.dialects.tfl.ops_ethosu import holds_ethos_u
from npu_opt.dialects.tfl.tflite import export_tflite, import_tflite
from npu_opt.hardware.commands.words import words_from_bytes
from npu_opt.ir.interpreter import run_function
from npu_opt.passes.codegen.compare import first_difference
from npu_opt.passes.codegen.lower_commands import lower_run
from npu_opt.tools import api

DATA = Path(__file__).resolve().parents[3] / "data"
LOWERED = ("conv", "stride3", "kernels", "dilation", "weight_stream", "two_outputs", "odd_channels", "branches",
           "cpu_middle", "wide_batch", "int16", "classifier", "data_movement", "elementwise", "fire")
"""The tests/data models whose every NPU run the lowering handles (on the other configs too)."""


def _streams(model: str) -> list[list[int]]:
    loaded = api.load(str(DATA / f"{model}.tflite"))
    loaded.set_target("ethos-u65-512", system_config="Ethos_U65_High_End", memory_mode="Dedicated_Sram")
    loaded.run("schedule{optimise=Performance},npu-flash-layout")
    target = target_of(loaded.module)
    return [encode_program(lower_run(run, block.parent_op(), target))
            for block in graph_blocks(loaded.module) for run in npu_runs(block)]


@pytest.mark.parametrize("model", LOWERED)
def test_two_core_streams_are_vela_s(model: str) -> None:
    streams = _streams(model)
    references = [path for path in (DATA / "ethosu" / "u65-512").glob(f"{model}_*.bin")
                  if path.stem[len(model) + 1:].isdigit()]
    assert len(streams) == len(references)
    for index, words in enumerate(streams):
        reference = words_from_bytes((DATA / "ethosu" / "u65-512" / f"{model}_{index}.bin").read_bytes())
        assert first_difference(words, reference) is None, f"{model} run {index}"


@pytest.mark.parametrize("model", ("conv", "branches", "classifier", "weight_stream"))
def test_two_core_models_simulate_as_the_source_model_runs(model: str) -> None:
    """The compiled .tflite, its NPU operators run by the simulator, computes what the source
    model computes in the reference interpreter, bit for bit."""
    from npu_opt.ir.interpreter import Interpreter
    from npu_opt.tools.run_inputs import function_ports, gather_inputs

    source = import_tflite((DATA / f"{model}.tflite").read_bytes(), f"{model}.tflite")
    inputs = gather_inputs(function_ports(Interpreter(source).function())[0], [], 7).arrays
    compiled = api.load(str(DATA / f"{model}.tflite"))
    compiled.set_target("ethos-u65-512", system_config="Ethos_U65_High_End", memory_mode="Dedicated_Sram")
    compiled.run("compile")
    written = import_tflite(export_tflite(compiled.module), "compiled.tflite")
    assert holds_ethos_u(written)
    simulated = run_function(written, inputs)
    for ours, expected in zip(simulated, run_function(source, inputs)):
        assert np.array_equal(np.asarray(ours), np.asarray(expected))
