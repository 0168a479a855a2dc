"""``npu-opt --perf-report=FILE``: the per-op performance table of the estimated IR.

Design notes: docs/tools_design.md, section The per-op performance report (perf_report)."""
from __future__ import annotations

import csv
import io
import json
from typing import Any

from npu_opt.ir.core import Block, Operation

COLUMNS: tuple[str, ...] = (
    "name", "op", "block", "npu_cycles", "sram_access_cycles", "dram_access_cycles", "on_chip_flash_access_cycles",
    "off_chip_flash_access_cycles", "total_cycles", "nn_macs", "hw_macs",
)
SCHEDULE_COLUMNS: tuple[str, ...] = (
    "time", "cascade", "stripe", "rolling", "weight_slices", "buffering", "weight_buffer_bytes", "area", "offset",
    "size",
)
"""Columns added when the IR carries schedule attributes."""
TOTAL_NAME = "TOTAL"


def _cycles(value: float) -> float | int:
    return int(value) if float(value).is_integer() else round(float(value), 3)


def _report_order(module: Operation) -> list[Operation]:
    """The module's ops, each function's executed ops in schedule order (``npu.time``) at the
    place of the first of them, everything else in IR order."""
    from npu_opt.dialects.npu.execution_order import execution_order, graph_blocks

    scheduled: dict[Block, list[Operation]] = {}
    for block in graph_blocks(module):
        try:
            order = execution_order(block)
        except ValueError:  # only some ops timed: npu-estimate already reported it
            continue
        if order:
            scheduled[order[0].parent] = order
    ops: list[Operation] = []
    emitted: set[Block] = set()
    for op in module.walk():
        order = scheduled.get(op.parent)
        if order is None:
            ops.append(op)
        elif op.parent not in emitted:
            emitted.add(op.parent)
            ops.extend(order)
    return ops


def collect_rows(module: Operation) -> list[dict[str, Any]]:
    """The rows of ``module``'s estimated ops (no totals row)."""
    from npu_opt.dialects.npu.perf.ir_adapter import report_name
    from npu_opt.dialects.npu.perf.ir_attrs import BLOCK_ATTR, COST_ATTR, BlockAttr, CostAttr

    rows: list[dict[str, Any]] = []
    for op in _report_order(module):
        cost = op.attr(COST_ATTR)
        if not isinstance(cost, CostAttr):
            continue
        block = op.attr(BLOCK_ATTR)
        rows.append({
            "name": report_name(op),
            "op": op.name,
            "block": "x".join(str(v) for v in block.ofm) if isinstance(block, BlockAttr) else "",
            "npu_cycles": _cycles(cost.cycle("npu")),
            "sram_access_cycles": _cycles(cost.cycle("sram")),
            "dram_access_cycles": _cycles(cost.cycle("dram")),
            "on_chip_flash_access_cycles": _cycles(cost.cycle("on_chip_flash")),
            "off_chip_flash_access_cycles": _cycles(cost.cycle("off_chip_flash")),
            "total_cycles": _cycles(cost.cycle("total")),
            "nn_macs": cost.macs,
            "hw_macs": cost.hw_macs,
            **_schedule_cells(op),
        })
    if not any(row[column] != "" for row in rows for column in SCHEDULE_COLUMNS):
        for row in rows:
            for column in SCHEDULE_COLUMNS:
                del row[column]
    return rows


def _hwd(shape: tuple[int, ...] | None) -> str:
    return "" if shape is None else "x".join(str(v) for v in shape)


def _schedule_cells(op: Operation) -> dict[str, Any]:
    """The schedule columns of one op (empty strings where it has no such decision)."""
    from npu_opt.dialects.npu.schedule_attrs import (
        CASCADE_ATTR, STRIPE_ATTR, TIME_ATTR, CascadeAttr, StripeAttr,
    )
    from npu_opt.dialects.npu.perf.weight_dma import is_prefetched
    from npu_opt.tools.summary import result_alloc, stream_dma, weight_stream

    time = op.attr(TIME_ATTR)
    cascade = op.attr(CASCADE_ATTR)
    stripe = op.attr(STRIPE_ATTR)
    stream = weight_stream(op)
    alloc = result_alloc(op)
    is_cascade = isinstance(cascade, CascadeAttr)
    return {
        "time": getattr(time, "value", "") if time is not None else "",
        "cascade": cascade.id if is_cascade else "",
        "stripe": _hwd(stripe.shape) if isinstance(stripe, StripeAttr) else "",
        "rolling": _hwd(cascade.rolling) if is_cascade else "",
        "weight_slices": " ".join(str(v) for v in stream.slices) if stream is not None else "",
        "buffering": (stream.buffering + ("+prefetch" if (dma := stream_dma(op)) is not None and is_prefetched(dma) else "")) if stream is not None else "",
        "weight_buffer_bytes": stream.buffer_bytes if stream is not None else "",
        "area": alloc.area if alloc is not None else "",
        "offset": alloc.offset if alloc is not None else "",
        "size": alloc.size if alloc is not None else "",
    }


def missing_estimate(module: Operation) -> str | None:
    """Why ``module`` has nothing to report (no ``npu.cost_totals``: npu-estimate did not run), or None."""
    from npu_opt.dialects.npu.perf.ir_attrs import TOTALS_ATTR

    if module.attr(TOTALS_ATTR) is not None:
        return None
    return (f"--perf-report needs the ops costed, but the module has no '{TOTALS_ATTR}' attribute: "
            "run the estimate pipeline (--pass=estimate --target=ACCELERATOR) or end the pipeline with npu-estimate")


def columns_of(rows: list[dict[str, Any]]) -> list[str]:
    """The report's columns: ``COLUMNS``, then ``SCHEDULE_COLUMNS`` if the rows have them."""
    scheduled = any(SCHEDULE_COLUMNS[0] in row for row in rows)
    return list(COLUMNS) + (list(SCHEDULE_COLUMNS) if scheduled else [])


def with_totals(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``rows`` followed by their column sums (name ``TOTAL``); schedule columns stay empty."""
    total: dict[str, Any] = {"name": TOTAL_NAME, "op": "", "block": ""}
    for column in COLUMNS[3:]:
        total[column] = _cycles(sum(float(row[column]) for row in rows))
    if any(SCHEDULE_COLUMNS[0] in row for row in rows):
        total.update({column: "" for column in SCHEDULE_COLUMNS})
    return rows + [total]


def render(rows: list[dict[str, Any]], path: str) -> str:
    """The report text for ``rows`` (totals added): JSON if ``path`` ends in .json, else CSV."""
    full = with_totals(rows)
    if path.lower().endswith(".json"):
        return json.dumps(full, indent=1) + "\n"
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns_of(full), restval="", lineterminator="\n")
    writer.writeheader()
    writer.writerows(full)
    return out.getvalue()


__all__ = ["COLUMNS", "SCHEDULE_COLUMNS", "TOTAL_NAME", "collect_rows", "columns_of", "missing_estimate", "render", "with_totals"]
