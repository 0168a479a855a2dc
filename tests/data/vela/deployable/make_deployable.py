"""Compile the tests/data models with Vela 5.2's legacy core and keep its .tflite outputs, which
npu-opt's ``compile`` output is compared with byte for byte (tests/unit/passes/codegen/test_deployable.py).

    python tests/data/vela/deployable/make_deployable.py           # every model Vela compiles, both configs
    python tests/data/vela/deployable/make_deployable.py --check   # exit 1 if a committed output differs

Each run is ``vela --debug-force-legacy-core --optimise Performance`` with a config's accelerator,
system config and memory mode (Vela's built-in Arm/vela.ini); the output is kept as
``<model>.<config>.tflite``. The five models of tests/data/vela/compiled are not repeated here.
A model Vela fails on is skipped and listed in ``manifest.json`` with the last line Vela printed.
Vela is a tool here, never a dependency of the tests.
"""
from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # (tests/data: vela_cli)
from vela_cli import CONFIGS, find_vela, script_arguments, vela_tflite, write_or_check  # noqa: E402

HERE = Path(__file__).resolve().parent
DATA = HERE.parents[1]
ELSEWHERE = ("conv", "branches", "cpu_middle", "two_outputs", "weight_stream")
"""Models whose outputs tests/data/vela/compiled already keeps."""
FLAGS = ("--debug-force-legacy-core", "--optimise", "Performance")


def main() -> int:
    args = script_arguments(__doc__)
    vela = find_vela(args.vela, "make_deployable.py")
    if vela is None:
        return 1
    models = sorted(p.stem for p in DATA.glob("*.tflite") if p.stem not in ELSEWHERE)
    outputs: dict[str, bytes] = {}
    failed: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="vela-deployable-") as tmp:
        for model in models:
            for config in CONFIGS:
                found = vela_tflite(vela, FLAGS, config, DATA / f"{model}.tflite", Path(tmp))
                if isinstance(found, str):
                    failed[f"{model}.{config}"] = found
                else:
                    outputs[f"{model}.{config}.tflite"] = found
    version = subprocess.run([vela, "--version"], capture_output=True, text=True).stdout.strip()
    manifest = {
        "vela": version,
        "command": ["vela", *FLAGS, "--accelerator-config", "A", "--system-config", "S", "--memory-mode", "M",
                    "MODEL"],
        "configs": {name: list(value) for name, value in CONFIGS.items()},
        "models": {m: hashlib.sha256((DATA / f"{m}.tflite").read_bytes()).hexdigest() for m in models},
        "files": sorted(outputs),
        "vela_failed": failed,
    }
    outputs["manifest.json"] = (json.dumps(manifest, indent=1) + "\n").encode()
    return write_or_check(outputs, HERE, args.check)


if __name__ == "__main__":
    sys.exit(main())
