"""Run npu-opt, npu-translate and npu-run in-process, as their console scripts do, minus the crash guard.

An internal error therefore reaches the caller as the original exception (with its traceback),
which is what the campaign needs to name and minimise it; the guards themselves are unit-tested.
"""
from __future__ import annotations

import io
import sys
from typing import Sequence


class Escaped(Exception):
    """An exception that left the tool: an internal error. ``error`` is the original one."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(f"{type(error).__name__}: {error}"[:300])
        self.error = error


def _npu_opt(argv: list[str]) -> int:
    from npu_opt.tools.cli_args import parse_args
    from npu_opt.tools.driver import InternalError, run
    try:
        args = parse_args(argv)
    except SystemExit as done:
        return int(done.code or 0)
    try:
        return run(args)
    except InternalError as crash:
        raise Escaped(crash.error) from crash.error


def _npu_translate(argv: list[str]) -> int:
    from npu_opt.tools import npu_translate
    args = npu_translate.parse_arguments(argv)
    if isinstance(args, int):
        return args
    return npu_translate.run_translation(args)


def _npu_run(argv: list[str]) -> int:
    from npu_opt.tools import npu_run
    try:
        args = npu_run.build_parser().parse_args(argv)
    except SystemExit as done:
        return int(done.code or 0)
    return npu_run.run(args)  # (a RunCrash leaves it: its cause is the bug)


_TOOLS = {"npu-opt": _npu_opt, "npu-translate": _npu_translate, "npu-run": _npu_run}


def run_cli(tool: str, argv: Sequence[str]) -> tuple[int, str]:
    """Run ``tool`` with ``argv``; returns (exit code, stderr). Raises Escaped on an internal error."""
    saved = sys.stdout, sys.stderr
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="surrogateescape")
    err = io.StringIO()
    sys.stdout, sys.stderr = out, err
    try:
        code = _TOOLS[tool](list(argv))
    except (Escaped, KeyboardInterrupt, SystemExit):
        raise
    except BaseException as error:  # noqa: BLE001 - anything else leaving the tool is a bug
        raise Escaped(error) from error
    finally:
        sys.stdout, sys.stderr = saved
    return code, err.getvalue()


def npu_opt_text(model: str, out: str, flags: Sequence[str]) -> str | None:
    """What ``npu-opt MODEL -o OUT FLAGS`` writes, or None when it refuses the input or crashes
    (a seed the tools crash on is the campaign's to find, not a seed)."""
    try:
        code, _ = run_cli("npu-opt", [model, "-o", out, *flags])
    except Escaped:
        return None
    if code != 0:
        return None
    with open(out, encoding="utf-8") as written:
        return written.read()
