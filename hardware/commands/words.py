"""Commands to 32-bit words and back, checking every field against its width.

A command's first word holds its opcode in bits 0-9, zeros in bits 10-13, the count of payload
words (0 or 1) in bits 14-15 and its 16-bit parameter in bits 16-31; a cmd1 command's payload word
follows. Streams are stored little-endian.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Iterator, Mapping, Sequence

from npu_opt.hardware.commands.command_set import BY_OPCODE, COMMANDS, OPCODE_BITS, PAYLOAD_FLAG, Command
from npu_opt.hardware.errors import CommandStreamError

WORD_BYTES = 4


@dataclass(frozen=True)
class RawCommand:
    """One command read from a stream: where it starts (in bytes), what it is and its value."""

    offset: int
    command: Command
    value: int

    def field(self, name: str) -> int:
        return self.command.field(name).unpack(self.value)

    def word(self, name: str) -> str:
        """The name of an enumerated field's code (CommandStreamError naming the offset if unknown)."""
        item = self.command.field(name)
        return item.word(item.unpack(self.value), self.command.name, f"at byte offset {self.offset}: ")


def pack_value(command: Command, values: Mapping[str, int | str]) -> int:
    """The command's value with each named field set (the others zero)."""
    unknown = set(values) - {item.name for item in command.fields}
    if unknown:
        raise CommandStreamError(f"{command.name} has no field {', '.join(sorted(unknown))}")
    value = 0
    for item in command.fields:
        if item.name in values:
            value |= item.pack(values[item.name], command.name)
    return value


def command_words(command: Command, value: int) -> tuple[int, ...]:
    """The word or two words of ``command`` with value ``value``."""
    if command.payload:
        return command.opcode | PAYLOAD_FLAG | ((value >> 32) & 0xFFFF) << 16, value & 0xFFFFFFFF
    return (command.opcode | (value & 0xFFFF) << 16,)


def encode(name: str, **values: int | str) -> tuple[int, ...]:
    """The words of command ``name`` with these field values."""
    command = COMMANDS[name]
    return command_words(command, pack_value(command, values))


def read_commands(words: Sequence[int]) -> Iterator[RawCommand]:
    """The commands of a stream of words, in order; CommandStreamError at the first bad word."""
    index = 0
    while index < len(words):
        word = words[index]
        offset = index * WORD_BYTES
        opcode, mode = word & ((1 << OPCODE_BITS) - 1), (word >> 10) & 0x3F
        if mode not in (0, PAYLOAD_FLAG >> 10):
            raise CommandStreamError(f"at byte offset {offset}: word 0x{word:08x} has bits 10-15 = 0x{mode:x}, "
                                     f"not 0 (no payload) or 0x10 (one payload word)")
        payload = mode != 0
        command = BY_OPCODE.get((payload, opcode))
        if command is None:
            kind = "cmd1" if payload else "cmd0"
            raise CommandStreamError(f"at byte offset {offset}: unknown {kind} opcode 0x{opcode:03x} "
                                     f"(word 0x{word:08x})")
        param = word >> 16
        if payload:
            if index + 1 >= len(words):
                raise CommandStreamError(f"at byte offset {offset}: {command.name} lacks its payload word "
                                         f"(the stream ends)")
            value = param << 32 | words[index + 1]
        else:
            value = param
        reserved = value & command.reserved_mask
        if reserved:
            raise CommandStreamError(f"at byte offset {offset}: {command.name} sets reserved bits 0x{reserved:x} "
                                     f"(value 0x{value:x})")
        yield RawCommand(offset, command, value)
        index += 2 if payload else 1


def words_from_bytes(data: bytes) -> list[int]:
    """The little-endian 32-bit words of ``data`` (CommandStreamError unless whole words)."""
    if len(data) % WORD_BYTES:
        raise CommandStreamError(f"a command stream is whole 32-bit words, but this one has {len(data)} bytes "
                                 f"({len(data) % WORD_BYTES} past the last whole word)")
    return list(struct.unpack(f"<{len(data) // WORD_BYTES}I", data))


def bytes_from_words(words: Sequence[int]) -> bytes:
    return struct.pack(f"<{len(words)}I", *words)


__all__ = ["RawCommand", "WORD_BYTES", "bytes_from_words", "command_words", "encode", "pack_value", "read_commands",
           "words_from_bytes"]
