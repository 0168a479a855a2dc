"""Standard output whose failure is one diagnostic: a closed pipe or a full disk (``> /dev/full``)
ends npu-opt, npu-run and npu-translate with ``PROG: error: cannot write to standard output:
REASON`` and exit code 1, never a traceback or an internal error.

While a tool runs, ``sys.stdout`` is a thin proxy whose writes and flushes turn an ``OSError``
into ``StdoutError``; the tools let that pass through their own handlers to ``guard_stdout``,
which reports it. Output already buffered when it failed is then sent to the null device, so the
interpreter's last flush at exit cannot fail a second time.
"""
from __future__ import annotations

import os
import sys
from typing import Any, Callable


class StdoutError(Exception):
    """Writing to standard output failed; ``reason`` is the system's words for why."""

    def __init__(self, error: OSError) -> None:
        self.reason = error.strerror or str(error) or type(error).__name__
        super().__init__(self.reason)


class _Guarded:
    """A stream whose ``write``, ``writelines`` and ``flush`` raise StdoutError instead of OSError;
    everything else is the wrapped stream's."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, data: Any) -> Any:
        try:
            return self._stream.write(data)
        except OSError as err:
            raise StdoutError(err) from None

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as err:
            raise StdoutError(err) from None

    @property
    def buffer(self) -> "_Guarded":
        return _Guarded(self._stream.buffer)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _discard_pending(stream: Any) -> None:
    """Point ``stream``'s file descriptor at the null device, so what it still buffers goes nowhere
    instead of failing again when the interpreter flushes it at exit."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return  # (a stream in memory, as under pytest: nothing to flush at exit)
    try:
        null = os.open(os.devnull, os.O_WRONLY)
    except OSError:
        return
    try:
        os.dup2(null, fd)
    except OSError:
        pass
    finally:
        os.close(null)


def guard_stdout(program: str, body: Callable[[], int]) -> int:
    """Run ``body`` (a tool's whole run, returning its exit code) with standard output guarded and
    flushed at its end; a failed write is one line on stderr and exit code 1."""
    original = sys.stdout
    sys.stdout = _Guarded(original)
    try:
        code = body()
        sys.stdout.flush()
        return code
    except StdoutError as err:
        _discard_pending(original)
        sys.stderr.write(f"{program}: error: cannot write to standard output: {err.reason}\n")
        return 1
    finally:
        sys.stdout = original


__all__ = ["StdoutError", "guard_stdout"]
