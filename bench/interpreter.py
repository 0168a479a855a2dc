"""Run every ../shared/corpus model through the reference interpreter per stage; write bench/INTERPRETER.md.

    python bench/interpreter.py [--repeat 3] [--seed 0] [--target ethos-u55-256] [--corpus DIR]

Stages: ``tfl`` (the model as imported), ``estimate`` (legalised to npu ops and costed) and
``schedule`` (the full scheduling pipeline; the module then runs through the scheduled runner,
as ``npu-run`` does). Each stage runs on the same seeded random inputs as ai-edge-litert's
reference kernels and is compared with them: the largest absolute difference over all outputs
and the number of elements that differ. The schedule stage is also compared with the estimate
stage's outputs (they must be identical). The run time is the interpreter's
alone (the module is built once per stage), process CPU time, median of ``--repeat`` runs.

A stage that cannot run (a pass error, an op without a kernel, a kernel's bug) is a row saying
why, never a crash of the bench.
"""
from __future__ import annotations

import argparse
import io
import platform
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import numpy as np  # noqa: E402

import bench_inputs as bi  # noqa: E402  (the inputs check every bench shares)
import compile_time as ct  # noqa: E402  (the corpus's models)

import npu_opt.dialects  # noqa: E402,F401
import npu_opt.passes  # noqa: E402,F401
from npu_opt.ir.diagnostics import DiagnosticEngine, SourceManager, UserError  # noqa: E402
from npu_opt.ir.interpreter import Interpreter  # noqa: E402
from npu_opt.tools.litert_compare import (  # noqa: E402
    NamedResults, difference, op_differences, pair_outputs, run_litert,
)
from npu_opt.tools.npu_run import RunCrash, execute, is_scheduled, load_module, transform  # noqa: E402
from npu_opt.tools.run_inputs import function_ports, gather_inputs  # noqa: E402
from npu_opt.tools.api import target_request  # noqa: E402
from npu_opt.tools.target_options import apply_target  # noqa: E402

STAGES = {"tfl": [], "estimate": ["estimate"], "schedule": ["schedule"]}
"""Each stage's pipeline (npu-run --pipeline)."""


@dataclass
class Row:
    """One model at one stage: how it compares, how long it ran, or why it did not."""

    model: str
    stage: str
    ops: int = 0
    max_abs: float | None = None
    differing: int | None = None
    total: int | None = None
    vs_estimate: str = ""
    distinct: int | None = None
    ops_equal: int | None = None
    ops_compared: int | None = None
    seconds: float | None = None
    problem: str = ""


def _first_line(text: str) -> str:
    return " ".join(text.strip().splitlines()[0].split()) if text.strip() else "(no message)"


def _build(name: str, data: bytes, pipeline: list[str], target: Any) -> tuple[Any, str]:
    """(the module after ``pipeline``, "") or (None, why the pipeline failed)."""
    errors = io.StringIO()
    engine = DiagnosticEngine(SourceManager(), stream=errors)
    engine.show_remarks = False
    try:
        module = load_module(name, data, engine).module
        apply_target(module, target)
        if not transform(module, pipeline, engine):
            return None, "pipeline failed: " + _first_line(errors.getvalue())
    except UserError as err:
        return None, "pipeline failed: " + err.diagnostic.message
    except RunCrash as crash:
        return None, f"pipeline crashed in {crash.where}: {crash}"
    return module, ""


def _run(module: Any, inputs: list[np.ndarray], repeat: int) -> tuple[list[np.ndarray] | None, float, str]:
    """(outputs, median CPU seconds, "") or (None, 0, why the interpreter stopped)."""
    notes: list[str] = []
    times = []
    outputs = None
    for _ in range(repeat):
        began = time.process_time()
        try:
            outputs = execute(module, inputs, notes.append)
        except UserError as err:
            return None, 0.0, f"not run: {err.diagnostic.message}"  # (the op's long TFLite name left out)
        except RunCrash as crash:
            return None, 0.0, f"kernel crashed: {str(crash)[:160]}"
        times.append(time.process_time() - began)
    if notes:
        notes[:] = ["op by op: the scheduled runner is not available"]
    return outputs, statistics.median(times), "; ".join(dict.fromkeys(notes))


def _short(tensor: str) -> str:
    """A TFLite tensor name cut to its last two path parts (``dense_7/MatMul``)."""
    return "/".join(tensor.split(";")[0].split("/")[-2:])


def _per_op(module: Any, inputs: list[np.ndarray], tensors: dict[str, np.ndarray],
            input_names: set[str]) -> tuple[int, int, str]:
    """(named op results equal to TFLite's tensor of that name, how many were compared, where
    a difference starts: the first op whose result differs), from a second, untimed run that
    keeps the named results. Intermediate results are a stronger check than the outputs of a
    classifier that random inputs saturate."""
    named = NamedResults(set(tensors) - input_names)
    execute(module, inputs, None, named)
    records = [r for r in op_differences(named.found, tensors) if r.diff is not None]
    first = next((r for r in records if r.diff.differing), None)
    where = "" if first is None else (f"first differing op: {first.op_name} '{_short(first.tensor)}' "
                                      f"(max diff {first.diff.max_abs:g}, {first.diff.differing} of {first.diff.total})")
    return sum(1 for r in records if not r.diff.differing), len(records), where


def _ops(module: Any) -> int:
    """Ops that compute (not constants, DMA or views) in the module's function."""
    skip = ("tfl.pseudo_const", "tfl.pseudo_qconst", "tfl.no_value", "func.return", "npu.dma")
    func = Interpreter(module).function()
    return sum(1 for op in func.regions[0].entry.ops if op.name not in skip)


def _compare(row: Row, outputs: list[np.ndarray], reference: list[np.ndarray], names: list[str]) -> None:
    diffs = [difference(np.asarray(o), r, n) for o, r, n in zip(outputs, reference, names)]
    row.max_abs = max(d.max_abs for d in diffs)
    row.differing = sum(d.differing for d in diffs)
    row.total = sum(d.total for d in diffs)
    row.distinct = int(sum(len(np.unique(r)) for r in reference))


def bench_model(path: Path, target: Any, seed: int, repeat: int) -> list[Row]:
    """Every stage of one model."""
    data = path.read_bytes()
    rows: list[Row] = []
    legalised: list[np.ndarray] | None = None
    base, problem = _build(path.name, data, [], target)
    if base is None:
        return [Row(path.stem, stage, problem=problem) for stage in STAGES]
    arg_ports, result_ports = function_ports(Interpreter(base).function())
    inputs = gather_inputs(arg_ports, [], seed).arrays
    names = [p.name for p in result_ports]
    try:
        litert = run_litert(data, path.name, inputs, keep_all=True)
        reference = pair_outputs(names, litert.outputs)
    except UserError as err:
        return [Row(path.stem, stage, problem="ai-edge-litert: " + err.diagnostic.message) for stage in STAGES]
    for stage, pipeline in STAGES.items():
        module, problem = (base, "") if not pipeline else _build(path.name, data, pipeline, target)
        row = Row(path.stem, stage, problem=problem)
        rows.append(row)
        if module is None:
            continue
        row.ops = _ops(module)
        outputs, seconds, note = _run(module, inputs, repeat)
        row.problem = note
        if outputs is None:
            continue
        row.seconds = seconds
        try:
            _compare(row, outputs, reference, names)
        except UserError as err:
            row.problem = err.diagnostic.message
            continue
        row.ops_equal, row.ops_compared, where = _per_op(module, inputs, litert.tensors, {p.name for p in arg_ports})
        if where:
            row.problem = (row.problem + "; " if row.problem else "") + where
        if stage == "estimate":
            legalised = outputs
        if stage == "schedule":
            row.vs_estimate = ("n/a" if legalised is None else
                               "identical" if all(np.array_equal(a, b, equal_nan=np.asarray(a).dtype.kind == "f")
                                                 for a, b in zip(outputs, legalised))
                               else "differs")
            if not is_scheduled(module):
                row.problem = (row.problem + "; " if row.problem else "") + "no npu.schedule on the module"
    return rows


def render(rows: list[Row], args: argparse.Namespace) -> str:
    """The markdown report."""
    exact = sum(1 for r in rows if r.max_abs == 0)
    ran = sum(1 for r in rows if r.max_abs is not None)
    lines = [
        "# Reference interpreter on the corpus",
        "",
        "Generated by `python bench/interpreter.py` (do not edit by hand). Each model runs on seeded",
        f"random inputs (seed {args.seed}, over each input's storage range) at three stages: `tfl` (as",
        "imported), `estimate` (legalised to npu ops) and `schedule` (scheduled; run by the scheduled",
        f"runner), with target {args.target}. *max diff* and *differing* compare all outputs with",
        "ai-edge-litert's reference kernels on the same inputs; *= estimate* says whether the scheduled",
        "run gives the legalised run's outputs exactly. *distinct* counts the different values in",
        "TFLite's outputs: few of them mean random inputs saturated the network, a weaker check;",
        "*ops equal* counts the op results that carry a TFLite tensor name (their location) and equal",
        "that tensor in ai-edge-litert (a legalised result in another shape compared reshaped).",
        "*CPU s* is the interpreter's run alone, process",
        f"CPU time, median of {args.repeat}. A stage that cannot run says why.",
        "",
        f"Machine: {platform.machine()}, Python {platform.python_version()}, numpy {np.__version__}. "
        f"{exact} of {len(rows)} model-stages bit-exact ({ran} ran to the end).",
        "",
        "| model | stage | ops | max diff | differing | distinct | ops equal | = estimate | CPU s | note |",
        "|---|---|---:|---:|---:|---:|---:|---|---:|---|",
    ]
    for r in rows:
        diff = "" if r.max_abs is None else f"{r.max_abs:g}"
        differing = "" if r.differing is None else f"{r.differing:,} / {r.total:,}"
        seconds = "" if r.seconds is None else f"{r.seconds:.3f}"
        note = r.problem.replace("|", "\\|")
        distinct = "" if r.distinct is None else str(r.distinct)
        ops_equal = "" if r.ops_compared is None else f"{r.ops_equal} / {r.ops_compared}"
        lines.append(f"| {r.model} | {r.stage} | {r.ops or ''} | {diff} | {differing} | {distinct} | {ops_equal} | "
                     f"{r.vs_estimate} | "
                     f"{seconds} | {note} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--target", default="ethos-u55-256")
    parser.add_argument("--corpus", type=Path, default=bi.default_corpus() / "models",
                        help="the corpus's models/ directory")
    parser.add_argument("--models", nargs="*", default=None, help="model names (stems) to run; default all")
    parser.add_argument("-o", dest="output", type=Path, default=HERE / "INTERPRETER.md")
    args = parser.parse_args(argv)
    if bi.partial_run_refused("interpreter.py", args.output, HERE / "INTERPRETER.md",
                              {"models": " ".join(args.models or ct.MODELS)}, {"models": " ".join(ct.MODELS)}, "-o"):
        return 1
    if not bi.inputs_present("interpreter.py", args.output,
                             [args.corpus / f"{m}.tflite" for m in args.models or ct.MODELS]):
        return 1
    models = sorted(args.corpus / f"{m}.tflite" for m in args.models or ct.MODELS)
    target = target_request(args.target)
    rows: list[Row] = []
    for path in models:
        for row in bench_model(path, target, args.seed, args.repeat):
            rows.append(row)
            seconds = "" if row.seconds is None else f"{row.seconds:.3f} s"
            print(f"{row.model:<22} {row.stage:<9} max diff {row.max_abs} differing {row.differing} "
                  f"{row.vs_estimate} {seconds} {row.problem}", flush=True)
    args.output.write_text(render(rows, args), encoding="utf-8")
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
