"""A progress bar on stderr showing the passes as they run, for compiles long enough to wonder.

It is a pass-manager instrumentation (``before_pass``/``after_pass``) that stays invisible
unless two things hold: stderr is a terminal (never in lit, pipes, files or CI logs), and the
compile is still running ``delay`` seconds after the first pass started. Short runs therefore
print nothing, and the bar of a long one appears lazily: a daemon thread waits out the delay,
then draws the bar and refreshes it (so a single long pass still shows its elapsed time) until
``close``. tqdm draws it: it already handles terminal widths, rates and clearing the line, and
it is imported only when the bar actually appears.
"""
from __future__ import annotations

import os
import threading
import time
from typing import Any, Callable, TextIO

DEFAULT_DELAY = 1.5
"""Seconds a compile must run before the bar appears."""
REFRESH = 0.5
"""Seconds between redraws while a pass runs."""


def wanted(stream: TextIO, environ: dict[str, str] | None = None) -> bool:
    """Whether a bar may be drawn on ``stream``: a terminal that is not ``TERM=dumb``, and the
    user has not set ``NPU_OPT_NO_PROGRESS``."""
    env = os.environ if environ is None else environ
    if env.get("TERM") == "dumb" or env.get("NPU_OPT_NO_PROGRESS"):
        return False
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # closed or not a real stream
        return False


def _tqdm_factory(**kwargs: Any) -> Any:
    """A tqdm bar, or None when tqdm is not installed (then there is simply no bar)."""
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(**kwargs)


class PassProgress:
    """Shows ``total`` passes on ``stream`` once ``delay`` seconds have passed since the first
    ``before_pass``; ``close`` ends it (and removes the bar from the terminal)."""

    def __init__(self, total: int, stream: TextIO, delay: float = DEFAULT_DELAY,
                 factory: Callable[..., Any] = _tqdm_factory, refresh: float = REFRESH) -> None:
        self.total = total
        self.stream = stream
        self.delay = delay
        self.factory = factory
        self.refresh = refresh
        self.done = 0
        self.current = ""
        self.bar: Any = None
        self._lock = threading.Lock()
        self._closed = threading.Event()
        self._thread: threading.Thread | None = None
        self._began = 0.0

    # -- instrumentation -----------------------------------------------------------------------
    def before_pass(self, pass_: Any, module: Any) -> None:
        with self._lock:
            self.current = getattr(pass_, "NAME", str(pass_))
            if self.bar is not None:
                self.bar.set_description_str(self.current, refresh=True)
        if self._thread is None and not self._closed.is_set():
            self._began = time.monotonic()
            self._thread = threading.Thread(target=self._run, name="npu-opt-progress", daemon=True)
            self._thread.start()

    def after_pass(self, pass_: Any, module: Any, ctx: Any) -> None:
        with self._lock:
            self.done += 1
            if self.bar is not None:
                self.bar.update(1)

    # -- the bar -------------------------------------------------------------------------------
    def _run(self) -> None:
        if self._closed.wait(self.delay):
            return  # finished before the delay: never drawn
        with self._lock:
            if self._closed.is_set():
                return
            self.bar = self.factory(total=self.total, initial=self.done, desc=self.current, file=self.stream,
                                    leave=False, unit="pass", dynamic_ncols=True,
                                    bar_format="{desc}: {n_fmt}/{total_fmt} passes |{bar}| {elapsed}")
        while self.bar is not None and not self._closed.wait(self.refresh):
            with self._lock:
                if self.bar is not None:
                    self.bar.refresh()

    def close(self) -> None:
        """Stop the thread and clear the bar; safe to call more than once."""
        self._closed.set()
        with self._lock:
            if self.bar is not None:
                self.bar.close()
                self.bar = None
        if self._thread is not None:
            self._thread.join(timeout=1.0)


__all__ = ["DEFAULT_DELAY", "PassProgress", "wanted"]
