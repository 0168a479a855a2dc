"""The drawing reports' layout rules: units that keep ticks short, axis ranges an outlier does
not squeeze, points off the view put on its edge, and labels that do not overlap."""
from __future__ import annotations

import pytest

from npu_opt.tools.plot_layout import CORE_SHARE, byte_unit, cycle_unit, edge_position, place_labels, view_range


def test_units_follow_the_size_and_the_spread_of_the_values():
    assert cycle_unit(56_870_680, 1_234_432) == (1e6, "M cycles")
    assert cycle_unit(2_090_054, 16_204) == (1e3, "k cycles")  # M ticks would need four decimals
    assert cycle_unit(36_894, 8_981) == (1e3, "k cycles")
    assert cycle_unit(4_000, 300) == (1.0, "cycles")
    assert cycle_unit(9_000_000, 0) == (1e6, "M cycles")  # one point: a tenth of it stands for the spread
    assert byte_unit(2_200_000) == (1024.0, "KiB") and byte_unit(7_072) == (1.0, "bytes")


def test_an_outlier_is_left_out_of_the_range_and_a_near_one_kept():
    frontier = [441.0, 460.0, 478.7]
    low, high = view_range(frontier, [1_180.0, 420.0])
    assert low < 420.0 and high < 1_180.0  # the near one (Vela's Size) in view, the far one (Performance) not
    assert (478.7 - 441.0) / (high - low) >= CORE_SHARE
    low, high = view_range([10.0], [])
    assert low < 10.0 < high  # a single value gets a range around it


def test_points_off_the_view_go_on_its_edge():
    assert edge_position(5.0, 5.0, (0.0, 10.0), (0.0, 10.0)) is None
    assert edge_position(50.0, 5.0, (0.0, 10.0), (0.0, 10.0)) == (10.0, 5.0, ">", (1.0, 0.0))
    assert edge_position(5.0, -3.0, (0.0, 10.0), (0.0, 10.0)) == (5.0, 0.0, "v", (0.0, -1.0))
    assert edge_position(-1.0, 20.0, (0.0, 10.0), (0.0, 10.0))[:3] == (0.0, 10.0, "<")


def test_labels_of_crowded_points_do_not_overlap():
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    figure = Figure(figsize=(4, 3))
    axes = figure.subplots()
    points = [(1.0 + 0.01 * i, 1.0 + 0.01 * (i % 3)) for i in range(12)]  # a tight cluster
    axes.plot(*zip(*points), "o")
    axes.set_xlim(0, 2)
    axes.set_ylim(0, 2)
    figure.draw_without_rendering()
    labels = place_labels(axes, points, [str(i + 1) for i in range(len(points))])
    boxes = [label.get_window_extent() for label in labels]
    assert not [(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:] if a.overlaps(b)]
