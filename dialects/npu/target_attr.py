"""``#npu.target<...>``: the target of a module, as an attribute that parses, prints and round-trips.

Syntax (the body of ``#npu.target<...>``)::

    "ethos-u55-128"                                   accelerator, required, first
    , system_config = "Ethos_U55_High_End_Embedded"   a built-in system config ...
    , system_config = "My_System" {core_clock = 400000000, axi0_port = Sram, ...}
                                                      ... or one defined right here
    , memory_mode = "Shared_Sram"                     a built-in memory mode, or one defined
    , memory_mode = "My_Mode" {const_mem_area = Axi1, ...}      here in the same way
    , arena_cache_size = 2097152                      override of the arena cache size (bytes)

A definition in braces uses the keys of a Vela ``.ini`` section (see vela_config.py), flattened
(no ``inherit``); keys it leaves out take Vela's internal defaults. That lets a test file carry a
custom system config without the ``.ini`` it came from. Omitted ``system_config``/``memory_mode``
mean Vela's defaults for the accelerator family. The attribute is checked when it is created:
an unknown name or key, a bad value or an inconsistent combination is a parse error at the
attribute.
"""
from __future__ import annotations

import re
from typing import Any, Iterator, Mapping, Sequence

from npu_opt.hardware.accelerators import accelerator
from npu_opt.hardware.errors import TargetError, unknown_name
from npu_opt.hardware.target import (
    MemoryMode, SystemConfig, Target, build_target, default_memory_mode, default_system_config,
)
from npu_opt.hardware.vela_config import (
    MEMORY_MODE, SYSTEM_CONFIG, Resolved, Value, builtin_config, canonical_key, convert, schema,
)
from npu_opt.ir.attributes import Attribute
from npu_opt.ir.core import Operation
from npu_opt.ir.strings import quote_string, unquote_string

Definition = tuple[tuple[str, Value], ...]

KEYS = ("system_config", "memory_mode", "arena_cache_size")
"""Keys of the attribute body after the accelerator, in printing order."""
_KIND_OF_KEY = {"system_config": SYSTEM_CONFIG, "memory_mode": MEMORY_MODE}
INLINE_SOURCE = "#npu.target"


def _normalize_definition(kind: str, definition: Mapping[str, Any] | Sequence[tuple[str, Any]] | None,
                          name: str) -> Definition | None:
    """Canonical keys in schema order, typed values; TargetError on an unknown key or bad value."""
    if definition is None:
        return None
    items = definition.items() if isinstance(definition, Mapping) else definition
    where = f"{kind} '{name}' in #npu.target"
    values: dict[str, Value] = {}
    for key, value in items:
        canonical = canonical_key(kind, key, where)
        if canonical in values:
            raise TargetError(f"{where}: key '{canonical}' is given twice")
        values[canonical] = convert(kind, canonical, value, where)
    return tuple((key, values[key]) for key in schema(kind) if key in values)


def _normalize(args: tuple) -> tuple:
    """(accelerator, system_config, memory_mode, arena_cache_size, system_def, memory_mode_def),
    with the accelerator in lower case and definitions canonical."""
    if not 1 <= len(args) <= 6:
        raise TypeError(f"TargetAttr takes 1 to 6 arguments, not {len(args)}")
    accel, system, mode, size, system_def, mode_def = tuple(args) + (None,) * (6 - len(args))
    if not isinstance(accel, str):
        raise TargetError("the accelerator of #npu.target must be a string")
    if size is not None and (isinstance(size, bool) or not isinstance(size, int)):
        raise TargetError(f"arena_cache_size must be an integer, not {size!r}")
    if system_def is not None and system is None:
        raise TargetError("a system config definition needs a name")
    if mode_def is not None and mode is None:
        raise TargetError("a memory mode definition needs a name")
    return (accel.lower(), system, mode, size, _normalize_definition(SYSTEM_CONFIG, system_def, system or ""),
            _normalize_definition(MEMORY_MODE, mode_def, mode or ""))


class TargetAttr(Attribute):
    """The target of a module: accelerator, system config, memory mode, arena cache size.

    Build one with ``TargetAttr.get("ethos-u55-128", system_config=..., ...)``; ``.target`` is
    the resolved ``Target`` (computed when the attribute is created, so invalid ones never exist).
    """

    __slots__ = ("accelerator", "system_config", "memory_mode", "arena_cache_size", "system_definition",
                 "memory_mode_definition", "target")
    accelerator: str
    system_config: str | None
    memory_mode: str | None
    arena_cache_size: int | None
    system_definition: Definition | None
    memory_mode_definition: Definition | None
    target: Target

    @classmethod
    def get(cls, accelerator: str, *, system_config: str | None = None, memory_mode: str | None = None,
            arena_cache_size: int | None = None, system_definition: Any = None,
            memory_mode_definition: Any = None) -> "TargetAttr":
        """The attribute for these choices (keyword form of the positional constructor)."""
        return cls(accelerator, system_config, memory_mode, arena_cache_size, system_definition,
                   memory_mode_definition)

    @classmethod
    def _key(cls, args: tuple) -> tuple:
        return _normalize(args)

    def _init(self, *args: Any) -> None:
        accel_name, system, mode, size, system_def, mode_def = _normalize(args)
        accel = accelerator(accel_name)
        for name, value in (("accelerator", accel.name), ("system_config", system), ("memory_mode", mode),
                            ("arena_cache_size", size), ("system_definition", system_def),
                            ("memory_mode_definition", mode_def)):
            self._set(name, value)
        system_resolved = self._part(SYSTEM_CONFIG, system or default_system_config(accel), system_def)
        mode_resolved = self._part(MEMORY_MODE, mode or default_memory_mode(accel), mode_def)
        self._set("target", build_target(accel, SystemConfig.from_resolved(system_resolved),
                                         MemoryMode.from_resolved(mode_resolved), size))

    @staticmethod
    def _part(kind: str, name: str, definition: Definition | None) -> Resolved:
        if definition is None:
            return builtin_config().resolve(kind, name)
        return Resolved(kind, name, definition, INLINE_SOURCE)

    def _render(self) -> str:
        parts = [quote_string(self.accelerator)]
        for key, name, definition in (("system_config", self.system_config, self.system_definition),
                                      ("memory_mode", self.memory_mode, self.memory_mode_definition)):
            if name is not None:
                text = f"{key} = {quote_string(name)}"
                if definition is not None:
                    text += " {" + ", ".join(f"{k} = {_format_value(k, v)}" for k, v in definition) + "}"
                parts.append(text)
        if self.arena_cache_size is not None:
            parts.append(f"arena_cache_size = {self.arena_cache_size}")
        return "#npu.target<" + ", ".join(parts) + ">"


def _format_value(key: str, value: Value) -> str:
    """A definition value: names bare, a whole clock in Hz as an integer, other floats shortest."""
    if isinstance(value, str):
        return value
    if isinstance(value, float) and key == "core_clock" and value.is_integer() and value < 1e16:
        return str(int(value))
    return repr(value)


# -- parsing ---------------------------------------------------------------------------------
_TOKEN = re.compile(r"""
    \s*(?:
      (?P<string>"(?:[^"\\\n]|\\.)*")
    | (?P<number>[-+]?(?:0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?))
    | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
    | (?P<punct>[=,{}])
    | (?P<bad>\S)
    )""", re.VERBOSE)


def _tokens(body: str) -> Iterator[tuple[str, str]]:
    """(kind, text) pairs of ``body``; kinds are string, number, ident, punct; ('end', '') last."""
    pos = 0
    while True:
        match = _TOKEN.match(body, pos)
        if match is None or match.end() == pos:
            break
        pos = match.end()
        kind = match.lastgroup or "bad"
        text = match.group(kind)
        if kind == "bad":
            raise TargetError(f"#npu.target: unexpected character '{text}'")
        yield kind, text
    if body[pos:].strip():
        raise TargetError(f"#npu.target: unexpected text '{body[pos:].strip()[:20]}'")
    yield "end", ""


class _Reader:
    """A recursive-descent reader over the tokens of one attribute body."""

    def __init__(self, body: str) -> None:
        self._tokens = _tokens(body)
        self.kind, self.text = next(self._tokens)

    def advance(self) -> tuple[str, str]:
        current = (self.kind, self.text)
        self.kind, self.text = next(self._tokens)
        return current

    def found(self) -> str:
        return "the end" if self.kind == "end" else f"'{self.text}'"

    def expect(self, kind: str, text: str | None = None, what: str | None = None) -> str:
        if self.kind != kind or (text is not None and self.text != text):
            wanted = what or (f"'{text}'" if text is not None else kind)
            raise TargetError(f"#npu.target: expected {wanted}, found {self.found()}")
        return self.advance()[1]

    def accept(self, text: str) -> bool:
        if self.kind == "punct" and self.text == text:
            self.advance()
            return True
        return False

    def string(self, what: str) -> str:
        token = self.expect("string", what=what)
        try:
            return unquote_string(token)
        except ValueError as err:
            raise TargetError(f"#npu.target: {err}") from None

    def definition(self) -> list[tuple[str, Value]]:
        """``{key = value, ...}`` after the opening brace was seen."""
        entries: list[tuple[str, Value]] = []
        if self.accept("}"):
            return entries
        while True:
            key = self.expect("ident", what="a key")
            self.expect("punct", "=")
            if self.kind == "string":
                value: Value = self.string("a value")
            elif self.kind in ("number", "ident"):
                value = self.advance()[1]
            else:
                raise TargetError(f"#npu.target: expected a value for '{key}', found {self.found()}")
            entries.append((key, value))
            if self.accept("}"):
                return entries
            self.expect("punct", ",", "',' or '}'")


def parse_target_body(body: str | None) -> TargetAttr:
    """Parse the text between ``#npu.target<`` and ``>``; TargetError (a ValueError) if invalid."""
    if body is None:
        raise TargetError('#npu.target needs a body, e.g. #npu.target<"ethos-u55-128">')
    reader = _Reader(body)
    accel = reader.string('the accelerator name as a string, e.g. "ethos-u55-128"')
    given: dict[str, Any] = {}
    while reader.accept(","):
        key = reader.expect("ident", what="a key")
        if key not in KEYS:
            raise TargetError("#npu.target: " + unknown_name("key", key, KEYS))
        if key in given:
            raise TargetError(f"#npu.target: '{key}' is given twice")
        reader.expect("punct", "=")
        if key == "arena_cache_size":
            text = reader.expect("number", what="a size in bytes")
            given[key] = convert(MEMORY_MODE, key, text, "#npu.target")
            continue
        given[key] = reader.string(f"the name of a {_KIND_OF_KEY[key]} as a string")
        if reader.accept("{"):
            given[key + "_definition"] = reader.definition()
    if reader.kind != "end":
        raise TargetError(f"#npu.target: expected ',' or the end, found {reader.found()}")
    return TargetAttr.get(accel, system_config=given.get("system_config"), memory_mode=given.get("memory_mode"),
                          arena_cache_size=given.get("arena_cache_size"),
                          system_definition=given.get("system_config_definition"),
                          memory_mode_definition=given.get("memory_mode_definition"))




TARGET_ATTR = "npu.target"
"""Name of the module attribute holding the target."""


def target_of(module: Operation, required: bool = True) -> Target | None:
    """The resolved Target of ``module``'s ``npu.target`` attribute.

    Without the attribute: TargetError if ``required`` (the message says how to give one), else None.
    """
    attr = module.attr(TARGET_ATTR)
    if isinstance(attr, TargetAttr):
        return attr.target
    if attr is None and not required:
        return None
    if attr is None:
        raise TargetError(f"the module has no '{TARGET_ATTR}' attribute; give one with --target=ACCELERATOR "
                          f"or write 'module attributes {{{TARGET_ATTR} = #npu.target<\"ethos-u55-128\">}}'",
                          module.location)
    raise TargetError(f"'{TARGET_ATTR}' must be a #npu.target<...> attribute, not {attr}", module.location)


__all__ = ["KEYS", "TARGET_ATTR", "TargetAttr", "parse_target_body", "target_of"]
