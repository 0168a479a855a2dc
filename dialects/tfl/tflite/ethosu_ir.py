"""The IR side of a compiled model's ethos-u operators: ``EthosUOperator`` <-> ``tfl.ethos_u``
attributes, for the importer and the exporter."""
from __future__ import annotations

from typing import Any

import numpy as np

from npu_opt.dialects.ethosu.decode import decode_words
from npu_opt.dialects.ethosu.encode import encode_program
from npu_opt.dialects.tfl.ops_ethosu import ARENA_OFFSETS
from npu_opt.dialects.tfl.tflite.ethosu_custom import EthosUOperator, PayloadHeader, Subgraph
from npu_opt.ir.attributes import ArrayAttr, DenseResourceAttr, IntegerAttr, ResourceBlob, StringAttr
from npu_opt.ir.core import Block, Operation, Region
from npu_opt.hardware.errors import CommandStreamError
from npu_opt.ir.diagnostics import UserError
from npu_opt.ir.types import I64, IntegerType, RankedTensorType

_U32 = IntegerType(32, "unsigned")
_U8 = IntegerType(8, "unsigned")


def offsets_attr(offsets: list[int]) -> ArrayAttr:
    return ArrayAttr([IntegerAttr(o, I64) for o in offsets])


def ethos_u_attrs(op: EthosUOperator, graph: Subgraph, stream_key: str, read_only: tuple[str, ResourceBlob]) -> dict[str, Any]:
    """The attributes of the tfl.ethos_u op of ``op``; the command stream gets a blob of its own
    (keyed ``stream_key``), the read-only data the blob given (shared by the ops sharing it)."""
    words = np.ascontiguousarray(op.command_stream, dtype="<u4")
    scratch, fast = (graph.tensors[i] for i in op.memory_tensors[2:])
    header = op.header
    if header.config_word is None or header.id_word is None:
        raise ValueError("its driver payload has no config action (the NPU's CONFIG and ID words)")
    if header.words != PayloadHeader.for_npu(header.config_word, header.id_word).words:
        raise ValueError(f"its driver payload header ({len(header.words)} words) is not the one Vela "
                         "writes (COP1, config, NOPs), which tfl.ethos_u cannot keep")
    return {
        "command_stream": DenseResourceAttr(RankedTensorType((len(words),), _U32), stream_key,
                                            ResourceBlob(words.view(np.uint8).data)),
        "read_only": DenseResourceAttr(RankedTensorType((len(read_only[1].data),), _U8), *read_only),
        "scratch_size": IntegerAttr(op.scratch_size, I64),
        "fast_scratch_size": IntegerAttr(op.fast_scratch_size, I64),
        "scratch_offset": IntegerAttr(scratch.arena_offset, I64),
        "fast_scratch_offset": IntegerAttr(fast.arena_offset, I64),
        "npu_config": IntegerAttr(header.config_word, I64),
        "npu_id": IntegerAttr(header.id_word, I64),
        "tensor_names": ArrayAttr([StringAttr(graph.tensors[i].name) for i in op.memory_tensors]),
    }


def decoded_region(attrs: dict[str, Any]) -> list[Region]:
    """The region of a tfl.ethos_u op holding the ethosu.program of ``attrs``' command stream,
    which then leaves ``attrs``; no region (the words kept) when the stream does not decode."""
    words = np.frombuffer(attrs["command_stream"].blob.data, dtype="<u4")
    try:
        program = decode_words(words.tolist())
    except CommandStreamError:
        return []
    del attrs["command_stream"]
    block = Block()
    block.append(program)
    return [Region([block])]


def command_words(op: Operation) -> np.ndarray:
    """The command stream of a tfl.ethos_u op as little-endian words: its program's encoding, or
    the words it keeps."""
    program = getattr(op, "program", None)
    if program is not None:
        return np.asarray(encode_program(program), dtype="<u4")
    return np.frombuffer(blob_bytes(op, "command_stream"), dtype="<u4")


def payload_bytes(op: Operation) -> int:
    """Bytes of a tfl.ethos_u op's driver payload as the file holds it: the header for its CONFIG
    and ID words, the CmdStream tag, then its command stream."""
    header = PayloadHeader.for_npu(int_attr(op, "npu_config"), int_attr(op, "npu_id"))
    return 4 * (len(header.words) + 1 + len(command_words(op)))


def blob_bytes(op: Operation, key: str) -> memoryview:
    """The bytes of a dense or dense_resource attribute of a tfl.ethos_u op."""
    attr = op.attr(key)
    if isinstance(attr, DenseResourceAttr):
        if attr.blob is None:
            raise UserError(f"cannot export '{op.name}': the data of its {key} (dense_resource<{attr.key}>) "
                            "is not available", op.diag_location())
        return attr.blob.data
    array = attr.array  # type: ignore[union-attr]
    return memoryview(np.ascontiguousarray(array, dtype=array.dtype.newbyteorder("<")).tobytes())


def int_attr(op: Operation, key: str, default: int = 0) -> int:
    attr = op.attr(key)
    return attr.value if isinstance(attr, IntegerAttr) else default


__all__ = ["ARENA_OFFSETS", "offsets_attr", "ethos_u_attrs", "decoded_region", "command_words", "blob_bytes",
           "int_attr"]
