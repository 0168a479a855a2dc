"""The hardware target every scheduling pass reads (accelerator, system config, memory mode),
resolved as Vela 5.2 resolves its architecture features.

Design notes: docs/cost_model_design.md, section The resolved target (target)."""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

from npu_opt.hardware.accelerators import AcceleratorConfig, accelerator
from npu_opt.hardware.errors import TargetError
from npu_opt.hardware.vela_config import (
    MEMORY_AREAS, MEMORY_MODE, PORTS, SYSTEM_CONFIG, Resolved, VelaConfig, builtin_config, npu_in_name,
)

ON_CHIP_FLASH = "OnChipFlash"


def default_system_config(accel: AcceleratorConfig) -> str:
    """Vela's system config when none is given (``_set_default_sys_config``)."""
    return "Ethos_U65_Client_Server" if accel.is_u65 else "Ethos_U55_High_End_Embedded"


def default_memory_mode(accel: AcceleratorConfig) -> str:
    """Vela's memory mode when none is given (``_set_default_mem_mode``)."""
    return "Dedicated_Sram_384KB" if accel.is_u65 else "Shared_Sram"


@dataclass(frozen=True)
class MemoryTiming:
    """How one memory behaves: clock relative to the core, ports, burst and latencies (cycles).

    The defaults are Vela's for a memory whose keys are not set. ``max_reads``/``max_writes``
    (transactions in flight) are None when not given; Vela's Python core ignores them.
    """

    clock_scale: float = 1.0
    ports_used: int = 1
    burst_length: int = 1
    read_latency: int = 0
    write_latency: int = 0
    max_reads: int | None = None
    max_writes: int | None = None


@dataclass(frozen=True)
class SystemConfig:
    """A resolved ``[System_Config.NAME]``: core clock, what is on each AXI port, memory timings.

    ``timings`` has an entry for the memory on each port only: as in Vela, keys of memories that
    are on no port are accepted but unused.
    """

    name: str
    core_clock: float
    axi0_port: str
    axi1_port: str
    timings: Mapping[str, MemoryTiming]
    values: tuple[tuple[str, object], ...] = field(repr=False)
    """The keys set by the section (after ``inherit``), canonical spelling, schema order."""

    @classmethod
    def from_resolved(cls, resolved: Resolved) -> "SystemConfig":
        ports = (str(resolved.get("axi0_port", "Sram")), str(resolved.get("axi1_port", "Sram")))
        timings: dict[str, MemoryTiming] = {}
        for area in ports:
            def get(suffix: str, default: object) -> object:
                return resolved.get(f"{area}_{suffix}", default)  # noqa: B023 - used at once
            timings[area] = MemoryTiming(
                clock_scale=float(get("clock_scale", 1.0)),  # type: ignore[arg-type]
                ports_used=max(1, int(get("ports_used", 1))),  # type: ignore[arg-type]
                burst_length=int(get("burst_length", 1)),  # type: ignore[arg-type]
                read_latency=int(get("read_latency", 0)),  # type: ignore[arg-type]
                write_latency=int(get("write_latency", 0)),  # type: ignore[arg-type]
                max_reads=get("max_reads", None),  # type: ignore[arg-type]
                max_writes=get("max_writes", None))  # type: ignore[arg-type]
        return cls(resolved.name, float(resolved.get("core_clock", 1.0)),  # type: ignore[arg-type]
                   ports[0], ports[1], MappingProxyType(timings), resolved.values)


@dataclass(frozen=True)
class MemoryMode:
    """A resolved ``[Memory_Mode.NAME]``: the AXI port of constants, feature maps and the cache."""

    name: str
    const_mem_area: str
    arena_mem_area: str
    cache_mem_area: str
    arena_cache_size: int | None
    """The mode's own ``arena_cache_size`` in bytes, or None when it sets none."""
    values: tuple[tuple[str, object], ...] = field(repr=False)

    @classmethod
    def from_resolved(cls, resolved: Resolved) -> "MemoryMode":
        size = resolved.get("arena_cache_size")
        return cls(resolved.name, str(resolved.get("const_mem_area", "Axi0")),
                   str(resolved.get("arena_mem_area", "Axi0")), str(resolved.get("cache_mem_area", "Axi0")),
                   None if size is None else int(size), resolved.values)


@dataclass(frozen=True)
class Target:
    """Everything the compiler knows about the hardware it schedules for.

    ``port_areas``, ``const_port`` and ``timings`` are after Vela's Sram_Only adjustment (see
    ``const_moved_to_on_chip_flash``); ``system`` and ``memory_mode`` are as configured.
    """

    accelerator: AcceleratorConfig
    system: SystemConfig
    memory_mode: MemoryMode
    arena_cache_size: int
    """Bytes of the arena cache: the override, else the memory mode's, else the address space."""
    arena_cache_size_source: str
    """Where ``arena_cache_size`` came from: ``override``, ``memory mode`` or ``default``."""
    port_areas: Mapping[str, str]
    """AXI port -> memory on it."""
    const_port: str
    arena_port: str
    cache_port: str
    timings: Mapping[str, MemoryTiming]
    const_moved_to_on_chip_flash: bool

    # -- memories ------------------------------------------------------------------------------
    @property
    def core_clock(self) -> float:
        """Core clock in Hz."""
        return self.system.core_clock

    @property
    def permanent_storage_area(self) -> str:
        """Memory holding weights, biases and LUTs (Vela's ``permanent_storage_mem_area``)."""
        return self.port_areas[self.const_port]

    @property
    def feature_map_storage_area(self) -> str:
        """Memory holding the tensor arena (Vela's ``feature_map_storage_mem_area``)."""
        return self.port_areas[self.arena_port]

    @property
    def fast_storage_area(self) -> str:
        """Memory of the fast cache, always SRAM (Vela's ``fast_storage_mem_area``)."""
        return self.port_areas[self.cache_port]

    @property
    def is_spilling_enabled(self) -> bool:
        """True when a dedicated SRAM caches an arena that lives elsewhere (Dedicated_Sram)."""
        return self.fast_storage_area == "Sram" and self.cache_port != self.arena_port

    def timing(self, area: str) -> MemoryTiming:
        """Timing of memory ``area``; Vela's defaults for a memory on no port."""
        if area not in MEMORY_AREAS:
            raise ValueError(f"unknown memory area {area!r}")
        return self.timings.get(area, MemoryTiming())

    def bandwidth_bytes_per_cycle(self, area: str) -> float:
        """Bytes per core cycle: AXI port width x ports used x clock scale."""
        timing = self.timing(area)
        return self.accelerator.axi_port_bytes_per_cycle * timing.ports_used * timing.clock_scale

    def bandwidth_bytes_per_second(self, area: str) -> float:
        return self.bandwidth_bytes_per_cycle(area) * self.core_clock

    def scratch_size_limit(self, fast: bool) -> int:
        """Hard size limit of the scratch (``fast=False``) or fast-scratch memory (Vela's
        ``mem_type_size``): the arena cache size for the fast scratch when spilling, otherwise
        the whole address space."""
        if fast and self.is_spilling_enabled:
            return self.arena_cache_size
        return self.accelerator.max_address_offset

    def describe(self) -> str:
        """A few lines in the spirit of Vela's ``--verbose-config``."""
        s = self.system
        lines = [f"Accelerator: {self.accelerator.name}",
                 f"System config ({s.name}): core_clock = {s.core_clock:g} Hz, "
                 f"axi0_port = {self.port_areas['Axi0']}, axi1_port = {self.port_areas['Axi1']}"]
        for area in MEMORY_AREAS:
            if area in self.port_areas.values():
                t = self.timing(area)
                lines.append(f"  {area}: clock_scale = {t.clock_scale:g}, ports_used = {t.ports_used}, "
                             f"burst_length = {t.burst_length}, latency r/w = {t.read_latency}/{t.write_latency}, "
                             f"{self.bandwidth_bytes_per_cycle(area):g} B/cycle")
        lines.append(f"Memory mode ({self.memory_mode.name}): const = {self.const_port}, "
                     f"arena = {self.arena_port}, cache = {self.cache_port}, arena_cache_size = "
                     f"{self.arena_cache_size} ({self.arena_cache_size_source})")
        return "\n".join(lines) + "\n"


def npu_of_accelerator(accel: AcceleratorConfig) -> str:
    """``Ethos-U55`` for ethos-u55-128, as system configs name their NPU."""
    return "Ethos-" + accel.family.split("-", 1)[1].upper()


def check_system_npu(accel: AcceleratorConfig, system: str, npu: str | None, config: VelaConfig | None = None) -> None:
    """TargetError when the system config ``system``, made for the NPU ``npu`` (None: any), is for
    another NPU than ``accel``'s; the message names both and the configs that suit ``accel``."""
    mine = npu_of_accelerator(accel)
    if npu is None or npu == mine:
        return
    config = config or builtin_config()
    suited = [name for name in config.names(SYSTEM_CONFIG) if config.npu_of(name) == mine]
    raise TargetError(f"system config '{system}' is for the {npu}, but the target {accel.name} is an {mine}: "
                      f"choose a system config for the {mine} ({', '.join(suited)}) or a target for the {npu}"
                      + ("" if npu in ("Ethos-U55", "Ethos-U65") else " (npu-opt has none: it targets the "
                                                                       "Ethos-U55 and Ethos-U65)"))


def build_target(accel: AcceleratorConfig, system: SystemConfig, mode: MemoryMode,
                 arena_cache_size: int | None = None) -> Target:
    """Combine the three parts as Vela does, checking that they fit together (and that the system
    config is not named for another NPU); TargetError if not."""
    check_system_npu(accel, system.name, npu_in_name(system.name))
    areas = {"Axi0": system.axi0_port, "Axi1": system.axi1_port}
    timings = dict(system.timings)
    const_port, arena_port, cache_port = mode.const_mem_area, mode.arena_mem_area, mode.cache_mem_area
    moved = False
    if areas[const_port] == "Sram" and const_port == arena_port == cache_port:
        # Everything on one SRAM port: constants go to the other port, as an on-chip flash that
        # behaves like the SRAM.
        const_port = "Axi1" if const_port == "Axi0" else "Axi0"
        areas[const_port] = ON_CHIP_FLASH
        timings[ON_CHIP_FLASH] = timings["Sram"]
        moved = True
    if arena_cache_size is not None:
        size, source = arena_cache_size, "override"
    elif mode.arena_cache_size is not None:
        size, source = mode.arena_cache_size, "memory mode"
    else:
        size, source = accel.max_address_offset, "default"

    where = f"memory mode '{mode.name}' with system config '{system.name}'"

    def check(role: str, port: str, allowed: tuple[str, ...]) -> None:
        if areas[port] not in allowed:
            raise TargetError(f"{where}: {role} is on {port}, which is {areas[port]}; it must be "
                              + " or ".join(allowed))
    check("const_mem_area", const_port, ("Dram", ON_CHIP_FLASH, "OffChipFlash"))
    check("arena_mem_area", arena_port, ("Sram", "Dram"))
    check("cache_mem_area", cache_port, ("Sram",))
    if size < 0:
        raise TargetError(f"arena_cache_size {size} must not be negative")
    if size > accel.max_address_offset:
        raise TargetError(f"arena_cache_size {size} is larger than the {accel.axi_address_width}-bit address "
                          f"space of {accel.name} (at most {accel.max_address_offset})")
    return Target(accel, system, mode, size, source, MappingProxyType(areas), const_port, arena_port,
                  cache_port, MappingProxyType(timings), moved)


def resolve_target(accelerator_name: str, system_config: str | None = None, memory_mode: str | None = None,
                   arena_cache_size: int | None = None, config: VelaConfig | None = None) -> Target:
    """The Target for names as given on a command line; None picks Vela's default for the family.

    Names are looked up in ``config`` (the built-in sections, plus any loaded files).
    """
    accel = accelerator(accelerator_name)
    config = config or builtin_config()
    system = SystemConfig.from_resolved(config.resolve(SYSTEM_CONFIG, system_config or default_system_config(accel)))
    mode = MemoryMode.from_resolved(config.resolve(MEMORY_MODE, memory_mode or default_memory_mode(accel)))
    return build_target(accel, system, mode, arena_cache_size)


__all__ = [
    "MemoryMode", "MemoryTiming", "PORTS", "SystemConfig", "Target", "build_target",
    "default_memory_mode", "default_system_config", "resolve_target",
]
