"""Operator-specific hardware limits (the same as Vela 5.2's): strides, kernels, weights and biases
of the MAC operators, pooling windows, resize factors, pad shapes, mean sizes, softmax sizes and
strided-slice strides. support.py runs them after the generic checks; each yields ``Reason``s
naming the offending value and the limit (see support_common.py)."""
from __future__ import annotations

from typing import Iterator

import numpy as np

from npu_opt.passes.npu_lowering.support_common import CONV_OPS, POOL_OPS, Reason, fmt_quant, fmt_shape, reason
from npu_opt.passes.npu_lowering.view import View, constant, dtype_name, quant, scaling_equal, shape4, shape_list

def _stride(view: View) -> tuple[int, int]:
    """(stride_w, stride_h) of the op, 1 where absent."""
    return view.int("stride_w", 1), view.int("stride_h", 1)


def resize_factor(ifm_width: int, stride: int) -> tuple[int, int]:
    """(f, s / f): the factor a convolution's width stride ``s`` can be folded into its depth by
    (the IFM width must split into groups of f columns), and the stride left. The whole stride
    folds when the width allows; else the fold leaves a stride of 2 or 3 if one of those works;
    else nothing folds."""
    if ifm_width % stride == 0:
        return stride, 1
    for kept in (2, 3):
        if stride % kept == 0 and ifm_width % (stride // kept) == 0:
            return stride // kept, kept
    return 1, stride


def _stride_no_upper_limit(view: View) -> Iterator[Reason]:
    """Strides above 3 only where they do not matter (an OFM axis of size 1) or, for the width,
    where folding the IFM width into depth brings the stride down to 3 or less."""
    stride_w, stride_h = _stride(view)
    ifm_w = shape4(shape_list(view.ifm))[2]
    ofm = shape4(shape_list(view.ofm))
    if not (ofm[1] == 1 or 1 <= stride_h <= 3):
        yield reason("stride", f"stride_h = {stride_h} exceeds the NPU limit of 3 (the OFM is {ofm[1]} rows high; "
                     "only a 1-row OFM may use any stride)")
        return
    folded = resize_factor(ifm_w, stride_w)[1] if stride_w > 1 else stride_w
    if not (ofm[2] == 1 or (1 <= stride_w and folded <= 3)):
        yield reason("stride", f"stride_w = {stride_w} exceeds the NPU limit of 3, and folding the IFM width "
                     f"{ifm_w} into depth leaves a stride of {folded} (the OFM is {ofm[2]} columns wide)")


def _conv_like(view: View) -> Iterator[Reason]:
    """Kernel extent, weights and bias of a convolution."""
    op = view.op
    w = shape_list(view.weights) or [1, 1, 1, 1]
    if op.name == "tfl.transpose_conv":
        kh, kw, dh, dw = w[1], w[2], 1, 1
    else:
        kh, kw = w[1], w[2]
        dh, dw = view.int("dilation_h_factor", 1), view.int("dilation_w_factor", 1)
    area_h, area_w = (kh - 1) * dh + 1, (kw - 1) * dw + 1
    if not 1 <= area_h <= 64:
        yield reason("kernel", f"kernel height {kh} with dilation {dh} spans {area_h} rows, over the NPU limit "
                     "of 64")
    if not 1 <= area_h * area_w <= 4096:
        yield reason("kernel", f"the dilated kernel spans {area_h}x{area_w} = {area_h * area_w} positions, over "
                     "the NPU limit of 4096")
    yield from _weights_and_bias(view)
    if op.name == "tfl.conv_2d" or op.name == "tfl.depthwise_conv_2d":
        weights = constant(view.weights)
        q = quant(view.weights)
        if weights is not None and q is not None and dtype_name(view.ifm) in ("int8", "int16") \
                and any(z != 0 for z in q.zero_points):
            offset = next(z for z in q.zero_points if z != 0)
            yield reason("asymmetric-weights", f"weights have zero point {offset} and the IFM is "
                         f"{dtype_name(view.ifm)}; the NPU needs zero point 0 here (--force-symmetric-int-weights "
                         "makes it so, at some accuracy cost)")


def _weights_and_bias(view: View, limit: bool = True) -> Iterator[Reason]:
    """Weights: constant, 8-bit, not too large a sum per output channel (``limit``); bias: 1D
    int32 or int64 within 40 bits."""
    weights = view.weights
    if weights is not None and dtype_name(weights) not in ("int8", "uint8"):
        yield reason("weights", f"weights are {dtype_name(weights)}; the NPU's weight decoder takes 8-bit weights")
    values = constant(weights)
    if weights is not None and values is None:
        yield reason("weights", "the weights are computed at run time; the NPU needs them as a constant to "
                     "encode at compile time")
    if limit and values is not None and view.op.name != "tfl.fully_connected":
        q = quant(weights)
        zp = np.asarray(q.zero_points if q is not None else (0,), dtype=np.int64)
        # Vela's layouts: OHWI -> HWIO for convolutions, 1HWC -> HWC1 for depthwise (so the sum of
        # a depthwise filter runs over all its channels, as in Vela)
        # (summed per O of the OHWI / 1HWC weights as laid out, not through a transposed view)
        # 8-bit weights less zero points within +-256 differ by less than 2**15: 16-bit arithmetic.
        narrow = values.dtype in (np.int8, np.uint8) and zp.size > 0 and int(np.abs(zp).max()) <= 256
        ohwi = values.astype(np.int16 if narrow else np.int64)
        if ohwi.ndim != 4:
            np.transpose(ohwi, (1, 2, 3, 0))  # not 4D: raises as the HWIO transpose did
        zp_b = zp if zp.size == 1 else zp.reshape((-1, 1, 1, 1)) if view.op.name != "tfl.depthwise_conv_2d" \
            else zp.reshape((1, 1, 1, -1))
        distance = np.absolute(ohwi - zp_b.astype(ohwi.dtype))
        total = int(np.amax(distance.reshape(ohwi.shape[0], -1).sum(axis=1, dtype=np.int64)))
        if total > 127 * 65536:
            yield reason("weights", f"one output channel's weights add up to {total} (absolute, less the zero "
                         "point), over the NPU's accumulator-safe limit of 8323072 = 127 x 65536")
    bias = view.bias
    if bias is not None:
        if len(shape_list(bias) or []) != 1:
            yield reason("bias", f"bias has shape {fmt_shape(shape_list(bias))}; the NPU takes one bias per output "
                         "channel, a 1D tensor")
        if dtype_name(bias) not in ("int32", "int64"):
            yield reason("bias", f"bias is {dtype_name(bias)}; the NPU takes int32 or int64 biases")
        values = constant(bias)
        wide = [] if values is None else [int(v) for v in values.reshape(-1) if len(bin(int(v))[2:]) > 40]
        if dtype_name(bias) == "int64" and wide:
            yield reason("bias", f"bias value {wide[0]} needs {len(bin(wide[0])[2:])} bits; the NPU's bias is at "
                         "most 40 bits")


def _tconv(view: View) -> Iterator[Reason]:
    """Strides and output size of a transpose convolution."""
    stride_w, stride_h = _stride(view)
    w = shape_list(view.weights)
    ifm, ofm = shape4(shape_list(view.ifm)), shape4(shape_list(view.ofm))
    kh, kw = w[1], w[2]
    ok = (stride_w, stride_h) in ((1, 1), (2, 2)) or (stride_w == 2 and stride_h == 1 and ifm[1] == 1 and kh == 1)
    if not ok:
        yield reason("stride", f"stride {stride_w}x{stride_h} (WxH): the NPU upsamples by 1x1 or 2x2, or by 2x1 "
                     f"when the IFM and kernel are 1 row high (here {ifm[1]} and {kh})")
    padding = view.attr("padding")
    if padding == "SAME" and (ofm[1] != ifm[1] * stride_h or ofm[2] != ifm[2] * stride_w):
        yield reason("shape", f"with SAME padding the OFM must be the IFM {ifm[1]}x{ifm[2]} times the stride, "
                     f"{ifm[1] * stride_h}x{ifm[2] * stride_w}; it is {ofm[1]}x{ofm[2]}")
    if padding == "VALID" and (ofm[1] != ifm[1] * stride_h + max(kh - stride_h, 0)
                               or ofm[2] != ifm[2] * stride_w + max(kw - stride_w, 0)):
        want_h = ifm[1] * stride_h + max(kh - stride_h, 0)
        want_w = ifm[2] * stride_w + max(kw - stride_w, 0)
        yield reason("shape", f"with VALID padding the OFM must be {want_h}x{want_w} (the IFM {ifm[1]}x{ifm[2]} "
                     f"upsampled, plus the kernel's overhang); it is {ofm[1]}x{ofm[2]}")


def pool_strides(view: View) -> tuple[int, int, str]:
    """Strides and padding after Vela's ``fixup_pool_strides`` (a window as large as the IFM,
    stepping by itself, becomes stride 1 VALID)."""
    stride_w, stride_h = _stride(view)
    kh, kw = view.int("filter_height", 1), view.int("filter_width", 1)
    ifm = shape4(shape_list(view.ifm))
    padding = str(view.attr("padding", "VALID"))
    if kw == stride_w == ifm[2] and kh == stride_h == ifm[1]:
        return 1, 1, "VALID"
    return stride_w, stride_h, padding


def _pool(view: View) -> Iterator[Reason]:
    """Strides and window sizes of a max or average pool."""
    stride_w, stride_h, padding = pool_strides(view)
    kh, kw = view.int("filter_height", 1), view.int("filter_width", 1)
    if view.op.name == "tfl.max_pool_2d":
        if not (1 <= stride_w <= 3 and 1 <= stride_h <= 3):
            yield reason("stride", f"stride {stride_w}x{stride_h} (WxH) exceeds the NPU limit of 3 for max "
                         "pooling")
        if not 1 <= kh <= 256:
            yield reason("kernel", f"pool height {kh} exceeds the NPU limit of 256")
        if not 1 <= kh * kw <= 65536:
            yield reason("kernel", f"pool {kw}x{kh} (WxH) covers {kh * kw} positions, over the NPU limit of 65536")
        return
    yield from _stride_no_upper_limit(_FixedStrides(view, stride_w, stride_h))
    if padding != "VALID" and stride_w > 3:
        yield reason("stride", f"stride_w = {stride_w} with {padding} padding: a width stride over 3 runs "
                     "on the NPU with VALID padding only")
    if padding == "SAME" and not ((1 <= kw <= 8 or stride_w == kw) and 1 <= kh <= 8):
        yield reason("kernel", f"pool {kw}x{kh} (WxH) with SAME padding: the NPU pads pools of at most 8x8 (or "
                     "as wide as the stride)")
    if padding == "VALID" and not 1 <= kh <= 256:
        yield reason("kernel", f"pool height {kh} exceeds the NPU limit of 256")
    if padding == "VALID" and not 1 <= kh * kw <= 65536:
        yield reason("kernel", f"pool {kw}x{kh} (WxH) covers {kh * kw} positions, over the NPU limit of 65536")


class _FixedStrides(View):
    """A view whose strides are overridden (after ``fixup_pool_strides``)."""

    def __init__(self, view: View, stride_w: int, stride_h: int) -> None:
        super().__init__(view.op, view.ifm, view.ifm2, view.weights, view.bias, view.ofm)
        self._strides = {"stride_w": stride_w, "stride_h": stride_h}

    def attr(self, name: str, default: object = None) -> object:
        return self._strides[name] if name in self._strides else super().attr(name, default)


def _broadcast(view: View) -> Iterator[Reason]:
    """Elementwise inputs broadcast only along axes where one of them is 1."""
    a, b, o = shape_list(view.ifm), shape_list(view.ifm2), shape_list(view.ofm)
    if a is None or b is None or o is None:
        return
    size = min(len(a), len(b))
    for axis, (i, i2, out) in enumerate(zip(a[len(a) - size:], b[len(b) - size:], o[len(o) - size:])):
        if not (i == i2 or i == 1 or i2 == 1) or out != max(i, i2):
            yield reason("broadcast", f"IFM {fmt_shape(a)} and IFM2 {fmt_shape(b)} differ in trailing axis {axis} "
                         f"({i} and {i2}, OFM {out}); the NPU broadcasts only an axis of size 1")
            return


def _resize(view: View) -> Iterator[Reason]:
    """A resize (nearest-neighbour or bilinear) by one factor of 1, 2, 4 or 8 on both axes."""
    ifm, ofm = shape_list(view.ifm), shape_list(view.ofm)
    align = bool(view.attr("align_corners", False))
    valid = False
    if len(ifm) == 4:
        if (ifm[1] == 1 and ifm[2] == 1) or ifm == ofm:
            valid = True
        else:
            if align:
                hf = (ofm[1] - 1) / (ifm[1] - 1) if ifm[1] != 1 else 1
                wf = (ofm[2] - 1) / (ifm[2] - 1) if ifm[2] != 1 else 1
            else:
                hf, wf = ofm[1] / ifm[1], ofm[2] / ifm[2]
            if hf in (1.0, 2.0, 4.0, 8.0) and wf in (1.0, 2.0, 4.0, 8.0):
                if ofm[1] != 1 and ofm[2] != 1:
                    valid = hf == wf
                else:
                    valid = (hf == ifm[1] == 1) or (wf == ifm[2] == 1)
    if not valid:
        corners = " (less one with align_corners)" if align else ""
        yield reason("resize", f"resizing {fmt_shape(ifm)} to {fmt_shape(ofm)} is not an upscale by one factor of "
                     f"1, 2, 4 or 8 on both axes{corners}, nor from a 1x1 IFM")
    size = constant(view.op.operands[1])
    if size is None or size.size != 2 or list(size.reshape(-1)) != ofm[1:3]:
        given = "computed at run time" if size is None else str([int(v) for v in size.reshape(-1)])
        yield reason("resize", f"the size operand ({given}) is not the OFM's height and width {ofm[1:3]}")
    if align and view.attr("half_pixel_centers", False):
        yield reason("resize", "align_corners and half_pixel_centers are both set; the NPU resizes with one of "
                     "them at most")


def _half_pixel_resize(view: View) -> Iterator[Reason]:
    """A bilinear resize with half-pixel centres doubles the height and width (or has a 1x1 IFM)."""
    if not view.attr("half_pixel_centers", False):
        return
    ifm, ofm = shape_list(view.ifm) or [], shape_list(view.ofm) or []
    if len(ifm) < 3:
        yield reason("resize", f"IFM {fmt_shape(ifm)} has no height and width to resize with half-pixel centres")
        return
    (ifm_h, ifm_w), (ofm_h, ofm_w) = ifm[-3:-1], ofm[-3:-1]
    if not (ifm_h == ifm_w == 1 or (ofm_h == 2 * ifm_h and ofm_w == 2 * ifm_w)):
        yield reason("resize", f"with half_pixel_centers the OFM must be twice the IFM's height and width (or the "
                     f"IFM 1x1); IFM {fmt_shape(ifm)} and OFM {fmt_shape(ofm)} are a {ofm_h / ifm_h:g}x"
                     f"{ofm_w / ifm_w:g} resize")


def _pad(view: View) -> Iterator[Reason]:
    """A paddings operand of [3, 2] or [4, 2] integers that leaves the batch alone."""
    pads = view.op.operands[1]
    shape = shape_list(pads)
    if shape not in ([3, 2], [4, 2]):
        yield reason("pad", f"the paddings operand has shape {fmt_shape(shape)}; the NPU pads 3D or 4D tensors "
                     "([3, 2] or [4, 2] paddings)")
        return
    if dtype_name(pads) not in ("int32", "int64"):
        yield reason("pad", f"the paddings are {dtype_name(pads)}; expected int32 or int64")
    values = constant(pads)
    if values is not None and len(values) > 3 and int(values[0].sum()) != 0:
        yield reason("pad", f"batch padding {[int(v) for v in values[0]]}: the NPU pads height, width and "
                     "channels only")


def _mean(view: View) -> Iterator[Reason]:
    """Sizes a MEAN's depthwise sums can handle."""
    shape = shape_list(view.ifm)
    axes = [int(a) for a in np.reshape(constant(view.op.operands[1]), -1)]
    prod = int(np.prod([shape[a] for a in axes]))
    dtype = dtype_name(view.ifm)
    limit = {"int16": 1 << 16, "uint8": 1 << 23}.get(dtype, 1 << 24)
    if prod > limit:
        yield reason("mean-size", f"the reduced axes hold {prod} elements, over the NPU limit of {limit} for "
                     f"{dtype} inputs (the 32-bit sum could overflow)")
    hi = 0 if len(shape) < 4 else 1
    if shape[hi + 1] > 4096:
        yield reason("mean-size", f"width {shape[hi + 1]} exceeds 4096, the widest kernel the NPU's MEAN "
                     "sums with")
    if len(shape) - 1 in axes and shape[-1] > 4096:
        yield reason("mean-size", f"averaging {shape[-1]} channels exceeds the NPU limit of 4096")


def _reshape(view: View) -> Iterator[Reason]:
    """A reshape's new shape must be known at compile time."""
    if len(view.op.operands) > 1 and constant(view.op.operands[1]) is None:
        yield reason("non-constant", "the new shape is computed at run time; the NPU needs it at compile time")


def _softmax(view: View) -> Iterator[Reason]:
    """Softmax rows and matching 8- or 16-bit types."""
    s = shape4(shape_list(view.ifm))
    if s[1] * s[2] > 65535:
        yield reason("softmax-size", f"IFM {s[1]}x{s[2]} has {s[1] * s[2]} positions to normalise, over the NPU "
                     "limit of 65535")
    a, o = dtype_name(view.ifm), dtype_name(view.ofm)
    if not (a == o and a in ("int8", "uint8", "int16")):
        yield reason("dtype", f"IFM {a} and OFM {o}: the NPU's softmax needs both int8, both uint8 or both "
                     "int16")


def _strided_slice(view: View) -> Iterator[Reason]:
    """Unit strides along the batch and channels; no offset mode."""
    strides = [int(s) for s in np.reshape(constant(view.op.operands[3]), -1)]  # type: ignore[arg-type]
    if strides[-1] != 1 or (len(strides) > 3 and strides[0] != 1):
        axis, value = ("channel", strides[-1]) if strides[-1] != 1 else ("batch", strides[0])
        yield reason("slice", f"{axis} stride {value} (strides {strides}): the NPU steps through the batch and "
                     "the channels one at a time")
    if view.attr("offset", False):
        yield reason("slice", "offset = true (begin and end relative to each other) is not supported on the NPU")


def supported_specific(view: View) -> Iterator[Reason]:
    """The operator-specific limits, in the order Vela tests them."""
    name = view.op.name
    if name == "tfl.rsqrt" and dtype_name(view.ifm) != "int8":
        yield reason("dtype", f"IFM is {dtype_name(view.ifm)}; the NPU evaluates RSQRT as a table for int8 inputs "
                     "only")
    if name == "tfl.strided_slice":
        yield from _strided_slice(view)
    if name == "tfl.conv_2d":
        yield from _stride_no_upper_limit(view)
    if name in CONV_OPS:
        yield from _conv_like(view)
    if name == "tfl.transpose_conv":
        yield from _tconv(view)
    if name == "tfl.depthwise_conv_2d":
        stride_w, stride_h = _stride(view)
        if not (1 <= stride_w <= 3 and 1 <= stride_h <= 3):
            yield reason("stride", f"stride {stride_w}x{stride_h} (WxH) exceeds the NPU limit of 3 for depthwise "
                         "convolutions")
        multiplier = view.int("depth_multiplier", 1)
        if multiplier > 1:
            ifm_c, ofm_c = shape_list(view.ifm)[-1], shape_list(view.ofm)[-1]
            if ifm_c != 1 or ofm_c != multiplier:
                yield reason("depth-multiplier", f"depth_multiplier = {multiplier} needs a 1-channel IFM and a "
                             f"{multiplier}-channel OFM; they have {ifm_c} and {ofm_c} channels")
    if name in POOL_OPS:
        yield from _pool(view)
    if name in ("tfl.resize_nearest_neighbor", "tfl.resize_bilinear"):
        yield from _resize(view)
    if name == "tfl.resize_bilinear":
        yield from _half_pixel_resize(view)
    if name == "tfl.fully_connected":
        yield from _weights_and_bias(view, limit=False)
    if name in ("tfl.minimum", "tfl.maximum"):
        if not scaling_equal(view.ofm, view.ifm) or not scaling_equal(view.ofm, view.ifm2):
            yield reason("quant-mismatch", f"IFM ({fmt_quant(view.ifm)}), IFM2 ({fmt_quant(view.ifm2)}) and OFM "
                         f"({fmt_quant(view.ofm)}) are not all quantised alike; the NPU's MINIMUM and MAXIMUM do "
                         "not rescale")
        yield from _broadcast(view)
    if name in ("tfl.add", "tfl.sub", "tfl.mul"):
        yield from _broadcast(view)
    if name == "tfl.pad":
        yield from _pad(view)
    if name == "tfl.mean":
        yield from _mean(view)
    if name == "tfl.reshape":
        yield from _reshape(view)
    if name == "tfl.softmax":
        yield from _softmax(view)


__all__ = ["pool_strides", "resize_factor", "supported_specific"]
