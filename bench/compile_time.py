"""CPU time and peak memory of ``npu-opt --pass=estimate`` beside Vela's full compile; writes
bench/COMPILE_TIME.md.

    python bench/compile_time.py [--corpus DIR] [--configs A,B] [--models m1,m2] [--repeat N]
                                 [--out FILE]

For every ../shared/corpus model and config (A: ethos-u55-128, Ethos_U55_High_End_Embedded,
Shared_Sram; B: ethos-u65-256, Ethos_U65_High_End, Dedicated_Sram) two child processes run back
to back: the user's command line ``npu-opt --pass=estimate --target ... model.tflite`` (verifier
on, output discarded) and ``vela`` with its default C++ core on the same model and config. Each
child's CPU time (user + system) and peak resident memory come from ``os.wait4``, the child's
own rusage (what ``getrusage(RUSAGE_CHILDREN)`` accumulates). CPU time, not wall time, because
the machine is shared; with ``--repeat N`` each pair runs N times, in alternating order, and the
table shows medians. Goal: estimate CPU at most 0.5x Vela's, and
under 500 MB, on every model.

Both tools run from bytecode, as installed: Vela's site-packages hold its compiled modules, and
the npu-opt children run a compiled copy of the repository's packages (first on ``PYTHONPATH``, as
a wheel install would lay them out), so that an environment with ``PYTHONDONTWRITEBYTECODE`` set, or
an editable install never run before, does not charge every npu-opt run for compiling its modules
from source (~0.2 s CPU). The copy is made once, at the start; the working tree is not touched.

The corpus (models/*.tflite, built with TensorFlow, and Vela 5.2.0's results) lives outside the
repository in ../shared/corpus; point --corpus at another copy if needed.
"""
from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
import tempfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import bench_inputs as bi  # noqa: E402  (the inputs check every bench shares)

CONFIGS = {
    "A": ("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram"),
    "B": ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram"),
    "C": ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram_384KB"),  # (a 384 KB cache: Vela cascades)
}
MODELS = ("kws_dscnn", "vww_mobilenet_v1_025", "ic_resnet8", "ad_autoencoder", "mobilenet_v2_035_96",
          "mobilenet_v1_100_224", "deep_chain_conv")
GOAL_RATIO = 0.5
GOAL_PEAK_MB = 500


@dataclass(frozen=True)
class Usage:
    """One child process: CPU seconds (user + system, its waited-for children's included), peak
    resident memory, exit status and wall-clock seconds."""

    cpu: float
    peak_mb: float
    status: int
    wall: float = 0.0


def compiled_copy(into: str) -> dict[str, str]:
    """Copy npu-opt's packages to ``into``/npu_opt and compile them; the environment of children
    that import them from there."""
    import compileall
    for layer in ("ir", "hardware", "dialects", "interpreters", "passes", "tools"):
        target = Path(into) / "npu_opt" / layer
        shutil.copytree(ROOT / layer, target, ignore=shutil.ignore_patterns("__pycache__"))
        compileall.compile_dir(str(target), quiet=1)
    path = os.environ.get("PYTHONPATH")
    return {**os.environ, "PYTHONPATH": into + (os.pathsep + path if path else "")}


def run_child(command: list[str], env: dict[str, str] | None = None) -> Usage:
    """Run ``command`` with its output discarded; its own rusage."""
    began = time.perf_counter()
    with open(os.devnull, "wb") as sink:
        child = subprocess.Popen(command, stdout=sink, stderr=subprocess.PIPE, env=env)
        assert child.stderr is not None
        child.stderr.read()
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
    return Usage(usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, child.returncode,
                 time.perf_counter() - began)


def npu_opt_head() -> list[str]:
    """How a user starts npu-opt: the console script when installed, else the module."""
    tool = bi.console_script("npu-opt")
    return [tool] if tool else [sys.executable, "-m", "npu_opt.tools.npu_opt"]


def npu_opt_command(model: Path, config: str, pipeline: str = "estimate") -> list[str]:
    """``pipeline`` (the estimate by default) as a user runs it (the console script when installed)."""
    accel, system, memory = CONFIGS[config]
    return npu_opt_head() + [f"--pass={pipeline}", f"--target={accel}", f"--system-config={system}",
                   f"--memory-mode={memory}", str(model), "-o", os.devnull]


def vela_command(vela: str, model: Path, config: str, out_dir: str) -> list[str]:
    """Vela's full compile (default C++ core, --optimise Performance) as the corpus was built."""
    accel, system, memory = CONFIGS[config]
    return [vela, str(model), "--output-dir", out_dir, "--config", "Arm/vela.ini", "--accelerator-config", accel,
            "--system-config", system, "--memory-mode", memory]


def summary_figures(path: Path) -> tuple[float, float]:
    """(total cycles, SRAM bytes used) of a summary CSV: Vela's and npu-opt's ``--summary-csv``
    share the columns."""
    import csv

    row = next(csv.DictReader(path.open(encoding="utf-8")))
    return float(row["cycles_total"]), float(row["sram_memory_used"] or 0) * 1024


def npu_opt_figures(model: Path, config: str, pipeline: str) -> tuple[float, float] | str:
    """(total cycles, SRAM bytes used) of ``pipeline`` on ``model`` as a user runs it (its
    ``--summary-csv``), or the last line of its error when it fails."""
    with tempfile.TemporaryDirectory() as tmp:
        summary = Path(tmp) / "summary.csv"
        done = subprocess.run(npu_opt_command(model, config, pipeline) + [f"--summary-csv={summary}"],
                              capture_output=True, text=True)
        if done.returncode != 0 or not summary.exists():
            return (done.stderr.strip().splitlines() or ["no output"])[-1][:200]
        return summary_figures(summary)


def vela_legacy_figures(vela: str, model: Path, config: str, optimise: str) -> tuple[float, float] | None:
    """(total cycles, SRAM bytes) of Vela's legacy scheduler (``--debug-force-legacy-core
    --optimise optimise``) on ``model``, run now; None when Vela refuses the model."""
    with tempfile.TemporaryDirectory() as out:
        command = vela_command(vela, model, config, out) + ["--debug-force-legacy-core", "--optimise", optimise]
        done = subprocess.run(command, capture_output=True, text=True)
        found = list(Path(out).glob("*_summary_*.csv"))
        return summary_figures(found[0]) if done.returncode == 0 and found else None


def corpus_arguments(doc: str, out: Path) -> argparse.ArgumentParser:
    """A bench's command line: ``--corpus``, ``--configs`` and ``--models`` (the corpus's, by
    default every one), and ``--out`` (``out``); the bench adds its own."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=bi.default_corpus())
    parser.add_argument("--configs", default="A,C")
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--out", type=Path, default=out)
    return parser


def corpus_run_refused(script: str, args: argparse.Namespace, committed: Path, data: tuple[str, ...] = ("models",),
                       extra: list[Path] | None = None, tools: tuple[str, ...] = (),
                       defaults: dict[str, str] | None = None) -> bool:
    """True, after one line on stderr, when a bench made by ``corpus_arguments`` should not run: it
    is asked for part of its run (``--models``, ``--configs`` or an option of ``defaults``, its
    name to its default, differ from the defaults) while ``--out`` is the committed ``committed``,
    or an input is missing (each chosen model, the corpus entries of ``data``, the paths of
    ``extra``, the programs of ``tools``)."""
    full = {"models": ",".join(MODELS), "configs": "A,C", **(defaults or {})}
    chosen = {name: str(getattr(args, name.replace("-", "_"))) for name in full}
    if bi.partial_run_refused(script, args.out, committed, chosen, full):
        return True
    models = [m for m in args.models.split(",") if m]
    paths = [args.corpus / entry for entry in data if entry != "models"]
    paths += bi.corpus_models(args.corpus, models) + list(extra or [])
    return not bi.inputs_present(script, args.out, paths, tools)


def require_vela(script: str, out: Path) -> str | None:
    """The ``vela`` executable, or None after saying on stderr that ``script`` needs it and did not
    write ``out``."""
    if not bi.inputs_present(script, out, tools=["vela"]):
        return None
    return shutil.which("vela")


@dataclass
class Row:
    """Medians over the repeats of one model and config."""

    model: str
    config: str
    ours: list[Usage]
    vela: list[Usage]

    @property
    def ratio(self) -> float:
        return statistics.median(o.cpu / v.cpu for o, v in zip(self.ours, self.vela))

    def median(self, which: str, field: str) -> float:
        return statistics.median(getattr(u, field) for u in getattr(self, which))


def measure(corpus: Path, models: list[str], configs: list[str], repeat: int, vela: str,
            env: dict[str, str] | None = None) -> list[Row]:
    """Paired runs, alternating which of the two goes first; npu-opt runs in ``env``."""
    rows = []
    with tempfile.TemporaryDirectory() as out_dir:
        for model in models:
            path = corpus / "models" / f"{model}.tflite"
            for config in configs:
                row = Row(model, config, [], [])
                for attempt in range(repeat):
                    pair = [("ours", npu_opt_command(path, config)),
                            ("vela", vela_command(vela, path, config, out_dir))]
                    for which, command in pair if attempt % 2 == 0 else pair[::-1]:
                        getattr(row, which).append(run_child(command, env if which == "ours" else None))
                failed = [u.status for u in row.ours + row.vela if u.status]
                print(f"{model} {config}: npu-opt {row.median('ours', 'cpu'):.2f} s, vela "
                      f"{row.median('vela', 'cpu'):.2f} s, ratio {row.ratio:.2f}"
                      + (f" (exit status {failed})" if failed else ""), flush=True)
                rows.append(row)
    return rows


def measure_floor(configs: list[str], repeat: int, vela: str, env: dict[str, str] | None = None) -> list[Row]:
    """Start-up floors: both tools on the repository's one-convolution model (tests/data/conv.tflite)."""
    tiny = ROOT / "tests" / "data" / "conv.tflite"
    rows = []
    with tempfile.TemporaryDirectory() as out_dir:
        for config in configs:
            row = Row("(start-up: tests/data/conv.tflite)", config, [], [])
            for _ in range(repeat):
                row.ours.append(run_child(npu_opt_command(tiny, config), env))
                row.vela.append(run_child(vela_command(vela, tiny, config, out_dir)))
            rows.append(row)
    return rows


def render(rows: list[Row], repeat: int, floors: list[Row] | None = None) -> str:
    """The COMPILE_TIME.md report."""
    lines = [
        "# Compile time: `npu-opt --pass=estimate` beside Vela 5.2.0",
        "",
        "Generated by `python bench/compile_time.py`. Per model and config, the CPU time (user + system) and peak "
        "resident memory of one `npu-opt --pass=estimate` child process (the command line, verifier on) and of one "
        "`vela` child process (its default C++ core, full compile) on the same model and config, run back to back; "
        f"medians of {repeat} paired run(s). Ratio: npu-opt CPU / Vela CPU (median of the paired ratios). Goal: "
        f"ratio <= {GOAL_RATIO} and npu-opt peak < {GOAL_PEAK_MB} MB on every model. Both tools run from "
        "bytecode, as installed (npu-opt from a compiled copy of its packages).",
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores shared with other jobs, Python "
        f"{platform.python_version()}. Config A = ethos-u55-128, Ethos_U55_High_End_Embedded, Shared_Sram; "
        "B = ethos-u65-256, Ethos_U65_High_End, Dedicated_Sram.",
        "",
        "| model | config | npu-opt CPU s | npu-opt peak MB | Vela CPU s | Vela peak MB | ratio | goal met |",
        "|---|---|---:|---:|---:|---:|---:|---|",
    ]
    for row in rows:
        met = row.ratio <= GOAL_RATIO and row.median("ours", "peak_mb") < GOAL_PEAK_MB
        failed = any(u.status for u in row.ours + row.vela)
        lines.append(f"| {row.model} | {row.config} | {row.median('ours', 'cpu'):.2f} | "
                     f"{row.median('ours', 'peak_mb'):.0f} | {row.median('vela', 'cpu'):.2f} | "
                     f"{row.median('vela', 'peak_mb'):.0f} | {row.ratio:.2f} | "
                     f"{'failed' if failed else 'yes' if met else 'no'} |")
    for row in floors or []:
        lines.append(f"| {row.model} | {row.config} | {row.median('ours', 'cpu'):.2f} | "
                     f"{row.median('ours', 'peak_mb'):.0f} | {row.median('vela', 'cpu'):.2f} | "
                     f"{row.median('vela', 'peak_mb'):.0f} | {row.ratio:.2f} | - |")
    if floors:
        lines += ["", "The last rows are each tool's start-up floor: a one-convolution model, so almost all of "
                      "it is interpreter start-up and imports (npu-opt) or process start-up (Vela)."]
    total_ours = sum(r.median("ours", "cpu") for r in rows)
    total_vela = sum(r.median("vela", "cpu") for r in rows)
    peak = max(r.median("ours", "peak_mb") for r in rows)
    lines += ["", f"Sum over the table: npu-opt {total_ours:.2f} s, Vela {total_vela:.2f} s "
                  f"({total_ours / total_vela:.2f}x); largest npu-opt peak {peak:.0f} MB.", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=bi.default_corpus())
    parser.add_argument("--configs", default="A,B")
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--out", type=Path, default=HERE / "COMPILE_TIME.md")
    args = parser.parse_args(argv)
    configs = [c for c in args.configs.split(",") if c]
    models = [m for m in args.models.split(",") if m]
    unknown = [c for c in configs if c not in CONFIGS]
    if unknown:
        print(f"compile_time.py: unknown config {unknown[0]!r} (known: {', '.join(CONFIGS)})", file=sys.stderr)
        return 1
    if args.repeat < 1:
        print(f"compile_time.py: --repeat {args.repeat} must be at least 1", file=sys.stderr)
        return 1
    if bi.partial_run_refused("compile_time.py", args.out, HERE / "COMPILE_TIME.md",
                              {"models": args.models, "configs": args.configs},
                              {"models": ",".join(MODELS), "configs": "A,B"}):
        return 1
    if not bi.inputs_present("compile_time.py", args.out, bi.corpus_models(args.corpus, models), ["vela"]):
        return 1
    vela = shutil.which("vela")
    assert vela is not None  # checked just above
    with tempfile.TemporaryDirectory() as copy:
        env = compiled_copy(copy)
        rows = measure(args.corpus, models, configs, args.repeat, vela, env)
        floors = measure_floor(configs, args.repeat, vela, env)
    args.out.write_text(render(rows, args.repeat, floors))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
