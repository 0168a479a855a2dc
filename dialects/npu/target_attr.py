"""``#npu.target<...>``: the target of a module (accelerator, system config, memory mode, arena cache
size), declared (ir/attrdef.py) and checked when it is created, so an invalid one never exists.

A system config or memory mode may be defined right in the attribute, ``memory_mode = "M"
{const_mem_area = Axi1, ...}``, with the keys of a Vela ``.ini`` section flattened (no
``inherit``), so a test file carries a custom target without its ``.ini``; keys left out take
Vela's defaults, and an omitted name means Vela's default for the accelerator family.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from npu_opt.hardware.accelerators import accelerator
from npu_opt.hardware.errors import TargetError
from npu_opt.hardware.target import (
    MemoryMode, SystemConfig, Target, build_target, default_memory_mode, default_system_config,
)
from npu_opt.hardware.vela_config import (
    MEMORY_MODE, SYSTEM_CONFIG, Resolved, Value, builtin_config, canonical_key, convert, schema,
)
from npu_opt.ir.attr_params import Int, NamedTable, String
from npu_opt.ir.attrdef import POSITIONAL, AttrDef, Param
from npu_opt.ir.core import Operation
from npu_opt.ir.type_parser import AttributeSyntaxError

Definition = tuple[tuple[str, Value], ...]

KEYS = ("system_config", "memory_mode", "arena_cache_size")
"""Keys of the attribute body after the accelerator, in printing order."""
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


def _format_value(key: str, value: Value) -> str:
    """A definition value: names bare, a whole clock in Hz as an integer, other floats shortest."""
    if isinstance(value, str):
        return value
    if isinstance(value, float) and key == "core_clock" and value.is_integer() and value < 1e16:
        return str(int(value))
    return repr(value)


class TargetAttr(AttrDef):
    """The target of a module: the accelerator, its system config and memory mode (Vela's, or
    defined here), and an arena cache size overriding the memory mode's; ``.target`` is the
    resolved ``Target``."""

    NAME = "npu.target"
    EXTRA_SLOTS = ("target",)
    PREFIX_ERRORS = False  # (the target's own errors say where they are)
    accelerator = Param(String(), POSITIONAL, doc="e.g. \"ethos-u55-128\" (any letter case)")
    system = Param(NamedTable(_format_value), key="system_config", default=None,
                   doc="a built-in system config, or one defined here")
    mode = Param(NamedTable(_format_value), key="memory_mode", default=None,
                 doc="a built-in memory mode, or one defined here")
    arena_cache_size = Param(Int(), default=None, doc="bytes, overriding the memory mode's")
    target: Target

    @classmethod
    def get(cls, accelerator: str, *, system_config: str | None = None, memory_mode: str | None = None,
            arena_cache_size: int | None = None, system_definition: Any = None,
            memory_mode_definition: Any = None) -> "TargetAttr":
        """The attribute for these choices."""
        if not isinstance(accelerator, str):
            raise TargetError("the accelerator of #npu.target must be a string")
        if arena_cache_size is not None and (isinstance(arena_cache_size, bool) or not isinstance(arena_cache_size, int)):
            raise TargetError(f"arena_cache_size must be an integer, not {arena_cache_size!r}")
        for name, definition, what in ((system_config, system_definition, "a system config"),
                                       (memory_mode, memory_mode_definition, "a memory mode")):
            if definition is not None and name is None:
                raise TargetError(f"{what} definition needs a name")
        return cls(accelerator, None if system_config is None else (system_config, system_definition),
                   None if memory_mode is None else (memory_mode, memory_mode_definition), arena_cache_size)

    @classmethod
    def canonical(cls, values: tuple) -> tuple:
        accel, system, mode, size = values
        if size is not None:
            size = convert(MEMORY_MODE, "arena_cache_size", str(size), "#npu.target")
        return (accel.lower(),
                None if system is None else (system[0], _normalize_definition(SYSTEM_CONFIG, system[1], system[0])),
                None if mode is None else (mode[0], _normalize_definition(MEMORY_MODE, mode[1], mode[0])), size)

    def verify(self) -> None:
        accel = accelerator(self.accelerator)
        system = self._part(SYSTEM_CONFIG, self.system_config or default_system_config(accel), self.system_definition)
        mode = self._part(MEMORY_MODE, self.memory_mode or default_memory_mode(accel), self.memory_mode_definition)
        self._derive("target", build_target(accel, SystemConfig.from_resolved(system), MemoryMode.from_resolved(mode),
                                            self.arena_cache_size))

    @staticmethod
    def _part(kind: str, name: str, definition: Definition | None) -> Resolved:
        if definition is None:
            return builtin_config().resolve(kind, name)
        return Resolved(kind, name, definition, INLINE_SOURCE)

    @property
    def system_config(self) -> str | None:
        return None if self.system is None else self.system[0]

    @property
    def system_definition(self) -> Definition | None:
        return None if self.system is None else self.system[1]

    @property
    def memory_mode(self) -> str | None:
        return None if self.mode is None else self.mode[0]

    @property
    def memory_mode_definition(self) -> Definition | None:
        return None if self.mode is None else self.mode[1]


def parse_target_body(body: str | None) -> TargetAttr:
    """Parse the text between ``#npu.target<`` and ``>``; TargetError (a ValueError) if invalid."""
    try:
        return TargetAttr.parse(body)
    except AttributeSyntaxError as err:
        raise TargetError(str(err)) from None


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
