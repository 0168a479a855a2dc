"""ethosu ops to 32-bit command words, writing only the registers whose value changes, as Vela's
generator does (docs/command_stream.md, How encoding picks the registers)."""
from __future__ import annotations

from npu_opt.dialects.ethosu.interfaces import IssuesCommand
from npu_opt.dialects.ethosu.ops_stream import ProgramOp, StopOp
from npu_opt.hardware.commands.command_set import COMMANDS
from npu_opt.hardware.commands.words import command_words, pack_value
from npu_opt.hardware.errors import CommandStreamError
from npu_opt.ir.core import Operation
from npu_opt.ir.opdef import VerifyError


class _Emitter:
    """The words written so far and the value each register holds."""

    def __init__(self) -> None:
        self.words: list[int] = []
        self.registers: dict[str, int] = {}

    def put(self, name: str, fields: dict, always: bool = False) -> None:
        """Write a command; a register write that repeats the register's value is left out."""
        command = COMMANDS[name]
        value = pack_value(command, fields)
        if not always:
            if self.registers.get(name) == value:
                return
            self.registers[name] = value
        self.words.extend(command_words(command, value))


def encode_program(program: ProgramOp) -> list[int]:
    """The command words of ``program`` (which must verify, as npu-translate checks first);
    CommandStreamError (located at the op) for a value a register cannot hold."""
    emitter = _Emitter()
    if program.parallel_mode is not None:
        emitter.put("NPU_SET_PARALLEL_MODE", {"value": program.parallel_mode})
    for index, op in enumerate(program.regions[0].blocks[0].ops):
        try:
            _encode_op(emitter, op, program.cores)
        except (CommandStreamError, VerifyError) as err:
            raise CommandStreamError(f"{op.name} (op #{index} of the program): {err}", op.diag_location()) from None
    return emitter.words


def _encode_op(emitter: _Emitter, op: Operation, cores: int) -> None:
    if isinstance(op, StopOp):
        emitter.put("NPU_OP_STOP", {"mask": op.mask}, always=True)
        return
    role = op.trait(IssuesCommand)
    if role is None:
        raise CommandStreamError("is not an NPU command")
    for name, fields in op.register_writes(cores):  # type: ignore[attr-defined]
        emitter.put(name, fields)
    for name, fields in op.wait_writes():  # type: ignore[attr-defined]
        emitter.put(name, fields, always=True)
    emitter.put(role.command, op.command_fields(), always=True)  # type: ignore[attr-defined]


__all__ = ["encode_program"]
