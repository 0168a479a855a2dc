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


def test_reading_bytes_nothing_wrote():
    with pytest.raises(InterpretError, match=r"op 1 \(ethosu.conv2d\): the IFM reads byte 700 of region 1, "
                                             r"which nothing wrote"):
        _run_edited(CONV_IFM, CONV_IFM.replace("bases = [0,", "bases = [700,"))


def test_an_address_outside_its_region():
    with pytest.raises(InterpretError, match=r"op 1 \(ethosu.conv2d\): the IFM address 1091 is outside region 1 "
                                             r"\(size 944\)"):
        _run_edited(CONV_IFM, CONV_IFM.replace("bases = [0,", "bases = [900,"))


def test_a_region_without_base_pointer():
    dma = "src = #ethosu.mem<region = 0, address = 80>"
    with pytest.raises(InterpretError, match=r"op 0 \(ethosu.dma\): region 5 has no base pointer"):
        _run_edited(dma, dma.replace("region = 0", "region = 5"))


def test_a_weight_stream_read_past_its_end():
    weights = "weights = #ethosu.stream<region = 1, base = 400, length = 288>"
    with pytest.raises(InterpretError, match=r"op 1 \(ethosu.conv2d\): the weight stream at region 1 address 400 "
                                             r"\(length 16\): the weight stream ends at byte 16"):
        _run_edited(weights, weights.replace("288", "16"))


def test_an_operation_it_does_not_model():
    dma = "src = #ethosu.mem<region = 0, address = 80>"
    with pytest.raises(InterpretError, match=r"op 0 \(ethosu.dma\): DMA stride mode d2/d1 is not modelled"):
        _run_edited(dma, dma.replace("80>", "80, stride_mode = d2>"))


def test_the_built_in_tanh_of_an_8_bit_ofm_is_refused():
    act = "activation = #ethosu.act<none, min = 3, max = 127>"
    with pytest.raises(InterpretError, match=r"op 1 \(ethosu.conv2d\): the built-in 'tanh' activation is modelled "
                                             r"for 16-bit OFMs only, not int8"):
        _run_edited(act, act.replace("none", "tanh"))
