"""The simulator's checks: a read of bytes nothing wrote, an address outside its region, a
region without a base pointer, a weight stream read past its end and an operation it does not
model are each one error naming the op (index and name) and the address or mode."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import npu_opt.dialects  # noqa: F401 - registers the dialects
from npu_opt.dialects.tfl.tflite import import_tflite
from npu_opt.ir.interpreter import InterpretError, run_function
from npu_opt.ir.parser import parse_module
from npu_opt.ir.printer import print_op

CONV = Path(__file__).resolve().parents[3] / "data" / "vela" / "compiled" / "conv.u55-128.legacy.tflite"
CONV_IFM = "ifm = #ethosu.fm<int8, NHWC, region = 1, bases = [0, 0, 0, 0], tiles = [8, 8, 4]"
"""The first program's convolution: op 1, after the DMA of 368 bytes to region 1 at 320 (its
scales, then its weights at 400)."""


def _run_edited(old: str, new: str) -> None:
    text = print_op(import_tflite(CONV.read_bytes(), str(CONV)))
    assert text.count(old) == 1, old
    module = parse_module(text.replace(old, new))
    inputs = [np.random.default_rng(0).integers(-128, 128, (1, 8, 8, 3)).astype(np.int8)]
    run_function(module, inputs)


def test_the_unedited_model_runs():
    _run_edited(CONV_IFM, CONV_IFM)


DMA_SRC = "src = #ethosu.mem<region = 0, address = 80>"
WEIGHTS = "weights = #ethosu.stream<region = 1, base = 400, length = 288>"
ACT = "activation = #ethosu.act<none, min = 3, max = 127>"
EDITS = [  # (what is edited, into what, the error it must give)
    (CONV_IFM, CONV_IFM.replace("bases = [0,", "bases = [700,"),
     r"op 1 \(ethosu.conv2d\): the IFM reads byte 700 of region 1, which nothing wrote"),
    (CONV_IFM, CONV_IFM.replace("bases = [0,", "bases = [900,"),
     r"op 1 \(ethosu.conv2d\): the IFM address 1091 is outside region 1 \(size 944\)"),
    (DMA_SRC, DMA_SRC.replace("region = 0", "region = 5"), r"op 0 \(ethosu.dma\): region 5 has no base pointer"),
    (WEIGHTS, WEIGHTS.replace("288", "16"),
     r"op 1 \(ethosu.conv2d\): the weight stream at region 1 address 400 \(length 16\): the weight stream ends "
     r"at byte 16"),
    (DMA_SRC, DMA_SRC.replace("80>", "80, stride_mode = d2>"),
     r"op 0 \(ethosu.dma\): DMA stride mode d2/d1 is not modelled"),
    (ACT, ACT.replace("none", "tanh"),
     r"op 1 \(ethosu.conv2d\): the built-in 'tanh' activation is modelled for 16-bit OFMs only, not int8"),
]
"""Reading bytes nothing wrote, an address outside its region, a region without a base pointer,
a weight stream read past its end, an operation it does not model, a built-in tanh of an 8-bit OFM."""


@pytest.mark.parametrize(("old", "new", "error"), EDITS)
def test_each_broken_command_is_one_error_naming_the_op(old: str, new: str, error: str):
    with pytest.raises(InterpretError, match=error):
        _run_edited(old, new)
