"""Vela's default (C++) core and its legacy core, both costed in our performance model; writes
bench/VELA_CORES.md.

    python bench/vela_cores.py [--corpus DIR] [--configs A,B] [--models m1,m2] [--out FILE] [--work DIR]

For every ../shared/corpus model and config (A: ethos-u55-128, Ethos_U55_High_End_Embedded,
Shared_Sram; B: ethos-u65-256, Ethos_U65_High_End, Dedicated_Sram) Vela 5.2 compiles the model
with ``--optimise Performance``, once with its default core and once with
``--debug-force-legacy-core``; each output is costed from its command streams alone
(``ethosu-estimate``, docs/command_stream_costing.md). The report sets Vela's own cycle figure of
each core beside ours for the same streams, then says per model what the default core chose
otherwise: the lowering (ops left on the CPU, NPU ops of another kind), the cascades (ops run in
interleaved stripes), the weight streaming and the blocks (of the ops both cores run with the
same kind and OFM), with the cycles each accounts for in our model.
"""
from __future__ import annotations

import argparse
import csv
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import bench_inputs as bi  # noqa: E402
from npu_opt.dialects.ethosu.cost_desc import CostedOp, describe, group_parts  # noqa: E402
from npu_opt.dialects.ethosu.ops_stream import ProgramOp  # noqa: E402
from npu_opt.dialects.npu.perf.ir_attrs import COST_ATTR  # noqa: E402
from npu_opt.dialects.npu.target_attr import target_of  # noqa: E402
from npu_opt.tools import api  # noqa: E402

CONFIGS = {
    "A": ("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram"),
    "B": ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram"),
    "C": ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram_384KB"),
}
REPORTED = ("A", "B")
"""The configs of VELA_CORES.md (C serves bench/default_core_quality.py)."""
MODELS = ("kws_dscnn", "vww_mobilenet_v1_025", "ic_resnet8", "ad_autoencoder", "mobilenet_v2_035_96",
          "mobilenet_v1_100_224")
CORES = ("legacy", "default")
OUT = HERE / "VELA_CORES.md"


@dataclass
class NpuOp:
    """One scheduled NPU op of a compiled model as our model costs it."""

    kind: str
    ofm: str
    reads: str
    """Its IFM and kernel (a lowering may reshape them)."""
    block: str
    cycles: float
    cascaded: bool
    streamed: bool


@dataclass
class Compiled:
    """One core's output of one model and config."""

    vela_cycles: float
    our_cycles: float
    cpu_ops: int
    ops: list[NpuOp] = field(default_factory=list)


def compile_model(vela: str, model: Path, config: str, core: str, work: Path) -> Path:
    accel, system, mode = CONFIGS[config]
    out = work / f"{model.stem}.{config}.{core}"
    if not (out / f"{model.stem}_vela.tflite").exists():
        flags = ["--debug-force-legacy-core"] if core == "legacy" else []
        subprocess.run([vela, *flags, "--optimise", "Performance", "--accelerator-config", accel, "--system-config",
                        system, "--memory-mode", mode, "--output-dir", str(out), str(model)],
                       check=True, capture_output=True)
    return out


def cost(out: Path, model: str, config: str) -> Compiled:
    """The output in ``out`` costed by ethosu-estimate, with Vela's own figure."""
    (report,) = out.glob("*summary*.csv")
    vela_cycles = float(next(csv.DictReader(report.open()))["cycles_total"])
    return cost_compiled(out / f"{model}_vela.tflite", config, vela_cycles)


def cost_compiled(path: Path, config: str, vela_cycles: float = float("nan")) -> Compiled:
    """Any compiled .tflite (Vela's or npu-opt's) costed from its command streams by ethosu-estimate."""
    accel, system, mode = CONFIGS[config]
    loaded = api.load(str(path))
    loaded.set_target(accel, system_config=system, memory_mode=mode)
    loaded.run("ethosu-estimate")
    target = target_of(loaded.module)
    compiled = Compiled(vela_cycles, loaded.summary()["cycles_total"], 0)
    for op in loaded.module.walk():
        if op.name.startswith("tfl.") and op.name not in ("tfl.ethos_u", "tfl.pseudo_qconst", "tfl.pseudo_const") \
                and not isinstance(op.parent_op(), ProgramOp):
            compiled.cpu_ops += 1
        if not isinstance(op, ProgramOp):
            continue
        for item in group_parts(op):
            if not isinstance(item, CostedOp) or item.first.attr(COST_ATTR) is None:
                continue
            desc = describe(item, target)
            shape = desc.ofm.shape
            ifm, kernel = desc.ifm.shape, desc.kernel
            reads = f"{ifm.height}x{ifm.width}x{ifm.depth} kernel {kernel.height}x{kernel.width}"
            compiled.ops.append(NpuOp(desc.kind.value, f"{shape.height}x{shape.width}x{shape.depth}", reads,
                                      "x".join(str(n) for n in item.first.block.size),
                                      item.first.attr(COST_ATTR).cycle("total"), item.interleaved,
                                      bool(item.weight_dmas)))
    return compiled


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


def differences(legacy: Compiled, default: Compiled, name: str = "legacy") -> list[str]:
    """What the default core chose otherwise than ``legacy`` (called ``name`` in the notes), each
    with the cycles it accounts for in our model."""
    notes: list[str] = []
    if legacy.cpu_ops != default.cpu_ops:
        notes.append(f"lowering: {default.cpu_ops} ops on the CPU, {name} {legacy.cpu_ops}")
    pending: dict[tuple[str, str], list[NpuOp]] = defaultdict(list)
    for op in legacy.ops:
        pending[(op.kind, op.ofm)].append(op)
    unmatched: list[NpuOp] = []
    block_delta, blocks, cascade_delta, stream_delta, reshaped, reshape_delta = 0.0, 0, 0.0, 0.0, 0, 0.0
    for op in default.ops:
        twins = pending.get((op.kind, op.ofm))
        if not twins:
            unmatched.append(op)
            continue
        twin = twins.pop(0)
        delta = op.cycles - twin.cycles
        if op.reads != twin.reads:
            reshaped += 1
            reshape_delta += delta
        elif op.cascaded != twin.cascaded:
            cascade_delta += delta
        elif op.streamed != twin.streamed:
            stream_delta += delta
        elif op.block != twin.block:
            blocks += 1
            block_delta += delta
    left = [op for ops in pending.values() for op in ops]
    if unmatched or left:
        kinds = Counter(op.kind for op in unmatched)
        kinds.subtract(Counter(op.kind for op in left))
        shown = ", ".join(f"{k} {n:+d}" for k, n in sorted(kinds.items()) if n)
        cycles = sum(op.cycles for op in unmatched) - sum(op.cycles for op in left)
        notes.append(f"lowering: {_count(len(unmatched), 'NPU op')} of its own against {len(left)} of {name}'s"
                     f"{' (' + shown + ')' if shown else ' (other OFM shapes)'}, {cycles:+,.0f} cycles")
    if reshaped:
        notes.append(f"lowering: {_count(reshaped, 'op')} of the same kind and OFM reading another IFM shape or kernel, "
                     f"{reshape_delta:+,.0f} cycles")
    cascaded = (sum(op.cascaded for op in default.ops), sum(op.cascaded for op in legacy.ops))
    if cascaded != (0, 0):
        notes.append(f"cascades: {_count(cascaded[0], 'cascaded op')}, {name} {cascaded[1]}, {cascade_delta:+,.0f} cycles")
    streamed = (sum(op.streamed for op in default.ops), sum(op.streamed for op in legacy.ops))
    if stream_delta or streamed[0] != streamed[1]:
        notes.append(f"weight streaming: {_count(streamed[0], 'op')} streaming weights, {name} {streamed[1]}, "
                     f"{stream_delta:+,.0f} cycles")
    if blocks:
        notes.append(f"blocks: {_count(blocks, 'op')} of the same kind and OFM with another block, "
                     f"{block_delta:+,.0f} cycles")
    return notes


def render(rows: dict[tuple[str, str], dict[str, Compiled]]) -> str:
    lines = ["# Vela's default core and its legacy core in our cost model", "",
             "Generated by `python bench/vela_cores.py` (Vela 5.2.0, `--optimise Performance`). Each output is",
             "costed from its command streams alone by `ethosu-estimate` (docs/command_stream_costing.md);",
             "\"Vela\" is the cycle figure each core reports for itself (cycles_total of its summary CSV).", "",
             "| model | config | legacy: Vela | legacy: ours | default: Vela | default: ours | default/legacy (ours) |",
             "|---|---|---:|---:|---:|---:|---:|"]
    for (model, config), cores in rows.items():
        legacy, default = cores["legacy"], cores["default"]
        ratio = default.our_cycles / legacy.our_cycles if legacy.our_cycles else float("nan")
        lines.append(f"| {model} | {config} | {legacy.vela_cycles:,.0f} | {legacy.our_cycles:,.0f} | "
                     f"{default.vela_cycles:,.0f} | {default.our_cycles:,.0f} | {ratio:.3f} |")
    pairs = list(rows.values())
    theirs = sum(c["default"].vela_cycles < c["legacy"].vela_cycles for c in pairs)
    ours = sum(c["default"].our_cycles < c["legacy"].our_cycles for c in pairs)
    lines += ["", f"By its own figures the default core is faster on {theirs} of {len(pairs)} model-configs; costed in "
                  f"our model, on {ours}:", "where they disagree, the gain Vela reports comes from its own cost model, "
                  "not from choices ours credits."]
    lines += ["", "## What the default core chose otherwise", "",
              "Ops are matched by kind and OFM shape in stream order; a matched pair is put down to the first of",
              "the IFM shape or kernel (a lowering), cascading, weight streaming and block that differs; ops",
              "without a match are lowering too. Cycles are ours, default minus legacy. A cascaded op is one",
              "whose stripes interleave with another op's in the stream.", ""]
    for (model, config), cores in rows.items():
        notes = differences(cores["legacy"], cores["default"]) or ["nothing this comparison tells apart"]
        lines.append(f"- **{model} {config}**: " + "; ".join(notes) + ".")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=bi.default_corpus())
    parser.add_argument("--configs", default=",".join(REPORTED))
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--work", type=Path, default=None, help="keep Vela's outputs here (reused when present)")
    parser.add_argument("--vela", default="vela")
    args = parser.parse_args(argv)
    models, configs = args.models.split(","), args.configs.split(",")
    if not bi.inputs_present("vela_cores.py", args.out, bi.corpus_models(args.corpus, models), [args.vela]):
        return 1
    if bi.partial_run_refused("vela_cores.py", args.out, OUT, {"models": args.models, "configs": args.configs},
                              {"models": ",".join(MODELS), "configs": ",".join(REPORTED)}):
        return 1
    with tempfile.TemporaryDirectory() as scratch:
        work = args.work or Path(scratch)
        rows: dict[tuple[str, str], dict[str, Compiled]] = {}
        for model in models:
            for config in configs:
                cores = {}
                for core in CORES:
                    out = compile_model(args.vela, args.corpus / "models" / f"{model}.tflite", config, core, work)
                    cores[core] = cost(out, model, config)
                rows[(model, config)] = cores
                print(f"{model} {config}: " + ", ".join(f"{c} {cores[c].our_cycles:,.0f}" for c in CORES),
                      file=sys.stderr, flush=True)
        args.out.write_text(render(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
