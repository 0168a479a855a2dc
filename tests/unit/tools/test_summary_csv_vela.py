"""``--summary-csv`` beside Vela's own summary CSV (tests/data/vela/summaries.csv, written by
make_summaries.py): on Vela's schedule every cell Vela fills with a number is a number in ours,
and within 1 % of Vela's, but for the gaps ``KNOWN_GAPS`` names."""
from __future__ import annotations

import csv
import hashlib
import math
import os
from pathlib import Path

import pytest

from npu_opt.tools.npu_opt import main

ROOT = Path(__file__).resolve().parents[3]
DATA = ROOT / "tests" / "data"
SUMMARIES = DATA / "vela" / "summaries.csv"
CONFIGS = {"u55-128": ("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram"),
           "u65-256": ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram")}
TOLERANCE = 0.01

KNOWN_GAPS: dict[str, str] = {
    "off_chip_flash_memory_used": "Vela's permanent storage also holds its command stream, which npu-opt "
                                  "does not generate",
    "dram_memory_used": "as off_chip_flash_memory_used, where the weights live in DRAM",
}
"""Columns that may differ from Vela's by more than 1 % (never be empty), and why."""

EXTRA_GAPS: dict[tuple[str, str], set[str]] = {
    ("weight_stream", "u55-128"): {"sram_memory_used"},  # bench/FIDELITY_BEYOND_CORPUS.md: double-buffered streams
    ("weight_stream", "u65-256"): {"sram_memory_used"},
}
"""Rows whose schedule's SRAM differs from Vela's for a traced cause."""


def _rows() -> list[dict[str, str]]:
    with SUMMARIES.open(encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _number(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return None if math.isnan(value) else value


@pytest.mark.parametrize("vela", _rows(), ids=lambda row: f"{row['model']}-{row['config']}")
def test_summary_csv_cells_equal_velas(vela: dict[str, str], tmp_path):
    model = DATA / f"{vela['model']}.tflite"
    assert hashlib.sha256(model.read_bytes()).hexdigest() == vela["sha256"], \
        "the model changed since its Vela summary was made: rerun tests/data/vela/make_summaries.py"
    accel, system, memory = CONFIGS[vela["config"]]
    out = tmp_path / "summary.csv"
    assert main([str(model), "--pass=schedule{optimise=Performance}", f"--target={accel}",
                 f"--system-config={system}", f"--memory-mode={memory}", f"--summary-csv={out}",
                 "-o", os.devnull]) == 0
    with out.open(encoding="utf-8") as f:
        ours = next(csv.DictReader(f))
    exempt = set(KNOWN_GAPS) | EXTRA_GAPS.get((vela["model"], vela["config"]), set())
    empty, differ = [], []
    for column, theirs in vela.items():
        if column in ("model", "config", "sha256"):
            continue
        reference = _number(theirs)
        if reference is None:
            assert ours[column] == theirs, column
            continue
        value = _number(ours[column])
        if value is None:
            empty.append(column)
        elif abs(value - reference) > TOLERANCE * abs(reference) and column not in exempt:
            differ.append(f"{column}: Vela {theirs}, ours {ours[column]}")
    assert not empty, f"empty where Vela has a number: {empty}"
    assert not differ, "more than 1 % from Vela's: " + "; ".join(differ)
