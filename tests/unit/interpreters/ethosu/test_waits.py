"""The simulator checks the waits: a command touching bytes a DMA or NPU operation still in flight
writes or reads is one error naming both commands (index, name, byte offset), the bytes and the
wait that is missing, in Vela's outputs and in npu-opt's own compiled models; ``order`` turns the
check off; every Vela output in tests/data runs under it (test_compiled_models)."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

import npu_opt.dialects  # noqa: F401 - registers the dialects
import npu_opt.passes  # noqa: F401 - registers the passes
from npu_opt.dialects.tfl.tflite import export_tflite, import_tflite
from npu_opt.interpreters.ethosu.tfl_kernel import sim_checks
from npu_opt.ir.interpreter import InterpretError, run_function
from npu_opt.ir.parser import parse_module
from npu_opt.ir.printer import print_op

DATA = Path(__file__).resolve().parents[3] / "data"
VELA_CONV = DATA / "vela" / "compiled" / "conv.u55-128.legacy.tflite"
WEIGHTS = "scales = #ethosu.stream<region = 1, base = 320, length = 80>, dma_wait = 0 : i32"
"""Vela's first program: op 1, the convolution, waits for op 0, the DMA of its scales and weights."""
LATE_DMA = "dst = #ethosu.mem<region = 1, address = 128>, length = 816 : i64, kernel_wait = 1 : i32"
"""Vela's second program: op 2, the DMA of the last convolution's weights over the bytes op 0 (a
pool) reads, waits until op 1 alone may be running."""
INPUTS = [np.random.default_rng(0).integers(-128, 128, (1, 8, 8, 3)).astype(np.int8)]


def _text(data: bytes) -> str:
    return print_op(import_tflite(data, "conv.tflite"))


def _run(text: str, old: str, new: str) -> list[np.ndarray]:
    assert text.count(old) == 1, old
    return run_function(parse_module(text.replace(old, new), "conv.mlir"), INPUTS)


def test_vela_s_stream_runs_with_its_waits():
    text = _text(VELA_CONV.read_bytes())
    assert [a.tobytes() for a in _run(text, WEIGHTS, WEIGHTS)] == [a.tobytes() for a in run_function(
        import_tflite(VELA_CONV.read_bytes(), "conv.tflite"), INPUTS)]


def test_a_removed_dma_wait_in_vela_s_stream_is_caught():
    text = _text(VELA_CONV.read_bytes())
    with pytest.raises(InterpretError, match=r"its ethos-u program: op 1 \(ethosu.conv2d, command at byte "
                                             r"offset \d+\) reads bytes 320 to \d+ of region 1, which op 0 "
                                             r"\(ethosu.dma, at byte offset \d+\) may still be writing: no "
                                             r"NPU_OP_DMA_WAIT before op 1 retires it") as caught:
        _run(text, WEIGHTS, WEIGHTS.replace(", dma_wait = 0 : i32", ""))
    assert _located(caught.value)


def _located(error: InterpretError) -> bool:
    """Whether the error is at a line and column of conv.mlir (the tfl.ethos_u op)."""
    where = error.diagnostic.location.file_line_col() if error.diagnostic.location is not None else None
    return where is not None and where.file == "conv.mlir" and where.line > 0


def test_a_raised_kernel_wait_in_vela_s_stream_is_caught():
    text = _text(VELA_CONV.read_bytes())
    with pytest.raises(InterpretError, match=r"op 2 \(ethosu.dma, command at byte offset \d+\) overwrites bytes 320 "
                                             r"to 575 of region 1, which op 0 \(ethosu.pool, at byte offset \d+\) may "
                                             r"still be reading: no NPU_OP_KERNEL_WAIT before op 2 retires it"):
        _run(text, LATE_DMA, LATE_DMA.replace("kernel_wait = 1", "kernel_wait = 2"))


def test_order_mode_runs_the_stream_without_its_waits():
    text = _text(VELA_CONV.read_bytes())
    with sim_checks("order"):
        _run(text, WEIGHTS, WEIGHTS.replace(", dma_wait = 0 : i32", ""))
    with pytest.raises(ValueError, match="'loose' is not one of strict, order"):
        with sim_checks("loose"):
            pass


@lru_cache(maxsize=None)
def _ours() -> str:
    """conv.tflite compiled by npu-opt for a U55-128 (schedule, then the code generation)."""
    from npu_opt.passes.codegen.pipeline import CODEGEN_PIPELINE
    from npu_opt.tools import api
    found = api.load(DATA / "conv.tflite").set_target("ethos-u55-128", system_config="Ethos_U55_High_End_Embedded",
                                                        memory_mode="Shared_Sram")
    found.run("schedule{optimise=Performance}")
    found = api.parse(found.text(debuginfo=True), "conv.mlir")
    found.run(CODEGEN_PIPELINE)
    return _text(export_tflite(found.module))


def test_a_removed_wait_in_npu_opt_s_stream_is_caught():
    text = _ours()
    waiting = [line for line in text.splitlines() if '"ethosu.conv2d"' in line and "dma_wait = 0 : i32" in line]
    assert waiting, "the compiled convolution waits for its weight DMA"
    line = waiting[0]
    run_function(parse_module(text, "conv.mlir"), INPUTS)  # (runs as compiled)
    with pytest.raises(InterpretError, match=r"op 1 \(ethosu.conv2d, command at byte offset \d+\) reads bytes \d+ to "
                                             r"\d+ of region 1, which op 0 \(ethosu.dma, at byte offset \d+\) may "
                                             r"still be writing: no NPU_OP_DMA_WAIT before op 1 retires it"):
        _run(text, line, line.replace(", dma_wait = 0 : i32", ""))


def test_an_unwritten_output_is_a_located_error():
    """The convolution's OFM moved 64 bytes on: the tfl.ethos_u's output was never written, one
    error at the op (reading the outputs), not a bare simulator exception."""
    ofm = "ofm = #ethosu.fm<int8, NHWC, region = 1, bases = [192, 0, 0, 0]"
    text = _text(VELA_CONV.read_bytes())
    with pytest.raises(InterpretError, match=r"its ethos-u program: reading the outputs: an output reads byte 192 of "
                                             r"region 1, which nothing wrote") as caught:
        _run(text, ofm, ofm.replace("[192,", "[256,"))
    assert _located(caught.value)
