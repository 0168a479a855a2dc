"""--pareto's plot on large and small frontiers: cycles in M or k and SRAM in KiB with plain ticks,
the budget a labelled line, every point numbered as --summary numbers it (labels apart from each
other) with its knobs in a table, far-off Vela points on the edge with their values, and the
legend outside the data."""
from __future__ import annotations

import os
from typing import Any

import pytest

from npu_opt.dialects.npu.schedule_attrs import search_point
from npu_opt.tools.npu_opt import main
from npu_opt.tools.pareto import Frontier, point_table, render_plot
from svg_boxes import group_box, svg_texts
from test_reports import ROOT

BRANCHES = ["--target", "ethos-u65-256", "--system-config", "Ethos_U65_High_End", "--memory-mode", "Dedicated_Sram",
            "--arena-cache-size", "16384", "--pass=schedule{sram-budget=8000 monotone=false}"]  # (the frontier pareto.mlir pins)


def large_frontier() -> Frontier:
    """Eighteen points from 40 M cycles in 3,000,000 B to 51.5 M in 348,000 B, some close together,
    with Vela's Performance point far right of them (9,000,000 B) and its Size point above them."""
    steps = [(20_000, 2_000), (300_000, 150_000), (1_500_000, 8_000), (5_000, 400_000)]
    points, cycles, sram = [], 40_000_000, 3_000_000
    for index in range(18):
        flags = ("prefetch_overlap", "fastest_blocks", "cascade_joins")[: index % 4]
        points.append(search_point("Size", 4_294_967_296, cycles, sram, flags))
        add, less = steps[index % 4]
        cycles, sram = cycles + add, sram - less
    return Frontier("big", "ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram", 2_500_000, 3,
                    tuple(points), (45_000_000, 9_000_000), (60_000_000, 900_000))


def drawn(monkeypatch: pytest.MonkeyPatch, frontier: Frontier) -> Any:
    """The matplotlib figure render_plot draws for ``frontier`` (caught where it is saved)."""
    pytest.importorskip("matplotlib")
    caught = []
    monkeypatch.setattr("npu_opt.tools.figure_file.figure_bytes", lambda figure, path: caught.append(figure) or b"")
    render_plot([frontier], "x.svg")
    return caught[0]


def test_small_frontier_svg_numbers_points_as_the_summary(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    out = tmp_path / "frontier.svg"
    assert main([str(ROOT / "tests" / "data" / "branches.tflite"), *BRANCHES, "-o", os.devnull, "--summary",
                 f"--pareto={out}"]) == 0
    summary = capsys.readouterr().out
    assert "point 2: 29,338 cycles, 5,968 B" in summary and summary.count("<- chosen") == 1
    assert "<- chosen" in summary.split("point 2:")[1].split("\n")[0]
    texts = svg_texts(out)
    assert "chosen: point 2" in texts  # the legend names the chosen point by the summary's number
    assert [t for t in texts if t in {"1", "2", "3", "4", "5"}][-5:] == ["1", "2", "3", "4", "5"]  # point labels
    rows = [t.split() for t in texts if t.lstrip().startswith("2*")]
    assert rows == [["2*", "29,338", "5,968", "Performance", "sram_target=6640", "cascade_joins", "fastest_blocks"]]
    # (the table row of the chosen point, its knobs as the CSV spells them)
    assert texts.count("budget 8,000 B (7.812 KiB)") == 2  # the dashed line's label and its legend entry
    assert "total cycles (k)" in texts and "SRAM used (KiB)" in texts
    assert "Vela-equivalent Performance" in texts and "Vela-equivalent Size" in texts
    assert not [t for t in texts if "1e" in t or "\u00d710" in t]  # no offset or exponent on the axes
    assert group_box(out, "legend_1")[1] > group_box(out, "patch_2")[3]  # the legend is below the data area


def test_large_frontier_keeps_its_width_and_labels_apart(monkeypatch):
    figure = drawn(monkeypatch, large_frontier())
    axes = figure.axes[0]
    assert axes.get_xlabel() == "SRAM used (KiB)" and axes.get_ylabel() == "total cycles (M)"
    xs = [p.sram / 1024 for p in large_frontier().points]
    low, high = axes.get_xlim()
    assert (max(xs) - min(xs)) / (high - low) >= 1 / 3  # Vela's far point does not squeeze the frontier
    assert high < 9_000_000 / 1024
    notes = [t.get_text() for t in axes.texts]
    assert "Vela-equivalent Performance:\n8,789 KiB, 45 M cycles" in notes  # drawn on the edge, with its value
    assert "budget 2,500,000 B (2,441 KiB)" in notes
    labels = [t for t in axes.texts if t.get_text().isdigit()]
    assert [t.get_text() for t in labels] == [str(n) for n in range(1, 19)]
    boxes = [t.get_window_extent() for t in labels]
    frame = axes.get_window_extent()
    for index, box in enumerate(boxes):
        assert frame.x0 <= box.x0 and box.x1 <= frame.x1 and frame.y0 <= box.y0 and box.y1 <= frame.y1
        assert not [other for other in boxes[index + 1:] if box.overlaps(other)]


def test_point_table_numbers_from_one_and_marks_the_chosen():
    lines = point_table(large_frontier())
    assert lines[0].split()[:3] == ["point", "cycles", "SRAM"]
    assert lines[1].split() == ["1", "40,000,000", "3,000,000", "Size"]
    assert lines[4].split() == ["4*", "41,820,000", "2,840,000", "Size", "prefetch_overlap", "cascade_joins",
                                "fastest_blocks"]  # (a point writes its knobs in their declared order)
    assert len(lines) == 19


def test_the_same_frontier_gives_the_same_svg():
    pytest.importorskip("matplotlib")
    assert render_plot([large_frontier()], "a.svg") == render_plot([large_frontier()], "b.svg")
