"""IR -> TFLite flatbuffer: the inverse of dialects.tfl.tflite.importer.

Each ``func.func`` becomes a subgraph (in module order); its arguments are the subgraph inputs,
each op result a tensor (named by the op's location), each constant a tensor with a buffer
(blobs shared between constants share one buffer), ``tfl.no_value`` the tensor index -1. Op
attributes become builtin options, ``tfl.custom``/``tfl.unsupported`` are written back from the
opcode, version and option bytes they keep. Buffer data is copied once, straight from the
numpy arrays and blobs into the flatbuffer, 16-byte aligned.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import flatbuffers
import numpy as np

from npu_opt.dialects.tfl.common import TflOp
from npu_opt.dialects.tfl.ops_ethosu import EthosUOp, holds_ethos_u
from npu_opt.dialects.tfl.opcodes import BUILTIN_CODES, CUSTOM
from npu_opt.ir.attributes import (
    ArrayAttr, Attribute, DenseElementsAttr, DenseResourceAttr, DictionaryAttr, IntegerAttr,
    StringAttr,
)
from npu_opt.ir.core import Operation, Value
from npu_opt.ir.diagnostics import UserError
from npu_opt.ir.strings import brief_number
from npu_opt.ir.location import FusedLoc, Location, NameLoc
from npu_opt.ir.types import DYNAMIC, QuantUniformType, RankedTensorType
from npu_opt.dialects.tfl.tflite import schema as S
from npu_opt.dialects.tfl.tflite.ethosu_custom import (
    ETHOS_U_CODE, NPU_CUSTOM_OPTIONS, OFFLINE_ALLOCATION, ROLES, ContainerError, PayloadHeader,
    offline_allocation_bytes,
)
from npu_opt.dialects.tfl.tflite.ethosu_ir import ARENA_OFFSETS, blob_bytes, command_words, int_attr
from npu_opt.dialects.tfl.tflite.ethosu_layout import vela_layout
from npu_opt.dialects.tfl.tflite.ethosu_reader import read_compiled
from npu_opt.dialects.tfl.tflite.ethosu_writer import write_compiled
from npu_opt.dialects.tfl.tflite.flatbuf import FlatBufferError, parse_raw_table

_CONSTANTS = ("tfl.pseudo_const", "tfl.pseudo_qconst")


@dataclass
class _Tensor:
    shape: list[int]
    signature: list[int] | None
    type_code: int
    buffer: int
    name: str
    quant: QuantUniformType | None
    synthetic: bool = False
    """The name was made up (the value had no name location)."""
    arena_offset: int = -1
    """Where OfflineMemoryAllocation places it (-1: TFLite Micro does)."""


@dataclass
class _Operator:
    opcode: int
    inputs: list[int]
    outputs: list[int]
    options: Any = None
    """(options type, Options spec, attribute dict) or ('raw', type, bytes) or None."""
    options_2: Any = None
    custom_options: bytes | memoryview | None = None


@dataclass
class _Subgraph:
    name: str
    tensors: list[_Tensor] = field(default_factory=list)
    inputs: list[int] = field(default_factory=list)
    outputs: list[int] = field(default_factory=list)
    operators: list[_Operator] = field(default_factory=list)
    signature: tuple[str, list[tuple[str, int]], list[tuple[str, int]]] | None = None
    has_offsets: bool = False
    """Some tensor has an arena offset (tfl.arena_offsets or a tfl.ethos_u op)."""


def _bytes_of(attr: Attribute | None, what: str, op: Operation) -> bytes | memoryview | None:
    """The raw bytes of a dense or dense_resource attribute (no copy for blobs)."""
    if attr is None:
        return None
    if isinstance(attr, DenseResourceAttr):
        if attr.blob is None:
            raise UserError(f"cannot export '{op.name}': the data of {what} "
                            f"(dense_resource<{attr.key}>) is not available", op.diag_location())
        return attr.blob.data
    if isinstance(attr, DenseElementsAttr):
        return attr.array.astype(attr.array.dtype.newbyteorder("<"), copy=False).tobytes()
    raise UserError(f"cannot export '{op.name}': {what} is not a dense attribute", op.diag_location())


def _names_of(location: Location, count: int) -> list[str | None]:
    if isinstance(location, NameLoc):
        return [location.name] + [None] * (count - 1)
    if isinstance(location, FusedLoc) and len(location.locations) == count:
        return [loc.name if isinstance(loc, NameLoc) else None for loc in location.locations]
    return [None] * count


class _Exporter:
    def __init__(self, module: Operation) -> None:
        self.module = module
        self.opcodes: dict[tuple[int, str | None, int], int] = {}
        self.buffers: list[bytes | memoryview] = [b""]
        self.buffer_ids: dict[int, int] = {}
        self.keep: list[Any] = []  # attributes whose id() keys buffer_ids stay alive

    def opcode(self, builtin: int, custom: str | None, version: int) -> int:
        key = (builtin, custom, version)
        if key not in self.opcodes:
            self.opcodes[key] = len(self.opcodes)
        return self.opcodes[key]

    def buffer(self, attr: Attribute, op: Operation) -> int:
        """The buffer index of a constant's value, shared by constants of the same data."""
        ident = id(attr.blob) if isinstance(attr, DenseResourceAttr) and attr.blob is not None else id(attr)
        found = self.buffer_ids.get(ident)
        if found is not None:
            return found
        data = _bytes_of(attr, "its value", op)
        assert data is not None
        self.keep.append(attr)
        self.buffers.append(data)
        self.buffer_ids[ident] = len(self.buffers) - 1
        return len(self.buffers) - 1

    def run(self) -> bytes:
        if not self.module.regions or not self.module.regions[0].blocks:
            raise UserError("cannot export an empty module to TFLite")
        subgraphs = []
        for op in self.module.regions[0].blocks[0].ops:
            if op.name != "func.func":
                raise UserError(f"cannot export '{op.name}' to TFLite: only func.func may appear at "
                                "the top level", op.diag_location())
            if not op.regions or not op.regions[0].blocks:
                raise UserError("cannot export a function declaration to TFLite", op.diag_location())
            subgraphs.append(_SubgraphExporter(self, op).run())
        if not subgraphs:
            raise UserError("cannot export a module without functions to TFLite")
        metadata = self._metadata()
        if any(g.has_offsets for g in subgraphs):
            self.buffers.append(offline_allocation_bytes(len(subgraphs),
                                                         [t.arena_offset for g in subgraphs for t in g.tensors]))
            metadata.append((OFFLINE_ALLOCATION, len(self.buffers) - 1))
        return _Writer(self, subgraphs, metadata).finish()

    def _metadata(self) -> list[tuple[str, int]]:
        attr = self.module.attributes.get("tfl.metadata")
        entries: list[tuple[str, int]] = []
        if not isinstance(attr, DictionaryAttr):
            return entries
        for name, value in attr.entries:
            if name == OFFLINE_ALLOCATION and _is_compiled(self.module):
                continue  # written anew from the tensors' arena offsets
            if isinstance(value, StringAttr):
                data: bytes | memoryview | None = value.value.encode("utf-8")
            else:
                data = _bytes_of(value, f"metadata '{name}'", self.module)
            self.buffers.append(data or b"")
            entries.append((name, len(self.buffers) - 1))
        return entries


class _SubgraphExporter:
    def __init__(self, model: _Exporter, func: Operation) -> None:
        self.model = model
        self.func = func
        self.graph = _Subgraph(func.attr("sym_name").value)  # type: ignore[union-attr]
        self.tensors: dict[Value, int] = {}
        self.memory: dict[tuple[str, str], int] = {}
        """(role, name) -> index of a tfl.ethos_u memory tensor already written."""

    def tensor(self, value: Value, name: str | None, buffer: int = 0) -> int:
        t = value.type
        if not isinstance(t, RankedTensorType):
            raise UserError(f"cannot export a value of type '{t}' to TFLite (a ranked tensor is needed)",
                            self.func.diag_location())
        element = t.element_type
        code = S.type_code(element)
        if code is None:
            raise UserError(f"cannot export element type '{element}' to TFLite", self.func.diag_location())
        dynamic = DYNAMIC in t.shape
        index = len(self.graph.tensors)
        self.graph.tensors.append(_Tensor(
            shape=[1 if d == DYNAMIC else d for d in t.shape],
            signature=list(t.shape) if dynamic else None, type_code=code, buffer=buffer,
            name=name if name is not None else f"{self.graph.name}/tensor_{index}",
            quant=element if isinstance(element, QuantUniformType) else None, synthetic=name is None))
        self.tensors[value] = index
        self.graph.tensors[-1].arena_offset = self._arena_offset(value)
        return index

    def _arena_offset(self, value: Value) -> int:
        """The value's offset from the tfl.arena_offsets of its op (or of the function)."""
        owner = getattr(value, "op", None)
        holder, position = (owner, value.index) if owner is not None else (self.func, getattr(value, "index", 0))
        offsets = holder.attributes.get(ARENA_OFFSETS)
        if not isinstance(offsets, ArrayAttr) or position >= len(offsets.elements):
            return -1
        self.graph.has_offsets = True
        entry = offsets.elements[position]
        return entry.value if isinstance(entry, IntegerAttr) else -1

    def memory_tensor(self, op: Operation, role: str, name: str, size: int, data: Any) -> int:
        """A tensor of a tfl.ethos_u op's memory (1-D uint8), shared with the ops naming the
        same tensor; ``data`` is its buffer's content, or None for the arena's scratch areas."""
        key = (role, name)
        found = self.memory.get(key)
        if found is not None:
            return found
        buffer = 0
        if role == "read_only":
            buffer = self.model.buffer(op.attr("read_only"), op)
        elif data is not None:
            self.model.buffers.append(data)
            buffer = len(self.model.buffers) - 1
        self.graph.tensors.append(_Tensor([size], None, 3, buffer, name, None))
        self.memory[key] = len(self.graph.tensors) - 1
        return self.memory[key]

    def ethos_u(self, op: Operation) -> _Operator:
        """The ethos-u CUSTOM operator of a tfl.ethos_u op, its memory tensors first."""
        try:
            words = command_words(op)
        except UserError as err:
            raise UserError(f"cannot export '{op.name}': {err.diagnostic.message}", op.diag_location()) from None
        header = PayloadHeader.for_npu(int_attr(op, "npu_config"), int_attr(op, "npu_id"))
        try:
            payload = header.payload(words)
        except ContainerError as err:
            raise UserError(f"cannot export '{op.name}': {err}", op.diag_location()) from None
        names_attr = op.attr("tensor_names")
        count = len(self.graph.operators)
        names = [e.value for e in names_attr.elements] if isinstance(names_attr, ArrayAttr) else \
            [f"{self.graph.name}_ethos_u_{count}_{role}" for role in ROLES]
        sizes = (len(payload), len(blob_bytes(op, "read_only")), int_attr(op, "scratch_size"),
                 int_attr(op, "fast_scratch_size"))
        memory = [self.memory_tensor(op, role, name, size, payload if role == "command_stream" else None)
                  for role, name, size in zip(ROLES, names, sizes)]
        for index, key in ((memory[2], "scratch_offset"), (memory[3], "fast_scratch_offset")):
            self.graph.tensors[index].arena_offset = int_attr(op, key)
        self.graph.has_offsets = True
        inputs = memory + [self.index_of(v, op) for v in op.operands]
        outputs = [self.tensor(r, n) for r, n in zip(op.results, _names_of(op.location, len(op.results)))]
        record = _Operator(self.model.opcode(CUSTOM, ETHOS_U_CODE, 1), inputs, outputs)
        record.custom_options = NPU_CUSTOM_OPTIONS
        return record

    def index_of(self, value: Value, op: Operation) -> int:
        owner = getattr(value, "op", None)
        if owner is not None and owner.name == "tfl.no_value":
            return -1
        found = self.tensors.get(value)
        if found is None:
            raise UserError(f"cannot export '{op.name}': an operand is not a tensor of this function",
                            op.diag_location())
        return found

    def run(self) -> _Subgraph:
        func = self.func
        block = func.regions[0].blocks[0]
        entry = func.attributes.get("tf.entry_function")
        arg_names: list[str | None] = [None] * len(block.args)
        if isinstance(entry, DictionaryAttr) and isinstance(entry.get("inputs"), StringAttr):
            given = entry.get("inputs").value.split(",")
            if len(given) == len(block.args) and block.args:
                arg_names = list(given)
        for arg, name in zip(block.args, arg_names):
            self.graph.inputs.append(self.tensor(arg, name))
        for op in block.ops:
            self.op(op)
        self._signature()
        return self.graph

    def op(self, op: Operation) -> None:
        name = op.name
        if name == "func.return":
            self.graph.outputs = [self.index_of(v, op) for v in op.operands]
            self._name_outputs()
            return
        if name == "tfl.no_value":
            return
        if name in _CONSTANTS:
            buffer = self.model.buffer(op.attr("value"), op)
            self.tensor(op.results[0], _names_of(op.location, 1)[0], buffer)
            return
        if isinstance(op, EthosUOp):
            self.graph.operators.append(self.ethos_u(op))
            return
        if not isinstance(op, TflOp) or not (op.BUILTIN or name in ("tfl.custom", "tfl.unsupported")):
            raise UserError(f"cannot export '{name}' to TFLite: it is not a TFLite operator",
                            op.diag_location())
        inputs = [self.index_of(v, op) for v in op.operands]
        names = _names_of(op.location, len(op.results))
        outputs = [self.tensor(r, n) for r, n in zip(op.results, names)]
        record = _Operator(0, inputs, outputs)
        if name == "tfl.custom":
            record.opcode = self.model.opcode(CUSTOM, op.attr("custom_code").value, _int(op, "version", 1))
            record.custom_options = _bytes_of(op.attr("custom_option"), "custom_option", op)
        elif name == "tfl.unsupported":
            record.opcode = self.model.opcode(_int(op, "builtin_code", 0), None, _int(op, "version", 1))
            for key in ("builtin_options", "builtin_options_2"):
                raw = _bytes_of(op.attr(key), key, op)
                if raw is not None:
                    try:
                        fields = parse_raw_table(bytes(raw))
                    except FlatBufferError as err:
                        raise UserError(f"cannot export '{name}': {key}: {err}", op.diag_location()) from None
                    setattr(record, "options" if key == "builtin_options" else "options_2",
                            ("raw", _int(op, key + "_type", 0), fields))
            record.custom_options = _bytes_of(op.attr("custom_options"), "custom_options", op)
        else:
            builtin = op.BUILTIN
            version_attr = op.attributes.get(S.VERSION_ATTR)
            if isinstance(version_attr, IntegerAttr):
                version = version_attr.value
            else:
                first = op.operands[0].type if op.operands else None
                keep = op.attr("keep_num_dims")
                version = S.default_version(builtin, first, isinstance(keep, IntegerAttr) and bool(keep.value))
            record.opcode = self.model.opcode(BUILTIN_CODES[builtin], None, version)
            spec = S.OPTIONS.get(builtin)
            if spec is not None:
                record.options = ("spec", spec, op)
            if builtin == "RESHAPE" and len(inputs) == 2 and inputs[1] == -1:
                record.inputs = inputs[:1]
        self.graph.operators.append(record)

    def _name_outputs(self) -> None:
        """Outputs without a name of their own (IR printed without locations) take the names
        listed in ``tf.entry_function``."""
        entry = self.func.attributes.get("tf.entry_function")
        given = entry.get("outputs") if isinstance(entry, DictionaryAttr) else None
        if not isinstance(given, StringAttr):
            return
        names = given.value.split(",")
        if len(names) != len(self.graph.outputs):
            return
        for index, name in zip(self.graph.outputs, names):
            tensor = self.graph.tensors[index] if index >= 0 else None
            if tensor is not None and tensor.synthetic:
                tensor.name, tensor.synthetic = name, False

    def _signature(self) -> None:
        names = self.func.attributes.get("tf_saved_model.exported_names")
        if not isinstance(names, ArrayAttr) or not names.elements or not isinstance(names[0], StringAttr):
            return
        maps = []
        for key, indices in (("arg_attrs", self.graph.inputs), ("res_attrs", self.graph.outputs)):
            attrs = self.func.properties.get(key)
            entries = []
            if isinstance(attrs, ArrayAttr):
                for entry, index in zip(attrs.elements, indices):
                    path = entry.get("tf_saved_model.index_path") if isinstance(entry, DictionaryAttr) else None
                    if isinstance(path, ArrayAttr) and path.elements and isinstance(path[0], StringAttr):
                        entries.append((path[0].value, index))
            maps.append(entries)
        self.graph.signature = (names[0].value, maps[0], maps[1])


def _signed(value: int, bits: int) -> int:
    """A signless ``bits``-wide option value as the signed number with the same bits (what the
    flatbuffer stores): ``2147483648 : i32`` is bit 31 set, as in a TFLite mask."""
    return value - (1 << bits) if value >= 1 << (bits - 1) else value


def _int(op: Operation, key: str, default: int) -> int:
    attr = op.attr(key)
    return attr.value if isinstance(attr, IntegerAttr) else default


class _Writer:
    """Serialises the collected model with a flatbuffers Builder (children before parents)."""

    def __init__(self, model: _Exporter, subgraphs: list[_Subgraph], metadata: list[tuple[str, int]]) -> None:
        self.model = model
        self.subgraphs = subgraphs
        self.metadata = metadata
        data_size = sum(len(b) for b in model.buffers)
        tables = sum(len(g.tensors) + len(g.operators) for g in subgraphs)
        self.b = flatbuffers.Builder(data_size + 16 * len(model.buffers) + 512 * tables + 65536)

    def ints(self, values: list[int], dtype: str = "<i4") -> int:
        """A vector of ``dtype`` numbers; an integer TFLite cannot hold there is a user error."""
        kind = np.dtype(dtype)
        if kind.kind == "i":
            low, high = -(1 << (kind.itemsize * 8 - 1)), (1 << (kind.itemsize * 8 - 1)) - 1
            for value in values:
                if not low <= value <= high:
                    raise UserError(f"cannot export to TFLite: {brief_number(str(value))} does not fit in the "
                                    f"{kind.itemsize * 8}-bit integers of a shape or option vector")
        return self.b.CreateNumpyVector(np.asarray(values, dtype=dtype))

    def offsets(self, offsets: list[int]) -> int:
        b = self.b
        b.StartVector(4, len(offsets), 4)
        for off in reversed(offsets):
            b.PrependUOffsetTRelative(off)
        return b.EndVector()

    def raw_bytes(self, data: bytes | memoryview, alignment: int) -> int:
        """A [ubyte] vector holding ``data``, its first byte aligned to ``alignment``."""
        b = self.b
        n = len(data)
        b.StartVector(1, n, alignment)
        b.head = b.head - n
        b.Bytes[b.head:b.head + n] = data
        return b.EndVector()

    def finish(self) -> bytes:
        b = self.b
        buffers = []
        for data in self.model.buffers:
            vec = self.raw_bytes(data, 16) if len(data) else None
            b.StartObject(3)
            if vec is not None:
                b.PrependUOffsetTRelativeSlot(S.Buffer.DATA, vec, 0)
            buffers.append(b.EndObject())
        graphs = [self.subgraph(g) for g in self.subgraphs]
        codes = []
        for (builtin, custom, version) in self.model.opcodes:
            name = b.CreateString(custom) if custom is not None else None
            b.StartObject(4)
            b.PrependInt8Slot(S.OperatorCode.DEPRECATED_BUILTIN_CODE, min(builtin, 127), 0)
            if name is not None:
                b.PrependUOffsetTRelativeSlot(S.OperatorCode.CUSTOM_CODE, name, 0)
            b.PrependInt32Slot(S.OperatorCode.VERSION, version, 1)
            b.PrependInt32Slot(S.OperatorCode.BUILTIN_CODE, builtin, 0)
            codes.append(b.EndObject())
        metadata = []
        for name, index in self.metadata:
            text = b.CreateString(name)
            b.StartObject(2)
            b.PrependUOffsetTRelativeSlot(S.Metadata.NAME, text, 0)
            b.PrependUint32Slot(S.Metadata.BUFFER, index, 0)
            metadata.append(b.EndObject())
        signatures = [self.signature(i, g) for i, g in enumerate(self.subgraphs) if g.signature]
        description = self.model.module.attributes.get("tfl.description")
        desc = b.CreateString(description.value) if isinstance(description, StringAttr) else None
        vectors = (self.offsets(codes), self.offsets(graphs), self.offsets(buffers),
                   self.offsets(metadata) if metadata else None,
                   self.offsets(signatures) if signatures else None)
        b.StartObject(8)
        b.PrependUint32Slot(S.Model.VERSION, S.SCHEMA_VERSION, 0)
        b.PrependUOffsetTRelativeSlot(S.Model.OPERATOR_CODES, vectors[0], 0)
        b.PrependUOffsetTRelativeSlot(S.Model.SUBGRAPHS, vectors[1], 0)
        if desc is not None:
            b.PrependUOffsetTRelativeSlot(S.Model.DESCRIPTION, desc, 0)
        b.PrependUOffsetTRelativeSlot(S.Model.BUFFERS, vectors[2], 0)
        if vectors[3] is not None:
            b.PrependUOffsetTRelativeSlot(S.Model.METADATA, vectors[3], 0)
        if vectors[4] is not None:
            b.PrependUOffsetTRelativeSlot(S.Model.SIGNATURE_DEFS, vectors[4], 0)
        b.Finish(b.EndObject(), file_identifier=S.FILE_IDENTIFIER)
        return bytes(b.Output())

    def tensor(self, t: _Tensor) -> int:
        b = self.b
        shape = self.ints(t.shape)
        signature = self.ints(t.signature) if t.signature is not None else None
        name = b.CreateString(t.name)
        quant = None
        if t.quant is not None:
            scale = self.ints(list(t.quant.scales), "<f4")
            zero_point = self.ints(list(t.quant.zero_points), "<i8")
            b.StartObject(7)
            b.PrependUOffsetTRelativeSlot(S.Quantization.SCALE, scale, 0)
            b.PrependUOffsetTRelativeSlot(S.Quantization.ZERO_POINT, zero_point, 0)
            b.PrependInt32Slot(S.Quantization.QUANTIZED_DIMENSION, t.quant.axis or 0, 0)
            quant = b.EndObject()
        b.StartObject(9)
        b.PrependUOffsetTRelativeSlot(S.Tensor.SHAPE, shape, 0)
        b.PrependInt8Slot(S.Tensor.TYPE, t.type_code, 0)
        b.PrependUint32Slot(S.Tensor.BUFFER, t.buffer, 0)
        b.PrependUOffsetTRelativeSlot(S.Tensor.NAME, name, 0)
        if quant is not None:
            b.PrependUOffsetTRelativeSlot(S.Tensor.QUANTIZATION, quant, 0)
        if signature is not None:
            b.PrependUOffsetTRelativeSlot(S.Tensor.SHAPE_SIGNATURE, signature, 0)
        b.PrependBoolSlot(S.Tensor.HAS_RANK, True, False)
        return b.EndObject()

    def options(self, options: Any) -> tuple[int, int]:
        """(union type, table offset) of an operator's options."""
        b = self.b
        if options[0] == "raw":
            _, kind, fields = options
            b.StartObject(max((slot for slot, _, _ in fields), default=-1) + 1)
            # the builder writes back to front: the last field of the table first, so every
            # field keeps its place (and the raw bytes read back the same)
            for slot, _, raw in sorted(fields, key=lambda entry: -entry[1]):
                size = len(raw)
                b.Prep(size, 0)
                b.head = b.head - size
                b.Bytes[b.head:b.head + size] = raw
                b.Slot(slot)
            return kind, b.EndObject()
        _, spec, op = options
        vectors = {}
        for f in spec.fields:
            if f.kind == "i32[]":
                values = op.attr(f.attr)
                vectors[f.slot] = self.ints([e.value for e in values.elements] if isinstance(values, ArrayAttr) else [])
        derived = S.DERIVED_TYPE_OPTIONS.get(op.BUILTIN)
        slots = [f.slot for f in spec.fields] + ([derived] if derived is not None else [])
        b.StartObject(max(slots, default=-1) + 1)
        for f in spec.fields:
            if f.kind == "i32[]":
                b.PrependUOffsetTRelativeSlot(f.slot, vectors[f.slot], 0)
                continue
            attr = op.attr(f.attr)
            if attr is None:
                continue
            value = attr.value
            if f.enum:
                value = f.enum.index(value)
            if f.kind == "i8":
                b.PrependInt8Slot(f.slot, _signed(value, 8), f.default)
            elif f.kind == "i32":
                b.PrependInt32Slot(f.slot, _signed(value, 32), f.default)
            elif f.kind == "f32":
                b.PrependFloat32Slot(f.slot, value, f.default)
            else:
                b.PrependBoolSlot(f.slot, bool(value), f.default)
        if derived is not None:
            b.PrependInt8Slot(derived, S.type_code(op.results[0].type.element_type) or 0, 0)
        return spec.type, b.EndObject()

    def operator(self, record: _Operator) -> int:
        b = self.b
        inputs, outputs = self.ints(record.inputs), self.ints(record.outputs)
        custom = self.raw_bytes(record.custom_options, 1) if record.custom_options is not None else None
        opts = self.options(record.options) if record.options is not None else None
        opts2 = self.options(record.options_2) if record.options_2 is not None else None
        b.StartObject(13)
        b.PrependUint32Slot(S.Operator.OPCODE_INDEX, record.opcode, 0)
        b.PrependUOffsetTRelativeSlot(S.Operator.INPUTS, inputs, 0)
        b.PrependUOffsetTRelativeSlot(S.Operator.OUTPUTS, outputs, 0)
        if opts is not None:
            b.PrependUint8Slot(S.Operator.BUILTIN_OPTIONS_TYPE, opts[0], 0)
            b.PrependUOffsetTRelativeSlot(S.Operator.BUILTIN_OPTIONS, opts[1], 0)
        if custom is not None:
            b.PrependUOffsetTRelativeSlot(S.Operator.CUSTOM_OPTIONS, custom, 0)
        if opts2 is not None:
            b.PrependUint8Slot(S.Operator.BUILTIN_OPTIONS_2_TYPE, opts2[0], 0)
            b.PrependUOffsetTRelativeSlot(S.Operator.BUILTIN_OPTIONS_2, opts2[1], 0)
        return b.EndObject()

    def subgraph(self, graph: _Subgraph) -> int:
        b = self.b
        tensors = self.offsets([self.tensor(t) for t in graph.tensors])
        operators = self.offsets([self.operator(o) for o in graph.operators])
        inputs, outputs = self.ints(graph.inputs), self.ints(graph.outputs)
        name = b.CreateString(graph.name)
        b.StartObject(5)
        b.PrependUOffsetTRelativeSlot(S.SubGraph.TENSORS, tensors, 0)
        b.PrependUOffsetTRelativeSlot(S.SubGraph.INPUTS, inputs, 0)
        b.PrependUOffsetTRelativeSlot(S.SubGraph.OUTPUTS, outputs, 0)
        b.PrependUOffsetTRelativeSlot(S.SubGraph.OPERATORS, operators, 0)
        b.PrependUOffsetTRelativeSlot(S.SubGraph.NAME, name, 0)
        return b.EndObject()

    def tensor_maps(self, entries: list[tuple[str, int]]) -> int:
        b = self.b
        tables = []
        for name, index in entries:
            text = b.CreateString(name)
            b.StartObject(2)
            b.PrependUOffsetTRelativeSlot(S.TensorMap.NAME, text, 0)
            b.PrependUint32Slot(S.TensorMap.TENSOR_INDEX, index, 0)
            tables.append(b.EndObject())
        return self.offsets(tables)

    def signature(self, index: int, graph: _Subgraph) -> int:
        b = self.b
        assert graph.signature is not None
        key, inputs, outputs = graph.signature
        ins, outs = self.tensor_maps(inputs), self.tensor_maps(outputs)
        text = b.CreateString(key)
        b.StartObject(5)
        b.PrependUOffsetTRelativeSlot(S.SignatureDef.INPUTS, ins, 0)
        b.PrependUOffsetTRelativeSlot(S.SignatureDef.OUTPUTS, outs, 0)
        b.PrependUOffsetTRelativeSlot(S.SignatureDef.SIGNATURE_KEY, text, 0)
        b.PrependUint32Slot(S.SignatureDef.SUBGRAPH_INDEX, index, 0)
        return b.EndObject()


def _is_compiled(module: Operation) -> bool:
    """Whether the module is a compiled model: it holds an NPU program (a tfl.ethos_u op), or a
    compiler planned its arena (``tfl.arena_offsets``) though every op runs on the CPU."""
    return holds_ethos_u(module) or any(ARENA_OFFSETS in op.attributes for op in module.walk())


def export_tflite(module: Operation) -> bytes:
    """Serialise ``module`` (verified tfl IR) as a TFLite flatbuffer; UserError if it cannot be.
    A compiled model (tfl.ethos_u ops, or arena offsets) is written in Vela's layout."""
    data = _Exporter(module).run()
    if not _is_compiled(module):
        return data
    try:
        return write_compiled(vela_layout(read_compiled(data)))
    except ContainerError as err:
        raise UserError(f"cannot export the compiled model: {err}") from None


__all__ = ["export_tflite"]
