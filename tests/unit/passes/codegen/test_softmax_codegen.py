"""The 8-bit SOFTMAX compiled to a command stream and simulated computes what the legalised IR
computes (which equals LiteRT, test_npu_lowering_softmax), at IFM zero point 0 as elsewhere: its
"no scale" constants must not be rescaled by the stream when their type reads as scale 1."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import npu_opt.dialects  # noqa: F401 - registers the dialects
import npu_opt.passes  # noqa: F401 - registers the passes and pipelines
from npu_opt.dialects.tfl.tflite import export_tflite, import_tflite
from npu_opt.ir.interpreter import run_function
from npu_opt.tools import api
from softmax_models import softmax_model

CASES = [(depth, scale, zero_point, beta)
         for depth in (10, 1001)
         for scale, beta in ((1 / 256, 1.0), (1.0, 0.7))
         for zero_point in (0, -37)]


def _compiled(path: Path) -> bytes:
    model = api.load(path).set_target("ethos-u55-128").run("compile")
    return export_tflite(model.module)


@pytest.mark.parametrize("depth, scale, zero_point, beta", CASES)
def test_compiled_softmax_simulates_like_the_legalised_ir(depth: int, scale: float, zero_point: int, beta: float,
                                                          tmp_path: Path) -> None:
    rng = np.random.default_rng(depth + abs(zero_point))
    x = rng.integers(-128, 128, size=(3, depth), dtype=np.int8)
    data = softmax_model(len(x), depth, scale, zero_point, beta)
    (tmp_path / "softmax.tflite").write_bytes(data)
    legalised = api.load(tmp_path / "softmax.tflite").set_target("ethos-u55-128").run("npu-legalize").module
    expected = np.asarray(run_function(legalised, [x])[0]).reshape(x.shape)
    compiled = import_tflite(_compiled(tmp_path / "softmax.tflite"), "compiled.tflite")
    simulated = np.asarray(run_function(compiled, [x])[0]).reshape(x.shape)
    differ = simulated != expected
    assert not differ.any(), f"{int(differ.sum())} of {differ.size} differ: {simulated[differ][:8]} vs {expected[differ][:8]}"
