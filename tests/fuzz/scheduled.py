"""Fuzz cases on scheduled IR: the scheduling passes alone, npu-run, the search's options, and
semantic mutations of a schedule that npu-check-schedule must refuse or npu-run must not notice.

Seeds are tests/data models imported and scheduled (``--pass=schedule``), plus the same text
before scheduling for the search. A semantic mutation changes one schedule fact (an allocation's
offset, size or live range, an op's time, a weight stream's slices or buffers, a stripe, a
rolling buffer) so the text still parses; when the checker accepts the mutant, npu-run (which
runs the checker first) must give the outputs it gives on the unmutated schedule, byte for byte.
"""
from __future__ import annotations

import io
import random
import re
import zipfile

from tests.fuzz.cli import npu_opt_text

SCHEDULE_MODELS = ("conv", "elementwise", "weight_stream", "branches", "fire", "dilation", "kernels", "stride3")
"""tests/data models small enough to run scheduled in a case's CPU budget."""

PASSES_ALONE = ("npu-check-schedule", "npu-order", "npu-insert-dma", "npu-buffer-weights", "npu-form-cascades",
                "npu-select-block-config", "npu-place-fast-storage", "npu-allocate", "npu-estimate",
                "npu-width-bands", "npu-place-tensors", "npu-format-nhcwb16")
"""Scheduling passes run one at a time on (mutated) scheduled IR."""

_BOUNDARY = ["0", "1", "-1", "15", "16", "17", "4096", "65535", "2147483647", "2147483648", "4294967296",
             "1099511627776", "9223372036854775807", "9223372036854775808", "18446744073709551616", "-2"]
_SEARCH_OPTIONS = ("sram-budget", "steps", "refine", "max-bands", "jobs")

_ALLOC = re.compile(r"#npu\.alloc<(\w+), offset = (\d+), size = (\d+), live = \[(-?\d+), (-?\d+)\]>")
_TIME = re.compile(r"npu\.time = (-?\d+) : i64")
_STREAM = re.compile(r"slices = \[([0-9, ]+)\], buffering = (\w+), buffers = \[([0-9, ]+)\], bytes = (\d+)")
_STRIPE = re.compile(r"#npu\.stripe<(\d+)x(\d+)x(\d+)>")
_ROLLING = re.compile(r"rolling = (\d+)x(\d+)x(\d+)")


def _number(rng: random.Random, value: int) -> int:
    return max(0, rng.choice([value - 1, value + 1, value * 2, value // 2, 0, value + 16, value - 16, 1]))


def _replace(text: str, match: re.Match[str], new: str) -> str:
    return text[:match.start()] + new + text[match.end():]


def _plain_numbers(span: str) -> bool:
    """Whether every numeral in ``span`` is short enough to read as a Python int (an earlier text
    mutation may have put a 20,000-digit numeral there, past Python's 4,300-digit limit)."""
    return all(len(digits) <= 40 for digits in re.findall(r"\d+", span))


def semantic_mutation(rng: random.Random, text: str) -> str:
    """``text`` with one schedule fact changed (the text still parses)."""
    for _ in range(8):
        kind = rng.choice(["alloc", "alloc", "copy_alloc", "copy_alloc", "time", "stream", "stream", "stripe",
                           "rolling"])
        pattern = {"alloc": _ALLOC, "copy_alloc": _ALLOC, "time": _TIME, "stream": _STREAM,
                   "stripe": _STRIPE, "rolling": _ROLLING}[kind]
        found = [m for m in pattern.finditer(text) if _plain_numbers(m.group(0))]
        if not found:
            continue
        match = rng.choice(found)
        if kind == "copy_alloc":  # another value's allocation (an in-place candidate when it is an input's)
            return _replace(text, match, rng.choice(found).group(0))
        if kind == "alloc":
            area, *numbers = match.groups()
            field = rng.randrange(4)
            values = [int(n) for n in numbers]
            values[field] = _number(rng, values[field])
            return _replace(text, match, f"#npu.alloc<{area}, offset = {values[0]}, size = {values[1]}, "
                                         f"live = [{values[2]}, {values[3]}]>")
        if kind == "time":
            return _replace(text, match, f"npu.time = {_number(rng, int(match.group(1)))} : i64")
        if kind == "stream":
            slices = [int(s) for s in match.group(1).split(",")]
            buffers = [int(b) for b in match.group(3).split(",")]
            what = rng.randrange(3)
            if what == 0 and len(slices) > 2:  # merge two slices
                del slices[rng.randrange(1, len(slices) - 1)]
            elif what == 1:
                at = rng.randrange(len(buffers))
                buffers[at] = rng.choice([1, buffers[at] // 2, buffers[at] - 16, buffers[at] + 16])
            else:
                slices[-1] = _number(rng, slices[-1]) or 1
            slices = sorted(set(slices)) if slices[0] == 0 and len(set(slices)) > 1 else [0, 16]
            return _replace(text, match, f"slices = [{', '.join(map(str, slices))}], buffering = {match.group(2)}, "
                                         f"buffers = [{', '.join(str(max(b, 0)) for b in buffers)}], "
                                         f"bytes = {match.group(4)}")
        h, w, d = (int(v) for v in match.groups())
        field = rng.randrange(3)
        shape = [h, w, d]
        shape[field] = max(1, _number(rng, shape[field]))
        head = "#npu.stripe<" if kind == "stripe" else "rolling = "
        return _replace(text, match, f"{head}{'x'.join(map(str, shape))}{'>' if kind == 'stripe' else ''}")
    return text


def search_pipeline(rng: random.Random) -> str:
    """``schedule{...}`` with one to three of the search's options at boundary values."""
    options = {"sram-budget": rng.choice(_BOUNDARY + ["100000", "20000", "300000"])}
    for name in rng.sample(_SEARCH_OPTIONS[1:], rng.randint(0, 2)):
        options[name] = rng.choice(_BOUNDARY[:8])
    return "schedule{" + " ".join(f"{k}={v}" for k, v in options.items()) + "}"


def read_npz(path: str) -> dict[str, bytes]:
    """Each array of an .npz npu-run wrote, as its raw bytes (for an exact comparison)."""
    with open(path, "rb") as stream, zipfile.ZipFile(io.BytesIO(stream.read())) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def scheduled_seeds(root) -> tuple[list[str], list[str]]:
    """(scheduled texts, the same models imported and unscheduled), for SCHEDULE_MODELS that exist."""
    import tempfile
    from pathlib import Path

    scheduled: list[str] = []
    plain: list[str] = []
    with tempfile.TemporaryDirectory(prefix="npu-fuzz-sched-") as tmp:
        out = Path(tmp, "out.mlir")
        for name in SCHEDULE_MODELS:
            model = Path(root, "tests", "data", f"{name}.tflite")
            if not model.exists():
                continue
            for flags, into in ((["--pass=schedule", "--target=ethos-u55-128"], scheduled), ([], plain)):
                text = npu_opt_text(str(model), str(out), flags)
                if text is not None:
                    into.append(text)
    return scheduled, plain


__all__ = ["PASSES_ALONE", "SCHEDULE_MODELS", "read_npz", "scheduled_seeds", "search_pipeline", "semantic_mutation"]
