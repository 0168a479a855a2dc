"""The Vela-equivalent pipeline beside Vela 5.2's legacy core on the repository's own test models
(tests/data), not only the corpus; writes bench/FIDELITY_BEYOND_CORPUS.md.

    python bench/fidelity_beyond_corpus.py [--configs A,C] [--out FILE]

Per tests/data model, config (bench/compile_time.py's A and C) and strategy (Performance, Size),
Vela runs live (``vela --debug-force-legacy-core --optimise O``; models Vela refuses are left
out) and npu-opt as a user runs it (``--pass=schedule{optimise=O} --summary-csv``). A row is
within the corpus bench's tolerance (bench/schedule_fidelity.py) when total cycles and SRAM used
are both within +-5 % of Vela's. These models were made to exercise shapes, kernels, data types
and graph forms the corpus lacks, so this is where the cost and memory models are least tested.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import compile_time as ct  # noqa: E402  (the configs and the user's npu-opt command)

TOLERANCE = 5.0
"""Percent, as bench/schedule_fidelity.py's goal."""

TRACED = (
    ("Vela's double-buffered streams",
        "Vela 5.2 allocates a double-buffered weight stream's two buffers as two tensors, and shortens "
        "the live range of the one not used last by a time step, so it ends before its op runs (an "
        "empty range when it is not prefetched): its allocator may then place that buffer over tensors "
        "live while the op reads it. `--verbose-allocation` on weight_stream shows the ranges (2-2, "
        "4-4; on branches A, right_conv's first buffer 3-4 for right_conv at time 4). Ours keep both "
        "buffers live while their op runs (the first from its transfer, the second from its reader, "
        "`npu.second_buffer`), which npu-check-schedule requires, so they take more SRAM than Vela "
        "reports on these models.",
        {("weight_stream", "Performance"), ("wide_batch", "Performance"), ("branches", "Performance")}),
    ("Vela's buffers of a cascade member under Size",
        "Vela's weight buffering of the MIN schedule subtracts, at a cascade member, "
        "the weight buffers the Performance-like pre-pass gave an earlier member of that cascade "
        "(right_conv's 9,552 bytes), though the MIN schedule leaves those weights in flash; right_project "
        "then finds no room (-5,712 bytes) and reads its weights from flash once per stripe. Ours "
        "counts only the buffers the MIN schedule keeps and buffers right_project's 1,360 bytes: fewer "
        "cycles than Vela in the same SRAM.",
        {("branches", "Size")}),
)
"""Causes of rows outside the tolerance, traced by hand against Vela's source and its
``--verbose-allocation`` / ``--verbose-schedule`` output: (title, explanation, {(model, optimise)})."""


def _percent(ours: float, vela: float) -> float:
    return 100 * (ours - vela) / vela if vela else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--configs", default="A,C")
    parser.add_argument("--out", type=Path, default=HERE / "FIDELITY_BEYOND_CORPUS.md")
    args = parser.parse_args(argv)
    if ct.bi.partial_run_refused("fidelity_beyond_corpus.py", args.out, HERE / "FIDELITY_BEYOND_CORPUS.md",
                                 {"configs": args.configs}, {"configs": "A,C"}):
        return 1
    vela = ct.require_vela("fidelity_beyond_corpus.py", args.out)
    if vela is None:
        return 1
    rows, within, refused, outside = [], 0, [], []
    for model in sorted((HERE.parent / "tests" / "data").glob("*.tflite")):
        for config in [c for c in args.configs.split(",") if c]:
            for optimise in ("Performance", "Size"):
                reference = ct.vela_legacy_figures(vela, model, config, optimise)
                if reference is None:
                    refused.append(f"{model.stem} {config} {optimise}")
                    continue
                ours = ct.npu_opt_figures(model, config, f"schedule{{optimise={optimise}}}")
                if isinstance(ours, str):
                    rows.append(f"| {model.stem} | {config} | {optimise} | {reference[0]:,.0f} | failed: {ours} | | | | |")
                    continue
                dc, ds = _percent(ours[0], reference[0]), _percent(ours[1], reference[1])
                ok = abs(dc) <= TOLERANCE and abs(ds) <= TOLERANCE
                within += ok
                if not ok:
                    outside.append((model.stem, config, optimise))
                rows.append(f"| {model.stem} | {config} | {optimise} | {reference[0]:,.0f} | {ours[0]:,.0f} | {dc:+.1f} % "
                            f"| {reference[1]:,.0f} | {ours[1]:,.0f} | {ds:+.1f} % | {'yes' if ok else 'no'} |")
                print(rows[-1], flush=True)
    lines = ["# The Vela-equivalent pipeline beyond the corpus: tests/data beside Vela 5.2 (legacy core)", "",
             "Generated by `python bench/fidelity_beyond_corpus.py` (method in its docstring).", "",
             f"**Rows within +-{TOLERANCE:.0f} % on total cycles and SRAM used: {within}/{len(rows)}.**", "",
             "| model | config | optimise | Vela cycles | ours | diff | Vela SRAM | ours | diff | within |",
             "|---|---|---|---:|---:|---:|---:|---:|---:|---|", *rows, "",
             "Left out (Vela refused the model): " + (", ".join(refused) or "none") + ".", *_traced(outside)]
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {args.out}: {within}/{len(rows)} within")
    return 0


def _traced(outside: list[tuple[str, str, str]]) -> list[str]:
    """The section on rows outside the tolerance: each known cause with the rows it explains,
    and the rows no traced cause covers."""
    if not outside:
        return []
    lines = ["", "## Rows outside +-5 %", ""]
    covered: set[tuple[str, str, str]] = set()
    for title, why, keys in TRACED:
        rows = [r for r in outside if (r[0], r[2]) in keys]
        if rows:
            covered.update(rows)
            lines.append(f"- **{title}** ({', '.join(' '.join(r) for r in rows)}): {why}")
    rest = [r for r in outside if r not in covered]
    if rest:
        lines.append(f"- **Not traced yet**: {', '.join(' '.join(r) for r in rest)}.")
    return lines


if __name__ == "__main__":
    sys.exit(main())
