"""Compile the tests/data models whose Size schedule cascades with Vela 5.2's legacy core and keep
its .tflite outputs: streams whose ops run in interleaved stripes through rolling buffers, which
ethosu-estimate puts back together (tests/unit/passes/test_ethosu_estimate.py).

    python tests/data/vela/cascaded/make_cascaded.py           # write <model>.<config>.tflite
    python tests/data/vela/cascaded/make_cascaded.py --check   # exit 1 if a committed output differs

Each run is ``vela --debug-force-legacy-core --optimise Size`` with the config's accelerator,
system config and memory mode (Vela's built-in Arm/vela.ini). Vela is a tool here, never a
dependency of the tests.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # (tests/data: vela_cli)
from vela_cli import find_vela  # noqa: E402

HERE = Path(__file__).resolve().parent
DATA = HERE.parents[1]
CONFIGS: dict[str, tuple[str, str, str]] = {
    "u55-128": ("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram"),
    "u65-256": ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram"),
}
MODELS = ("wide_image", "fire")
"""tests/data models our Size schedule cascades (so does Vela's)."""


def compile_one(vela: str, model: str, config: str, work: Path) -> bytes:
    accel, system, mode = CONFIGS[config]
    out = work / f"{model}-{config}"
    subprocess.run([vela, "--debug-force-legacy-core", "--optimise", "Size", "--accelerator-config", accel,
                    "--system-config", system, "--memory-mode", mode, "--output-dir", str(out),
                    str(DATA / f"{model}.tflite")], check=True, capture_output=True)
    return (out / f"{model}_vela.tflite").read_bytes()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed files instead")
    parser.add_argument("--vela", default="vela", help="the vela executable")
    args = parser.parse_args(argv)
    vela = find_vela(args.vela, "make_cascaded.py")
    if vela is None:
        return 1
    differ = 0
    with tempfile.TemporaryDirectory() as work:
        for model in MODELS:
            for config in CONFIGS:
                data = compile_one(vela, model, config, Path(work))
                path = HERE / f"{model}.{config}.tflite"
                if args.check:
                    if not path.exists() or path.read_bytes() != data:
                        print(f"{path.name} differs from Vela's output")
                        differ += 1
                else:
                    path.write_bytes(data)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
