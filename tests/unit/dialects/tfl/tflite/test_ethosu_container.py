"""The compiled-model container against Vela 5.2's own outputs (tests/data/vela/compiled): the
reader's fields agree with what Vela's flatbuffer classes read, the legacy-core .tflite files
are written back byte for byte (default-core ones field for field), also after a trip through
the IR (tfl.ethos_u), the raw .npz files byte for byte; damage is one UserError."""
from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

import npu_opt.dialects  # noqa: F401
from npu_opt.dialects.ethosu.decode import decode_words
from npu_opt.dialects.tfl.tflite import export_tflite, import_tflite
from npu_opt.dialects.tfl.tflite.ethosu_ir import command_words
from npu_opt.dialects.tfl.tflite.ethosu_custom import (
    ContainerError, CpuOperator, EthosUOperator, PayloadHeader, parse_payload,
)
from npu_opt.dialects.tfl.tflite.ethosu_raw import raw_bytes, raw_files
from npu_opt.dialects.tfl.tflite.ethosu_reader import read_compiled
from npu_opt.dialects.tfl.tflite.ethosu_writer import write_compiled
from npu_opt.ir.diagnostics import UserError
from npu_opt.ir.printer import print_op

COMPILED = Path(__file__).resolve().parents[5] / "tests" / "data" / "vela" / "compiled"
MODELS = sorted(COMPILED.glob("*.tflite"))
LEGACY = [p for p in MODELS if p.name.endswith(".legacy.tflite")]
NPU = {"u55-128": ("ethos-u55", 128, 24), "u65-256": ("ethos-u65", 256, 48)}
"""Config -> (product, MACs per cycle, SHRAM KiB) the payload's CONFIG word must say."""


def _parts(path: Path) -> tuple[str, str, str]:
    model, config, core = path.name[:-len(".tflite")].split(".")
    return model, config, core


def test_test_data_is_there() -> None:
    assert len(LEGACY) == 10 and len(MODELS) == 12


@pytest.mark.parametrize("path", MODELS, ids=lambda p: p.name)
def test_fields_agree_with_velas_reader(path: Path) -> None:
    vela_model = pytest.importorskip("ethosu.vela.tflite.Model")
    data = path.read_bytes()
    ours = read_compiled(data)
    theirs = vela_model.Model.GetRootAsModel(data, 0)
    graph, vela_graph = ours.subgraphs[0], theirs.Subgraphs(0)
    assert len(graph.tensors) == vela_graph.TensorsLength()
    product, macs, shram = NPU[_parts(path)[1]]
    npu_ops = 0
    for number, op in enumerate(graph.operators):
        vela_op = vela_graph.Operators(number)
        code = theirs.OperatorCodes(vela_op.OpcodeIndex())
        assert isinstance(op, EthosUOperator) == (code.CustomCode() == b"ethos-u")
        if not isinstance(op, EthosUOperator):
            continue
        npu_ops += 1
        inputs = vela_op.InputsAsNumpy().tolist()
        assert list(op.memory_tensors) + op.inputs == inputs
        assert op.outputs == vela_op.OutputsAsNumpy().tolist()
        stream, read_only, scratch, fast = (vela_graph.Tensors(i) for i in inputs[:4])
        assert op.payload == theirs.Buffers(stream.Buffer()).DataAsNumpy().tobytes()
        assert bytes(op.read_only) == theirs.Buffers(read_only.Buffer()).DataAsNumpy().tobytes()
        assert (op.scratch_size, op.fast_scratch_size) == (scratch.Shape(0), fast.Shape(0))
        assert (op.header.product, op.header.macs_per_cycle, op.header.shram_kib) == (product, macs, shram)
        assert op.header == PayloadHeader.for_npu(op.header.config_word, op.header.id_word)
    assert npu_ops >= 1
    offsets = np.frombuffer(theirs.Buffers(theirs.Metadata(theirs.MetadataLength() - 1).Buffer())
                            .DataAsNumpy().tobytes(), "<i4")
    assert [t.arena_offset for t in graph.tensors] == offsets[3:].tolist()


@pytest.mark.parametrize("path", LEGACY, ids=lambda p: p.name)
def test_legacy_output_is_written_back_byte_for_byte(path: Path) -> None:
    data = path.read_bytes()
    assert write_compiled(read_compiled(data)) == data


def _fields(model) -> list:
    """Everything TFLite Micro reads, buffer indices aside (they follow the layout)."""
    graphs = []
    for g in model.subgraphs:
        tensors = [(t.name, t.shape, t.type_code, t.quantisation, t.arena_offset, t.role,
                    None if t.role else (None if t.data is None else bytes(t.data))) for t in g.tensors]
        ops = [(op.payload, bytes(op.read_only), op.scratch_size, op.fast_scratch_size, op.memory_tensors,
                op.inputs, op.outputs) if isinstance(op, EthosUOperator) else
               (op.builtin, op.version, op.inputs, op.outputs, op.options) for op in g.operators]
        graphs.append((g.name, tensors, g.inputs, g.outputs, ops))
    return [graphs, model.opcodes, model.description, model.metadata]


@pytest.mark.parametrize("path", [p for p in MODELS if p not in LEGACY], ids=lambda p: p.name)
def test_default_core_output_is_written_back_field_for_field(path: Path) -> None:
    data = path.read_bytes()
    written = write_compiled(read_compiled(data))
    assert written != data  # Vela's C++ core builds its flatbuffer in another order
    assert _fields(read_compiled(written)) == _fields(read_compiled(data))


@pytest.mark.parametrize("path", MODELS, ids=lambda p: p.name)
def test_raw_npz_is_byte_identical_to_velas(path: Path) -> None:
    model_name, config, core = _parts(path)
    files = raw_files(read_compiled(path.read_bytes()), model_name, config == "u65-256", core)
    assert files
    for name, arrays in files.items():
        part = name[len(f"{model_name}_vela"):-len(".npz")].replace("_", ".")
        assert raw_bytes(arrays) == (COMPILED / f"{model_name}.{config}.{core}{part}.npz").read_bytes()


@pytest.mark.parametrize("path", MODELS, ids=lambda p: p.name)
def test_import_and_export_keep_every_ethos_u_field(path: Path) -> None:
    data = path.read_bytes()
    module = import_tflite(data, path.name)
    ops = [op for op in module.walk() if op.name == "tfl.ethos_u"]
    original = read_compiled(data)
    assert len(ops) == len(original.ethos_u())
    for op, npu in zip(ops, original.ethos_u()):
        assert command_words(op).tobytes() == npu.command_stream.tobytes() or "default" in path.name
        assert op.attr("scratch_size").value == npu.scratch_size
    again = read_compiled(export_tflite(module))

    def by_name(model):
        graph = model.subgraphs[0]
        # (a default-core stream comes back in the legacy register order: the same program)
        npu = [(print_op(decode_words(op.command_stream.tolist())), bytes(op.read_only), op.scratch_size, op.fast_scratch_size,
                [graph.tensors[i].name for i in list(op.memory_tensors) + op.inputs],
                [graph.tensors[i].name for i in op.outputs]) for op in graph.ethos_u()]
        tensors = {t.name: (t.shape, t.type_code, t.arena_offset, t.quantisation.scale if t.quantisation else None)
                   for t in graph.tensors}
        return npu, tensors, [t for t in model.metadata]
    assert by_name(again) == by_name(original)


@pytest.mark.parametrize("path", LEGACY, ids=lambda p: p.name)
def test_legacy_output_through_the_ir_is_byte_identical(path: Path) -> None:
    data = path.read_bytes()
    assert export_tflite(import_tflite(data, path.name)) == data


def test_payload_errors_name_the_problem() -> None:
    header = PayloadHeader.for_npu(0x1807, 0x10060000)
    payload = header.payload(np.arange(5, dtype=np.uint32))
    assert parse_payload(payload)[1].tolist() == [0, 1, 2, 3, 4]
    with pytest.raises(ContainerError, match="announces 5 words but the payload holds only 4"):
        parse_payload(payload[:-4])
    with pytest.raises(ContainerError, match="not the driver magic 'COP1'"):
        parse_payload(b"COP2" + payload[4:])
    with pytest.raises(ContainerError, match="holds 1 words after its 5-word command stream"):
        parse_payload(payload + bytes(4))
    with pytest.raises(ContainerError, match="unknown driver action 9"):
        parse_payload(payload[:4] + bytes([9, 0, 0, 0]) + payload[8:])
    with pytest.raises(ContainerError, match="not a whole number of 32-bit words"):
        parse_payload(payload[:-1])


def test_missing_tensor_is_one_user_error() -> None:
    model = read_compiled(LEGACY[0].read_bytes())
    op = model.ethos_u()[0]
    op.memory_tensors = (op.memory_tensors[0], op.memory_tensors[1], 99, op.memory_tensors[3])
    with pytest.raises(UserError, match=r"bad\.tflite: subgraph 0 operator 0 \(ethos-u\) inputs refer to "
                                        r"tensor 99, but the subgraph has \d+ tensors"):
        import_tflite(write_compiled(model), "bad.tflite")


def test_ethos_u_operator_without_its_memory_tensors_is_one_user_error() -> None:
    model = read_compiled(LEGACY[0].read_bytes())
    graph = model.subgraphs[0]
    npu = graph.ethos_u()[0]
    cpu = CpuOperator(32, "ethos-u", 1, list(npu.memory_tensors[:3]), npu.outputs, custom_options=b"")
    graph.operators[graph.operators.index(npu)] = cpu
    with pytest.raises(UserError, match=r"operator 0 \(ethos-u\) has 3 inputs; it needs at least 4"):
        import_tflite(write_compiled(model), "short.tflite")


def test_damaged_compiled_models_give_user_errors_only() -> None:
    """Byte flips in the payloads and tables: the importer accepts or raises UserError, nothing else."""
    rng = random.Random(7)
    for path in (COMPILED / "conv.u55-128.legacy.tflite", COMPILED / "cpu_middle.u65-256.default.tflite"):
        data = path.read_bytes()
        for _ in range(150):
            damaged = bytearray(data)
            for _ in range(rng.randint(1, 4)):
                damaged[rng.randrange(len(damaged))] = rng.randrange(256)
            try:
                import_tflite(bytes(damaged), "damaged.tflite")
            except UserError:
                pass
