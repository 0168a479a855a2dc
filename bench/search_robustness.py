"""Whether the schedule search holds up beyond the corpus: every tests/data model on eight configs
at budgets below Size's SRAM; writes bench/SEARCH_ROBUSTNESS.md.

    python bench/search_robustness.py [--configs A,C,...] [--models m1,m2] [--fractions 25,50,75,100]
                                      [--jobs N] [--out FILE]

Per model and config, Size's schedule (``schedule{optimise=Size}``) gives the SRAM S it needs; then
the search runs as a user runs it (the ``npu-opt`` console script, verifier on) at each fraction
of S as the budget, and a schedule it writes is checked with ``npu-check-schedule``. Each run
ends one of three ways: a schedule that passes the checker, the one clean error that no schedule
fits the budget, or anything else (another error, an internal error, a checker complaint),
which is a failure and is listed. Below S only column bands, a dedicated SRAM's arena or the
search's other knobs can fit, so these budgets reach the parts of the search the corpus's
budgets do not (the models are the small hand-made ones of tests/data: concatenations,
branches, odd shapes, int16, CPU ops in the middle).
"""
from __future__ import annotations

import argparse
import concurrent.futures
import csv
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
sys.path.insert(0, str(ROOT / "bench"))

import compile_time as ct  # noqa: E402  (how a user starts npu-opt)

CONFIGS: dict[str, tuple[str, ...]] = {
    "A": ("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram"),
    "C": ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram_384KB"),
    "D16": ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram", "16384"),
    "D8": ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram", "8192"),
    "S32": ("ethos-u55-32", "Ethos_U55_High_End_Embedded", "Shared_Sram"),
    "S256": ("ethos-u55-256", "Ethos_U55_Deep_Embedded", "Shared_Sram"),
    "SO64": ("ethos-u55-64", "Ethos_U55_High_End_Embedded", "Sram_Only"),
    "U512": ("ethos-u65-512", "Ethos_U65_Client_Server", "Dedicated_Sram_512KB"),
}
"""Accelerator, system config, memory mode (and arena cache size) of each config swept."""

NO_FIT = "error: no schedule fits the SRAM budget"


@dataclass
class Outcome:
    model: str
    config: str
    fraction: int
    budget: int
    result: str
    """"checked", "no fit", or what went wrong."""
    banded: bool = False


def _npu_opt(config: str, model: Path, *args: str) -> list[str]:
    accel, system, memory, *arena = CONFIGS[config]
    return ct.npu_opt_head() + [str(model), f"--target={accel}", f"--system-config={system}", f"--memory-mode={memory}",
                   *(f"--arena-cache-size={a}" for a in arena), *args]


def _run(command: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True)


def sweep(model: str, config: str, fractions: list[int]) -> list[Outcome]:
    """Size's SRAM, then the search at each fraction of it."""
    path = DATA / f"{model}.tflite"
    outcomes = []
    with tempfile.TemporaryDirectory() as tmp:
        summary = Path(tmp) / "size.csv"
        done = _run(_npu_opt(config, path, "--pass=schedule{optimise=Size}", "-o", "/dev/null",
                             f"--summary-csv={summary}"))
        if done.returncode != 0:
            # (Size may not fit a small arena at all: the search's budgets then start at its arena)
            size = int(CONFIGS[config][3]) if len(CONFIGS[config]) > 3 else 0
        else:
            row = next(csv.DictReader(summary.open(encoding="utf-8")))
            size = round(float(row["sram_memory_used"] or 0) * 1024)
        for fraction in fractions:
            budget = max(1, size * fraction // 100)
            scheduled = Path(tmp) / f"{fraction}.mlir"
            done = _run(_npu_opt(config, path, f"--pass=schedule{{sram-budget={budget}}}", "-o", str(scheduled)))
            if done.returncode != 0:
                lines = done.stderr.strip().splitlines()
                clean = len(lines) == 1 and NO_FIT in lines[0] and not scheduled.exists()
                outcomes.append(Outcome(model, config, fraction, budget, "no fit" if clean else
                                        f"exit {done.returncode}: {' / '.join(lines)[:300]}"))
                continue
            checked = _run(_npu_opt(config, scheduled, "--pass=npu-check-schedule", "-o", "/dev/null"))
            text = scheduled.read_text(encoding="utf-8")
            outcomes.append(Outcome(model, config, fraction, budget, "checked" if checked.returncode == 0 else
                                    f"checker: {checked.stderr.strip()[:300]}", "width_bands" in text))
    return outcomes


def render(outcomes: list[Outcome], configs: list[str], fractions: list[int]) -> str:
    checked = sum(o.result == "checked" for o in outcomes)
    no_fit = sum(o.result == "no fit" for o in outcomes)
    failed = [o for o in outcomes if o.result not in ("checked", "no fit")]
    lines = ["# Search robustness: every tests/data model, eight configs, budgets below Size's SRAM", "",
             "Generated by `python bench/search_robustness.py` (method in its docstring). Budgets: "
             + ", ".join(f"{f} %" for f in fractions) + " of the SRAM of the model's Size schedule on that config.",
             "", "| config | accelerator, system config, memory mode (arena) |", "|---|---|"]
    lines += [f"| {c} | {', '.join(CONFIGS[c])} |" for c in configs]
    lines += ["", f"**{len(outcomes)} searches: {checked} scheduled and passed npu-check-schedule "
                  f"({sum(o.banded for o in outcomes)} of them in column bands), {no_fit} ended in the one error "
                  f"that no schedule fits the budget, {len(failed)} failed.**", ""]
    lines += ["| model | " + " | ".join(configs) + " |", "|---|" + "---|" * len(configs)]
    for model in sorted({o.model for o in outcomes}):
        cells = []
        for config in configs:
            mine = [o for o in outcomes if o.model == model and o.config == config]
            cells.append(" ".join("ok" if o.result == "checked" else "-" if o.result == "no fit" else "FAIL"
                                  for o in sorted(mine, key=lambda o: o.fraction)))
        lines.append(f"| {model} | " + " | ".join(cells) + " |")
    lines += ["", "Each cell: one mark per budget, smallest first: ok (scheduled, checked), - (no schedule fits), "
                  "FAIL (listed below)."]
    if failed:
        lines += ["", "## Failures", ""]
        lines += [f"- {o.model} {o.config} at {o.fraction} % ({o.budget} B): {o.result}" for o in failed]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    full = {"configs": ",".join(CONFIGS), "models": ",".join(sorted(p.stem for p in DATA.glob("*.tflite"))),
            "fractions": "25,50,75,100"}
    for name, default in full.items():
        parser.add_argument(f"--{name}", default=default)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "SEARCH_ROBUSTNESS.md")
    args = parser.parse_args(argv)
    if ct.bi.partial_run_refused("search_robustness.py", args.out, ROOT / "bench" / "SEARCH_ROBUSTNESS.md",
                                 {name: getattr(args, name) for name in full}, full):
        return 1
    configs = args.configs.split(",")
    fractions = [int(f) for f in args.fractions.split(",")]
    work = [(model, config) for model in args.models.split(",") for config in configs]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        outcomes = [o for found in pool.map(lambda job: sweep(*job, fractions), work) for o in found]
    args.out.write_text(render(outcomes, configs, fractions), encoding="utf-8")
    failed = [o for o in outcomes if o.result not in ("checked", "no fit")]
    print(f"{len(outcomes)} searches, {len(failed)} failed; wrote {args.out}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
