"""The scale/bias records of the weighted ops of the tests/data models (interpreters/npu/scale_records.py)
against Vela 5.2: its scale quantisation (``scaling``) of ifm scale x weight scale / ofm scale, one
more for ops rounding away from zero, packed by ``api.npu_encode_bias``."""
from __future__ import annotations

import numpy as np
import pytest

import npu_opt.passes  # noqa: F401  (registers the passes)
from npu_opt.dialects.npu.ops_common import quant_of, storage_of
from npu_opt.interpreters.npu.arith import explicit_rescale, rounding_of, target_quant
from npu_opt.interpreters.npu.scale_records import op_bias, op_scale_bias_records
from npu_opt.ir.diagnostics import DiagnosticEngine, SourceManager
from npu_opt.ir.pass_manager import PassManager
from npu_opt.ir.pass_registry import parse_pipeline
from targeted_import import DATA, imported_with_target

vela = pytest.importorskip("ethosu.vela.api", reason="ethos-u-vela is not installed")
from ethosu.vela import scaling  # noqa: E402

MAC_OPS = ("npu.conv2d", "npu.depthwise_conv2d", "npu.transpose_conv2d", "npu.vector_product")


def vela_records(op) -> bytes:
    """What Vela's weight compressor writes for ``op``: its scale arithmetic on the op's types."""
    ifm_scale = float(quant_of(op.operands[0]).scales[0])
    weight_scales = [float(s) for s in quant_of(op.operands[1]).scales]
    ofm_scale = float(target_quant(op).scales[0])
    if op.name == "npu.vector_product":  # FullyConnected: the product in float32
        reals = [np.double(np.float32(ifm_scale) * np.float32(s)) / np.double(ofm_scale) for s in weight_scales]
    else:
        reals = [np.double(ifm_scale) * np.double(s) / np.double(ofm_scale) for s in weight_scales]
    reduced = storage_of(op.operands[0].type).width == 16 and storage_of(op.operands[2].type).width == 64
    pairs = [(scaling.reduced_quantise_scale if reduced else scaling.quantise_scale)(r) for r in reals]
    if rounding_of(op) == "away_zero":
        pairs = [(m + 1, s) for m, s in pairs]
    bias = op_bias(op)
    pairs = pairs * bias.size if len(pairs) == 1 else pairs
    return b"".join(bytes(vela.npu_encode_bias(np.int64(b), int(m), int(s))) for b, (m, s) in zip(bias, pairs))


def test_records_of_the_models_equal_vela() -> None:
    compared = set()
    for path in sorted(DATA.glob("*.tflite")):
        if path.stem == "conv_float":
            continue
        module = imported_with_target(path, "ethos-u55-128")
        PassManager(parse_pipeline("npu-legalize"), DiagnosticEngine(SourceManager())).run(module)
        for op in module.walk():
            if op.name not in MAC_OPS or explicit_rescale(op) is not None:
                continue
            if quant_of(op.operands[0]) is None or quant_of(op.operands[1]) is None:
                continue
            records = op_scale_bias_records(op)
            assert len(records) == 10 * op.results[0].type.shape[-1]
            assert records == vela_records(op), f"{path.stem}: {op.name}"
            compared.add((op.name, rounding_of(op)))
    # every MAC kind the models lower to, and the away-from-zero rounding (resize_bilinear's phases)
    assert {"npu.conv2d", "npu.depthwise_conv2d", "npu.vector_product"} <= {name for name, _ in compared}
    assert any(rounding == "away_zero" for _, rounding in compared)
