"""The data model of a compiled (Vela-style) .tflite: ``ethos-u`` operators and what surrounds them.

An ``ethos-u`` CUSTOM operator reads, in order, the command-stream tensor (the driver payload:
a header of driver actions, then the NPU's register command stream), the read-only tensor
(encoded weights, scales, LUTs), the scratch and fast-scratch tensors (arena areas), then its
feature-map inputs. The OfflineMemoryAllocation metadata gives each tensor's arena offset.
Layout and rationale: docs/deployable_tflite.md.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import Union

import numpy as np

ETHOS_U_CODE = "ethos-u"
"""The custom_code of an NPU operator (what TFLite Micro's Ethos-U kernel registers)."""
NPU_CUSTOM_OPTIONS = b"\x01\x04\x01"
"""The custom options Vela gives an NPU operator: a flexbuffer holding the uint8 value 1."""
OFFLINE_ALLOCATION = "OfflineMemoryAllocation"
"""The metadata entry with each tensor's arena offset (-1: TFLite Micro places it)."""

FOURCC_COP1 = int.from_bytes(b"COP1", "little")
"""The first word of every driver payload."""
ACTION_CONFIG, ACTION_CMD_STREAM, ACTION_READ_APB, ACTION_DUMP_SHRAM, ACTION_NOP = 1, 2, 3, 4, 5
"""Driver action codes (the low byte of an action's tag word); 0 is reserved."""
_ACTION_NAMES = {ACTION_CONFIG: "config", ACTION_CMD_STREAM: "command stream",
                 ACTION_READ_APB: "read APB", ACTION_DUMP_SHRAM: "dump SHRAM", ACTION_NOP: "nop"}
MAX_STREAM_WORDS = (1 << 24) - 1
"""The longest command stream a CmdStream action can announce (24 bits of length)."""
CONFIG_PARAM = 0x10
"""The parameter of Vela's config action: patch 1, release 0 (as ``patch << 4 | release``)."""


class ContainerError(ValueError):
    """A compiled model whose ethos-u payload, tensors or metadata are not what the driver reads."""


def action_tag(action: int, reserved: int, param: int) -> int:
    """One driver-action tag word: the action code, 8 reserved bits, a 16-bit parameter."""
    return action | (reserved << 8) | (param << 16)


@dataclass(frozen=True)
class PayloadHeader:
    """The driver actions in front of the command stream, kept word for word (``words`` begins
    with 'COP1' and ends before the CmdStream tag). ``config_word``/``id_word`` are the NPU's
    CONFIG and ID register values the driver checks the hardware against (None if absent)."""

    words: tuple[int, ...]
    config_word: int | None = None
    id_word: int | None = None

    @staticmethod
    def for_npu(config_word: int, id_word: int) -> "PayloadHeader":
        """The header Vela writes: COP1, a config action, NOPs so the stream starts 16-byte aligned."""
        words = [FOURCC_COP1, action_tag(ACTION_CONFIG, 0, CONFIG_PARAM), config_word, id_word]
        words += [action_tag(ACTION_NOP, 0, 0)] * ((-(len(words) + 1)) % 4)
        return PayloadHeader(tuple(words), config_word, id_word)

    @property
    def product(self) -> str | None:
        """'ethos-u55' or 'ethos-u65' from the CONFIG word's product field."""
        if self.config_word is None:
            return None
        return {0: "ethos-u55", 1: "ethos-u65"}.get(self.config_word >> 28, f"product {self.config_word >> 28}")

    @property
    def macs_per_cycle(self) -> int | None:
        return None if self.config_word is None else 1 << (self.config_word & 0xF)

    @property
    def shram_kib(self) -> int | None:
        return None if self.config_word is None else (self.config_word >> 8) & 0xFF

    def payload(self, stream: np.ndarray) -> bytes:
        """The whole payload: this header, the CmdStream tag, the stream's words (little-endian)."""
        if len(stream) > MAX_STREAM_WORDS:
            raise ContainerError(f"a command stream of {len(stream)} words is longer than the "
                                 f"{MAX_STREAM_WORDS} words a driver payload can announce")
        tag = action_tag(ACTION_CMD_STREAM, len(stream) >> 16, len(stream) & 0xFFFF)
        head = np.asarray(self.words + (tag,), dtype="<u4").tobytes()
        return head + np.asarray(stream, dtype="<u4").tobytes()


def parse_payload(data: bytes | memoryview) -> tuple[PayloadHeader, np.ndarray]:
    """Split a driver payload into its header and the command-stream words; ContainerError
    names what is wrong (magic, an unknown action, a truncated stream)."""
    if len(data) % 4:
        raise ContainerError(f"the command-stream payload has {len(data)} bytes, not a whole number "
                             "of 32-bit words")
    words = np.frombuffer(data, dtype="<u4")
    if len(words) < 2:
        raise ContainerError(f"the command-stream payload has {len(words)} words, fewer than the "
                             "2 of the smallest header")
    if int(words[0]) != FOURCC_COP1:
        found = int(words[0]).to_bytes(4, "little")
        shown = f"'{found.decode()}'" if found.isascii() and found.decode().isprintable() else f"0x{int(words[0]):08X}"
        raise ContainerError(f"the command-stream payload starts with {shown}, not the driver magic 'COP1'")
    config_word = id_word = None
    index = 1
    while index < len(words):
        tag = int(words[index])
        action, reserved, param = tag & 0xFF, (tag >> 8) & 0xFF, tag >> 16
        if action == ACTION_CMD_STREAM:
            length = (reserved << 16) | param
            available = len(words) - index - 1
            if length > available:
                raise ContainerError(f"the command stream announces {length} words but the payload "
                                     f"holds only {available} after its header (truncated)")
            if length < available:
                raise ContainerError(f"the payload holds {available - length} words after its "
                                     f"{length}-word command stream")
            header = PayloadHeader(tuple(int(w) for w in words[:index]), config_word, id_word)
            return header, words[index + 1:]
        if action == ACTION_CONFIG:
            if index + 2 >= len(words):
                raise ContainerError(f"the config action at word {index} needs 2 more words; the "
                                     "payload ends first")
            config_word, id_word = int(words[index + 1]), int(words[index + 2])
            index += 3
        elif action in _ACTION_NAMES:
            index += 1
        else:
            raise ContainerError(f"word {index} of the command-stream payload (0x{tag:08X}) is the "
                                 f"unknown driver action {action} (known: 1 to 5)")
    raise ContainerError("the command-stream payload has no command stream action (2)")


@dataclass
class Quantisation:
    """A tensor's QuantizationParameters (the fields TFLite Micro reads, as stored)."""

    scale: tuple[float, ...] | None = None
    zero_point: tuple[int, ...] | None = None
    minimum: tuple[float, ...] | None = None
    maximum: tuple[float, ...] | None = None
    axis: int = 0


ROLES = ("command_stream", "read_only", "scratch", "fast_scratch")
"""The first four inputs of an ethos-u operator, in order."""


@dataclass
class TensorRecord:
    """One tensor. ``data`` is the content of its own buffer (CPU constants); tensors in the
    arena have none. The command-stream and read-only tensors take theirs from the operators
    reading them (``role``). ``arena_offset`` is -1 when TFLite Micro places the tensor."""

    name: str
    shape: tuple[int, ...]
    type_code: int
    quantisation: Quantisation | None = None
    data: bytes | memoryview | None = None
    arena_offset: int = -1
    role: str = ""
    is_variable: bool = False


@dataclass
class EthosUOperator:
    """One ``ethos-u`` operator: the register command stream (words, header stripped), the
    read-only bytes, the scratch sizes, and the tensor indices it reads and writes."""

    command_stream: np.ndarray
    header: PayloadHeader
    read_only: bytes | memoryview
    scratch_size: int
    fast_scratch_size: int
    memory_tensors: tuple[int, int, int, int]
    """Indices of the command-stream, read-only, scratch and fast-scratch tensors."""
    inputs: list[int] = field(default_factory=list)
    """Feature-map inputs (the operator's inputs after the four memory tensors)."""
    outputs: list[int] = field(default_factory=list)
    version: int = 1
    custom_options: bytes = NPU_CUSTOM_OPTIONS
    empty_vectors: bool = True
    """Vela's legacy core writes empty intermediates and mutating_variable_inputs vectors."""

    @property
    def payload(self) -> bytes:
        return self.header.payload(self.command_stream)

    @property
    def payload_size(self) -> int:
        """The payload's length in bytes (the header's words, the CmdStream tag, the stream), unbuilt."""
        return 4 * (len(self.header.words) + 1 + len(self.command_stream))


@dataclass
class OptionField:
    """One field of an options table: ``kind`` is a scalar kind ('i8', 'i32', 'f32', 'bool',
    ...), 'i32[]' for a vector, or 'raw' (bytes whose type is unknown, kept as they were)."""

    slot: int
    kind: str
    value: object


@dataclass
class OptionsTable:
    """A builtin options table; ``fields`` in the order they are written (Vela's order)."""

    type: int
    fields: list[OptionField] = field(default_factory=list)


@dataclass
class CpuOperator:
    """Any other operator, kept as stored so that it is written back unchanged."""

    builtin: int
    custom_code: str | None
    version: int
    inputs: list[int]
    outputs: list[int]
    options: OptionsTable | None = None
    options_2: OptionsTable | None = None
    custom_options: bytes | memoryview | None = None
    custom_options_format: int = 0
    intermediates: list[int] | None = None
    mutating_variable_inputs: bytes | None = None


Operator = Union[EthosUOperator, CpuOperator]


@dataclass
class Subgraph:
    name: str
    tensors: list[TensorRecord] = field(default_factory=list)
    inputs: list[int] = field(default_factory=list)
    outputs: list[int] = field(default_factory=list)
    operators: list[Operator] = field(default_factory=list)

    def ethos_u(self) -> list[EthosUOperator]:
        return [op for op in self.operators if isinstance(op, EthosUOperator)]


@dataclass
class CompiledModel:
    """A whole compiled model. ``metadata`` keeps every entry in file order; the
    OfflineMemoryAllocation entry has None as its bytes (it is made from the tensors' offsets).
    ``opcodes`` lists (builtin code, custom code, version) in the file's order."""

    subgraphs: list[Subgraph]
    opcodes: list[tuple[int, str | None, int]]
    description: str | None = None
    metadata: list[tuple[str, bytes | memoryview | None]] = field(default_factory=list)

    def ethos_u(self) -> list[EthosUOperator]:
        return [op for graph in self.subgraphs for op in graph.ethos_u()]


def decode_offline_allocation(data: bytes | memoryview, tensor_counts: list[int]) -> list[list[int]]:
    """Per subgraph, each tensor's arena offset from the metadata bytes: int32 version 0, the
    subgraph count, the tensor count, then one offset per tensor of every subgraph."""
    if len(data) % 4 or len(data) < 12:
        raise ContainerError(f"{OFFLINE_ALLOCATION} has {len(data)} bytes, not the 3 or more int32 "
                             "words it needs")
    values = np.frombuffer(data, dtype="<i4").tolist()
    version, graphs, tensors = values[:3]
    if version != 0:
        raise ContainerError(f"{OFFLINE_ALLOCATION} has version {version}; only version 0 is defined")
    if graphs != len(tensor_counts) or tensors != sum(tensor_counts):
        raise ContainerError(f"{OFFLINE_ALLOCATION} describes {graphs} subgraphs and {tensors} tensors, "
                             f"but the model has {len(tensor_counts)} and {sum(tensor_counts)}")
    if len(values) != 3 + tensors:
        raise ContainerError(f"{OFFLINE_ALLOCATION} holds {len(values) - 3} offsets for {tensors} tensors")
    offsets, start = [], 3
    for count in tensor_counts:
        offsets.append(values[start:start + count])
        start += count
    return offsets


def encode_offline_allocation(subgraphs: list[Subgraph]) -> bytes:
    """The OfflineMemoryAllocation bytes of the tensors' arena offsets."""
    return offline_allocation_bytes(len(subgraphs), [t.arena_offset for g in subgraphs for t in g.tensors])


def offline_allocation_bytes(subgraph_count: int, offsets: list[int]) -> bytes:
    """The OfflineMemoryAllocation bytes of every tensor's arena offset (-1: TFLite Micro places it),
    the tensors of all subgraphs in order."""
    return struct.pack(f"<{3 + len(offsets)}i", 0, subgraph_count, len(offsets), *offsets)


__all__ = [
    "ETHOS_U_CODE", "NPU_CUSTOM_OPTIONS", "OFFLINE_ALLOCATION", "ROLES", "ContainerError", "PayloadHeader",
    "parse_payload", "Quantisation", "TensorRecord", "EthosUOperator", "OptionField", "OptionsTable",
    "CpuOperator", "Operator", "Subgraph", "CompiledModel", "decode_offline_allocation",
    "encode_offline_allocation", "offline_allocation_bytes",
]
