"""WeightStreams.cached_encoder (dialects/npu/perf/weight_streams.py): a request alike the one an
op's encoder was made for is answered without reading the weight values, and the answer is the
encoder ``encoder`` gives from the values; any other request is not answered from the cache.
Reference: ``WeightStreams.encoder`` on ``op_weights_hwio`` and a fresh ``WeightEncoder``."""
from __future__ import annotations

import io
from dataclasses import replace

import numpy as np

import npu_opt.dialects  # noqa: F401
import npu_opt.passes  # noqa: F401
from npu_opt.hardware.perf.arch import perf_target
from npu_opt.dialects.npu.perf.ir_adapter import OpDescription, is_costed, op_weights_hwio
from npu_opt.dialects.npu.perf.ir_attrs import op_block_config
from npu_opt.hardware.perf.shape import Shape4
from npu_opt.dialects.npu.perf.weight_dma import weight_encoder
from npu_opt.hardware.codec.weight_size import WeightEncoder
from npu_opt.dialects.npu.perf.weight_streams import WeightStreams
from npu_opt.dialects.npu.target_attr import target_of
from npu_opt.ir.diagnostics import DiagnosticEngine
from npu_opt.ir.pass_manager import PassManager
from npu_opt.ir.pass_registry import parse_pipeline
from targeted_import import imported_with_target



def _scheduled_front():
    module = imported_with_target("conv", "ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram")
    engine = DiagnosticEngine(stream=io.StringIO())
    engine.show_remarks = False
    manager = PassManager(parse_pipeline("npu-legalize,npu-order,npu-format-nhcwb16,npu-place-tensors,"
                                         "npu-select-block-config,npu-insert-dma"), engine)
    manager.run(module)
    return module, manager.analyses


def test_cached_encoder_answers_alike_requests_with_the_encoder_from_the_values() -> None:
    module, analyses = _scheduled_front()
    perf = perf_target(target_of(module))
    weighted = []
    for op in module.walk():
        if not is_costed(op):
            continue
        desc = analyses.get(OpDescription, op).desc
        if desc is not None and desc.weights is not None and desc.block_type is not None:
            weighted.append((op, desc, op_block_config(op, desc, perf.accel)))
    assert weighted
    streams = WeightStreams.of(weighted[0][0], analyses)
    for op, desc, block in weighted:
        encoder, raw = weight_encoder(op, desc, perf, block, analyses)
        assert not raw and isinstance(encoder, WeightEncoder)
        # Same request: the same encoder, without the values; it is what the values give.
        assert streams.cached_encoder(op, perf, desc, block) is encoder
        hwio = op_weights_hwio(op)
        assert hwio is not None
        assert streams.encoder(op, hwio, perf, desc, block) is encoder
        fresh = WeightEncoder(hwio, perf.accel, desc.block_type, desc.ifm.bits, block.ofm_block.depth,
                              (desc.kernel.dilation_x, desc.kernel.dilation_y))
        assert fresh.signature == encoder.signature
        assert fresh((0, encoder.depth)).total_bytes == encoder((0, encoder.depth)).total_bytes
        assert np.array_equal(fresh.ohwi, encoder.ohwi)
        # Another OFM block depth or IFM width is another request: not answered from the cache.
        deeper = replace(block, ofm_block=Shape4(1, block.ofm_block.height, block.ofm_block.width,
                                                 block.ofm_block.depth + 8))
        assert streams.cached_encoder(op, perf, desc, deeper) is None
        wider = replace(desc, ifm=replace(desc.ifm, bits=16))
        assert streams.cached_encoder(op, perf, wider, block) is None
