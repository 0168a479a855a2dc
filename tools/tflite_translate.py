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
    from npu_opt.ir.verifier import verify
    from npu_opt.tools.api import read_verified_ir
    from npu_opt.tools.output import read_input, write_binary
    from npu_opt.dialects.tfl.tflite import export_tflite, import_tflite, is_tflite

    sources = SourceManager()
    engine = DiagnosticEngine(sources)
    try:
        name, data = read_input(args.input)
        if is_tflite(data):
            module = import_tflite(data, name)
            if not verify(module, engine):
                return 1
        else:
            module = read_verified_ir(name, data, sources, engine, args.allow_unregistered_dialect)
            if module is None:
                return 1
        write_binary(args.output, export_tflite(module), "a binary .tflite file")
    except UserError as err:
        engine.emit(err.diagnostic)
        return 1
    return 0


def export_vela_raw_main(args: argparse.Namespace) -> int:
    """Write a compiled model (IR with tfl.ethos_u ops, or a Vela .tflite) as Vela's raw .npz:
    the first ethos-u operator of the first subgraph holding one, as Vela's legacy core does.
    The target (--target, --memory-mode; for IR, else the module's npu.target) says whether the
    fast scratch is a memory of its own."""
    import npu_opt.dialects  # noqa: F401 - registers dialects
    from npu_opt.dialects.npu.target_attr import target_of
    from npu_opt.dialects.tfl.tflite import export_tflite, import_tflite, is_tflite
    from npu_opt.hardware.target import resolve_target
    from npu_opt.tools.api import read_verified_ir
    from npu_opt.tools.output import read_input, write_binary
    from npu_opt.tools.target_options import prepare_target
    from npu_opt.tools.vela_raw import DROPPED_WARNING, raw_output

    sources = SourceManager()
    engine = DiagnosticEngine(sources)
    try:
        request = prepare_target(args)
        target = None
        if request is not None and request.accelerator is not None:
            target = resolve_target(request.accelerator, request.system_config, request.memory_mode,
                                    request.arena_cache_size, request.config)
        name, data = read_input(args.input)
        if not is_tflite(data):
            module = read_verified_ir(name, data, sources, engine, args.allow_unregistered_dialect)
            if module is None:
                return 1
            target = target or target_of(module, required=False)
            data = export_tflite(module)
        else:
            import_tflite(data, name)  # the importer's checks and diagnostics
        if target is None:
            raise UserError("--export-vela-raw needs --target (and --memory-mode), or IR with an npu.target: the "
                            "raw format names the fast scratch's region, which depends on the memory mode")
        found = raw_output(data, target.is_spilling_enabled, name)
        if found.dropped:
            sys.stderr.write(f"npu-translate: warning: {DROPPED_WARNING.format(dropped=found.dropped)}\n")
        write_binary(args.output, found.data, "a binary .npz file")
    except UserError as err:
        engine.emit(err.diagnostic)
        return 1
    return 0
