"""The ``estimate`` pipeline equals Vela on the benchmark corpus, layer by layer (when it is there).

The corpus (``../shared/corpus`` beside the repository: seven int8 models and Vela 5.2.0's
per-layer reports, ``vela_reports/NAME_{A,B}_Performance_legacy_per_layer.csv``) is not part of
the repository; without it every case skips and says so. Configs A (ethos-u55-128,
Ethos_U55_High_End_Embedded, Shared_Sram) and B (ethos-u65-256, Ethos_U65_High_End,
Dedicated_Sram); every layer's op cycles, NPU cycles, access cycles and MAC count must equal
Vela's, as bench/perf_fidelity.py measures them.

By default only the five quicker models run (measured: 4.5 s of CPU for the whole file); set
``NPU_OPT_VELA_CORPUS=all`` to add mobilenet_v2_035_96 and mobilenet_v1_100_224 (9 s in all).
"""
from __future__ import annotations

import csv
import os
from pathlib import Path

import pytest

from vela_compare import differences, estimate_rows

CORPUS = Path(__file__).resolve().parents[3].parent / "shared" / "corpus"
CONFIGS = {
    "A": ("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram"),
    "B": ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram"),
}
QUICK = ("kws_dscnn", "vww_mobilenet_v1_025", "ic_resnet8", "ad_autoencoder", "deep_chain_conv")
SLOW = ("mobilenet_v2_035_96", "mobilenet_v1_100_224")
MODELS = QUICK + SLOW if os.environ.get("NPU_OPT_VELA_CORPUS") == "all" else QUICK

FIELDS = {"name": "Name", "vela_op": "NNG Operator", "op_cycles": "Op Cycles", "npu_cycles": "NPU",
          "sram_ac": "SRAM AC", "dram_ac": "DRAM AC", "on_chip_flash_ac": "OnFlash AC",
          "off_chip_flash_ac": "OffFlash AC", "macs": "MAC Count"}
"""Our name for each compared column -> the column of Vela's per-layer CSV."""

pytestmark = pytest.mark.skipif(
    not (CORPUS / "vela_reports").is_dir(),
    reason=f"no benchmark corpus at {CORPUS} (the ../shared/corpus directory beside the repository: models "
           "and Vela 5.2.0 reports, see its README); the committed reports in tests/data/vela are checked instead")


def vela_layers(model: str, config: str) -> list[dict[str, str]]:
    """Vela's layers for ``model`` on ``config``, with our column names."""
    path = CORPUS / "vela_reports" / f"{model}_{config}_Performance_legacy_per_layer.csv"
    with path.open(encoding="utf-8") as handle:
        return [{ours: row[theirs] for ours, theirs in FIELDS.items()} for row in csv.DictReader(handle)]


@pytest.mark.parametrize("config", sorted(CONFIGS))
@pytest.mark.parametrize("model", MODELS)
def test_corpus_layers_match_vela(model: str, config: str):
    ours = estimate_rows((CORPUS / "models" / f"{model}.tflite").read_bytes(), model, *CONFIGS[config])
    found = differences(vela_layers(model, config), ours)
    assert not found, (f"{model} on config {config}: {len(found)} difference(s) from Vela 5.2.0:\n  "
                       + "\n  ".join(found))
