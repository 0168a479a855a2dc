"""Measure TFLite import and export time per ../shared/corpus model and write bench/TFLITE_IO.md.

    python bench/tflite_io.py [--repeat 5] [--corpus DIR]

Import is bytes -> verified-ready IR (``import_tflite``); export is IR -> flatbuffer bytes
(``export_tflite``); print is IR -> text with the blobs' hex trailer. Each figure is the median
of ``--repeat`` runs in one warm process (imports and the lark grammar are loaded first), so it
is the translation's own cost, not Python's start-up.
"""
from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import bench_inputs as bi  # noqa: E402  (the inputs check every bench shares)
import compile_time as ct  # noqa: E402  (the corpus's models)
import npu_opt.dialects  # noqa: E402,F401
from npu_opt.ir.printer import print_op  # noqa: E402
from npu_opt.dialects.tfl.tflite import export_tflite, import_tflite  # noqa: E402


def median_ms(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        fn()
        times.append(time.perf_counter() - began)
    return statistics.median(times) * 1000


def synthetic_model(layers: int = 4, width: int = 2560) -> bytes:
    """A chain of int8 fully connected layers whose weights total about 26 MB (4 x 2560 x 2560)."""
    import numpy as np

    from npu_opt.ir.parser import parse_module

    rng = np.random.default_rng(0)
    act = "!quant.uniform<i8:f32, 0.0625>"
    wq = "!quant.uniform<i8<-127:127>:f32:0, {" + ",".join(["0.0078125"] * width) + "}>"
    lines = [f"func.func @main(%arg0: tensor<1x{width}x{act}>) -> tensor<1x{width}x{act}> {{"]
    value = "%arg0"
    for index in range(layers):
        weights = rng.integers(-127, 128, size=(width, width), dtype=np.int8).tobytes().hex().upper()
        lines.append(f'  %w{index} = "tfl.pseudo_qconst"() <{{qtype = tensor<{width}x{width}x{wq}>, value = '
                     f'dense<"0x{weights}"> : tensor<{width}x{width}xi8>}}> : () -> tensor<{width}x{width}x{wq}>')
        lines.append(f'  %n{index} = "tfl.no_value"() <{{value}}> : () -> none')
        lines.append(f'  %y{index} = "tfl.fully_connected"({value}, %w{index}, %n{index}) <{{fused_activation_function = '
                     f'"NONE", keep_num_dims = false, weights_format = "DEFAULT"}}> : (tensor<1x{width}x{act}>, '
                     f'tensor<{width}x{width}x{wq}>, none) -> tensor<1x{width}x{act}>')
        value = f"%y{index}"
    lines.append(f"  return {value} : tensor<1x{width}x{act}>\n}}")
    return export_tflite(parse_module("\n".join(lines), "synthetic.mlir"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--corpus", type=Path, default=bi.default_corpus() / "models",
                        help="the corpus's models/ directory")
    parser.add_argument("-o", dest="output", type=Path, default=HERE / "TFLITE_IO.md")
    args = parser.parse_args(argv)
    if not bi.inputs_present("tflite_io.py", args.output, [args.corpus / f"{m}.tflite" for m in ct.MODELS]):
        return 1
    models = sorted(args.corpus / f"{m}.tflite" for m in ct.MODELS)
    rows = []
    inputs = [(path.stem, path.read_bytes()) for path in models]
    inputs.append(("synthetic_fc_26mb", synthetic_model()))
    for stem, data in inputs:
        module = import_tflite(data, stem)
        ops = sum(1 for op in module.walk() if op.name.startswith("tfl.")
                  and op.name not in ("tfl.pseudo_const", "tfl.pseudo_qconst", "tfl.no_value"))
        imp = median_ms(lambda: import_tflite(data, stem), args.repeat)
        exp = median_ms(lambda: export_tflite(module), args.repeat)
        prt = median_ms(lambda: print_op(module), args.repeat)
        rows.append((stem, len(data), ops, imp, exp, prt, len(data) / 1e6 / (imp / 1000)))
        print(f"{stem:<24} {len(data):>10,} B {ops:>4} ops  import {imp:7.1f} ms  export {exp:7.1f} ms"
              f"  print {prt:7.1f} ms")
    lines = [
        "# TFLite import and export times",
        "",
        f"`python bench/tflite_io.py` on the ../shared/corpus models: median of {args.repeat} runs in one warm",
        f"process (Python {platform.python_version()}, {platform.machine()}). Import is `.tflite` bytes to IR",
        "(constants over 64 bytes are zero-copy `dense_resource` views of the file), export is IR to",
        "flatbuffer bytes, print is IR to text including the blobs' hex trailer. Operators exclude",
        "constants and tfl.no_value. `synthetic_fc_26mb` is made by the script: four int8 fully connected layers of",
        "2560 x 2560 weights (26 MB), to show the cost does not grow with the weights' size.",
        "",
        "| model | bytes | operators | import ms | export ms | print ms | import MB/s |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, size, ops, imp, exp, prt, rate in rows:
        lines.append(f"| {name} | {size:,} | {ops} | {imp:.1f} | {exp:.1f} | {prt:.1f} | {rate:.0f} |")
    lines.append("")
    args.output.write_text("\n".join(lines))
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
