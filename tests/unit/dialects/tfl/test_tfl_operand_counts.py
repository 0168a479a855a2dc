"""Every tfl op accepts each input count TFLite's kernels accept (optional operands may be absent).

The table is TFLite's own rule per builtin (the ``NumInputs`` checks of its reference kernels):
CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED take 2 or 3 inputs (no bias), TRANSPOSE_CONV 3 or
4, PADV2 2 or 3 (no constant_values). RESHAPE may have 1 input, but the importer turns its
ReshapeOptions.new_shape into the shape operand, so tfl.reshape always has 2.
"""
from __future__ import annotations

import math

import pytest

import npu_opt.dialects  # noqa: F401
from npu_opt.ir.opdef import all_dialects

INF = math.inf
TFLITE_INPUTS: dict[str, tuple[float, float]] = {
    "ABS": (1, 1), "ADD": (2, 2), "ARG_MAX": (2, 2), "AVERAGE_POOL_2D": (1, 1), "CONCATENATION": (1, INF),
    "CONV_2D": (2, 3), "DEPTHWISE_CONV_2D": (2, 3), "DEQUANTIZE": (1, 1), "EXP": (1, 1), "EXPAND_DIMS": (2, 2),
    "FULLY_CONNECTED": (2, 3), "HARD_SWISH": (1, 1), "LEAKY_RELU": (1, 1), "LOG": (1, 1), "LOGISTIC": (1, 1),
    "MAX_POOL_2D": (1, 1), "MAXIMUM": (2, 2), "MEAN": (2, 2), "MINIMUM": (2, 2), "MUL": (2, 2), "PACK": (1, INF),
    "PAD": (2, 2), "PADV2": (2, 3), "QUANTIZE": (1, 1), "RELU": (1, 1), "RELU6": (1, 1), "RELU_0_TO_1": (1, 1),
    "RELU_N1_TO_1": (1, 1), "RESHAPE": (2, 2), "RESIZE_BILINEAR": (2, 2), "RESIZE_NEAREST_NEIGHBOR": (2, 2),
    "RSQRT": (1, 1), "SHAPE": (1, 1), "SLICE": (3, 3), "SOFTMAX": (1, 1), "SPLIT": (2, 2), "SPLIT_V": (3, 3),
    "SQUARED_DIFFERENCE": (2, 2), "SQUEEZE": (1, 1), "STRIDED_SLICE": (4, 4), "SUB": (2, 2), "TANH": (1, 1),
    "TRANSPOSE": (2, 2), "TRANSPOSE_CONV": (3, 4), "UNPACK": (1, 1),
}
"""Builtin -> (fewest, most) inputs TFLite accepts."""


def _builtin_ops() -> dict[str, type]:
    tfl = next(d for d in all_dialects() if d.name == "tfl")
    return {cls.BUILTIN: cls for cls in tfl.ops.values() if getattr(cls, "BUILTIN", "")}


def _accepted(cls: type) -> tuple[float, float]:
    defs = cls._operand_defs  # type: ignore[attr-defined]
    fixed = sum(1 for d in defs if not d.variadic)
    if any(d.variadic and not d.optional for d in defs):
        return fixed, INF
    return fixed, fixed + sum(1 for d in defs if d.optional)


def test_every_builtin_of_the_dialect_is_in_the_table() -> None:
    assert sorted(set(_builtin_ops()) - set(TFLITE_INPUTS)) == []


@pytest.mark.parametrize("builtin", sorted(TFLITE_INPUTS))
def test_dialect_accepts_every_input_count_tflite_accepts(builtin: str) -> None:
    ops = _builtin_ops()
    if builtin not in ops:
        pytest.skip(f"{builtin} is not in the tfl dialect")
    low, high = _accepted(ops[builtin])
    want_low, want_high = TFLITE_INPUTS[builtin]
    assert low <= want_low and high >= want_high, f"{builtin}: accepts {low}..{high} inputs, TFLite {want_low}..{want_high}"
