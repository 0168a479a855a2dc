"""npu-legalize on the benchmark corpus (../shared/corpus): every model legalises with no op left
on the CPU, and its NPU ops are the ones Vela 5.2 (legacy core) reports, op for op: the same
names, Vela's op types and MAC counts, for the U55 (config A) and U65 (config B) reports.

Skipped when ../shared is not there (tests inside the project carry their own inputs)."""
from __future__ import annotations

import csv
from pathlib import Path

import pytest

import npu_opt.dialects  # noqa: F401  (registers the dialects)
import npu_opt.passes  # noqa: F401  (registers the passes)
from npu_opt.dialects.npu.ops_common import NpuComputeOp, NpuOp, shape_of
from npu_opt.dialects.npu.target_attr import TargetAttr
from npu_opt.dialects.tfl.tflite.importer import import_tflite
from npu_opt.ir.core import Operation
from npu_opt.ir.diagnostics import DiagnosticEngine
from npu_opt.ir.pass_manager import PassManager
from npu_opt.ir.pass_registry import parse_pipeline

CORPUS = Path(__file__).resolve().parents[4] / "shared" / "corpus"
MODELS = ("kws_dscnn", "vww_mobilenet_v1_025", "ic_resnet8", "ad_autoencoder", "mobilenet_v2_035_96",
          "mobilenet_v1_100_224", "deep_chain_conv")
CONFIGS = {
    "A": dict(accelerator="ethos-u55-128", system_config="Ethos_U55_High_End_Embedded", memory_mode="Shared_Sram"),
    "B": dict(accelerator="ethos-u65-256", system_config="Ethos_U65_High_End", memory_mode="Dedicated_Sram"),
}

pytestmark = pytest.mark.skipif(not (CORPUS / "models").is_dir(), reason="../shared/corpus is not available")


def mac_count(op: Operation) -> int:
    """Vela's MAC count of an op: kernel x IFM depth x OFM elements for convolutions, vector
    products and reduce-sums; kernel x OFM elements for depthwise and pooling; 0 elementwise."""
    if not isinstance(op, NpuComputeOp):
        return 0
    ofm = shape_of(op.results[0])
    elements = ofm[0] * ofm[1] * ofm[2] * ofm[3]
    kernel = op.kernel_attr.elements
    if op.name in ("npu.conv2d", "npu.transpose_conv2d", "npu.vector_product", "npu.reduce_sum"):
        return kernel * shape_of(op.operands[0])[3] * elements
    if op.name in ("npu.depthwise_conv2d", "npu.avg_pool", "npu.max_pool"):
        return kernel * elements
    return 0


def legalized(model: str, config: str) -> Operation:
    module = import_tflite((CORPUS / "models" / f"{model}.tflite").read_bytes(), model)
    c = CONFIGS[config]
    module.attributes["npu.target"] = TargetAttr.get(c["accelerator"], system_config=c["system_config"],
                                                     memory_mode=c["memory_mode"])
    PassManager(parse_pipeline("npu-legalize"), DiagnosticEngine()).run(module)
    return module


@pytest.mark.parametrize("config", sorted(CONFIGS))
@pytest.mark.parametrize("model", MODELS)
def test_npu_ops_match_vela(model: str, config: str):
    module = legalized(model, config)
    left = [op.name for op in module.walk() if op.dialect == "tfl"
            and op.name not in ("tfl.pseudo_const", "tfl.pseudo_qconst", "tfl.no_value")]
    assert left == [], f"ops left on the CPU: {left}"
    ours = {op.attr("name").value: op for op in module.walk() if isinstance(op, NpuOp) and not op.MEMORY_ONLY}
    report = CORPUS / "vela_reports" / f"{model}_{config}_Performance_legacy_per_layer.csv"
    rows = list(csv.DictReader(report.open()))
    assert len(ours) == len(rows), f"{len(ours)} NPU ops, Vela reports {len(rows)}"
    for row in rows:
        op = ours.get(row["Name"])
        assert op is not None, f"no npu op named {row['Name']!r}"
        assert type(op).VELA_OP == row["NNG Operator"], (row["Name"], op.name)
        assert mac_count(op) == int(row["MAC Count"]), (row["Name"], op.name)
