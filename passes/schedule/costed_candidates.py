"""What earlier searches in this process found each candidate costs, per module, so that one model
searched at many budgets (a sweep, a frontier plot, a test of monotony) materialises each
candidate once. Sound because the later passes are deterministic functions of the module's IR
and the candidate's knobs: the key is the module's whole printed text, weights included.

Design notes: docs/schedule_search.md, section "Candidates costed once per process"."""
from __future__ import annotations

import hashlib
from collections import OrderedDict
from typing import Hashable

from npu_opt.ir.core import Operation
from npu_opt.ir.printer import PrintOptions, print_op

MODULES_KEPT = 8
"""Modules whose candidates are remembered (the least recently searched is forgotten first)."""


def module_key(module: Operation) -> str:
    """A digest of everything the later passes read: the module's generic text, with its resources."""
    return hashlib.sha256(print_op(module, PrintOptions(generic=True)).encode()).hexdigest()


class CostedCandidates:
    """Per module key, the answer each candidate's knobs got (a point, or None when refused)."""

    def __init__(self, modules: int = MODULES_KEPT) -> None:
        self.modules = modules
        self._tables: OrderedDict[str, dict[Hashable, object]] = OrderedDict()

    def table(self, key: str) -> dict[Hashable, object]:
        """The answers remembered for the module of ``key`` (a table to read and fill)."""
        table = self._tables.pop(key, None)
        self._tables[key] = {} if table is None else table
        while len(self._tables) > self.modules:
            self._tables.popitem(last=False)
        return self._tables[key]

    def clear(self) -> None:
        """Forget every answer (for a caller that changed what the passes compute, such as a test)."""
        self._tables.clear()


COSTED = CostedCandidates()
"""The process's table: shared by every search, including those of the Python API."""

__all__ = ["COSTED", "MODULES_KEPT", "CostedCandidates", "module_key"]
