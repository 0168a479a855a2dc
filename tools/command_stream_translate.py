"""npu-translate's command-stream translations: a binary Ethos-U command stream to ethosu IR,
and an ethosu.program back to the stream's bytes."""
from __future__ import annotations

import argparse
import sys

from npu_opt.ir.diagnostics import DiagnosticEngine, SourceManager, UserError


def decode_command_stream_main(args: argparse.Namespace) -> int:
    """Print the ethosu.program of a command stream (little-endian 32-bit words) in a module."""
    import npu_opt.dialects  # noqa: F401 - registers dialects
    from npu_opt.dialects.builtin import ModuleOp
    from npu_opt.dialects.ethosu.decode import decode_words
    from npu_opt.hardware.commands.words import words_from_bytes
    from npu_opt.ir.core import Block, Region
    from npu_opt.ir.printer import print_op
    from npu_opt.tools.output import read_input, write_output

    engine = DiagnosticEngine(SourceManager())
    try:
        name, data = read_input(args.input)
        if data[:4] == b"COP1":
            raise UserError(f"{name} is a driver payload (it starts with COP1): give the command stream it holds, "
                            "the words after its command-stream header")
        try:
            program = decode_words(words_from_bytes(data))
        except UserError as err:
            raise UserError(f"{name}: {err}") from None
        block = Block()
        block.append(program)
        write_output(args.output, print_op(ModuleOp.build(regions=[Region([block])])))
    except UserError as err:
        engine.emit(err.diagnostic)
        return 1
    return 0


def encode_command_stream_main(args: argparse.Namespace) -> int:
    """Parse and verify IR holding one ethosu.program and write its command stream's bytes."""
    import npu_opt.dialects  # noqa: F401 - registers dialects
    from npu_opt.dialects.ethosu.encode import encode_program
    from npu_opt.dialects.ethosu.ops_stream import ProgramOp
    from npu_opt.hardware.commands.words import bytes_from_words
    from npu_opt.ir.parser import ParseOptions, parse_module
    from npu_opt.ir.verifier import verify
    from npu_opt.tools.output import decode_utf8, read_input, write_output

    sources = SourceManager()
    engine = DiagnosticEngine(sources)
    try:
        name, data = read_input(args.input)
        text = decode_utf8(name, data)
        sources.add(name, text)
        module = parse_module(text, name, ParseOptions(args.allow_unregistered_dialect))
        if not verify(module, engine):
            return 1
        programs = [op for op in module.walk() if isinstance(op, ProgramOp)]
        if len(programs) != 1:
            raise UserError(f"{name}: expected one ethosu.program to encode, found {len(programs)}")
        words = encode_program(programs[0])
        if args.output == "-" and sys.stdout.isatty():
            raise UserError("refusing to write a binary command stream to the terminal; give -o FILE")
        write_output(args.output, bytes_from_words(words))
    except UserError as err:
        engine.emit(err.diagnostic)
        return 1
    return 0


__all__ = ["decode_command_stream_main", "encode_command_stream_main"]
