"""A residual network in miniature (a stem conv, residual blocks of three 3x3 convs and an add of
the block's input, a strided head), built with the tests/data model builders: the shape whose
blocks run as one cascade with cascade branches."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "data"))
import make_models as mm  # noqa: E402  (the tests/data model builders)


def residual_text(height: int = 32, blocks: int = 2) -> str:
    """A stem conv, then ``blocks`` residual blocks (three 3x3 convs, add of the block's input),
    then a strided head: a bottleneck stage in miniature."""
    f = mm.Func("main", [("input", mm.t((1, height, height, 8), mm.q8(mm.A, 0)))], np.random.default_rng(7))
    shape = (1, height, height, 16)
    x = mm._conv(f, ("%arg0", mm.t((1, height, height, 8), mm.q8(mm.A, 0))), mm.t(shape, mm.q8(0.125, 0)), (3, 3),
                 (8, 16), mm.A, "stem", act="RELU")
    for block in range(blocks):
        a = mm._conv(f, x, mm.t(shape, mm.q8(0.25, 0)), (3, 3), (16, 16), 0.125, f"block{block}_a", act="RELU")
        a = mm._conv(f, a, mm.t(shape, mm.q8(0.25, 0)), (3, 3), (16, 16), 0.25, f"block{block}_b", act="RELU")
        b = mm._conv(f, a, mm.t(shape, mm.q8(0.25, 0)), (3, 3), (16, 16), 0.25, f"block{block}_c")
        x = f.op("tfl.add", [x, b], [mm.t(shape, mm.q8(0.125, 0))], 'fused_activation_function = "RELU"',
                 f"block{block}_add")[0]
    half = height // 2
    out = mm._conv(f, x, mm.t((1, half, half, 32), mm.q8(0.5, 0)), (3, 3), (16, 32), 0.125, "head", stride=(2, 2))
    return mm.module(f.text([out]))
