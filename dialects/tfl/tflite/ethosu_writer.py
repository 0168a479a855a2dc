"""``CompiledModel`` -> .tflite bytes, laid out as Vela's legacy core lays out its output.

A flatbuffer's bytes depend on the order in which its parts are built, so this writer builds
them in Vela's order (operator codes, the description, each subgraph's name then its tensors and
operators, the buffers, the metadata) with the same field order per table; a model read from
Vela's legacy output is written back byte for byte. The order is described in
docs/deployable_tflite.md.
"""
from __future__ import annotations

import flatbuffers
import numpy as np

from npu_opt.dialects.tfl.tflite import schema as S
from npu_opt.dialects.tfl.tflite.ethosu_custom import (
    OFFLINE_ALLOCATION, CompiledModel, ContainerError, CpuOperator, EthosUOperator, OptionsTable,
    Subgraph, TensorRecord, encode_offline_allocation,
)
from npu_opt.dialects.tfl.opcodes import CUSTOM

_PREPEND = {"bool": "PrependBool", "i8": "PrependInt8", "u8": "PrependUint8", "i16": "PrependInt16",
            "u16": "PrependUint16", "i32": "PrependInt32", "u32": "PrependUint32", "i64": "PrependInt64",
            "u64": "PrependUint64", "f32": "PrependFloat32", "f64": "PrependFloat64"}


def memory_tensor_data(graph: Subgraph) -> dict[int, bytes | memoryview]:
    """The buffer contents of the command-stream and read-only tensors, from their operators
    (ContainerError if two operators sharing a tensor disagree on its content)."""
    found: dict[int, bytes | memoryview] = {}
    for op in graph.ethos_u():
        for index, data in ((op.memory_tensors[0], op.payload), (op.memory_tensors[1], op.read_only)):
            if index in found and bytes(found[index]) != bytes(data):
                raise ContainerError(f"tensor '{graph.tensors[index].name}' is read by two ethos-u "
                                     "operators that give it different contents")
            found[index] = data
    return found


def memory_tensor_shapes(graph: Subgraph) -> dict[int, tuple[int, ...]]:
    """The 1-D shape of each memory tensor, from its operator's sizes."""
    shapes: dict[int, tuple[int, ...]] = {}
    for op in graph.ethos_u():
        sizes = (op.payload_size, len(op.read_only), op.scratch_size, op.fast_scratch_size)
        for index, size in zip(op.memory_tensors, sizes):
            shapes.setdefault(index, (size,))
    return shapes


class _Builder:
    def __init__(self, model: CompiledModel) -> None:
        self.model = model
        self.b = flatbuffers.Builder(0)
        self.buffers: list[bytes | memoryview | None] = [None]
        self.sizes: list[int] = []
        """The length of ``buffers`` after each subgraph."""

    # -- vectors -----------------------------------------------------------------------------
    def numbers(self, values, size: int, prepend: str) -> int:
        b = self.b
        b.StartVector(size, len(values), size)
        add = getattr(b, prepend)
        for value in reversed(list(values)):
            add(value)
        return b.EndVector()

    def ints(self, values) -> int:
        return self.numbers(values, 4, "PrependInt32")

    def byte_vector(self, data: bytes | memoryview, alignment: int = 1) -> int:
        b = self.b
        b.StartVector(1, len(data), alignment)
        b.head -= len(data)
        b.Bytes[b.head:b.head + len(data)] = bytes(data)
        return b.EndVector()

    def offsets(self, offsets: list[int]) -> int:
        b = self.b
        b.StartVector(4, len(offsets), 4)
        for offset in reversed(offsets):
            b.PrependUOffsetTRelative(offset)
        return b.EndVector()

    def aligned_bytes(self, data: bytes | memoryview) -> int:
        """A buffer's data: its first byte 16-byte aligned."""
        return self.byte_vector(data, 16)

    # -- tables ------------------------------------------------------------------------------
    def opcode(self, builtin: int, custom: str | None, version: int) -> int:
        b = self.b
        name = b.CreateString(custom) if custom is not None else None
        b.StartObject(4)
        b.PrependInt8Slot(S.OperatorCode.DEPRECATED_BUILTIN_CODE, min(builtin, 127), 0)
        b.PrependInt32Slot(S.OperatorCode.BUILTIN_CODE, builtin, 0)
        b.PrependInt32Slot(S.OperatorCode.VERSION, version, 1)
        if name is not None:
            b.PrependUOffsetTRelativeSlot(S.OperatorCode.CUSTOM_CODE, name, 0)
        return b.EndObject()

    def tensor(self, t: TensorRecord, shape: tuple[int, ...], buffer: int) -> int:
        b = self.b
        shape_vec = self.ints(shape)
        name = b.CreateString(t.name)
        quant = None
        q = t.quantisation
        if q is not None:
            vectors = [(slot, self.numbers(v, size, prepend)) for slot, v, size, prepend in (
                (S.Quantization.MIN, q.minimum, 4, "PrependFloat32"),
                (S.Quantization.MAX, q.maximum, 4, "PrependFloat32"),
                (S.Quantization.SCALE, q.scale, 4, "PrependFloat32"),
                (S.Quantization.ZERO_POINT, q.zero_point, 8, "PrependInt64")) if v is not None]
            b.StartObject(7)
            for slot, vec in vectors:
                b.PrependUOffsetTRelativeSlot(slot, vec, 0)
            b.PrependInt32Slot(S.Quantization.QUANTIZED_DIMENSION, q.axis, 0)
            quant = b.EndObject()
        b.StartObject(9)
        b.PrependUOffsetTRelativeSlot(S.Tensor.SHAPE, shape_vec, 0)
        b.PrependInt8Slot(S.Tensor.TYPE, t.type_code, 0)
        b.PrependUint32Slot(S.Tensor.BUFFER, buffer, 0)
        b.PrependUOffsetTRelativeSlot(S.Tensor.NAME, name, 0)
        if quant is not None:
            b.PrependUOffsetTRelativeSlot(S.Tensor.QUANTIZATION, quant, 0)
        b.PrependBoolSlot(S.Tensor.IS_VARIABLE, t.is_variable, False)
        return b.EndObject()

    def options(self, table: OptionsTable) -> int:
        """The fields in stored order; vectors first (a table's children precede it)."""
        b = self.b
        vectors = {f.slot: self.ints(f.value) for f in table.fields if f.kind == "i32[]"}
        b.StartObject(max((f.slot for f in table.fields), default=-1) + 1)
        for f in table.fields:
            if f.kind == "i32[]":
                b.PrependUOffsetTRelativeSlot(f.slot, vectors[f.slot], 0)
                continue
            if f.kind == "raw":
                raw = bytes(f.value)  # type: ignore[arg-type]
                b.Prep(len(raw), 0)
                b.head -= len(raw)
                b.Bytes[b.head:b.head + len(raw)] = raw
            else:
                getattr(b, _PREPEND[f.kind])(f.value)
            b.Slot(f.slot)
        return b.EndObject()

    def operator(self, op: CpuOperator | EthosUOperator, opcode: int) -> int:
        b = self.b
        inputs = self.ints(list(op.memory_tensors) + op.inputs if isinstance(op, EthosUOperator) else op.inputs)
        outputs = self.ints(op.outputs)
        if isinstance(op, EthosUOperator):
            intermediates = self.ints([]) if op.empty_vectors else None
            options = options_2 = None
            custom = self.byte_vector(op.custom_options)
            custom_format = 0
            mutating = self.byte_vector(b"") if op.empty_vectors else None
        else:
            intermediates = self.ints(op.intermediates) if op.intermediates is not None else None
            options = (op.options.type, self.options(op.options)) if op.options is not None else None
            options_2 = (op.options_2.type, self.options(op.options_2)) if op.options_2 is not None else None
            custom = self.byte_vector(op.custom_options) if op.custom_options is not None else None
            custom_format = op.custom_options_format
            mutating = (self.byte_vector(op.mutating_variable_inputs)
                        if op.mutating_variable_inputs is not None else None)
        b.StartObject(13)
        b.PrependUint32Slot(S.Operator.OPCODE_INDEX, opcode, 0)
        b.PrependUOffsetTRelativeSlot(S.Operator.INPUTS, inputs, 0)
        b.PrependUOffsetTRelativeSlot(S.Operator.OUTPUTS, outputs, 0)
        if intermediates is not None:
            b.PrependUOffsetTRelativeSlot(S.Operator.INTERMEDIATES, intermediates, 0)
        for kinds, value in (((S.Operator.BUILTIN_OPTIONS_TYPE, S.Operator.BUILTIN_OPTIONS), options),
                             ((S.Operator.BUILTIN_OPTIONS_2_TYPE, S.Operator.BUILTIN_OPTIONS_2), options_2)):
            if value is not None:
                b.PrependUint8Slot(kinds[0], value[0], 0)
                b.PrependUOffsetTRelativeSlot(kinds[1], value[1], 0)
        if custom is not None:
            b.PrependUOffsetTRelativeSlot(S.Operator.CUSTOM_OPTIONS, custom, 0)
            b.PrependInt8Slot(S.Operator.CUSTOM_OPTIONS_FORMAT, custom_format, 0)
        if mutating is not None:
            b.PrependUOffsetTRelativeSlot(S.Operator.MUTATING_VARIABLE_INPUTS, mutating, 0)
        return b.EndObject()

    def subgraph(self, graph: Subgraph, codes: dict[tuple[int, str | None, int], int]) -> int:
        b = self.b
        name = b.CreateString(graph.name)
        data = memory_tensor_data(graph)
        shapes = memory_tensor_shapes(graph)
        tensors = []
        for index, t in enumerate(graph.tensors):
            content = data.get(index, t.data)
            buffer = 0
            if content is not None:
                self.buffers.append(content)
                buffer = len(self.buffers) - 1
            tensors.append(self.tensor(t, shapes.get(index, t.shape), buffer))
        tensor_vec = self.offsets(tensors)
        inputs, outputs = self.ints(graph.inputs), self.ints(graph.outputs)
        ops = []
        for op in graph.operators:
            key = (CUSTOM, "ethos-u", op.version) if isinstance(op, EthosUOperator) else \
                (op.builtin, op.custom_code, op.version)
            if key not in codes:
                raise ContainerError(f"subgraph '{graph.name}': no operator code {key} in the model")
            ops.append(self.operator(op, codes[key]))
        op_vec = self.offsets(ops)
        b.StartObject(5)
        b.PrependUOffsetTRelativeSlot(S.SubGraph.TENSORS, tensor_vec, 0)
        b.PrependUOffsetTRelativeSlot(S.SubGraph.INPUTS, inputs, 0)
        b.PrependUOffsetTRelativeSlot(S.SubGraph.OUTPUTS, outputs, 0)
        b.PrependUOffsetTRelativeSlot(S.SubGraph.OPERATORS, op_vec, 0)
        b.PrependUOffsetTRelativeSlot(S.SubGraph.NAME, name, 0)
        return b.EndObject()

    def run(self) -> bytes:
        b, model = self.b, self.model
        codes = {key: index for index, key in enumerate(model.opcodes)}
        code_vec = self.offsets([self.opcode(*key) for key in model.opcodes])
        description = b.CreateString(model.description) if model.description is not None else None
        counted = []
        for graph in model.subgraphs:
            counted.append(self.subgraph(graph, codes))
            self.sizes.append(len(self.buffers))
        graph_vec = self.offsets(counted)
        # Vela's writer extends its buffer list by the count so far after each subgraph, so a model
        # of several subgraphs ends in that many unused empty buffers
        self.buffers += [None] * (sum(self.sizes) - len(self.buffers))
        entries = []
        for name, data in model.metadata:
            self.buffers.append(encode_offline_allocation(model.subgraphs) if data is None else data)
            entries.append((name, len(self.buffers) - 1))
        buffers = []
        for data in self.buffers:
            vec = self.aligned_bytes(data) if data is not None and len(data) else None  # (empty: no vector, as Vela)
            b.StartObject(3)
            if vec is not None:
                b.PrependUOffsetTRelativeSlot(S.Buffer.DATA, vec, 0)
            buffers.append(b.EndObject())
        buffer_vec = self.offsets(buffers)
        tables = []
        for name, index in entries:
            text = b.CreateString(name)
            b.StartObject(2)
            b.PrependUOffsetTRelativeSlot(S.Metadata.NAME, text, 0)
            b.PrependUint32Slot(S.Metadata.BUFFER, index, 0)
            tables.append(b.EndObject())
        meta_vec = self.offsets(tables) if tables else None
        b.StartObject(8)
        b.PrependUint32Slot(S.Model.VERSION, S.SCHEMA_VERSION, 0)
        b.PrependUOffsetTRelativeSlot(S.Model.OPERATOR_CODES, code_vec, 0)
        b.PrependUOffsetTRelativeSlot(S.Model.SUBGRAPHS, graph_vec, 0)
        if description is not None:
            b.PrependUOffsetTRelativeSlot(S.Model.DESCRIPTION, description, 0)
        b.PrependUOffsetTRelativeSlot(S.Model.BUFFERS, buffer_vec, 0)
        if meta_vec is not None:
            b.PrependUOffsetTRelativeSlot(S.Model.METADATA, meta_vec, 0)
        b.Finish(b.EndObject(), file_identifier=S.FILE_IDENTIFIER)
        return bytes(b.Output())


def write_compiled(model: CompiledModel) -> bytes:
    """The .tflite bytes of ``model`` in Vela's layout; ContainerError if it is inconsistent."""
    return _Builder(model).run()


__all__ = ["write_compiled", "memory_tensor_data", "memory_tensor_shapes", "OFFLINE_ALLOCATION"]
