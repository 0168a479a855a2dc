"""Analyses computed on demand, cached per anchor op, and dropped when a pass invalidates them.

``manager.get(DominanceInfo, func)`` computes an analysis of ``func`` once; later requests reuse
it until the pass manager invalidates it. After a pass, every cached analysis is dropped unless
the pass changed nothing (its rewriter says so) or preserved that kind: statically in
``Pass.PRESERVES`` or at run time with ``ctx.preserve(kind)`` (MLIR's preserved analyses).
Analyses the rewriter keeps up to date itself (``KEPT_BY_REWRITER``) survive every pass.
"""
from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, ClassVar, Iterable, TypeVar

if TYPE_CHECKING:
    from npu_opt.ir.core import Operation


class Analysis:
    """Base of analyses: ``__init__(op, manager)`` computes the analysis of the anchor ``op``;
    it may ask ``manager`` for the other analyses it builds on (a pass preserving it must then
    preserve those too)."""

    KEPT_BY_REWRITER: ClassVar[bool] = False
    """True when every rewriter change keeps the analysis current, so no pass invalidates it."""

    def __init__(self, op: "Operation", manager: "AnalysisManager") -> None:
        self.anchor = op


A = TypeVar("A", bound=Analysis)


class AnalysisManager:
    """The analyses computed so far, keyed by (kind, anchor op); ``computed`` counts the
    computations per kind (tests and benchmarks read it to see what was reused)."""

    def __init__(self) -> None:
        self._cache: dict[tuple[type, "Operation"], Analysis] = {}
        self.computed: Counter[str] = Counter()

    def get(self, kind: type[A], op: "Operation") -> A:
        """The analysis ``kind`` of ``op``: the cached one, or computed now and cached."""
        key = (kind, op)
        found = self._cache.get(key)
        if found is None:
            found = kind(op, self)
            self._cache[key] = found
            self.computed[kind.__name__] += 1
        return found  # type: ignore[return-value]

    def cached(self, kind: type[A], op: "Operation") -> A | None:
        """The analysis if it is cached, else None (never computes)."""
        return self._cache.get((kind, op))  # type: ignore[return-value]

    def seed(self, analysis: Analysis) -> None:
        """Cache ``analysis`` for its anchor as if it had been computed here (an analysis of an
        original op carried over to its copy, see ``ir/clone.py``)."""
        self._cache[(type(analysis), analysis.anchor)] = analysis

    def is_cached(self, kind: type[Analysis], op: "Operation") -> bool:
        return (kind, op) in self._cache

    def invalidate(self, preserved: Iterable[type[Analysis]] = ()) -> int:
        """Drop every analysis whose kind is neither in ``preserved`` nor kept by the rewriter;
        returns how many were dropped."""
        keep = set(preserved)
        stale = [key for key in self._cache if key[0] not in keep and not key[0].KEPT_BY_REWRITER]
        for key in stale:
            del self._cache[key]
        return len(stale)

    def clear(self) -> None:
        """Drop everything (the IR was replaced, e.g. by another module)."""
        self._cache.clear()


__all__ = ["Analysis", "AnalysisManager"]
