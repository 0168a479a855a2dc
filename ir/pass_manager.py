"""Runs a pipeline of passes over a module, with verification, instrumentation and the analyses
the passes and the verifier share (ir/analysis.py; dropped after a pass that changed IR unless
it preserved them).

Instrumentation (IR printing before/after passes, timing, statistics) is orthogonal to the
passes: each is an object with before/after hooks that the PassManager calls.
"""
from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Protocol, TextIO

from npu_opt.ir.analysis import AnalysisManager
from npu_opt.ir.core import Operation
from npu_opt.ir.diagnostics import Diagnostic, DiagnosticEngine
from npu_opt.ir.pass_registry import Pass
from npu_opt.ir.rewriter import Rewriter
from npu_opt.ir.verifier import verify


class PassFailure(Exception):
    """A pass reported an error diagnostic; the pipeline stops."""


class PassCrash(Exception):
    """A pass raised an unexpected exception: a bug, reported with a crash reproducer."""

    def __init__(self, pass_: Pass, error: BaseException) -> None:
        super().__init__(f"{type(error).__name__}: {error}")
        self.pass_ = pass_
        self.error = error


@dataclass
class PassContext:
    """What a running pass can use: the rewriter, diagnostics, its statistics counters and the
    analyses shared along the pipeline (``ctx.analyses.get(DominanceInfo, op)``)."""

    diagnostics: DiagnosticEngine
    rewriter: Rewriter = field(default_factory=Rewriter)
    stats: Counter = field(default_factory=Counter)
    failed: bool = False
    analyses: AnalysisManager = field(default_factory=AnalysisManager)
    preserved: set[type] = field(default_factory=set)
    """Analysis kinds the pass declared still valid at run time (beyond ``Pass.PRESERVES``)."""

    def stat(self, name: str, amount: int = 1) -> None:
        self.stats[name] += amount

    def preserve(self, *kinds: type) -> None:
        """Declare that this run left the analyses of ``kinds`` valid (MLIR's markAnalysesPreserved)."""
        self.preserved.update(kinds)

    def invalidate_analyses(self, pass_: Pass) -> int:
        """After ``pass_`` ran: drop the analyses it may have made stale (none if it changed
        nothing); returns how many were dropped."""
        if not self.rewriter.changed:
            return 0
        return self.analyses.invalidate({*pass_.PRESERVES, *self.preserved})

    def error(self, message: str, op: Operation | None = None) -> Diagnostic:
        self.failed = True
        return self.diagnostics.error(message, op.diag_location() if op is not None else None)

    def warning(self, message: str, op: Operation | None = None) -> Diagnostic:
        return self.diagnostics.warning(message, op.diag_location() if op is not None else None)

    def remark(self, message: str, op: Operation | None = None) -> Diagnostic:
        return self.diagnostics.remark(message, op.diag_location() if op is not None else None)


class Instrumentation(Protocol):
    def before_pass(self, pass_: Pass, module: Operation) -> None: ...
    def after_pass(self, pass_: Pass, module: Operation, ctx: PassContext) -> None: ...


class Timer:
    """Wall-clock time per named phase (parse, each pass, verification, print), in order."""

    def __init__(self) -> None:
        self.entries: dict[str, float] = {}
        self.start = time.perf_counter()

    def add(self, name: str, seconds: float) -> None:
        self.entries[name] = self.entries.get(name, 0.0) + seconds

    def measure(self, name: str) -> "_Span":
        return _Span(self, name)

    def report(self) -> str:
        total = time.perf_counter() - self.start
        bar = "===" + "-" * 73 + "==="
        lines = [bar, "Execution time report".center(79), bar,
                 f"  Total Execution Time: {total:.4f} seconds", "",
                 "  ----Wall Time----  ----Name----"]
        for name, seconds in self.entries.items():
            share = 100.0 * seconds / total if total else 0.0
            lines.append(f"  {seconds:10.4f} ({share:5.1f}%)  {name}")
        lines.append(f"  {total:10.4f} (100.0%)  Total")
        return "\n".join(lines) + "\n"


class _Span:
    def __init__(self, timer: Timer, name: str) -> None:
        self.timer, self.name = timer, name

    def __enter__(self) -> None:
        self.begin = time.perf_counter()

    def __exit__(self, *exc: object) -> None:
        self.timer.add(self.name, time.perf_counter() - self.begin)


@dataclass
class IRPrinting:
    """--print-ir-before/after(-all) and --print-ir-after-change, MLIR's dump format, on a stream."""

    stream: TextIO
    printer: Callable[[Operation], str]
    before: set[str] = field(default_factory=set)
    after: set[str] = field(default_factory=set)
    before_all: bool = False
    after_all: bool = False
    after_change: bool = False
    fingerprint: Callable[[Operation], str] | None = None
    """For after_change: text that changes whenever the IR does (MLIR compares an op fingerprint).
    Without it, a pass counts as changing the IR if its rewriter says so."""
    _before: str | None = field(default=None, repr=False)

    def _dump(self, when: str, pass_: Pass, module: Operation) -> None:
        self.stream.write(f"// -----// IR Dump {when} {type(pass_).__name__} ({pass_.NAME}) //----- //\n")
        self.stream.write(self.printer(module))
        self.stream.write("\n")

    def before_pass(self, pass_: Pass, module: Operation) -> None:
        if self.before_all or pass_.NAME in self.before:
            self._dump("Before", pass_, module)
        if self.after_change and self.fingerprint is not None:
            self._before = self.fingerprint(module)

    def after_pass(self, pass_: Pass, module: Operation, ctx: PassContext) -> None:
        if self.after_all or pass_.NAME in self.after:
            self._dump("After", pass_, module)
        elif self.after_change and self._changed(module, ctx):
            self._dump("After", pass_, module)
        self._before = None

    def _changed(self, module: Operation, ctx: PassContext) -> bool:
        if self.fingerprint is not None and self._before is not None:
            return self.fingerprint(module) != self._before
        return ctx.rewriter.changed


@dataclass
class Statistics:
    """Counters per pass run: those the pass declares, and what its rewriter did."""

    runs: list[tuple[Pass, Counter, Counter]] = field(default_factory=list)

    def before_pass(self, pass_: Pass, module: Operation) -> None:
        pass

    def after_pass(self, pass_: Pass, module: Operation, ctx: PassContext) -> None:
        self.runs.append((pass_, Counter(ctx.stats), Counter(ctx.rewriter.counts)))

    def report(self) -> str:
        bar = "===" + "-" * 73 + "==="
        lines = [bar, "Pass statistics report".center(79), bar]
        for pass_, declared, rewrites in self.runs:
            lines.append(f"'{pass_.NAME}'")
            for name, doc in pass_.STATISTICS.items():
                lines.append(f"  (S) {declared.get(name, 0)} {name} - {doc}")
            for name in sorted(set(declared) - set(pass_.STATISTICS)):
                lines.append(f"  (S) {declared[name]} {name}")
            for name, count in sorted(rewrites.items()):
                lines.append(f"  (R) {count} {name}")
        return "\n".join(lines) + "\n"


class PassManager:
    """Runs passes in order; verifies after each (unless disabled); stops at the first failure.
    Analyses are shared along the pipeline (``analyses``) and invalidated after each pass."""

    def __init__(self, passes: list[Pass], diagnostics: DiagnosticEngine, verify_each: bool = True,
                 instrumentations: list[Instrumentation] | None = None, timer: Timer | None = None,
                 analyses: AnalysisManager | None = None) -> None:
        self.passes = passes
        self.diagnostics = diagnostics
        self.verify_each = verify_each
        self.instrumentations = instrumentations or []
        self.timer = timer
        self.analyses = analyses if analyses is not None else AnalysisManager()

    def run(self, module: Operation) -> None:
        """Raises PassFailure on a reported error, PassCrash on an unexpected exception.

        With ``verify_each`` the IR is verified after the first pass and after every pass that
        changed it (its rewriter recorded a change): a pass that changed nothing leaves the IR
        verified after the pass before (as MLIR skips the verifier when a pass preserved all)."""
        verified = False
        for pass_ in self.passes:
            ctx = PassContext(self.diagnostics, analyses=self.analyses)
            for inst in self.instrumentations:
                inst.before_pass(pass_, module)
            began = time.perf_counter()
            try:
                pass_.run(module, ctx)
            except PassFailure:
                raise
            except Exception as err:  # noqa: BLE001 - any other exception is a bug in the pass
                from npu_opt.ir.diagnostics import UserError
                if isinstance(err, UserError):
                    self.diagnostics.emit(err.diagnostic)
                    raise PassFailure(pass_.NAME) from None
                raise PassCrash(pass_, err) from err
            finally:
                ctx.invalidate_analyses(pass_)
                if self.timer is not None:
                    self.timer.add(f"'{pass_.NAME}'", time.perf_counter() - began)
            if ctx.failed:
                raise PassFailure(pass_.NAME)
            for inst in self.instrumentations:
                inst.after_pass(pass_, module, ctx)
            if self.verify_each and (ctx.rewriter.changed or not verified):
                verified = True
                began = time.perf_counter()
                ok = verify(module, self.diagnostics, self.analyses)
                if self.timer is not None:
                    self.timer.add("(V) Verifier", time.perf_counter() - began)
                if not ok:
                    self.diagnostics.emit(Diagnostic("error", f"verification failed after pass '{pass_.NAME}'"))
                    raise PassFailure(pass_.NAME)
