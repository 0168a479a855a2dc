"""Codegen fidelity: npu-opt's command streams against Vela 5.2's legacy core on the corpus.

    python bench/codegen.py                       # every corpus model x configs A, B, C x both strategies
    python bench/codegen.py --models kws_dscnn --configs A --out /tmp/CODEGEN.md

For each model, config and strategy, ``vela --debug-force-legacy-core --optimise S`` compiles the
model and its ``ethos-u`` operators' command streams and read-only data are read back
(dialects/tfl/tflite/ethosu_reader); npu-opt runs ``schedule{optimise=S}``, npu-flash-layout and
lowers each NPU run (passes/codegen/lower_commands.lower_run). Each run's stream is byte-identical,
equal but for the scratch addresses (and the waits and BLOCKDEP they decide: an allocation
difference, not a lowering one), differing (the first difference), or not lowered (the error).
Each weight buffer placed by npu-flash-layout is compared with Vela's read-only bytes at its
offset. Writes bench/CODEGEN.md.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_inputs import corpus_models, default_corpus, inputs_present, partial_run_refused  # noqa: E402

import npu_opt.dialects  # noqa: E402,F401
import npu_opt.passes  # noqa: E402,F401
from npu_opt.dialects.ethosu.encode import encode_program  # noqa: E402
from npu_opt.dialects.npu.execution_order import graph_blocks, npu_runs  # noqa: E402
from npu_opt.dialects.npu.schedule_attrs import FLASH_ATTR  # noqa: E402
from npu_opt.dialects.npu.target_attr import target_of  # noqa: E402
from npu_opt.dialects.tfl.tflite.ethosu_reader import read_compiled  # noqa: E402
from npu_opt.passes.codegen.compare import equal_but_placement, first_difference  # noqa: E402
from npu_opt.passes.codegen.lower_commands import lower_run  # noqa: E402
from npu_opt.passes.codegen.read_only import read_only_data  # noqa: E402
from npu_opt.passes.codegen.weight_bytes import LoweringError, weight_buffer_of  # noqa: E402
from npu_opt.tools import api  # noqa: E402

CONFIGS = {
    "A": ("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram"),
    "B": ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram"),
    "C": ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram_384KB"),
    "D": ("ethos-u65-512", "Ethos_U65_High_End", "Dedicated_Sram"),
}
STRATEGIES = ("Performance", "Size")
MODELS = ("kws_dscnn", "vww_mobilenet_v1_025", "ic_resnet8", "ad_autoencoder", "mobilenet_v2_035_96",
          "mobilenet_v1_100_224", "deep_chain_conv")


def vela_outputs(model: Path, config: str, strategy: str, tmp: Path) -> tuple[list[list[int]], bytes]:
    """Vela's command streams (one per ethos-u operator, in order) and the read-only data."""
    accelerator, system, memory = CONFIGS[config]
    out = tmp / f"{model.stem}_{config}_{strategy}"
    compiled_path = out / f"{model.stem}_vela.tflite"
    if not compiled_path.exists():  # (else kept from an earlier run with --vela-dir)
        _run_vela(model, config, strategy, out)
    compiled = read_compiled(compiled_path.read_bytes())
    operators = compiled.ethos_u()
    read_only = bytes(operators[0].read_only) if operators else b""
    return [[int(w) for w in op.command_stream] for op in operators], read_only


def _run_vela(model: Path, config: str, strategy: str, out: Path) -> None:
    accelerator, system, memory = CONFIGS[config]
    done = subprocess.run(["vela", "--config", "Arm/vela.ini", "--accelerator-config", accelerator,
                           "--system-config", system, "--memory-mode", memory, "--optimise", strategy,
                           "--debug-force-legacy-core", "--output-dir", str(out), str(model)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"vela failed: {done.stderr.strip().splitlines()[-1:]}")


def our_streams(model: Path, config: str, strategy: str) -> tuple[list[list[int] | str], list, bytes | str]:
    """npu-opt's stream per NPU run (or the error lowering it), each weighted op's npu.flash with
    its weight buffer, and the read-only data (or the error making it)."""
    accelerator, system, memory = CONFIGS[config]
    loaded = api.load(str(model))
    loaded.set_target(accelerator, system_config=system, memory_mode=memory)
    loaded.run(f"schedule{{optimise={strategy}}},npu-flash-layout")
    target = target_of(loaded.module)
    streams: list[list[int] | str] = []
    for block in graph_blocks(loaded.module):
        for run in npu_runs(block):
            try:
                streams.append(encode_program(lower_run(run, block.parent_op(), target)))
            except LoweringError as err:
                streams.append(str(err))
    placed = [(op.attr(FLASH_ATTR), weight_buffer_of(op, target)) for op in loaded.module.walk()
              if op.attr(FLASH_ATTR) is not None]
    try:
        image: bytes | str = read_only_data(loaded.module, target)
    except LoweringError as err:
        image = str(err)
    return streams, [(flash, buffer) for flash, buffer in placed if buffer is not None], image


def compare(model: Path, config: str, strategy: str, tmp: Path) -> dict:
    """One row: counts of runs by outcome, the first issue, the read-only check."""
    reference, read_only = vela_outputs(model, config, strategy, tmp)
    start = time.process_time()
    ours, buffers, image = our_streams(model, config, strategy)
    row = {"model": model.stem, "config": config, "strategy": strategy, "runs": len(reference),
           "identical": 0, "placement": 0, "differing": 0, "not_lowered": 0, "issue": "",
           "buffers": len(buffers), "buffers_equal": 0, "read_only": image == read_only, "seconds": 0.0}
    if len(ours) != len(reference):
        row["issue"] = f"{len(ours)} NPU runs vs Vela's {len(reference)}"
    for index, (mine, theirs) in enumerate(zip(ours, reference)):
        if isinstance(mine, str):
            row["not_lowered"] += 1
            row["issue"] = row["issue"] or f"run {index}: {mine}"
        elif mine == theirs:
            row["identical"] += 1
        elif equal_but_placement(mine, theirs):
            row["placement"] += 1
            row["issue"] = row["issue"] or f"run {index}: {first_difference(mine, theirs)}"
        else:
            row["differing"] += 1
            row["issue"] = row["issue"] or f"run {index}: {first_difference(mine, theirs)}"
    for flash, buffer in buffers:
        data = buffer.data
        row["buffers_equal"] += read_only[flash.offset:flash.offset + len(data)] == data
    row["seconds"] = time.process_time() - start
    return row


def render(rows: list[dict], failures: list[str]) -> str:
    total = {key: sum(r[key] for r in rows) for key in ("runs", "identical", "placement", "differing",
                                                       "not_lowered", "buffers", "buffers_equal", "read_only")}
    lines = [
        "# Codegen fidelity: npu-opt's command streams against Vela 5.2 (legacy core)", "",
        "Made by `python bench/codegen.py` (see its docstring). Per model, config (A: ethos-u55-128 "
        "Ethos_U55_High_End_Embedded Shared_Sram; B: ethos-u65-256 Ethos_U65_High_End Dedicated_Sram; C: as B "
        "with Dedicated_Sram_384KB; D: as B on the two-core ethos-u65-512) and strategy: Vela's NPU runs (ethos-u operators) and how many of npu-opt's "
        "are byte-identical, equal but for scratch addresses (with the waits/BLOCKDEP they decide), differing, "
        "or not lowered; the first issue; weight buffers whose bytes at npu.flash equal Vela's read-only data, "
        "and whether the whole read-only data (passes/codegen/read_only.py) is Vela's.",
        "",
        f"Totals: {total['runs']} runs; {total['identical']} byte-identical, {total['placement']} equal but for "
        f"scratch addresses, {total['differing']} differing, {total['not_lowered']} not lowered; "
        f"{total['buffers_equal']} of {total['buffers']} weight buffers at Vela's offsets with Vela's bytes; "
        f"the whole read-only data byte-identical in {total['read_only']} of {len(rows)} rows.",
        "",
        "| model | cfg | strategy | runs | identical | placement only | differing | not lowered | buffers equal | "
        "read-only data | first issue |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        issue = r["issue"].replace("|", "\\|")
        issue = issue if len(issue) <= 220 else issue[:217] + "..."
        lines.append(f"| {r['model']} | {r['config']} | {r['strategy']} | {r['runs']} | {r['identical']} | "
                     f"{r['placement']} | {r['differing']} | {r['not_lowered']} | {r['buffers_equal']}/{r['buffers']} | "
                     f"{'equal' if r['read_only'] else 'differs'} | {issue} |")
    if failures:
        lines += ["", "Not compared:", ""] + [f"- {f}" for f in failures]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=default_corpus())
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--configs", default="A,B,C,D")
    parser.add_argument("--strategies", default=",".join(STRATEGIES))
    parser.add_argument("--out", type=Path, default=HERE / "CODEGEN.md")
    parser.add_argument("--vela-dir", type=Path, default=None,
                        help="keep Vela's outputs here and reuse those present (Vela is the slow part)")
    args = parser.parse_args(argv)
    models = [m for m in args.models.split(",") if m]
    paths = corpus_models(args.corpus, models)
    if not inputs_present("codegen.py", args.out, paths, tools=("vela",)):
        return 1
    chosen = {"models": args.models, "configs": args.configs, "strategies": args.strategies}
    full = {"models": ",".join(MODELS), "configs": "A,B,C", "strategies": ",".join(STRATEGIES)}
    if partial_run_refused("codegen.py", args.out, HERE / "CODEGEN.md", chosen, full):
        return 1
    rows, failures = [], []
    with tempfile.TemporaryDirectory(prefix="codegen-") as scratch:
        tmp = str(args.vela_dir) if args.vela_dir is not None else scratch
        for path in paths:
            for config in args.configs.split(","):
                for strategy in args.strategies.split(","):
                    try:
                        row = compare(path, config, strategy, Path(tmp))
                    except (RuntimeError, api.NpuOptError) as err:
                        failures.append(f"{path.stem} {config} {strategy}: {err}")
                        continue
                    rows.append(row)
                    print(f"{row['model']} {config} {strategy}: {row['identical']}/{row['runs']} identical, "
                          f"{row['placement']} placement only, {row['not_lowered']} not lowered", flush=True)
    args.out.write_text(render(rows, failures), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
