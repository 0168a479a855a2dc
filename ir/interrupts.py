"""Termination as an exception: SIGTERM ends a run the way Ctrl-C's KeyboardInterrupt does.

A run that is told to stop must still end the processes it started and leave no partial output.
Python turns SIGINT into KeyboardInterrupt, which unwinds every ``with`` and ``finally`` on its
way out; ``raise_on_sigterm`` makes SIGTERM unwind the same way, as ``Terminated`` (a
KeyboardInterrupt, so that code cleaning up after an interrupt cleans up after it too), and the
command line tells the two apart by their exit codes (130 and 143).
"""
from __future__ import annotations

import signal
import threading


class Terminated(KeyboardInterrupt):
    """SIGTERM was received (or a worker process was ended by it)."""


def _raise_terminated(signum: int, frame: object) -> None:
    raise Terminated()


def raise_on_sigterm() -> None:
    """Raise ``Terminated`` in the main thread on SIGTERM (a no-op outside the main thread, where
    handlers cannot be set)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _raise_terminated)


__all__ = ["Terminated", "raise_on_sigterm"]
