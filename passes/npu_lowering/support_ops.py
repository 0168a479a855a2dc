"""Vela 5.2's operator-specific supported-operator checks (``tflite_supported_operators.py``):
strides, kernels, weights and biases of the MAC operators, pooling windows, resize factors, pad
shapes, mean sizes, softmax sizes and strided-slice strides. support.py runs them after the generic
checks; each yields ``Reason``s (see support_common.py)."""
from __future__ import annotations

from typing import Iterator

import numpy as np

from npu_opt.passes.npu_lowering.support_common import CONV_OPS, POOL_OPS, Reason, fmt_shape, reason
from npu_opt.passes.npu_lowering.view import View, constant, dtype_name, quant, scaling_equal, shape4, shape_list

def _stride(view: View) -> tuple[int, int]:
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
    stride_w, stride_h = _stride(view)
    ifm_w = shape4(shape_list(view.ifm))[2]
    ofm = shape4(shape_list(view.ofm))
    h_ok = ofm[1] == 1 or 1 <= stride_h <= 3
    optimized = resize_factor(ifm_w, stride_w)[1] if stride_w > 1 else stride_w
    w_ok = ofm[2] == 1 or (1 <= stride_w and optimized <= 3)
    if not (h_ok and w_ok):
        yield reason("stride", "Stride h must be between 1 and 3 when ofm height is greater than 1, and stride w "
                     "must be between 1 and 3 when ofm width is greater than 1 or divisible by 2 or 3 with the ifm "
                     "width divisible by stride_w/2 or stride_w/3", f"stride WxH {stride_w}x{stride_h}, IFM "
                     f"{fmt_shape(shape_list(view.ifm))}, OFM {fmt_shape(shape_list(view.ofm))}")


def _conv_like(view: View) -> Iterator[Reason]:
    op = view.op
    w = shape_list(view.weights) or [1, 1, 1, 1]
    if op.name == "tfl.transpose_conv":
        kh, kw, dh, dw = w[1], w[2], 1, 1
    else:
        kh, kw = w[1], w[2]
        dh, dw = view.int("dilation_h_factor", 1), view.int("dilation_w_factor", 1)
    area_h, area_w = (kh - 1) * dh + 1, (kw - 1) * dw + 1
    if not 1 <= area_h <= 64:
        yield reason("kernel", "Dilated kernel height must be in the range [1, 64]", f"dilated kernel height {area_h}")
    if not 1 <= area_h * area_w <= 4096:
        yield reason("kernel", "Product of dilated kernel width and height must be in the range [1, 4096]",
                     f"product {area_h * area_w}")
    yield from _weights_and_bias(view)
    if op.name == "tfl.conv_2d" or op.name == "tfl.depthwise_conv_2d":
        weights = constant(view.weights)
        q = quant(view.weights)
        if weights is not None and q is not None and dtype_name(view.ifm) in ("int8", "int16") \
                and any(z != 0 for z in q.zero_points):
            yield reason("asymmetric-weights", "Weights must be symmetric (zero point 0) for int8 and int16 IFMs "
                         "(Vela: --force-symmetric-int-weights)")


def _weights_and_bias(view: View, limit: bool = True) -> Iterator[Reason]:
    weights = view.weights
    if weights is not None and dtype_name(weights) not in ("int8", "uint8"):
        yield reason("weights", "Weight tensor must be 8-bit", f"weights are {dtype_name(weights)}")
    values = constant(weights)
    if weights is not None and values is None:
        yield reason("weights", "Weight tensor must be constant")
    if limit and values is not None and view.op.name != "tfl.fully_connected":
        q = quant(weights)
        zp = np.asarray(q.zero_points if q is not None else (0,), dtype=np.int64)
        # Vela's layouts: OHWI -> HWIO for convolutions, 1HWC -> HWC1 for depthwise (so the sum of
        # a depthwise filter runs over all its channels, as in Vela)
        hwio = np.transpose(values.astype(np.int64), (1, 2, 3, 0))
        zp_b = zp if zp.size == 1 else zp.reshape((1, 1, 1, -1)) if view.op.name != "tfl.depthwise_conv_2d" \
            else zp.reshape((1, 1, -1, 1))
        total = int(np.amax(np.sum(np.absolute(hwio - zp_b), axis=(0, 1, 2))))
        if total > 127 * 65536:
            yield reason("weights", "The sum of the weights cannot exceed 8323072", f"sum of weights {total}")
    bias = view.bias
    if bias is not None:
        if len(shape_list(bias) or []) != 1:
            yield reason("bias", "Optional Bias tensor must be of shape: 1D",
                         f"bias shape {fmt_shape(shape_list(bias))}")
        if dtype_name(bias) not in ("int32", "int64"):
            yield reason("bias", "Optional Bias tensor must be of type: int32, int64", f"bias is {dtype_name(bias)}")
        values = constant(bias)
        wide = values is not None and any(len(bin(int(v))[2:]) > 40 for v in values.reshape(-1))
        if dtype_name(bias) == "int64" and wide:
            yield reason("bias", "Optional Bias tensor values must fit within 40-bits")


def _tconv(view: View) -> Iterator[Reason]:
    stride_w, stride_h = _stride(view)
    w = shape_list(view.weights)
    ifm, ofm = shape4(shape_list(view.ifm)), shape4(shape_list(view.ofm))
    kh, kw = w[1], w[2]
    ok = (stride_w, stride_h) in ((1, 1), (2, 2)) or (stride_w == 2 and stride_h == 1 and ifm[1] == 1 and kh == 1)
    if not ok:
        yield reason("stride", "Stride values WxH must be 1x1 or 2x2, or 2x1 if ifm height and kernel height are 1",
                     f"stride WxH {stride_w}x{stride_h}, IFM height {ifm[1]}, kernel height {kh}")
    padding = view.attr("padding")
    if padding == "SAME" and (ofm[1] != ifm[1] * stride_h or ofm[2] != ifm[2] * stride_w):
        yield reason("shape", "SAME padding: OFM dimensions must equal IFM dimensions multiplied by stride",
                     f"IFM {fmt_shape(list(ifm))}, OFM {fmt_shape(list(ofm))}")
    if padding == "VALID" and (ofm[1] != ifm[1] * stride_h + max(kh - stride_h, 0)
                               or ofm[2] != ifm[2] * stride_w + max(kw - stride_w, 0)):
        yield reason("shape", "VALID padding: OFM dimensions must equal IFM dimensions multiplied by stride, minus "
                     "difference between kernel size and stride",
                     f"IFM {fmt_shape(list(ifm))}, OFM {fmt_shape(list(ofm))}")


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
    stride_w, stride_h, padding = pool_strides(view)
    kh, kw = view.int("filter_height", 1), view.int("filter_width", 1)
    if view.op.name == "tfl.max_pool_2d":
        if not (1 <= stride_w <= 3 and 1 <= stride_h <= 3):
            yield reason("stride", "Stride values for both width and height must be in the range [1, 3]",
                         f"stride WxH {stride_w}x{stride_h}")
        if not 1 <= kh <= 256:
            yield reason("kernel", "Kernel filter height must be in the range [1, 256]", f"filter height {kh}")
        if not 1 <= kh * kw <= 65536:
            yield reason("kernel", "Product of kernel filter width and height must be in the range [1, 65536]",
                         f"product {kh * kw}")
        return
    yield from _stride_no_upper_limit(_FixedStrides(view, stride_w, stride_h))
    if padding != "VALID" and stride_w > 3:
        yield reason("stride", "For stride width greater than 3, valid padding needs to be used",
                     f"stride width {stride_w}, padding {padding}")
    if padding == "SAME" and not ((1 <= kw <= 8 or stride_w == kw) and 1 <= kh <= 8):
        yield reason("kernel", "Kernel filter values for both width and height must be in the range [1, 8]",
                     f"filter WxH {kw}x{kh}")
    if padding == "VALID" and not 1 <= kh <= 256:
        yield reason("kernel", "VALID padding: Kernel filter height must be in the range [1, 256]",
                     f"filter height {kh}")
    if padding == "VALID" and not 1 <= kh * kw <= 65536:
        yield reason("kernel", "VALID padding: Product of kernel filter width and height must be in the range "
                     "[1, 65536]", f"product {kh * kw}")


class _FixedStrides(View):
    """A view whose strides are overridden (after ``fixup_pool_strides``)."""

    def __init__(self, view: View, stride_w: int, stride_h: int) -> None:
        super().__init__(view.op, view.ifm, view.ifm2, view.weights, view.bias, view.ofm)
        self._strides = {"stride_w": stride_w, "stride_h": stride_h}

    def attr(self, name: str, default: object = None) -> object:
        return self._strides[name] if name in self._strides else super().attr(name, default)


def _broadcast(view: View) -> Iterator[Reason]:
    a, b, o = shape_list(view.ifm), shape_list(view.ifm2), shape_list(view.ofm)
    if a is None or b is None or o is None:
        return
    size = min(len(a), len(b))
    for i, i2, out in zip(a[len(a) - size:], b[len(b) - size:], o[len(o) - size:]):
        if not (i == i2 or i == 1 or i2 == 1) or out != max(i, i2):
            yield reason("broadcast", "Broadcasting is only allowed for rank indices with dimension 1, from either "
                         "IFM1 or IFM2", f"IFM {fmt_shape(a)}, IFM2 {fmt_shape(b)}")
            return


def _resize(view: View) -> Iterator[Reason]:
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
        yield reason("resize", "The width and height of the IFM and OFM must be equal, or the IFM 1x1, or the OFM "
                     "1x, 2x, 4x or 8x the IFM (minus one with align_corners) with equal factors",
                     f"IFM {fmt_shape(ifm)}, OFM {fmt_shape(ofm)}, align_corners {align}")
    size = constant(view.op.operands[1])
    if size is None or size.size != 2 or list(size.reshape(-1)) != ofm[1:3]:
        yield reason("resize", "The size tensor must match the output tensor shape")
    if align and view.attr("half_pixel_centers", False):
        yield reason("resize", "Both align_corners and half_pixel_centers can't be True")


def _pad(view: View) -> Iterator[Reason]:
    pads = view.op.operands[1]
    shape = shape_list(pads)
    if shape not in ([3, 2], [4, 2]):
        yield reason("pad", "The padding tensor must have the shape [3,2] or [4,2]", f"shape {fmt_shape(shape)}")
        return
    if dtype_name(pads) not in ("int32", "int64"):
        yield reason("pad", "Pad tensor must be of type: int32, int64", f"it is {dtype_name(pads)}")
    values = constant(pads)
    if values is not None and len(values) > 3 and int(values[0].sum()) != 0:
        yield reason("pad", "The pad tensor can only pad height, width and depth", f"batch padding {list(values[0])}")


def _mean(view: View) -> Iterator[Reason]:
    shape = shape_list(view.ifm)
    axes = [int(a) for a in np.reshape(constant(view.op.operands[1]), -1)]
    prod = int(np.prod([shape[a] for a in axes]))
    dtype = dtype_name(view.ifm)
    limit = {"int16": 1 << 16, "uint8": 1 << 23}.get(dtype, 1 << 24)
    if prod > limit:
        yield reason("mean-size", f"Product of reduced axes must be no greater than {limit} for {dtype} inputs",
                     f"product {prod}")
    hi = 0 if len(shape) < 4 else 1
    if shape[hi + 1] > 4096:
        yield reason("mean-size", "If Width axis is reduced its shape must be no greater than 4096",
                     f"width {shape[hi + 1]}")
    if len(shape) - 1 in axes and shape[-1] > 4096:
        yield reason("mean-size", "If Depth axis is reduced its shape must be no greater than 4096",
                     f"depth {shape[-1]}")


def _reshape(view: View) -> Iterator[Reason]:
    if len(view.op.operands) > 1 and constant(view.op.operands[1]) is None:
        yield reason("non-constant", "Shape must be constant")


def _softmax(view: View) -> Iterator[Reason]:
    s = shape4(shape_list(view.ifm))
    if s[1] * s[2] > 65535:
        yield reason("softmax-size", "The product of IFM width and height must be in the range [1, 65535]",
                     f"product {s[1] * s[2]}")
    a, o = dtype_name(view.ifm), dtype_name(view.ofm)
    if not (a == o and a in ("int8", "uint8", "int16")):
        yield reason("dtype", "Softmax needs IFM and OFM of the same type, 8-bit or int16", f"IFM {a}, OFM {o}")


def _strided_slice(view: View) -> Iterator[Reason]:
    strides = [int(s) for s in np.reshape(constant(view.op.operands[3]), -1)]  # type: ignore[arg-type]
    if strides[-1] != 1 or (len(strides) > 3 and strides[0] != 1):
        yield reason("slice", "Batch and channel stride values must be 1", f"strides {strides}")
    if view.attr("offset", False):
        yield reason("slice", "Offset attribute must be False")


def supported_specific(view: View) -> Iterator[Reason]:
    name = view.op.name
    if name == "tfl.rsqrt" and dtype_name(view.ifm) != "int8":
        yield reason("dtype", "IFM must be int8", f"IFM {dtype_name(view.ifm)}")
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
            yield reason("stride", "Stride values for both width and height must be between 1 and 3",
                         f"stride WxH {stride_w}x{stride_h}")
        multiplier = view.int("depth_multiplier", 1)
        if multiplier > 1:
            ifm_c, ofm_c = shape_list(view.ifm)[-1], shape_list(view.ofm)[-1]
            if ifm_c != 1 or ofm_c != multiplier:
                yield reason("depth-multiplier", "For depth multipliers > 1, IFM channels must be 1 and OFM channels "
                             "must be equal to the depth multiplier", f"IFM channels {ifm_c}, OFM channels {ofm_c}, "
                             f"depth multiplier {multiplier}")
    if name in POOL_OPS:
        yield from _pool(view)
    if name == "tfl.resize_nearest_neighbor":
        yield from _resize(view)
    if name == "tfl.fully_connected":
        yield from _weights_and_bias(view, limit=False)
    if name in ("tfl.minimum", "tfl.maximum"):
        if not scaling_equal(view.ofm, view.ifm) or not scaling_equal(view.ofm, view.ifm2):
            yield reason("quant-mismatch", "Both Input quantization parameters must match OFM quantization parameters")
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
