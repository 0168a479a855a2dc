"""npu-opt as a Python library: load a model, set its target, run a pipeline, read and write results.

Names follow the CLI's flags (``--system-config`` is ``system_config=``); a user error raises
``NpuOptError`` with the diagnostics npu-opt prints. README.md shows it in ten lines."""
from __future__ import annotations

import os
import sys
import time
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Sequence

from npu_opt.ir.diagnostics import Diagnostic, DiagnosticEngine, SourceManager, UserError, render

if TYPE_CHECKING:
    from npu_opt.ir.analysis import AnalysisManager
    from npu_opt.ir.core import Operation
    from npu_opt.ir.pass_manager import Timer
    from npu_opt.ir.pass_registry import Pass
    from npu_opt.tools.pareto import Frontier
    from npu_opt.tools.target_options import TargetRequest


class NpuOptError(Exception):
    """A user error: ``diagnostics`` are what npu-opt prints (and exits 1 for); ``str()`` is that text."""

    def __init__(self, diagnostics: Sequence[Diagnostic], sources: SourceManager | None = None) -> None:
        self.diagnostics = list(diagnostics)
        super().__init__("\n".join(render(d, sources or SourceManager()) for d in self.diagnostics))


def is_tflite(data: bytes, name: str = "") -> bool:
    """A TFLite model: the ``TFL3`` identifier, or a ``.tflite`` name (then a bad file gets the
    TFLite importer's error rather than a parse error)."""
    return data[4:8] == b"TFL3" or name.endswith(".tflite")


def compiled_model(module: "Operation") -> bool:
    """Whether ``module`` holds a tfl.ethos_u op (a compiled model, whose op locations are its
    tensor names); one exists only once its dialect is loaded, so nothing is imported to tell."""
    loaded = sys.modules.get("npu_opt.dialects.tfl.ops_ethosu")
    return loaded is not None and loaded.holds_ethos_u(module)


def read_module(name: str, text: str = "", binary: bytes | None = None,
                allow_unregistered_dialect: bool = False, target: "TargetRequest | None" = None) -> "Operation":
    """The module of a TFLite model (``binary``) or of MLIR ``text`` from file ``name``, given
    ``target`` if any; raises UserError for bad input."""
    if binary is not None:
        from npu_opt.dialects.tfl.tflite import import_tflite
        module = import_tflite(binary, name)
    else:
        from npu_opt.ir.parser import ParseOptions, parse_module  # (lark: text inputs only)
        module = parse_module(text, name, ParseOptions(allow_unregistered_dialect))
    if target is not None:
        from npu_opt.tools.target_options import apply_target
        apply_target(module, target)
    return module


def read_data(name: str, data: bytes, sources: SourceManager, allow_unregistered_dialect: bool = False,
              tflite: bool = True) -> "Operation":
    """The module of file ``name``'s bytes: a TFLite model imported (unless ``tflite`` is False),
    else MLIR text parsed, its text added to ``sources`` for diagnostics; UserError for bad input."""
    from npu_opt.tools.output import decode_utf8
    if tflite and is_tflite(data, name):
        return read_module(name, binary=data)
    text = decode_utf8(name, data)
    sources.add(name, text)
    return read_module(name, text, allow_unregistered_dialect=allow_unregistered_dialect)


def read_verified_ir(name: str, data: bytes, sources: SourceManager, engine: DiagnosticEngine,
                     allow_unregistered_dialect: bool = False) -> "Operation | None":
    """The verified module of MLIR text ``data`` from file ``name`` (what npu-translate's exports
    read), or None after the verifier reported to ``engine``; UserError for text that does not parse."""
    from npu_opt.ir.verifier import verify
    module = read_data(name, data, sources, allow_unregistered_dialect, tflite=False)
    return module if verify(module, engine) else None


def target_request(target: str | None = None, *, config: Iterable[str] = (), system_config: str | None = None,
                   memory_mode: str | None = None, arena_cache_size: int | None = None) -> "TargetRequest":
    """The checked target options (as ``--target``, ``--config``, ...); raises UserError for a bad one."""
    from npu_opt.tools.target_options import request_target
    if arena_cache_size is not None and arena_cache_size < 0:
        raise UserError(f"arena_cache_size must not be negative, not {arena_cache_size}")
    return request_target(target, list(config), system_config, memory_mode, arena_cache_size)


def set_target(module: "Operation", target: str | None = None, *, config: Iterable[str] = (),
               system_config: str | None = None, memory_mode: str | None = None,
               arena_cache_size: int | None = None) -> "Operation":
    """Give ``module`` the ``npu.target`` npu-opt's target flags of these names would (parts not
    given: the module's own, else Vela's defaults); returns ``module``."""
    from npu_opt.tools.target_options import apply_target
    apply_target(module, target_request(target, config=config, system_config=system_config,
                                        memory_mode=memory_mode, arena_cache_size=arena_cache_size))
    return module


def parse_pipelines(texts: Iterable[str]) -> list["Pass"]:
    """The passes of pipelines in their textual form (``schedule{optimise=Size},npu-check-schedule``)."""
    from npu_opt.ir.pass_registry import parse_pipeline
    passes: list["Pass"] = []
    for text in texts:
        passes.extend(parse_pipeline(text))
    return passes


def run_passes(module: "Operation", passes: Sequence["Pass"], engine: DiagnosticEngine, *, verify_each: bool = True,
               instrumentations: Sequence[Any] = (), timer: "Timer | None" = None,
               analyses: "AnalysisManager | None" = None) -> bool:
    """Verify ``module`` (with ``verify_each``) and run ``passes`` on it, as npu-opt does; False when
    either reported errors to ``engine``. A bug in a pass raises PassCrash."""
    from npu_opt.ir.analysis import AnalysisManager
    from npu_opt.ir.pass_manager import PassFailure, PassManager
    from npu_opt.ir.verifier import verify

    analyses = analyses if analyses is not None else AnalysisManager()  # the passes reuse the verifier's
    if verify_each:
        began = time.perf_counter()
        ok = verify(module, engine, analyses)
        if timer is not None:
            timer.add("(V) Verifier", time.perf_counter() - began)
        if not ok:
            return False
    try:
        PassManager(list(passes), engine, verify_each, list(instrumentations), timer, analyses).run(module)
    except PassFailure:
        return False
    return True


def _registered() -> None:
    import npu_opt.dialects  # noqa: F401 - registers dialects
    import npu_opt.passes  # noqa: F401 - registers passes


class Model:
    """One module and what was done to it; ``diagnostics`` holds the warnings and remarks seen."""

    def __init__(self, module: "Operation", name: str, sources: SourceManager | None = None) -> None:
        self.module = module
        self.name = name
        self.sources = sources or SourceManager()
        self.diagnostics: list[Diagnostic] = []

    def _engine(self) -> DiagnosticEngine:
        engine = DiagnosticEngine(self.sources)
        engine.handler = self.diagnostics.append
        return engine

    def _failed(self, since: int) -> NpuOptError:
        errors = [d for d in self.diagnostics[since:] if d.severity == "error"]
        return NpuOptError(errors or self.diagnostics[since:], self.sources)

    def set_target(self, target: str | None = None, *, config: Iterable[str] = (), system_config: str | None = None,
                   memory_mode: str | None = None, arena_cache_size: int | None = None) -> "Model":
        """Set the module's target (see ``set_target``); NpuOptError for unknown names or a bad ``.ini``."""
        with _user_errors(self.sources):
            set_target(self.module, target, config=config, system_config=system_config, memory_mode=memory_mode,
                       arena_cache_size=arena_cache_size)
        return self

    def run(self, pipeline: str, *, verify_each: bool = True) -> "Model":
        """Run a pipeline given in its textual form, as ``--pass=`` takes it (``schedule{optimise=Size}``);
        NpuOptError with the diagnostics when it fails (PassCrash for a bug in a pass)."""
        _registered()
        with _user_errors(self.sources):
            passes = parse_pipelines([pipeline])
        since = len(self.diagnostics)
        if not run_passes(self.module, passes, self._engine(), verify_each=verify_each):
            raise self._failed(since)
        return self

    def text(self, *, generic: bool = False, debuginfo: bool = False) -> str:
        """The module's IR as npu-opt prints it (``--print-op-generic``, ``--print-debuginfo``; a
        compiled model's locations always, as they hold its tensor names)."""
        from npu_opt.ir.printer import PrintOptions, print_op
        debuginfo = debuginfo or compiled_model(self.module)
        return print_op(self.module, PrintOptions(generic=generic, debuginfo=debuginfo))

    def summary(self) -> dict[str, Any]:
        """The summary figures: the ``--summary-csv`` row (Vela's columns and the lower bound's), by column."""
        from npu_opt.tools.summary_csv import missing_costs, summary_row
        self._require(missing_costs(self.module, "summary"))
        return summary_row(self.module, self.name)

    def summary_text(self) -> str:
        """The summary ``--summary`` prints."""
        from npu_opt.tools.summary import summary_text
        from npu_opt.tools.summary_csv import missing_costs
        self._require(missing_costs(self.module, "--summary"))
        return summary_text(self.module, self.name)

    def frontier(self) -> "Frontier":
        """The (cycles, SRAM) frontier of a schedule search: budget, ``points``, the chosen one,
        and where Vela's Performance and Size schedules land."""
        from npu_opt.tools.pareto import collect, missing_search
        from npu_opt.tools.summary_csv import network_name
        found = collect(self.module, network_name(self.name) or "<stdin>")
        if found is None:
            self._require(missing_search())
        assert found is not None
        return found

    def perf_rows(self) -> list[dict[str, Any]]:
        """The ``--perf-report`` rows: one per NPU op in schedule order."""
        from npu_opt.tools.perf_report import collect_rows, missing_estimate
        self._require(missing_estimate(self.module))
        return collect_rows(self.module)

    def write(self, path: str, *, generic: bool = False, debuginfo: bool = False) -> None:
        """Write the module as ``.tflite`` (a flatbuffer) or else as IR text, as ``npu-opt -o`` does
        (atomically: a failed write leaves no file)."""
        from npu_opt.tools.output import write_output
        with _user_errors(self.sources):
            if path.endswith(".tflite"):
                from npu_opt.dialects.tfl.tflite import export_tflite
                write_output(path, export_tflite(self.module))
            else:
                write_output(path, self.text(generic=generic, debuginfo=debuginfo))

    def write_vela_raw(self, path: str) -> list[Diagnostic]:
        """Write a compiled model (``compile`` ran) as Vela's raw output (``.npz``), as
        ``npu-translate --export-vela-raw`` does: the first ethos-u operator; returns the warning
        when the format leaves others out (also kept in ``diagnostics``)."""
        from npu_opt.dialects.npu.target_attr import target_of
        from npu_opt.dialects.tfl.tflite import export_tflite
        from npu_opt.tools.output import write_output
        from npu_opt.tools.vela_raw import DROPPED_WARNING, raw_output
        with _user_errors(self.sources):
            target = target_of(self.module, required=False)
            if target is None:
                raise UserError("the raw format needs the module's target (npu.target): set_target, then compile")
            found = raw_output(export_tflite(self.module), target.is_spilling_enabled, self.name)
            write_output(path, found.data)
        warnings = [Diagnostic("warning", DROPPED_WARNING.format(dropped=found.dropped), None)] if found.dropped else []
        self.diagnostics.extend(warnings)
        return warnings

    def write_summary_csv(self, path: str) -> None:
        """Write Vela's summary CSV (``--summary-csv``)."""
        from npu_opt.tools.output import write_output
        from npu_opt.tools.summary_csv import render
        row = self.summary()
        with _user_errors(self.sources):
            write_output(path, render([row]))

    def write_pareto(self, path: str) -> None:
        """Write the search's frontier as a table (``.csv``) or a plot (``.svg``, ``.png``), as ``--pareto``."""
        from npu_opt.tools.output import write_output
        from npu_opt.tools.pareto import check_request, render
        with _user_errors(self.sources):
            check_request(path)
        frontier = self.frontier()
        with _user_errors(self.sources):
            write_output(path, render([frontier], path))

    def _require(self, problem: str | None) -> None:
        if problem is not None:
            raise NpuOptError([Diagnostic("error", problem, None)], self.sources)


@contextmanager
def _user_errors(sources: SourceManager) -> Iterator[None]:
    """Turn a UserError raised inside the block into NpuOptError (the same diagnostic)."""
    try:
        yield
    except UserError as error:
        raise NpuOptError([error.diagnostic], sources) from None


def load(path: str | os.PathLike[str], *, allow_unregistered_dialect: bool = False) -> Model:
    """A model read from a ``.tflite`` file or an MLIR text file; NpuOptError for bad input."""
    from npu_opt.tools.output import read_input
    _registered()
    sources = SourceManager()
    with _user_errors(sources):
        name, data = read_input(os.fspath(path))
        return Model(read_data(name, data, sources, allow_unregistered_dialect), name, sources)


def parse(text: str, name: str = "<string>", *, allow_unregistered_dialect: bool = False) -> Model:
    """A model parsed from MLIR ``text`` (``name`` is the file name its diagnostics show)."""
    _registered()
    sources = SourceManager()
    sources.add(name, text)
    with _user_errors(sources):
        return Model(read_module(name, text, allow_unregistered_dialect=allow_unregistered_dialect), name, sources)


__all__ = ["Model", "NpuOptError", "compiled_model", "is_tflite", "load", "parse", "parse_pipelines", "read_data",
           "read_module", "run_passes", "set_target", "target_request"]
