"""Cell by cell, ``npu-opt --summary-csv`` beside Vela's summary CSV; writes bench/SUMMARY_CSV_FIDELITY.md.

    python bench/summary_csv_fidelity.py [--corpus DIR] [--configs A,B] [--models m1,m2] [--out FILE]

Per model (../shared/corpus models, when present, and the tests/data models Vela maps to the
NPU: tests/data/vela/make_reports.py's list) and config (bench/compile_time.py's A and B), Vela
5.2's legacy core runs live (``vela --debug-force-legacy-core --optimise Performance``) and
npu-opt on the Vela-equivalent schedule (``--pass=schedule{optimise=Performance}
--summary-csv``). Scripts written for Vela read every numeric column with ``float()``, so the
cells that count are those Vela fills with a number: one of ours is *empty* when it is not a
number, and *differs* when it is more than 1 % away from Vela's (an exact 0 must be 0). Goal
(issue 23, section 4): no empty cell, every cell within 1 %. Columns that are not numbers
(names, storage areas) are compared for equality.
"""
from __future__ import annotations

import argparse
import csv
import math
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "tests" / "data" / "vela"))

import compile_time as ct  # noqa: E402  (configs, the user's npu-opt and Vela commands)
from make_reports import MODELS as DATA_MODELS  # noqa: E402  (tests/data models Vela maps)

TOLERANCE = 0.01
"""Relative, of Vela's value."""


def as_number(text: str) -> float | None:
    """``text`` as ``float()`` reads it, or None (empty, not a number, NaN)."""
    try:
        value = float(text)
    except ValueError:
        return None
    return None if math.isnan(value) else value


def vela_row(vela: str, model: Path, config: str) -> dict[str, str] | None:
    """Vela's summary row (legacy core, Performance), or None when Vela refuses the model."""
    with tempfile.TemporaryDirectory() as out:
        command = ct.vela_command(vela, model, config, out) + ["--debug-force-legacy-core", "--optimise",
                                                               "Performance"]
        done = subprocess.run(command, capture_output=True, text=True)
        found = list(Path(out).glob("*_summary_*.csv"))
        if done.returncode != 0 or not found:
            return None
        return next(csv.DictReader(found[0].open(encoding="utf-8")))


def our_row(model: Path, config: str) -> dict[str, str] | str:
    """npu-opt's summary row on Vela's schedule, or the last line of its error."""
    with tempfile.TemporaryDirectory() as tmp:
        summary = Path(tmp) / "summary.csv"
        done = subprocess.run(ct.npu_opt_command(model, config, "schedule{optimise=Performance}")
                              + [f"--summary-csv={summary}"], capture_output=True, text=True)
        if done.returncode != 0 or not summary.exists():
            return (done.stderr.strip().splitlines() or ["no output"])[-1][:200]
        return next(csv.DictReader(summary.open(encoding="utf-8")))


def compare(vela: dict[str, str], ours: dict[str, str]) -> tuple[int, list[str], list[tuple[str, str, str]]]:
    """(cells Vela fills with a number, columns empty in ours, (column, Vela's, ours) that differ)."""
    filled, empty, differ = 0, [], []
    for column, theirs in vela.items():
        reference = as_number(theirs)
        mine = ours.get(column, "")
        if reference is None:
            if theirs and mine != theirs:
                differ.append((column, theirs, mine))
            continue
        filled += 1
        value = as_number(mine)
        if value is None:
            empty.append(column)
        elif abs(value - reference) > TOLERANCE * abs(reference):
            differ.append((column, theirs, mine))
    return filled, empty, differ


def _pct(ours: str, vela: str) -> str:
    a, b = as_number(ours), as_number(vela)
    if a is None or b is None or b == 0:
        return ""
    return f"{100 * (a - b) / b:+.1f} %"


def main(argv: list[str] | None = None) -> int:
    parser = ct.corpus_arguments(__doc__, HERE / "SUMMARY_CSV_FIDELITY.md")
    parser.set_defaults(configs="A,B")
    parser.add_argument("--data-models", default=",".join(DATA_MODELS))
    args = parser.parse_args(argv)
    vela = ct.require_vela("summary_csv_fidelity.py")
    if vela is None:
        return 1
    models = []
    if args.corpus.is_dir():
        models += [args.corpus / "models" / f"{m}.tflite" for m in args.models.split(",") if m]
    models += [ROOT / "tests" / "data" / f"{m}.tflite" for m in args.data_models.split(",") if m]
    configs = [c for c in args.configs.split(",") if c]
    rows, details, refused, failed = [], [], [], []
    totals = Counter()
    empty_by_column: Counter = Counter()
    differ_by_column: Counter = Counter()
    for model in models:
        for config in configs:
            reference = vela_row(vela, model, config)
            if reference is None:
                refused.append(f"{model.stem} {config}")
                continue
            ours = our_row(model, config)
            if isinstance(ours, str):
                failed.append(f"{model.stem} {config}: {ours}")
                continue
            filled, empty, differ = compare(reference, ours)
            totals.update(rows=1, filled=filled, empty=len(empty), differ=len(differ))
            empty_by_column.update(empty)
            differ_by_column.update(column for column, _, _ in differ)
            rows.append(f"| {model.stem} | {config} | {filled} | {len(empty)} | {len(differ)} |")
            for column, theirs, mine in differ:
                details.append(f"| {model.stem} | {config} | {column} | {theirs} | {mine} | {_pct(mine, theirs)} |")
            print(f"{model.stem} {config}: {filled} cells, {len(empty)} empty, {len(differ)} differ", flush=True)
    lines = [
        "# --summary-csv beside Vela's summary CSV",
        "",
        "`python bench/summary_csv_fidelity.py` (" + ", ".join(f"{k}: {' '.join(ct.CONFIGS[k])}" for k in configs)
        + "). Vela 5.2 legacy core, `--optimise Performance`; npu-opt `--pass=schedule{optimise=Performance}`. "
        "A cell counts when Vela fills it with a number; ours is empty when `float()` cannot read it, and "
        "differs when more than 1 % from Vela's. Goal: 0 empty, 0 differing.",
        "",
        f"**{totals['rows']} rows, {totals['filled']:,} numeric cells of Vela's: {totals['empty']} empty in ours, "
        f"{totals['differ']} differ by more than 1 %.**",
        "",
        "| model | config | Vela's numeric cells | empty in ours | differ > 1 % |",
        "|---|---|---:|---:|---:|",
        *rows,
        "",
        "## By column",
        "",
        "| column | empty in ours | differ > 1 % |",
        "|---|---:|---:|",
        *(f"| {c} | {empty_by_column[c]} | {differ_by_column[c]} |"
          for c in sorted(set(empty_by_column) | set(differ_by_column))),
        "",
        "## Cells that differ",
        "",
        "| model | config | column | Vela | ours | ours vs Vela |",
        "|---|---|---|---:|---:|---:|",
        *details,
        "",
    ]
    if refused:
        lines += ["Vela refuses: " + ", ".join(refused), ""]
    if failed:
        lines += ["npu-opt fails:", "", *(f"- {f}" for f in failed), ""]
    args.out.write_text("\n".join(lines), encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
