"""System configurations and memory modes, as in a Vela configuration (``.ini``) file, so a Vela
user's configuration selects the same target here.

Design notes: docs/cost_model_design.md, section System configurations (vela_config)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from types import MappingProxyType
from typing import Iterable, Mapping, Union

from npu_opt.hardware.errors import TargetError, closest, unknown_name

Value = Union[int, float, str]
"""A typed configuration value: an int, a float, or a memory/port name."""

SYSTEM_PREFIX = "System_Config."
MEMORY_MODE_PREFIX = "Memory_Mode."

MEMORY_AREAS: tuple[str, ...] = ("Sram", "Dram", "OnChipFlash", "OffChipFlash")
"""Memories an AXI port can be connected to (Vela's ``MemArea`` members usable in a config)."""
PORTS: tuple[str, ...] = ("Axi0", "Axi1")
"""The two AXI ports of the NPU (Vela's ``MemPort``)."""

# Value kinds of the schema.
FLOAT, INT, AREA, PORT = "float", "int", "memory area", "AXI port"

_PER_MEMORY: tuple[tuple[str, str], ...] = (
    ("clock_scale", FLOAT), ("ports_used", INT), ("burst_length", INT), ("read_latency", INT),
    ("write_latency", INT), ("max_reads", INT), ("max_writes", INT),
)

SYSTEM_KEYS: Mapping[str, str] = MappingProxyType({
    "core_clock": FLOAT, "axi0_port": AREA, "axi1_port": AREA,
    **{f"{area}_{suffix}": kind for area in MEMORY_AREAS for suffix, kind in _PER_MEMORY},
})
"""Keys of a system config section, in their canonical spelling and printing order, with kinds."""

MEMORY_MODE_KEYS: Mapping[str, str] = MappingProxyType({
    "const_mem_area": PORT, "arena_mem_area": PORT, "cache_mem_area": PORT, "arena_cache_size": INT,
})
"""Keys of a memory mode section, canonical spelling and order, with kinds."""

INHERIT = "inherit"


def _stock_system(core_clock: float, dram: bool, sram: tuple[int, int, int, int],
                  slow: tuple[float, int, int, int, int], *, sram_ports: int | None = None,
                  slow_ports: int | None = None) -> dict[str, Value]:
    """One stock system config: SRAM on AXI0, flash (or DRAM if ``dram``) on AXI1.

    ``sram`` is (read latency, write latency, max reads, max writes) with clock scale 1 and a
    burst of 32 (64 when ``sram_ports`` is given: the Ethos-U85 systems); ``slow`` is (clock
    scale, read latency, write latency, max reads, max writes) with a burst of 128.
    """
    other = "Dram" if dram else "OffChipFlash"
    values: dict[str, Value] = {"core_clock": core_clock, "axi0_port": "Sram", "axi1_port": other,
                                "Sram_clock_scale": 1.0}
    if sram_ports is not None:
        values["Sram_ports_used"] = sram_ports
    values.update({"Sram_burst_length": 32 if sram_ports is None else 64, "Sram_read_latency": sram[0],
                   "Sram_write_latency": sram[1], "Sram_max_reads": sram[2], "Sram_max_writes": sram[3],
                   f"{other}_clock_scale": slow[0]})
    if slow_ports is not None:
        values[f"{other}_ports_used"] = slow_ports
    values.update({f"{other}_burst_length": 128, f"{other}_read_latency": slow[1],
                   f"{other}_write_latency": slow[2], f"{other}_max_reads": slow[3],
                   f"{other}_max_writes": slow[4]})
    return values


BUILTIN_SECTIONS: Mapping[str, Mapping[str, Value]] = MappingProxyType({
    # Values of Vela 5.2.0 config_files/Arm/vela.ini. Flash: read latency 64, write 0, 2 reads in
    # flight; DRAM: read latency 500, write 250.
    "System_Config.Ethos_U55_Deep_Embedded":
        _stock_system(200e6, False, (32, 32, 8, 8), (0.0625, 64, 0, 2, 0)),
    "System_Config.Ethos_U55_High_End_Embedded":
        _stock_system(500e6, False, (32, 32, 4, 4), (0.125, 64, 0, 2, 0)),
    "System_Config.Ethos_U65_Embedded":
        _stock_system(500e6, False, (32, 32, 8, 8), (0.0625, 64, 0, 2, 0)),
    "System_Config.Ethos_U65_Mid_End":
        _stock_system(500e6, True, (32, 32, 8, 8), (0.46875, 500, 250, 12, 6)),
    "System_Config.Ethos_U65_High_End":
        _stock_system(1e9, True, (32, 32, 16, 16), (0.234375, 500, 250, 24, 12)),
    "System_Config.Ethos_U65_Client_Server":
        _stock_system(1e9, True, (32, 32, 16, 16), (0.75, 500, 250, 24, 12)),
    # Ethos-U85 systems (Vela hands them to its C++ core; usable here like any other).
    "System_Config.Ethos_U85_SYS_Flash_Low":
        _stock_system(200e6, False, (8, 8, 8, 8), (0.0625, 32, 0, 2, 0), sram_ports=2, slow_ports=1),
    "System_Config.Ethos_U85_SYS_Flash_High":
        _stock_system(500e6, False, (32, 32, 8, 8), (0.0625, 64, 0, 2, 0), sram_ports=2, slow_ports=1),
    "System_Config.Ethos_U85_SYS_DRAM_Low":
        _stock_system(500e6, True, (16, 16, 8, 8), (0.46875, 500, 250, 24, 12), sram_ports=2, slow_ports=1),
    "System_Config.Ethos_U85_SYS_DRAM_Mid":
        _stock_system(1e9, True, (32, 32, 8, 8), (0.75, 500, 250, 64, 32), sram_ports=2, slow_ports=1),
    "System_Config.Ethos_U85_SYS_DRAM_High":
        _stock_system(1e9, True, (32, 32, 8, 8), (0.75, 500, 250, 64, 32), sram_ports=4, slow_ports=2),
    # Memory modes: which port holds constants, feature maps and the fast cache.
    "Memory_Mode.Sram_Only": {"const_mem_area": "Axi0", "arena_mem_area": "Axi0", "cache_mem_area": "Axi0"},
    "Memory_Mode.Shared_Sram": {"const_mem_area": "Axi1", "arena_mem_area": "Axi0", "cache_mem_area": "Axi0"},
    "Memory_Mode.Dedicated_Sram": {"const_mem_area": "Axi1", "arena_mem_area": "Axi1",
                                   "cache_mem_area": "Axi0"},
    "Memory_Mode.Dedicated_Sram_256KB": {INHERIT: "Memory_Mode.Dedicated_Sram", "arena_cache_size": 262144},
    "Memory_Mode.Dedicated_Sram_384KB": {INHERIT: "Memory_Mode.Dedicated_Sram", "arena_cache_size": 393216},
    "Memory_Mode.Dedicated_Sram_512KB": {INHERIT: "Memory_Mode.Dedicated_Sram", "arena_cache_size": 524288},
})
"""The stock sections of Vela's vela.ini, as typed values (``inherit`` as a section name)."""

BUILTIN_SOURCE = "built-in"


@dataclass(frozen=True)
class Section:
    """One ``[NAME]`` section: its raw entries (canonical-or-lowercase key -> value) and origin."""

    name: str
    entries: Mapping[str, Value]
    source: str
    """The file the section came from, or ``built-in``."""


@dataclass(frozen=True)
class Resolved:
    """A system config or memory mode after ``inherit`` is followed and values are typed.

    ``values`` holds only the keys that some section of the chain sets, in canonical spelling and
    schema order; keys nobody sets take Vela's internal defaults later (see target.py).
    """

    kind: str
    """``system config`` or ``memory mode``."""
    name: str
    """The name without its ``System_Config.``/``Memory_Mode.`` prefix."""
    values: tuple[tuple[str, Value], ...]
    source: str

    def get(self, key: str, default: Value | None = None) -> Value | None:
        for k, v in self.values:
            if k == key:
                return v
        return default


SYSTEM_CONFIG, MEMORY_MODE = "system config", "memory mode"
_KIND_OF_PREFIX = {SYSTEM_PREFIX: SYSTEM_CONFIG, MEMORY_MODE_PREFIX: MEMORY_MODE}
_PREFIX_OF_KIND = {SYSTEM_CONFIG: SYSTEM_PREFIX, MEMORY_MODE: MEMORY_MODE_PREFIX}
_SCHEMA_OF_KIND = {SYSTEM_CONFIG: SYSTEM_KEYS, MEMORY_MODE: MEMORY_MODE_KEYS}


def schema(kind: str) -> Mapping[str, str]:
    """Keys and value kinds of a ``system config`` or a ``memory mode``."""
    return _SCHEMA_OF_KIND[kind]


def canonical_key(kind: str, key: str, where: str) -> str:
    """The canonical spelling of ``key`` (matched case-insensitively, as configparser does)."""
    keys = _SCHEMA_OF_KIND[kind]
    for known in keys:
        if known.lower() == key.lower():
            return known
    listing = None
    if kind == SYSTEM_CONFIG:
        per_memory = ", ".join(suffix for suffix, _ in _PER_MEMORY)
        listing = (f"core_clock, axi0_port, axi1_port, and <Memory>_{{{per_memory}}} for <Memory> in "
                   + ", ".join(MEMORY_AREAS))
    raise TargetError(f"{where}: " + unknown_name(f"{kind} key", key, keys, listing))


def convert(kind: str, key: str, value: Value, where: str) -> Value:
    """Type ``value`` of canonical ``key`` of a ``kind`` section; TargetError if malformed."""
    value_kind = _SCHEMA_OF_KIND[kind][key]
    text = value.strip() if isinstance(value, str) else value
    if value_kind in (AREA, PORT):
        choices = MEMORY_AREAS if value_kind == AREA else PORTS
        if isinstance(text, str):
            for choice in choices:
                if choice == text:
                    return choice
        raise TargetError(f"{where}: {key} = {text!r} is not a known {value_kind}" + _suggest(str(text), choices))
    try:
        if value_kind == INT:
            number: Value = _integer(text)
        else:
            if isinstance(text, bool):
                raise ValueError
            number = float(text)
            if number != number or number in (float("inf"), float("-inf")):
                raise ValueError
    except (TypeError, ValueError):
        noun = "an integer" if value_kind == INT else "a number"
        raise TargetError(f"{where}: {key} = {text!r} is not {noun}") from None
    if number < 0:
        raise TargetError(f"{where}: {key} = {text} must not be negative")
    if key == "core_clock" and number == 0:
        raise TargetError(f"{where}: core_clock must be positive")
    return number


def _integer(value: Value) -> int:
    """An int from an int or from decimal (or 0x-prefixed hexadecimal) text; ValueError otherwise."""
    if isinstance(value, bool) or isinstance(value, float):
        raise ValueError(value)
    if isinstance(value, int):
        return value
    try:
        return int(value)
    except ValueError:
        return int(value, 0)


def _suggest(text: str, choices: Iterable[str]) -> str:
    """``; did you mean 'x'? (expected one of: ...)``, the hint only when one is close."""
    options = list(choices)
    guess = closest(text, options)
    hint = f"; did you mean '{guess}'?" if guess is not None else ""
    return f"{hint} (expected one of: {', '.join(options)})"


class VelaConfig:
    """The sections npu-opt knows: the built-in stock sections overlaid with the user's files.

    ``VelaConfig()`` holds the built-ins only; ``VelaConfig.load(paths)`` adds files. Every
    ``System_Config.*`` and ``Memory_Mode.*`` section of a file is resolved and checked when
    the file is loaded, so a mistake anywhere in it is reported at once.
    """

    def __init__(self, sections: Mapping[str, Section] | None = None, files: tuple[str, ...] = ()) -> None:
        merged = {name: Section(name, entries, BUILTIN_SOURCE) for name, entries in BUILTIN_SECTIONS.items()}
        merged.update(sections or {})
        self.sections: Mapping[str, Section] = MappingProxyType(merged)
        self.files = files

    @classmethod
    def load(cls, paths: Iterable[str]) -> "VelaConfig":
        """Read ``paths`` on top of the built-ins. Later files add to and override earlier ones
        section by section and key by key, as configparser (and so Vela's repeated ``--config``)
        does. TargetError on any problem."""
        paths = tuple(paths)
        # section -> lower-case key -> (key as written, value): keys match case-insensitively,
        # but messages quote them as written.
        entries: dict[str, dict[str, tuple[str, str]]] = {}
        sources: dict[str, list[str]] = {}
        for path in paths:
            parser = _read_ini(path)
            for name in parser.sections():
                if name == "DEFAULT" and parser.items(name):
                    raise TargetError(f"[DEFAULT] in {path}: a DEFAULT section is not supported in a Vela "
                                      "configuration file; use 'inherit=SECTION' to share keys")
                merged = entries.setdefault(name, {})
                here: dict[str, str] = {}
                for key, value in parser.items(name):
                    if key.lower() in here:  # configparser would have folded these into one
                        raise TargetError(f"[{name}] in {path}: key '{key.lower()}' is set twice "
                                          f"('{here[key.lower()]}' and '{key}')")
                    here[key.lower()] = key
                    merged[key.lower()] = (key, value)
                sources.setdefault(name, []).append(path)
        sections = {name: Section(name, dict(pairs.values()), ", ".join(sources[name]))
                    for name, pairs in entries.items()}
        config = cls(sections, paths)
        for name in sections:
            for prefix, kind in _KIND_OF_PREFIX.items():
                if name.startswith(prefix):
                    config.resolve(kind, name[len(prefix):])
        return config

    # -- queries -----------------------------------------------------------------------------
    def names(self, kind: str) -> list[str]:
        """Names of every ``kind`` (``system config``/``memory mode``), without their prefix."""
        prefix = _PREFIX_OF_KIND[kind]
        return [name[len(prefix):] for name in self.sections if name.startswith(prefix)]

    def is_builtin(self, kind: str, name: str) -> bool:
        section = self.sections.get(_PREFIX_OF_KIND[kind] + name)
        return section is not None and section.source == BUILTIN_SOURCE

    def npu_of(self, name: str) -> str | None:
        """The NPU (``Ethos-U55``, ``-U65``, ``-U85``) the system config ``name`` is for: the one its
        name says (Vela's stock names do), else that of the section it inherits from; None when no
        section of the chain names one (a user's config then suits every target)."""
        current: str | None = SYSTEM_PREFIX + name
        seen: set[str] = set()
        while current is not None and current in self.sections and current not in seen:
            seen.add(current)
            npu = npu_in_name(current[len(SYSTEM_PREFIX):] if current.startswith(SYSTEM_PREFIX) else current)
            if npu is not None:
                return npu
            current = _inherit_of(self.sections[current])
        return None

    def resolve(self, kind: str, name: str) -> Resolved:
        """The ``kind`` called ``name``, with ``inherit`` followed, keys checked and values typed."""
        head = _PREFIX_OF_KIND[kind] + name
        if head not in self.sections:
            searched = f"; searched {', '.join(self.files)} and the built-in {kind}s" if self.files else ""
            raise TargetError(unknown_name(kind, name, self.names(kind)) + searched)
        chain: list[Section] = []
        current = head
        while True:
            section = self.sections[current]
            chain.append(section)
            parent = _inherit_of(section)
            if parent is None:
                break
            if parent not in self.sections:
                raise TargetError(f"[{current}] in {section.source}: inherit = {parent}: "
                                  + unknown_name("section", parent, self.sections))
            if any(s.name == parent for s in chain):
                cycle = " -> ".join([s.name for s in chain] + [parent])
                raise TargetError(f"[{head}] in {section.source}: inheritance cycle: {cycle}")
            current = parent
        values: dict[str, Value] = {}
        for section in reversed(chain):  # the root first; each section overrides what it inherits
            where = f"[{section.name}] in {section.source}"
            for raw_key, raw_value in section.entries.items():
                if raw_key.lower() == INHERIT:
                    continue
                key = canonical_key(kind, raw_key, where)
                values[key] = convert(kind, key, raw_value, where)
        ordered = tuple((key, values[key]) for key in _SCHEMA_OF_KIND[kind] if key in values)
        return Resolved(kind, name, ordered, chain[0].source)


NPUS: tuple[str, ...] = ("Ethos-U55", "Ethos-U65", "Ethos-U85")
"""The NPUs Vela's stock system configs are named for (npu-opt targets the first two)."""


def npu_in_name(name: str) -> str | None:
    """The NPU a system config's name names (``Ethos_U85_SYS_DRAM_Low``: ``Ethos-U85``), or None."""
    found = re.search(r"(?:^|[^0-9A-Za-z])U(55|65|85)(?![0-9])", name)
    return f"Ethos-U{found.group(1)}" if found else None


def _inherit_of(section: Section) -> str | None:
    for key, value in section.entries.items():
        if key.lower() == INHERIT:
            return str(value).strip()
    return None


def _read_ini(path: str) -> configparser.ConfigParser:
    """Parse one ``.ini`` file strictly (no interpolation, no implicit DEFAULT section)."""
    import configparser  # (only for --config files: the stock sections are built in)

    parser = configparser.ConfigParser(interpolation=None, default_section="\0no default section")
    parser.optionxform = _keep_case  # type: ignore[assignment,method-assign]
    try:
        with open(path, encoding="utf-8") as stream:
            parser.read_file(stream, source=path)
    except FileNotFoundError:
        raise TargetError(f"cannot read configuration file '{path}': no such file") from None
    except IsADirectoryError:
        raise TargetError(f"cannot read configuration file '{path}': it is a directory") from None
    except OSError as err:
        raise TargetError(f"cannot read configuration file '{path}': {err.strerror}") from None
    except UnicodeDecodeError:
        raise TargetError(f"configuration file '{path}' is not UTF-8 text") from None
    except configparser.Error as err:
        raise TargetError(f"malformed configuration file '{path}': {_configparser_message(err)}") from None
    return parser


def _keep_case(key: str) -> str:
    """configparser folds keys to lower case; keep them as written (for messages), and detect
    a key set twice in different cases separately."""
    return key


def _configparser_message(err: configparser.Error) -> str:
    """configparser's message without its repetition of the file name, on one line."""
    import configparser

    if isinstance(err, configparser.MissingSectionHeaderError):
        return f"line {err.lineno}: a key outside any [SECTION] ({err.line.strip()!r})"
    if isinstance(err, configparser.DuplicateSectionError):
        return f"line {err.lineno}: section [{err.section}] is defined twice"
    if isinstance(err, configparser.DuplicateOptionError):
        return f"line {err.lineno}: key '{err.option}' is set twice in [{err.section}]"
    if isinstance(err, configparser.ParsingError):
        lines = ", ".join(f"line {lineno} ({text.strip()!r})" for lineno, text in err.errors)
        return f"cannot parse {lines}"
    return " ".join(str(err).split())


def builtin_config() -> VelaConfig:
    """The built-in sections only (cached: they never change)."""
    global _BUILTIN
    if _BUILTIN is None:
        _BUILTIN = VelaConfig()
    return _BUILTIN


_BUILTIN: VelaConfig | None = None

__all__ = [
    "AREA", "BUILTIN_SECTIONS", "FLOAT", "INT", "MEMORY_AREAS", "MEMORY_MODE", "MEMORY_MODE_KEYS", "PORT",
    "NPUS", "PORTS", "Resolved", "SYSTEM_CONFIG", "SYSTEM_KEYS", "Section", "Value", "VelaConfig", "builtin_config",
    "canonical_key", "convert", "npu_in_name", "schema",
]
