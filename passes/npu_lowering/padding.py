"""Hardware padding of the NPU's kernels: TFLite's SAME and VALID, a PAD folded into the kernel,
and transpose convolutions (the values Vela 5.2 programs).

All results are (top, left, bottom, right), the order of ``#npu.kernel``'s ``padding``.
"""
from __future__ import annotations

from npu_opt.hardware.padding import needed_total_padding

Padding4 = tuple[int, int, int, int]


def explicit_axis(size: int, stride: int, kernel: int, before: int, after: int) -> tuple[int, int]:
    """The hardware padding equivalent to an explicit (PAD-given) padding along one axis: the
    trailing padding becomes the largest amount up to ``after`` that is congruent, modulo the
    stride, to what SAME would leave after ``before`` (0 if there is none)."""
    wanted = needed_total_padding(size, stride, kernel) - before
    trailing = after - (after - wanted) % stride
    return before, max(trailing, 0)


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
        # stride 1 over the upscaled IFM pads k - 1 in all; the trailing part is what the kernel
        # spans in IFM steps, less one; the rest leads
        bottom, right = max(kh // uh - 1, 0), max(kw // uw - 1, 0)
        return max(kh - 1 - bottom, 0), max(kw - 1 - right, 0), bottom, right
    if mode == "VALID":
        return kh - 1, kw - 1, max(kh - 2, 0), max(kw - 2, 0)
    raise ValueError(f"unknown padding mode {mode!r} for a transpose convolution")


__all__ = ["Padding4", "explicit_axis", "kernel_padding", "needed_total_padding", "upscaled_padding"]
