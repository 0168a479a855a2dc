"""tfl.ethos_u written by hand: it verifies its attributes, and exports to an ethos-u operator
whose payload is Vela's header around its words, with its memory tensors and arena offsets."""
from __future__ import annotations

import io

import numpy as np
import pytest

import npu_opt.dialects  # noqa: F401
from npu_opt.dialects.tfl.tflite import export_tflite
from npu_opt.dialects.tfl.tflite.ethosu_custom import PayloadHeader
from npu_opt.dialects.tfl.tflite.ethosu_reader import read_compiled
from npu_opt.ir.diagnostics import DiagnosticEngine
from npu_opt.ir.parser import ParseOptions, parse_module
from npu_opt.ir.verifier import verify

TYPE = "tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5:1>>"


def _module(stream: str = "dense<[1, 2, 3]> : tensor<3xui32>", extra: str = ""):
    text = (f'func.func @main(%arg0: {TYPE}) -> {TYPE} attributes {{tfl.arena_offsets = [0 : i64]}} {{\n'
            f'  %0 = "tfl.ethos_u"(%arg0) <{{command_stream = {stream}, read_only = dense<[7, 8]> : tensor<2xui8>, '
            f'scratch_size = 256 : i64, fast_scratch_size = 0 : i64, scratch_offset = 64 : i64, '
            f'npu_config = 6151 : i64, npu_id = 268828672 : i64{extra}}}> {{tfl.arena_offsets = [128 : i64]}} '
            f': ({TYPE}) -> {TYPE}\n  return %0 : {TYPE}\n}}\n')
    return parse_module(text, "t.mlir", ParseOptions())


def _errors(module) -> list[str]:
    stream = io.StringIO()
    verify(module, DiagnosticEngine(stream=stream))
    return stream.getvalue().splitlines()


def test_hand_written_op_exports_as_an_ethos_u_operator() -> None:
    module = _module()
    assert _errors(module) == []
    model = read_compiled(export_tflite(module))
    graph = model.subgraphs[0]
    (op,) = graph.ethos_u()
    assert op.command_stream.tolist() == [1, 2, 3]
    assert op.payload == PayloadHeader.for_npu(6151, 268828672).payload(np.array([1, 2, 3], np.uint32))
    assert bytes(op.read_only) == b"\x07\x08" and (op.scratch_size, op.fast_scratch_size) == (256, 0)
    assert op.header.product == "ethos-u55" and op.header.macs_per_cycle == 128
    names = [graph.tensors[i].name for i in op.memory_tensors]
    assert names == [f"main_ethos_u_0_{role}" for role in ("command_stream", "read_only", "scratch", "fast_scratch")]
    offsets = {t.name: t.arena_offset for t in graph.tensors}
    assert offsets["main_ethos_u_0_scratch"] == 64 and offsets["main_ethos_u_0_command_stream"] == -1
    assert offsets[graph.tensors[graph.inputs[0]].name] == 0
    assert offsets[graph.tensors[graph.outputs[0]].name] == 128


@pytest.mark.parametrize("stream,extra,message", [
    ("dense<[1, 2]> : tensor<2xi32>", "", "command_stream must be a 1-D tensor of ui32 words, not 'tensor<2xi32>'"),
    ("dense<[1, 2]> : tensor<2xui32>", ', tensor_names = ["a"]', "tensor_names must name 4 tensors"),
])
def test_verifier_names_the_bad_attribute(stream: str, extra: str, message: str) -> None:
    errors = _errors(_module(stream, extra))
    assert len(errors) == 1 and message in errors[0]
