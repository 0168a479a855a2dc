"""Run Vela (legacy core) on the tests/data models and keep its per-layer figures as small CSVs.

    python tests/data/vela/make_reports.py                  # every model x every config
    python tests/data/vela/make_reports.py --models int16   # only some models (names without .tflite)

Vela is a development tool here, never a dependency of the tests: the committed reports
(``<model>.csv`` beside this script, one row per Vela layer and config, in Vela's execution order)
let tests/unit/passes/test_vela_reference.py compare the cost model layer by layer without Vela.
``manifest.json`` records the Vela version, the command line, the configs and each model's sha256,
so the test can tell a stale report from a cost-model drift.

Each run is ``vela --debug-force-legacy-core --verbose-performance --optimise Performance
--config Arm/vela.ini --accelerator-config A --system-config S --memory-mode M``; the figures come
from the ``<model>_per-layer.csv`` Vela writes to its output directory (full precision, unlike the
table it prints).
"""
from __future__ import annotations

import argparse
import csv
import hashlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # (tests/data: vela_cli)
from vela_cli import find_vela  # noqa: E402

HERE = Path(__file__).resolve().parent
DATA = HERE.parent

CONFIGS: dict[str, tuple[str, str, str]] = {
    "u55-32": ("ethos-u55-32", "Ethos_U55_High_End_Embedded", "Shared_Sram"),
    "u55-64": ("ethos-u55-64", "Ethos_U55_High_End_Embedded", "Shared_Sram"),
    "u55-128": ("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram"),
    "u55-256": ("ethos-u55-256", "Ethos_U55_High_End_Embedded", "Shared_Sram"),
    "u65-256": ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram"),
    "u65-512": ("ethos-u65-512", "Ethos_U65_High_End", "Dedicated_Sram"),
    # Weights in off-chip flash on a U65 too (the U55 configs above already keep them there).
    "u65-256-flash": ("ethos-u65-256", "Ethos_U65_Embedded", "Shared_Sram"),
    # A slow core clock and a slower flash; and everything, weights included, in SRAM.
    "u55-64-deep": ("ethos-u55-64", "Ethos_U55_Deep_Embedded", "Shared_Sram"),
    "u65-512-sram-only": ("ethos-u65-512", "Ethos_U65_Mid_End", "Sram_Only"),
}
"""Report config name -> (accelerator, system config, memory mode)."""

MODELS: tuple[str, ...] = (
    "conv", "elementwise", "int16", "dilation", "stride3", "odd_channels", "weight_stream", "classifier",
    "branches", "two_outputs", "cpu_middle", "data_movement", "kernels", "int16_elementwise",
    "resize_bilinear", "wide_batch",
)
"""tests/data models (without .tflite) that Vela maps at least partly to the NPU. Not shape.tflite:
Vela 5.2.0's legacy core stops on an assertion while generating its command stream."""

COLUMNS: dict[str, str] = {
    "tflite_op": "TFLite_operator", "vela_op": "NNG Operator", "name": "Name", "op_cycles": "Op Cycles",
    "npu_cycles": "NPU", "sram_ac": "SRAM AC", "dram_ac": "DRAM AC", "on_chip_flash_ac": "OnFlash AC",
    "off_chip_flash_ac": "OffFlash AC", "macs": "MAC Count",
}
"""Report column -> the column of Vela's per-layer CSV it is copied from."""

VELA_FLAGS = ("--debug-force-legacy-core", "--verbose-performance", "--optimise", "Performance",
              "--config", "Arm/vela.ini")


def sha256(path: Path) -> str:
    """The file's SHA-256, in hex (the manifest ties each report to the model it was made from)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def parse_per_layer(path: Path) -> list[dict[str, str]]:
    """The layers of Vela's ``*_per-layer.csv`` (one header per NPU subgraph, repeated) as report rows."""
    rows: list[dict[str, str]] = []
    header: list[str] | None = None
    for record in csv.reader(path.open(encoding="utf-8")):
        if not record:
            continue
        if record[0] == "TFLite_operator":
            header = record
            continue
        if header is None:
            raise ValueError(f"{path}: a data row comes before any header")
        missing = [name for name in COLUMNS.values() if name not in header]
        if missing:
            raise ValueError(f"{path}: Vela's per-layer CSV has no column {', '.join(missing)}")
        index = {name: header.index(name) for name in COLUMNS.values()}
        rows.append({key: record[index[vela]] for key, vela in COLUMNS.items()})
    return rows


def run_vela(vela: str, model: Path, config: str, workdir: Path) -> list[dict[str, str]]:
    """Vela's per-layer rows for ``model`` compiled for ``config`` (empty if nothing runs on the NPU)."""
    accel, system, mode = CONFIGS[config]
    out = workdir / config
    command = [vela, *VELA_FLAGS, "--accelerator-config", accel, "--system-config", system, "--memory-mode", mode,
               "--output-dir", str(out), str(model)]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"vela failed on {model.name} ({config}), exit {done.returncode}:\n{done.stderr}")
    per_layer = out / f"{model.stem}_per-layer.csv"
    return parse_per_layer(per_layer) if per_layer.exists() else []


def vela_version(vela: str) -> str:
    """``vela --version``'s answer (RuntimeError if it gives none)."""
    done = subprocess.run([vela, "--version"], capture_output=True, text=True)
    if done.returncode != 0 or not done.stdout.strip():
        raise RuntimeError(f"'{vela} --version' failed (exit {done.returncode}): is it Vela?")
    return done.stdout.strip()


def write_report(model: str, rows: list[tuple[str, dict[str, str]]]) -> Path:
    """``<model>.csv``: a config column, then the compared columns, in Vela's layer order."""
    path = HERE / f"{model}.csv"
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["config", *COLUMNS])
        for config, row in rows:
            writer.writerow([config, *(row[key] for key in COLUMNS)])
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", default=",".join(MODELS), help="comma-separated model names")
    parser.add_argument("--configs", default=",".join(CONFIGS), help="comma-separated config names")
    parser.add_argument("--vela", default="vela", help="the vela executable")
    args = parser.parse_args(argv)
    vela = find_vela(args.vela, "make_reports.py")
    if vela is None:
        return 1
    models = [m.strip() for m in args.models.split(",") if m.strip()]
    configs = [c.strip() for c in args.configs.split(",") if c.strip()]
    for name in models:
        if not (DATA / f"{name}.tflite").exists():
            print(f"error: no model tests/data/{name}.tflite", file=sys.stderr)
            return 1
    for name in configs:
        if name not in CONFIGS:
            print(f"error: unknown config '{name}' (known: {', '.join(CONFIGS)})", file=sys.stderr)
            return 1
    manifest_path = HERE / "manifest.json"
    manifest = json.loads(manifest_path.read_text(encoding="utf-8")) if manifest_path.exists() else {}
    try:
        manifest["vela"] = vela_version(vela)
    except RuntimeError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    manifest["command"] = ["vela", *VELA_FLAGS, "--accelerator-config", "A", "--system-config", "S",
                           "--memory-mode", "M", "MODEL"]
    manifest["configs"] = {name: list(value) for name, value in CONFIGS.items()}
    manifest.setdefault("models", {})
    with tempfile.TemporaryDirectory(prefix="vela-reports-") as tmp:
        for name in models:
            model = DATA / f"{name}.tflite"
            try:
                rows = [(config, row) for config in configs for row in run_vela(vela, model, config, Path(tmp))]
            except (RuntimeError, ValueError, KeyError) as err:
                print(f"error: {err}", file=sys.stderr)
                return 1
            if not rows:
                print(f"{name}: no NPU layers, no report")
                continue
            path = write_report(name, rows)
            manifest["models"][name] = sha256(model)
            print(f"wrote {path.relative_to(DATA.parent.parent)} ({len(rows)} layers over {len(configs)} configs)")
    manifest["models"] = dict(sorted(manifest["models"].items()))
    manifest_path.write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
