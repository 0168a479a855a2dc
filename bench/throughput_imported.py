"""Imported-IR inputs of bench/ir_throughput.py: a long int8 conv/depthwise chain written exactly
as ``npu-translate --import-tflite`` prints one (fixed seed).

Each layer is a ``tfl.pseudo_qconst`` for the weights (per-axis ``!quant.uniform`` with one scale
per output channel, bytes in a ``dense_resource`` blob), one for the int32 bias (per-axis, inline
``dense``), and the ``tfl.conv_2d`` or ``tfl.depthwise_conv_2d`` using them, whose signature
spells both constant types again; each op carries its tensor's name as ``loc("...")``. Every layer draws its own scales, so a type spelling recurs
only within its layer: what a per-text cache can save on real models, and no more.
``check_against_importer`` exports a small instance to .tflite and imports it back, to show the
text is the importer's own.
"""
from __future__ import annotations

import random
import struct
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

SEED = 20261124
CHANNELS = 8
SIDE = 16


def _f32(value: float) -> float:
    """``value`` rounded to float32, as the importer reads scales from the flatbuffer."""
    return struct.unpack("<f", struct.pack("<f", value))[0]


def _per_axis(storage: str, axis: int, scales: list[float]) -> str:
    return f"!quant.uniform<{storage}:f32:{axis}, {{{','.join(repr(s) for s in scales)}}}>"


def _activation(scale: float, zero_point: int) -> str:
    return f"!quant.uniform<i8:f32, {scale!r}{'' if zero_point == 0 else f':{zero_point}'}>"


def imported_chain_text(layers: int, seed: int = SEED) -> str:
    """The module ``npu-translate --import-tflite`` prints for a ``layers``-long chain of 3x3
    convolutions and depthwise convolutions (alternating) on a 1x16x16x8 int8 feature map."""
    rng = random.Random(seed)
    c, side = CHANNELS, SIDE
    fm = f"1x{side}x{side}x{c}"
    act_scale = _f32(rng.uniform(0.004, 0.03))
    act = f"tensor<{fm}x{_activation(act_scale, 0)}>"
    lines = [
        'module attributes {tfl.description = "npu-opt bench: imported conv/depthwise chain", '
        "tfl.schema_version = 3 : i32} {",
    ]
    first_act = act
    body: list[str] = []
    blobs: list[str] = []
    value = "%arg0"
    number = 0
    for layer in range(layers):
        depthwise = layer % 2 == 1
        weight_shape = f"1x3x3x{c}" if depthwise else f"{c}x3x3x{c}"
        axis = 3 if depthwise else 0
        scales = [_f32(rng.uniform(0.001, 0.004)) for _ in range(c)]
        bias_scales = [_f32(act_scale * s) for s in scales]
        wtype = f"tensor<{weight_shape}x{_per_axis('i8<-127:127>', axis, scales)}>"
        btype = f"tensor<{c}x{_per_axis('i32', 0, bias_scales)}>"
        out_scale = _f32(rng.uniform(0.004, 0.03))
        out = f"tensor<{fm}x{_activation(out_scale, -128)}>"
        size = (9 * c) if depthwise else (9 * c * c)
        weights = bytes(rng.randrange(-127, 128) & 0xFF for _ in range(size))  # narrow range: no -128
        key = f"tfl_const_{len(blobs)}"
        blobs.append(f'      {key}: "0x10000000{weights.hex().upper()}"')
        bias = ", ".join(str(rng.randrange(-2000, 2000)) for _ in range(c))
        w, b, y = f"%{number}", f"%{number + 1}", f"%{number + 2}"
        number += 3
        body.append(f'    {w} = "tfl.pseudo_qconst"() <{{qtype = {wtype}, value = dense_resource<{key}> : '
                    f'tensor<{weight_shape}xi8>}}> : () -> {wtype} loc("main/tensor_{number - 2}")')
        body.append(f'    {b} = "tfl.pseudo_qconst"() <{{qtype = {btype}, value = dense<[{bias}]> : '
                    f'tensor<{c}xi32>}}> : () -> {btype} loc("main/tensor_{number - 1}")')
        options = ("depth_multiplier = 1 : i32, " if depthwise else "") + (
            "dilation_h_factor = 1 : i32, dilation_w_factor = 1 : i32, fused_activation_function = \"RELU\", "
            'padding = "SAME", stride_h = 1 : i32, stride_w = 1 : i32')
        name = "tfl.depthwise_conv_2d" if depthwise else "tfl.conv_2d"
        body.append(f'    {y} = "{name}"({value}, {w}, {b}) <{{{options}}}> : ({act}, {wtype}, {btype}) -> {out} '
                    f'loc("main/tensor_{number}")')
        value, act, act_scale = y, out, out_scale
    lines.append(f"  func.func @main(%arg0: {first_act}) -> {act} attributes {{tf.entry_function = "
                 f'{{inputs = "serving_default_input_0:0", outputs = "main/tensor_{number}"}}}} {{')
    lines.extend(body)
    lines.append(f"    return {value} : {act} loc(unknown)")
    lines.append("  } loc(unknown)")
    lines.append("} loc(unknown)")
    lines.append("")
    lines.append("{-#")
    lines.append("  dialect_resources: {")
    lines.append("    builtin: {")
    lines.append(",\n".join(blobs))
    lines.append("    }")
    lines.append("  }")
    lines.append("#-}")
    return "\n".join(lines) + "\n"


def check_against_importer(layers: int = 4) -> str:
    """'' when a ``layers``-long chain survives export to .tflite and import unchanged (so it is
    what the importer prints); otherwise the first differing line, for the report."""
    text = imported_chain_text(layers)
    with tempfile.TemporaryDirectory() as directory:
        source, model = Path(directory, "chain.mlir"), Path(directory, "chain.tflite")
        source.write_text(text)
        translate = [sys.executable, "-m", "npu_opt.tools.npu_translate"]
        subprocess.run([*translate, "--export-tflite", str(source), "-o", str(model)], check=True)
        back = subprocess.run([*translate, "--import-tflite", str(model)], check=True,
                              capture_output=True, text=True).stdout
    for mine, theirs in zip(text.splitlines(), back.splitlines()):
        if mine != theirs:
            return f"generated: {mine[:160]}\nimported:  {theirs[:160]}"
    return "" if len(text.splitlines()) == len(back.splitlines()) else "line counts differ"


def corpus_texts(corpus: Path) -> dict[str, str]:
    """Every corpus model imported to text in this process (``{name: text}``), as ``npu-translate
    --import-tflite`` writes it (with the locations that hold the tensor names); {} without it."""
    models = sorted(corpus.glob("*.tflite")) if corpus.is_dir() else []
    if not models:
        return {}
    from npu_opt.dialects.tfl.tflite import import_tflite
    from npu_opt.ir.printer import PrintOptions, print_op
    return {path.stem: print_op(import_tflite(path.read_bytes(), path.name), PrintOptions(debuginfo=True))
            for path in models}


def worker_generate_imported(directory: str, layers: int, corpus: str) -> dict[str, Any]:
    """Write the imported chain (``chain.mlir``) and every corpus model imported to text
    (``corpus-<name>.mlir``) into ``directory``; return their sizes and whether the chain is the
    importer's own text."""
    work = Path(directory)
    (work / "chain.mlir").write_text(imported_chain_text(layers), encoding="utf-8")
    texts = corpus_texts(Path(corpus))
    for name, text in texts.items():
        (work / f"corpus-{name}.mlir").write_text(text, encoding="utf-8")
    return {"imported_sizes": {p.name: p.stat().st_size for p in sorted(work.glob("c*.mlir"))
                               if p.name == "chain.mlir" or p.name.startswith("corpus-")},
            "chain_check": check_against_importer(), "chain_layers": layers}


def worker_imported(path: str) -> dict[str, Any]:
    """Parse ``path`` once in this fresh process (the first parse of its type spellings, as a
    real run does) and verify it; CPU seconds of each, the op count and the peak RSS."""
    import gc
    import resource
    import time

    import npu_opt.dialects  # noqa: F401 - declares the dialects
    from npu_opt.ir.diagnostics import DiagnosticEngine
    from npu_opt.ir.parser import parse_module
    from npu_opt.ir.verifier import verify

    parse_module('"builtin.module"() ({\n}) : () -> ()', "warmup.mlir")  # grammar, lexer patterns
    for dialect in ("func", "tfl"):  # their import is start-up, not parsing
        __import__(f"npu_opt.dialects.{dialect}")
    text = Path(path).read_text(encoding="utf-8")
    gc.collect()
    began = time.process_time()
    module = parse_module(text, path)
    parsed = time.process_time() - began
    ops = sum(1 for _ in module.walk())
    began = time.process_time()
    ok = verify(module, DiagnosticEngine())
    verified = time.process_time() - began
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * (1 if sys.platform == "darwin" else 1024)
    return {"ops": ops, "bytes": len(text), "parse": parsed, "verify": verified, "valid": ok, "peak_rss": peak}


if __name__ == "__main__":
    problem = check_against_importer()
    print(problem or "the generated chain is exactly what npu-translate --import-tflite prints")
