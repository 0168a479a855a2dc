"""TFLite flatbuffer -> IR: a ``builtin.module`` with one ``func.func`` per subgraph.

Design notes: docs/lowering_design.md, section The TFLite importer (importer)."""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from npu_opt.dialects.builtin import ModuleOp
from npu_opt.dialects.func import FuncOp, ReturnOp
from npu_opt.dialects.tfl import OPS_BY_BUILTIN
from npu_opt.dialects.tfl.ops_misc import ConstOp, CustomOp, NoValueOp, QConstOp, UnsupportedOp
from npu_opt.dialects.tfl.ops_elementwise import QuantizeOp
from npu_opt.dialects.tfl.opcodes import BUILTIN_OPERATORS, CUSTOM
from npu_opt.ir.attributes import (
    ArrayAttr, Attribute, DenseElementsAttr, DenseResourceAttr, DictionaryAttr, IntegerAttr,
    ResourceBlob, StringAttr, TypeAttr, numpy_dtype,
)
from npu_opt.ir.core import Block, Operation, Region, Value
from npu_opt.ir.diagnostics import UserError
from npu_opt.ir.location import UNKNOWN_LOC, FusedLoc, Location, NameLoc
from npu_opt.ir.types import (
    DYNAMIC, F32, I32, FunctionType, IntegerType, NoneType, QuantUniformType, RankedTensorType, Type,
)
from npu_opt.dialects.tfl.ops_ethosu import ARENA_OFFSETS, EthosUOp
from npu_opt.dialects.tfl.tflite import schema as S
from npu_opt.dialects.tfl.tflite.ethosu_custom import (
    ETHOS_U_CODE, OFFLINE_ALLOCATION, CompiledModel, ContainerError, EthosUOperator, Subgraph,
)
from npu_opt.dialects.tfl.tflite.ethosu_ir import decoded_region, ethos_u_attrs, offsets_attr
from npu_opt.dialects.tfl.tflite.ethosu_reader import read_compiled
from npu_opt.dialects.tfl.tflite.flatbuf import Buffer, FlatBufferError, Table

INLINE_LIMIT = 64
"""Constants of more bytes than this become dense_resource blobs."""
MAX_VERSION = 32
"""Operator versions above this are taken as corruption: no TFLite operator has that many."""

_UI8 = IntegerType(8, "unsigned")


class TFLiteError(ValueError):
    """A well-formed flatbuffer that is not a usable TFLite model."""


def is_tflite(data: bytes | memoryview) -> bool:
    """True if ``data`` carries the TFLite file identifier at bytes 4..8."""
    return len(data) >= 8 and bytes(data[4:8]) == S.FILE_IDENTIFIER


def import_tflite(data: bytes | memoryview, filename: str = "<stdin>") -> Operation:
    """Import a TFLite model; raises UserError('FILE: what is wrong') on a bad file."""
    if len(data) == 0:
        raise UserError(f"{filename}: the file is empty, not a TFLite model")
    if len(data) < 8:
        raise UserError(f"{filename}: the file is truncated ({len(data)} bytes), not a TFLite model")
    if not is_tflite(data):
        found = bytes(data[4:8])
        shown = f"'{found.decode()}'" if found.isascii() and found.decode().isprintable() else "0x" + found.hex().upper()
        raise UserError(f"{filename}: not a TFLite model: expected the file identifier 'TFL3' at "
                        f"bytes 4..8, found {shown}")
    try:
        return _Importer(data, filename).run()
    except FlatBufferError as err:
        raise UserError(f"{filename}: malformed TFLite file: {err}") from None
    except (TFLiteError, ContainerError) as err:
        raise UserError(f"{filename}: {err}") from None


def _unique(name: str, taken: set[str]) -> str:
    candidate, suffix = name, 0
    while candidate in taken:
        suffix += 1
        candidate = f"{name}_{suffix}"
    taken.add(candidate)
    return candidate


class _OpCode:
    __slots__ = ("builtin", "custom_code", "version")

    def __init__(self, builtin: int, custom_code: str | None, version: int) -> None:
        self.builtin = builtin
        self.custom_code = custom_code
        self.version = version


class _Importer:
    """Model-wide state: the file, its buffers and operator codes, and the blobs made so far."""

    def __init__(self, data: bytes | memoryview, filename: str) -> None:
        self.data = memoryview(data)
        self.buf = Buffer(self.data)
        self.filename = filename
        self.buffers: list[Table] = []
        self.blobs: dict[int, ResourceBlob] = {}
        self.blob_keys: dict[int, str] = {}
        self.streams: list[str] = []
        """Blob keys given to ethos-u command streams."""
        self.codes: list[_OpCode] = []
        self.compiled: CompiledModel | None = None
        """The model as a compiled (Vela) model, when it has ethos-u operators."""

    def run(self) -> Operation:
        model = self.buf.root("model")
        version = model.scalar(S.Model.VERSION, "u32", 0)
        if version != S.SCHEMA_VERSION:
            raise TFLiteError(f"unsupported TFLite schema version {version} (npu-opt reads version "
                              f"{S.SCHEMA_VERSION})")
        self.codes = [self._opcode(t, i) for i, t in
                      enumerate(model.tables(S.Model.OPERATOR_CODES, "operator_codes"))]
        self.buffers = model.tables(S.Model.BUFFERS, "buffers")
        if any(code.custom_code == ETHOS_U_CODE for code in self.codes):
            self.compiled = read_compiled(self.data)
        subgraphs = model.tables(S.Model.SUBGRAPHS, "subgraphs")
        if not subgraphs:
            raise TFLiteError("the model has no subgraphs")
        signatures = self._signatures(model, len(subgraphs))
        block = Block()
        module = ModuleOp.build(regions=[Region([block])])
        taken: set[str] = set()
        names = []
        for index, subgraph in enumerate(subgraphs):
            name = subgraph.string(S.SubGraph.NAME, "name") or ("main" if index == 0 else f"fn{index}")
            names.append(_unique(name, taken))
        for index, subgraph in enumerate(subgraphs):
            func = _SubgraphImporter(self, subgraph, index, names[index], signatures.get(index)).build()
            block.append(func)
        attrs: dict[str, Attribute] = {}
        description = model.string(S.Model.DESCRIPTION, "description")
        if description is not None:
            attrs["tfl.description"] = StringAttr(description)
        metadata = self._metadata(model)
        if metadata:
            attrs["tfl.metadata"] = DictionaryAttr(metadata)
        attrs["tfl.schema_version"] = IntegerAttr(version, I32)
        module.attributes.update(attrs)
        return module

    def _opcode(self, table: Table, index: int) -> _OpCode:
        deprecated = table.scalar(S.OperatorCode.DEPRECATED_BUILTIN_CODE, "i8", 0)
        code = max(deprecated, table.scalar(S.OperatorCode.BUILTIN_CODE, "i32", 0))
        version = table.scalar(S.OperatorCode.VERSION, "i32", 1)
        custom = table.string(S.OperatorCode.CUSTOM_CODE, "custom_code")
        if code not in BUILTIN_OPERATORS:
            raise TFLiteError(f"operator code {index} has the unknown builtin operator code {code}")
        if not 1 <= version <= MAX_VERSION:
            raise TFLiteError(f"operator code {index} ({BUILTIN_OPERATORS[code]}) has version "
                              f"{version}, which no TFLite release defines")
        if code == CUSTOM and custom is None:
            raise TFLiteError(f"operator code {index} is CUSTOM but has no custom_code")
        return _OpCode(code, custom, version)

    def _signatures(self, model: Table, count: int) -> dict[int, tuple[str, dict[int, str], dict[int, str]]]:
        """Subgraph index -> (signature key, {tensor: input name}, {tensor: output name})."""
        found: dict[int, tuple[str, dict[int, str], dict[int, str]]] = {}
        for index, sig in enumerate(model.tables(S.Model.SIGNATURE_DEFS, "signature_defs")):
            subgraph = sig.scalar(S.SignatureDef.SUBGRAPH_INDEX, "u32", 0)
            if subgraph >= count:
                raise TFLiteError(f"signature {index} refers to subgraph {subgraph}, but the model has "
                                  f"{count}")
            maps = []
            for slot, what in ((S.SignatureDef.INPUTS, "inputs"), (S.SignatureDef.OUTPUTS, "outputs")):
                entries = {}
                for entry in sig.tables(slot, what):
                    name = entry.string(S.TensorMap.NAME, "name") or ""
                    entries[entry.scalar(S.TensorMap.TENSOR_INDEX, "u32", 0)] = name
                maps.append(entries)
            key = sig.string(S.SignatureDef.SIGNATURE_KEY, "signature_key") or ""
            found.setdefault(subgraph, (key, maps[0], maps[1]))
        return found

    def _metadata(self, model: Table) -> dict[str, Attribute]:
        entries: dict[str, Attribute] = {}
        for index, table in enumerate(model.tables(S.Model.METADATA, "metadata")):
            name = table.string(S.Metadata.NAME, "name") or f"metadata_{index}"
            if name == OFFLINE_ALLOCATION and self.compiled is not None:
                continue  # the arena offsets become tfl.arena_offsets attributes
            data = self.buffer_data(table.scalar(S.Metadata.BUFFER, "u32", 0), f"metadata '{name}'")
            raw = bytes(data) if data is not None else b""
            try:
                text = raw.decode("utf-8")
                attr: Attribute = StringAttr(text) if text.encode("utf-8") == raw else _bytes_attr(raw)
            except UnicodeDecodeError:
                attr = _bytes_attr(raw)
            entries[name] = attr
        return entries

    def buffer_data(self, index: int, what: str) -> memoryview | None:
        """The bytes of buffer ``index`` (a view of the file), or None when it is empty."""
        if index >= len(self.buffers):
            raise TFLiteError(f"{what} refers to buffer {index}, but the model has {len(self.buffers)} buffers")
        table = self.buffers[index]
        offset = table.scalar(S.Buffer.OFFSET, "u64", 0)
        if offset > 1:
            size = table.scalar(S.Buffer.SIZE, "u64", 0)
            if offset + size > self.buf.size:
                raise TFLiteError(f"buffer {index} (offset {offset}, size {size}) lies outside the "
                                  f"{self.buf.size}-byte file")
            return self.data[offset:offset + size] if size else None
        data = table.bytes_view(S.Buffer.DATA, f"buffer {index}")
        return data if data is not None and len(data) else None

    def blob(self, index: int, data: memoryview) -> tuple[str, ResourceBlob]:
        """One ResourceBlob per buffer (shared by every tensor using it), keyed in import order."""
        blob = self.blobs.get(index)
        if blob is None:
            blob = self.blobs[index] = ResourceBlob(data)
            self.blob_keys[index] = f"tfl_const_{len(self.blob_keys)}"
        return self.blob_keys[index], blob


def _bytes_attr(raw: bytes | memoryview) -> DenseElementsAttr:
    return DenseElementsAttr(RankedTensorType((len(raw),), _UI8), np.frombuffer(raw, dtype=np.uint8))


class _SubgraphImporter:
    """Builds the func.func of one subgraph."""

    def __init__(self, model: _Importer, table: Table, index: int, name: str,
                 signature: tuple[str, dict[int, str], dict[int, str]] | None) -> None:
        self.model = model
        self.index = index
        self.name = name
        self.signature = signature
        self.tensors = table.tables(S.SubGraph.TENSORS, "tensors")
        self.inputs = self._indices(table, S.SubGraph.INPUTS, "inputs")
        self.outputs = self._indices(table, S.SubGraph.OUTPUTS, "outputs")
        self.operators = table.tables(S.SubGraph.OPERATORS, "operators")
        self.values: dict[int, Value] = {}
        self.types: dict[int, RankedTensorType] = {}
        self.names: dict[int, str | None] = {}
        self.no_value: Value | None = None
        self.block: Block | None = None
        self.where = f"subgraph {index}"
        compiled = model.compiled
        self.compiled: Subgraph | None = compiled.subgraphs[index] if compiled is not None else None
        self.offsets = compiled is not None and any(name == OFFLINE_ALLOCATION for name, _ in compiled.metadata)
        """Whether tensors have arena offsets (OfflineMemoryAllocation) to keep as attributes."""

    def _indices(self, table: Table, slot: int, what: str) -> list[int]:
        array = table.array(slot, "<i4", what)
        values = [] if array is None else array.tolist()
        for value in values:
            if not 0 <= value < len(self.tensors):
                raise TFLiteError(f"subgraph {self.index} {what} refer to tensor {value}, but it has "
                                  f"{len(self.tensors)} tensors")
        return values

    # -- tensors ---------------------------------------------------------------------------
    def tensor_name(self, index: int) -> str | None:
        if index not in self.names:
            self.names[index] = self.tensors[index].string(S.Tensor.NAME, "name")
        return self.names[index]

    def describe(self, index: int) -> str:
        name = self.tensor_name(index)
        return f"{self.where} tensor {index}" + (f" ('{name}')" if name else "")

    def tensor_type(self, index: int, data: memoryview | None = None) -> RankedTensorType:
        """The IR type of tensor ``index``; ``data`` (a constant's bytes) selects the narrow range."""
        if data is None and index in self.types:
            return self.types[index]
        table = self.tensors[index]
        what = self.describe(index)
        shape_array = table.array(S.Tensor.SHAPE, "<i4", "shape")
        shape = [] if shape_array is None else shape_array.tolist()
        signature = table.array(S.Tensor.SHAPE_SIGNATURE, "<i4", "shape_signature")
        if any(d < 0 for d in shape):
            raise TFLiteError(f"{what} has a negative dimension in its shape {shape}")
        if signature is not None and len(signature) == len(shape):
            shape = [DYNAMIC if s == -1 else d for d, s in zip(shape, signature.tolist())]
        code = table.scalar(S.Tensor.TYPE, "i8", 0)
        element = S.TENSOR_TYPES.get(code)
        if element is None:
            name = S.TENSOR_TYPE_NAMES.get(code, f"unknown type {code}")
            raise TFLiteError(f"{what} has element type {name}, which npu-opt does not support")
        quant = table.table(S.Tensor.QUANTIZATION, "quantization")
        if quant is not None and isinstance(element, IntegerType) and element.width > 1:
            element = self._quant_type(quant, element, shape, what, data)
        result = RankedTensorType(shape, element)
        if data is None:
            self.types[index] = result
        return result

    def _quant_type(self, quant: Table, storage: IntegerType, shape: Sequence[int], what: str,
                    data: memoryview | None) -> Type:
        scales = quant.array(S.Quantization.SCALE, "<f4", "scale")
        if scales is None or len(scales) == 0:
            return storage
        zero_points = quant.array(S.Quantization.ZERO_POINT, "<i8", "zero_point")
        zps = [0] * len(scales) if zero_points is None else zero_points.tolist()
        if len(zps) != len(scales):
            raise TFLiteError(f"{what} has {len(scales)} quantisation scales but {len(zps)} zero points")
        axis = None
        if len(scales) > 1:
            axis = quant.scalar(S.Quantization.QUANTIZED_DIMENSION, "i32", 0)
            if not 0 <= axis < len(shape) or shape[axis] not in (len(scales), DYNAMIC):
                raise TFLiteError(f"{what} has {len(scales)} scales along dimension {axis}, which does "
                                  f"not fit its shape {list(shape)}")
        low = None
        if (data is not None and storage.width == 8 and not storage.is_unsigned
                and not any(zps) and (len(data) == 0 or int(np.frombuffer(data, np.int8).min()) > -128)):
            low = -127
        try:
            return QuantUniformType(storage, F32, [float(s) for s in scales.tolist()], zps, axis, low)
        except ValueError as err:
            raise TFLiteError(f"{what} has invalid quantisation: {err}") from None

    def is_constant(self, index: int) -> bool:
        buffer = self.tensors[index].scalar(S.Tensor.BUFFER, "u32", 0)
        return buffer != 0 and self.model.buffer_data(buffer, self.describe(index)) is not None

    def constant(self, index: int) -> Value:
        """Create the constant op of tensor ``index`` at the end of the block."""
        assert self.block is not None
        what = self.describe(index)
        buffer = self.tensors[index].scalar(S.Tensor.BUFFER, "u32", 0)
        data = self.model.buffer_data(buffer, what)
        assert data is not None
        result_type = self.tensor_type(index, data)
        storage = result_type.element_type
        quantised = isinstance(storage, QuantUniformType)
        if quantised:
            storage = storage.storage_type  # type: ignore[union-attr]
        size = S.element_bytes(storage)
        if size is None or storage not in S.CONSTANT_TYPES:
            raise TFLiteError(f"{what} is a constant of element type {storage}, which npu-opt does not "
                              f"support for constants")
        if DYNAMIC in result_type.shape:
            raise TFLiteError(f"{what} is a constant with a dynamic shape")
        count = result_type.num_elements()
        if count * size != len(data):
            raise TFLiteError(f"{what} of type {result_type} needs {count * size} bytes, but its "
                              f"buffer {buffer} holds {len(data)}")
        value_type = RankedTensorType(result_type.shape, storage)
        if len(data) > INLINE_LIMIT:
            key, blob = self.model.blob(buffer, data)
            value: Attribute = DenseResourceAttr(value_type, key, blob)
        else:
            array = np.frombuffer(data, dtype=numpy_dtype(storage).newbyteorder("<"))
            value = DenseElementsAttr(value_type, array)
        location = self.location([index])
        if quantised:
            op = QConstOp.build(result_types=[result_type], attrs={"qtype": TypeAttr(result_type),
                                                                  "value": value}, location=location)
        else:
            op = ConstOp.build(result_types=[result_type], attrs={"value": value}, location=location)
        self.block.append(op)
        self.values[index] = op.results[0]
        return op.results[0]

    def location(self, indices: Sequence[int]) -> Location:
        names = [self.tensor_name(i) for i in indices]
        if len(names) == 1:
            return NameLoc(names[0]) if names[0] is not None else UNKNOWN_LOC
        if not names:
            return UNKNOWN_LOC
        return FusedLoc(tuple(NameLoc(n) if n is not None else UNKNOWN_LOC for n in names))

    def operand(self, index: int, reader: str) -> Value:
        """The value of tensor ``index`` read by ``reader`` (-1: the absent optional operand)."""
        if index == -1:
            if self.no_value is None:
                op = NoValueOp.build(result_types=[NoneType()], attrs={"value": True})
                assert self.block is not None
                self.block.append(op)
                self.no_value = op.results[0]
            return self.no_value
        if not 0 <= index < len(self.tensors):
            raise TFLiteError(f"{reader} reads tensor {index}, but {self.where} has "
                              f"{len(self.tensors)} tensors")
        found = self.values.get(index)
        if found is not None:
            return found
        if self.is_constant(index):
            return self.constant(index)
        raise TFLiteError(f"{reader} reads {self.describe(index)}, which is neither a subgraph input, "
                          "a constant nor the output of an earlier operator")

    # -- the function ----------------------------------------------------------------------
    def build(self) -> Operation:
        arg_types = [self.tensor_type(i) for i in self.inputs]
        result_types = [self.tensor_type(i) for i in self.outputs]
        func = FuncOp.create(self.name, arg_types, result_types)
        self.block = func.regions[0].blocks[0]
        for index, arg in zip(self.inputs, self.block.args):
            self.values.setdefault(index, arg)
        for number, table in enumerate(self.operators):
            self._operator(table, number)
        returned = [self.operand(i, f"{self.where} output") for i in self.outputs]
        self.block.append(ReturnOp.build(returned))
        # a constant returned directly may have the narrow storage range: take the value types
        func.properties["function_type"] = TypeAttr(FunctionType(arg_types, [v.type for v in returned]))
        if self.offsets:
            func.attributes[ARENA_OFFSETS] = self.arena_offsets(self.inputs)
        names = {"inputs": ",".join(self.tensor_name(i) or "" for i in self.inputs),
                 "outputs": ",".join(self.tensor_name(i) or "" for i in self.outputs)}
        func.attributes["tf.entry_function"] = DictionaryAttr({k: StringAttr(v) for k, v in names.items()})
        if self.signature is not None:
            key, sig_inputs, sig_outputs = self.signature
            func.properties["arg_attrs"] = _path_attrs(self.inputs, sig_inputs)
            func.properties["res_attrs"] = _path_attrs(self.outputs, sig_outputs)
            func.attributes["tf_saved_model.exported_names"] = ArrayAttr([StringAttr(key)])
        return func

    def _operator(self, table: Table, number: int) -> None:
        model = self.model
        index = table.scalar(S.Operator.OPCODE_INDEX, "u32", 0)
        if index >= len(model.codes):
            raise TFLiteError(f"{self.where} operator {number} uses operator code {index}, but the "
                              f"model has {len(model.codes)}")
        code = model.codes[index]
        builtin = BUILTIN_OPERATORS[code.builtin]
        reader = f"{self.where} operator {number} ({builtin if code.builtin != CUSTOM else code.custom_code})"
        inputs = table.array(S.Operator.INPUTS, "<i4", "inputs")
        outputs = table.array(S.Operator.OUTPUTS, "<i4", "outputs")
        output_list = [] if outputs is None else outputs.tolist()
        for out in output_list:
            if not 0 <= out < len(self.tensors):
                raise TFLiteError(f"{reader} writes tensor {out}, but {self.where} has "
                                  f"{len(self.tensors)} tensors")
            if out in self.values:
                raise TFLiteError(f"{reader} writes {self.describe(out)}, which already has a value")
        npu = self.compiled.operators[number] if self.compiled is not None else None
        operands = [] if isinstance(npu, EthosUOperator) or inputs is None else \
            [self.operand(i, reader) for i in inputs.tolist()]
        result_types = [self.tensor_type(i) for i in output_list]
        location = self.location(output_list)
        cls = OPS_BY_BUILTIN.get(builtin) if code.builtin != CUSTOM else None
        if isinstance(npu, EthosUOperator):
            op: Operation = self._ethos_u(npu, reader, result_types, location)
        elif code.builtin == CUSTOM:
            attrs: dict[str, Any] = {"custom_code": code.custom_code, "version": code.version}
            options = self._custom_options(table, reader)
            if options is not None:
                attrs["custom_option"] = _bytes_attr(options)
            op = CustomOp.build(operands, result_types, attrs, location=location)
        elif cls is None:
            op = UnsupportedOp.build(operands, result_types, self._raw_options(table, code, builtin, reader),
                                     location=location)
        else:
            attrs = self._options(table, builtin, reader)
            if cls is QuantizeOp and result_types:
                attrs["qtype"] = TypeAttr(result_types[0])
            if builtin == "RESHAPE" and len(operands) == 1:
                operands.append(self._new_shape(table, reader))
            op = cls.build(operands, result_types, attrs, location=location)
            first = operands[0].type if operands else None
            if code.version != S.default_version(builtin, first, bool(attrs.get("keep_num_dims"))):
                op.attributes[S.VERSION_ATTR] = IntegerAttr(code.version, I32)
        if self.offsets:
            op.attributes[ARENA_OFFSETS] = self.arena_offsets(output_list)
        assert self.block is not None
        self.block.append(op)
        for out, result in zip(output_list, op.results):
            self.values[out] = result

    def arena_offsets(self, tensors: list[int]) -> Attribute:
        assert self.compiled is not None
        return offsets_attr([self.compiled.tensors[i].arena_offset for i in tensors])

    def _ethos_u(self, npu: EthosUOperator, reader: str, result_types: list[RankedTensorType],
                 location: Location) -> Operation:
        """A tfl.ethos_u op: the feature maps are its operands, the rest its attributes."""
        assert self.compiled is not None
        operands = [self.operand(i, reader) for i in npu.inputs]
        read_only = npu.memory_tensors[1]
        buffer = self.tensors[read_only].scalar(S.Tensor.BUFFER, "u32", 0)
        stream_key = f"ethos_u_command_stream_{len(self.model.blob_keys) + len(self.model.streams)}"
        self.model.streams.append(stream_key)
        try:
            attrs = ethos_u_attrs(npu, self.compiled, stream_key, self.model.blob(buffer, npu.read_only))
        except ValueError as err:
            raise TFLiteError(f"{reader}: {err}") from None
        return EthosUOp.build(operands, result_types, attrs, decoded_region(attrs), location=location)

    def _options(self, table: Table, builtin: str, reader: str) -> dict[str, Any]:
        """The attributes of a dialect op from its builtin options table (or the defaults)."""
        spec = S.OPTIONS.get(builtin)
        if spec is None:
            return {}
        kind = table.scalar(S.Operator.BUILTIN_OPTIONS_TYPE, "u8", 0)
        options = table.table(S.Operator.BUILTIN_OPTIONS, "builtin_options") if kind else None
        if options is not None and kind != spec.type:
            raise TFLiteError(f"{reader} has builtin options of type {kind}, expected {spec.name} "
                              f"({spec.type})")
        attrs: dict[str, Any] = {}
        for field in spec.fields:
            if field.kind == "i32[]":
                array = options.array(field.slot, "<i4", field.attr) if options is not None else None
                attrs[field.attr] = [] if array is None else array.tolist()
                continue
            value = options.scalar(field.slot, field.kind, field.default) if options is not None else field.default
            if field.only_if_not_default and value == field.default:
                continue
            if field.enum:
                if not 0 <= value < len(field.enum):
                    raise TFLiteError(f"{reader} has the invalid {field.attr} value {value}")
                value = field.enum[value]
            attrs[field.attr] = value
        return attrs

    def _new_shape(self, table: Table, reader: str) -> Value:
        """RESHAPE without a shape operand: its ReshapeOptions.new_shape becomes a constant."""
        kind = table.scalar(S.Operator.BUILTIN_OPTIONS_TYPE, "u8", 0)
        options = table.table(S.Operator.BUILTIN_OPTIONS, "builtin_options") if kind == 17 else None
        array = options.array(0, "<i4", "new_shape") if options is not None else None
        if array is None:
            raise TFLiteError(f"{reader} has neither a shape operand nor ReshapeOptions.new_shape")
        shape = RankedTensorType((len(array),), I32)
        op = ConstOp.build(result_types=[shape], attrs={"value": DenseElementsAttr(shape, array)})
        assert self.block is not None
        self.block.append(op)
        return op.results[0]

    def _custom_options(self, table: Table, reader: str) -> memoryview | None:
        offset = table.scalar(S.Operator.LARGE_CUSTOM_OPTIONS_OFFSET, "u64", 0)
        if offset > 1:
            size = table.scalar(S.Operator.LARGE_CUSTOM_OPTIONS_SIZE, "u64", 0)
            if offset + size > self.model.buf.size:
                raise TFLiteError(f"{reader}: custom options (offset {offset}, size {size}) lie outside "
                                  f"the {self.model.buf.size}-byte file")
            return self.model.data[offset:offset + size]
        return table.bytes_view(S.Operator.CUSTOM_OPTIONS, "custom_options")

    def _raw_options(self, table: Table, code: _OpCode, builtin: str, reader: str) -> dict[str, Any]:
        attrs: dict[str, Any] = {"builtin_code": code.builtin, "opcode": builtin, "version": code.version}
        for type_slot, slot, key in ((S.Operator.BUILTIN_OPTIONS_TYPE, S.Operator.BUILTIN_OPTIONS, "builtin_options"),
                                     (S.Operator.BUILTIN_OPTIONS_2_TYPE, S.Operator.BUILTIN_OPTIONS_2, "builtin_options_2")):
            kind = table.scalar(type_slot, "u8", 0)
            options = table.table(slot, key) if kind else None
            if options is not None:
                attrs[key] = _bytes_attr(options.raw_table())
                attrs[key + "_type"] = kind
        custom = self._custom_options(table, reader)
        if custom is not None:
            attrs["custom_options"] = _bytes_attr(custom)
        return attrs


def _path_attrs(indices: list[int], names: dict[int, str]) -> ArrayAttr:
    """``{tf_saved_model.index_path = ["name"]}`` per argument/result named by the signature."""
    entries = []
    for index in indices:
        name = names.get(index)
        entries.append(DictionaryAttr({"tf_saved_model.index_path": ArrayAttr([StringAttr(name)])}
                                      if name is not None else {}))
    return ArrayAttr(entries)


__all__ = ["import_tflite", "is_tflite", "TFLiteError", "INLINE_LIMIT"]
