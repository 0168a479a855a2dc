"""The report flags: --memory-timeline draws a file that parses (and fails cleanly without
matplotlib or allocations), --summary-csv keeps Vela's columns, the pass progress bar appears
only on a terminal and only after its delay, and none of it is imported unless asked for."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
import time
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from npu_opt.tools.npu_opt import main
from svg_boxes import group_box, svg_texts
from npu_opt.tools.progress import PassProgress, wanted
from npu_opt.tools.summary_csv import BOUND_COLUMNS, COLUMNS, accelerator_label, network_name

ROOT = Path(__file__).resolve().parents[3]
SCHEDULED = ROOT / "tests" / "lit" / "Inputs" / "scheduled-two-convs.mlir"
VELA_BASELINE = Path("/work/shared/corpus/vela_baseline.json")
UNSCHEDULED = """module attributes {npu.target = #npu.target<"ethos-u55-128">} {
  func.func @f(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> {
    %0 = "tfl.relu"(%x) : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>
    return %0 : tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>
  }
}
"""


# --- memory timeline ---------------------------------------------------------------------------
def test_timeline_svg_is_written_and_parses(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    out = tmp_path / "timeline.svg"
    assert main([str(SCHEDULED), f"--memory-timeline={out}", "-o", os.devnull]) == 0
    root = ElementTree.parse(out).getroot()
    assert root.tag.endswith("svg")
    text = out.read_text()
    assert "conv1" in text and "conv2" in text and "arg0" in text  # every allocation is labelled
    assert "Sram" in text and "7,072 bytes" in text  # the panel's title: area and bytes spanned
    assert "live at the peak (4,000 B)" in text  # npu.usage, as a dashed line in the legend
    assert capsys.readouterr().err == ""
    texts = svg_texts(out)
    # The legend names each kind of rectangle (and the other marks) ...
    for entry in ("tensor (npu.alloc): live times x bytes", "copy made by an npu.dma", "cascade (time span)",
                  "DMA (time it runs)"):
        assert entry in texts
    assert "address (bytes)" in texts  # a small area in bytes, with plain ticks (no "1e6" offset)
    assert not [t for t in texts if "1e" in t]
    # ... and sits right of the data area, hiding none of it.
    assert group_box(out, "legend_1")[0] > group_box(out, "patch_2")[2]


def test_timeline_of_a_large_area_is_in_kib(tmp_path):
    pytest.importorskip("matplotlib")
    from npu_opt.tools.memory_timeline import Interval, Timeline, render

    intervals = [Interval(f"t{i}", (i % 7) * 300_000, 290_000, i, i + 3, dma=i % 3 == 0) for i in range(120)]
    timeline = Timeline("big", {"Sram": intervals}, cascades=[(4, 9)], dma_times=[3, 6], bounds={"Sram": 2_000_000})
    out = tmp_path / "big.svg"
    out.write_bytes(render([timeline], str(out)))
    texts = svg_texts(out)
    assert "address (KiB)" in texts and "2,000" in texts  # KiB ticks with separators, not bytes over "1e6"
    assert not [t for t in texts if "1e" in t]
    assert "big: Sram (2,090,000 bytes spanned)" in texts
    assert group_box(out, "legend_1")[0] > group_box(out, "patch_2")[2]


def test_timeline_png_and_same_svg_for_the_same_ir(tmp_path):
    pytest.importorskip("matplotlib")
    png = tmp_path / "t.png"
    assert main([str(SCHEDULED), f"--memory-timeline={png}", "-o", os.devnull]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    first, second = tmp_path / "a.svg", tmp_path / "b.svg"
    for path in (first, second):
        assert main([str(SCHEDULED), f"--memory-timeline={path}", "-o", os.devnull]) == 0
    assert first.read_bytes() == second.read_bytes()


def test_timeline_without_allocations_is_an_error_and_writes_nothing(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    source = tmp_path / "in.mlir"
    source.write_text(UNSCHEDULED)
    out = tmp_path / "t.svg"
    assert main([str(source), "--pass=estimate", f"--memory-timeline={out}", "-o", os.devnull]) == 1
    err = capsys.readouterr().err
    assert "needs the tensors allocated" in err and "npu-allocate" in err and "Traceback" not in err
    assert not out.exists()


def test_timeline_without_matplotlib_is_a_clear_error(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # what an absent package looks like to import
    out = tmp_path / "t.svg"
    assert main([str(SCHEDULED), f"--memory-timeline={out}"]) == 1
    captured = capsys.readouterr()
    assert "needs matplotlib" in captured.err and "pip install 'npu-opt[plot]'" in captured.err
    assert "Traceback" not in captured.err
    assert captured.out == ""  # checked before any work: the IR is not printed either
    assert not out.exists()


# --- summary CSV -------------------------------------------------------------------------------
def test_summary_columns_are_velas():
    if not VELA_BASELINE.exists():
        pytest.skip("the Vela baseline corpus is not on this machine")
    records = json.loads(VELA_BASELINE.read_text())["records"]
    for record in records:
        assert tuple(record["summary_csv_raw"]) == COLUMNS


def test_vela_spellings():
    assert accelerator_label("ethos-u55-128") == "Ethos_U55_128"
    assert accelerator_label("ethos-u65-512") == "Ethos_U65_512"
    assert network_name("/models/kws_dscnn.tflite") == "kws_dscnn"
    assert network_name("-") == ""


def test_summary_csv_for_split_input_has_one_header_and_a_row_per_module(tmp_path):
    source = tmp_path / "two.mlir"
    source.write_text(UNSCHEDULED + "// -----\n" + UNSCHEDULED)
    out = tmp_path / "s.csv"
    assert main([str(source), "--split-input-file", "--pass=estimate", f"--summary-csv={out}", "-o", os.devnull]) == 0
    lines = out.read_text().splitlines()
    # Vela's columns first, in its order; ours (the lower bound) after them.
    assert len(lines) == 3 and lines[0] == ",".join(COLUMNS + BOUND_COLUMNS)
    assert all(len(line.split(",")) == len(COLUMNS + BOUND_COLUMNS) for line in lines)


# --- progress bar ------------------------------------------------------------------------------
class _Stream:
    def __init__(self, tty: bool) -> None:
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


class _Pass:
    def __init__(self, name: str) -> None:
        self.NAME = name


class _FakeBar:
    """Records what the progress instrumentation asks of tqdm."""

    made: list["_FakeBar"] = []

    def __init__(self, **kwargs) -> None:
        self.kwargs = kwargs
        self.n = kwargs["initial"]
        self.desc = kwargs["desc"]
        self.closed = False
        self.refreshes = 0
        _FakeBar.made.append(self)

    def update(self, n: int) -> None:
        self.n += n

    def set_description_str(self, desc: str, refresh: bool = True) -> None:
        self.desc = desc

    def refresh(self) -> None:
        self.refreshes += 1

    def close(self) -> None:
        self.closed = True


def test_bar_only_on_a_terminal():
    assert wanted(_Stream(True), {"TERM": "xterm"})
    assert not wanted(_Stream(False), {"TERM": "xterm"})  # pipes, files, lit
    assert not wanted(_Stream(True), {"TERM": "dumb"})
    assert not wanted(_Stream(True), {"NPU_OPT_NO_PROGRESS": "1"})
    assert not wanted(object(), {})  # not a stream at all


def test_a_quick_compile_never_draws_the_bar():
    _FakeBar.made.clear()
    progress = PassProgress(3, _Stream(True), delay=5.0, factory=_FakeBar)
    for name in ("a", "b", "c"):
        progress.before_pass(_Pass(name), None)
        progress.after_pass(_Pass(name), None, None)
    progress.close()
    assert _FakeBar.made == []
    assert progress._thread is not None and not progress._thread.is_alive()


def test_a_slow_compile_draws_the_bar_after_the_delay_and_clears_it():
    _FakeBar.made.clear()
    progress = PassProgress(3, _Stream(True), delay=0.05, factory=_FakeBar, refresh=0.01)
    progress.before_pass(_Pass("first"), None)
    progress.after_pass(_Pass("first"), None, None)
    progress.before_pass(_Pass("slow"), None)
    deadline = time.monotonic() + 5
    while not _FakeBar.made and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(_FakeBar.made) == 1
    bar = _FakeBar.made[0]
    assert bar.kwargs["total"] == 3 and bar.kwargs["initial"] == 1 and bar.desc == "slow"
    assert bar.kwargs["leave"] is False  # the line is cleared when the compile ends
    while bar.refreshes == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert bar.refreshes > 0  # a long pass still shows its elapsed time
    progress.after_pass(_Pass("slow"), None, None)
    progress.before_pass(_Pass("last"), None)
    assert bar.n == 2 and bar.desc == "last"
    progress.close()
    progress.close()  # idempotent
    assert bar.closed and progress.bar is None
    assert not any(t.name == "npu-opt-progress" and t.is_alive() for t in threading.enumerate())


def test_no_tqdm_means_no_bar_and_no_error():
    progress = PassProgress(1, _Stream(True), delay=0.0, factory=lambda **kwargs: None, refresh=0.01)
    progress.before_pass(_Pass("p"), None)
    time.sleep(0.05)
    progress.after_pass(_Pass("p"), None, None)
    progress.close()
    assert progress.bar is None


# --- start-up ----------------------------------------------------------------------------------
def test_report_modules_load_only_when_asked_for(tmp_path):
    source = tmp_path / "in.mlir"
    source.write_text(UNSCHEDULED)
    code = textwrap.dedent(f"""
        import json, sys
        from npu_opt.tools.npu_opt import main
        if True:
            code = main([{str(source)!r}, "--pass=estimate", "-o", {os.devnull!r}])
        watched = ("tqdm", "matplotlib", "npu_opt.tools.summary", "npu_opt.tools.summary_csv",
                   "npu_opt.tools.memory_timeline", "npu_opt.tools.progress")
        print(json.dumps({{"code": code, "loaded": sorted(m for m in watched if m in sys.modules)}}))
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result == {"code": 0, "loaded": []}


def test_driver_asks_for_a_bar_only_on_a_terminal_with_nothing_else_on_stderr(monkeypatch):
    import io

    from npu_opt.tools.cli_args import parse_args
    from npu_opt.tools.driver import _progress

    class _Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NPU_OPT_NO_PROGRESS", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setattr(sys, "stderr", _Tty())
    progress = _progress(parse_args(["x.mlir"]), 3)
    assert isinstance(progress, PassProgress) and progress.total == 3
    progress.close()
    assert _progress(parse_args(["x.mlir"]), 0) is None  # no passes, nothing to show
    assert _progress(parse_args(["x.mlir", "--print-ir-after-all"]), 3) is None  # IR dumps own stderr
    assert _progress(parse_args(["x.mlir", "--verify-diagnostics"]), 3) is None
    monkeypatch.setattr(sys, "stderr", io.StringIO())  # a pipe or file: never
    assert _progress(parse_args(["x.mlir"]), 3) is None
