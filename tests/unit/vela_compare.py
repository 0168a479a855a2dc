"""Shared by the Vela comparison tests: run the ``estimate`` pipeline for a Vela config and list
every figure where its per-op rows differ from Vela's per-layer report."""
from __future__ import annotations

import io
from typing import Any, Mapping, Sequence

import npu_opt.passes  # noqa: F401  (registers the passes and the estimate pipeline)
from npu_opt.dialects.tfl.tflite import import_tflite
from npu_opt.ir.diagnostics import DiagnosticEngine
from npu_opt.ir.pass_manager import PassManager
from npu_opt.ir.pass_registry import parse_pipeline
from npu_opt.tools.perf_report import collect_rows
from npu_opt.tools.api import set_target

FIGURES: tuple[tuple[str, str], ...] = (
    ("op_cycles", "total_cycles"), ("npu_cycles", "npu_cycles"), ("sram_ac", "sram_access_cycles"),
    ("dram_ac", "dram_access_cycles"), ("on_chip_flash_ac", "on_chip_flash_access_cycles"),
    ("off_chip_flash_ac", "off_chip_flash_access_cycles"), ("macs", "nn_macs"),
)
"""(Vela figure, --perf-report column) pairs that must agree."""

PRECISION = 1e-3
"""--perf-report rounds fractional cycles to 3 decimals; anything closer is equal."""


def estimate_rows(model: bytes, name: str, accelerator: str, system_config: str,
                  memory_mode: str) -> tuple[dict[str, Any], ...]:
    """Our --perf-report rows for a .tflite model: imported, given the target as --target,
    --system-config and --memory-mode give it, run through ``estimate`` with the verifier on."""
    module = set_target(import_tflite(model, name), accelerator, system_config=system_config, memory_mode=memory_mode)
    engine = DiagnosticEngine(stream=io.StringIO())
    engine.show_remarks = False
    PassManager(parse_pipeline("estimate"), engine, verify_each=True).run(module)
    return tuple(collect_rows(module))


def differences(vela_layers: Sequence[Mapping[str, str]], ours: Sequence[Mapping[str, Any]]) -> list[str]:
    """One line per figure where ``ours`` and Vela's layers disagree, joined on the layer name
    (repeated names in order); layers only one side has are listed too. Empty: all equal."""
    by_name: dict[str, list[Mapping[str, Any]]] = {}
    for row in ours:
        by_name.setdefault(str(row["name"]), []).append(row)
    found: list[str] = []
    for vela in vela_layers:
        candidates = by_name.get(vela["name"])
        if not candidates:
            found.append(f"{vela['name']} ({vela['vela_op']}): in Vela's report, not in ours")
            continue
        mine = candidates.pop(0)
        for figure, column in FIGURES:
            want, got = float(vela[figure]), float(mine[column])
            if abs(want - got) > PRECISION:
                found.append(f"{vela['name']} ({vela['vela_op']}, block {mine['block']}): {figure} is {got:g}, "
                             f"Vela's {want:g}")
    for name, rest in by_name.items():
        found.extend(f"{name} ({row['op']}): in our report, not in Vela's" for row in rest)
    return found


__all__ = ["FIGURES", "PRECISION", "differences", "estimate_rows"]
