"""Compare npu-form-cascades with Vela 5.2's legacy scheduler, cascade by cascade.

For each model, Vela (``--debug-force-legacy-core --verbose-schedule``) prints every op with its OFM
stripe and assigned cascade, and the list of cascades; npu-opt runs the placement passes and
npu-form-cascades on the imported model and prints ``npu.stripe``/``npu.cascade``. Ops are
matched by name (both keep the TFLite output tensor's name). A cascade matches when the same ops
form it; its stripes match when every member's OFM stripe height is the same.

    python bench/cascade_fidelity.py MODEL.tflite ... [--config C] [--arena-cache-size N] [--work DIR]

Config C is ethos-u65-256 / Ethos_U65_High_End / Dedicated_Sram_384KB, Performance. Vela's output
is cached in ``--work`` (rerun with ``--fresh`` to recompute).
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_inputs as bi  # noqa: E402  (the inputs check every bench shares)

CONFIGS = {
    "A": ("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram"),
    "B": ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram"),
    "C": ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram_384KB"),
}

Cascades = list[tuple[tuple[str, ...], tuple[int, ...]]]
"""Each cascade: its members' names in order, and their OFM stripe heights."""


def vela_cascades(model: Path, config: str, work: Path, fresh: bool, cache: int | None) -> Cascades:
    accel, system, mode = CONFIGS[config]
    suffix = f"{config}" if cache is None else f"{config}_{cache}"
    log = work / f"{model.stem}_{suffix}.vela.txt"
    if fresh or not log.exists():
        limit = [] if cache is None else ["--arena-cache-size", str(cache)]
        out = subprocess.run(["vela", str(model), "--accelerator-config", accel, "--system-config", system,
                              "--memory-mode", mode, "--debug-force-legacy-core", "--verbose-schedule", *limit,
                              "--output-dir", str(work / f"vela_{model.stem}_{suffix}")],
                             capture_output=True, text=True, check=True).stdout
        log.write_text(out)
    text = log.read_text()
    ops: dict[int, tuple[str, int]] = {}
    current = None
    for line in text.splitlines():
        head = re.match(r"\t(\d+): Operation (.*?)\s+- OFM", line)
        if head:
            current = int(head.group(1))
            ops[current] = (head.group(2), 0)
            continue
        stripe = re.search(r"OFM Stripe\s+= <Shape4D \[1, (\d+),", line)
        if stripe and current is not None:
            ops[current] = (ops[current][0], int(stripe.group(1)))
    found: Cascades = []
    for start, end in re.findall(r"\t\t\d+: (\d+) -> (\d+), size:", text):
        members = [ops[i] for i in range(int(start), int(end) + 1)]
        found.append((tuple(n for n, _ in members), tuple(h for _, h in members)))
    return found


def our_cascades(model: Path, config: str, work: Path, cache: int | None) -> Cascades:
    accel, system, mode = CONFIGS[config]
    imported = work / f"{model.stem}.mlir"
    if not imported.exists():
        subprocess.run(["npu-translate", "--import-tflite", str(model), "-o", str(imported)], check=True)
    passes = ("npu-legalize,npu-order,npu-format-nhcwb16,npu-place-tensors,npu-select-block-config,"
              "npu-form-cascades")
    out = subprocess.run([bi.console_script("npu-opt"), str(imported), f"--pass={passes}", f"--target={accel}",
                          f"--system-config={system}", f"--memory-mode={mode}", "--elide-large-constants", "64",
                          *([] if cache is None else [f"--arena-cache-size={cache}"])],
                         capture_output=True, text=True, check=True).stdout
    groups: dict[int, list[tuple[str, int]]] = {}
    for line in out.splitlines():
        cascade = re.search(r"npu\.cascade = #npu\.cascade<(\d+)", line)
        if not cascade:
            continue
        name = re.search(r'name = "([^"]*)"', line)
        stripe = re.search(r"npu\.stripe = #npu\.stripe<(\d+)x", line)
        groups.setdefault(int(cascade.group(1)), []).append(
            (name.group(1) if name else "?", int(stripe.group(1)) if stripe else 0))
    return [(tuple(n for n, _ in m), tuple(h for _, h in m)) for _, m in sorted(groups.items())]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", nargs="+", type=Path)
    parser.add_argument("--config", default="C", choices=sorted(CONFIGS))
    parser.add_argument("--work", type=Path, default=Path("/tmp/cascade_fidelity"))
    parser.add_argument("--arena-cache-size", type=int, default=None,
                        help="override the memory mode's arena cache size (both compilers)")
    parser.add_argument("--fresh", action="store_true", help="rerun Vela even when its output is cached")
    args = parser.parse_args(argv)
    if not bi.inputs_present("cascade_fidelity.py", args.work, args.models, ["vela"],
                             hint="the .tflite models to compare"):
        return 1
    args.work.mkdir(parents=True, exist_ok=True)
    totals = [0, 0, 0, 0]
    limit = "" if args.arena_cache_size is None else f", arena cache {args.arena_cache_size} bytes"
    print(f"config {args.config}: {' / '.join(CONFIGS[args.config])}{limit}, Performance")
    for model in args.models:
        theirs = vela_cascades(model, args.config, args.work, args.fresh, args.arena_cache_size)
        ours = our_cascades(model, args.config, args.work, args.arena_cache_size)
        by_members = {members: heights for members, heights in ours}
        same = sum(1 for members, _ in theirs if members in by_members)
        striped = sum(1 for members, heights in theirs if by_members.get(members) == heights)
        print(f"\n{model.stem}: Vela {len(theirs)} cascades, ours {len(ours)}; same ops {same}, same stripes {striped}")
        for label, found in (("vela", theirs), ("ours", ours)):
            for members, heights in found:
                print(f"  {label}: {len(members)} ops  {members[0][-48:]} .. {members[-1][-48:]}  stripes {list(heights)}")
        for i, value in enumerate((len(theirs), len(ours), same, striped)):
            totals[i] += value
    print(f"\ntotal: Vela {totals[0]} cascades, ours {totals[1]}; same ops {totals[2]}, same stripes {totals[3]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
