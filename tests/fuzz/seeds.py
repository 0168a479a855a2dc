"""The inputs the fuzz campaign mutates: lit and example IR, the test models, their printed IR.

Everything is built deterministically from files in the repository (and, when present, the
small models of ../shared/corpus), so a case number names the same input on every run.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "corpus" / "models"
CORPUS_LIMIT = 128 * 1024
"""Corpus models larger than this are left out: the campaign wants many small cases per second."""

_RUN_LINE = re.compile(r"^// *(RUN|CHECK|REQUIRES|XFAIL)[-A-Z]*:.*$", re.M)


@dataclass(frozen=True)
class Seeds:
    texts: tuple[str, ...]
    """IR texts (one per split chunk), with RUN/CHECK lines removed."""
    models: tuple[bytes, ...]
    """TFLite flatbuffers."""
    tokens: tuple[str, ...]
    """Distinct tokens of the texts, for token insertion."""
    scheduled: tuple[str, ...] = ()
    """Small test models after ``--pass=schedule`` (tests/fuzz/scheduled.py)."""
    unscheduled: tuple[str, ...] = ()
    """The same models imported, for the search's options."""


def _chunks(text: str) -> list[str]:
    text = _RUN_LINE.sub("", text)
    return [part.strip("\n") + "\n" for part in text.split("// -----") if part.strip()]


def _model_files() -> list[Path]:
    files = sorted((ROOT / "tests" / "data").glob("*.tflite"))
    if CORPUS.is_dir():
        files += [p for p in sorted(CORPUS.glob("*.tflite")) if p.stat().st_size <= CORPUS_LIMIT]
    return files


def _printed_models(models: list[bytes]) -> list[str]:
    """Each model imported and printed, and once more after the estimate pipeline (npu ops)."""
    import tempfile

    from tests.fuzz.cli import npu_opt_text

    texts: list[str] = []
    with tempfile.TemporaryDirectory(prefix="npu-fuzz-seeds-") as tmp:
        model_path, out_path = Path(tmp, "seed.tflite"), Path(tmp, "seed.mlir")
        for data in models[:8]:
            model_path.write_bytes(data)
            for flags in (["--print-debuginfo"], ["--pass=estimate", "--target=ethos-u55-128"]):
                text = npu_opt_text(str(model_path), str(out_path), flags)
                if text is not None:
                    texts.append(text)
    return texts


_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|[%@#!^][\w.$-]*|[A-Za-z_][\w.$]*|-?[0-9][\w.+-]*|->|\S')


def load_seeds(with_printed_models: bool = True) -> Seeds:
    """All seeds, in a fixed order."""
    texts: list[str] = []
    for folder in ("tests/lit", "examples"):
        for path in sorted((ROOT / folder).rglob("*.mlir")):
            if "Output" in path.parts:
                continue
            try:
                texts.extend(_chunks(path.read_text(encoding="utf-8")))
            except (UnicodeDecodeError, OSError):
                continue
    models = [p.read_bytes() for p in _model_files()]
    if with_printed_models:
        texts.extend(_printed_models(models))
    scheduled: list[str] = []
    unscheduled: list[str] = []
    if with_printed_models:
        from tests.fuzz.scheduled import scheduled_seeds
        scheduled, unscheduled = scheduled_seeds(ROOT)
    tokens = sorted({tok for text in texts + scheduled for tok in _TOKEN.findall(text) if len(tok) < 80})
    return Seeds(tuple(texts), tuple(models), tuple(tokens), tuple(scheduled), tuple(unscheduled))
