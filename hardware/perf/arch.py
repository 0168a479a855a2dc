"""The hardware as the cost model needs it: ``PerfTarget``, a hashable digest of a ``Target``.

A ``hardware.target.Target`` holds mappings (not hashable), so it cannot key a cache. A
``PerfTarget`` keeps exactly what the cost functions read: the accelerator constants and, per
memory area, bytes per cycle, burst length and read/write latency (Vela's
``memory_bandwidths_per_cycle``, ``memory_burst_length``, ``memory_latency``), plus the roles of
the memories (permanent, feature-map and fast storage). SHRAM, where LUTs are DMA'd, is on no AXI
port and gets Vela's defaults: AXI width x 1, burst 1, no latency.
"""
from __future__ import annotations

from dataclasses import dataclass

from npu_opt.hardware.accelerators import AcceleratorConfig
from npu_opt.hardware.perf.op_desc import MEMORY_AREAS, SHRAM
from npu_opt.hardware.target import Target


@dataclass(frozen=True)
class MemoryTimingDigest:
    """One memory area: bytes per core cycle, burst length in bytes, latencies in cycles."""

    bytes_per_cycle: float
    burst_length: int
    read_latency: int
    write_latency: int


@dataclass(frozen=True)
class PerfTarget:
    """Accelerator constants and memory timings (hashable; see the module docstring)."""

    accel: AcceleratorConfig
    memories: tuple[tuple[str, MemoryTimingDigest], ...]
    permanent_storage: str
    feature_map_storage: str
    fast_storage: str
    core_clock: float

    def memory(self, area: str) -> MemoryTimingDigest:
        for name, timing in self.memories:
            if name == area:
                return timing
        raise ValueError(f"unknown memory area {area!r}")

    def bytes_per_cycle(self, area: str) -> float:
        return self.memory(area).bytes_per_cycle

    def burst_length(self, area: str) -> int:
        return self.memory(area).burst_length

    def read_latency(self, area: str) -> int:
        return self.memory(area).read_latency

    def write_latency(self, area: str) -> int:
        return self.memory(area).write_latency

    @property
    def ncores(self) -> int:
        return self.accel.cores

    @property
    def spilling(self) -> bool:
        """Feature maps live outside the fast storage (Dedicated_Sram): they may be cached in it."""
        return self.fast_storage != self.feature_map_storage


def perf_target(target: Target) -> PerfTarget:
    """The ``PerfTarget`` of ``target``: a few dozen numbers, computed on each call (a pass asks
    once per run; the cost functions memoise on the hashable result)."""
    axi = target.accelerator.axi_port_bytes_per_cycle
    memories = []
    for area in MEMORY_AREAS:
        timing = target.timing(area)
        memories.append((area, MemoryTimingDigest(target.bandwidth_bytes_per_cycle(area), timing.burst_length,
                                                  timing.read_latency, timing.write_latency)))
    memories.append((SHRAM, MemoryTimingDigest(axi, 1, 0, 0)))
    return PerfTarget(target.accelerator, tuple(memories), target.permanent_storage_area,
                      target.feature_map_storage_area, target.fast_storage_area, target.core_clock)


def resolve_perf_target(accelerator: str, system_config: str | None = None,
                        memory_mode: str | None = None) -> PerfTarget:
    """Shortcut for tests and benchmarks: the PerfTarget of stock names (Vela's defaults for None)."""
    from npu_opt.hardware.target import resolve_target

    return perf_target(resolve_target(accelerator, system_config, memory_mode))


__all__ = ["MemoryTimingDigest", "PerfTarget", "perf_target", "resolve_perf_target"]
