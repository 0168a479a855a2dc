"""The command-stream simulator on Vela 5.2's outputs: every corpus and tests/data model, configs A
and B, Vela's default (C++) core and its legacy core, simulated against ai-edge-litert's reference
kernels on the source model.

    python bench/simulator.py                      # everything, writes bench/SIMULATOR.md
    python bench/simulator.py --models kws_dscnn --out /tmp/SIMULATOR.md

Each run compiles the model with ``vela`` (kept in ``--work``, so a second run reuses it), runs the
compiled .tflite in npu-opt's interpreter (CPU operators in the tfl kernels, each ``ethos-u``
operator in the simulator) on seeded random inputs (seeds 0 to 2), and compares with LiteRT. Where
a classifier's output saturates (every element at its type's minimum or maximum) it is compared
again on inputs drawn closer to the zero point (8, 32, 128 or 512 times: the first that does not
saturate). An output that differs is located: the
source model runs through npu-opt's legalisation (``--pass=estimate``) in the npu interpreter, whose
first result that differs from LiteRT's tensor of the same name is the op, and the simulator's
outputs are compared with that interpreter's. The CPU time of MobileNet v1 224 through the simulator
is measured too (the issue's aim: under 10 s).
"""
from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from importlib.metadata import version
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_inputs import default_corpus, inputs_present, partial_run_refused  # noqa: E402

import npu_opt.dialects  # noqa: E402,F401
import npu_opt.passes  # noqa: E402,F401
from npu_opt.dialects.tfl.tflite import import_tflite  # noqa: E402
from npu_opt.ir.diagnostics import DiagnosticEngine, SourceManager, UserError  # noqa: E402
from npu_opt.ir.interpreter import Interpreter, run_function  # noqa: E402
from npu_opt.tools.api import set_target  # noqa: E402
from npu_opt.dialects.npu.interfaces import costed  # noqa: E402
from npu_opt.ir.core import Operation, OpResult  # noqa: E402
from npu_opt.tools.litert_compare import NamedResults, op_differences, result_names, run_litert  # noqa: E402
from npu_opt.tools.npu_run import transform  # noqa: E402
from npu_opt.tools.run_inputs import function_ports, gather_inputs, storage_range  # noqa: E402

ROOT = HERE.parent
DATA = ROOT / "tests" / "data"
CONFIGS = {
    "A": ("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram"),
    "B": ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram"),
}
CORES = {"default": (), "legacy": ("--debug-force-legacy-core",)}
CORPUS_MODELS = ("ad_autoencoder", "deep_chain_conv", "ic_resnet8", "kws_dscnn", "mobilenet_v1_100_224",
                 "mobilenet_v2_035_96", "vww_mobilenet_v1_025")
SEEDS = (0, 1, 2)
SPEED_MODEL = "mobilenet_v1_100_224"


@dataclass
class Outcome:
    """One (model, config, core): the largest difference per seed and what explains it."""

    model: str
    config: str
    core: str
    status: str = ""
    diffs: list[str] = field(default_factory=list)
    note: str = ""
    inside: str = ""
    sim_cpu: float = 0.0


def compile_model(source: Path, config: str, core: str, work: Path) -> Path | str:
    """Vela's compiled .tflite (cached in ``work`` by the source's digest), or Vela's error."""
    digest = hashlib.sha256(source.read_bytes()).hexdigest()[:12]
    out = work / f"{source.stem}-{digest}-{config}-{core}"
    compiled = out / f"{source.stem}_vela.tflite"
    if compiled.exists():
        return compiled
    accelerator, system, memory = CONFIGS[config]
    done = subprocess.run(["vela", *CORES[core], "--config", "Arm/vela.ini", "--optimise", "Performance",
                           "--accelerator-config", accelerator, "--system-config", system, "--memory-mode",
                           memory, "--output-dir", str(out), str(source)], capture_output=True, text=True)
    if done.returncode != 0 or not compiled.exists():
        lines = (done.stderr or done.stdout).strip().splitlines()
        return f"vela failed: {lines[-1] if lines else done.returncode}"
    return compiled


def inside(arrays: list[np.ndarray], results) -> tuple[int, int]:
    """(output elements strictly inside their type's range, output elements): the values a
    difference could show in (a 1000-class softmax of a random image holds ~90% at zero)."""
    count = total = 0
    for port, array in zip(results, arrays):
        span = storage_range(port.type)
        total += array.size
        count += array.size if span is None else int(((array > span[0]) & (array < span[1])).sum())
    return count, total


def saturated(arrays: list[np.ndarray], results) -> bool:
    """Every output element at its type's minimum or maximum (a one-hot classifier output)."""
    return inside(arrays, results)[0] == 0


def calm_inputs(arguments, seed: int, divisor: int) -> list[np.ndarray]:
    """Seeded random inputs drawn ``divisor`` times closer to each input's zero point."""
    rng = np.random.default_rng(seed)
    arrays = []
    for port in arguments:
        span = storage_range(port.type)
        if span is None:
            arrays.append(rng.uniform(-1.0 / divisor, 1.0 / divisor, size=port.shape).astype(port.dtype))
            continue
        zero = getattr(getattr(port.type, "element_type", None), "zero_point", 0) or 0
        half = max(1, (span[1] - span[0]) // (2 * divisor))
        values = rng.integers(max(span[0], zero - half), min(span[1], zero + half), size=port.shape, endpoint=True)
        arrays.append(values.astype(port.dtype))
    return arrays


CALM_DIVISORS = (8, 32, 128, 512)


def litert_outputs(source: Path, inputs: list[np.ndarray]) -> list[np.ndarray]:
    return [array for _, array in run_litert(source.read_bytes(), str(source), inputs).outputs]


def calm_divisor(source: Path, arguments, results) -> int | None:
    """The first of CALM_DIVISORS whose calm inputs (seed 0) leave LiteRT's output unsaturated."""
    for divisor in CALM_DIVISORS:
        if not saturated(litert_outputs(source, calm_inputs(arguments, 0, divisor)), results):
            return divisor
    return None


def max_diff(ours: list[np.ndarray], theirs: list[np.ndarray]) -> tuple[int, int, int]:
    """(largest difference, elements differing, elements) over all outputs."""
    largest = count = total = 0
    for mine, reference in zip(ours, theirs):
        delta = np.abs(np.asarray(mine).astype(np.int64).reshape(-1) - reference.astype(np.int64).reshape(-1))
        largest, count, total = max(largest, int(delta.max(initial=0))), count + int((delta != 0).sum()), \
            total + delta.size
    return largest, count, total


class _Producers(NamedResults):
    """NamedResults that also keeps the op behind each name."""

    def __init__(self, wanted: set[str]) -> None:
        super().__init__(wanted)
        self.ops: dict[str, Operation] = {}

    def __call__(self, op: Operation, results) -> None:
        super().__call__(op, results)
        for name in result_names(op):
            if name in self.wanted:
                self.ops[name] = op


def computed_by(op: Operation) -> str:
    """The op that computed a named result: ``op``, or the NPU op behind the views (reshapes) on it."""
    while costed(op) is None and op.operands and isinstance(op.operands[0], OpResult):
        op = op.operands[0].op
    return op.name


def npu_outputs_before(module: Operation, source: Path, inputs: list[np.ndarray]) -> str:
    """For a run a CPU operator stopped: how the ethos-u operators' outputs that ran before it
    compare with LiteRT's tensors of the same names."""
    found: dict[str, np.ndarray] = {}

    def keep(op: Operation, results) -> None:
        if op.name == "tfl.ethos_u":
            found.update((name, np.asarray(array)) for name, array in zip(result_names(op), results) if name)

    try:
        run_function(module, inputs, observer=keep)
    except UserError:
        pass
    tensors = run_litert(source.read_bytes(), str(source), inputs, keep_all=True).tensors
    named = [name for name in found if name in tensors]
    if not named:
        return ""
    largest, count, total = max_diff([found[n] for n in named], [tensors[n] for n in named])
    return f"; before it, the ethos-u outputs ({len(named)} tensors, {total} elements) differ by at most {largest}"


def locate(source: Path, config: str, inputs: list[np.ndarray], simulated: list[np.ndarray]) -> str:
    """The first op of the legalised source model whose result differs from LiteRT's tensor, and
    whether the simulator's outputs equal that interpreter's."""
    module = set_target(import_tflite(source.read_bytes(), str(source)), CONFIGS[config][0])
    engine = DiagnosticEngine(SourceManager())
    engine.show_remarks = False
    if not transform(module, ["estimate"], engine):
        return "the legalisation failed"
    litert = run_litert(source.read_bytes(), str(source), inputs, keep_all=True)
    arguments, _ = function_ports(Interpreter(module).function())
    named = _Producers(set(litert.tensors) - {p.name for p in arguments})
    expected = run_function(module, inputs, observer=named)
    same = all(np.array_equal(np.asarray(a).reshape(-1), np.asarray(b).reshape(-1))
               for a, b in zip(simulated, expected))
    first = next((d for d in op_differences(named.found, litert.tensors) if d.diff is None or d.diff.differing), None)
    where = "no legalised op differs" if first is None else \
        f"first at `{first.tensor.split(';')[0]}` ({computed_by(named.ops[first.tensor])}, " + \
        (f"max {first.diff.max_abs:g})" if first.diff else f"{first.why})")
    return f"{where}; simulator {'=' if same else '!='} legalised IR"


def run_one(model: str, source: Path, config: str, core: str, work: Path) -> Outcome:
    outcome = Outcome(model, config, core)
    compiled = compile_model(source, config, core, work)
    if isinstance(compiled, str):
        outcome.status = "not compiled"
        outcome.note = compiled
        return outcome
    try:
        module = import_tflite(compiled.read_bytes(), str(compiled))
    except UserError as error:
        outcome.status = "not imported"
        outcome.note = " ".join(error.diagnostic.message.split())[:240]
        return outcome
    if not any(op.name == "tfl.ethos_u" for op in module.walk()):
        outcome.status = "no NPU op"
        return outcome
    arguments, results = function_ports(Interpreter(module).function())
    notes: list[str] = []
    runs = [(f"seed {s}", gather_inputs(arguments, [], s).arrays) for s in SEEDS]
    index = 0
    located = calm_added = False
    while index < len(runs):
        label, inputs = runs[index]
        index += 1
        try:
            theirs = litert_outputs(source, inputs)
            start = time.process_time()
            ours = run_function(module, inputs)
            outcome.sim_cpu = max(outcome.sim_cpu, time.process_time() - start)
        except UserError as error:
            outcome.status = "refused" if "ethos-u program" in error.diagnostic.message else "not run"
            outcome.note = " ".join(error.diagnostic.message.split()).replace("its ethos-u program: ", "")[:320]
            if outcome.status == "not run":
                outcome.note += npu_outputs_before(module, source, inputs)
            return outcome
        if not outcome.inside:
            outcome.inside = "{} of {}".format(*inside(theirs, results))
        largest, count, total = max_diff(ours, theirs)
        outcome.diffs.append(f"{largest}" if not count else f"{largest} ({count}/{total})")
        if not calm_added and label.startswith("seed") and saturated(theirs, results):
            calm_added = True
            divisor = calm_divisor(source, arguments, results)
            if divisor is None:
                notes.append(f"saturated, and still on inputs {CALM_DIVISORS[-1]}x closer to the zero point")
            else:
                notes.append(f"saturated; after the seeds, inputs {divisor}x closer to the zero point (not saturated)")
                runs += [(f"calm {s}", calm_inputs(arguments, s, divisor)) for s in SEEDS]
        if count and not located:
            notes.append(f"{label}: " + locate(source, config, inputs, ours))
            located = True
    outcome.status = "bit-exact" if all(d == "0" for d in outcome.diffs) else "differs"
    outcome.note = "; ".join(notes)
    return outcome


def speed(corpus: Path, work: Path) -> list[str]:
    """The CPU time of MobileNet v1 224 through the simulator, per config and core (best of 2)."""
    source = corpus / "models" / f"{SPEED_MODEL}.tflite"
    lines = []
    for config in CONFIGS:
        for core in CORES:
            compiled = compile_model(source, config, core, work)
            if isinstance(compiled, str):
                lines.append(f"| {config} | {core} | {compiled} |")
                continue
            module = import_tflite(compiled.read_bytes(), str(compiled))
            arguments, _ = function_ports(Interpreter(module).function())
            inputs = gather_inputs(arguments, [], 0).arrays
            times = []
            for _ in range(2):
                start = time.process_time()
                run_function(module, inputs)
                times.append(time.process_time() - start)
            lines.append(f"| {config} | {core} | {min(times):.2f} |")
    return lines


def shown_diffs(diffs: list[str]) -> str:
    """The seeds' largest differences, then the calm inputs' after a semicolon."""
    seeds, calm = ", ".join(diffs[:len(SEEDS)]), ", ".join(diffs[len(SEEDS):])
    return f"{seeds}; calm {calm}" if calm else seeds


EXPLAINED = {
    ("npu.vector_product",): "A FULLY_CONNECTED layer: LiteRT's reference kernel rescales its accumulator once, "
                          "half away from zero; Vela programs the NPU's TFL double rounding (NATURAL for 16-bit "
                          "IFMs), and the NPU has no rounding half away from zero. One LSB where the exact product "
                          "is within 2^-31 below a half (docs/npu_arithmetic.md, The fully connected layer's "
                          "rounding); the legalised IR rounds as the stream does.",
    ("tanh", "logistic", "sigmoid"): "The built-in 16-bit tanh and sigmoid: the NPU's own functions are not "
                                     "documented bit for bit; the "
            "simulator and the npu interpreter evaluate them in float64 and round, TFLite interpolates a table "
            "(docs/npu_arithmetic.md, table).",
    ("IFM depth of",): "Vela 5.2's legacy core turns an AVERAGE_POOL of stride 4 or more into a convolution whose "
                    "weights have one input channel ([h, w, 1, C]), then folds the IFM's width into its depth: "
                    "kws_dscnn's op 21 reads an IFM 320 deep (5 columns x 64 channels) with a weight stream "
                    "holding 5 input channels (8 with padding) per OFM channel. The NPU consumes weights for "
                    "all 320 and would read past the stream; the simulator reports it (the default core runs "
                    "the same pool bit-exact). A Vela legacy-core bug, not the NPU's arithmetic.",
    ("'tfl.strided_slice' cannot be interpreted",): "Vela's default core compiles shape.tflite into a model whose CPU operators "
                                 "(strided slice, both resizes, shape), which read the 1x4x4x8 input `x` in the "
                                 "source, read the ethos-u operator's first output `expand_dims` (1x4x32) "
                                 "instead: a model TFLite refuses too (a resize takes a 4-D input). A Vela bug; "
                                 "the interpreter stops at the first of them.",
    ("AssertionError",): "Vela 5.2's legacy core stops on an internal assertion compiling shape.tflite.",
}
"""Why each kind of difference or refusal happens, by the texts one of its notes holds."""


def explanations(outcomes: list[Outcome]) -> list[str]:
    """The EXPLAINED paragraphs of the differences and refusals the table shows."""
    notes = [o.note for o in outcomes if o.status in ("differs", "refused", "not imported", "not compiled", "not run")]
    found = [(keys, text) for keys, text in EXPLAINED.items() if any(k in n for k in keys for n in notes)]
    if not found:
        return []
    return ["", "## Why", ""] + [f"- `{' / '.join(keys)}`: {text}" for keys, text in found]


def report(outcomes: list[Outcome], speed_lines: list[str], seconds: float) -> str:
    counts: dict[str, int] = {}
    for o in outcomes:
        counts[o.status] = counts.get(o.status, 0) + 1
    lines = ["# The command-stream simulator on Vela 5.2's outputs", "",
             "`python bench/simulator.py`: every ../shared/corpus model and tests/data model, configs A "
             "(ethos-u55-128, Ethos_U55_High_End_Embedded, Shared_Sram) and B (ethos-u65-256, "
             "Ethos_U65_High_End, Dedicated_Sram), Vela's default (C++) core and its legacy core "
             "(`--debug-force-legacy-core`), `--optimise Performance`. Each compiled model runs in "
             "npu-opt's interpreter (each `ethos-u` operator in the simulator) on seeded random inputs "
             f"(seeds {', '.join(map(str, SEEDS))}) and is compared with ai-edge-litert's reference kernels on "
             "the source model; a saturated classifier is compared again, on three more inputs drawn 8, 32, 128 or 512 "
             "times closer to the zero point (the first that does not saturate it). "
             "A difference is located in the source model run through npu-opt's legalisation in the npu "
             "interpreter (its first op differing from LiteRT's tensor), and the simulator's outputs are "
             "compared with that interpreter's (docs/npu_arithmetic.md explains each).", "",
             f"{len(outcomes)} runs: " + ", ".join(f"{n} {s}" for s, n in sorted(counts.items())) +
             f". Measured {time.strftime('%Y-%m-%d')} with Vela {version('ethos-u-vela')} and ai-edge-litert "
             f"{version('ai-edge-litert')}, {seconds:.0f} s of wall time.", "",
             "| model | config | core | result | max diff per input | outputs inside their range (seed 0) | "
             "simulator CPU s | note |",
             "|---|---|---|---|---|---|---|---|"]
    for o in outcomes:
        lines.append(f"| {o.model} | {o.config} | {o.core} | {o.status} | {shown_diffs(o.diffs)} | {o.inside} | "
                     f"{o.sim_cpu:.2f} | {o.note.replace('|', '/')} |")
    lines += explanations(outcomes)
    if speed_lines:
        lines += ["", f"## Speed: {SPEED_MODEL} through the simulator", "",
                  "CPU seconds of one inference (the interpreter's whole run, best of two), seed 0:", "",
                  "| config | core | CPU s |", "|---|---|---|"] + speed_lines
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="all", help="comma-separated model names (default all)")
    parser.add_argument("--configs", default="A,B")
    parser.add_argument("--cores", default="default,legacy")
    parser.add_argument("--corpus", type=Path, default=default_corpus())
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "npu-opt-simulator-bench",
                        help="where Vela's outputs are kept between runs")
    parser.add_argument("--out", type=Path, default=HERE / "SIMULATOR.md")
    args = parser.parse_args(argv)
    committed = HERE / "SIMULATOR.md"
    full = {"models": "all", "configs": "A,B", "cores": "default,legacy"}
    chosen = {"models": args.models, "configs": args.configs, "cores": args.cores}
    if partial_run_refused("simulator.py", args.out, committed, chosen, full):
        return 1
    sources = {m: args.corpus / "models" / f"{m}.tflite" for m in CORPUS_MODELS}
    sources.update({p.stem: p for p in sorted(DATA.glob("*.tflite"))})
    names = list(sources) if args.models == "all" else args.models.split(",")
    unknown = [name for name in names if name not in sources]
    if unknown:
        print(f"simulator.py: unknown model '{unknown[0]}' (the corpus's and tests/data's: "
              f"{', '.join(sorted(sources))}); nothing written", file=sys.stderr)
        return 1
    if not inputs_present("simulator.py", args.out, [sources[name] for name in names], tools=["vela"]):
        return 1
    args.work.mkdir(parents=True, exist_ok=True)
    started = time.time()
    outcomes = []
    for name in names:
        for config in args.configs.split(","):
            for core in args.cores.split(","):
                outcome = run_one(name, sources[name], config, core, args.work)
                print(f"{name} {config} {core}: {outcome.status} {outcome.diffs} {outcome.note}", flush=True)
                outcomes.append(outcome)
    speed_lines = speed(args.corpus, args.work) if args.models == "all" or SPEED_MODEL in names else []
    args.out.write_text(report(outcomes, speed_lines, time.time() - started))
    return 0


if __name__ == "__main__":
    sys.exit(main())
