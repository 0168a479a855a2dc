"""The fuzz campaign: mutated IR and models through npu-opt and npu-translate, in-process.

    nice -n 10 python -m tests.fuzz.campaign --cases 100000 --workers 2 --results tests/fuzz/RESULTS.md

Cases are numbered; case N of seed S is the same input on every run (``--only N`` replays it).
Workers are forked processes watched by the parent: a case that uses more than ``--timeout``
seconds of CPU is killed and re-run alone with a longer limit; still unfinished, it is a hang.
Internal errors are grouped by signature (exception type and innermost project frame) and the
first input of each is minimised and saved under ``--out``.
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import shutil
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.fuzz.case import Outcome, make_case, run_case  # noqa: E402
from tests.fuzz.minimise import minimise_case  # noqa: E402
from tests.fuzz.seeds import Seeds, load_seeds  # noqa: E402

_SCRATCH = "/dev/shm" if os.path.isdir("/dev/shm") else None
"""Where workers write their case files (memory, when the system has it)."""

SEEDS: Seeds | None = None
"""Loaded once in the parent; forked workers inherit it."""


def _worker(conn: Connection, seed: int) -> None:
    """Run the case numbers the parent sends, answering each with its Outcome."""
    assert SEEDS is not None
    workdir = tempfile.mkdtemp(prefix="npu-fuzz-", dir=_SCRATCH)
    os.environ["TMPDIR"] = workdir  # crash reproducers and temporary outputs stay in here
    tempfile.tempdir = workdir
    while True:
        index = conn.recv()
        if index is None:
            return
        try:
            outcome = run_case(make_case(index, seed, SEEDS), workdir)
        except Exception as error:  # noqa: BLE001 - a bug in the harness itself, reported as such
            outcome = Outcome("internal", f"fuzz harness: {type(error).__name__}: {error}"[:200])
        conn.send(outcome)


@dataclass
class _Slot:
    process: multiprocessing.Process
    conn: Connection
    index: int | None = None
    started: float = 0.0
    cpu_started: float = 0.0


_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _process_cpu(pid: int | None) -> float:
    """CPU seconds (user + system) process ``pid`` has used; 0 where /proc is not available.

    The watchdog limits CPU time, not wall time: on a machine shared with other jobs a case may
    wait for a core far longer than it runs."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stream:
            fields = stream.read().rpartition(")")[2].split()
        return (int(fields[11]) + int(fields[12])) / _TICKS
    except (OSError, ValueError, IndexError):
        return 0.0


@dataclass
class Summary:
    cases: int = 0
    verdicts: Counter = field(default_factory=Counter)
    kinds: Counter = field(default_factory=Counter)
    bugs: dict[str, list[int]] = field(default_factory=dict)
    details: dict[str, str] = field(default_factory=dict)
    hangs: list[int] = field(default_factory=list)
    slow: list[tuple[int, float]] = field(default_factory=list)
    cpu: float = 0.0
    wall: float = 0.0


def _spawn(context: multiprocessing.context.BaseContext, seed: int) -> _Slot:
    parent, child = context.Pipe()
    process = context.Process(target=_worker, args=(child, seed), daemon=True)
    process.start()
    child.close()
    return _Slot(process, parent)


def _record(summary: Summary, index: int, outcome: Outcome) -> None:
    summary.cases += 1
    summary.verdicts[outcome.verdict] += 1
    summary.kinds[outcome.kind] += 1
    summary.cpu += outcome.cpu
    if outcome.verdict in ("internal", "roundtrip", "miss"):
        summary.bugs.setdefault(outcome.signature, []).append(index)
        summary.details.setdefault(outcome.signature, f"{outcome.detail} [{' / '.join(outcome.stages)}]")
    if outcome.cpu > 1.0:
        summary.slow.append((index, outcome.cpu))


WALL_FACTOR = 30
"""A case is also killed after this many times its CPU limit in wall time (a worker starved or stuck)."""


def run_pool(indices: list[int], seed: int, workers: int, timeout: float, progress: bool) -> tuple[Summary, list[int]]:
    """Run ``indices`` on forked workers; returns the summary and the cases that timed out
    (used more than ``timeout`` seconds of CPU)."""
    context = multiprocessing.get_context("fork")
    slots = [_spawn(context, seed) for _ in range(workers)]
    pending = list(reversed(indices))
    summary = Summary()
    timed_out: list[int] = []
    began = time.monotonic()
    last_report = began
    assert SEEDS is not None
    while pending or any(slot.index is not None for slot in slots):
        for slot in slots:
            if slot.index is None and pending:
                slot.index = pending.pop()
                slot.started = time.monotonic()
                slot.cpu_started = _process_cpu(slot.process.pid)
                slot.conn.send(slot.index)
        ready = wait([slot.conn for slot in slots if slot.index is not None], timeout=0.5)
        now = time.monotonic()
        for number, slot in enumerate(slots):
            if slot.index is None:
                continue
            if slot.conn in ready:
                try:
                    outcome = slot.conn.recv()
                except EOFError:  # the worker died (e.g. a C-level crash): an internal error
                    outcome = Outcome("internal", "worker process died", "")
                    slots[number] = _spawn(context, seed)
                _record(summary, slot.index, outcome)
                slots[number].index = None
            elif (_process_cpu(slot.process.pid) - slot.cpu_started > timeout
                  or now - slot.started > timeout * WALL_FACTOR):
                timed_out.append(slot.index)
                slot.process.kill()
                slot.process.join()
                slots[number] = _spawn(context, seed)
        if progress and now - last_report > 30:
            last_report = now
            rate = summary.cases / (now - began)
            sys.stderr.write(f"  {summary.cases}/{len(indices)} cases, {rate:.0f}/s, "
                             f"{dict(summary.verdicts)}, {len(timed_out)} timed out\n")
    for slot in slots:
        slot.conn.send(None)
        slot.process.join(5)
        if slot.process.is_alive():
            slot.process.kill()
    summary.wall = time.monotonic() - began
    return summary, timed_out


def _confirm_hangs(summary: Summary, timed_out: list[int], seed: int, timeout: float) -> None:
    """Re-run each timed-out case alone with a longer limit: unfinished ones are hangs."""
    for index in timed_out:
        result, _ = run_pool([index], seed, 1, timeout, False)
        if result.cases:
            if result.cpu > 1.0:
                summary.slow.append((index, result.cpu))
            for verdict, count in result.verdicts.items():
                summary.verdicts[verdict] += count
            summary.cases += 1
            summary.kinds.update(result.kinds)
            for sig, cases in result.bugs.items():
                summary.bugs.setdefault(sig, []).extend(cases)
                summary.details.setdefault(sig, result.details[sig])
        else:
            summary.hangs.append(index)
            summary.cases += 1
            summary.verdicts["hang"] += 1


def _save_reproducers(summary: Summary, seed: int, out: Path) -> dict[str, str]:
    """Minimise the first input of each bug signature and save it; returns signature -> path."""
    out.mkdir(parents=True, exist_ok=True)
    saved: dict[str, str] = {}
    assert SEEDS is not None
    for number, (signature, cases) in enumerate(sorted(summary.bugs.items())):
        case = make_case(cases[0], seed, SEEDS)
        data = minimise_case(lambda: make_case(cases[0], seed, SEEDS), signature)  # type: ignore[arg-type]
        path = out / f"bug{number:02d}-case{cases[0]}.{'tflite' if case.kind == 'model' else 'mlir'}"
        path.write_bytes(data)
        saved[signature] = str(path)
    for index in summary.hangs:
        case = make_case(index, seed, SEEDS)
        path = out / f"hang-case{index}.{'tflite' if case.kind == 'model' else 'mlir'}"
        path.write_bytes(case.data)
        saved[f"hang {index}"] = str(path)
    return saved


def render(summary: Summary, seed: int, workers: int, saved: dict[str, str], command: str) -> str:
    """The RESULTS.md text: counts per class, duration, and every bug signature found."""
    from platform import python_version
    lines = ["# Fuzz campaign results", "",
             f"Command: `{command}`", "",
             f"Seed {seed}, {workers} worker processes, Python {python_version()}, "
             f"{len(SEEDS.texts) if SEEDS else 0} text seeds and {len(SEEDS.models) if SEEDS else 0} model seeds.",
             "", "| class | cases |", "|---|---:|"]
    for verdict in ("ok", "user", "internal", "roundtrip", "miss", "hang"):
        lines.append(f"| {verdict} | {summary.verdicts.get(verdict, 0)} |")
    lines.append(f"| **total** | **{summary.cases}** |")
    lines += ["", f"Inputs: {summary.kinds.get('text', 0)} IR texts, {summary.kinds.get('model', 0)} flatbuffers, "
                  f"{summary.kinds.get('scheduled', 0)} scheduled IR texts ({len(SEEDS.scheduled) if SEEDS else 0} "
                  "scheduled seeds: semantic mutations through npu-run, scheduling passes alone, npu-run, "
                  "the search's options).",
              f"Duration: {summary.wall:.0f} s wall, {summary.cpu:.0f} s CPU in the workers "
              f"({summary.cases / max(summary.wall, 1e-9):.0f} cases/s).",
              f"Cases over 1 s of CPU: {len(summary.slow)}"
              + (f" (slowest: case {max(summary.slow, key=lambda s: s[1])[0]}, "
                 f"{max(s[1] for s in summary.slow):.1f} s)" if summary.slow else "") + ".", ""]
    if summary.bugs or summary.hangs:
        lines += ["## Findings", ""]
        for signature, cases in sorted(summary.bugs.items()):
            lines.append(f"- `{signature}`: {len(cases)} cases (first: {cases[0]}); "
                         f"{summary.details[signature][:300]}; reproducer {saved.get(signature, '-')}")
        for index in summary.hangs:
            lines.append(f"- hang: case {index}; input {saved.get(f'hang {index}', '-')}")
    else:
        lines += ["No internal errors, no hangs, no checker misses, and print -> parse was a fixed point on every "
                  "input that parsed."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    global SEEDS, _SCRATCH
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=int, default=2000)
    parser.add_argument("--start", type=int, default=0, help="the first case number")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=5.0, help="CPU seconds before a case is killed")
    parser.add_argument("--only", type=int, default=None, help="run this one case in-process and describe it")
    parser.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "npu-fuzz-findings"))
    parser.add_argument("--results", default=None, help="write the summary (Markdown) here")
    args = parser.parse_args(argv)
    SEEDS = load_seeds()
    _SCRATCH = tempfile.mkdtemp(prefix="npu-fuzz-run-", dir=_SCRATCH)
    try:
        return _run(args, argv)
    finally:
        shutil.rmtree(_SCRATCH, ignore_errors=True)


def _run(args: argparse.Namespace, argv: list[str] | None) -> int:
    """The campaign (or the one case of --only) once the seeds are loaded."""
    if args.only is not None:
        case = make_case(args.only, args.seed, SEEDS)
        workdir = tempfile.mkdtemp(prefix="npu-fuzz-", dir=_SCRATCH)
        sys.stdout.write(f"{case.kind}, {len(case.data)} bytes -> {workdir}\n")
        outcome = run_case(case, workdir)
        sys.stdout.write(f"{outcome}\n")
        return 0
    indices = list(range(args.start, args.start + args.cases))
    summary, timed_out = run_pool(indices, args.seed, args.workers, args.timeout, True)
    _confirm_hangs(summary, timed_out, args.seed, args.timeout * 6)
    saved = _save_reproducers(summary, args.seed, Path(args.out))
    command = "python -m tests.fuzz.campaign " + " ".join(argv if argv is not None else sys.argv[1:])
    text = render(summary, args.seed, args.workers, saved, command)
    sys.stdout.write(text)
    if args.results:
        Path(args.results).write_text(text, encoding="utf-8")
    return 1 if summary.bugs or summary.hangs else 0


if __name__ == "__main__":
    sys.exit(main())
