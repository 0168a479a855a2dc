"""Digests of every scheduled IR text npu-opt prints for our models; writes bench/IR_DIGESTS.json.

    python bench/ir_digests.py [--corpus DIR] [--large] [--jobs N] [--out FILE] [--check FILE]

A refactoring that promises "the same schedules" proves it here: each model of tests/data and
../shared/corpus (and with ``--large`` the models of bench/large_models/) is run through the user's
command, a child process with the verifier on,

    npu-opt MODEL.tflite --pass=PIPELINE --target=... --system-config=... --memory-mode=... -o OUT.mlir

for configs A, B and C and pipelines ``schedule{optimise=Performance}``, ``schedule{optimise=Size}``
and ``schedule{sram-budget=...}`` (the search, at the Performance schedule's SRAM less a quarter),
and the SHA-256 of each output text (or of its error) is recorded. ``--check FILE`` compares with a
committed file (its cases of the models run here) and exits 1 naming every case whose text changed.
``--ignore-attr NAME`` (with ``--check``, repeatable) compares texts with the attribute NAME (a unit
attribute or a string) taken out, for a change that adds a fact to the printed IR and nothing else:
a case equal only so is named, and does not fail the check.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import bench_inputs as bi  # noqa: E402  (the inputs check every bench shares)
import perf_fidelity  # noqa: E402  (configs A, B, C)

OUT = HERE / "IR_DIGESTS.json"
PIPELINES = ("schedule{optimise=Performance}", "schedule{optimise=Size}")
SRAM_USED = re.compile(r"npu\.usage = #npu\.usage<[^>]*Sram = \[(\d+)")


def _run(model: Path, config: str, pipeline: str) -> tuple[str, str]:
    """The digest of ``npu-opt``'s output for one case (``error:`` and the stderr digest on failure),
    and the output text."""
    target, system, mode = perf_fidelity.CONFIGS[config]
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.mlir"
        proc = subprocess.run(
            [bi.console_script("npu-opt"), str(model), f"--pass={pipeline}", f"--target={target}",
             f"--system-config={system}", f"--memory-mode={mode}", "-o", str(out)],
            capture_output=True, text=True)
        if proc.returncode != 0:
            text = proc.stderr.replace(str(model.parent), "<dir>")
            return "error:" + hashlib.sha256(text.encode()).hexdigest(), text
        text = out.read_text(encoding="utf-8")
        return hashlib.sha256(text.encode()).hexdigest(), text


def _without(text: str, attrs: tuple[str, ...]) -> str:
    """``text`` with each attribute of ``attrs`` (a unit attribute, or one with a string value)
    taken out of the attribute dictionaries."""
    for name in attrs:
        word = re.escape(name) + r'(?: = "[^"]*")?'
        text = re.sub(rf", {word}(?=[,}}])|(?<={{){word}, |\{{{word}\}} ?", "", text)
    return text


def _cases_of(model: Path, config: str, ignore: tuple[str, ...] = ()) -> dict[str, tuple[str, str]]:
    """All pipelines of one (model, config): the key of each case, its digest and the digest of
    its text without the unit attributes ``ignore`` (the same when nothing is ignored)."""
    found: dict[str, tuple[str, str]] = {}

    def digests(digest: str, text: str) -> tuple[str, str]:
        if not ignore or digest.startswith("error:"):
            return digest, digest
        return digest, hashlib.sha256(_without(text, ignore).encode()).hexdigest()

    performance_text = ""
    for pipeline in PIPELINES:
        digest, text = _run(model, config, pipeline)
        found[f"{model.stem}/{config}/{pipeline}"] = digests(digest, text)
        if pipeline == PIPELINES[0]:
            performance_text = text
    used = SRAM_USED.search(performance_text)
    if used:
        budget = int(used.group(1)) * 3 // 4
        search = f"schedule{{sram-budget={budget}}}"
        found[f"{model.stem}/{config}/schedule{{sram-budget=3/4 Performance}}"] = digests(*_run(model, config, search))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=bi.default_corpus())
    parser.add_argument("--large", action="store_true", help="also the models of bench/large_models/")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--check", type=Path, help="compare with this file instead of writing")
    parser.add_argument("--ignore-attr", action="append", default=[], metavar="NAME",
                        help="with --check: compare the texts without this unit attribute too")
    args = parser.parse_args(argv)
    ignore = tuple(args.ignore_attr)
    models = sorted((ROOT / "tests" / "data").glob("*.tflite"))
    models += sorted((args.corpus / "models").glob("*.tflite"))
    if args.large:
        models += sorted((HERE / "large_models").glob("*.tflite"))
    cases = [(model, config) for model in models for config in perf_fidelity.CONFIGS]
    both: dict[str, tuple[str, str]] = {}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for found in pool.map(lambda case: _cases_of(*case, ignore), cases):
            both.update(found)
    digests = {key: pair[0] for key, pair in sorted(both.items())}
    if args.check:
        expected = json.loads(args.check.read_text(encoding="utf-8"))
        run = {model.stem for model in models}
        expected = {key: value for key, value in expected.items() if key.split("/")[0] in run}
        differing = sorted(key for key in expected.keys() | digests.keys() if expected.get(key) != digests.get(key))
        only_ignored = [key for key in differing if key in both and expected.get(key) == both[key][1]]
        changed = [key for key in differing if key not in only_ignored]
        for key in only_ignored:
            print(f"differs only by {', '.join(ignore)}: {key}", file=sys.stderr)
        for key in changed:
            print(f"changed: {key}", file=sys.stderr)
        extra = f", {len(only_ignored)} differing only by {', '.join(ignore)}" if ignore else ""
        print(f"{len(digests)} cases, {len(changed)} changed{extra}")
        return 1 if changed else 0
    args.out.write_text(json.dumps(digests, indent=1) + "\n", encoding="utf-8")
    print(f"{len(digests)} cases written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
