"""Compile a few tests/data models with Vela 5.2 and keep its deployable outputs as test data.

    python tests/data/vela/compiled/make_compiled.py           # every model x config x core x format
    python tests/data/vela/compiled/make_compiled.py --check   # exit 1 if a committed output differs

For each model and config, Vela writes ``<model>_vela.tflite`` (``--output-format tflite``) and
the .npz files of ``--output-format raw`` (legacy core: ``<model>_vela_sg<N>.npz``, one per CPU
subgraph; default core: ``<model>_vela.npz``). They are kept here as
``<model>.<config>.<core>.tflite`` and ``<model>.<config>.<core>[.sg<N>].npz``. The legacy core
(``--debug-force-legacy-core``) is what npu-opt models; two default-core outputs check that the
reader takes that layout too. ``manifest.json`` records Vela's version, the command line and the
sha256 of each model compiled. Vela is a tool here, never a dependency of the tests.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # (tests/data: vela_cli)
from vela_cli import find_vela, write_or_check  # noqa: E402

HERE = Path(__file__).resolve().parent
DATA = HERE.parents[1]

CONFIGS: dict[str, tuple[str, str, str]] = {
    "u55-128": ("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram"),
    "u65-256": ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram"),
}
"""Config name -> (accelerator, system config, memory mode), as in tests/data/vela/make_reports.py."""

MODELS = ("conv", "branches", "cpu_middle", "two_outputs", "weight_stream")
"""Models compiled with the legacy core for every config."""

DEFAULT_CORE = (("conv", "u55-128"), ("cpu_middle", "u65-256"))
"""(model, config) pairs also compiled with Vela's default (C++) core."""

CORE_FLAGS = {"legacy": ("--debug-force-legacy-core",), "default": ()}
COMMON_FLAGS = ("--optimise", "Performance", "--config", "Arm/vela.ini")


def compile_one(vela: str, model: str, config: str, core: str, fmt: str, work: Path) -> dict[str, bytes]:
    """Vela's output files for one run, renamed to their committed names."""
    accel, system, mode = CONFIGS[config]
    out = work / f"{model}-{config}-{core}-{fmt}"
    command = [vela, *CORE_FLAGS[core], *COMMON_FLAGS, "--accelerator-config", accel,
               "--system-config", system, "--memory-mode", mode, "--output-format", fmt,
               "--output-dir", str(out), str(DATA / f"{model}.tflite")]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"vela failed on {model} ({config}, {core}, {fmt}), exit {done.returncode}:\n"
                           f"{done.stderr}")
    found: dict[str, bytes] = {}
    stem = f"{model}.{config}.{core}"
    if fmt == "tflite":
        found[f"{stem}.tflite"] = (out / f"{model}_vela.tflite").read_bytes()
    else:
        for path in sorted(out.glob(f"{model}_vela*.npz")):
            part = path.name[len(f"{model}_vela"):-len(".npz")]
            found[f"{stem}{part.replace('_', '.')}.npz"] = path.read_bytes()
        if not found:
            raise RuntimeError(f"vela wrote no .npz for {model} ({config}, {core})")
    return found


def runs() -> list[tuple[str, str, str]]:
    """Every (model, config, core) compiled."""
    return [(m, c, "legacy") for m in MODELS for c in CONFIGS] + [(m, c, "default") for m, c in DEFAULT_CORE]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed files instead")
    parser.add_argument("--vela", default="vela", help="the vela executable")
    args = parser.parse_args(argv)
    vela = find_vela(args.vela, "make_compiled.py")
    if vela is None:
        return 1
    outputs: dict[str, bytes] = {}
    with tempfile.TemporaryDirectory(prefix="vela-compiled-") as tmp:
        try:
            for model, config, core in runs():
                for fmt in ("tflite", "raw"):
                    outputs.update(compile_one(vela, model, config, core, fmt, Path(tmp)))
        except RuntimeError as err:
            print(f"error: {err}", file=sys.stderr)
            return 1
    version = subprocess.run([vela, "--version"], capture_output=True, text=True).stdout.strip()
    manifest = {
        "vela": version,
        "command": ["vela", "[--debug-force-legacy-core]", *COMMON_FLAGS, "--accelerator-config", "A",
                    "--system-config", "S", "--memory-mode", "M", "--output-format", "tflite|raw", "MODEL"],
        "configs": {name: list(value) for name, value in CONFIGS.items()},
        "models": {m: hashlib.sha256((DATA / f"{m}.tflite").read_bytes()).hexdigest()
                   for m in sorted(set(MODELS) | {m for m, _ in DEFAULT_CORE})},
        "files": sorted(outputs),
    }
    outputs["manifest.json"] = (json.dumps(manifest, indent=1) + "\n").encode()
    return write_or_check(outputs, HERE, args.check)


if __name__ == "__main__":
    sys.exit(main())
