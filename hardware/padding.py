"""The NPU's padding arithmetic shared by the lowering of TFLite padding and the stripe boxes of
command generation."""
from __future__ import annotations


def needed_total_padding(size: int, stride: int, kernel: int) -> int:
    """Total padding along one axis that TFLite's SAME needs: what the kernel overhangs the
    last stride step (a whole stride when ``size`` divides evenly)."""
    last_step = size % stride or stride
    return max(kernel - last_step, 0)


__all__ = ["needed_total_padding"]
