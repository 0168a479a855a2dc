"""32-bit command words to ethosu ops: the registers' values are kept as the stream sets them,
and each NPU_OP_* command becomes an op holding the values it reads (docs/command_stream.md,
How decoding keeps state)."""
from __future__ import annotations

from typing import Sequence

from npu_opt.dialects.ethosu.dialect import ETHOSU
from npu_opt.dialects.ethosu.interfaces import IssuesCommand
from npu_opt.dialects.ethosu.ops_stream import ProgramOp, StopOp
from npu_opt.dialects.ethosu.registers import RegisterReader
from npu_opt.hardware.commands.words import RawCommand, read_commands
from npu_opt.hardware.errors import CommandStreamError
from npu_opt.ir.core import Block, Operation, Region

WAITS = ("NPU_OP_KERNEL_WAIT", "NPU_OP_DMA_WAIT")
"""The waits, in the order an op's command is preceded by them."""


def _op_classes() -> dict[str, type]:
    """The ethosu op class of each NPU_OP_* command, by its IssuesCommand interface."""
    classes = {}
    for cls in ETHOSU.ops.values():
        role = cls.trait(IssuesCommand)
        if role is not None:
            classes[role.command] = cls
    return classes


class _Decoder:
    def __init__(self) -> None:
        self.state: dict[str, RawCommand] = {}
        self.pending: dict[str, RawCommand] = {}
        """Registers written since the last operation (each must be read by the next one)."""
        self.waits: dict[str, RawCommand] = {}
        self.parallel_mode: int | None = None
        self.ops: list[Operation] = []
        self.classes = _op_classes()

    def take(self, raw: RawCommand) -> bool:
        """Take one command; True once the stream has stopped."""
        name = raw.command.name
        if name == "NPU_SET_PARALLEL_MODE":
            if self.ops or self.pending or self.parallel_mode is not None:
                raise CommandStreamError(f"at byte offset {raw.offset}: NPU_SET_PARALLEL_MODE may only open the "
                                         f"stream")
            self.parallel_mode = raw.field("value")
        elif not raw.command.is_operation:
            if name in self.pending:
                raise CommandStreamError(f"at byte offset {raw.offset}: {name} is written twice before one operation "
                                         f"(first at byte offset {self.pending[name].offset})")
            if self.waits:
                raise CommandStreamError(f"at byte offset {raw.offset}: {name} follows a wait; an op's waits come "
                                         f"just before its command")
            self.state[name] = self.pending[name] = raw
        elif name in WAITS:
            later = WAITS[WAITS.index(name) + 1:]
            if name in self.waits or any(other in self.waits for other in later):
                raise CommandStreamError(f"at byte offset {raw.offset}: {name} is out of place (each wait at most "
                                         f"once before a command, the kernel wait first)")
            self.waits[name] = raw
        elif name == "NPU_OP_STOP":
            self.ensure_consumed(raw, set())
            self.ops.append(StopOp.build(attrs={"mask": raw.field("mask")}))
            return True
        else:
            self.operation(raw)
        return False

    def operation(self, raw: RawCommand) -> None:
        cls = self.classes.get(raw.command.name)
        if cls is None:
            raise CommandStreamError(f"at byte offset {raw.offset}: {raw.command.name} has no ethosu op")
        reader = RegisterReader(self.state, raw, frozenset(self.pending))
        attrs = cls.attributes_from(reader, raw, 1 + (self.parallel_mode or 0))
        self.ensure_consumed(raw, reader.read)
        if "NPU_OP_KERNEL_WAIT" in self.waits:
            attrs["kernel_wait"] = self.waits["NPU_OP_KERNEL_WAIT"].field("outstanding")
        if "NPU_OP_DMA_WAIT" in self.waits:
            attrs["dma_wait"] = self.waits["NPU_OP_DMA_WAIT"].field("outstanding")
        self.ops.append(cls.build(attrs=attrs))
        self.pending.clear()
        self.waits.clear()

    def ensure_consumed(self, raw: RawCommand, read: set[str]) -> None:
        """Every register written since the last operation is read by this one (and no wait
        precedes a stop), so that nothing the stream says is lost."""
        unread = [entry for entry in self.pending.values() if entry.command.name not in read]
        if unread:
            first = min(unread, key=lambda entry: entry.offset)
            raise CommandStreamError(f"at byte offset {first.offset}: {first.command.name} is not read by the "
                                     f"{raw.command.name} that follows (at byte offset {raw.offset})")
        if raw.command.name == "NPU_OP_STOP" and self.waits:
            first = min(self.waits.values(), key=lambda entry: entry.offset)
            raise CommandStreamError(f"at byte offset {first.offset}: {first.command.name} precedes NPU_OP_STOP")


def decode_words(words: Sequence[int]) -> ProgramOp:
    """The ethosu.program of a command stream; CommandStreamError naming the byte offset of the
    first word that cannot be decoded."""
    decoder = _Decoder()
    stopped_at = None
    for raw in read_commands(words):
        if stopped_at is not None:
            raise CommandStreamError(f"at byte offset {raw.offset}: {raw.command.name} follows NPU_OP_STOP "
                                     f"(at byte offset {stopped_at})")
        if decoder.take(raw):
            stopped_at = raw.offset
    if stopped_at is None:
        raise CommandStreamError(f"the stream ends after {len(words) * 4} bytes without NPU_OP_STOP")
    block = Block()
    for op in decoder.ops:
        block.append(op)
    attrs = {} if decoder.parallel_mode is None else {"parallel_mode": decoder.parallel_mode}
    return ProgramOp.build(attrs=attrs, regions=[Region([block])])  # type: ignore[return-value]


__all__ = ["decode_words"]
