"""The ``npu-run`` console entry point: run a model's IR with the reference interpreter, in the
manner of MLIR's mlir-cpu-runner.

Design notes: docs/tools_design.md, section npu-run (npu_run)."""
from __future__ import annotations

import argparse
import sys
import zlib
from dataclasses import dataclass
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence

if TYPE_CHECKING:
    import numpy as np

    from npu_opt.ir.core import Operation
    from npu_opt.ir.diagnostics import DiagnosticEngine
    from npu_opt.tools.run_inputs import Port


class RunCrash(Exception):
    """An unexpected exception (a bug) in a pass or a kernel; ``where`` says which stage."""

    def __init__(self, where: str, error: BaseException) -> None:
        super().__init__(f"{type(error).__name__}: {error}")
        self.where = where


def _tolerance(text: str) -> float:
    """argparse type of ``--tolerance``: a non-negative number."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, not '{text}'") from None
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"must be a non-negative number, not {text}")
    return value


def _seed(text: str) -> int:
    """argparse type of ``--seed``: a non-negative integer (numpy's generators take no other)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, not '{text[:40]}'") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must not be negative, not {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    """npu-run's options (npu-opt's argument conventions: exit 1 and "did you mean" on typos)."""
    from npu_opt.tools.cli_args import _Parser
    from npu_opt.tools.litert_compare import RESOLVERS
    from npu_opt.tools.target_options import add_target_arguments

    p = _Parser(prog="npu-run", allow_abbrev=False,
                description="Run npu-opt IR or a TFLite model with the reference interpreter, "
                            "optionally after a pass pipeline, and compare with TFLite.")
    p.add_argument("input", nargs="?", default="-",
                   help="MLIR text (.mlir) or a TFLite model (.tflite, or its 'TFL3' identifier); '-' is stdin")
    p.add_argument("-p", "--pipeline", "--pass", dest="pipeline", action="append", default=[],
                   metavar="PIPELINE", help="passes to run before interpreting, e.g. 'estimate' or 'schedule'")
    p.add_argument("--input", dest="inputs", action="append", default=[], metavar="NAME=FILE.npy",
                   help="the array for the input NAME (its TFLite tensor name, argN or its position); "
                        "a FILE.npz alone feeds the inputs its keys name; inputs not given get random values")
    p.add_argument("--seed", type=_seed, default=0, metavar="N",
                   help="seed of the random inputs (default 0)")
    p.add_argument("-o", dest="output", default=None, metavar="FILE.npz",
                   help="write the outputs to FILE.npz, keyed by output name (atomically); '-' writes the .npz "
                        "to stdout and the summary to stderr")
    p.add_argument("--print-limit", type=int, default=64, metavar="N",
                   help="print the values of outputs with at most N elements (default 64)")
    p.add_argument("--compare-tflite", action="store_true",
                   help="also run ai-edge-litert on the TFLite model with the same inputs and compare")
    p.add_argument("--tflite", default=None, metavar="FILE",
                   help="the TFLite model to compare with when the input is MLIR text")
    p.add_argument("--tolerance", type=_tolerance, default=0.0, metavar="T",
                   help="largest absolute difference from TFLite accepted (default 0: bit-exact)")
    p.add_argument("--compare-each-op", action="store_true",
                   help="with --compare-tflite, also compare every op result named by a TFLite tensor (its "
                        "location) with that tensor in ai-edge-litert; informative, the exit code follows "
                        "the outputs only")
    p.add_argument("--tflite-kernels", choices=RESOLVERS, default="ref",
                   help="ai-edge-litert's reference kernels (default) or its optimised builtin ones")
    p.add_argument("--trace", default=None, metavar="FILE",
                   help="write one line per command-stream op the Ethos-U simulator runs (a compiled .tflite's "
                        "tfl.ethos_u ops): index, name, IFM/OFM boxes, bytes moved")
    p.add_argument("--sim-check", choices=("strict", "order"), default="strict",
                   help="strict (default): the Ethos-U simulator checks the waits, so a command touching bytes a "
                        "DMA or NPU operation still in flight uses is an error; order: commands run in stream "
                        "order and the waits are not checked")
    p.add_argument("--list-passes", action="store_true", help="list the passes and pipelines, then exit")
    p.add_argument("--pass-remarks", action="store_true", help="print the remarks passes emit")
    p.add_argument("--allow-unregistered-dialect", action="store_true",
                   help="accept ops, types and attributes of unknown dialects")
    p.add_argument("--version", action="version", version="npu-run 0.1.0")
    add_target_arguments(p)
    return p


@dataclass
class Loaded:
    """The module to run and the TFLite model it came from (if it came from one)."""

    module: "Operation"
    tflite: bytes | None


def load_module(name: str, data: bytes, engine: "DiagnosticEngine", allow_unregistered: bool = False) -> Loaded:
    """Parse MLIR text or import a TFLite flatbuffer, as npu-opt does (UserError on bad input)."""
    from npu_opt.tools.api import is_tflite, read_data

    module = read_data(name, data, engine.sources, allow_unregistered)
    return Loaded(module, data if is_tflite(data, name) else None)


def transform(module: "Operation", pipeline: Sequence[str], engine: "DiagnosticEngine") -> bool:
    """Verify ``module`` and run the passes of ``pipeline`` on it, verifying after each; False
    after a reported error. A pass's unexpected exception raises RunCrash."""
    from npu_opt.ir.pass_manager import PassCrash
    from npu_opt.tools.api import parse_pipelines, run_passes

    passes = parse_pipelines(pipeline)
    try:
        return run_passes(module, passes, engine)
    except PassCrash as crash:
        raise RunCrash(f"pass '{crash.pass_.NAME}'", crash.error) from crash.error


def is_scheduled(module: "Operation") -> bool:
    """Does ``module`` carry a schedule (``--pass=schedule`` ran)?"""
    from npu_opt.dialects.npu.schedule_policy import schedule_policy
    return schedule_policy(module) is not None


def execute(module: "Operation", inputs: Sequence[Any], remark: Callable[[str], None] | None = None,
            observer: Callable[["Operation", Sequence[Any]], None] | None = None) -> list[Any]:
    """Run ``module`` on ``inputs``: as scheduled when it carries a schedule, else op by op;
    ``observer`` sees each op's results. When the scheduled runner is not available, the module
    runs op by op and ``remark`` is told so. InterpretError for what the interpreter cannot run;
    RunCrash for a bug."""
    from npu_opt.ir.diagnostics import UserError
    from npu_opt.ir.interpreter import run_function

    runner = run_function
    if is_scheduled(module):
        try:
            from npu_opt.interpreters.scheduled import run_scheduled
            runner = run_scheduled
        except ImportError:
            if remark is not None:
                remark("the module carries a schedule, but the scheduled runner "
                       "(npu_opt.interpreters.scheduled) is not available: running it op by op instead")
    last: list["Operation"] = []

    def note_op(op: "Operation", results: Sequence[Any]) -> None:
        last[:] = [op]
        if observer is not None:
            observer(op, results)

    try:
        return list(runner(module, inputs, observer=note_op))
    except UserError:
        raise
    except RecursionError:
        raise
    except Exception as err:  # noqa: BLE001 - a kernel's bug: one line, never a traceback
        from npu_opt.ir.diagnostics import location_prefix
        where = "interpretation" + (f" (after '{last[0].name}' at {location_prefix(last[0].diag_location())})"
                                    if last else " (of the first op)")
        raise RunCrash(where, err) from err


@contextmanager
def _tracing(tracer: Callable[[str], None] | None, checks: str = "strict") -> Iterator[None]:
    """The Ethos-U simulator's trace goes to ``tracer`` within the block (nowhere when None), and
    it checks as ``checks`` says (--sim-check)."""
    from npu_opt.interpreters.ethosu.tfl_kernel import sim_checks, tracing
    with sim_checks(checks):
        if tracer is None:
            yield
            return
        with tracing(tracer):
            yield


def _values_text(array: "np.ndarray") -> str:
    """``array``'s values nested by dimension on one line, each float in its shortest exact form
    (``0.1``, not ``0.10000000149011612``)."""
    if array.ndim == 0:
        value = array[()]
        return str(bool(value)).lower() if array.dtype.kind == "b" else str(value)
    return "[" + ", ".join(_values_text(part) for part in array) + "]"


def describe(kind: str, port: "Port", array: "np.ndarray", print_limit: int) -> str:
    """The summary line of an output (and its values when it has at most ``print_limit``)."""
    import numpy as np
    line = f"{kind} {port.index} '{port.name}': {port.type}"
    if array.size:
        wide = array.astype(np.float64)
        line += (f" min {str(array.min())} max {str(array.max())} mean {float(wide.mean()):.6g}"
                 f" crc32 {zlib.crc32(np.ascontiguousarray(array).tobytes()):08x}")
    if array.size <= print_limit:
        line += "\n  " + _values_text(array)
    return line


def compare_lines(ports: Sequence["Port"], ours: Sequence["np.ndarray"], theirs: Sequence["np.ndarray"],
                  tolerance: float) -> tuple[list[str], list[str]]:
    """(one line per output, the names of the outputs beyond ``tolerance``)."""
    from npu_opt.tools.litert_compare import difference
    lines, beyond = [], []
    for port, mine, ref in zip(ports, ours, theirs):
        diff = difference(mine, ref, port.name)
        max_text = f"{diff.max_abs:g}"
        lines.append(f"compare {port.index} '{port.name}': max abs diff {max_text}, "
                     f"{diff.differing} of {diff.total} elements differ")
        if diff.max_abs > tolerance:
            beyond.append(f"'{port.name}' (max abs diff {max_text})")
    return lines, beyond


def op_compare_lines(named: Any, tensors: dict[str, "np.ndarray"]) -> list[str]:
    """A line per op result named by a TFLite tensor: its difference from that tensor, or why
    it is not comparable; then how many differ."""
    from npu_opt.tools.litert_compare import op_differences
    lines = []
    records = op_differences(named.found, tensors)
    for r in records:
        if r.diff is None:
            lines.append(f"op '{r.tensor}' ({r.op_name}): not compared: {r.why}")
        else:
            lines.append(f"op '{r.tensor}' ({r.op_name}): max abs diff {r.diff.max_abs:g}, {r.diff.differing} of "
                         f"{r.diff.total} elements differ" + (" (same elements, reshaped)" if r.reshaped else ""))
    compared = [r for r in records if r.diff is not None]
    differ = sum(1 for r in compared if r.diff.differing)
    lines.append(f"ops: {len(compared)} result(s) compared by tensor name, {differ} differ")
    return lines


def run(args: argparse.Namespace) -> int:
    """The whole npu-run for parsed ``args``; returns the exit code."""
    import npu_opt.dialects  # noqa: F401 - registers dialects
    import npu_opt.passes  # noqa: F401 - registers passes
    from npu_opt.ir.diagnostics import Diagnostic, DiagnosticEngine, SourceManager, UserError, render
    from npu_opt.ir.interpreter import Interpreter, check_sizes
    from npu_opt.ir.pass_registry import parse_pipeline
    from npu_opt.tools.output import check_output_path, check_suffix, read_input, write_output
    from npu_opt.tools.run_inputs import function_ports, gather_inputs, npz_bytes
    from npu_opt.tools.target_options import apply_target, prepare_target

    if args.list_passes:
        from npu_opt.ir.pass_registry import list_passes_text
        sys.stdout.write(list_passes_text())
        return 0
    engine = DiagnosticEngine(SourceManager())
    engine.show_remarks = args.pass_remarks
    try:
        for text in args.pipeline:
            parse_pipeline(text)  # an unknown pass fails before any work
        target = prepare_target(args)
        if args.output is not None:
            check_suffix("-o", args.output, (".npz",), "npu-run writes the outputs as a NumPy .npz archive")
            check_output_path(args.output)
        if args.trace is not None:
            check_output_path(args.trace)
        if args.compare_each_op and not args.compare_tflite:
            raise UserError("--compare-each-op compares with TFLite: it needs --compare-tflite")
        if args.tflite is not None and not args.compare_tflite:
            raise UserError("--tflite names the model to compare with: it needs --compare-tflite")
        name, data = read_input(args.input)
        loaded = load_module(name, data, engine, args.allow_unregistered_dialect)
        reference = loaded.tflite
        if args.compare_tflite and args.tflite is not None:
            reference = read_input(args.tflite)[1]
        if args.compare_tflite and reference is None:
            raise UserError("--compare-tflite needs the TFLite model for an MLIR input: give it with --tflite FILE")
        if target is not None:
            apply_target(loaded.module, target)
        if not transform(loaded.module, args.pipeline, engine):
            return 1
        # a schedule runs only once it keeps the rules (npu-check-schedule): a broken one could ask
        # for memory areas of any size, or compute something else than the IR says
        if is_scheduled(loaded.module) and not transform(loaded.module, ["npu-check-schedule"], engine):
            return 1
        func = Interpreter(loaded.module).function()
        check_sizes(func)  # (before the random inputs are drawn)
        arg_ports, result_ports = function_ports(func)
        inputs = gather_inputs(arg_ports, args.inputs, args.seed)
        litert = named = None
        if args.compare_tflite:
            from npu_opt.tools.litert_compare import NamedResults, run_litert
            litert = run_litert(reference, args.tflite or name, inputs.arrays, args.tflite_kernels,
                                keep_all=args.compare_each_op)
            if args.compare_each_op:
                named = NamedResults(set(litert.tensors) - {p.name for p in arg_ports})
        trace: list[str] = []
        with _tracing(trace.append if args.trace is not None else None, args.sim_check):
            outputs = execute(loaded.module, inputs.arrays,  # (this remark shows without --pass-remarks)
                              lambda text: sys.stderr.write(render(Diagnostic("remark", text)) + "\n"), named)
        if args.trace is not None:
            write_output(args.trace, "".join(line + "\n" for line in trace))
        theirs = None
        if litert is not None:
            from npu_opt.tools.litert_compare import pair_outputs
            theirs = pair_outputs([p.name for p in result_ports], litert.outputs)
            lines, beyond = compare_lines(result_ports, outputs, theirs, args.tolerance)
            if named is not None:
                lines += op_compare_lines(named, litert.tensors)
        if args.output is not None:
            write_output(args.output, npz_bytes(result_ports, outputs))
    except UserError as err:
        engine.emit(err.diagnostic)
        return 1
    report = [f"input {port.index} '{port.name}': {port.type} {source}"
              for port, source in zip(arg_ports, inputs.sources)]
    report += [describe("output", port, array, args.print_limit) for port, array in zip(result_ports, outputs)]
    if theirs is not None:
        report += lines
    summary = sys.stderr if args.output == "-" else sys.stdout  # (stdout holds the .npz then)
    summary.write("\n".join(report) + "\n")
    summary.flush()
    if theirs is not None and beyond:
        engine.emit(Diagnostic("error", f"{len(beyond)} output(s) differ from TFLite by more than the "
                                        f"tolerance {args.tolerance:g}: " + ", ".join(beyond), None))
        return 1
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """The console script: parse the options and run; exit code 0, 1 (bad input, or outputs
    beyond the tolerance) or 2 (an internal error). Location-less diagnostics start with
    ``npu-run`` during the call (the previous program name is restored for in-process callers)."""
    from npu_opt.tools.blas_threads import single_threaded_blas
    single_threaded_blas()  # before anything imports numpy
    from npu_opt.ir.diagnostics import PROGRAM
    previous = PROGRAM[0]
    PROGRAM[0] = "npu-run"
    try:
        from npu_opt.tools.stdout_guard import guard_stdout
        return guard_stdout("npu-run", lambda: _main(list(sys.argv[1:] if argv is None else argv)))
    finally:
        PROGRAM[0] = previous


def _main(argv: list[str]) -> int:
    """``main`` once the program name is set."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as done:
        return int(done.code or 0)
    from npu_opt.tools.stdout_guard import StdoutError
    try:
        return run(args)
    except StdoutError:
        raise  # (guard_stdout reports it)
    except RunCrash as crash:
        sys.stderr.write(f"npu-run: internal error during {crash.where} ({str(crash)[:300]})\n")
        return 2
    except RecursionError:
        sys.stderr.write("npu-run: error: input is nested too deeply to process\n")
        return 1
    except KeyboardInterrupt:
        sys.stderr.write("npu-run: interrupted\n")
        return 130
    except BrokenPipeError:
        return 1
    except Exception as err:  # noqa: BLE001 - a bug elsewhere (importing, verifying): one line, no traceback
        sys.stderr.write(f"npu-run: internal error ({type(err).__name__}: {str(err)[:300]})\n")
        return 2


if __name__ == "__main__":
    sys.exit(main())
