"""How closely our performance model reproduces Vela's per-layer estimates; writes bench/PERF_FIDELITY.md.

    python bench/perf_fidelity.py [--corpus DIR] [--configs A,B] [--models m1,m2] [--out FILE]
                                  [--csv-dir DIR]

For every ../shared/corpus model and config (A: ethos-u55-128, Ethos_U55_High_End_Embedded,
Shared_Sram; B: ethos-u65-256, Ethos_U65_High_End, Dedicated_Sram) the model is imported
(``import_tflite``), lowered into the operations Vela 5.2.0's legacy core runs on the NPU
(vela_lowering.py: the same rewrites, op order, formats and memory placement), costed with
``dialects.npu.perf`` (vela_costing.py: block-config search, weight-stream sizes, Vela's
weight-buffering policy, ``estimate_op``), and joined with Vela's
``vela_reports/NAME_{A,B}_Performance_legacy_per_layer.csv`` on the op name (the TFLite output
tensor name; Vela's own suffixes for decomposed ops). Compared: NPU cycles (targets: >= 95 % of
joined layers within +-5 %), MAC counts (equal), join coverage (>= 80 % of Vela's NPU layers);
total op cycles and per-memory access cycles are reported too.

This script depends only on the project and numpy; Vela is not needed to run it.
"""
from __future__ import annotations

import argparse
import csv
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

import dialects  # noqa: E402,F401
from dialects.npu.perf import resolve_perf_target  # noqa: E402
from dialects.tfl.tflite import import_tflite  # noqa: E402

from bench.vela_costing import CostedOp, cost_graph  # noqa: E402
from bench.vela_lowering import lower_module  # noqa: E402

CONFIGS = {
    "A": ("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram"),
    "B": ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram"),
    # Supplementary (--configs A,B,C): a 384 KB fast storage makes Vela cascade ops and leave
    # feature maps in DRAM, scheduling decisions this benchmark does not emulate.
    "C": ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram_384KB"),
}
MODELS = ("kws_dscnn", "vww_mobilenet_v1_025", "ic_resnet8", "ad_autoencoder", "mobilenet_v2_035_96",
          "mobilenet_v1_100_224", "deep_chain_conv")
ACCESS = (("SRAM AC", 0), ("DRAM AC", 1), ("OnFlash AC", 2), ("OffFlash AC", 3))
TOLERANCE = 0.05
BUCKETS = ((0.0, "exact (< 0.5 cycle)"), (0.001, "<= 0.1 %"), (0.01, "<= 1 %"), (0.05, "<= 5 %"),
           (0.10, "<= 10 %"), (float("inf"), "> 10 %"))


@dataclass
class Row:
    model: str
    name: str
    tflite_op: str
    vela_op: str
    vela_npu: float
    ours_npu: float
    vela_total: float
    ours_total: float
    vela_macs: int
    ours_macs: int
    access_ok: bool
    block: str

    @property
    def error(self) -> float:
        """Relative NPU-cycle error (0 when both are 0)."""
        if self.vela_npu == 0:
            return 0.0 if self.ours_npu == 0 else float("inf")
        return (self.ours_npu - self.vela_npu) / self.vela_npu

    @property
    def total_error(self) -> float:
        return (self.ours_total - self.vela_total) / self.vela_total if self.vela_total else 0.0


@dataclass
class ConfigResult:
    config: str
    rows: list[Row] = field(default_factory=list)
    vela_layers: int = 0
    unmatched: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def within(self, tolerance: float = TOLERANCE) -> int:
        return sum(1 for r in self.rows if abs(r.error) <= tolerance)

    def macs_equal(self) -> int:
        return sum(1 for r in self.rows if r.vela_macs == r.ours_macs)


def compare_model(corpus: Path, model: str, config: str, csv_dir: Path | None) -> tuple[list[Row], int, list[str]]:
    perf = resolve_perf_target(*CONFIGS[config])
    module = import_tflite((corpus / "models" / f"{model}.tflite").read_bytes(), model)
    costed = cost_graph(lower_module(module), perf)
    if csv_dir is not None:
        write_ours(csv_dir / f"{model}_{config}_ours.csv", costed)
    ours: dict[str, list[CostedOp]] = {}
    for op in costed:
        ours.setdefault(op.op.name, []).append(op)
    report = corpus / "vela_reports" / f"{model}_{config}_Performance_legacy_per_layer.csv"
    rows: list[Row] = []
    unmatched: list[str] = []
    vela_rows = list(csv.DictReader(report.open(encoding="utf-8")))
    for vela in vela_rows:
        candidates = ours.get(vela["Name"])
        if not candidates:
            unmatched.append(f"{model}: {vela['TFLite_operator']} {vela['Name']}")
            continue
        mine = candidates.pop(0)
        access_ok = all(abs(mine.cost.access_cycles[i] - float(vela[col])) <= max(1.0, 0.01 * float(vela[col]))
                        for col, i in ACCESS)
        rows.append(Row(model, vela["Name"], vela["TFLite_operator"], vela["NNG Operator"], float(vela["NPU"]),
                        mine.cost.npu_cycles, float(vela["Op Cycles"]), mine.cost.total_cycles,
                        int(vela["MAC Count"]), mine.cost.nn_macs, access_ok, str(mine.block or "")))
    return rows, len(vela_rows), unmatched


def write_ours(path: Path, costed: list[CostedOp]) -> None:
    """Our per-op estimates in the perf-report columns (for inspection)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["name", "op", "block", "npu_cycles", "sram_access_cycles", "dram_access_cycles",
                         "on_chip_flash_access_cycles", "off_chip_flash_access_cycles", "total_cycles", "nn_macs",
                         "hw_macs"])
        for op in costed:
            c = op.cost
            writer.writerow([op.op.name, op.op.kind.value, str(op.block or ""), f"{c.npu_cycles:g}",
                             *(f"{a:g}" for a in c.access_cycles), f"{c.total_cycles:g}", c.nn_macs, c.hw_macs])


def run(corpus: Path, configs: list[str], models: list[str], csv_dir: Path | None) -> list[ConfigResult]:
    results = []
    for config in configs:
        result = ConfigResult(config)
        began = time.perf_counter()
        for model in models:
            rows, layers, unmatched = compare_model(corpus, model, config, csv_dir)
            result.rows.extend(rows)
            result.vela_layers += layers
            result.unmatched.extend(unmatched)
        result.seconds = time.perf_counter() - began
        results.append(result)
    return results


def _pct(part: int, whole: int) -> str:
    return f"{100.0 * part / whole:.1f} %" if whole else "n/a"


def render(results: list[ConfigResult], models: list[str]) -> str:
    lines = ["# Performance-model fidelity against Vela 5.2.0 (legacy core)", "",
             "Generated by `python bench/perf_fidelity.py`; the explanations at the end are maintained by hand.",
             "", "Per layer, our `estimate_op` (dialects/npu/perf) against Vela's "
             "`--debug-force-legacy-core --verbose-performance` per-layer report (`../shared/corpus/vela_reports`), "
             "joined on the op name. Configs: " + "; ".join(
                 f"{k} = {', '.join(v)}" for k, v in CONFIGS.items() if k in {r.config for r in results}) + ".",
             "", "## Summary", "",
             "| config | Vela NPU layers | joined (coverage) | NPU cycles within +-5 % | MACs equal | "
             "NPU cycles exact | op (total) cycles within +-5 % | access cycles within 1 % | time |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        n = len(r.rows)
        exact = sum(1 for row in r.rows if abs(row.ours_npu - row.vela_npu) < 0.5)
        total_ok = sum(1 for row in r.rows if abs(row.total_error) <= TOLERANCE)
        access_ok = sum(1 for row in r.rows if row.access_ok)
        lines.append(f"| {r.config} | {r.vela_layers} | {n} ({_pct(n, r.vela_layers)}) | {r.within()} "
                     f"({_pct(r.within(), n)}) | {r.macs_equal()} ({_pct(r.macs_equal(), n)}) | {exact} "
                     f"({_pct(exact, n)}) | {total_ok} ({_pct(total_ok, n)}) | {access_ok} ({_pct(access_ok, n)}) "
                     f"| {r.seconds:.1f} s |")
    lines += ["", "Targets: >= 95 % of joined layers within +-5 % of Vela's NPU cycles, MAC counts equal, join "
              ">= 80 % of Vela's NPU layers.", "", "## Distribution of the NPU-cycle error", "",
              "| config | " + " | ".join(label for _, label in BUCKETS) + " |",
              "|---|" + "---:|" * len(BUCKETS)]
    for r in results:
        counts = [0] * len(BUCKETS)
        for row in r.rows:
            err = abs(row.error)
            for i, (limit, _) in enumerate(BUCKETS):
                if (i == 0 and abs(row.ours_npu - row.vela_npu) < 0.5) or (i > 0 and err <= limit):
                    counts[i] += 1
                    break
        lines.append(f"| {r.config} | " + " | ".join(str(c) for c in counts) + " |")
    lines += ["", "## Per model", "", "| config | model | layers | within +-5 % | MACs equal | "
              "sum of NPU cycles, ours / Vela |", "|---|---|---:|---:|---:|---:|"]
    for r in results:
        for model in models:
            rows = [row for row in r.rows if row.model == model]
            if not rows:
                continue
            ours = sum(row.ours_npu for row in rows)
            vela = sum(row.vela_npu for row in rows)
            lines.append(f"| {r.config} | {model} | {len(rows)} | {sum(1 for x in rows if abs(x.error) <= TOLERANCE)}"
                         f" | {sum(1 for x in rows if x.vela_macs == x.ours_macs)} | {ours:,.0f} / {vela:,.0f} "
                         f"({(ours / vela - 1) * 100:+.2f} %) |")
    lines += ["", "## Worst layers (by NPU-cycle error)", ""]
    for r in results:
        worst = sorted(r.rows, key=lambda row: -abs(row.error))[:8]
        lines += [f"Config {r.config}:", "", "| model | layer | Vela op | block | Vela NPU | ours | error |",
                  "|---|---|---|---|---:|---:|---:|"]
        for row in worst:
            lines.append(f"| {row.model} | `{_short(row.name)}` | {row.vela_op} | {row.block} | {row.vela_npu:,.0f} | "
                         f"{row.ours_npu:,.0f} | {row.error * 100:+.2f} % |")
        if r.unmatched:
            lines += ["", "Vela layers not joined: " + "; ".join(r.unmatched)]
        lines.append("")
    lines += ["## Worst layers by total (op) cycles", ""]
    for r in results:
        worst = sorted(r.rows, key=lambda row: -abs(row.total_error))[:5]
        lines += [f"Config {r.config}:", "", "| model | layer | Vela op | Vela total | ours | error |",
                  "|---|---|---|---:|---:|---:|"]
        for row in worst:
            lines.append(f"| {row.model} | `{_short(row.name)}` | {row.vela_op} | {row.vela_total:,.1f} | "
                         f"{row.ours_total:,.1f} | {row.total_error * 100:+.3f} % |")
        lines.append("")
    lines += [EXPLANATIONS]
    return "\n".join(lines) + "\n"


def _short(name: str, width: int = 60) -> str:
    return name if len(name) <= width else "..." + name[-(width - 3):]


EXPLANATIONS = """## How the agreement is reached, and the remaining gaps

What the benchmark reproduces of Vela, besides the cost formulas themselves
(dialects/npu/perf, one concept per file):

* **Graph rewrites** (bench/vela_lowering.py, vela_softmax.py): strided first convolutions with
  the IFM width folded into depth, average pools with stride >= 4 turned into convolutions with
  unit weights, 1x1 convolutions on 1x1 IFMs turned into fully connected layers, MEAN as a
  depthwise convolution plus a Mul, SOFTMAX as Vela's 31 int8 operations. Costs depend on these
  shapes, so the benchmark must cost the same operations.
* **Op order, formats, memory** (bench/vela_graph.py): Vela's depth-first pass order (the DMA
  slack of an op comes from the op before it), NHCWB16 except where Vela keeps NHWC, and with
  Dedicated_Sram the feature maps in SRAM except graph inputs and outputs, which stay in DRAM.
  With Dedicated_Sram Vela takes its weight-buffering decisions while the feature maps are still
  in DRAM (latency 500/250 cycles), then moves them to SRAM; the decisions (and the slack chain)
  therefore use DRAM placements and the final estimate SRAM placements.
* **Weight streams** (dialects/npu/perf/weight_size.py, weight_encoding.py): the DMA cycles of
  buffered weights depend on the encoded size. Our model of the weight codec follows its
  decisions (zero-run mode, palette, Golomb-Rice parameter search with its 40-bit switch cost,
  slices, padding). Checked once against the codec itself (ethos-u-vela 5.2.0's `mlw_codec`) on
  all 338 distinct weight streams Vela encodes for kws_dscnn, vww_mobilenet_v1_025, ic_resnet8
  and mobilenet_v2_035_96: the same byte count for every one (tests/unit/test_npu_perf_weights.py
  keeps a few such references). Vela's buffering policy (weight_buffering.py) picks depth slices by
  thresholds (e.g. `round_down(depth x slack / transfer, 16)`), so a size error of a fraction of a
  percent can change a slicing and move an op's NPU cycles by 10-40 %: exact sizes matter.

Remaining differences: none on the corpus (every joined layer's NPU cycles, MAC count, total
cycles and access cycles agree with Vela's report; NPU cycles to the cycle). What the benchmark
does not exercise, and where differences would therefore go unnoticed:

* **Long weight streams without zero runs** (> 65536 values, e.g. the 1024 x 1000 classifier) get
  a parameter search on groups of values rather than per value, to keep the benchmark fast; on
  the corpus this gives the codec's size to the byte, but it could differ by a few bytes on
  streams whose statistics change along the stream. Zero-run streams always get the exact search
  (a grouped search was 0.8 % off on mobilenet_v2's 1x1x112x1280 convolution and changed its
  slicing).
* **Palette restarts** of the codec are searched exactly only when a window of the stream could
  trigger one (low-entropy weights, such as MEAN's and the average pool's unit weights); the
  pre-check is conservative.
* **Not modelled by the benchmark's lowering** (absent from the corpus): MEAN over more than 64
  rows or 4096 elements (Vela splits it into several convolutions and adds), PAD, CONCATENATION,
  RESIZE, TRANSPOSE_CONV, LEAKY_RELU, HARD_SWISH, LOGISTIC/TANH, 16-bit networks, and cascaded
  schedules (block configs chosen for OFM stripes, which a size-limited arena produces). The cost
  model handles these operation kinds, stripes and depth slices; only the emulation of Vela's
  graph decisions around them is missing here.
* **Config C** (`--configs A,B,C`: Dedicated_Sram_384KB, not a target of the issue): 604 of 614
  layers within +-5 % when last measured; the 10 others are mobilenet_v1_100_224 layers that Vela
  cascades (its first 11 ops, in three cascades) because their feature maps do not fit 384 KB.
  A cascaded op's block config is searched for its OFM *stripe* (conv_dw_5: 8x22x16 for a
  8-row stripe, where the whole-OFM search gives 14x14x16) and Vela charges it no full
  weight-transfer time. The cost model costs stripes (`with_ofm_stripe`) and cascaded weight
  streams (`WeightStreaming(full_transfer_bytes=0)`); choosing the cascades is the scheduler's
  part, which the benchmark does not emulate.
* The benchmark's lowering, order, format and placement emulation lives in bench/ (vela_*.py): it
  reproduces Vela's decisions so the cost model can be checked in isolation. `npu-opt
  --pass=estimate --perf-report` costs the IR as it stands: until passes choose NHCWB16 formats and
  fast-storage placement, its figures differ from Vela's by those choices (on kws_dscnn, config A,
  its NPU total is 162,614 cycles against Vela's 162,608).
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--configs", default="A,B")
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--out", type=Path, default=HERE / "PERF_FIDELITY.md")
    parser.add_argument("--csv-dir", type=Path, default=None, help="also write our per-op estimates here")
    args = parser.parse_args(argv)
    configs = [c.strip() for c in args.configs.split(",") if c.strip()]
    models = [m.strip() for m in args.models.split(",") if m.strip()]
    results = run(args.corpus, configs, models, args.csv_dir)
    text = render(results, models)
    args.out.write_text(text, encoding="utf-8")
    for r in results:
        n = len(r.rows)
        errors = [abs(row.error) for row in r.rows]
        print(f"config {r.config}: {n}/{r.vela_layers} layers joined ({_pct(n, r.vela_layers)}), "
              f"{r.within()} within +-5 % ({_pct(r.within(), n)}), MACs equal {r.macs_equal()}/{n}, "
              f"median |error| {statistics.median(errors) * 100 if errors else 0:.3f} %, {r.seconds:.1f} s")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
