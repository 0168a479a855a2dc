"""Every valid IR input of the lit suite round-trips through npu-opt and through xDSL.

For each ``.mlir`` file under ``tests/lit`` that is not an error test (no ``expected-*``
annotations, no ``not npu-opt`` RUN line, not XFAIL) and not under ``Inputs/``:

(a) printing is a fixed point: ``print(parse(x)) == print(parse(print(parse(x))))``;
(b) ``xdsl-opt`` parses npu-opt's pretty and generic output, and npu-opt parses xdsl-opt's
    pretty and generic output back to exactly what it printed first.

The file is processed with ``--split-input-file`` and ``--allow-unregistered-dialect``. A chunk
containing ``XDSL-INCOMPATIBLE:`` (with the reason) is left out of the xDSL checks only; use it
for xDSL limitations, never to hide an npu-opt bug. The xDSL checks are skipped when xdsl-opt is
not installed.
"""
from __future__ import annotations

import contextlib
import difflib
import functools
import io
import re
import subprocess
import tempfile
from pathlib import Path

import pytest

from tool_paths import which_tool

ROOT = Path(__file__).resolve().parents[3]
LIT = ROOT / "tests" / "lit"
SEPARATOR = "// -----"
JOINER = "\n" + SEPARATOR + "\n"
XDSL_OPT = which_tool("xdsl-opt")

_EXPECTATION = re.compile(r"expected-(error|warning|note|remark)")
_NEGATIVE_RUN = re.compile(r"RUN:.*\bnot\s+(%npu_opt|npu-opt)\b")


def _is_valid_input(text: str) -> bool:
    return not (_EXPECTATION.search(text) or _NEGATIVE_RUN.search(text) or "XFAIL:" in text)


def _lit_inputs() -> list[Path]:
    found = []
    for path in sorted(LIT.rglob("*.mlir")):
        relative = path.relative_to(LIT)
        if relative.parts[0] in ("Inputs", "Output"):
            continue
        if _is_valid_input(path.read_text(encoding="utf-8")):
            found.append(path)
    return found


INPUTS = _lit_inputs()


def _chunks(text: str) -> list[str]:
    """The '// -----' separated chunks, as npu-opt --split-input-file sees them."""
    chunks, current = [], []
    for line in text.split("\n"):
        if line.startswith(SEPARATOR):
            chunks.append("\n".join(current))
            current = []
        else:
            current.append(line)
    chunks.append("\n".join(current))
    return chunks


@functools.lru_cache(maxsize=None)
def npu_opt(text: str, *flags: str) -> str:
    """Run npu-opt's command-line entry point in this process (start-up dominates a subprocess)
    on ``text`` with --split-input-file and --allow-unregistered-dialect; fail on an error.
    Cached: the xDSL batch, the round trips and the fixed points print the same inputs."""
    from npu_opt.tools.npu_opt import main

    with tempfile.TemporaryDirectory() as tmp:
        source, output = Path(tmp) / "input.mlir", Path(tmp) / "output.mlir"
        source.write_text(text, encoding="utf-8")
        errors = io.StringIO()
        with contextlib.redirect_stderr(errors):
            code = main([str(source), "--split-input-file", "--allow-unregistered-dialect",
                         "-o", str(output), *flags])
        if code != 0:
            pytest.fail(f"npu-opt {' '.join(flags)} failed ({code}):\n{errors.getvalue()}\n"
                        f"--- input ---\n{text}")
        return output.read_text(encoding="utf-8")


def xdsl_opt(text: str, *flags: str) -> str:
    assert XDSL_OPT is not None
    done = subprocess.run([XDSL_OPT, "--split-input-file", "--allow-unregistered-dialect", *flags],
                          input=text, capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        tail = done.stderr.strip().splitlines()[-6:]
        pytest.fail(f"xdsl-opt {' '.join(flags)} rejected npu-opt's output:\n" + "\n".join(tail)
                    + f"\n--- input ---\n{text}")
    return done.stdout


def assert_same(expected: str, actual: str, what: str) -> None:
    """Compare two --split-input-file outputs, naming the first chunk that differs."""
    if expected == actual:
        return
    want, got = expected.split(JOINER), actual.split(JOINER)
    if len(want) != len(got):
        pytest.fail(f"{what}: {len(got)} chunks instead of {len(want)}")
    for index, (a, b) in enumerate(zip(want, got)):
        if a != b:
            diff = "\n".join(difflib.unified_diff(a.splitlines(), b.splitlines(), "expected",
                                                  "actual", lineterm=""))
            pytest.fail(f"{what}: chunk #{index} differs:\n{diff}")
    pytest.fail(f"{what}: outputs differ")


def _id(path: Path) -> str:
    return str(path.relative_to(LIT))


def test_the_suite_has_valid_inputs():
    names = {_id(p) for p in INPUTS}
    assert {"syntax/types.mlir", "syntax/regions.mlir", "passes/cse.mlir"} <= names
    # error tests, negative RUN lines and known failures are left out
    assert not {"invalid/values.mlir", "driver/bad-input.mlir", "syntax/comment-in-operands.mlir"} & names


@pytest.mark.parametrize("path", INPUTS, ids=_id)
def test_printing_is_a_fixed_point(path: Path):
    first = npu_opt(path.read_text(encoding="utf-8"))
    assert_same(first, npu_opt(first), "npu-opt(npu-opt(x)) vs npu-opt(x)")
    generic = npu_opt(path.read_text(encoding="utf-8"), "--print-op-generic")
    assert_same(first, npu_opt(generic), "npu-opt(npu-opt --print-op-generic(x)) vs npu-opt(x)")


def _xdsl_text(path: Path) -> str:
    """The chunks of ``path`` that xDSL is expected to read, joined again ('' if none)."""
    kept = [c for c in _chunks(path.read_text(encoding="utf-8")) if "XDSL-INCOMPATIBLE:" not in c]
    return JOINER.join(kept)


@functools.lru_cache(maxsize=None)
def _batched_xdsl(generic: bool) -> dict[Path, str]:
    """xdsl-opt's output for every input without resources, from ONE xdsl-opt process per form
    (a process start costs ~0.3 s of CPU; one per file made this the slowest test). Inputs with
    dense_resource blobs are left to a process of their own, since xDSL renames a resource key it
    has seen in an earlier chunk. Empty if the batch fails: the tests then run one file at a time."""
    flags = ("--print-op-generic",) if generic else ()
    printed: dict[Path, str] = {}
    for path in INPUTS:
        text = _xdsl_text(path)
        if not text or "dense_resource" in text or "{-#" in text:
            continue
        with contextlib.suppress(pytest.fail.Exception):
            printed[path] = npu_opt(text, *flags)
    done = subprocess.run([XDSL_OPT, "--split-input-file", "--allow-unregistered-dialect", *flags],
                          input=JOINER.join(printed.values()), capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        return {}
    pieces = [piece.rstrip("\n") for piece in re.split(r"(?m)^// -----\n?", done.stdout)]
    counts = [len(text.split(JOINER)) for text in printed.values()]
    if len(pieces) != sum(counts):
        return {}
    outputs, start = {}, 0
    for path, count in zip(printed, counts):
        outputs[path] = JOINER.join(pieces[start:start + count]) + "\n"
        start += count
    return outputs


def _xdsl_read(path: Path, ours: str, generic: bool) -> str:
    """xdsl-opt's reading of ``ours`` (npu-opt's output for ``path``), batched where possible."""
    batched = _batched_xdsl(generic).get(path)
    if batched is not None:
        return batched
    return xdsl_opt(ours, *(("--print-op-generic",) if generic else ()))


@pytest.mark.skipif(XDSL_OPT is None, reason="xdsl-opt is not installed")
@pytest.mark.parametrize("path", INPUTS, ids=_id)
def test_xdsl_round_trip(path: Path):
    text = _xdsl_text(path)
    if not text:
        pytest.skip("every chunk is marked XDSL-INCOMPATIBLE")
    ours = npu_opt(text)
    # xDSL reads our pretty form; we read xDSL's pretty form back.
    assert_same(ours, npu_opt(_xdsl_read(path, ours, generic=False)), "npu-opt(xdsl-opt(npu-opt(x))) vs npu-opt(x)")
    # xDSL reads our generic form; we read xDSL's generic form back.
    generic = npu_opt(text, "--print-op-generic")
    assert_same(ours, npu_opt(_xdsl_read(path, generic, generic=True)),
                "npu-opt(xdsl-opt --print-op-generic(npu-opt --print-op-generic(x))) vs npu-opt(x)")


@pytest.mark.skipif(XDSL_OPT is None, reason="xdsl-opt is not installed")
def test_xdsl_batch_covers_the_inputs_without_resources():
    """The batched runs succeed (else every file would quietly fall back to a process of its own)."""
    assert len(_batched_xdsl(False)) >= 40 and len(_batched_xdsl(True)) >= 40
