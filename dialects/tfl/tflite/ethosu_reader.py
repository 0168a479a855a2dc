"""A compiled .tflite (ethos-u operators and CPU operators) -> ``CompiledModel``.

Every field the writer needs to give the file back is read, in the order it is stored; the
payload of each ethos-u operator is parsed and checked (ethosu_custom.parse_payload), the
OfflineMemoryAllocation metadata decoded into the tensors' arena offsets.
"""
from __future__ import annotations

from npu_opt.dialects.tfl.opcodes import BUILTIN_OPERATORS, CUSTOM
from npu_opt.dialects.tfl.tflite import schema as S
from npu_opt.dialects.tfl.tflite.ethosu_custom import (
    ETHOS_U_CODE, OFFLINE_ALLOCATION, ROLES, CompiledModel, ContainerError, CpuOperator, EthosUOperator,
    OptionField, OptionsTable, Quantisation, Subgraph, TensorRecord, decode_offline_allocation,
    parse_payload,
)
from npu_opt.dialects.tfl.tflite.flatbuf import Buffer, Table

_UINT8 = 3


def read_compiled(data: bytes | memoryview) -> CompiledModel:
    """Read a compiled model; ContainerError (or FlatBufferError) says what is wrong and where."""
    return _Reader(memoryview(data)).run()


def _field_offsets(table: Table) -> list[tuple[int, int]]:
    """(offset in the object, slot) of each present field, by offset."""
    raw = table.buf.data
    entries = []
    for slot in range((table.vtable_size - 4) // 2):
        offset = int.from_bytes(raw[table.vtable + 4 + 2 * slot:table.vtable + 6 + 2 * slot], "little")
        if offset:
            entries.append((offset, slot))
    return sorted(entries)


def read_options(table: Table, kind: int, builtin: str) -> OptionsTable:
    """An options table's fields in the order a builder wrote them (the first field written lies
    at the highest offset). Fields npu-opt's schema names keep their type; others are raw bytes
    as long as the distance to the next field (at most 8, a power of two)."""
    spec = S.OPTIONS.get(builtin)
    kinds = {f.slot: f.kind for f in spec.fields} if spec is not None and spec.type == kind else {}
    entries = _field_offsets(table)
    fields = []
    for index, (offset, slot) in enumerate(entries):
        end = entries[index + 1][0] if index + 1 < len(entries) else table.object_size
        field_kind = kinds.get(slot, "raw")
        if field_kind == "i32[]":
            array = table.array(slot, "<i4", f"options field {slot}")
            fields.append(OptionField(slot, field_kind, [] if array is None else array.tolist()))
        elif field_kind == "raw":
            size = 8
            while size > 1 and size > end - offset:
                size //= 2
            start = table.pos + offset
            fields.append(OptionField(slot, "raw", bytes(table.buf.data[start:start + size])))
        else:
            fields.append(OptionField(slot, field_kind, table.scalar(slot, field_kind)))
    fields.reverse()
    return OptionsTable(kind, fields)


class _Reader:
    def __init__(self, data: memoryview) -> None:
        self.data = data
        self.buf = Buffer(data)
        self.buffers: list[Table] = []

    def buffer(self, index: int, what: str) -> memoryview | None:
        """The bytes of buffer ``index`` (None for buffer 0, which holds nothing)."""
        if not 0 <= index < len(self.buffers):
            raise ContainerError(f"{what} refers to buffer {index}, but the model has {len(self.buffers)}")
        if index == 0:
            return None
        table = self.buffers[index]
        offset = table.scalar(S.Buffer.OFFSET, "u64", 0)
        if offset > 1:
            size = table.scalar(S.Buffer.SIZE, "u64", 0)
            if offset + size > len(self.data):
                raise ContainerError(f"buffer {index} (offset {offset}, {size} bytes) lies outside the "
                                     f"{len(self.data)}-byte file")
            return self.data[offset:offset + size]
        view = table.bytes_view(S.Buffer.DATA, f"buffer {index}")
        return view if view is not None else self.data[0:0]

    def run(self) -> CompiledModel:
        model = self.buf.root("model")
        self.buffers = model.tables(S.Model.BUFFERS, "buffers")
        opcodes = []
        for code in model.tables(S.Model.OPERATOR_CODES, "operator_codes"):
            builtin = max(code.scalar(S.OperatorCode.DEPRECATED_BUILTIN_CODE, "i8", 0),
                          code.scalar(S.OperatorCode.BUILTIN_CODE, "i32", 0))
            opcodes.append((builtin, code.string(S.OperatorCode.CUSTOM_CODE, "custom_code"),
                            code.scalar(S.OperatorCode.VERSION, "i32", 1)))
        graphs = [self.subgraph(t, i, opcodes) for i, t in
                  enumerate(model.tables(S.Model.SUBGRAPHS, "subgraphs"))]
        metadata: list[tuple[str, bytes | memoryview | None]] = []
        for index, entry in enumerate(model.tables(S.Model.METADATA, "metadata")):
            name = entry.string(S.Metadata.NAME, "name") or ""
            raw = self.buffer(entry.scalar(S.Metadata.BUFFER, "u32", 0), f"metadata '{name}'")
            if name == OFFLINE_ALLOCATION:
                offsets = decode_offline_allocation(raw if raw is not None else b"", [len(g.tensors) for g in graphs])
                for graph, values in zip(graphs, offsets):
                    for tensor, offset in zip(graph.tensors, values):
                        tensor.arena_offset = offset
                metadata.append((name, None))
            else:
                metadata.append((name, bytes(raw) if raw is not None else b""))
        return CompiledModel(graphs, opcodes, model.string(S.Model.DESCRIPTION, "description"), metadata)

    def subgraph(self, table: Table, number: int, opcodes: list[tuple[int, str | None, int]]) -> Subgraph:
        where = f"subgraph {number}"
        graph = Subgraph(table.string(S.SubGraph.NAME, "name") or "")
        graph.tensors = [self.tensor(t, f"{where} tensor {i}") for i, t in
                         enumerate(table.tables(S.SubGraph.TENSORS, "tensors"))]
        graph.inputs = self.indices(table, S.SubGraph.INPUTS, f"{where} inputs", len(graph.tensors))
        graph.outputs = self.indices(table, S.SubGraph.OUTPUTS, f"{where} outputs", len(graph.tensors))
        for index, op in enumerate(table.tables(S.SubGraph.OPERATORS, "operators")):
            code = op.scalar(S.Operator.OPCODE_INDEX, "u32", 0)
            if code >= len(opcodes):
                raise ContainerError(f"{where} operator {index} uses operator code {code}, but the model "
                                     f"has {len(opcodes)}")
            builtin, custom, version = opcodes[code]
            what = f"{where} operator {index} ({custom or BUILTIN_OPERATORS.get(builtin, builtin)})"
            inputs = self.indices(op, S.Operator.INPUTS, f"{what} inputs", len(graph.tensors), optional=True)
            outputs = self.indices(op, S.Operator.OUTPUTS, f"{what} outputs", len(graph.tensors))
            intermediates = op.array(S.Operator.INTERMEDIATES, "<i4", "intermediates")
            mutating = op.bytes_view(S.Operator.MUTATING_VARIABLE_INPUTS, "mutating_variable_inputs")
            custom_options = op.bytes_view(S.Operator.CUSTOM_OPTIONS, "custom_options")
            if builtin == CUSTOM and custom == ETHOS_U_CODE:
                graph.operators.append(self.ethos_u(graph, inputs, outputs, what))
                npu = graph.operators[-1]
                npu.version = version
                npu.custom_options = bytes(custom_options) if custom_options is not None else b""
                npu.empty_vectors = intermediates is not None
                continue
            record = CpuOperator(builtin, custom, version, inputs, outputs)
            name = BUILTIN_OPERATORS.get(builtin, "")
            for type_slot, slot, attr in ((S.Operator.BUILTIN_OPTIONS_TYPE, S.Operator.BUILTIN_OPTIONS, "options"),
                                          (S.Operator.BUILTIN_OPTIONS_2_TYPE, S.Operator.BUILTIN_OPTIONS_2, "options_2")):
                kind = op.scalar(type_slot, "u8", 0)
                options = op.table(slot, attr) if kind else None
                if options is not None:
                    setattr(record, attr, read_options(options, kind, name))
            record.custom_options = bytes(custom_options) if custom_options is not None else None
            record.custom_options_format = op.scalar(S.Operator.CUSTOM_OPTIONS_FORMAT, "i8", 0)
            record.intermediates = intermediates.tolist() if intermediates is not None else None
            record.mutating_variable_inputs = bytes(mutating) if mutating is not None else None
            graph.operators.append(record)
        return graph

    def indices(self, table: Table, slot: int, what: str, count: int, optional: bool = False) -> list[int]:
        array = table.array(slot, "<i4", what)
        values = [] if array is None else array.tolist()
        for value in values:
            if not (0 <= value < count or (optional and value == -1)):
                raise ContainerError(f"{what} refer to tensor {value}, but the subgraph has {count} tensors")
        return values

    def tensor(self, table: Table, what: str) -> TensorRecord:
        name = table.string(S.Tensor.NAME, "name") or ""
        shape = table.array(S.Tensor.SHAPE, "<i4", "shape")
        data = self.buffer(table.scalar(S.Tensor.BUFFER, "u32", 0), f"{what} ('{name}')")
        quant = table.table(S.Tensor.QUANTIZATION, "quantization")
        record = TensorRecord(name, tuple(shape.tolist()) if shape is not None else (),
                              table.scalar(S.Tensor.TYPE, "i8", 0), data=data,
                              is_variable=table.scalar(S.Tensor.IS_VARIABLE, "bool", False))
        if quant is not None:
            def values(slot: int, dtype: str) -> tuple | None:
                array = quant.array(slot, dtype, "quantization")
                return None if array is None else tuple(array.tolist())
            record.quantisation = Quantisation(
                values(S.Quantization.SCALE, "<f4"), values(S.Quantization.ZERO_POINT, "<i8"),
                values(S.Quantization.MIN, "<f4"), values(S.Quantization.MAX, "<f4"),
                quant.scalar(S.Quantization.QUANTIZED_DIMENSION, "i32", 0))
        return record

    def ethos_u(self, graph: Subgraph, inputs: list[int], outputs: list[int], what: str) -> EthosUOperator:
        if len(inputs) < 4:
            raise ContainerError(f"{what} has {len(inputs)} inputs; it needs at least 4 (the command "
                                 "stream, read-only, scratch and fast-scratch tensors)")
        memory = inputs[:4]
        for role, index in zip(ROLES, memory):
            if index == -1:
                raise ContainerError(f"{what} has no {role.replace('_', '-')} tensor (input {ROLES.index(role)} is -1)")
            tensor = graph.tensors[index]
            if tensor.type_code != _UINT8 or len(tensor.shape) != 1:
                raise ContainerError(f"{what}: its {role.replace('_', '-')} tensor '{tensor.name}' is not "
                                     f"a 1-D uint8 tensor (shape {list(tensor.shape)}, type "
                                     f"{S.TENSOR_TYPE_NAMES.get(tensor.type_code, tensor.type_code)})")
            if tensor.shape[0] < 0:
                raise ContainerError(f"{what}: its {role.replace('_', '-')} tensor '{tensor.name}' has the "
                                     f"negative size {tensor.shape[0]}")
            if tensor.role and tensor.role != role:
                raise ContainerError(f"{what}: tensor '{tensor.name}' is its {role.replace('_', '-')} "
                                     f"tensor but also another operator's {tensor.role.replace('_', '-')} tensor")
        stream, read_only = graph.tensors[memory[0]], graph.tensors[memory[1]]
        if stream.data is None or len(stream.data) == 0:
            raise ContainerError(f"{what}: its command-stream tensor '{stream.name}' has no data")
        if read_only.data is None and read_only.shape != (0,):
            raise ContainerError(f"{what}: its read-only tensor '{read_only.name}' has no buffer")
        try:
            header, words = parse_payload(stream.data)
        except ContainerError as err:
            raise ContainerError(f"{what}: tensor '{stream.name}': {err}") from None
        for role, index in zip(ROLES, memory):
            graph.tensors[index].role = role
        # Vela's default core gives an operator without weights or tables an empty read-only tensor
        # without a buffer
        data = read_only.data if read_only.data is not None else memoryview(b"")
        op = EthosUOperator(words, header, data, graph.tensors[memory[2]].shape[0],
                            graph.tensors[memory[3]].shape[0], (memory[0], memory[1], memory[2], memory[3]),
                            inputs[4:], outputs)
        return op


__all__ = ["read_compiled", "read_options"]
