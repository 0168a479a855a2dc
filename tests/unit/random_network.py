"""Random small int8 networks for the schedule search, and what a search at budgets below Size's
SRAM makes of one: bench/random_networks.py runs many, test_random_networks.py a few.

Each seed builds a network (tests/data/make_models.py's helpers): an image of 6-32 rows and 6-32
or 64-200 columns with 8-24 channels through 3-8 layers, each a convolution (1x1, 3x3 or 5x5,
stride 1 or 2, 8-32 channels), a depthwise convolution (3x3 or 5x5), a max or average pool (2x2
or 3x3, SAME), a residual add of an earlier feature map of the same shape, or a channel
concatenation with an earlier one of the same height and width.
"""
from __future__ import annotations

import sys
import traceback
from pathlib import Path
from typing import Callable

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "data"))

CONFIGS: dict[str, tuple[str, str | None, str | None, int | None]] = {
    "A": ("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram", None),
    "C": ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram_384KB", None),
    "D16": ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram", 16384),
    "S32": ("ethos-u55-32", "Ethos_U55_High_End_Embedded", "Shared_Sram", None),
}
FRACTIONS = (25, 50, 75, 100)


Made = tuple[tuple[str, str], tuple[int, int, int], float]
"""A feature map the generator made: its (SSA name, type), (height, width, channels) and scale."""


def _joined(f, kind: str, last: Made, made: list[Made], index: int, quant: Callable[[float], str],
            activation: str, other_first: bool) -> Made | None:
    """For ``kind`` "add", ``last`` plus an earlier feature map of its shape; for "concat", a
    channel concatenation of ``last`` and an earlier one of its height and width (the earlier
    first with ``other_first``); None for another kind or when no earlier map matches."""
    import make_models as mm

    x, shape, scale = last
    h, w, c = shape
    earlier = [m for m in made[:-1] if (m[1] == shape if kind == "add" else m[1][:2] == shape[:2])]
    if kind not in ("add", "concat") or not earlier:
        return None
    other = earlier[int(f.rng.integers(0, len(earlier)))]
    if kind == "add":
        scale *= 2
        value = f.op("tfl.add", [x, other[0]], [mm.t((1, *shape), quant(scale))],
                     f'fused_activation_function = "{activation}"', f"add{index}")[0]
        return value, shape, scale
    shape, scale = (h, w, c + other[1][2]), max(scale, other[2])
    value = f.op("tfl.concatenation", [other[0], x] if other_first else [x, other[0]],
                 [mm.t((1, *shape), quant(scale))], 'axis = 3 : i32, fused_activation_function = "NONE"',
                 f"concat{index}")[0]
    return value, shape, scale


def network(seed: int) -> str:
    """The random network of ``seed``, as MLIR text in the TFL dialect."""
    import make_models as mm

    rng = np.random.default_rng(seed)
    height = int(rng.integers(6, 33))
    width = int(rng.choice([int(rng.integers(6, 33)), int(rng.integers(64, 201))]))
    channels = int(rng.choice([8, 16, 24]))
    f = mm.Func("main", [("input", mm.t((1, height, width, channels), mm.q8(mm.A, 0)))], rng)
    x = ("%arg0", mm.t((1, height, width, channels), mm.q8(mm.A, 0)))
    shape, scale = (height, width, channels), mm.A
    made = [(x, shape, scale)]
    for index in range(int(rng.integers(3, 9))):
        kind = str(rng.choice(["conv", "conv", "depthwise", "pool", "add", "concat"]))
        h, w, c = shape
        joined = _joined(f, kind, (x, shape, scale), made, index, lambda s: mm.q8(s, 0), "NONE", False)
        if joined is not None:
            x, shape, scale = joined
            made.append(joined)
            continue
        stride = int(rng.choice([1, 1, 2]))
        out_h, out_w = (h + stride - 1) // stride, (w + stride - 1) // stride
        if kind == "pool":
            size, shape = int(rng.choice([2, 3])), (out_h, out_w, c)
            x = mm._pool(f, str(rng.choice(["max", "average"])), x, mm.t((1, *shape), mm.q8(scale, 0)), size, stride,
                         "SAME", f"pool{index}")
        elif kind == "depthwise":
            k = int(rng.choice([3, 5]))
            shape = (out_h, out_w, c)
            x = mm._conv(f, x, mm.t((1, *shape), mm.q8(scale * 4, 0)), (k, k), (c, c), scale, f"depthwise{index}",
                         stride=(stride, stride), depthwise=True, act="RELU")
            scale *= 4
        else:
            k, out_c = int(rng.choice([1, 3, 5])), int(rng.choice([8, 16, 24, 32]))
            shape = (out_h, out_w, out_c)
            x = mm._conv(f, x, mm.t((1, *shape), mm.q8(scale * 8, 0)), (k, k), (c, out_c), scale, f"conv{index}",
                         stride=(stride, stride), act="RELU")
            scale *= 8
        made.append((x, shape, scale))
    return mm.module(f.text([x]))


RICH = 1000
"""Seeds from here build ``rich_network``s."""


def rich_network(seed: int) -> str:
    """``network``'s kinds of layer and more: VALID padding, dilated 3x3 convolutions, 2x
    nearest-neighbour upscaling, strided VALID max pools, and nonzero zero points."""
    import make_models as mm

    rng = np.random.default_rng(seed)
    height, width = int(rng.integers(5, 25)), int(rng.choice([int(rng.integers(5, 25)), int(rng.integers(48, 129))]))
    channels = int(rng.choice([8, 16, 32]))

    def q(s: float) -> str:
        return mm.q8(s, int(rng.integers(-8, 9)))

    f = mm.Func("main", [("input", mm.t((1, height, width, channels), q(mm.A)))], rng)
    x = ("%arg0", f.args[0][1])
    shape, scale = (height, width, channels), mm.A
    made = [(x, shape, scale)]
    for index in range(int(rng.integers(3, 9))):
        kind = str(rng.choice(["conv", "valid", "dilated", "depthwise", "pool", "upscale", "add", "concat"]))
        h, w, c = shape
        joined = _joined(f, kind, (x, shape, scale), made, index, q, "RELU", True)
        if joined is not None:
            x, shape, scale = joined
        elif kind == "upscale" and h <= 24 and w <= 64:
            shape = (2 * h, 2 * w, c)
            x = f.op("tfl.resize_nearest_neighbor", [x, f.i32([2 * h, 2 * w])], [mm.t((1, *shape), _element(x[1]))],
                     "align_corners = false, half_pixel_centers = false", f"upscale{index}")[0]
        elif kind == "valid" and min(h, w) >= 3:
            k, stride = int(rng.choice([2, 3])), int(rng.choice([1, 2]))
            shape = ((h - k) // stride + 1, (w - k) // stride + 1, int(rng.choice([8, 16])))
            x = mm._conv(f, x, mm.t((1, *shape), q(scale * 8)), (k, k), (c, shape[2]), scale, f"valid{index}",
                         stride=(stride, stride), padding="VALID", act="RELU")
            scale *= 8
        elif kind == "dilated" and min(h, w) >= 5:
            shape = (h, w, int(rng.choice([8, 16])))
            x = mm._conv(f, x, mm.t((1, *shape), q(scale * 8)), (3, 3), (c, shape[2]), scale, f"dilated{index}",
                         dilation=(2, 2), depthwise=False)
            scale *= 8
        elif kind == "pool" and min(h, w) >= 2:
            valid = bool(rng.integers(0, 2))
            shape = ((h - 2) // 2 + 1, (w - 2) // 2 + 1, c) if valid else ((h + 1) // 2, (w + 1) // 2, c)
            x = mm._pool(f, "max" if valid else str(rng.choice(["max", "average"])), x, mm.t((1, *shape), _element(x[1])),
                         2, 2, "VALID" if valid else "SAME", f"pool{index}")
        elif kind == "depthwise":
            shape = (h, w, c)
            x = mm._conv(f, x, mm.t((1, *shape), q(scale * 4)), (3, 3), (c, c), scale, f"depthwise{index}",
                         depthwise=True, act="RELU6")
            scale *= 4
        else:
            out_c = int(rng.choice([8, 16, 24]))
            shape = (h, w, out_c)
            x = mm._conv(f, x, mm.t((1, *shape), q(scale * 8)), (1, 1), (c, out_c), scale, f"conv{index}", act="RELU")
            scale *= 8
        made.append((x, shape, scale))
    return mm.module(f.text([x]))


def _element(tensor_type: str) -> str:
    """The element type of a ``tensor<1xHxWxCxELEMENT>`` string."""
    return tensor_type[len("tensor<"):-1].split("x", 4)[4]


def _imported(text: str, config: str):
    from targeted_import import parsed_with_target
    return parsed_with_target(text, "random.mlir", *CONFIGS[config])


def outcomes(job: tuple[int, str]) -> tuple[int, str, list[str]]:
    """(seed, config, one outcome per budget): "ok", "ok bands", "no fit", or what went wrong."""
    seed, config = job
    import npu_opt.dialects  # noqa: F401
    import npu_opt.passes  # noqa: F401
    from npu_opt.dialects.npu.schedule_attrs import USAGE_ATTR
    from npu_opt.interpreters.scheduled import run_scheduled
    from npu_opt.ir.interpreter import run_function
    from npu_opt.ir.parser import parse_module
    from npu_opt.ir.printer import print_op
    from targeted_import import run_pipeline, seeded_inputs

    try:
        text = rich_network(seed) if seed >= RICH else network(seed)
        size = _imported(text, config)
        size_sram = (size.attr(USAGE_ATTR).used("Sram") if run_pipeline(size, "schedule{optimise=Size}") == ""
                     else CONFIGS[config][3] or 0)
        reference = _imported(text, config)
        assert run_pipeline(reference, "npu-legalize") == ""
        inputs = seeded_inputs(next(op for op in reference.walk() if op.name == "func.func"))
        expected = [a.tobytes() for a in run_function(reference, inputs)]
        found = []
        for fraction in FRACTIONS:
            module = _imported(text, config)
            errors = run_pipeline(module, f"schedule{{sram-budget={max(1, size_sram * fraction // 100)}}}")
            if errors:
                clean = "no schedule fits" in errors and errors.count("error:") == 1
                found.append("no fit" if clean else "error: " + errors.strip()[:200])
                continue
            scheduled = print_op(module)
            checked = run_pipeline(parse_module(scheduled, "random.mlir"), "npu-check-schedule")
            if checked:
                found.append("checker: " + checked.strip()[:200])
                continue
            got = [a.tobytes() for a in run_scheduled(parse_module(scheduled, "random.mlir"), inputs)]
            found.append(("ok bands" if "width_bands" in scheduled else "ok") if got == expected else "values differ")
        return seed, config, found
    except Exception:  # noqa: BLE001 - a crash is an outcome to list, not the bench's end
        return seed, config, ["crash: " + traceback.format_exc().strip().splitlines()[-1][:200]]


