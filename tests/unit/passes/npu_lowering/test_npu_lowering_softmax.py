"""The 8-bit SOFTMAX decomposition (passes/npu_lowering/softmax.py), and the tfl kernel it replaces,
compute what ai-edge-litert computes, beyond the depths and scales of tests/data: 10, 1000, 1001
and 4096 classes, input scales from 1/256 to 1, zero points 0 and not, two betas, on seeded
random, peaked, all-equal and one-large-maximum rows.

LiteRT's reference int8 softmax is gemmlowp's fixed-point one, the arithmetic Vela's NPU program
follows. It aborts the process on a row whose exponentials sum to 512 or more (its final rounding
shift would exceed 31 bits), so rows are split by their sum (in float64, with a margin around 512):
the smaller ones are compared with the reference kernels, the larger ones with LiteRT's optimised
(float) kernels, whose probabilities there are all below 1/512 and round to the zero point, as the
NPU program's do.
"""
from __future__ import annotations


import numpy as np
import pytest

import npu_opt.dialects  # noqa: F401 - registers the dialects
import npu_opt.passes  # noqa: F401 - registers the passes and pipelines
from npu_opt.ir.interpreter import run_function
from softmax_models import softmax_model

pytest.importorskip("ai_edge_litert.interpreter")

REFERENCE_BELOW, OPTIMISED_ABOVE = 500.0, 525.0
"""Row sums of exp(beta * scale * (x - max)) compared with the reference kernels (below) and with
the optimised ones (above); rows in between are left out (none of the seeded rows falls there
by more than a few)."""


def seeded_rows(depth: int, seed: int) -> np.ndarray:
    """Eight rows: uniform over int8, three logit-like distributions (a few large values over a
    spread of small ones), all equal twice, one maximum over the minimum, and a near-tie."""
    rng = np.random.default_rng(seed)
    rows = [rng.integers(-128, 128, size=depth),
            rng.normal(-60, 25, size=depth), rng.normal(-100, 10, size=depth), rng.normal(0, 60, size=depth),
            np.full(depth, 17), np.full(depth, -128), np.full(depth, -128), rng.normal(-98, 8, size=depth)]
    rows[1][rng.integers(0, depth, 3)] = 127 - rng.integers(0, 40, 3)
    rows[6][depth // 3] = 127
    rows[7][rng.integers(0, depth, 5)] = 100
    return np.clip(np.round(np.array(rows, dtype=np.float64)), -128, 127).astype(np.int8)


def tfl_outputs(data: bytes, x: np.ndarray) -> np.ndarray:
    """The model as imported (the tfl kernel), run by the interpreter."""
    from npu_opt.dialects.tfl.tflite import import_tflite
    return np.asarray(run_function(import_tflite(data, "softmax.tflite"), [x])[0]).reshape(x.shape)


def npu_outputs(data: bytes, x: np.ndarray) -> np.ndarray:
    """The model after npu-legalize (the NPU ops Vela programs), run by the interpreter."""
    from npu_opt.dialects.tfl.tflite import import_tflite
    from npu_opt.ir.diagnostics import DiagnosticEngine, SourceManager
    from npu_opt.tools.api import set_target
    from npu_opt.tools.npu_run import transform

    module = set_target(import_tflite(data, "softmax.tflite"), "ethos-u55-128")
    assert transform(module, ["npu-legalize"], DiagnosticEngine(SourceManager()))
    assert not [op for op in module.walk() if op.name == "tfl.softmax"], "the softmax must run on the NPU"
    return np.asarray(run_function(module, [x])[0]).reshape(x.shape)


def litert_outputs(data: bytes, x: np.ndarray, reference: bool) -> np.ndarray:
    from ai_edge_litert.interpreter import Interpreter, OpResolverType
    kind = OpResolverType.BUILTIN_REF if reference else OpResolverType.BUILTIN
    runner = Interpreter(model_content=data, experimental_op_resolver_type=kind)
    runner.allocate_tensors()
    runner.set_tensor(runner.get_input_details()[0]["index"], x)
    runner.invoke()
    return np.array(runner.get_tensor(runner.get_output_details()[0]["index"]))


CASES = [(depth, scale, zero_point, beta)
         for depth in (10, 1000, 1001, 4096)
         for scale, beta in ((1 / 256, 1.0), (1 / 64, 0.7), (0.05, 1.0), (1.0, 0.7))
         for zero_point in (0, -37)]


@pytest.mark.parametrize("depth, scale, zero_point, beta", CASES)
def test_softmax_equals_litert(depth: int, scale: float, zero_point: int, beta: float) -> None:
    x = seeded_rows(depth, seed=depth + abs(zero_point))
    data = softmax_model(len(x), depth, scale, zero_point, beta)
    npu, tfl = npu_outputs(data, x), tfl_outputs(data, x)
    diff = x.astype(np.float64) - x.max(axis=1, keepdims=True)
    sums = np.exp(np.float64(np.float32(beta) * np.float32(scale)) * diff).sum(axis=1)
    for rows, reference in ((sums < REFERENCE_BELOW, True), (sums > OPTIMISED_ABOVE, False)):
        if not rows.any():
            continue
        theirs = litert_outputs(softmax_model(int(rows.sum()), depth, scale, zero_point, beta), x[rows], reference)
        for what, ours in (("npu", npu), ("tfl", tfl)):
            bad = ours[rows] != theirs
            assert not bad.any(), (f"{what}: {int(bad.sum())} of {bad.size} differ from the "
                                   f"{'reference' if reference else 'optimised'} kernels: ours {ours[rows][bad][:8]}, "
                                   f"theirs {theirs[bad][:8]}")
    assert ((sums < REFERENCE_BELOW) | (sums > OPTIMISED_ABOVE)).sum() >= len(x) - 1


def test_zero_point_zero_scales_like_vela() -> None:
    """The two final products carry Vela's scaling explicitly: with an IFM zero point of 0 the
    "no scale" constant 2 and a scale-1 tensor have one type, and reading the scaling from the
    types made every probability of a ten-class softmax 0 or 1/256."""
    from npu_opt.dialects.tfl.tflite import import_tflite
    from npu_opt.ir.diagnostics import DiagnosticEngine, SourceManager
    from npu_opt.tools.npu_run import transform

    module = import_tflite(softmax_model(1, 10, 0.1, 0, 1.0), "softmax.tflite")
    assert transform(module, ["npu-legalize"], DiagnosticEngine(SourceManager()))
    scaling = {str(op.attr("name").value)[-5:]: (op.attr("rescale").multiplier, op.attr("rescale").shift)
               for op in module.walk() if op.name == "npu.mul" and op.attr("rescale") is not None}
    assert scaling["mul28"] == (1, 0)  # times the no-scale 2: no rescale
    assert scaling["mul29"] == (1 << 30, 31)  # scale 1 x scale 1 into scale 2: a half
