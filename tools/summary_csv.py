"""``npu-opt --summary-csv=FILE``: the network summary in Vela's summary CSV columns, so scripts
written for Vela read it unchanged.

Design notes: docs/tools_design.md, section The summary CSV (summary_csv)."""
from __future__ import annotations

import csv
import io
import os
from typing import Any, Iterable

from npu_opt.ir.core import Operation

MEMORY_PREFIXES: tuple[tuple[str, str], ...] = (
    ("Sram", "sram"), ("Dram", "dram"), ("OnChipFlash", "on_chip_flash"), ("OffChipFlash", "off_chip_flash"),
)
"""Our memory area names and the prefix of their columns, in Vela's column order."""

AREA_LABELS: dict[str, str] = {"Sram": "SRAM", "Dram": "DRAM", "OnChipFlash": "On-chip Flash",
                               "OffChipFlash": "Off-chip Flash"}
"""How Vela spells a memory area in ``weights_storage_area``/``feature_map_storage_area``."""

SPLIT_COLUMNS: tuple[tuple[str, str], ...] = (
    ("feature_map_read_bytes", "fm_read"), ("feature_map_write_bytes", "fm_written"),
    ("weight_read_bytes", "weight_read"), ("weight_write_bytes", "weight_written"),
)
"""Traffic columns of each memory and the part of ``npu.cost_totals`` (``CostAttr.part``) they show."""

TRAFFIC_PARTS: tuple[str, ...] = ("feature_map_read_bytes", "feature_map_write_bytes", "weight_read_bytes",
                                  "weight_write_bytes", "total_bytes")

COLUMNS: tuple[str, ...] = (
    "experiment", "network", "accelerator_configuration", "system_config", "memory_mode", "core_clock",
    "arena_cache_size",
    *(f"{prefix}_bandwidth" for _, prefix in MEMORY_PREFIXES),
    "weights_storage_area", "feature_map_storage_area", "inferences_per_second", "batch_size", "inference_time",
    "passes_before_fusing", "passes_after_fusing",
    *(f"{prefix}_memory_used" for _, prefix in MEMORY_PREFIXES),
    "total_original_weights", "total_npu_encoded_weights",
    *(f"{prefix}_{part}" for _, prefix in MEMORY_PREFIXES for part in TRAFFIC_PARTS),
    "nn_macs", "nn_tops", "cycles_npu",
    *(f"cycles_{prefix}_access" for _, prefix in MEMORY_PREFIXES),
    "cycles_total",
)
"""Vela 5.2.0's summary columns, in its order."""

BOUND_COLUMNS: tuple[str, ...] = ("cycles_lower_bound", "cycles_pct_of_bound", "sram_lower_bound",
                                  "sram_pct_of_bound")
"""Ours, after Vela's (scripts reading Vela's columns by position still find them): the model's
lower bound (dialects/npu/perf/lower_bound.py) in cycles and fast-storage bytes, and our total
cycles and peak fast-storage bytes as a percentage of it (empty when the bound is 0)."""

ALL_COLUMNS: tuple[str, ...] = COLUMNS + BOUND_COLUMNS
"""The header ``--summary-csv`` writes."""

KIB = 1024
GIB = 1024 ** 3


def missing_costs(module: Operation, flag: str = "--summary-csv") -> str | None:
    """Why ``module`` cannot be summarised (npu-estimate has not run), or None."""
    from npu_opt.dialects.npu.perf.ir_attrs import TOTALS_ATTR, CostAttr

    if isinstance(module.attr(TOTALS_ATTR), CostAttr):
        return None
    return (f"{flag} needs the ops costed, but the module has no '{TOTALS_ATTR}' attribute: "
            "run the estimate pipeline (--pass=estimate --target=ACCELERATOR) or end the pipeline with npu-estimate")


def accelerator_label(name: str) -> str:
    """``ethos-u55-128`` -> ``Ethos_U55_128`` (Vela's ``Accelerator`` enum member name)."""
    family, _, size = name.partition("-u")
    return f"{family.capitalize()}_U{size.replace('-', '_').upper()}"


def network_name(input_name: str) -> str:
    """The network's name as Vela gives it: the input file's base name without its extension
    (empty for standard input)."""
    if input_name in ("", "-", "<stdin>"):
        return ""
    return os.path.splitext(os.path.basename(input_name))[0]


def _number(value: float) -> int | float:
    """Integral values as ints (Vela writes cycle and byte counts without a fraction)."""
    return int(value) if float(value).is_integer() else float(value)


def costed_ops(module: Operation) -> list[Operation]:
    """The ops carrying an ``npu.cost``, in IR order."""
    from npu_opt.dialects.npu.perf.ir_attrs import COST_ATTR, CostAttr

    return [op for op in module.walk() if isinstance(op.attr(COST_ATTR), CostAttr)]


def vela_pass_counts(module: Operation) -> tuple[int, int]:
    """(passes before fusing, passes after fusing) as Vela's legacy core counts them: its CPU
    graph has a start-up pass, a call per NPU stretch and a pass per CPU op (its passes after
    fusing are these alone), and each NPU stretch adds a start-up pass and a pass per costed op."""
    from npu_opt.dialects.npu.perf.ir_attrs import COST_ATTR, CostAttr
    from npu_opt.dialects.npu.execution_order import execution_order, graph_blocks, npu_runs, on_cpu

    from npu_opt.dialects.tfl.ops_ethosu import EthosUOp

    def costed_in(op: Operation) -> int:
        return sum(isinstance(inner.attr(COST_ATTR), CostAttr) for inner in op.walk())

    cpu_side, npu_side = 1, 0
    for block in graph_blocks(module):
        try:
            runs = npu_runs(block)
            order = execution_order(block)
        except ValueError:  # partly ordered: npu-order has not run to the end
            continue
        # a compiled run is one tfl.ethos_u op, whose program's scheduled ops ethosu-estimate costed
        costed = [sum(isinstance(op.attr(COST_ATTR), CostAttr) for op in run) for run in runs]
        costed += [costed_in(op) for op in order if isinstance(op, EthosUOp)]
        runs = [count for count in costed if count]
        cpu_side += len(runs) + sum(on_cpu(op) and not isinstance(op, EthosUOp) for op in order)
        npu_side += sum(1 + count for count in runs)
    return cpu_side + npu_side, cpu_side


def original_weight_bytes(ops: Iterable[Operation]) -> int | None:
    """Bytes of the distinct weight tensors of ``ops`` (element count x element size), a streamed
    tensor counted at its source; None when an element size is not a whole number of bytes."""
    from npu_opt.ir.core import Value

    total = 0
    seen: set[int] = set()
    for op in ops:
        weights = getattr(op, "weights", None)
        producer = getattr(weights, "op", None)
        if producer is not None and producer.name == "npu.dma":  # a weight stream: count its source
            weights = producer.operands[0]
        if not isinstance(weights, Value) or id(weights) in seen:
            continue
        seen.add(id(weights))
        size = _tensor_bytes(weights)
        if size is None:
            return None
        total += size
    return total


def _tensor_bytes(value: Any) -> int | None:
    """Bytes of a static tensor of integers: its element count times its storage width."""
    from npu_opt.dialects.npu.ops_common import element_bits, shape_of

    try:
        width = element_bits(value)
    except ValueError:  # not a tensor of integers
        return None
    if width % 8:
        return None
    count = 1
    for dim in shape_of(value):
        count *= int(dim)
    return count * width // 8


def batch_size(module: Operation) -> int | None:
    """The leading dimension of the first function's first argument (Vela's batch size)."""
    from npu_opt.dialects.npu.ops_common import shape_of

    for op in module.walk():
        if op.name == "func.func" and op.regions and op.regions[0].blocks:
            arguments = op.regions[0].blocks[0].args
            if arguments:
                shape = shape_of(arguments[0])
                return int(shape[0]) if shape else 1
            return None
    return None


def summary_row(module: Operation, input_name: str) -> dict[str, Any]:
    """The summary row of an estimated module (check ``missing_costs`` first); None values are
    columns the IR has no source for."""
    from npu_opt.dialects.npu.perf.ir_attrs import TOTALS_ATTR
    from npu_opt.dialects.npu.schedule_attrs import USAGE_ATTR, UsageAttr
    from npu_opt.dialects.npu.target_attr import target_of

    totals = module.attr(TOTALS_ATTR)
    target = target_of(module, required=False)
    row: dict[str, Any] = {column: None for column in ALL_COLUMNS}
    row["experiment"] = "default"
    row["network"] = network_name(input_name)
    ops = costed_ops(module)
    row["batch_size"] = batch_size(module)
    row["passes_before_fusing"], row["passes_after_fusing"] = vela_pass_counts(module)
    row["total_original_weights"] = original_weight_bytes(ops)
    row["nn_macs"] = totals.macs
    row["cycles_npu"] = _number(totals.cycle("npu"))
    row["cycles_total"] = _number(totals.cycle("total"))
    recorded = totals.split is not None  # npu-estimate wrote the purpose split and the weight sizes
    if recorded:
        row["total_original_weights"] = totals.original_weights
        row["total_npu_encoded_weights"] = totals.encoded_weights
    for index, (area, prefix) in enumerate(MEMORY_PREFIXES):
        row[f"cycles_{prefix}_access"] = _number(totals.cycle(CYCLE_NAMES[area]))
        row[f"{prefix}_total_bytes"] = _number(totals.read[index] + totals.written[index])
        if recorded:
            for part, key in SPLIT_COLUMNS:
                row[f"{prefix}_{part}"] = _number(totals.part(key)[index])
    usage = module.attr(USAGE_ATTR)
    allocated = isinstance(usage, UsageAttr)
    if target is not None:
        clock = float(target.core_clock)
        row["accelerator_configuration"] = accelerator_label(target.accelerator.name)
        row["system_config"] = target.system.name
        row["memory_mode"] = target.memory_mode.name
        row["core_clock"] = clock
        row["arena_cache_size"] = target.arena_cache_size / KIB
        row["weights_storage_area"] = AREA_LABELS[target.permanent_storage_area]
        row["feature_map_storage_area"] = AREA_LABELS[target.feature_map_storage_area]
        connected = set(target.port_areas.values())
        variable = {target.feature_map_storage_area, target.fast_storage_area}
        for index, (area, prefix) in enumerate(MEMORY_PREFIXES):
            row[f"{prefix}_bandwidth"] = target.bandwidth_bytes_per_second(area) / GIB
            stored = totals.stored[index] if recorded else 0
            if area not in connected:
                row[f"{prefix}_memory_used"] = 0.0
            elif allocated:
                row[f"{prefix}_memory_used"] = (usage.used(area) + stored) / KIB
            elif recorded and area not in variable:  # constants only: no allocation needed
                row[f"{prefix}_memory_used"] = stored / KIB
        cycles = totals.cycle("total")
        if cycles > 0 and clock > 0:
            row["inference_time"] = cycles / clock
            row["inferences_per_second"] = clock / cycles
            row["nn_tops"] = totals.macs * 2 * row["inferences_per_second"] / 1e12
    elif allocated:
        for area, used, _ in usage:
            row[f"{dict(MEMORY_PREFIXES)[area]}_memory_used"] = used / KIB
    if target is not None:
        row.update(bound_columns(module, totals.cycle("total"), usage, target.fast_storage_area))
    return row


def bound_columns(module: Operation, cycles: float, usage: Any, fast_area: str) -> dict[str, Any]:
    """``BOUND_COLUMNS`` of a module with a target: bounds in cycles and bytes, percentages to
    one decimal (None where the bound is 0, or no ``npu.usage`` says what we used)."""
    from npu_opt.dialects.npu.perf.lower_bound import lower_bound, percent_of
    from npu_opt.dialects.npu.schedule_attrs import UsageAttr

    bound = lower_bound(module)
    cycles_pct = percent_of(cycles, bound.cycles)
    sram_pct = percent_of(usage.used(fast_area), bound.sram_bytes) if isinstance(usage, UsageAttr) else None
    return {"cycles_lower_bound": bound.cycles,
            "cycles_pct_of_bound": None if cycles_pct is None else round(cycles_pct, 1),
            "sram_lower_bound": bound.sram_bytes,
            "sram_pct_of_bound": None if sram_pct is None else round(sram_pct, 1)}


CYCLE_NAMES: dict[str, str] = {"Sram": "sram", "Dram": "dram", "OnChipFlash": "on_chip_flash",
                               "OffChipFlash": "off_chip_flash"}
"""Memory area -> its access-cycle key in ``npu.cost``."""


def render(rows: list[dict[str, Any]]) -> str:
    """The CSV text: Vela's header and ours after it, then one row per module; empty cells for
    None."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(ALL_COLUMNS)
    for row in rows:
        writer.writerow(["" if row.get(column) is None else row[column] for column in ALL_COLUMNS])
    return out.getvalue()


__all__ = ["ALL_COLUMNS", "AREA_LABELS", "BOUND_COLUMNS", "COLUMNS", "accelerator_label", "bound_columns",
           "missing_costs", "network_name", "render", "summary_row"]
