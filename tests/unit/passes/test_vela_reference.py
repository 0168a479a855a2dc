"""Every layer of the tests/data models, costed by the ``estimate`` pipeline, equals Vela's report.

The reports under tests/data/vela are Vela 5.2.0's legacy-core per-layer figures
(``tests/data/vela/make_reports.py`` runs Vela; Vela is not needed here) for each model on
U55-32/64/128/256 (weights in off-chip flash), U65-256/512 (Dedicated_Sram, weights in DRAM), a
U65-256 with weights in flash, a U55-64 on the slow Deep_Embedded system and a U65-512 with
everything in SRAM (``CONFIGS`` in make_reports.py). For each model and config this test imports the model, sets the
config's target, runs the pipeline in-process with the verifier on, and compares every Vela
layer with our row of the same name: op cycles, NPU cycles, the access cycles of SRAM, DRAM and
both flashes (to the 0.001 cycle the report keeps) and the MAC count, exactly. Every layer must
be matched both ways.

What it guards: ``python tests/data/vela/mutants.py`` changes one cost-model constant at a time
in memory and reruns this test. On the committed reports (16 models x 9 configs; all 144 cases
compared) it measured:

- bias/scale fetch floor of the output stage (10 x block depth x read latency / 256), 10 -> 12:
  45 cases fail;
- block-config tie-break (equal cost: a later small block with a better IFM coverage wins),
  first-wins instead: 63 cases fail;
- U55-32 accumulator bubble (7 cycles with 40-bit accumulators), 7 -> 6: 1 case fails
  (int16 on u55-32); its extra stall per micro-block layer of thin blocks removed: 1 case fails;
- 16-bit depthwise factor (2 x the micro-block cycles), 2 -> 1: 9 cases fail (int16, every config);
- IFM block depth of a depth-first op on 32-bit data (softmax's ReduceSum), 32 -> 16: 9 cases
  fail (classifier, every config);
- core count in the NHCWB16 write burst, dropped: 7 cases fail;
- the U65-512's ReduceSum reading 8/16-bit data as NHWC (npu-format-nhcwb16), dropped: 2 cases
  fail (int16_elementwise on both U65-512 configs);
- a concatenation or slice keeping its tensor NHCWB16 only at depth offsets on 32 channels (not
  16): 9 cases fail (data_movement, every config);
- block configs searched on the part of a tensor an op reads or writes instead of the whole
  tensor: 9 cases fail (data_movement);
- the DMA slack a concatenation's part leaves costed at the part's depth instead of the whole
  tensor's: 8 cases fail (data_movement).

SRAM usage is not compared: no pass allocates memory yet.
"""
from __future__ import annotations

import csv
import functools
import hashlib
import importlib.util
import json
from pathlib import Path

import pytest

from vela_compare import differences, estimate_rows

DATA = Path(__file__).resolve().parents[2] / "data"
REPORTS = DATA / "vela"
MANIFEST = json.loads((REPORTS / "manifest.json").read_text(encoding="utf-8"))
REGENERATE = "python tests/data/vela/make_reports.py (needs ethos-u-vela==5.2.0)"

KNOWN_DIFFERENCES: dict[tuple[str, str], str] = {}
"""(model, config) -> why our figures differ from Vela's there (the case is a strict xfail: once
it matches, the entry must go)."""


def _load_reports() -> dict[tuple[str, str], list[dict[str, str]]]:
    """(model, config) -> Vela's layers, in Vela's order."""
    reports: dict[tuple[str, str], list[dict[str, str]]] = {}
    for model in MANIFEST["models"]:
        with (REPORTS / f"{model}.csv").open(encoding="utf-8") as handle:
            for row in csv.DictReader(handle):
                reports.setdefault((model, row["config"]), []).append(row)
    return reports


REPORT_ROWS = _load_reports()


@functools.lru_cache(maxsize=None)
def estimate(model: str, config: str) -> tuple[dict, ...]:
    """Our --perf-report rows for ``model`` on ``config`` (computed once per session)."""
    accel, system, mode = MANIFEST["configs"][config]
    return estimate_rows((DATA / f"{model}.tflite").read_bytes(), model, accel, system, mode)


def _cases() -> list:
    cases = []
    for model, config in REPORT_ROWS:
        marks = []
        if (model, config) in KNOWN_DIFFERENCES:
            # only a figure mismatch is expected: a crash or a pipeline error still fails
            marks.append(pytest.mark.xfail(reason=KNOWN_DIFFERENCES[(model, config)], strict=True,
                                           raises=AssertionError))
        cases.append(pytest.param(model, config, id=f"{model}-{config}", marks=marks))
    return cases


@pytest.mark.parametrize("model", sorted(MANIFEST["models"]))
def test_report_was_made_from_the_committed_model(model: str):
    digest = hashlib.sha256((DATA / f"{model}.tflite").read_bytes()).hexdigest()
    assert digest == MANIFEST["models"][model], f"tests/data/{model}.tflite changed since its report: run {REGENERATE}"


def test_every_config_has_a_report_for_every_model():
    missing = [f"{m} on {c}" for m in MANIFEST["models"] for c in MANIFEST["configs"] if (m, c) not in REPORT_ROWS]
    assert not missing, f"no Vela layers for {', '.join(missing)}: run {REGENERATE}"


@pytest.mark.parametrize("model,config", _cases())
def test_every_layer_matches_vela(model: str, config: str):
    found = differences(REPORT_ROWS[(model, config)], estimate(model, config))
    assert not found, f"{model} on {config}: {len(found)} difference(s) from Vela 5.2.0:\n  " + "\n  ".join(found)


def _make_reports():
    """tests/data/vela/make_reports.py as a module (it is a script, not a package member)."""
    spec = importlib.util.spec_from_file_location("make_reports", REPORTS / "make_reports.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_HEADER = ("TFLite_operator,NNG Operator,SRAM Usage,Peak%,Op Cycles,Network%,NPU,SRAM AC,DRAM AC,OnFlash AC,"
           "OffFlash AC,MAC Count,Network%,Util%,Name\n")


def test_report_script_reads_every_subgraph_table_of_velas_csv(tmp_path: Path):
    path = tmp_path / "m_per-layer.csv"
    path.write_text(_HEADER + "CONV_2D,Conv2DBias,688,72.8,608.0,22.1,608.0,160.0,0.0,0.0,0.0,4608,30.7,5.9,conv\n"
                    + _HEADER + "FULLY_CONNECTED,FullyConnected,80,8.4,896.0,32.6,183.0,10.5,0.0,0.0,896.0,640,4.2,"
                    "0.5,logits\n", encoding="utf-8")
    rows = _make_reports().parse_per_layer(path)
    assert [row["name"] for row in rows] == ["conv", "logits"]
    assert rows[1] == {"tflite_op": "FULLY_CONNECTED", "vela_op": "FullyConnected", "name": "logits",
                       "op_cycles": "896.0", "npu_cycles": "183.0", "sram_ac": "10.5", "dram_ac": "0.0",
                       "on_chip_flash_ac": "0.0", "off_chip_flash_ac": "896.0", "macs": "640"}


def test_report_script_names_a_column_velas_csv_lacks(tmp_path: Path):
    path = tmp_path / "m_per-layer.csv"
    path.write_text("TFLite_operator,NNG Operator,Name\nCONV_2D,Conv2DBias,conv\n", encoding="utf-8")
    with pytest.raises(ValueError, match="no column Op Cycles, NPU"):
        _make_reports().parse_per_layer(path)
