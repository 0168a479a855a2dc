"""The CONFIG and ID words of a driver payload: what TFLite Micro's Ethos-U driver checks the
NPU against before it runs a command stream (docs/deployable_tflite.md)."""
from __future__ import annotations

from npu_opt.hardware.accelerators import AcceleratorConfig

ARCHITECTURE = (1, 0, 6)
"""The NPU architecture revision (major, minor, patch) that Vela 5.2's command streams target."""


def config_word(accel: AcceleratorConfig) -> int:
    """The CONFIG register value the stream expects: the product (0 Ethos-U55, 1 Ethos-U65) in bits
    28-31, the SHRAM of all cores in KiB in bits 8-15, command-stream version 0 in bits 4-7 and
    log2 of the MACs per cycle of all cores in bits 0-3."""
    macs = accel.total_macs_per_cycle
    if macs & (macs - 1):
        raise ValueError(f"{accel.name}: {macs} MACs per cycle is no power of two, which CONFIG cannot say")
    shram_kib = accel.cores * accel.shram_size_bytes // 1024
    if shram_kib > 0xFF:
        raise ValueError(f"{accel.name}: {shram_kib} KiB of SHRAM does not fit CONFIG's 8-bit field")
    product = 1 if accel.is_u65 else 0
    return product << 28 | shram_kib << 8 | macs.bit_length() - 1


def id_word() -> int:
    """The ID register value the stream expects: the architecture revision's major (bits 28-31),
    minor (20-27) and patch (16-19) numbers."""
    major, minor, patch = ARCHITECTURE
    return major << 28 | minor << 20 | patch << 16


__all__ = ["ARCHITECTURE", "config_word", "id_word"]
