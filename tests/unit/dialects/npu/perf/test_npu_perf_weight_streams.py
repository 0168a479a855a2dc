"""WeightStreams' speculative encoders: slicings queued by a dry run, encoded in one batch."""
from __future__ import annotations

import numpy as np
import pytest

from npu_opt.dialects.builtin import ModuleOp
from npu_opt.hardware.accelerators import BlockType, accelerator
from npu_opt.hardware.codec import weight_size
from npu_opt.hardware.codec.weight_size import WeightEncoder
from npu_opt.dialects.npu.perf.weight_streams import WeightStreams
from npu_opt.ir.analysis import AnalysisManager


def _encoder(seed: int) -> WeightEncoder:
    hwio = np.random.default_rng(seed).integers(-127, 128, (3, 3, 16, 64))
    return WeightEncoder(hwio, accelerator("ethos-u55-128"), BlockType.CONVOLUTION, 8, 16)


def test_speculative_encoders_queue_then_encode_in_one_batch(monkeypatch: pytest.MonkeyPatch) -> None:
    manager = AnalysisManager()
    streams = manager.get(WeightStreams, ModuleOp.build())
    first, second = _encoder(1), _encoder(2)
    first((0, 64))  # encoded already: the speculative encoder answers with the real sizes
    assert streams.speculative(first)((0, 64)) == first((0, 64))
    assert streams.queued() == 0
    stand_in = streams.speculative(first)((0, 16, 48, 64))
    assert stand_in.depth_slices == (0, 16, 48, 64) and stand_in.total_bytes == 0
    streams.speculative(second)((0, 32, 64))
    assert streams.queued() == 2
    batches: list[int] = []
    real = weight_size.encoded_sizes

    def counting(listed):
        listed = list(listed)
        batches.append(len(listed))
        return real(listed)
    monkeypatch.setattr(weight_size, "encoded_sizes", counting)
    streams.encode_queued()
    assert len(batches) == 1 and streams.queued() == 0
    assert not first.missing((0, 16, 48, 64)) and not second.missing((0, 32, 64))
    fresh = _encoder(1)
    assert first((0, 16, 48, 64)) == fresh((0, 16, 48, 64))
