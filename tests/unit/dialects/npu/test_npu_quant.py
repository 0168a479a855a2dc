"""Rescale arithmetic (dialects/npu/quant.py): scale -> (multiplier, shift), its 15-bit variant and
the average-pool 1/N scale, on values worked by hand (and at the edges of the shift field)."""
from __future__ import annotations

import pytest

from npu_opt.dialects.npu.quant import pooling_scale, quantise_scale, reduced_quantise_scale


@pytest.mark.parametrize("scale, expected", [
    (0.5, (1 << 30, 31)),                 # mantissa 1/2 -> 2^30, over 2^31
    (1.0, (1 << 30, 30)),
    (0.1, (1717986918, 34)),              # 0.8 x 2^-3: round(0.8 x 2^31), 31 + 3
    (1 - 2 ** -40, (1 << 31, 31)),        # the mantissa rounds up to 2^31
    (2.0 ** -32, (1 << 30, 62)),
    (2.0 ** 40, (0, 16)),                 # a left shift the NPU cannot express
    (2.0 ** -40, (0, 16)),                # a shift past 63
])
def test_quantise_scale(scale: float, expected: tuple[int, int]) -> None:
    assert quantise_scale(scale) == expected
    multiplier, shift = expected
    if multiplier:
        assert multiplier / 2 ** shift == pytest.approx(scale, rel=2 ** -30)


def test_reduced_scale_keeps_15_bits() -> None:
    assert reduced_quantise_scale(0.1) == (26214, 18)          # 1717986918 / 2^16, rounded
    assert reduced_quantise_scale(1 - 2 ** -40) == (32767, 15)  # 2^31 / 2^16 saturates at 32767
    assert reduced_quantise_scale(2.0 ** 40) == (0, 0)          # the unusable scale stays zero


@pytest.mark.parametrize("elements, bits, expected", [
    (9, 0, (3817748709, 35)),    # 16 (2^31 + 1) // 9
    (1, 0, (2147483649, 31)),
    (49, 1, (1402438302, 36)),   # 64 (2^30 + 1) // 49
    (4096, 0, (2147483649, 43)),
])
def test_pooling_scale(elements: int, bits: int, expected: tuple[int, int]) -> None:
    multiplier, shift = pooling_scale(elements, bits)
    assert (multiplier, shift) == expected
    assert multiplier / 2 ** shift == pytest.approx(1 / elements, rel=1e-8)  # fewer bits, same 1/N
