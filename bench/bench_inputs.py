"""What a bench needs before it runs: its inputs all present, and a result file it may overwrite.

Every bench that reads ../shared/corpus, runs ``vela`` or another tool checks here first. A bench
with an input missing prints one line naming it and the result file it leaves alone, and exits 1
without writing anything; a bench asked for part of its run (some models or configs) does not
overwrite the committed result with it, but writes where ``--out`` says. ``NPU_OPT_CORPUS``
points every bench at a corpus elsewhere (as ``--corpus DIR`` does for one run).
"""
from __future__ import annotations

import os
import shutil
import sys
import sysconfig
from collections.abc import Iterable
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

CORPUS_ENV = "NPU_OPT_CORPUS"
"""The environment variable naming the corpus directory (models/, vela_baseline.json, vela_reports/)."""

CORPUS_HINT = ("the corpus is ../shared/corpus beside the repository, see its README.md; "
               f"give another copy with --corpus DIR or {CORPUS_ENV}=DIR")


def console_script(name: str) -> str:
    """The console script of the environment running this bench (not a version-manager shim in
    front of another environment's), so a bench measures the checkout it was started from."""
    candidate = Path(sysconfig.get_path("scripts")) / name
    if candidate.exists():
        return str(candidate)
    found = shutil.which(name)
    if found is None:
        raise RuntimeError(f"'{name}' is not installed")
    return found


def default_corpus() -> Path:
    """The corpus directory: ``$NPU_OPT_CORPUS`` if set, else ../shared/corpus beside the repository."""
    chosen = os.environ.get(CORPUS_ENV)
    return Path(chosen) if chosen else ROOT.parent / "shared" / "corpus"


def _shown(path: Path) -> str:
    """``path`` relative to the repository when it is inside it (as the committed results are named)."""
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def inputs_present(script: str, out: Path, paths: Iterable[Path] = (), tools: Iterable[str] = (),
                   hint: str = CORPUS_HINT) -> bool:
    """True when every path of ``paths`` exists and every program of ``tools`` is on PATH; else
    False after one line on stderr naming the first missing input, how many more there are, and
    that ``out`` was not written."""
    missing = [f"'{path}'" for path in paths if not path.exists()]
    hints = [hint] if missing else []
    absent_tools = [tool for tool in tools if shutil.which(tool) is None]
    missing += [f"'{tool}' on PATH" for tool in absent_tools]
    if "vela" in absent_tools:
        hints.append("pip install ethos-u-vela==5.2.0")
    if not missing:
        return True
    more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
    print(f"{script}: missing input {missing[0]}{more}; nothing written to {_shown(out)} ({'; '.join(hints)})",
          file=sys.stderr)
    return False


def corpus_models(corpus: Path, models: Iterable[str]) -> list[Path]:
    """The .tflite file of each corpus model named in ``models``."""
    return [corpus / "models" / f"{model}.tflite" for model in models]


def partial_run_refused(script: str, out: Path, committed: Path, chosen: dict[str, str],
                        full: dict[str, str], out_flag: str = "--out") -> bool:
    """True (after one line on stderr) when the options of ``chosen`` pick less than the full run
    (``full``, the defaults) while the result would go to the committed file ``committed``
    (``out_flag`` names another)."""
    narrowed = [f"--{name} {value}" for name, value in chosen.items() if value != full[name]]
    if not narrowed or out.resolve() != committed.resolve():
        return False
    print(f"{script}: {' '.join(narrowed)} runs part of the bench, which would overwrite the full result "
          f"{_shown(committed)}; nothing written (give {out_flag} FILE for a partial result)", file=sys.stderr)
    return True


__all__ = ["CORPUS_ENV", "CORPUS_HINT", "corpus_models", "default_corpus", "inputs_present", "partial_run_refused"]
