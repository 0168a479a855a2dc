"""One fuzz case: build the input from its number, run it through the tools, classify the outcome.

Verdicts: ``ok`` (accepted), ``user`` (rejected with a diagnostic, exit 1), ``internal`` (an
exception left a tool, or exit 1 without a word), ``roundtrip`` (parsed, but print -> parse is
not a fixed point), ``miss`` (npu-check-schedule accepted a mutated schedule whose outputs in
npu-run differ from the unmutated one's). Hangs are the campaign's business (it runs cases under a watchdog).
"""
from __future__ import annotations

import os
import random
import resource
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from tests.fuzz.cli import Escaped, run_cli
from tests.fuzz.mutate import TEXT_MUTATIONS, mutate_model, mutate_text
from tests.fuzz.scheduled import PASSES_ALONE, read_npz, search_pipeline, semantic_mutation
from tests.fuzz.seeds import ROOT, Seeds

ESTIMATE_SHARE = 0.15
"""The share of parsed-and-verified cases that also run the estimate pipeline (it is slow)."""

GENERIC_SHARE = 0.35
"""The share of round trips that also check the generic form (each check parses the text again)."""
MODEL_ROUND_TRIP_SHARE = 0.5
"""The share of imported models whose printed IR is round-tripped (big texts, slow to parse)."""

_OPT_FLAGS = [[], ["--allow-unregistered-dialect"], ["--split-input-file"],
              ["--split-input-file", "--verify-diagnostics"], ["--print-op-generic", "--print-debuginfo"],
              ["--pass=canonicalize,cse,dce"], ["--no-verify", "--allow-unregistered-dialect"],
              ["--elide-large-constants=4"]]


SCHEDULED_SHARE = 0.25
"""The share of cases on scheduled IR (tests/fuzz/scheduled.py)."""


@dataclass
class Case:
    index: int
    kind: str
    """``text`` (IR), ``model`` (a .tflite flatbuffer) or ``scheduled`` (IR of a scheduled model)."""
    data: bytes
    rng: random.Random
    action: str = ""
    """For a ``scheduled`` case: ``semantic`` (a schedule fact changed; npu-run), ``pass`` (one
    scheduling pass), ``run`` (npu-run) or ``search`` (the search's options on an unscheduled model)."""
    origin: str = ""
    """The unmutated scheduled text of a ``semantic`` case."""


@dataclass
class Outcome:
    verdict: str
    signature: str = ""
    detail: str = ""
    cpu: float = 0.0
    stages: list[str] = field(default_factory=list)
    kind: str = ""
    """The case's kind (``text`` or ``model``), for the campaign's counts."""


def make_case(index: int, seed: int, seeds: Seeds, model_share: float = 0.3) -> Case:
    """Case ``index`` of the campaign seeded ``seed``: the same input on every run."""
    rng = random.Random(f"{seed}:{index}")
    if seeds.scheduled and rng.random() < SCHEDULED_SHARE:
        return _scheduled_case(index, rng, seeds)
    if seeds.models and rng.random() < model_share:
        return Case(index, "model", mutate_model(rng, seeds), rng)
    return Case(index, "text", mutate_text(rng, seeds), rng)


def _scheduled_case(index: int, rng: random.Random, seeds: Seeds) -> Case:
    choice = rng.random()
    origin = rng.choice(seeds.scheduled)
    if choice < 0.4:
        return Case(index, "scheduled", semantic_mutation(rng, origin).encode("utf-8"), rng, "semantic", origin)
    if choice < 0.93 or not seeds.unscheduled:
        text = origin
        for _ in range(rng.choice([0, 1, 1, 1, 2])):
            mutation = rng.choice(TEXT_MUTATIONS)
            if mutation.__name__ != "_repeat_span":  # (scheduled texts are big: no 10-20 KB runs on them)
                text = mutation(rng, text, seeds)
        if rng.random() < 0.5:
            text = semantic_mutation(rng, text)
        return Case(index, "scheduled", text.encode("utf-8", "surrogatepass"), rng,
                    "run" if rng.random() < 0.3 else "pass")
    return Case(index, "scheduled", seeds.unscheduled[0].encode("utf-8"), rng, "search")


def signature_of(error: BaseException) -> str:
    """Exception type and the innermost project frame: one name per bug, not per input."""
    while error.__cause__ is not None:  # a wrapper (e.g. a dialect parser's crash): name the bug inside
        error = error.__cause__
    frames = traceback.extract_tb(error.__traceback__)
    where = "?"
    for frame in reversed(frames):
        path = Path(frame.filename)
        if ROOT in path.parents and "fuzz" not in path.parts:
            where = f"{path.relative_to(ROOT)}:{frame.lineno}"
            break
    return f"{type(error).__name__} at {where}"


class _Internal(Exception):
    def __init__(self, signature: str, detail: str) -> None:
        super().__init__(signature)
        self.signature = signature
        self.detail = detail


def _tool(tool: str, argv: list[str], stage: str) -> int:
    try:
        code, stderr = run_cli(tool, argv)
    except Escaped as escaped:
        error = escaped.error
        raise _Internal(signature_of(error), f"{stage}: {type(error).__name__}: {str(error)[:200]}") from None
    if code not in (0, 1):
        raise _Internal(f"exit {code} from {stage}", stderr[-300:])
    if code == 1 and not stderr.strip():
        raise _Internal(f"silent exit 1 from {stage}", "")
    if "Traceback (most recent call last)" in stderr:
        raise _Internal(f"traceback printed by {stage}", stderr[-300:])
    return code


def _round_trip(text: str, stage: str, generic_too: bool = True, printed: bool = False) -> str | None:
    """Parse ``text`` and check that printing is a fixed point (pretty form, and the generic one
    when ``generic_too``); None if it does not parse. ``printed`` says ``text`` is itself the
    printer's output (pretty, with locations), which printing it again must reproduce."""
    from npu_opt.ir.diagnostics import UserError
    from npu_opt.ir.parser import ParseOptions, parse_module
    from npu_opt.ir.printer import PrintOptions, print_op

    options = ParseOptions(allow_unregistered=True)
    try:
        module = parse_module(text, "case.mlir", options)
    except (UserError, RecursionError):
        return None
    except Exception as error:  # noqa: BLE001
        raise _Internal(signature_of(error), f"{stage}: parse: {type(error).__name__}: {str(error)[:200]}") from None
    for generic in (False, True) if generic_too else (False,):
        print_options = PrintOptions(generic=generic, debuginfo=True)
        try:
            first = print_op(module, print_options)
            again = parse_module(first, "printed.mlir", options)
            second = print_op(again, print_options)
        except UserError as err:
            raise _Internal(f"printed IR does not parse ({'generic' if generic else 'pretty'})",
                            f"{stage}: {err.diagnostic.message[:200]}") from None
        except Exception as error:  # noqa: BLE001
            raise _Internal(signature_of(error),
                            f"{stage}: print/reparse: {type(error).__name__}: {str(error)[:200]}") from None
        if printed and not generic and first != text:
            raise _Internal("print -> parse is not a fixed point (printed by the tool)",
                            f"{stage}: {_first_difference(text, first)}")
        if first != second:
            raise _Internal(f"print -> parse is not a fixed point ({'generic' if generic else 'pretty'})",
                            f"{stage}: {_first_difference(first, second)}")
    return text


def _first_difference(a: str, b: str) -> str:
    at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return f"at {at}: {a[max(0, at - 40):at + 40]!r} vs {b[max(0, at - 40):at + 40]!r}"


def _write_input(case: Case, workdir: str) -> tuple[str, str]:
    """Write ``case``'s input into ``workdir``; the input's path and the tools' output path."""
    path = os.path.join(workdir, "case.mlir" if case.kind == "text" else "case.tflite")
    with open(path, "wb") as stream:
        stream.write(case.data)
    return path, os.path.join(workdir, "out")


def _run_text(case: Case, workdir: str, stages: list[str]) -> str:
    path, out = _write_input(case, workdir)
    rng = case.rng
    choice = rng.random()
    if choice < 0.7:
        flags = rng.choice(_OPT_FLAGS)
        stages.append("npu-opt " + " ".join(flags))
        code = _tool("npu-opt", [path, "-o", out, *flags], stages[-1])
    elif choice < 0.85:
        stages.append("npu-translate --mlir-to-dot")
        code = _tool("npu-translate", ["--mlir-to-dot", "--allow-unregistered-dialect", path, "-o", out],
                     stages[-1])
    else:
        stages.append("npu-translate --export-tflite")
        code = _tool("npu-translate", ["--export-tflite", path, "-o", out], stages[-1])
    try:
        text = case.data.decode("utf-8")
    except UnicodeDecodeError:
        return "user" if code else "ok"
    stages.append("round trip")
    parsed = _round_trip(text, "round trip", rng.random() < GENERIC_SHARE)
    if parsed is not None and code == 0 and rng.random() < ESTIMATE_SHARE:
        stages.append("npu-opt --pass=estimate")
        _tool("npu-opt", [path, "-o", out, "--pass=estimate", "--target=ethos-u55-128"], stages[-1])
    return "user" if code else "ok"


def _run_model(case: Case, workdir: str, stages: list[str]) -> str:
    path, out = _write_input(case, workdir)
    rng = case.rng
    choice = rng.random()
    if choice < 0.5:
        stages.append("npu-translate --import-tflite")
        code = _tool("npu-translate", ["--import-tflite", "--print-debuginfo", path, "-o", out], stages[-1])
    elif choice < 0.8:
        stages.append("npu-opt")
        code = _tool("npu-opt", [path, "-o", out, "--print-debuginfo"], stages[-1])
    else:
        stages.append("npu-translate --export-tflite")
        code = _tool("npu-translate", ["--export-tflite", path, "-o", out], stages[-1])
    if code == 0 and choice < 0.8 and rng.random() < MODEL_ROUND_TRIP_SHARE:
        with open(out, encoding="utf-8") as stream:
            printed = stream.read()
        stages.append("round trip of the imported IR")
        _round_trip(printed, stages[-1], rng.random() < GENERIC_SHARE, printed=True)
        if rng.random() < ESTIMATE_SHARE:
            stages.append("npu-opt --pass=estimate")
            _tool("npu-opt", [path, "-o", out, "--pass=estimate", "--target=ethos-u55-128"], stages[-1])
    return "user" if code else "ok"


_ORIGIN_OUTPUTS: dict[tuple[int, str], dict[str, bytes]] = {}
"""npu-run's outputs on each unmutated scheduled seed (per worker: each seed runs once)."""

_RUN_SEEDS = ["0", "1", "7", "4294967295", "-1", "18446744073709551616", "x"]


def _run_scheduled(case: Case, workdir: str, stages: list[str]) -> str:
    path = os.path.join(workdir, "case.mlir")
    with open(path, "wb") as stream:
        stream.write(case.data)
    out = os.path.join(workdir, "out")
    rng = case.rng
    if case.action == "search":
        stages.append(f"npu-opt --pass={search_pipeline(rng)}")
        code = _tool("npu-opt", [path, "-o", out, stages[-1].split(" ", 1)[1], "--target=ethos-u55-128"], stages[-1])
        if code == 0:
            with open(out, encoding="utf-8") as stream:
                printed = stream.read()
            stages.append("round trip of the scheduled IR")
            _round_trip(printed, stages[-1], False)
        return "user" if code else "ok"
    if case.action == "pass":
        stages.append(f"npu-opt --pass={rng.choice(PASSES_ALONE)}")
        code = _tool("npu-opt", [path, "-o", out, stages[-1].split(" ", 1)[1]], stages[-1])
        try:
            text = case.data.decode("utf-8")
        except UnicodeDecodeError:
            return "user" if code else "ok"
        stages.append("round trip")
        _round_trip(text, "round trip", rng.random() < GENERIC_SHARE)
        return "user" if code else "ok"
    npz = os.path.join(workdir, "out.npz")
    if case.action == "run":
        flags = ["--seed", rng.choice(_RUN_SEEDS)] if rng.random() < 0.3 else []
        if rng.random() < 0.1:  # a corrupt .npz input
            with open(os.path.join(workdir, "in.npz"), "wb") as stream:
                stream.write(b"PK\x03\x04" + bytes(rng.randrange(256) for _ in range(rng.randint(0, 64))))
            flags += ["--input", os.path.join(workdir, "in.npz")]
        stages.append("npu-run " + " ".join(flags))
        code = _tool("npu-run", [path, "-o", npz, *flags], stages[-1])
        return "user" if code else "ok"
    # semantic: accepted by the checker (npu-run checks first), the outputs must not change
    stages.append("npu-run of the mutated schedule")
    code = _tool("npu-run", [path, "-o", npz, "--seed", "3"], stages[-1])
    if code:
        return "user"
    mutant = read_npz(npz)
    key = (hash(case.origin), case.origin[:64])
    if key not in _ORIGIN_OUTPUTS:
        with open(path, "w", encoding="utf-8") as stream:
            stream.write(case.origin)
        stages.append("npu-run of the unmutated schedule")
        if _tool("npu-run", [path, "-o", npz, "--seed", "3"], stages[-1]):
            raise _Internal("npu-run refuses a schedule of --pass=schedule", "")
        _ORIGIN_OUTPUTS[key] = read_npz(npz)
    if mutant != _ORIGIN_OUTPUTS[key]:
        changed = [name for name in mutant if mutant[name] != _ORIGIN_OUTPUTS[key].get(name)]
        raise _Internal("npu-check-schedule accepts a schedule that computes something else",
                        f"outputs {changed} differ; {_first_difference(case.origin, case.data.decode('utf-8'))}")
    return "ok"


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def run_case(case: Case, workdir: str) -> Outcome:
    """Run ``case`` in this process; never raises for anything the input can cause."""
    began = _cpu()
    stages: list[str] = []
    try:
        run = {"text": _run_text, "model": _run_model, "scheduled": _run_scheduled}[case.kind]
        verdict = run(case, workdir, stages)
        outcome = Outcome(verdict)
    except _Internal as bug:
        kind = ("roundtrip" if "fixed point" in bug.signature or "does not parse" in bug.signature
                else "miss" if "computes something else" in bug.signature else "internal")
        outcome = Outcome(kind, bug.signature, bug.detail)
    except RecursionError:
        outcome = Outcome("internal", "RecursionError in the harness", "")
    outcome.cpu = _cpu() - began
    outcome.stages = stages
    outcome.kind = case.kind
    return outcome
