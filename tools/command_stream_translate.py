"""npu-translate's command-stream translations: an Ethos-U command stream (raw words, a driver
payload or the ``ethos-u`` operators of a .tflite Vela compiled) to ethosu IR, and an
ethosu.program back to the stream's bytes."""
from __future__ import annotations

import argparse

from npu_opt.ir.diagnostics import DiagnosticEngine, SourceManager, UserError


def decode_command_stream_main(args: argparse.Namespace) -> int:
    """Print, in a module, the ethosu.program of a command stream (little-endian 32-bit words),
    of the stream in a driver payload (COP1), or of each ``ethos-u`` operator of a .tflite."""
    import npu_opt.dialects  # noqa: F401 - registers dialects
    from npu_opt.dialects.builtin import ModuleOp
    from npu_opt.ir.core import Block, Region
    from npu_opt.ir.printer import print_op
    from npu_opt.tools.output import read_input, write_output

    engine = DiagnosticEngine(SourceManager())
    try:
        name, data = read_input(args.input)
        block = Block()
        for program in _programs(name, data):
            block.append(program)
        write_output(args.output, print_op(ModuleOp.build(regions=[Region([block])])))
    except UserError as err:
        engine.emit(err.diagnostic)
        return 1
    return 0


def _programs(name: str, data: bytes) -> list:
    """The ethosu.program of each command stream ``data`` holds."""
    from npu_opt.dialects.ethosu.decode import decode_words
    from npu_opt.dialects.tfl.ops_ethosu import EthosUOp
    from npu_opt.dialects.tfl.tflite.ethosu_custom import parse_payload
    from npu_opt.dialects.tfl.tflite.ethosu_ir import command_words
    from npu_opt.dialects.tfl.tflite.importer import import_tflite, is_tflite
    from npu_opt.hardware.commands.words import words_from_bytes

    decoded: list = []
    if is_tflite(data):
        module = import_tflite(data, name)
        operators = [op for op in module.walk() if isinstance(op, EthosUOp)]
        if not operators:
            raise UserError(f"{name} has no ethos-u operator, so no command stream")
        # The importer decoded every stream it could; one it kept as words is decoded again for its error.
        streams = [(f"{name}: ethos-u operator #{index}", command_words(op).tobytes(), op.location)
                   for index, op in enumerate(operators) if op.program is None][:1]
        if not streams:
            decoded = [op.program for op in operators]
            for program, op in zip(decoded, operators):
                program.detach()
                program.location = op.location
    elif data[:4] == b"COP1":
        _, words = parse_payload(data)
        streams = [(f"{name} (the stream in the driver payload)", words.astype("<u4").tobytes(), None)]
    else:
        streams = [(name, data, None)]
    programs = decoded
    for where, stream, location in streams:
        try:
            program = decode_words(words_from_bytes(stream))
        except UserError as err:
            raise UserError(f"{where}: {err}") from None
        if location is not None:
            program.location = location
        programs.append(program)
    return programs


def encode_command_stream_main(args: argparse.Namespace) -> int:
    """Parse and verify IR holding one ethosu.program and write its command stream's bytes."""
    import npu_opt.dialects  # noqa: F401 - registers dialects
    from npu_opt.dialects.ethosu.encode import encode_program
    from npu_opt.dialects.ethosu.ops_stream import ProgramOp
    from npu_opt.hardware.commands.words import bytes_from_words
    from npu_opt.tools.api import read_verified_ir
    from npu_opt.tools.output import read_input, write_binary

    sources = SourceManager()
    engine = DiagnosticEngine(sources)
    try:
        name, data = read_input(args.input)
        module = read_verified_ir(name, data, sources, engine, args.allow_unregistered_dialect)
        if module is None:
            return 1
        programs = [op for op in module.walk() if isinstance(op, ProgramOp)]
        if len(programs) != 1:
            raise UserError(f"{name}: expected one ethosu.program to encode, found {len(programs)}")
        words = encode_program(programs[0])
        write_binary(args.output, bytes_from_words(words), "a binary command stream")
    except UserError as err:
        engine.emit(err.diagnostic)
        return 1
    return 0


__all__ = ["decode_command_stream_main", "encode_command_stream_main"]
