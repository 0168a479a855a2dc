"""The weight-stream decoder against Vela's codec: every stream ``mlw_codec.encode`` writes
decodes to the weights it was given, and to what ``mlw_codec.decode`` reads from it."""
from __future__ import annotations

import numpy as np
import pytest

from npu_opt.interpreters.ethosu.mlw_decode import WeightStreamError, decode_weights

mlw_codec = pytest.importorskip("ethosu.mlw_codec")


def _streams():
    rng = np.random.default_rng(7)
    for n in (1, 5, 12, 13, 100, 1000, 5000, 40000):
        sparse = rng.integers(-20, 21, n)
        sparse[rng.random(n) < 0.85] = 0
        yield f"uniform-{n}", rng.integers(-255, 256, n)
        yield f"narrow-{n}", rng.integers(-3, 4, n)
        yield f"sparse-{n}", sparse
        yield f"zeros-{n}", np.zeros(n, dtype=np.int64)
        yield f"normal-{n}", np.round(rng.normal(0, 30, n)).clip(-255, 255).astype(np.int64)
    # a stream whose values change character half-way: more than one palette section
    yield "sections", np.concatenate([rng.integers(-2, 3, 3000), rng.integers(-200, 201, 3000),
                                      np.zeros(2000, dtype=np.int64), rng.integers(-7, 8, 3000)])


@pytest.mark.parametrize("name,weights", list(_streams()), ids=lambda v: v if isinstance(v, str) else "")
def test_decode_matches_vela(name, weights):
    stream = bytes(mlw_codec.encode(weights.tolist()))
    decoded = decode_weights(stream)
    assert np.array_equal(decoded, np.asarray(mlw_codec.decode(bytearray(stream))))
    assert np.array_equal(decoded, weights)


def test_a_cut_stream_is_an_error_naming_the_bit():
    stream = bytes(mlw_codec.encode(np.arange(-100, 100).tolist()))
    with pytest.raises(WeightStreamError, match=r"the weight stream ends at byte 10, but a field of \d+ bit\(s\) "
                                                r"starts at bit \d+"):
        decode_weights(stream[:10])


def test_a_stream_must_open_a_palette_section():
    # zero-run divisor 6 (none), length 1, weight divisor 0, not truncated, no new palette
    header = 6 | (0 << 3) | (0 << 18) | (0 << 21) | (0 << 22)
    with pytest.raises(WeightStreamError, match="opens the stream without a palette section header"):
        decode_weights(header.to_bytes(4, "little"))
