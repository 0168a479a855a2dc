"""Run Vela (legacy core, Performance) on a few tests/data models and keep its summary CSV rows.

    python tests/data/vela/make_summaries.py

Vela is a development tool here, never a dependency of the tests: the committed
``summaries.csv`` beside this script holds, per model and config, the row of the
``<model>_summary_<system_config>.csv`` Vela writes (its columns as Vela names them, after
``model``, ``config`` and the model's ``sha256``), so tests/unit/tools/test_summary_csv_vela.py can
set ``npu-opt --summary-csv`` beside it cell by cell without Vela.

Each run is ``vela --debug-force-legacy-core --optimise Performance --config Arm/vela.ini
--accelerator-config A --system-config S --memory-mode M`` (configs as make_reports.py names them).
"""
from __future__ import annotations

import csv
import hashlib
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE.parent
sys.path.insert(0, str(HERE))

from make_reports import CONFIGS  # noqa: E402  (report config name -> accelerator, system, memory mode)

MODELS: tuple[str, ...] = ("conv", "classifier", "kernels", "weight_stream")
"""Models whose summaries are kept: small, with and without weight streaming."""

SUMMARY_CONFIGS: tuple[str, ...] = ("u55-128", "u65-256")
"""The benches' configs A (weights in off-chip flash) and B (weights in DRAM, dedicated SRAM)."""

OUT = HERE / "summaries.csv"


def vela_summary(vela: str, model: Path, config: str) -> dict[str, str]:
    """Vela's summary row for ``model`` on ``config``."""
    accel, system, memory = CONFIGS[config]
    with tempfile.TemporaryDirectory() as out:
        command = [vela, str(model), "--output-dir", out, "--config", "Arm/vela.ini", "--accelerator-config", accel,
                   "--system-config", system, "--memory-mode", memory, "--debug-force-legacy-core",
                   "--optimise", "Performance"]
        done = subprocess.run(command, capture_output=True, text=True)
        found = list(Path(out).glob("*_summary_*.csv"))
        if done.returncode != 0 or not found:
            raise SystemExit(f"make_summaries.py: vela failed on {model.name} {config}: {done.stderr.strip()[-300:]}")
        return next(csv.DictReader(found[0].open(encoding="utf-8")))


def main() -> int:
    vela = shutil.which("vela")
    if vela is None:
        print("make_summaries.py: 'vela' is not on PATH (pip install ethos-u-vela==5.2.0)", file=sys.stderr)
        return 1
    rows = []
    for name in MODELS:
        model = DATA / f"{name}.tflite"
        digest = hashlib.sha256(model.read_bytes()).hexdigest()
        for config in SUMMARY_CONFIGS:
            rows.append({"model": name, "config": config, "sha256": digest, **vela_summary(vela, model, config)})
    with OUT.open("w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    print(f"wrote {OUT} ({len(rows)} rows)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
