"""Hardware padding of the NPU's kernels, as Vela computes it (``calc_padding_and_skirt``,
``calc_explicit_padding``, ``calc_upscaled_padding_and_skirt``).

All results are (top, left, bottom, right), the order of ``#npu.kernel``'s ``padding``.
"""
from __future__ import annotations

Padding4 = tuple[int, int, int, int]


def needed_total_padding(size: int, stride: int, kernel: int) -> int:
    """Total padding along one axis that TFLite's SAME needs (Vela's ``needed_total_padding``)."""
    if size % stride == 0:
        return max(kernel - stride, 0)
    return max(kernel - size % stride, 0)


def explicit_axis(size: int, stride: int, kernel: int, before: int, after: int) -> tuple[int, int]:
    """The hardware padding equivalent to an explicit (PAD-given) padding along one axis: the
    trailing padding is reduced until it agrees with the stride (``calc_explicit_padding``)."""
    total = needed_total_padding(size, stride, kernel)
    rest = total - before
    while after > 0 and after % stride != rest % stride:
        after -= 1
    return before, after


def kernel_padding(mode: str, ifm_hw: tuple[int, int], kernel_hw: tuple[int, int], stride_hw: tuple[int, int],
                   explicit: Padding4 | None = None) -> Padding4:
    """Padding of a kernel whose dilated extent is ``kernel_hw`` over an IFM of ``ifm_hw``:
    SAME splits the total with the smaller half first, VALID is none, EXPLICIT adjusts a given
    padding to the stride."""
    (h, w), (kh, kw), (sh, sw) = ifm_hw, kernel_hw, stride_hw
    if mode == "SAME":
        ypad, xpad = needed_total_padding(h, sh, kh), needed_total_padding(w, sw, kw)
        return ypad // 2, xpad // 2, (ypad + 1) // 2, (xpad + 1) // 2
    if mode == "VALID":
        return 0, 0, 0, 0
    if mode == "EXPLICIT":
        assert explicit is not None
        top, left, bottom, right = explicit
        top, bottom = explicit_axis(h, sh, kh, top, bottom)
        left, right = explicit_axis(w, sw, kw, left, right)
        return top, left, bottom, right
    raise ValueError(f"unknown padding mode {mode!r}")


def upscaled_padding(mode: str, ifm_hw: tuple[int, int], kernel_hw: tuple[int, int],
                     upscale_hw: tuple[int, int]) -> Padding4:
    """Padding of a transpose convolution (stride 1 over the IFM upscaled by ``upscale_hw``)."""
    (h, w), (kh, kw), (uh, uw) = ifm_hw, kernel_hw, upscale_hw
    if mode == "SAME":
        ypad = needed_total_padding(h * uh, 1, kh)
        xpad = needed_total_padding(w * uw, 1, kw)
        right = max((xpad + 1) // uw - 1, 0)
        bottom = max((ypad + 1) // uh - 1, 0)
        return max(kh - 1 - bottom, 0), max(kw - 1 - right, 0), bottom, right
    if mode == "VALID":
        return kh - 1, kw - 1, max(kh - 2, 0), max(kw - 2, 0)
    raise ValueError(f"unknown padding mode {mode!r} for a transpose convolution")


__all__ = ["Padding4", "explicit_axis", "kernel_padding", "needed_total_padding", "upscaled_padding"]
