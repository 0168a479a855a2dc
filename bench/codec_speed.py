"""The weight codec's speed beside Vela's ``mlw_codec.encode`` (C); writes bench/CODEC_SPEED.md.

    python bench/codec_speed.py [--corpus DIR] [--rounds N] [--out FILE]

Inputs: the reordered weight streams of every weighted op of each ../shared/corpus model (lowered
by npu-legalize for an ethos-u55-128 and ethos-u65-512, each core's full-depth stream as the
estimate encodes it), and random Gaussian weights (sigma 20) in streams of a few lengths. Each
round times, back to back and in alternating order, ``encode_stream`` on every stream (numpy
array in, bytes out: palette sections, symbols, the C search and bit packing) and
``mlw_codec.encode`` on the same streams given as the Python lists it takes (made before timing,
so the lists cost it nothing). Both outputs are compared byte for byte once. The table shows
each side's median over the rounds of weights per second of process CPU time, and the median of
the per-round ratios (a paired comparison: both sides of a round see the same machine load).
"""
from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

from npu_opt.tools.blas_threads import single_threaded_blas

single_threaded_blas()  # (before numpy loads: one BLAS thread, as npu-opt runs)

import numpy as np  # noqa: E402

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import bench_inputs as bi  # noqa: E402  (the inputs check every bench shares)

OUT = HERE / "CODEC_SPEED.md"
TARGETS = ("ethos-u55-128", "ethos-u65-512")
RANDOM_LENGTHS = (256, 4096, 65536, 1 << 20)
RANDOM_WEIGHTS = 1 << 21
"""Weights per random case (streams of one length, as many as make this total)."""


def model_streams(path: Path, target: str) -> list[np.ndarray]:
    """Each core's full-depth reordered weight stream of every weighted op of the model."""
    import npu_opt.passes  # noqa: F401  (registers the passes)
    from npu_opt.dialects.npu.perf.ir_adapter import describe_op, is_costed, module_of, op_weights_hwio, target_of
    from npu_opt.dialects.tfl.tflite import import_tflite
    from npu_opt.hardware.codec.weight_size import WeightEncoder
    from npu_opt.ir.diagnostics import DiagnosticEngine, SourceManager
    from npu_opt.ir.pass_manager import PassManager
    from npu_opt.ir.pass_registry import parse_pipeline
    from npu_opt.tools.api import set_target

    module = set_target(import_tflite(path.read_bytes(), path.stem), target)
    PassManager(parse_pipeline("npu-legalize"), DiagnosticEngine(SourceManager())).run(module)
    streams = []
    for op in module.walk():
        hwio = op_weights_hwio(op) if is_costed(op) else None
        if hwio is None:
            continue
        desc = describe_op(op, target_of(module_of(op)))
        encoder = WeightEncoder(hwio, target_of(module_of(op)).accelerator, desc.block_type, desc.ifm.bits, 16,
                                (desc.kernel.dilation_x, desc.kernel.dilation_y))
        for part in encoder.parts((0, encoder.depth)):
            streams.append(encoder.stream(*part))
    return streams


def random_streams(length: int, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    count = max(1, RANDOM_WEIGHTS // length)
    return [np.clip(np.round(rng.normal(0, 20, length)), -255, 255).astype(np.int16) for _ in range(count)]


def timed(run) -> float:
    """Process CPU seconds of ``run()``."""
    start = time.process_time()
    run()
    return time.process_time() - start


def compare(streams: list[np.ndarray], rounds: int) -> dict[str, float]:
    """Paired timing of both encoders on ``streams`` (checked equal first)."""
    from ethosu import mlw_codec
    from npu_opt.hardware.codec.weight_encoding import encode_stream

    lists = [s.tolist() for s in streams]
    ours = [encode_stream(s) for s in streams]
    theirs = [mlw_codec.encode(values) for values in lists]
    if ours != theirs:
        bad = next(i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b)
        raise SystemExit(f"codec_speed: stream {bad} ({len(streams[bad])} weights) encodes differently")
    weights = sum(len(s) for s in streams)
    ours_rate, vela_rate, ratios = [], [], []
    for index in range(rounds):
        sides = [("ours", lambda: [encode_stream(s) for s in streams]),
                 ("vela", lambda: [mlw_codec.encode(values) for values in lists])]
        if index % 2:
            sides.reverse()
        seconds = {name: timed(run) for name, run in sides}
        ours_rate.append(weights / seconds["ours"])
        vela_rate.append(weights / seconds["vela"])
        ratios.append(seconds["vela"] / seconds["ours"])
    return {"streams": len(streams), "weights": weights, "ours": statistics.median(ours_rate),
            "vela": statistics.median(vela_rate), "ratio": statistics.median(ratios), "min_ratio": min(ratios)}


def _row(name: str, result: dict[str, float]) -> str:
    return (f"| {name} | {result['streams']:,} | {result['weights']:,} | {result['ours'] / 1e6:.2f} | "
            f"{result['vela'] / 1e6:.2f} | {result['ratio']:.2f} | {result['min_ratio']:.2f} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=bi.default_corpus())
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    models = sorted((args.corpus / "models").glob("*.tflite"))
    if not bi.inputs_present("codec_speed.py", args.out, [args.corpus / "models"]):
        return 1
    if not models:
        print(f"codec_speed.py: missing input: no .tflite model in '{args.corpus / 'models'}'; nothing written to "
              f"{args.out} ({bi.CORPUS_HINT})", file=sys.stderr)
        return 1
    try:
        from ethosu import mlw_codec  # noqa: F401
    except ImportError:
        print(f"codec_speed.py: missing input 'ethosu.mlw_codec' (pip install ethos-u-vela==5.2.0); nothing "
              f"written to {args.out}", file=sys.stderr)
        return 1
    lines = []
    header = ["| streams | count | weights | ours (M weights/s) | mlw_codec.encode (M weights/s) | "
              "speed-up (median) | speed-up (worst round) |", "|---|---:|---:|---:|---:|---:|---:|"]
    everything: list[np.ndarray] = []
    lines += ["## Corpus models' weight streams", ""] + header
    for target in TARGETS:
        for model in models:
            streams = model_streams(model, target)
            everything += streams
            lines.append(_row(f"{model.stem} ({target})", compare(streams, args.rounds)))
            print(lines[-1], flush=True)
    lines.append(_row("**all of them**", compare(everything, args.rounds)))
    print(lines[-1], flush=True)
    lines += ["", "## Random weights (Gaussian, sigma 20)", ""] + header
    for length in RANDOM_LENGTHS:
        lines.append(_row(f"{length:,} weights each", compare(random_streams(length, length), args.rounds)))
        print(lines[-1], flush=True)
    text = ["# Weight codec speed", "",
            "Written by `python bench/codec_speed.py` (its docstring says how it measures). Weights per",
            "second of CPU time, npu-opt's `encode_stream` (bytes identical to Vela's) beside Vela 5.2's",
            f"`mlw_codec.encode`, medians of {args.rounds} paired rounds; the speed-up is mlw_codec's time",
            f"over ours. {platform.processor() or platform.machine()}, Python {platform.python_version()}, "
            f"{time.strftime('%Y-%m-%d')}. The corpus models carry untrained weights (close to 8 bits each,",
            "few zeros); the random streams are narrower.", ""] + lines
    args.out.write_text("\n".join(text) + "\n", encoding="utf-8")
    print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
