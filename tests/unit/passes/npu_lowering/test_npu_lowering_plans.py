"""The shape arithmetic of the MEAN and strided-convolution lowerings (passes/npu_lowering/mean.py,
conv.py, support_ops.py): row bands of the depthwise sums, the 1/N rescale, the filter padding
and IFM fold of a strided convolution. Expected values worked by hand from the docstrings."""
from __future__ import annotations

import numpy as np
import pytest

from npu_opt.ir.types import I32
from npu_opt.passes.npu_lowering.conv import ConvPlan, fixup_strided, folded_filter_padding
from npu_opt.passes.npu_lowering.mean import mean_rescale, plan_mean
from npu_opt.passes.npu_lowering.support_ops import resize_factor


@pytest.mark.parametrize("shape, axes, ifm, sums, kernel_w, bands", [
    ([1, 7, 7, 16], {1, 2}, (1, 7, 7, 16), (1, 1, 1, 16), 7, (7,)),
    # 5000 elements: too many for one kernel, so 64-row bands (64 x 50 <= 4096)
    ([1, 100, 50, 8], {1, 2}, (1, 100, 50, 8), (1, 1, 1, 8), 50, (64, 36)),
    ([1, 190, 64, 1], {1, 2}, (1, 190, 64, 1), (1, 1, 1, 1), 64, (64, 64, 62)),
    # 2000 elements but 100 rows: read as one 2000-wide row
    ([1, 100, 20, 8], {1, 2}, (1, 1, 2000, 8), (1, 1, 1, 8), 2000, (1,)),
    # channel means: the channels take the place of the unit W (or H) axis
    ([1, 5, 1, 300], {3}, (1, 5, 300, 1), (1, 5, 1, 1), 300, (1,)),
    ([1, 1, 7, 301], {3}, (1, 7, 301, 1), (1, 7, 1, 1), 301, (1,)),
    ([4, 70, 9], {0, 1}, (1, 4, 70, 9), (1, 1, 1, 9), 70, (4,)),
    ([1, 6, 1000, 3], {2}, (1, 6, 1000, 3), (1, 6, 1, 3), 1000, (1,)),
    ([33, 17], {1}, (1, 33, 17, 1), (1, 33, 1, 1), 17, (1,)),  # 2D: [1, 1, 33, 17], channels into W
])
def test_mean_plan(shape, axes, ifm, sums, kernel_w, bands) -> None:
    plan = plan_mean(shape, axes)
    assert plan is not None
    assert (plan.ifm_shape, plan.sum_shape, plan.kernel_w, plan.bands) == (ifm, sums, kernel_w, bands)


def test_mean_plan_band_reads_and_copies() -> None:
    plan = plan_mean([1, 190, 64, 3], {1, 2})
    assert plan is not None and plan.count == 190 * 64
    assert [plan.read_shape(i) for i in range(3)] == [(1, 64, 64, 3), (1, 64, 64, 3), (1, 62, 64, 3)]
    assert [plan.band_offset(i) for i in range(3)] == [0, 64, 128]
    # a mean over a height that is not reduced reads every row
    only_w = plan_mean([1, 6, 1000, 3], {2})
    assert only_w is not None and only_w.read_shape(0) == (1, 6, 1000, 3)
    # axes of size 1 only: a copy
    assert plan_mean([1, 1, 1, 8], {1, 2}) is None
    assert plan_mean([5, 1], {1}) is None


@pytest.mark.parametrize("scales, count, expected", [
    ((0.5, 0.25, 49), 49, (701219150, 34)),    # 2 = 2^30 / 2^29; << 5, / 49 (the lit test's value)
    ((0.5, 0.125, 5000), 5000, (879609302, 40)),  # 4 = 2^30 / 2^28; << 12, / 5000
    ((1.0, 1.0, 1), 1, (1 << 30, 30)),
    ((0.02, 0.3, 4096), 4096, (1145324612, 46)),  # 1/15 = 1145324612 / 2^34; << 12, / 4096
])
def test_mean_rescale(scales, count, expected) -> None:
    in_scale, out_scale, _ = scales
    multiplier, shift = mean_rescale(in_scale, out_scale, count)
    assert (multiplier, shift) == expected
    # the fixed-point result approximates in / out / count to Q31 precision
    assert multiplier / 2 ** shift == pytest.approx(in_scale / out_scale / count, rel=1e-8)


@pytest.mark.parametrize("args, expected", [
    (("VALID", 0, 1, 2, 3, 224), (0, 1)),     # round up to whole column pairs on the right
    (("VALID", 0, 1, 2, 4, 224), (0, 0)),
    (("VALID", 0, 2, 3, 7, 133), (0, 2)),
    (("SAME", 1, 1, 2, 3, 224), (0, 1)),      # widened to 4: one column, on the right like the IFM's
    (("SAME", 0, 1, 2, 2, 224), (0, 0)),
    (("SAME", 0, 1, 2, 3, 223), (0, 1)),      # no IFM padding: only rounded up
    (("SAME", 3, 1, 4, 7, 64), (3, 6)),       # 9 columns split 1:2 like the 3 IFM columns
    (("SAME", 5, 2, 7, 7, 133), (14, 21)),    # stride 14 kept as 2: 35 columns, split 2:3
])
def test_folded_filter_padding(args, expected) -> None:
    assert folded_filter_padding(*args) == expected


def test_resize_factor_keeps_a_hardware_stride_when_the_width_does_not_split() -> None:
    assert resize_factor(224, 2) == (2, 1)
    assert resize_factor(133, 14) == (7, 2)   # 133 = 19 x 7: fold 7, keep stride 2
    assert resize_factor(50, 6) == (2, 3)     # 50 is not a multiple of 6 or 3, but of 2
    assert resize_factor(49, 4) == (1, 4)     # nothing divides: no fold


def _plan(ifm: tuple[int, ...], kernel_w: int, stride: tuple[int, int], padding: str,
          ofm: tuple[int, ...]) -> ConvPlan:
    hwio = np.arange(3 * kernel_w * ifm[3] * 2).reshape(3, kernel_w, ifm[3], 2)
    return ConvPlan("conv", "c", None, ifm, hwio, I32, None, ofm, I32, stride, (1, 1), padding)  # type: ignore[arg-type]


def test_first_rgb_conv_folds_its_width_stride_into_depth() -> None:
    # 224x224x3, 3x3 stride 2 SAME: the IFM becomes 224x112x6, the filter 3x2 (one zero column on
    # the right) over 6 channels, stride 1.
    plan = _plan((1, 224, 224, 3), 3, (2, 2), "SAME", (1, 112, 112, 2))
    fixup_strided(plan, first=True)
    assert plan.ifm_shape == (1, 224, 112, 6) and plan.stride == (2, 1) and plan.hwio.shape == (3, 2, 6, 2)
    assert plan.modified and not plan.hwio[:, 1, 3:].any()  # the padded column holds the zero point 0
    # not the first op and a stride the NPU runs: untouched
    later = _plan((1, 224, 224, 3), 3, (2, 2), "SAME", (1, 112, 112, 2))
    fixup_strided(later, first=False)
    assert later.ifm_shape == (1, 224, 224, 3) and later.stride == (2, 2) and not later.modified


def test_wide_stride_folds_and_unit_ofm_axes_get_stride_one() -> None:
    # width stride 4 over 64 columns (VALID, 4-wide kernel): fold 4, stride 1, 16x... columns
    plan = _plan((1, 8, 64, 16), 4, (1, 4), "VALID", (1, 8, 16, 2))
    fixup_strided(plan, first=False)
    assert plan.ifm_shape == (1, 8, 16, 64) and plan.stride == (1, 1) and plan.hwio.shape == (3, 1, 64, 2)
    # explicit padding blocks the fold and leaves the strides alone
    explicit = _plan((1, 8, 64, 16), 4, (1, 4), "EXPLICIT", (1, 1, 16, 2))
    fixup_strided(explicit, first=False)
    assert explicit.stride == (1, 4) and explicit.padding == "EXPLICIT" and not explicit.modified
    # a 1-row OFM runs with height stride 1 and explicit padding
    row = _plan((1, 3, 64, 16), 4, (2, 4), "VALID", (1, 1, 16, 2))
    fixup_strided(row, first=False)
    assert row.stride == (1, 1) and row.padding == "EXPLICIT"
