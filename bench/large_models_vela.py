"""Vela 5.2's legacy-core figures for bench/large_models.py's models; writes bench/large_models_vela.json.

    python bench/large_models_vela.py [--configs A,B,C] [--models m1,m2] [--jobs N]

Per model, config (bench/perf_fidelity.py's A, B, C) and strategy (Performance, Size) this runs

    vela --debug-force-legacy-core --accelerator-config ACCEL --system-config SYS --memory-mode MODE
         --optimise STRATEGY --output-dir TMP MODEL.tflite

and keeps, from Vela's summary CSV, the columns bench/schedule_fidelity.py compares (total and NPU
cycles, SRAM used, DRAM and off-chip flash bytes) and the CPU operator count Vela prints, in
records shaped as ../shared/corpus/vela_baseline.json's, so the bench compares without Vela.
Needs ``ethos-u-vela==5.2.0``. Rows already in the JSON are kept unless named again.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import csv
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_inputs as bi  # noqa: E402  (the inputs check every bench shares)
import large_models  # noqa: E402
import perf_fidelity  # noqa: E402

OUT = HERE / "large_models_vela.json"
KEPT = ("cycles_total", "cycles_npu", "sram_memory_used", "dram_total_bytes", "off_chip_flash_total_bytes")


def run(model: Path, config: str, strategy: str) -> dict[str, object]:
    """One Vela compile's record: its summary columns, or its last error line."""
    accel, system, mode = perf_fidelity.CONFIGS[config]
    record: dict[str, object] = {"model": model.stem, "config": config, "optimise": strategy,
                                 "compiler_core": "legacy"}
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(["nice", "-n", "10", "vela", "--debug-force-legacy-core", "--accelerator-config", accel,
                               "--system-config", system, "--memory-mode", mode, "--optimise", strategy,
                               "--output-dir", tmp, str(model)], capture_output=True, text=True)
        summaries = list(Path(tmp).glob("*_summary_*.csv"))
        if done.returncode != 0 or not summaries:
            record.update(status="error", error=((done.stderr or done.stdout).strip().splitlines() or ["?"])[-1])
            return record
        row = next(csv.DictReader(summaries[0].open(encoding="utf-8")))
        cpu = re.search(r"CPU operators = (\d+)", done.stdout)
        record.update(status="ok", cpu_operators=int(cpu.group(1)) if cpu else None,
                      summary_csv_raw={k: row[k] for k in KEPT})
    return record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--configs", default="A,B,C")
    parser.add_argument("--models", default=",".join(large_models.MODELS))
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    if not bi.inputs_present("large_models_vela.py", OUT, tools=["vela"]):
        return 1
    version = subprocess.run(["vela", "--version"], capture_output=True, text=True).stdout.strip()
    paths = large_models.write(large_models.DEFAULT_OUT, args.models.split(","))
    jobs = [(paths[m], c, s) for m in args.models.split(",") for c in args.configs.split(",")
            for s in ("Performance", "Size")]
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        fresh = list(pool.map(lambda job: run(*job), jobs))
    old = json.loads(OUT.read_text(encoding="utf-8"))["records"] if OUT.exists() else []
    key = lambda r: (r["model"], r["config"], r["optimise"])  # noqa: E731
    merged = {key(r): r for r in old} | {key(r): r for r in fresh}
    OUT.write_text(json.dumps({"vela_version": version, "records": sorted(merged.values(), key=key)}, indent=1)
                   + "\n", encoding="utf-8")
    for r in fresh:
        print(r["model"], r["config"], r["optimise"], r["status"], r.get("summary_csv_raw", r.get("error")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
