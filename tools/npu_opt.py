"""The ``npu-opt`` console entry point: argument handling, exit codes, crash reproducers.

``--version`` is answered before the IR packages are imported, so it stays instant.
"""
from __future__ import annotations

import sys
from typing import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """The command (``argv`` None: the console script or ``python -m``, which end the process
    here, without the interpreter's teardown) or a call with explicit arguments, which returns."""
    import gc

    command = argv is None
    collecting = gc.isenabled()
    gc.disable()  # see _main
    try:
        code = _main(argv)
    finally:
        if collecting and not command:
            gc.enable()  # (for callers in a longer-lived process, such as the tests)
    if command:
        _end_process(code)
    return code


def _end_process(code: int) -> None:
    """Exit with ``code`` once the exit handlers have run and the output is flushed, skipping
    the interpreter's teardown: clearing every module and a last cycle collection over all the
    objects a run leaves (the IR, numpy's), ~45 ms CPU on a one-op model and ~85 ms on a
    3k-op one, of no use to a process that ends. If flushing fails (a closed pipe) the ordinary
    exit reports it as before. Under a profiler or tracer (``python -m cProfile``, coverage) the
    ordinary exit stays, so that they write their results when the run returns."""
    import atexit
    import os

    if sys.getprofile() is not None or sys.gettrace() is not None:
        return
    atexit._run_exitfuncs()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return
    os._exit(code)


def _main(argv: Sequence[str] | None) -> int:
    """``main`` with Python's cycle collector off. Its periodic scans walk every live object
    (numpy's and the IR's, more of them as imports and passes go on) and find next to nothing to
    free: the IR's cycles mostly live until the end. On the corpus the scans cost ~15 ms CPU on a
    one-op model and ~60-75 ms on the large ones, at the same peak memory; reference counting
    still frees everything else at once."""
    argv = list(sys.argv[1:] if argv is None else argv)
    from npu_opt.tools.blas_threads import single_threaded_blas
    single_threaded_blas()  # before anything imports numpy
    from npu_opt.tools.stdout_guard import guard_stdout
    return guard_stdout("npu-opt", lambda: _answer(argv))


def _answer(argv: list[str]) -> int:
    """The run for ``argv`` (standard output guarded by the caller)."""
    if argv == ["--version"]:
        from npu_opt.tools.cli_args import VERSION
        sys.stdout.write(f"npu-opt {VERSION}\n")
        return 0
    from npu_opt.tools.cli_args import parse_args

    try:
        args = parse_args(argv)
    except SystemExit as done:
        return int(done.code or 0)
    if args.run_reproducer:
        return _replay(args)
    return _run_guarded(args)


def _run_guarded(args: object) -> int:
    from npu_opt.ir.interrupts import Terminated, raise_on_sigterm
    from npu_opt.tools.driver import InternalError, run
    from npu_opt.tools.reproducer import write_reproducer

    raise_on_sigterm()  # (SIGTERM unwinds as Ctrl-C does: worker processes ended, no output file)
    try:
        return run(args)  # type: ignore[arg-type]
    except InternalError as crash:
        try:
            path = write_reproducer(args, crash.source, getattr(args, "crash_reproducer"))
            where = f"reproducer written to {path}"
        except OSError as err:
            where = f"could not write a reproducer: {err.strerror}"
        sys.stderr.write(f"npu-opt: internal error during {crash.where} ({crash}); {where}\n")
        return 2
    except Terminated:
        sys.stderr.write("npu-opt: terminated\n")
        return 143
    except KeyboardInterrupt:
        sys.stderr.write("npu-opt: interrupted\n")
        return 130
    except BrokenPipeError:  # (a pipe other than standard output, whose failures guard_stdout reports)
        return 1


def _replay(args: object) -> int:
    from npu_opt.tools.cli_args import parse_args
    from npu_opt.tools.reproducer import read_configuration

    path = getattr(args, "run_reproducer")
    try:
        with open(path, encoding="utf-8") as stream:
            text = stream.read()
    except (OSError, UnicodeDecodeError) as err:
        sys.stderr.write(f"npu-opt: error: cannot read reproducer '{path}': {err}\n")
        return 1
    flags = read_configuration(text)
    if flags is None:
        sys.stderr.write(f"npu-opt: error: '{path}' is not an npu-opt crash reproducer "
                         "(no '// configuration:' header)\n")
        return 1
    replay = parse_args(flags + [path])
    replay.crash_reproducer = getattr(args, "crash_reproducer")
    replay.output = getattr(args, "output")
    return _run_guarded(replay)


if __name__ == "__main__":
    sys.exit(main())
