"""Output names: a suffix another format than the one written is refused before any work."""
from __future__ import annotations

import os

import pytest

from npu_opt.ir.diagnostics import UserError
from npu_opt.tools.npu_opt import main
from npu_opt.tools.output import check_suffix

DATA = os.path.join(os.path.dirname(__file__), "..", "..", "data")


@pytest.mark.parametrize("path", ["out.csv", "OUT.JSON", "-", os.devnull])
def test_names_of_the_forms_written_and_devices_pass(path):
    check_suffix("--perf-report", path, (".csv", ".json"), "CSV or JSON")


def test_another_suffix_names_the_accepted_ones():
    with pytest.raises(UserError) as err:
        check_suffix("-o", "y.txt", (".npz",), "an archive")
    assert str(err.value) == "-o 'y.txt': an archive; give a file name ending in .npz"


def test_perf_report_with_another_suffix_writes_nothing(tmp_path, capsys):
    report = tmp_path / "x.txt"
    code = main([os.path.join(DATA, "conv.tflite"), "--pass=estimate", "--target=ethos-u55-128",
                 f"--perf-report={report}", "-o", os.devnull])
    assert code == 1 and not report.exists()
    assert "give a file name ending in .csv or .json" in capsys.readouterr().err
