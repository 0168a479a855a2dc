"""Compile more tests/data models with Vela 5.2, for the command-stream simulator's tests
(interpreters/ethosu): LUT activations, every elementwise mode, the built-in tanh and sigmoid,
32-bit feature maps, reduce-sum, int16, resize, strides, dilations and the two-core U65-512
beyond what tests/data/vela/compiled covers, by the legacy core (``<model>.<config>.tflite``)
and by Vela's default C++ core (``<model>.<config>.default.tflite``), whose streams order and
use the registers otherwise.

    python tests/data/vela/simulator/make_models.py           # write the .tflite files here
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
DEFAULT_CORE = [(model, "u55-128") for model in ("classifier", "data_movement", "dilation", "elementwise",
                                                 "int16_elementwise", "kernels", "resize_bilinear", "stride3")]
DEFAULT_CORE += [("elementwise", "u65-256"), ("classifier", "u65-512"), ("wide_batch", "u55-128")]
"""(model, config) compiled by Vela's default core too."""


def build(vela: str, model: str, config: str, legacy: bool, work: Path) -> bytes:
    accel, system, mode = CONFIGS[config]
    out = work / f"{model}-{config}-{'legacy' if legacy else 'default'}"
    core = ["--debug-force-legacy-core"] if legacy else []
    command = [vela, *core, "--optimise", "Performance", "--config", "Arm/vela.ini",
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
        runs = [(model, config, True) for model, config in BUILDS]
        runs += [(model, config, False) for model, config in DEFAULT_CORE]
        for model, config, legacy in runs:
            data = build(vela, model, config, legacy, Path(tmp))
            target = HERE / f"{model}.{config}{'' if legacy else '.default'}.tflite"
            if args.check:
                if not target.exists() or target.read_bytes() != data:
                    print(f"{target.name}: differs from Vela's output", file=sys.stderr)
                    differ += 1
            else:
                target.write_bytes(data)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
