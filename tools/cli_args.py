"""Command-line options of npu-opt, with MLIR-style names and "did you mean" for typos."""
from __future__ import annotations

import argparse
import sys
from typing import NoReturn, Sequence

from npu_opt.tools.target_options import add_target_arguments

VERSION = "0.1.0"


class _Parser(argparse.ArgumentParser):
    """argparse that exits 1 (as mlir-opt does) and suggests a close option for a misspelt one."""

    def error(self, message: str) -> NoReturn:
        if message.startswith("unrecognized arguments:"):
            import difflib  # (only on the error path)

            known = [s for action in self._actions for s in action.option_strings]
            hints = []
            for arg in message.split(":", 1)[1].split():
                flag = arg.split("=", 1)[0]
                close = difflib.get_close_matches(flag, known, n=1, cutoff=0.6)
                if close:
                    hints.append(f"'{flag}': did you mean '{close[0]}'?")
            if hints:
                message += " (" + "; ".join(hints) + ")"
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        sys.stderr.write(f"Try '{self.prog} --help' for the list of options.\n")
        raise SystemExit(1)


def build_parser(prog: str = "npu-opt") -> argparse.ArgumentParser:
    p = _Parser(prog=prog, description="Parse, verify, transform and print npu-opt IR (MLIR syntax).",
                formatter_class=argparse.RawDescriptionHelpFormatter, allow_abbrev=False)
    p.add_argument("input", nargs="?", default="-", help="input file: MLIR text (.mlir) or a TFLite model (.tflite, also recognised by its "
                        "'TFL3' identifier), or '-' for stdin (the default)")
    p.add_argument("-o", dest="output", default="-", metavar="FILE",
                   help="output file, written atomically (default: stdout)")
    p.add_argument("-p", "--pass", "--pass-pipeline", dest="pipeline", action="append", default=[],
                   metavar="PIPELINE", help="passes to run, e.g. 'cse,canonicalize{max-iterations=3}'")
    g = p.add_argument_group("passes")
    g.add_argument("--list-passes", action="store_true", help="list passes, their options and pipelines")
    g.add_argument("--optimise", choices=("Performance", "Size"), default=None,
                   help="Vela's --optimise: the strategy of the schedule pipeline (--pass=schedule --optimise Size "
                        "is --pass='schedule{optimise=Size}'); needs a pass pipeline that takes it")
    g.add_argument("--dump-pass-pipeline", action="store_true",
                   help="print the expanded pipeline with every option to stderr")
    g.add_argument("--verify-each", dest="verify_each", action="store_true", default=True,
                   help="verify the IR after parsing and after every pass (default)")
    g.add_argument("--no-verify", dest="verify_each", action="store_false",
                   help="do not verify after parsing or after passes")
    g.add_argument("--pass-statistics", action="store_true", help="print each pass's counters to stderr")
    g.add_argument("--pass-remarks", action="store_true", help="print remarks that passes emit")
    g.add_argument("--timing", action="store_true",
                   help="print the time spent parsing, in each pass, verifying and printing")
    d = p.add_argument_group("IR printing during the pipeline (to stderr)")
    d.add_argument("--print-ir-before", default="", metavar="PASSES",
                   help="comma-separated pass names to dump the IR before")
    d.add_argument("--print-ir-after", default="", metavar="PASSES",
                   help="comma-separated pass names to dump the IR after")
    d.add_argument("--print-ir-before-all", action="store_true", help="dump the IR before every pass")
    d.add_argument("--print-ir-after-all", action="store_true", help="dump the IR after every pass")
    d.add_argument("--print-ir-after-change", action="store_true",
                   help="dump the IR after a pass only if the pass changed it")
    o = p.add_argument_group("input and output")
    o.add_argument("--split-input-file", action="store_true",
                   help="process each '// -----' separated chunk independently")
    o.add_argument("--verify-diagnostics", action="store_true",
                   help="check diagnostics against '// expected-error {{...}}' annotations")
    o.add_argument("--allow-unregistered-dialect", action="store_true",
                   help="accept ops, types and attributes of unknown dialects")
    o.add_argument("--print-op-generic", action="store_true", help="print every op in generic form")
    o.add_argument("--print-debuginfo", action="store_true", help="print op locations (always for a compiled model: "
                   "they hold its tensor names)")
    o.add_argument("--elide-large-constants", type=int, default=None, metavar="N",
                   help="print constants with more than N elements as dense_resource<__elided__>")
    o.add_argument("--show-dialects", action="store_true", help="list the registered dialects and ops")
    o.add_argument("--perf-report", default=None, metavar="FILE",
                   help="after the passes, write the per-op performance table of the ops npu-estimate costed "
                        "(CSV, or JSON if FILE ends in .json); needs --pass=estimate (or npu-estimate) and "
                        "a target")
    o.add_argument("--summary-csv", default=None, metavar="FILE",
                   help="after the passes, write the network summary in the columns, order and units of Vela's "
                        "summary CSV, filled from the IR: the target (npu.target), cycles, MACs and bytes per "
                        "memory (npu.cost_totals), memory used (npu.usage, after npu-allocate); columns the IR "
                        "has no source for (the feature-map/weight split of the traffic, encoded weight size, "
                        "memory used before npu-allocate) are left empty; needs --pass=estimate (or npu-estimate)")
    o.add_argument("--summary", action="store_true",
                   help="after the passes, print a short network summary to stdout (after the IR if that goes "
                        "to stdout too; use -o FILE for the summary alone): cycles, inference time and "
                        "inferences/s at the target's clock, memory used per area, cascades, weight streams")
    o.add_argument("--memory-timeline", default=None, metavar="FILE",
                   help="after the passes, draw each memory area's allocations (npu.alloc) as address against "
                        "schedule time to FILE (.svg or .png); needs matplotlib: pip install 'npu-opt[plot]'")
    o.add_argument("--pareto", action="append", default=None, metavar="FILE",
                   help="after a schedule search (--pass='schedule{sram-budget=N}'), write the (total cycles, SRAM) "
                        "frontier it found (npu.search) to FILE: .csv a table, .svg or .png a plot (needs "
                        "matplotlib); may be given twice, for a table and a plot")
    o.add_argument("--dialect-docs", action="store_true",
                   help="print Markdown documentation of every registered op")
    add_target_arguments(p)
    p.add_argument("--list-configs", action="store_true",
                   help="list the targets, system configs (with the NPU each is for) and memory modes: Vela's "
                        "stock ones, built in, and those of the --config files")
    c = p.add_argument_group("crashes")
    c.add_argument("--crash-reproducer", default=None, metavar="FILE",
                   help="where to write the reproducer if npu-opt crashes (default: a temporary file)")
    c.add_argument("--run-reproducer", default=None, metavar="FILE",
                   help="replay a crash reproducer with the options recorded in it")
    p.add_argument("--version", action="version", version=f"npu-opt {VERSION}")
    return p


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    return build_parser().parse_args(list(argv))
