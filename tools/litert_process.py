"""Running ai-edge-litert in a child process, so that its crash is a diagnostic, not ours.

Design notes: docs/tools_design.md, section ai-edge-litert in a child process (litert_process)."""
from __future__ import annotations

import faulthandler
import multiprocessing
import signal
import sys
from typing import Any, Callable, Sequence, TypeVar

from npu_opt.ir.diagnostics import UserError

R = TypeVar("R")


def _child(sender: Any, function: Callable[..., Any], args: Sequence[Any]) -> None:
    """The child's whole life: run ``function``, send ("ok", result), ("error", message) for a
    user error, or ("bug", text) for anything else, then exit. A fault handler the parent enabled
    (``-X faulthandler``, pytest's) is turned off: the parent reports the crash, without a dump."""
    faulthandler.disable()
    try:
        answer: tuple[str, Any] = ("ok", function(*args))
    except UserError as err:
        answer = ("error", err.diagnostic.message)
    except Exception as err:  # noqa: BLE001 - a bug: the parent reports it as an internal error
        answer = ("bug", f"{type(err).__name__}: {err}")
    sender.send(answer)
    sender.close()


def _context() -> Any:
    """The multiprocessing context to start the child with; None where no child may be started."""
    if multiprocessing.current_process().daemon:
        return None
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if sys.platform.startswith("linux") and "fork" in methods
                                       else "spawn")


def death_text(exitcode: int | None) -> str:
    """How a child ended without answering: its signal's name, or its exit status."""
    if exitcode is not None and exitcode < 0:
        try:
            return f"killed by signal {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"killed by signal {-exitcode}"
    return f"exited with status {exitcode} without a result"


def run_in_child(function: Callable[..., R], args: Sequence[Any], model: str, kernels: str) -> R:
    """``function(*args)`` in a child process (``model`` and ``kernels`` name what runs, in the
    error): its result, or its UserError raised again here; a child that dies first is a
    UserError naming the signal and, for the reference kernels, how the optimised ones are asked
    for. A bug in the child is a RuntimeError here."""
    context = _context()
    if context is None:
        return function(*args)
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(target=_child, args=(sender, function, args), daemon=True)
    child.start()
    sender.close()  # (so that the child's death ends the wait below)
    try:
        kind, payload = receiver.recv()
    except EOFError:
        child.join()
        hint = ("; its optimised kernels may run it: --tflite-kernels=builtin" if kernels == "reference" else "")
        raise UserError(f"ai-edge-litert crashed running '{model}' with its {kernels} kernels "
                        f"({death_text(child.exitcode)}){hint}") from None
    finally:
        receiver.close()
    child.join()
    if kind == "error":
        raise UserError(payload)
    if kind == "bug":
        raise RuntimeError(f"in ai-edge-litert's run of '{model}': {payload}")
    return payload  # type: ignore[no-any-return]


__all__ = ["death_text", "run_in_child"]
