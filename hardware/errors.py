"""Errors of the target description, and the "did you mean" helper they share.

A ``TargetError`` is both a ``UserError`` (so the command-line tools report it as one diagnostic
and exit 1, never with a traceback) and a ``ValueError`` (so the IR parser, which turns a
``ValueError`` raised by a dialect attribute parser into an error at the attribute's location,
reports a bad ``#npu.target<...>`` where it is written).
"""
from __future__ import annotations

from typing import Iterable

from npu_opt.ir.diagnostics import UserError


class TargetError(UserError, ValueError):
    """A bad accelerator, system config, memory mode, configuration file or target attribute."""


def closest(name: str, known: Iterable[str]) -> str | None:
    """The known name ``name`` was most likely meant to be, or None if none is close.

    A name that differs only in letter case wins outright (section names are case-sensitive, so
    ``shared_sram`` is a plausible slip for ``Shared_Sram``), then a known name that ``name``
    begins; otherwise difflib's similarity ratio decides.
    """
    import difflib  # (only on the error path)

    candidates = list(known)
    folded = [k for k in candidates if k.lower() == name.lower()]
    if folded:
        return folded[0]
    if len(name) >= 3:
        # A truncated name ("Ethos_U55_High_End") means the one it starts (the shortest such).
        extended = sorted((k for k in candidates if k.lower().startswith(name.lower())), key=len)
        if extended:
            return extended[0]
    close = difflib.get_close_matches(name, candidates, n=1, cutoff=0.6)
    if close:
        return close[0]
    lowered = {k.lower(): k for k in candidates}
    close = difflib.get_close_matches(name.lower(), list(lowered), n=1, cutoff=0.6)
    return lowered[close[0]] if close else None


def unknown_name(what: str, name: str, known: Iterable[str], listing: str | None = None) -> str:
    """``unknown WHAT 'name'; did you mean 'x'? (known WHATs: a, b, c)`` as one line.

    ``listing`` replaces the plain list of known names when a shorter description exists.
    """
    candidates = list(known)
    message = f"unknown {what} '{name}'"
    guess = closest(name, candidates)
    if guess is not None:
        message += f"; did you mean '{guess}'?"
    listed = listing or (", ".join(candidates) if candidates else "none")
    message += f" (known {what}s: {listed})"
    return message


class CommandStreamError(UserError, ValueError):
    """A command that cannot be encoded or a word that cannot be decoded: names the command, the
    field, the value and its limit (and, when decoding, the byte offset of the word)."""


__all__ = ["CommandStreamError", "TargetError", "closest", "unknown_name"]
