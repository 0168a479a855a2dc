"""Compile more tests/data models with Vela 5.2, for the command-stream simulator's tests
(interpreters/ethosu): LUT activations, every elementwise mode, the built-in tanh and sigmoid,
32-bit feature maps, reduce-sum, int16, resize, strides, dilations and the two-core U65-512
beyond what tests/data/vela/compiled covers, by the legacy core (``<model>.<config>.tflite``)
and by Vela's default C++ core (``<model>.<config>.default.tflite``), whose streams order and
use the registers otherwise.

Two source models live here, in sources/ (written first, from MLIR text as tests/data's are):
a stride-4 AVERAGE_POOL over 4 and over 16 channels, which Vela's legacy core turns into a
convolution whose weights hold one input channel (docs/simulator_design.md, Validation).

    python tests/data/vela/simulator/make_models.py           # write the .tflite files here
    python tests/data/vela/simulator/make_models.py --check   # exit 1 if a committed file differs

Vela is a tool here, never a dependency of the tests.
"""
from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # (tests/data: vela_cli)
from vela_cli import find_vela, script_arguments, write_or_check  # noqa: E402

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
SOURCES = HERE / "sources"
STRIDED_POOLS = {"strided_pool4": 4, "strided_pool16": 16}
"""Source models of sources/: an 8x5 average pool of stride 4 over a 9x5 IFM of this many channels."""
BUILDS += [(model, "u55-128") for model in STRIDED_POOLS]
DEFAULT_CORE += [(model, "u55-128") for model in STRIDED_POOLS]


def strided_pool(channels: int) -> bytes:
    """The source model of a strided average pool (stride 4 and more: Vela's legacy core's
    convolution) over ``channels`` channels, exported by npu-opt."""
    sys.path.insert(0, str(DATA))
    import make_models as data_models  # (tests/data's generator: its MLIR helpers)
    from npu_opt.dialects.tfl.tflite import export_tflite
    from npu_opt.ir.parser import parse_module

    quant = data_models.q8(0.0625, -3)
    ifm = data_models.t((1, 9, 5, channels), quant)
    func = data_models.Func("main", [("x", ifm)], None)
    pooled = func.op("tfl.average_pool_2d", [("%arg0", ifm)], [data_models.t((1, 1, 1, channels), quant)],
                     'filter_height = 8 : i32, filter_width = 5 : i32, fused_activation_function = "NONE", '
                     'padding = "VALID", stride_h = 4 : i32, stride_w = 4 : i32', "pool")[0]
    return export_tflite(parse_module(data_models.module(func.text([pooled])), "strided_pool.mlir"))


def source_of(model: str) -> Path:
    """The source model: tests/data's, or sources/'s."""
    return SOURCES / f"{model}.tflite" if model in STRIDED_POOLS else DATA / f"{model}.tflite"


def build(vela: str, model: str, config: str, legacy: bool, work: Path) -> bytes:
    accel, system, mode = CONFIGS[config]
    out = work / f"{model}-{config}-{'legacy' if legacy else 'default'}"
    core = ["--debug-force-legacy-core"] if legacy else []
    command = [vela, *core, "--optimise", "Performance", "--config", "Arm/vela.ini",
               "--accelerator-config", accel, "--system-config", system, "--memory-mode", mode,
               "--output-format", "tflite", "--output-dir", str(out), str(source_of(model))]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"vela failed on {model} ({config}), exit {done.returncode}:\n{done.stderr}")
    return (out / f"{model}_vela.tflite").read_bytes()


def main() -> int:
    args = script_arguments(__doc__)
    vela = find_vela(args.vela, "make_models.py")
    if vela is None:
        return 1
    SOURCES.mkdir(exist_ok=True)
    outputs = {f"{SOURCES.name}/{model}.tflite": strided_pool(channels) for model, channels in STRIDED_POOLS.items()}
    with tempfile.TemporaryDirectory() as tmp:
        runs = [(model, config, True) for model, config in BUILDS]
        runs += [(model, config, False) for model, config in DEFAULT_CORE]
        for model, config, legacy in runs:
            outputs[f"{model}.{config}{'' if legacy else '.default'}.tflite"] = build(vela, model, config, legacy,
                                                                                   Path(tmp))
    return write_or_check(outputs, HERE, args.check)


if __name__ == "__main__":
    sys.exit(main())
