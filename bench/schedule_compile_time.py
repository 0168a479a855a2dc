"""CPU time of ``npu-opt --pass=schedule`` beside Vela's C++ core and its legacy (Python) core;
writes bench/SCHEDULE_COMPILE_TIME.md.

    python bench/schedule_compile_time.py [--corpus DIR] [--configs A,C] [--models m1,m2] [--repeat N]
                                          [--out FILE]

Per ../shared/corpus model and config, four child processes run back to back (order rotated per
repeat): the user's ``npu-opt MODEL --pass=schedule --target ... -o /dev/null`` (verifier on),
the same with ``schedule{encode-weights=false}`` (weights sized raw: where the time goes without
the codec), ``vela`` with its default C++ core, and ``vela --debug-force-legacy-core``, both full
compiles with ``--optimise Performance``. CPU time (user + system) and peak memory of each child come from
``os.wait4``, as in bench/compile_time.py, whose helpers this reuses (npu-opt runs from a compiled
copy of the packages, as installed). Ratios are medians of the paired ratios. Goal:
npu-opt no slower than Vela's C++ core on every model.

One discarded run of each tool comes first (cold file caches). For reading the ratios, the CPU
time of ``vela --version`` (Vela's start-up: Python, numpy and
its own modules, no compile) is measured as often as the repeats ask and reported with the sums:
what a model's Vela time has beyond it is Vela's compile itself.
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import compile_time as ct  # noqa: E402  (the child-process timing shared with the estimate's bench)

GOAL_RATIO = 1.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=ct.bi.default_corpus())
    parser.add_argument("--configs", default="A,C")
    parser.add_argument("--models", default=",".join(ct.MODELS))
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--out", type=Path, default=HERE / "SCHEDULE_COMPILE_TIME.md")
    args = parser.parse_args(argv)
    configs = [c for c in args.configs.split(",") if c]
    models = [m for m in args.models.split(",") if m]
    unknown = [c for c in configs if c not in ct.CONFIGS]
    if unknown:
        print(f"schedule_compile_time.py: unknown config {unknown[0]!r} (known: {', '.join(ct.CONFIGS)})",
              file=sys.stderr)
        return 1
    if ct.corpus_run_refused("schedule_compile_time.py", args, HERE / "SCHEDULE_COMPILE_TIME.md", tools=("vela",)):
        return 1
    vela = shutil.which("vela")
    assert vela is not None  # checked just above
    rows = []
    with tempfile.TemporaryDirectory() as copy, tempfile.TemporaryDirectory() as out_dir:
        env = ct.compiled_copy(copy)
        startup = statistics.median(ct.run_child([vela, "--version"]).cpu for _ in range(max(1, args.repeat)))
        floor = statistics.median(ct.run_child([sys.executable, "-c", "import numpy"]).cpu
                                  for _ in range(max(1, args.repeat)))
        if models and configs:  # one discarded run of each tool first: the first child pays for cold file caches
            first = args.corpus / "models" / f"{models[0]}.tflite"
            ct.run_child(ct.npu_opt_command(first, configs[0], "schedule"), env)
            ct.run_child(ct.vela_command(vela, first, configs[0], out_dir))
        for model in models:
            path = args.corpus / "models" / f"{model}.tflite"
            for config in configs:
                runs: dict[str, list] = {"ours": [], "cpp": [], "legacy": [], "raw": []}
                commands = [("ours", ct.npu_opt_command(path, config, "schedule"), env),
                            ("raw", ct.npu_opt_command(path, config, "schedule{encode-weights=false}"), env),
                            ("cpp", ct.vela_command(vela, path, config, out_dir), None),
                            ("legacy", ct.vela_command(vela, path, config, out_dir) + ["--debug-force-legacy-core"],
                             None)]
                for attempt in range(max(1, args.repeat)):
                    order = commands[attempt % len(commands):] + commands[:attempt % len(commands)]
                    for which, command, child_env in order:
                        runs[which].append(ct.run_child(command, child_env))
                ratio_cpp = statistics.median(o.cpu / v.cpu for o, v in zip(runs["ours"], runs["cpp"]))
                ratio_legacy = statistics.median(o.cpu / v.cpu for o, v in zip(runs["ours"], runs["legacy"]))
                failed = [which for which, usages in runs.items() if any(u.status for u in usages)]
                ratio_raw = statistics.median(o.cpu / v.cpu for o, v in zip(runs["raw"], runs["cpp"]))
                row = (model, config, *(statistics.median(u.cpu for u in runs[k]) for k in ("ours", "cpp", "legacy")),
                       max(u.peak_mb for u in runs["ours"]), ratio_cpp, ratio_legacy, failed,
                       statistics.median(u.cpu for u in runs["raw"]), ratio_raw)
                print(f"{model} {config}: npu-opt {row[2]:.2f} s, vela C++ {row[3]:.2f} s, legacy {row[4]:.2f} s, "
                      f"ratios {ratio_cpp:.2f} / {ratio_legacy:.2f}" + (f" (failed: {failed})" if failed else ""),
                      flush=True)
                rows.append(row)
    lines = ["# Compile time: `npu-opt --pass=schedule` beside Vela 5.2.0 (C++ and legacy cores)", "",
             "Generated by `python bench/schedule_compile_time.py` (method in its docstring); medians of "
             f"{args.repeat} rotated run(s) per model and config. Goal: ratio to Vela's C++ core <= {GOAL_RATIO}.", "",
             "| model | config | npu-opt CPU s | npu-opt peak MB | Vela C++ CPU s | Vela legacy CPU s | ratio to C++ | "
             "ratio to legacy | goal met | npu-opt without codec CPU s | its ratio to C++ |",
             "|---|---|---:|---:|---:|---:|---:|---:|---|---:|---:|"]
    for model, config, ours, cpp, legacy, peak, r_cpp, r_legacy, failed, raw, r_raw in rows:
        verdict = f"failed ({', '.join(failed)})" if failed else ("yes" if r_cpp <= GOAL_RATIO else "no")
        lines.append(f"| {model} | {config} | {ours:.2f} | {peak:.0f} | {cpp:.2f} | {legacy:.2f} | {r_cpp:.2f} | "
                     f"{r_legacy:.2f} | {verdict} | {raw:.2f} | {r_raw:.2f} |")
    met = sum(1 for r in rows if not r[8] and r[6] <= GOAL_RATIO)
    lines += ["", f"Goal met on {met}/{len(rows)} model/config pairs. Sums: npu-opt {sum(r[2] for r in rows):.2f} s, "
                  f"Vela C++ {sum(r[3] for r in rows):.2f} s, Vela legacy {sum(r[4] for r in rows):.2f} s. "
                  f"Vela's start-up alone (`vela --version`): {startup:.2f} s CPU per run; Python importing numpy, "
                  f"which both tools do first: {floor:.2f} s.", "",
              "Without the codec: the same pipeline with `schedule{encode-weights=false}` (weight streams sized "
              "raw, so the schedule is not Vela's; it shows where the time goes). It is within the goal on "
              f"{sum(1 for r in rows if r[10] <= GOAL_RATIO)}/{len(rows)} pairs: the time over Vela's is the weight "
              "codec's (Golomb-Rice parameter search, reordering and palettes in numpy), which Vela runs in C.", ""]
    args.out.write_text("\n".join(lines), encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
