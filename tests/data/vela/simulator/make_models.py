"""Compile more tests/data models with Vela 5.2's legacy core, for the command-stream simulator's
tests (interpreters/ethosu): LUT activations, every elementwise mode, the built-in tanh and
sigmoid, 32-bit feature maps,
reduce-sum, int16, resize, strides, dilations and the two-core U65-512 beyond what
tests/data/vela/compiled covers.

    python tests/data/vela/simulator/make_models.py           # write <model>.<config>.tflite here
    python tests/data/vela/simulator/make_models.py --check   # exit 1 if a committed file differs

Vela is a tool here, never a dependency of the tests.
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
CONFIGS = {
    "u55-128": ("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram"),
    "u65-256": ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram"),
    "u65-512": ("ethos-u65-512", "Ethos_U65_High_End", "Dedicated_Sram"),
}
BUILDS = [(model, "u55-128") for model in ("classifier", "dilation", "elementwise", "int16", "int16_elementwise",
                                           "kernels", "resize_bilinear", "stride3", "wide_batch")]
BUILDS += [("elementwise", "u65-256"), ("wide_batch", "u65-256")]
BUILDS += [("classifier", "u65-512"), ("weight_stream", "u65-512")]  # two cores: interleaved OFM channels


def build(vela: str, model: str, config: str, work: Path) -> bytes:
    accel, system, mode = CONFIGS[config]
    out = work / f"{model}-{config}"
    command = [vela, "--debug-force-legacy-core", "--optimise", "Performance", "--config", "Arm/vela.ini",
               "--accelerator-config", accel, "--system-config", system, "--memory-mode", mode,
               "--output-format", "tflite", "--output-dir", str(out), str(DATA / f"{model}.tflite")]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"vela failed on {model} ({config}), exit {done.returncode}:\n{done.stderr}")
    return (out / f"{model}_vela.tflite").read_bytes()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed files instead of writing")
    args = parser.parse_args()
    vela = find_vela("vela", "make_models.py")
    if vela is None:
        return 1
    differ = 0
    with tempfile.TemporaryDirectory() as tmp:
        for model, config in BUILDS:
            data = build(vela, model, config, Path(tmp))
            target = HERE / f"{model}.{config}.tflite"
            if args.check:
                if not target.exists() or target.read_bytes() != data:
                    print(f"{target.name}: differs from Vela's output", file=sys.stderr)
                    differ += 1
            else:
                target.write_bytes(data)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
