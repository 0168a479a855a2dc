"""Bad .tflite input: every kind of damage gives one clear error naming the file and the problem,
exit code 1, no traceback and no output file; a fuzz test (truncations and byte flips of every
tests/data model) shows no other exception escapes the importer or the verifier after it."""
from __future__ import annotations

import io
import random
import struct
from pathlib import Path

import flatbuffers
import numpy as np
import pytest

import npu_opt.dialects  # noqa: F401
from npu_opt.ir.diagnostics import DiagnosticEngine, UserError
from npu_opt.ir.verifier import verify
from npu_opt.tools import npu_opt, npu_translate
from npu_opt.dialects.tfl.tflite import import_tflite
from npu_opt.dialects.tfl.tflite import schema as S
from npu_opt.dialects.tfl.tflite.flatbuf import Buffer

DATA = Path(__file__).resolve().parents[5] / "tests" / "data"


def tiny_model(*, code: int = 0, version: int = 1, custom: str | None = None, opcode_index: int = 0,
               inputs: tuple[int, ...] = (0, 1), const_shape: tuple[int, ...] = (4,),
               const_data: bytes = bytes(16), const_buffer: int = 1, const_type: int = 0,
               buffer_offset: int | None = None, buffer_size: int | None = None,
               scales: list[float] | None = None, zero_points: list[int] | None = None,
               options_type: int = 11, schema_version: int = 3) -> bytes:
    """y = ADD(x, c) on f32[4], written directly with flatbuffers so every field can be wrong."""
    b = flatbuffers.Builder(1024)

    def ints(values, dtype="<i4"):
        return b.CreateNumpyVector(np.asarray(values, dtype=dtype))

    def vector(offsets):
        b.StartVector(4, len(offsets), 4)
        for off in reversed(offsets):
            b.PrependUOffsetTRelative(off)
        return b.EndVector()

    buffers = []
    for index in range(2):
        data = b.CreateNumpyVector(np.frombuffer(const_data, np.uint8)) if index == 1 and buffer_offset is None else None
        b.StartObject(3)
        if data is not None:
            b.PrependUOffsetTRelativeSlot(S.Buffer.DATA, data, 0)
        if index == 1 and buffer_offset is not None:
            b.PrependUint64Slot(S.Buffer.OFFSET, buffer_offset, 0)
            b.PrependUint64Slot(S.Buffer.SIZE, buffer_size or 0, 0)
        buffers.append(b.EndObject())
    tensors = []
    for index, (shape, type_, buffer) in enumerate([((4,), 0, 0), (const_shape, const_type, const_buffer), ((4,), 0, 0)]):
        shp, name = ints(shape), b.CreateString(f"t{index}")
        quant = None
        if index == 1 and scales is not None:
            sc, zp = ints(scales, "<f4"), ints(zero_points or [0] * len(scales), "<i8")
            b.StartObject(7)
            b.PrependUOffsetTRelativeSlot(S.Quantization.SCALE, sc, 0)
            b.PrependUOffsetTRelativeSlot(S.Quantization.ZERO_POINT, zp, 0)
            quant = b.EndObject()
        b.StartObject(9)
        b.PrependUOffsetTRelativeSlot(S.Tensor.SHAPE, shp, 0)
        b.PrependInt8Slot(S.Tensor.TYPE, type_, 0)
        b.PrependUint32Slot(S.Tensor.BUFFER, buffer, 0)
        b.PrependUOffsetTRelativeSlot(S.Tensor.NAME, name, 0)
        if quant is not None:
            b.PrependUOffsetTRelativeSlot(S.Tensor.QUANTIZATION, quant, 0)
        tensors.append(b.EndObject())
    b.StartObject(2)
    options = b.EndObject()
    op_in, op_out = ints(inputs), ints([2])
    b.StartObject(13)
    b.PrependUint32Slot(S.Operator.OPCODE_INDEX, opcode_index, 0)
    b.PrependUOffsetTRelativeSlot(S.Operator.INPUTS, op_in, 0)
    b.PrependUOffsetTRelativeSlot(S.Operator.OUTPUTS, op_out, 0)
    b.PrependUint8Slot(S.Operator.BUILTIN_OPTIONS_TYPE, options_type, 0)
    b.PrependUOffsetTRelativeSlot(S.Operator.BUILTIN_OPTIONS, options, 0)
    operator = b.EndObject()
    t_vec, o_vec, g_in, g_out = vector(tensors), vector([operator]), ints([0]), ints([2])
    b.StartObject(5)
    b.PrependUOffsetTRelativeSlot(S.SubGraph.TENSORS, t_vec, 0)
    b.PrependUOffsetTRelativeSlot(S.SubGraph.INPUTS, g_in, 0)
    b.PrependUOffsetTRelativeSlot(S.SubGraph.OUTPUTS, g_out, 0)
    b.PrependUOffsetTRelativeSlot(S.SubGraph.OPERATORS, o_vec, 0)
    graph = b.EndObject()
    custom_name = b.CreateString(custom) if custom is not None else None
    b.StartObject(4)
    b.PrependInt8Slot(S.OperatorCode.DEPRECATED_BUILTIN_CODE, min(code, 127), 0)
    if custom_name is not None:
        b.PrependUOffsetTRelativeSlot(S.OperatorCode.CUSTOM_CODE, custom_name, 0)
    b.PrependInt32Slot(S.OperatorCode.VERSION, version, 1)
    b.PrependInt32Slot(S.OperatorCode.BUILTIN_CODE, code, 0)
    opcode = b.EndObject()
    codes, graphs, bufs = vector([opcode]), vector([graph]), vector(buffers)
    b.StartObject(8)
    b.PrependUint32Slot(S.Model.VERSION, schema_version, 0)
    b.PrependUOffsetTRelativeSlot(S.Model.OPERATOR_CODES, codes, 0)
    b.PrependUOffsetTRelativeSlot(S.Model.SUBGRAPHS, graphs, 0)
    b.PrependUOffsetTRelativeSlot(S.Model.BUFFERS, bufs, 0)
    b.Finish(b.EndObject(), file_identifier=b"TFL3")
    return bytes(b.Output())


def test_the_tiny_model_is_valid():
    module = import_tflite(tiny_model(), "tiny.tflite")
    assert verify(module, DiagnosticEngine(stream=io.StringIO()))
    assert [op.name for op in module.walk()][-3:] == ["tfl.pseudo_const", "tfl.add", "func.return"]


def _huge_vector_length() -> bytes:
    """A valid model whose constant buffer claims 2 GB of data."""
    data = bytearray(tiny_model())
    model = Buffer(bytes(data)).root()
    buffer = model.tables(S.Model.BUFFERS, "buffers")[1]
    start, _ = buffer.vector(S.Buffer.DATA, 1, "data")
    struct.pack_into("<I", data, start - 4, 0x80000000)
    return bytes(data)


BAD_INPUTS = {
    "empty": (b"", "the file is empty"),
    "truncated": (tiny_model()[:60], "lies outside the 60-byte file"),
    "garbage": (bytes(range(7, 250)) * 3, "not a TFLite model: expected the file identifier 'TFL3'"),
    "other schema": (b"\x0c\x00\x00\x00BFBS" + bytes(24), "found 'BFBS'"),
    "other schema version": (tiny_model(schema_version=2), "unsupported TFLite schema version 2"),
    "buffer offset out of range": (tiny_model(buffer_offset=1 << 20, buffer_size=16),
                                   "buffer 1 (offset 1048576, size 16) lies outside the"),
    "buffer size out of range": (tiny_model(buffer_offset=64, buffer_size=1 << 40), "lies outside the"),
    "buffer index out of range": (tiny_model(const_buffer=7), "refers to buffer 7, but the model has 2 buffers"),
    "shape disagrees with buffer": (tiny_model(const_data=bytes(12)),
                                    "of type tensor<4xf32> needs 16 bytes, but its buffer 1 holds 12"),
    "negative dimension": (tiny_model(const_shape=(-4,)), "has a negative dimension"),
    "unknown opcode": (tiny_model(code=4000), "unknown builtin operator code 4000"),
    "unknown version": (tiny_model(version=1000), "has version 1000, which no TFLite release defines"),
    "custom without name": (tiny_model(code=32), "is CUSTOM but has no custom_code"),
    "opcode index out of range": (tiny_model(opcode_index=5), "uses operator code 5, but the model has 1"),
    "tensor index out of range": (tiny_model(inputs=(0, 9)), "reads tensor 9, but subgraph 0 has 3 tensors"),
    "unsupported type": (tiny_model(const_type=5), "has element type STRING, which npu-opt does not support"),
    "unproduced tensor": (tiny_model(inputs=(0, 2)), "which is neither a subgraph input, a constant nor"),
    "scales and zero points": (tiny_model(const_type=9, const_data=bytes(4), scales=[0.5, 0.5], zero_points=[0]),
                               "has 2 quantisation scales but 1 zero points"),
    "invalid scale": (tiny_model(const_type=9, const_data=bytes(4), scales=[-1.0]), "has invalid quantisation"),
    "wrong options": (tiny_model(options_type=1), "has builtin options of type 1, expected AddOptions"),
    "2 GB size field": (_huge_vector_length(), "a vector of 2147483648 elements"),
}


@pytest.mark.parametrize("case", sorted(BAD_INPUTS))
def test_bad_input_is_one_user_error(case: str):
    data, message = BAD_INPUTS[case]
    with pytest.raises(UserError) as caught:
        import_tflite(data, "bad.tflite")
    text = caught.value.diagnostic.message
    assert text.startswith("bad.tflite: ")
    assert message in text


@pytest.mark.parametrize("case", ["empty", "garbage", "buffer offset out of range", "2 GB size field",
                                  "unknown opcode"])
@pytest.mark.parametrize("tool", ["npu-translate", "npu-opt"])
def test_tools_exit_1_without_traceback_or_output(case: str, tool: str, tmp_path: Path, capsys):
    data, message = BAD_INPUTS[case]
    source = tmp_path / "model.tflite"
    source.write_bytes(data)
    out = tmp_path / "out.mlir"
    if tool == "npu-translate":
        code = npu_translate.main(["--import-tflite", str(source), "-o", str(out)])
    else:
        code = npu_opt.main([str(source), "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 1
    assert "Traceback" not in err and err.count("error:") == 1
    assert f"{source}: " in err and message in err
    assert not out.exists()


def test_export_of_bad_ir_exits_1_without_output(tmp_path: Path, capsys):
    source = tmp_path / "bad.mlir"
    source.write_text('"test.effect"() : () -> ()\n')
    out = tmp_path / "out.tflite"
    assert npu_translate.main(["--export-tflite", str(source), "-o", str(out)]) == 1
    assert "cannot export 'test.effect' to TFLite" in capsys.readouterr().err
    assert not out.exists()


def _mutations(data: bytes, rng: random.Random, flips: int, cuts: int) -> list[bytes]:
    cases = [data[:rng.randrange(len(data))] for _ in range(cuts)]
    for _ in range(flips):
        damaged = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            damaged[rng.randrange(len(damaged))] = rng.randrange(256)
        cases.append(bytes(damaged))
    return cases


def test_fuzz_truncations_and_byte_flips():
    """About 1,800 damaged models: each imports (and verifies or not) or raises UserError."""
    rng = random.Random(20261121)
    models = sorted(DATA.glob("*.tflite")) + [None]
    # about 1,500 flips and 300 cuts in all, however many models tests/data holds (the campaign in
    # tests/fuzz runs far more)
    flips, cuts = -(-1500 // len(models)), -(-300 // len(models))
    count = 0
    for path in models:
        data = path.read_bytes() if path is not None else tiny_model()
        for case in _mutations(data, rng, flips=flips, cuts=cuts):
            count += 1
            try:
                module = import_tflite(case, "fuzz.tflite")
            except UserError as err:
                assert err.diagnostic.message.startswith("fuzz.tflite: ")
                continue
            verify(module, DiagnosticEngine(stream=io.StringIO()))
    assert count >= 1800
