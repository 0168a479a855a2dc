"""What npu-opt does with its options: read, split, parse, verify, run passes, print, check diagnostics."""
from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from npu_opt.ir.core import Operation
from npu_opt.ir.diagnostics import Diagnostic, DiagnosticEngine, SourceManager, UserError, render
from npu_opt.ir.opdef import all_dialects
from npu_opt.ir.pass_manager import IRPrinting, PassCrash, Statistics, Timer
from npu_opt.ir.pass_registry import Pass, list_passes_text, pipeline_text
from npu_opt.ir.printer import PrintOptions, print_op
from npu_opt.tools.output import check_output_path, check_suffix, decode_utf8, read_input, write_output
from npu_opt.tools.api import compiled_model, is_tflite, parse_pipelines, read_module, run_passes
from npu_opt.tools.target_options import TargetRequest, prepare_target

if TYPE_CHECKING:
    from npu_opt.tools.progress import PassProgress
    from npu_opt.tools.summary import Reports

SPLIT_MARKER = "// -----"


class InternalError(Exception):
    """An unexpected exception (a bug) while processing a chunk; carries the chunk text."""

    def __init__(self, error: BaseException, source: str, where: str) -> None:
        super().__init__(f"{type(error).__name__}: {error}")
        self.error = error
        self.source = source
        self.where = where


@dataclass
class Chunk:
    text: str
    """The chunk text, preceded by newlines so that line numbers are those of the whole file."""
    raw: str
    binary: bytes | None = None
    """A TFLite model (``TFL3`` at bytes 4..8) to import instead of parsing ``text``."""


def _reproducer_source(chunk: Chunk, name: str) -> str:
    """The IR a crash reproducer replays: the chunk's text, or the imported model, printed."""
    if chunk.binary is None:
        return chunk.raw
    try:
        from npu_opt.dialects.tfl.tflite import import_tflite
        return print_op(import_tflite(chunk.binary, name), PrintOptions(debuginfo=True))
    except Exception:  # noqa: BLE001 - the reproducer is best effort
        return ""


def split_chunks(text: str, split: bool) -> list[Chunk]:
    if not split:
        return [Chunk(text, text)]
    chunks: list[Chunk] = []
    lines = text.split("\n")
    start = 0
    for index, line in enumerate(lines + [SPLIT_MARKER]):
        if line.startswith(SPLIT_MARKER):
            raw = "\n".join(lines[start:index])
            chunks.append(Chunk("\n" * start + raw, raw))
            start = index + 1
    return chunks


def run(args: argparse.Namespace) -> int:
    """The whole npu-opt run for parsed ``args``; returns the exit code."""
    import npu_opt.dialects  # noqa: F401 - registers dialects
    import npu_opt.passes  # noqa: F401 - registers passes

    if args.list_passes:
        sys.stdout.write(list_passes_text())
        return 0
    if args.show_dialects:
        for dialect in all_dialects():
            sys.stdout.write(f"{dialect.name}: {dialect.doc}\n")
            for name in sorted(dialect.ops):
                doc = (dialect.ops[name].__doc__ or "").strip().split("\n")[0]
                sys.stdout.write(f"  {name:<28} {doc}\n")
        return 0
    if args.dialect_docs:
        from npu_opt.tools.reference_docs import dialect_docs_text
        sys.stdout.write(dialect_docs_text())
        return 0

    sources = SourceManager()
    engine = DiagnosticEngine(sources)
    engine.show_remarks = args.pass_remarks
    try:
        from npu_opt.tools.vela_flags import apply_optimise, list_configs_text
        if getattr(args, "list_configs", False):
            sys.stdout.write(list_configs_text(args))
            return 0
        apply_optimise(args)
        passes_ = parse_pipelines(args.pipeline)
        target = prepare_target(args)
        check_output_path(args.output)  # before any work: a bad path fails fast, nothing printed
        if writes_tflite(args.output) and args.split_input_file:
            raise UserError(f"-o '{args.output}': a .tflite file holds one model, and --split-input-file "
                            "makes one per chunk; write them as IR text")
        if getattr(args, "perf_report", None):
            check_suffix("--perf-report", args.perf_report, (".csv", ".json"),
                         "the report is CSV or JSON, as the name's suffix says")
            check_output_path(args.perf_report)
        reports = _reports(args)
        if reports is not None:
            reports.check()  # --summary-csv, --memory-timeline: writable paths, matplotlib present
        if args.dump_pass_pipeline:
            sys.stderr.write(f"Pass Manager with {len(passes_)} passes:\n{pipeline_text(passes_)}\n")
        name, data = read_input(args.input)
        text = "" if is_tflite(data, name) else decode_utf8(name, data)
    except UserError as err:
        engine.emit(err.diagnostic)
        return 1
    sources.add(name, text)
    timer = Timer() if args.timing else None
    stats = Statistics() if args.pass_statistics else None
    outputs: list[str | bytes] = []
    perf_rows: list[dict] | None = [] if getattr(args, "perf_report", None) else None
    failed = False
    chunks = [Chunk("", "", data)] if is_tflite(data, name) else split_chunks(text, args.split_input_file)
    for chunk in chunks:
        verifier = None
        if args.verify_diagnostics:
            from npu_opt.ir.expected import DiagnosticVerifier, parse_expectations  # (only for tests)
            try:
                expectations = parse_expectations(chunk.text)
            except Exception as err:  # a bug in reading the annotations: a reproducer, not a traceback
                raise InternalError(err, chunk.raw, "reading expected diagnostics") from err
            verifier = DiagnosticVerifier(engine, name, expectations)
            engine.handler = verifier.handle
        try:
            result = _process_chunk(args, chunk, name, passes_, engine, timer, stats, target, perf_rows, reports)
        except InternalError:
            raise
        finally:
            engine.handler = engine._print  # noqa: SLF001 - restore default
        if verifier is not None:
            mismatches = verifier.failures()
            for diag in mismatches:
                sys.stderr.write(render(diag, sources) + "\n")
            failed = failed or bool(mismatches)
            if result is not None:
                outputs.append(result)
        elif result is None:
            failed = True
        else:
            outputs.append(result)
    if stats is not None:
        sys.stderr.write(stats.report())
    if failed:
        if timer is not None:
            sys.stderr.write(timer.report())
        return 1
    try:
        began = time.perf_counter()
        if writes_tflite(args.output):
            write_output(args.output, outputs[0])
        else:
            write_output(args.output, ("\n" + SPLIT_MARKER + "\n").join(outputs)  # type: ignore[arg-type]
                         if args.split_input_file else "".join(outputs))  # type: ignore[arg-type]
        if perf_rows is not None:
            from npu_opt.tools.perf_report import render as render_perf_report
            write_output(args.perf_report, render_perf_report(perf_rows, args.perf_report))
        if reports is not None:
            reports.write(write_output, sys.stdout)
        if timer is not None:
            timer.add("Output", time.perf_counter() - began)
    except UserError as err:
        engine.emit(err.diagnostic)
        return 1
    if timer is not None:
        sys.stderr.write(timer.report())
    return 0


def _process_chunk(args: argparse.Namespace, chunk: Chunk, name: str, passes_: list[Pass],
                   engine: DiagnosticEngine, timer: Timer | None, stats: Statistics | None,
                   target: TargetRequest | None = None, perf_rows: list[dict] | None = None,
                   reports: "Reports | None" = None) -> str | bytes | None:
    """Parse, verify, transform and print one chunk (or export it, for a ``-o`` naming a
    .tflite file); None if it failed with user errors."""
    stage = "parsing"
    try:
        began = time.perf_counter()
        try:
            # (--target and friends set the module's npu.target)
            module = read_module(name, chunk.text, chunk.binary, args.allow_unregistered_dialect, target)
        except UserError as err:
            engine.emit(err.diagnostic)
            return None
        finally:
            if timer is not None:
                timer.add("Parser", time.perf_counter() - began)
        print_options = PrintOptions(generic=args.print_op_generic, debuginfo=args.print_debuginfo,
                                     elide_large_constants=args.elide_large_constants)
        instrumentations: list = []
        if (args.print_ir_before or args.print_ir_after or args.print_ir_before_all
                or args.print_ir_after_all or args.print_ir_after_change):
            instrumentations.append(IRPrinting(
                sys.stderr, lambda op: print_op(op, print_options),
                before=_names(args.print_ir_before), after=_names(args.print_ir_after),
                before_all=args.print_ir_before_all, after_all=args.print_ir_after_all,
                after_change=args.print_ir_after_change,
                fingerprint=lambda op: print_op(op, PrintOptions(generic=True, debuginfo=True))))
        if stats is not None:
            instrumentations.append(stats)
        stage = "verification and passes"
        if not passes_ and reports is not None and compiled_model(module):
            passes_ = parse_pipelines(["ethosu-estimate"])  # a compiled model's report: its streams costed
        progress = _progress(args, len(passes_))
        if progress is not None:
            instrumentations.append(progress)
        try:
            if not run_passes(module, passes_, engine, verify_each=args.verify_each,
                              instrumentations=instrumentations, timer=timer):
                return None
        except PassCrash as crash:
            raise InternalError(crash.error, _reproducer_source(chunk, name),
                                f"pass '{crash.pass_.NAME}'") from crash.error
        finally:
            if progress is not None:
                progress.close()
        if perf_rows is not None:
            from npu_opt.tools.perf_report import collect_rows, missing_estimate
            missing = missing_estimate(module)
            if missing is not None:
                engine.emit(Diagnostic("error", missing, None))
                return None
            perf_rows.extend(collect_rows(module))
        if reports is not None:
            problem = reports.collect(module, name)
            if problem is not None:
                engine.emit(Diagnostic("error", problem, None))
                return None
        stage = "printing"
        began = time.perf_counter()
        if writes_tflite(args.output):
            from npu_opt.dialects.tfl.tflite import export_tflite
            try:
                return export_tflite(module)
            except UserError as err:
                engine.emit(err.diagnostic)
                return None
            finally:
                if timer is not None:
                    timer.add("Output", time.perf_counter() - began)
        if not print_options.debuginfo and compiled_model(module):  # (its locations are its tensor names)
            print_options = PrintOptions(generic=print_options.generic, debuginfo=True,
                                         elide_large_constants=print_options.elide_large_constants)
        text = print_op(module, print_options)
        if timer is not None:
            timer.add("Output", time.perf_counter() - began)
        return text
    except InternalError:
        raise
    except RecursionError as err:
        engine.emit(Diagnostic("error", "input is nested too deeply to process", None))
        del err
        return None
    except Exception as err:  # noqa: BLE001 - a bug: turn it into a reproducer, not a traceback
        raise InternalError(err, _reproducer_source(chunk, name), stage) from err


def writes_tflite(path: str) -> bool:
    """``-o`` names a .tflite file: the result is exported as a TFLite flatbuffer, not printed."""
    return path.lower().endswith(".tflite")


def _reports(args: argparse.Namespace) -> "Reports | None":
    """The network reports (--summary, --summary-csv, --memory-timeline, --pareto) asked for, or
    None (then nothing of them is imported)."""
    if not (getattr(args, "summary", False) or getattr(args, "summary_csv", None)
            or getattr(args, "memory_timeline", None) or getattr(args, "pareto", None)):
        return None
    from npu_opt.tools.summary import Reports
    return Reports.of(args)


def _progress(args: argparse.Namespace, total: int) -> "PassProgress | None":
    """A pass progress bar when stderr is a terminal and nothing else writes to it during the
    passes (IR dumps, expected-diagnostic checks); it appears only if the passes take a while."""
    if total == 0 or args.verify_diagnostics or args.print_ir_before or args.print_ir_after \
            or args.print_ir_before_all or args.print_ir_after_all or args.print_ir_after_change:
        return None
    if not sys.stderr.isatty():
        return None
    from npu_opt.tools.progress import PassProgress, wanted
    return PassProgress(total, sys.stderr) if wanted(sys.stderr) else None


def _names(text: str) -> set[str]:
    return {part.strip() for part in text.split(",") if part.strip()}


__all__ = ["run", "InternalError", "Operation", "writes_tflite"]
