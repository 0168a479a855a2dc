"""The ``npu-translate`` console entry point: translations between npu-opt IR and other formats."""
from __future__ import annotations

import argparse
import sys
from typing import Callable, Sequence

from npu_opt.tools.cli_args import VERSION
from npu_opt.tools.target_options import add_target_arguments

Translation = Callable[[argparse.Namespace], int]


def _dot_string(text: str) -> str:
    """``text`` as a Graphviz quoted string (backslash and quote escaped, no raw newlines)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _mlir_to_dot(args: argparse.Namespace) -> int:
    """Print each function's dataflow graph in Graphviz DOT."""
    import npu_opt.dialects  # noqa: F401
    from npu_opt.ir.dataflow import function_graph
    from npu_opt.ir.diagnostics import DiagnosticEngine, SourceManager, UserError
    from npu_opt.tools.api import read_verified_ir
    from npu_opt.tools.output import read_input, write_output

    sources = SourceManager()
    engine = DiagnosticEngine(sources)
    try:
        name, data = read_input(args.input)
        module = read_verified_ir(name, data, sources, engine, args.allow_unregistered_dialect)
    except UserError as err:
        engine.emit(err.diagnostic)
        return 1
    if module is None:  # the graph is only defined for valid IR
        return 1
    lines = ["digraph dataflow {", "  node [shape=box];"]
    for func in module.walk():
        if func.name != "func.func" or not func.regions[0].blocks:
            continue
        fname = func.attr("sym_name").value
        graph = function_graph(func)
        ids = {op: f"n{i}" for i, op in enumerate(graph.nodes)}
        lines.append(f'  subgraph {_dot_string("cluster_" + fname)} {{ label={_dot_string("@" + fname)};')
        for op, ident in ids.items():
            lines.append(f'    {ident} [label={_dot_string(op.name)}];')
        for src, dst, data in graph.edges(data=True):
            label = ",".join(str(o) for _, o in data["uses"])
            lines.append(f'    {ids[src]} -> {ids[dst]} [label="{label}"];')
        lines.append("  }")
    lines.append("}")
    try:
        write_output(args.output, "\n".join(lines) + "\n")
    except UserError as err:
        engine.emit(err.diagnostic)
        return 1
    return 0


def _import_tflite(args: argparse.Namespace) -> int:
    from npu_opt.tools.tflite_translate import import_tflite_main
    return import_tflite_main(args)


def _export_tflite(args: argparse.Namespace) -> int:
    from npu_opt.tools.tflite_translate import export_tflite_main
    return export_tflite_main(args)


def _export_vela_raw(args: argparse.Namespace) -> int:
    from npu_opt.tools.tflite_translate import export_vela_raw_main
    return export_vela_raw_main(args)


def _decode_command_stream(args: argparse.Namespace) -> int:
    from npu_opt.tools.command_stream_translate import decode_command_stream_main
    return decode_command_stream_main(args)


def _encode_command_stream(args: argparse.Namespace) -> int:
    from npu_opt.tools.command_stream_translate import encode_command_stream_main
    return encode_command_stream_main(args)


TRANSLATIONS: dict[str, tuple[Translation, str]] = {
    "mlir-to-dot": (_mlir_to_dot, "dataflow graph of each function as Graphviz DOT"),
    "import-tflite": (_import_tflite, "TFLite flatbuffer (.tflite) to tfl dialect IR"),
    "export-tflite": (_export_tflite, "tfl dialect IR to a TFLite flatbuffer (.tflite)"),
    "export-vela-raw": (_export_vela_raw, "a compiled model (tfl.ethos_u) to Vela's raw output (.npz)"),
    "decode-command-stream": (_decode_command_stream,
                              "Ethos-U command streams (words, a driver payload, a compiled .tflite) to ethosu IR"),
    "encode-command-stream": (_encode_command_stream, "an ethosu.program to its Ethos-U command stream (.bin)"),
}


def parse_arguments(argv: Sequence[str]) -> argparse.Namespace | int:
    """The parsed command line, or the exit code when argparse already answered (--help, errors)."""
    parser = argparse.ArgumentParser(prog="npu-translate", description="Translate to and from npu-opt IR.")
    group = parser.add_mutually_exclusive_group(required=True)
    for name, (_, doc) in TRANSLATIONS.items():
        group.add_argument(f"--{name}", dest="translation", action="store_const", const=name, help=doc)
    parser.add_argument("input", nargs="?", default="-")
    parser.add_argument("-o", dest="output", default="-")
    parser.add_argument("--allow-unregistered-dialect", action="store_true")
    parser.add_argument("--print-debuginfo", action="store_true", help="print op locations (tensor names)")
    parser.add_argument("--crash-reproducer", default=None, metavar="FILE",
                        help="where to save the input when npu-translate crashes (default: a temporary file)")
    parser.add_argument("--version", action="version", version=f"npu-translate {VERSION}")
    add_target_arguments(parser)
    try:
        return parser.parse_args(list(argv))
    except SystemExit as done:
        return 1 if done.code else 0


def run_translation(args: argparse.Namespace) -> int:
    """Run the chosen translation; a bug raises (main turns that into a reproducer and exit 2)."""
    return TRANSLATIONS[args.translation][0](args)


def _crashed(args: argparse.Namespace, error: Exception) -> int:
    """Report an internal error in one line, keeping a copy of the input to replay it with."""
    import shlex

    from npu_opt.tools.reproducer import save_input_copy
    from npu_opt.tools.target_options import target_flags
    flags = [f"--{args.translation}", *target_flags(args)]
    flags += [flag for flag, on in (("--allow-unregistered-dialect", args.allow_unregistered_dialect),
                                    ("--print-debuginfo", args.print_debuginfo)) if on]
    try:
        path = save_input_copy(args.input, args.crash_reproducer)
        where = f"input saved to {path}; replay with: npu-translate {shlex.join([*flags, path])}"
    except OSError as err:
        where = f"could not save the input: {err.strerror}"
    sys.stderr.write(f"npu-translate: internal error during {args.translation} "
                     f"({type(error).__name__}: {str(error)[:200]}); {where}\n")
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    from npu_opt.tools.blas_threads import single_threaded_blas
    single_threaded_blas()  # before anything imports numpy
    from npu_opt.ir.diagnostics import PROGRAM
    PROGRAM[0] = "npu-translate"
    from npu_opt.tools.stdout_guard import guard_stdout
    return guard_stdout("npu-translate", lambda: _answer(sys.argv[1:] if argv is None else argv))


def _answer(argv: Sequence[str]) -> int:
    """The run for ``argv`` (standard output guarded by the caller)."""
    from npu_opt.tools.stdout_guard import StdoutError
    args = parse_arguments(argv)
    if isinstance(args, int):
        return args
    try:
        return run_translation(args)
    except StdoutError:
        raise  # (guard_stdout reports it)
    except KeyboardInterrupt:
        sys.stderr.write("npu-translate: interrupted\n")
        return 130
    except BrokenPipeError:
        return 1
    except RecursionError:
        sys.stderr.write("npu-translate: error: input is nested too deeply to process\n")
        return 1
    except Exception as error:  # noqa: BLE001 - a bug: one line and a reproducer, never a traceback
        return _crashed(args, error)


if __name__ == "__main__":
    sys.exit(main())
