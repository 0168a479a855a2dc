"""npu-translate's TFLite translations: ``--import-tflite`` (.tflite -> IR text) and
``--export-tflite`` (IR text -> .tflite). Both report bad input as one diagnostic, exit 1 and
write no output file."""
from __future__ import annotations

import argparse
import sys

from npu_opt.ir.diagnostics import DiagnosticEngine, SourceManager, UserError


def import_tflite_main(args: argparse.Namespace) -> int:
    """Read a .tflite model, verify the imported IR and print it with its locations (tensor names)."""
    import npu_opt.dialects  # noqa: F401 - registers dialects
    from npu_opt.ir.printer import PrintOptions, print_op
    from npu_opt.ir.verifier import verify
    from npu_opt.tools.output import read_input, write_output
    from npu_opt.tools.api import read_module
    from npu_opt.tools.target_options import prepare_target

    engine = DiagnosticEngine(SourceManager())
    try:
        target = prepare_target(args)
        name, data = read_input(args.input)
        module = read_module(name, binary=data, target=target)  # --target and friends, as on npu-opt
    except UserError as err:
        engine.emit(err.diagnostic)
        return 1
    if not verify(module, engine):
        return 1
    # Locations are always printed: they hold the TFLite tensor names, which reports, exports and
    # users find layers by (a re-exported model keeps them; npu-opt names its report rows by them).
    text = print_op(module, PrintOptions(debuginfo=True))
    try:
        write_output(args.output, text)
    except UserError as err:
        engine.emit(err.diagnostic)
        return 1
    return 0


def export_tflite_main(args: argparse.Namespace) -> int:
    """Parse and verify IR (or import a .tflite file) and write it as a TFLite flatbuffer."""
    import npu_opt.dialects  # noqa: F401 - registers dialects
    from npu_opt.ir.parser import ParseOptions, parse_module
    from npu_opt.ir.verifier import verify
    from npu_opt.tools.output import decode_utf8, read_input, write_output_bytes
    from npu_opt.dialects.tfl.tflite import export_tflite, import_tflite, is_tflite

    sources = SourceManager()
    engine = DiagnosticEngine(sources)
    try:
        name, data = read_input(args.input)
        if is_tflite(data):
            module = import_tflite(data, name)
        else:
            text = decode_utf8(name, data)
            sources.add(name, text)
            module = parse_module(text, name, ParseOptions(args.allow_unregistered_dialect))
        if not verify(module, engine):
            return 1
        if args.output == "-" and sys.stdout.isatty():
            raise UserError("refusing to write a binary .tflite file to the terminal; give -o FILE")
        write_output_bytes(args.output, export_tflite(module))
    except UserError as err:
        engine.emit(err.diagnostic)
        return 1
    return 0
