"""The process's weight encoders are shared by weight values and signature, and the pool forgets the
least recently used beyond its byte limit (hardware/codec/encoder_pool.py)."""
from __future__ import annotations

import numpy as np

from npu_opt.hardware.accelerators import BlockType, accelerator
from npu_opt.hardware.codec.encoder_pool import EncoderPool
from npu_opt.hardware.codec.weight_size import WeightEncoder

U55 = accelerator("ethos-u55-128")


def _encoder(seed: int, depth_block: int = 16) -> WeightEncoder:
    weights = np.random.default_rng(seed).integers(-127, 128, size=(3, 3, 8, 32))
    return WeightEncoder(weights, U55, BlockType.CONVOLUTION, 8, depth_block)


def test_equal_weights_and_signature_share_one_encoder_and_its_sizes() -> None:
    pool = EncoderPool()
    first = pool.shared(_encoder(1))
    sizes = first((0, 16, 32))
    again = pool.shared(_encoder(1))
    assert again is first and not again.missing((0, 16, 32)) and again((0, 16, 32)) == sizes
    assert pool.shared(_encoder(2)) is not first  # (other weights)
    assert pool.shared(_encoder(1, depth_block=32)) is not first  # (another signature)


def test_the_least_recently_used_encoder_goes_beyond_the_byte_limit() -> None:
    one = _encoder(1)
    pool = EncoderPool(kept_bytes=2 * one.ohwi.nbytes)
    a, b = pool.shared(one), pool.shared(_encoder(2))
    assert pool.shared(_encoder(1)) is a  # (a used last: b is now the oldest)
    pool.shared(_encoder(3))
    assert pool.shared(_encoder(1)) is a and pool.shared(_encoder(2)) is not b
