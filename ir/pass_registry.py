"""Passes as frozen dataclasses with typed options, registered once by a decorator.

The registry drives ``--list-passes``, ``--help``, pipeline parsing (``a,b{opt=v}``), option type
checking, ``--dump-pass-pipeline`` and "did you mean ...?" suggestions.
"""
from __future__ import annotations

import dataclasses
import functools
import importlib
import typing
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, ClassVar, TypeVar

from npu_opt.ir.diagnostics import UserError

if TYPE_CHECKING:
    from npu_opt.ir.core import Operation
    from npu_opt.ir.pass_manager import PassContext


class PipelineError(UserError):
    """A malformed pipeline, unknown pass or option, or a bad option value."""


class Pass:
    """Base of all passes. Subclasses are registered with ``@register_pass("name")``.

    Options are dataclass fields (declare them with ``option(default, "help")``);
    ``STATISTICS`` maps counter names a pass increments (``ctx.stat(name)``) to descriptions."""

    NAME: ClassVar[str] = ""
    STATISTICS: ClassVar[dict[str, str]] = {}
    PRESERVES: ClassVar[tuple[type, ...]] = ()
    """Analysis kinds (ir.analysis) still valid after the pass changed IR; a pass that changed
    nothing keeps every analysis anyway."""

    def run(self, module: "Operation", ctx: "PassContext") -> None:
        raise NotImplementedError

    def pipeline_text(self) -> str:
        """``name{opt=value ...}`` with every option, as --dump-pass-pipeline shows it."""
        opts = [f"{_cli_name(f.name)}={_format_value(getattr(self, f.name))}" for f in dataclasses.fields(self)]  # type: ignore[arg-type]
        return self.NAME + ("{" + " ".join(opts) + "}" if opts else "")


def option(default: Any, help: str) -> Any:
    """Declare a pass option with its default and a one-line help text."""
    if isinstance(default, list):
        return field(default_factory=lambda: list(default), metadata={"help": help})
    return field(default=default, metadata={"help": help})


@dataclass(frozen=True)
class PipelineInfo:
    name: str
    pipeline: str
    description: str
    exclusive: tuple[tuple[str, str, str], ...] = ()
    """Pairs of the pipeline's options that cannot be given together, each with the reason."""


_PASSES: dict[str, type[Pass]] = {}
_PIPELINES: dict[str, PipelineInfo] = {}
P = TypeVar("P", bound=type)


def register_pass(name: str, statistics: dict[str, str] | None = None) -> Callable[[P], P]:
    """Class decorator: make the class a frozen dataclass and register it under ``name``."""

    def wrap(cls: P) -> P:
        if name in _PASSES or name in _PIPELINES:
            raise TypeError(f"pass {name!r} is registered twice")
        if not (cls.__doc__ or "").strip():
            raise TypeError(f"pass {name!r} needs a docstring: it is the pass's description")
        data_cls = dataclass(frozen=True)(cls)
        data_cls.NAME = name  # type: ignore[attr-defined]
        if statistics is not None:
            data_cls.STATISTICS = dict(statistics)  # type: ignore[attr-defined]
        _PASSES[name] = data_cls  # type: ignore[assignment]
        return data_cls  # type: ignore[return-value]

    return wrap


def register_pipeline(name: str, pipeline: str, description: str,
                      exclusive: tuple[tuple[str, str, str], ...] = ()) -> None:
    """Register a named pipeline: using ``name`` as a pass runs ``pipeline``. ``exclusive``:
    (option, option, why) pairs of its options that may not be given together."""
    if name in _PASSES or name in _PIPELINES:
        raise TypeError(f"pass {name!r} is registered twice")
    _PIPELINES[name] = PipelineInfo(name, pipeline, description, exclusive)


_DEFERRED: dict[str, str] = {}
"""Passes and pipelines known by name whose module is not imported yet: name -> module."""


def declare_passes(module: str, names: typing.Iterable[str]) -> None:
    """Name the passes and pipelines ``module`` registers, so it is imported only when a
    pipeline names one of them (npu-opt's start-up imports no pass it does not run)."""
    for name in names:
        if name not in _PASSES and name not in _PIPELINES:
            _DEFERRED[name] = module


def _load(name: str) -> None:
    """Import the module that registers ``name``, if it is a declared pass not loaded yet."""
    module = _DEFERRED.get(name)
    if module is None:
        return
    importlib.import_module(module)
    for other in [n for n, m in _DEFERRED.items() if m == module]:
        del _DEFERRED[other]
    if name not in _PASSES and name not in _PIPELINES:
        raise TypeError(f"module {module!r} was declared to register pass {name!r} but did not")


def _load_all() -> None:
    for name in list(_DEFERRED):
        _load(name)


def known_names() -> list[str]:
    """Every pass and pipeline name, loaded or not (for "did you mean ...?")."""
    return sorted({*_PASSES, *_PIPELINES, *_DEFERRED})


def registered_passes() -> dict[str, type[Pass]]:
    """Every pass, importing the modules of those declared but not loaded yet."""
    _load_all()
    return dict(sorted(_PASSES.items()))


def registered_pipelines() -> dict[str, PipelineInfo]:
    """Every named pipeline, importing the modules of those declared but not loaded yet."""
    _load_all()
    return dict(sorted(_PIPELINES.items()))


def _cli_name(field_name: str) -> str:
    return field_name.replace("_", "-")


def _format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ",".join(_format_value(v) for v in value)
    return str(value)


def description(cls: type[Pass]) -> str:
    return (cls.__doc__ or "").strip().split("\n")[0]


@functools.cache
def _option_types(cls: type[Pass]) -> dict[str, Any]:
    """The resolved annotations of ``cls`` (resolving them costs more than parsing a pipeline)."""
    return typing.get_type_hints(cls)


def option_specs(cls: type[Pass]) -> list[tuple[str, Any, Any, str]]:
    """(cli name, type, default, help) for each option of ``cls``."""
    hints = _option_types(cls)
    specs = []
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        default = f.default if f.default is not dataclasses.MISSING else (
            f.default_factory() if f.default_factory is not dataclasses.MISSING else None)  # type: ignore[misc]
        specs.append((_cli_name(f.name), hints.get(f.name, str), default, f.metadata.get("help", "")))
    return specs


def _type_name(t: Any) -> str:
    origin = typing.get_origin(t)
    if origin is list:
        return f"list of {_type_name(typing.get_args(t)[0])}"
    if origin is typing.Literal:
        # an empty choice is an option's "unset" default (follow the IR), not a value to offer
        return " | ".join(repr(a) for a in typing.get_args(t) if a != "")
    return {int: "integer", float: "number", bool: "boolean", str: "string"}.get(t, str(t))


def _convert(text: str, t: Any) -> Any:
    origin = typing.get_origin(t)
    if origin is list:
        inner = typing.get_args(t)[0]
        return [_convert(part.strip(), inner) for part in text.split(",") if part.strip()]
    if origin is typing.Literal:
        choices = typing.get_args(t)
        if text not in choices:
            raise ValueError
        return text
    if t is bool:
        lowered = text.lower()
        if lowered in ("true", "1", "yes", "on"):
            return True
        if lowered in ("false", "0", "no", "off"):
            return False
        raise ValueError
    if t is int:
        return int(text, 0)
    if t is float:
        return float(text)
    return text


def suggest(name: str, candidates: typing.Iterable[str]) -> str:
    import difflib  # (only on the error path)

    close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return f"; did you mean '{close[0]}'?" if close else ""


def make_pass(name: str, options: dict[str, str]) -> Pass:
    """Instantiate a registered pass from textual options, checking names and types."""
    _load(name)
    cls = _PASSES.get(name)
    if cls is None:
        raise PipelineError(f"'{name}' does not refer to a registered pass or pipeline"
                            + suggest(name, known_names())
                            + " (see --list-passes)")
    specs = {spec[0]: spec for spec in option_specs(cls)}
    kwargs: dict[str, Any] = {}
    for key, text in options.items():
        spec = specs.get(key) or specs.get(key.replace("_", "-"))
        if spec is None:
            known = ", ".join(specs) or "none"
            raise PipelineError(f"pass '{name}' has no option '{key}'{suggest(key, specs)} "
                                f"(options: {known})")
        cli, type_, _, _ = spec
        try:
            kwargs[cli.replace("-", "_")] = _convert(text, type_)
        except ValueError:
            hint = suggest(text, typing.get_args(type_)) if typing.get_origin(type_) is typing.Literal else ""
            raise PipelineError(f"option '{cli}' of pass '{name}' expects {_type_name(type_)}, "
                                f"got '{text}'{hint}") from None
    return cls(**kwargs)


def _split_top(text: str, sep: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "{(":
            depth += 1
        elif ch in "})":
            depth -= 1
            if depth < 0:
                raise PipelineError(f"unbalanced '{ch}' in pass pipeline '{text}'")
        elif ch == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    if depth != 0:
        raise PipelineError(f"unbalanced brackets in pass pipeline '{text}'")
    parts.append(text[start:])
    return parts


def _parse_options(text: str, pass_name: str) -> dict[str, str]:
    options: dict[str, str] = {}
    for item in text.split():
        key, eq, value = item.partition("=")
        if not key:
            raise PipelineError(f"malformed option '{item}' for pass '{pass_name}'")
        options[key] = value if eq else "true"
    return options


def parse_pipeline(text: str, _depth: int = 0) -> list[Pass]:
    """``a,b{opt=1 x=y}`` (optionally wrapped in ``builtin.module(...)``) to pass instances."""
    if _depth > 16:
        raise PipelineError("named pipelines nest too deeply (a cycle?)")
    passes: list[Pass] = []
    for element in _split_top(text.strip(), ","):
        element = element.strip()
        if not element:
            if text.strip():
                raise PipelineError(f"empty pass name in pipeline '{text}'")
            continue
        if element.endswith(")") and "(" in element and ("{" not in element or element.index("(") < element.index("{")):
            anchor, _, inner = element.partition("(")
            if anchor.strip() not in ("builtin.module", "func.func", "any"):
                raise PipelineError(f"unknown pass manager anchor '{anchor.strip()}' (npu-opt runs passes "
                                    "on the module; write 'builtin.module(...)' or a flat list)")
            passes.extend(parse_pipeline(inner[:-1], _depth + 1))
            continue
        name, brace, rest = element.partition("{")
        name = name.strip()
        options: dict[str, str] = {}
        if brace:
            if not rest.endswith("}"):
                raise PipelineError(f"expected '}}' at the end of the options of '{name}'")
            options = _parse_options(rest[:-1], name)
        _load(name)
        pipeline = _PIPELINES.get(name)
        if pipeline is not None:
            passes.extend(_pipeline_with_options(pipeline, options, _depth + 1))
            continue
        passes.append(make_pass(name, options))
    return passes


def _pipeline_with_options(pipeline: PipelineInfo, options: dict[str, str], depth: int) -> list[Pass]:
    """The passes of a named pipeline, each given those of ``options`` it declares: an option of
    a pipeline (``schedule{optimise=Size}``) sets that option on every pass of it that has one."""
    if not options:
        return parse_pipeline(pipeline.pipeline, depth)
    elements = [e.strip() for e in _split_top(pipeline.pipeline, ",") if e.strip()]
    declared: dict[str, set[str]] = {}  # element -> its pass's option names
    for element in elements:
        name = element.partition("{")[0].strip()
        _load(name)
        cls = _PASSES.get(name)
        declared[element] = {spec[0] for spec in option_specs(cls)} if cls is not None else set()
    every = set().union(*declared.values())
    given_names = {key.replace("_", "-") for key in options}
    for first, second, why in pipeline.exclusive:
        if first in given_names and second in given_names:
            raise PipelineError(f"options '{first}' and '{second}' of pipeline '{pipeline.name}' cannot be "
                                f"given together: {why}")
    for key in options:
        if key not in every and key.replace("_", "-") not in every:
            raise PipelineError(f"pipeline '{pipeline.name}' has no option '{key}'{suggest(key, every)} "
                                f"(options: {', '.join(sorted(every)) or 'none'})")
    _check_pipeline_values(pipeline.name, elements, options)
    passes: list[Pass] = []
    for element in elements:
        name, brace, rest = element.partition("{")
        own = _parse_options(rest[:-1], name.strip()) if brace else {}
        given = {k: v for k, v in options.items() if k in declared[element] or k.replace("_", "-") in declared[element]}
        if given and name.strip() in _PASSES:
            try:
                passes.append(make_pass(name.strip(), {**own, **given}))
            except PipelineError as err:  # (a pass's own check of a value the pipeline forwarded)
                typed = " ".join(f"{k}={v}" for k, v in given.items())
                raise PipelineError(f"{pipeline.name}{{{typed}}}: {err}") from None
        else:
            passes.extend(parse_pipeline(element, depth))
    return passes


def _check_pipeline_values(pipeline: str, elements: list[str], options: dict[str, str]) -> None:
    """Each value of ``options`` given to ``pipeline`` converts to the type of every pass of it
    that takes the option; else a PipelineError naming the pipeline's option as the user typed
    it, and the values it takes (the strictest of its passes'), not an inner pass."""
    for key, text in options.items():
        for element in elements:
            cls = _PASSES.get(element.partition("{")[0].strip())
            spec = None if cls is None else next(
                (s for s in option_specs(cls) if s[0] in (key, key.replace("_", "-"))), None)
            if spec is None:
                continue
            try:
                _convert(text, spec[1])
            except ValueError:
                type_ = spec[1]
                hint = suggest(text, typing.get_args(type_)) if typing.get_origin(type_) is typing.Literal else ""
                raise PipelineError(f"option '{spec[0]}' of pipeline '{pipeline}' expects {_type_name(type_)}, "
                                    f"got '{text}'{hint}") from None


def _options_of(name: str, depth: int = 0) -> set[str]:
    """The option names a pass takes, or (a named pipeline) any pass of it; empty if unknown."""
    _load(name)
    pipeline = _PIPELINES.get(name)
    if pipeline is None:
        cls = _PASSES.get(name)
        return {spec[0] for spec in option_specs(cls)} if cls is not None else set()
    if depth > 16:
        raise PipelineError("named pipelines nest too deeply (a cycle?)")
    found: set[str] = set()
    for element in _split_top(pipeline.pipeline, ","):
        if element.strip():
            found |= _options_of(element.partition("{")[0].strip(), depth + 1)
    return found


def with_option(text: str, key: str, value: str, given_as: str = "") -> tuple[str, int]:
    """``text`` with ``key=value`` added to each element (a pass or a named pipeline) that takes
    the option ``key``, and how many did. An element already setting ``key`` keeps it when equal;
    a different value is a PipelineError naming both (the first as ``given_as``, if given)."""
    out: list[str] = []
    count = 0
    for element in _split_top(text.strip(), ","):
        stripped = element.strip()
        if stripped.endswith(")") and "(" in stripped and (
                "{" not in stripped or stripped.index("(") < stripped.index("{")):
            anchor, _, inner = stripped.partition("(")
            inner_text, inner_count = with_option(inner[:-1], key, value, given_as)
            out.append(f"{anchor}({inner_text})")
            count += inner_count
            continue
        name, brace, rest = stripped.partition("{")
        if not name.strip() or key not in _options_of(name.strip()):
            out.append(stripped)
            continue
        options = _parse_options(rest[:-1], name.strip()) if brace and rest.endswith("}") else {}
        own = options.get(key, options.get(key.replace("-", "_")))
        if own is not None and own != value:
            raise PipelineError(f"{given_as or key + '=' + value} and {name.strip()}{{{key}={own}}} disagree: "
                                "give one of them")
        count += 1
        if own is None:
            options[key] = value
        out.append(name.strip() + "{" + " ".join(f"{k}={v}" for k, v in options.items()) + "}")
    return ",".join(out), count


def pipeline_text(passes: list[Pass]) -> str:
    return "builtin.module(" + ", ".join(p.pipeline_text() for p in passes) + ")"


def list_passes_text() -> str:
    """The ``--list-passes`` listing: passes with options and defaults, then named pipelines."""
    lines = ["Available passes:"]
    for name, cls in registered_passes().items():
        lines.append(f"  {name:<28} {description(cls)}")
        for cli, type_, default, help_ in option_specs(cls):
            lines.append(f"      {cli}=<{_type_name(type_)}>  {help_} (default: {_format_value(default)})")
        for stat, doc in cls.STATISTICS.items():
            lines.append(f"      statistic {stat}: {doc}")
    pipelines = registered_pipelines()
    if pipelines:
        lines.append("Available pipelines:")
        for name, info in pipelines.items():
            lines.append(f"  {name:<28} {info.description}")
            lines.append(f"      = {info.pipeline}")
    return "\n".join(lines) + "\n"
