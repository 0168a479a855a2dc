"""How closely ``npu-opt --pass=estimate`` reproduces Vela's per-layer estimates; writes bench/PERF_FIDELITY.md.

    python bench/perf_fidelity.py [--corpus DIR] [--configs A,B] [--models m1,m2] [--out FILE]
                                  [--csv-dir DIR] [--pipeline estimate|schedule|PASSES]

For every ../shared/corpus model and config (A: ethos-u55-128, Ethos_U55_High_End_Embedded,
Shared_Sram; B: ethos-u65-256, Ethos_U65_High_End, Dedicated_Sram) the model is imported
(``import_tflite``), given the config's ``npu.target`` (as ``--target``, ``--system-config`` and
``--memory-mode`` do), run through the compiler's own ``estimate`` pipeline (``--pipeline``: another
pipeline or pass list, e.g. ``schedule``) in-process
(npu-legalize, npu-format-nhcwb16, npu-place-tensors, npu-select-block-config, npu-estimate),
and its rows, collected as ``--perf-report`` collects them (tools/perf_report.py), are joined with
Vela's ``vela_reports/NAME_{A,B}_Performance_legacy_per_layer.csv`` on the op name (the TFLite
output tensor name; Vela's own suffixes for decomposed ops). Compared: NPU cycles (targets: >= 95 %
of joined layers within +-5 %), MAC counts (equal), join coverage (>= 80 % of Vela's NPU layers);
total op cycles and per-memory access cycles are reported too.

This script depends only on the project; Vela is not needed to run it. Nothing here emulates
Vela: every decision the figures depend on is taken by a pass and visible in the IR.
"""
from __future__ import annotations

import argparse
import csv
import io
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import bench_inputs as bi  # noqa: E402  (the inputs check every bench shares)
import npu_opt.dialects  # noqa: E402,F401
import npu_opt.passes  # noqa: E402,F401  (registers the passes and the estimate pipeline)
from npu_opt.dialects.tfl.tflite import import_tflite  # noqa: E402
from npu_opt.ir.diagnostics import DiagnosticEngine  # noqa: E402
from npu_opt.ir.pass_manager import PassFailure, PassManager  # noqa: E402
from npu_opt.ir.verifier import verify  # noqa: E402
from npu_opt.ir.pass_registry import parse_pipeline  # noqa: E402
from npu_opt.tools.perf_report import collect_rows, render as render_report  # noqa: E402
from npu_opt.tools.api import set_target  # noqa: E402

PIPELINE = "estimate"
CONFIGS = {
    "A": ("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram"),
    "B": ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram"),
    # Supplementary (--configs A,B,C): a 384 KB fast storage makes Vela cascade ops and leave
    # feature maps in DRAM, scheduling decisions no pass takes yet.
    "C": ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram_384KB"),
}
MODELS = ("kws_dscnn", "vww_mobilenet_v1_025", "ic_resnet8", "ad_autoencoder", "mobilenet_v2_035_96",
          "mobilenet_v1_100_224", "deep_chain_conv")
ACCESS = (("SRAM AC", "sram_access_cycles"), ("DRAM AC", "dram_access_cycles"),
          ("OnFlash AC", "on_chip_flash_access_cycles"), ("OffFlash AC", "off_chip_flash_access_cycles"))
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


def estimate_rows(model_bytes: bytes, model: str, config: str, pipeline: str = PIPELINE) -> list[dict]:
    """A pipeline's (``estimate`` by default) per-op rows (tools/perf_report.py) for a model on ``config``."""
    accel, system, mode = CONFIGS[config]
    module = set_target(import_tflite(model_bytes, model), accel, system_config=system, memory_mode=mode)
    stream = io.StringIO()
    engine = DiagnosticEngine(stream=stream)
    engine.show_remarks = False
    try:  # the imported model is verified first, as npu-opt does, and after every pass
        if not verify(module, engine):
            raise PassFailure()
        PassManager(parse_pipeline(pipeline), engine, verify_each=True).run(module)
    except PassFailure:
        raise ModelError(f"{model} ({config}) does not go through the pipeline:\n{stream.getvalue().rstrip()}") from None
    return collect_rows(module)


class ModelError(Exception):
    """A corpus model the verifier or a pass rejects; the message holds its diagnostics."""


def compare_model(corpus: Path, model: str, config: str, csv_dir: Path | None, pipeline: str = PIPELINE,
                  strategy: str = "Performance") -> tuple[list[Row], int, list[str]]:
    ours_rows = estimate_rows((corpus / "models" / f"{model}.tflite").read_bytes(), model, config, pipeline)
    if csv_dir is not None:
        csv_dir.mkdir(parents=True, exist_ok=True)
        (csv_dir / f"{model}_{config}_ours.csv").write_text(render_report(ours_rows, "ours.csv"), encoding="utf-8")
    ours: dict[str, list[dict]] = {}
    for row in ours_rows:
        ours.setdefault(str(row["name"]), []).append(row)
    report = corpus / "vela_reports" / f"{model}_{config}_{strategy}_legacy_per_layer.csv"
    rows: list[Row] = []
    unmatched: list[str] = []
    vela_rows = list(csv.DictReader(report.open(encoding="utf-8")))
    for vela in vela_rows:
        candidates = ours.get(vela["Name"])
        if not candidates:
            unmatched.append(f"{model}: {vela['TFLite_operator']} {vela['Name']}")
            continue
        mine = candidates.pop(0)
        access_ok = all(abs(float(mine[key]) - float(vela[col])) <= max(1.0, 0.01 * float(vela[col]))
                        for col, key in ACCESS)
        rows.append(Row(model, vela["Name"], vela["TFLite_operator"], vela["NNG Operator"], float(vela["NPU"]),
                        float(mine["npu_cycles"]), float(vela["Op Cycles"]), float(mine["total_cycles"]),
                        int(vela["MAC Count"]), int(mine["nn_macs"]), access_ok, str(mine["block"])))
    return rows, len(vela_rows), unmatched


def run(corpus: Path, configs: list[str], models: list[str], csv_dir: Path | None,
        pipeline: str = PIPELINE) -> list[ConfigResult]:
    results = []
    for config in configs:
        result = ConfigResult(config)
        began = time.perf_counter()
        for model in models:
            rows, layers, unmatched = compare_model(corpus, model, config, csv_dir, pipeline)
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
             "", "Per layer, `npu-opt --pass=estimate` (the compiler's own passes, run in-process; rows as "
             "`--perf-report` writes them) against Vela's "
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
        exact = all(abs(row.ours_npu - row.vela_npu) < 0.5 for row in r.rows)
        lines += [f"Config {r.config}" + (" (every layer exact to the cycle: the first layers in report order)"
                                          if exact else "") + ":", "",
                  "| model | layer | Vela op | block | Vela NPU | ours | error |",
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


EXPLANATIONS = """## What the figures measure, and the remaining gaps

Every figure above is the compiler's own output: the benchmark imports the model, sets the
config's `npu.target`, runs the `estimate` pipeline in-process and reads the rows
`--perf-report` writes. No Vela decision is emulated in bench/ any more (the former
bench/vela_graph.py, vela_lowering.py, vela_softmax.py and vela_costing.py are gone); each one is
a pass, and visible in the IR:

* **Graph rewrites** (`npu-legalize`, passes/npu_legalize.py and passes/npu_lowering/): strided
  first convolutions with the IFM width folded into depth, average pools with stride >= 4 as
  convolutions with unit weights, 1x1 convolutions on 1x1 IFMs as fully connected layers, MEAN
  as a depthwise convolution plus a Mul, SOFTMAX as Vela's 31 int8 operations, in Vela's op
  order (an op's DMA slack comes from the op before it in IR order).
* **Tensor formats** (`npu-format-nhcwb16`, passes/npu_place.py): `#npu.fm<NHCWB16>` on the
  outputs of NPU compute ops read only by NPU compute ops, except graph outputs, tensors seen
  through a reshape/slice/concat or copied by a DMA, int32 tensors a ReduceSum reads, and the
  OFM of an elementwise op whose depth is not a multiple of 16 when an input of the same shape
  and width (constants included: softmax's 1x1x1x1 scalars) is NHWC (Vela's
  `check_format_restrictions` and `avoid_nhcwb16_for_ofm`).
* **Memory areas** (`npu-place-tensors`, passes/npu_place.py): with Dedicated_Sram every
  internal feature map is `#npu.fm<..., Sram>`; graph inputs and outputs, and views aliasing
  them, stay in the DRAM arena. Constants stay in permanent storage (no encoding needed).
* **Weight streams and buffering** (`npu-estimate`, passes/npu_perf.py): the encoded size from
  the weight-codec model (hardware/codec/weight_size.py, weight_encoding.py, mlw_core.c,
  mlw_sections.c: the codec's own decisions, byte-exact; tests/unit/hardware/codec/test_npu_perf_codec.py
  compares it with ethos-u-vela 5.2.0's `mlw_codec` on random, structured and low-entropy streams) and Vela's buffering policy (weight_buffering.py). Exact sizes matter:
  the policy picks depth slices by thresholds, so a fraction of a percent can change a slicing and
  move an op's NPU cycles by 10-40 %.
* **Decide in the arena, estimate in SRAM** (`npu-estimate{decide-in-arena=true}`, the default):
  with Dedicated_Sram Vela takes its weight-buffering decisions while the feature maps are still
  in DRAM (latency 500/250 cycles), then moves them to SRAM; npu-estimate makes the decisions
  and the slack chain with the feature maps npu-place-tensors moved to SRAM seen in the arena,
  and the final estimate with them in SRAM. Without this rule (`decide-in-arena=false`), config B
  drops to 580 of 614 layers within +-5 % (vww_mobilenet_v1_025 50/60, mobilenet_v2_035_96 75/96,
  and one layer each of kws_dscnn, ic_resnet8 and mobilenet_v1_100_224).

Remaining differences on configs A and B: none (every joined layer's NPU cycles, MAC count,
total cycles and access cycles agree with Vela's report; NPU cycles to the cycle). What the
corpus does not exercise, and where differences would therefore go unnoticed:

* **Formats and placement around ops absent from the corpus**: CONCATENATION (Vela may keep a
  concatenation's OFM NHCWB16 when the depth offsets are multiples of 16; npu-format-nhcwb16
  keeps every view's source NHWC), ops left on the CPU (their tensors stay NHWC and in the
  arena, as in Vela), 16-bit networks.
* **Arena cache size**: npu-place-tensors moves every internal feature map to SRAM whatever the
  memory mode's arena cache size, and the `estimate` pipeline cascades nothing. That is Vela's schedule for an
  unlimited cache (configs A and B). **Config C** (`--configs A,B,C`: Dedicated_Sram_384KB, not
  one of the targets): 605 of 614 layers within +-5 % through the pipeline; the 9 others are
  mobilenet_v1_100_224 layers whose feature maps Vela leaves in DRAM (conv_dw_6, conv_dw_12) or
  that Vela cascades (its first 11 ops, in three cascades) because their
  feature maps do not fit 384 KB, which the `estimate` pipeline does not do. Vela costs a
  cascaded op whole (whole IFM/OFM shapes) but with the block config searched for its OFM
  *stripe* (conv_dw_5: 8x22x16 for an 8-row stripe, where the whole-OFM search gives 14x14x16),
  and charges it no full weight-transfer time. The `schedule` pipeline forms the cascades
  (npu-form-cascades writes `npu.stripe`/`npu.cascade`), npu-select-block-config searches a
  striped op's block on its stripe, and npu-estimate costs cascaded weight streams with no full
  transfer: `--pipeline` with npu-select-block-config re-run after npu-form-cascades (and
  without npu-allocate, which still overflows 384 KB on mobilenet_v1_100_224) gives 611 of 614
  layers within +-5 % in config C (607 without the re-run); the three left are conv_dw_5 (the
  cascade of ops 8-10 formed with 12-row stripes, Vela's has 8) and conv_dw_6/conv_dw_12
  (IFM left in DRAM).
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=bi.default_corpus())
    parser.add_argument("--configs", default="A,B")
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--out", type=Path, default=HERE / "PERF_FIDELITY.md")
    parser.add_argument("--csv-dir", type=Path, default=None, help="also write our per-op reports (--perf-report CSV) here")
    parser.add_argument("--pipeline", default=PIPELINE,
                        help="pipeline (or comma-separated passes) to run, e.g. schedule (default: %(default)s)")
    args = parser.parse_args(argv)
    configs = [c.strip() for c in args.configs.split(",") if c.strip()]
    models = [m.strip() for m in args.models.split(",") if m.strip()]
    bad_configs = [c for c in configs if c not in CONFIGS]
    if bad_configs:
        print(f"error: unknown config {', '.join(bad_configs)} (known: {', '.join(CONFIGS)})", file=sys.stderr)
        return 1
    if bi.partial_run_refused("perf_fidelity.py", args.out, HERE / "PERF_FIDELITY.md",
                              {"configs": args.configs, "models": args.models, "pipeline": args.pipeline},
                              {"configs": "A,B", "models": ",".join(MODELS), "pipeline": PIPELINE}):
        return 1
    reports = [args.corpus / "vela_reports" / f"{m}_{c}_Performance_legacy_per_layer.csv" for m in models
               for c in configs]
    if not bi.inputs_present("perf_fidelity.py", args.out, bi.corpus_models(args.corpus, models) + reports):
        return 1
    try:
        results = run(args.corpus, configs, models, args.csv_dir, args.pipeline)
    except ModelError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
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
