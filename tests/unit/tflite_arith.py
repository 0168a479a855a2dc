"""Test helper: TFLite's integer rescale written with plain Python integers, the independent
reference the NPU and lowering arithmetic tests compare the numpy kernels against."""
from __future__ import annotations


def tflite_rescale(acc: int, multiplier: int, shift: int) -> int:
    """TFLite's MultiplyByQuantizedMultiplier: a rounding doubling high multiply (ties up), then a
    rounding divide by 2^(shift - 31) (ties away from zero)."""
    high = (acc * multiplier + (1 << 30)) >> 31
    right = shift - 31
    if right <= 0:
        return high << -right
    quotient, remainder = divmod(abs(high), 1 << right)
    quotient += remainder * 2 >= (1 << right)
    return quotient if high >= 0 else -quotient
