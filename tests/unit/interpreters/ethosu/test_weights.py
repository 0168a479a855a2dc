"""The order the NPU consumes weights in, checked against Vela's ``reorder_encode``: decoding a
stream Vela reordered and encoded gives the OHWI weights back, for convolutions (depth-first and
part-kernel-first), depthwise kernels, dilations, kernels beyond 8x8 and OFM micro-blocks of 4
and 8; and the 10-byte scale/bias records against Vela's ``encode_bias``."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from npu_opt.interpreters.ethosu.weights import Accelerator, accelerator_of, decode_ohwi, scale_records

mlw_codec = pytest.importorskip("ethosu.mlw_codec")

SHAPES = [(8, 1, 1, 8), (10, 3, 3, 5), (16, 3, 2, 6), (20, 9, 10, 3), (33, 1, 1, 70), (5, 2, 2, 40)]
CASES = [(shape, block, depthwise, part, dilation, ublock)
         for shape, block, depthwise, part, dilation, ublock in itertools.product(
             SHAPES, (8, 32), (False, True), (False, True), ((1, 1), (2, 2)), (8, 4))
         if not (depthwise and part)]


@pytest.mark.parametrize("ifm_bits", [8, 16])
def test_decoded_weights_are_vela_reordered_weights(ifm_bits):
    rng = np.random.default_rng(3)
    for shape, block, depthwise, part, dilation, ublock in CASES:
        if depthwise:
            shape = shape[:3] + (1,)
        weights = rng.integers(-255, 256, shape).astype(np.int16)
        stream, _ = mlw_codec.reorder_encode(8, ublock, weights, block, depthwise, part, ifm_bits,
                                             8 // dilation[0], 8 // dilation[1])
        decoded = decode_ohwi(bytes(stream), shape, Accelerator("test", ublock, 8), block, depthwise, part,
                              ifm_bits, dilation)
        assert np.array_equal(decoded, weights), (shape, block, depthwise, part, dilation, ublock)


def test_scale_records_read_what_vela_writes():
    from ethosu.vela.weight_compressor import encode_bias
    cases = [(0, 0, 0), (-1, 1, 1), ((1 << 39) - 1, (1 << 32) - 1, 63), (-(1 << 39), 1 << 31, 40), (-1234567, 77, 31)]
    data = b"".join(bytes(encode_bias(np.int64(b), s, h)) for b, s, h in cases)
    bias, scale, shift = scale_records(data, len(cases))
    assert bias.tolist() == [c[0] for c in cases]
    assert scale.tolist() == [c[1] for c in cases]
    assert shift.tolist() == [c[2] for c in cases]


def test_accelerator_from_the_config_word():
    assert accelerator_of(6151).name == "ethos-u55-128"  # the conv.u55-128 payload's CONFIG
    assert accelerator_of(0x10000008).name == "ethos-u65-256"
    assert accelerator_of(5).ofm_ublock_depth == 4  # 32 MACs
    with pytest.raises(ValueError, match="names product 3"):
        accelerator_of(0x30000007)


def test_a_stream_for_a_shallower_ifm_says_which_depth_it_covers():
    """kws_dscnn's case (Vela legacy's strided average pool): weights encoded for an IFM 8 deep,
    run over one 64 deep; the error names the depth the stream covers."""
    from npu_opt.interpreters.ethosu.mlw_decode import WeightStreamError
    weights = np.ones((16, 3, 1, 8), dtype=np.int16)
    stream, _ = mlw_codec.reorder_encode(8, 8, weights, 16, False, True, 8, 8, 8)
    with pytest.raises(WeightStreamError, match=r"holds 512 weight\(s\), but the operation consumes 4096 \(weights "
                                                r"for an IFM depth of 8 where the IFM is 64 deep\)"):
        decode_ohwi(bytes(stream), (16, 3, 1, 64), Accelerator("test", 8, 8), 16, False, True, 8, (1, 1))
