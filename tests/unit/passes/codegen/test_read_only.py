"""The read-only data npu-flash-layout lays out (passes/codegen/read_only.py) against Vela 5.2's:
the ``weight_data`` of its raw output (tests/data/vela/compiled, legacy core) for the five
compiled models on both configs, byte for byte."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import npu_opt.dialects  # noqa: F401  (registers the dialects)
import npu_opt.passes  # noqa: F401  (registers the passes)
from npu_opt.dialects.npu.target_attr import target_of
from npu_opt.passes.codegen.read_only import read_only_data
from npu_opt.tools import api

DATA = Path(__file__).resolve().parents[3] / "data"
CONFIGS = {
    "u55-128": ("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram"),
    "u65-256": ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram"),
}
MODELS = ("conv", "branches", "cpu_middle", "two_outputs", "weight_stream")


@pytest.mark.parametrize("config", list(CONFIGS))
@pytest.mark.parametrize("model", MODELS)
def test_read_only_data_is_vela_s(model: str, config: str):
    raw = np.load(DATA / "vela" / "compiled" / f"{model}.{config}.legacy.sg0.npz", allow_pickle=True)
    reference = raw["weight_data"].tobytes()
    loaded = api.load(str(DATA / f"{model}.tflite"))
    accelerator, system, memory = CONFIGS[config]
    loaded.set_target(accelerator, system_config=system, memory_mode=memory)
    loaded.run("schedule{optimise=Performance},npu-flash-layout")
    ours = read_only_data(loaded.module, target_of(loaded.module))
    first = next((i for i, (a, b) in enumerate(zip(ours, reference)) if a != b), None)
    assert (len(ours), first) == (len(reference), None)
