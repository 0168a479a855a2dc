"""The registers of one stripe of a scheduled op (docs/codegen_design.md, Cascades and stripes):
a box's tiles and bases in its storage, rows wrapping round a rolling buffer, and the padding
of a stripe."""
from __future__ import annotations

from npu_opt.dialects.npu.stripe_plan import Box, Stripe
from npu_opt.hardware.perf.shape import round_up


def box_tiles(box: Box, rows: int, base: int, layout: str, strides: list[int], size: int) \
        -> tuple[list[int], list[int]]:
    """([height0, height1, width0], four bases) of ``box`` in a feature map based at ``base``
    whose storage holds ``rows`` rows (fewer than its height in a rolling buffer): tile 0 runs to
    the storage's last row, tile 2 on from its first; Vela programs tile 1's height as tile 0's."""
    _, y0, x0, c0 = box.start
    _, y1, x1, _ = box.end

    def address(y: int) -> int:
        row = y % rows
        if layout == "NHCWB16":
            return base + row * strides[1] + x0 * strides[0] + (c0 // 16) * strides[2] + (c0 % 16) * size
        return base + row * strides[1] + x0 * strides[0] + c0 * size

    crossing = min(round_up(y0 + 1, rows), y1)
    bases = [address(y0), 0, address(crossing) if y1 > crossing else 0, 0]
    return [crossing - y0, crossing - y0, x1 - x0], bases


def stripe_padding(padding: tuple[int, int, int, int], stripe: Stripe, ifm_width: int) -> tuple[int, int, int, int]:
    """The padding of a stripe: above and below its IFM box within the OFM's height (the op's
    own when one stripe covers it), none on a side whose IFM box stops short of the IFM's edge."""
    top, left, bottom, right = padding
    if not (stripe.first_row and stripe.last_row):
        top, bottom = stripe.pad_top, stripe.pad_bottom
    ifm = stripe.inputs.get(0)
    if ifm is not None and ifm.start[2] > 0:
        left = 0
    if ifm is not None and ifm.end[2] < ifm_width:
        right = 0
    return top, left, bottom, right


__all__ = ["box_tiles", "stripe_padding"]
