"""--summary: its numbers agree with the search's and the table's (points from 1, whole cycles),
its nouns agree with their counts, and a model with no NPU op says why it has no time."""
from __future__ import annotations

import os

from npu_opt.tools.npu_opt import main

DATA = os.path.join(os.path.dirname(__file__), "..", "..", "data")


def _summary(capsys, model: str, *flags: str) -> str:
    assert main([os.path.join(DATA, model), "--target=ethos-u55-128", "--summary", "-o", os.devnull, *flags]) == 0
    return capsys.readouterr().out


def test_a_chosen_size_point_agrees_with_the_schedule(capsys, tmp_path):
    table = tmp_path / "front.csv"
    text = _summary(capsys, "conv.tflite", "--pass=schedule{sram-budget=100000}", f"--pareto={table}")
    assert "Schedule: Size (arena cache size 4,294,967,296 B, SRAM target 320 B; prefetch overlap)" in text
    assert "the fastest of 1 frontier point within 100,000 B of SRAM is point 1" in text
    assert "point 1: 2,228 cycles, 384 B (Size, SRAM target 320 B, prefetch overlap) <- chosen" in text
    row = table.read_text().splitlines()[1].split(",")
    assert (row[5], row[6], row[7], row[11]) == ("1", "Size", "320", "yes")


def test_total_cycles_are_whole_as_the_points_are(capsys):
    text = _summary(capsys, "branches.tflite", "--pass=schedule{sram-budget=8000}", "--target=ethos-u65-256",
                    "--system-config=Ethos_U65_High_End", "--memory-mode=Dedicated_Sram", "--arena-cache-size=16384")
    chosen = next(line for line in text.splitlines() if line.endswith("<- chosen"))
    cycles = chosen.split(":")[1].split(" cycles")[0].strip()
    assert f"Total cycles: {cycles} (NPU " in text
    assert "Memory used / live at the peak:" in text and "Memory used / lower bound" not in text


def test_an_all_cpu_model_says_why_it_has_no_time(capsys):
    text = _summary(capsys, "conv_float.tflite", "--pass=estimate")
    assert ("Inference time: not estimated: no op runs on the NPU (2 ops on the CPU, which npu-opt does not "
            "estimate)") in text
    assert "0 cycles" not in text.split("Inference time:")[1].splitlines()[0]
