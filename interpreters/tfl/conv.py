"""Kernels of tfl's MAC ops (conv_2d, depthwise_conv_2d, fully_connected, transpose_conv), with
TFLite's reference integer arithmetic.

Design notes: docs/interpreter_design.md, section tfl kernels: MAC operations (tfl kernels/conv)."""
from __future__ import annotations

from typing import Any

import numpy as np
from numpy.lib.stride_tricks import as_strided

from npu_opt.dialects.tfl.common import TFL
from npu_opt.interpreters.tfl.fixed_point import (
    multiply_by_quantized_multiplier, multiply_by_quantized_multiplier_wide, multiply_rounding_away,
    quantize_multipliers)
from npu_opt.interpreters.tfl.quantize import activation_float, activation_range, quant_of
from npu_opt.dialects.tfl.ops_conv import Conv2DOp, DepthwiseConv2DOp, FullyConnectedOp, TransposeConvOp
from npu_opt.ir.core import Operation
from npu_opt.ir.interpreter import fail, storage_dtype
from npu_opt.ir.types import QuantUniformType, Type, element_type_of


def int_attr(op: Operation, name: str, default: int = 1) -> int:
    """An integer attribute's value (``default`` when absent)."""
    attr = op.attr(name)
    if attr is None:
        return default
    return int(getattr(attr, "value", attr))


def str_attr(op: Operation, name: str, default: str = "NONE") -> str:
    """A string attribute's value (``default`` when absent)."""
    attr = op.attr(name)
    if attr is None:
        return default
    return str(getattr(attr, "value", attr))


def same_padding_before(size: int, out: int, kernel: int, stride: int, dilation: int,
                        padding: str) -> int:
    """Rows (or columns) of padding before the first input row under TFLite's SAME/VALID rules:
    half the total padding, the odd one going after."""
    if padding == "VALID":
        return 0
    effective = (kernel - 1) * dilation + 1
    return max((out - 1) * stride + effective - size, 0) // 2


def windows(x: np.ndarray, out_hw: tuple[int, int], kernel: tuple[int, int],
            stride: tuple[int, int], dilation: tuple[int, int]) -> np.ndarray:
    """A read-only (N, OH, OW, KH, KW, C) view of the padded NHWC ``x``: the input under each
    kernel tap of each output position."""
    n, _, _, c = x.shape
    sn, sh, sw, sc = x.strides
    shape = (n, out_hw[0], out_hw[1], kernel[0], kernel[1], c)
    strides = (sn, sh * stride[0], sw * stride[1], sh * dilation[0], sw * dilation[1], sc)
    return as_strided(x, shape=shape, strides=strides, writeable=False)


def pad_spatial(x: np.ndarray, before: tuple[int, int], needed: tuple[int, int],
                value: Any = 0) -> np.ndarray:
    """``x`` (NHWC) with ``before`` rows/columns of ``value`` in front and enough after for
    ``needed`` rows/columns in all."""
    n, h, w, c = x.shape
    after_h = max(needed[0] - before[0] - h, 0)
    after_w = max(needed[1] - before[1] - w, 0)
    if not any(before) and not after_h and not after_w:
        return x
    return np.pad(x, ((0, 0), (before[0], after_h), (before[1], after_w), (0, 0)),
                  constant_values=value)


def _is_quant(t: Type) -> bool:
    return isinstance(element_type_of(t), QuantUniformType)


def channel_params(op: Operation, weights_type: Type, channels: int) -> tuple[np.ndarray, np.ndarray]:
    """(scales, zero points) of the weights, one per output channel (a per-tensor quantisation
    repeated)."""
    q = element_type_of(weights_type)
    assert isinstance(q, QuantUniformType)
    scales = np.asarray(q.scales, dtype=np.float64)
    zeros = np.asarray(q.zero_points, dtype=np.int64)
    if q.axis is None or len(scales) == 1:
        return np.repeat(scales, channels), np.repeat(zeros, channels)
    if len(scales) != channels:
        raise fail(op, f"the weights hold {len(scales)} scales for {channels} output channels")
    return scales, zeros


def rescale(op: Operation, acc: np.ndarray, weight_scales: np.ndarray) -> np.ndarray:
    """The quantised output of accumulator ``acc`` (int64, channels last): per-channel multiplier,
    output zero point, fused-activation clamp, in the result's storage dtype."""
    out_type = op.results[0].type
    qi = quant_of(op, op_input(op).type, "input")
    qo = quant_of(op, out_type, "output")
    reals = np.float64(qi.scale) * weight_scales / np.float64(qo.scale)
    mantissas, exponents = quantize_multipliers(reals)
    if op.name == "tfl.fully_connected":
        scaled = multiply_rounding_away(acc, mantissas, exponents)
    elif qi.bits > 8:
        scaled = multiply_by_quantized_multiplier_wide(acc, mantissas, exponents)
    else:
        scaled = multiply_by_quantized_multiplier(acc, mantissas, exponents)
    low, high = activation_range(op, str_attr(op, "fused_activation_function"), qo)
    return np.clip(scaled + qo.zero, low, high).astype(storage_dtype(out_type))


def op_input(op: Operation) -> Any:
    """The activation operand of a MAC op (transpose_conv keeps it third)."""
    return op.operands[2] if op.name == "tfl.transpose_conv" else op.operands[0]


def finish_float(op: Operation, acc: np.ndarray) -> np.ndarray:
    """A float op's float64 accumulator as float32 with its fused activation. TFLite's float
    MAC kernels clamp for RELU-like activations and ignore a fused TANH or SIGN_BIT."""
    activation = str_attr(op, "fused_activation_function")
    out = acc.astype(np.float32)
    if activation in ("TANH", "SIGN_BIT"):
        return out
    return activation_float(op, activation, out)


def centred(op: Operation, x: np.ndarray) -> np.ndarray:
    """The op's activation input as float64, less its zero point when quantised."""
    t = op_input(op).type
    if _is_quant(t):
        return x.astype(np.float64) - quant_of(op, t, "input").zero
    return x.astype(np.float64)


def weights_centred(op: Operation, w: np.ndarray, channels: int, axis: int) -> np.ndarray:
    """The weights as float64, less their zero points (per output channel along ``axis``)."""
    t = op.operands[1].type
    if not _is_quant(t):
        return w.astype(np.float64)
    if not _is_quant(op_input(op).type):
        raise fail(op, f"float input with quantised weights ({element_type_of(t)}) is a hybrid op, "
                       f"which is not supported (quantised or float inputs and weights are)")
    _, zeros = channel_params(op, t, channels)
    if not zeros.any():
        return w.astype(np.float64)
    shape = [1] * w.ndim
    shape[axis] = channels
    return w.astype(np.float64) - zeros.reshape(shape)


def add_bias_and_finish(op: Operation, acc: np.ndarray, bias: np.ndarray | None,
                        channels: int) -> np.ndarray:
    """Exact sums ``acc`` (float64, channels last) plus the bias, rescaled (quantised) or rounded
    to float32 with the fused activation."""
    if not _is_quant(op.results[0].type):
        if bias is not None:
            acc = acc + bias.astype(np.float64)
        return finish_float(op, acc)
    total = np.rint(acc).astype(np.int64)
    if bias is not None:
        total = total + bias.astype(np.int64)
    scales, _ = channel_params(op, op.operands[1].type, channels)
    return rescale(op, total, scales)


def _spatial(op: Operation, x: np.ndarray, kernel: tuple[int, int],
             out_hw: tuple[int, int]) -> tuple[np.ndarray, tuple[int, int], tuple[int, int]]:
    """The zero-centred, padded input of a conv op and its (stride, dilation)."""
    stride = (int_attr(op, "stride_h"), int_attr(op, "stride_w"))
    dilation = (int_attr(op, "dilation_h_factor"), int_attr(op, "dilation_w_factor"))
    padding = str_attr(op, "padding", "VALID")
    before = tuple(same_padding_before(x.shape[1 + i], out_hw[i], kernel[i], stride[i],
                                       dilation[i], padding) for i in range(2))
    needed = tuple((out_hw[i] - 1) * stride[i] + (kernel[i] - 1) * dilation[i] + 1 for i in range(2))
    padded = pad_spatial(centred(op, x), before, needed)  # zero-centred: padding adds nothing
    return padded, stride, dilation


@TFL.kernel(Conv2DOp)
def conv_2d(op: Operation, args: list[Any]) -> list[np.ndarray]:
    """2-D convolution, grouped when the input is deeper than the filter: im2col and one matmul
    per group."""
    x, w, bias = args[0], args[1], args[2] if len(args) > 2 else None
    out_shape = op.results[0].type.shape
    out_c, kh, kw, depth = w.shape
    groups = x.shape[3] // depth
    padded, stride, dilation = _spatial(op, x, (kh, kw), out_shape[1:3])
    view = windows(padded, out_shape[1:3], (kh, kw), stride, dilation)
    weights = weights_centred(op, w, out_c, 0)
    rows = out_shape[0] * out_shape[1] * out_shape[2]
    per_group = out_c // groups
    acc = np.empty((rows, out_c), dtype=np.float64)
    for g in range(groups):
        cols = view[..., g * depth:(g + 1) * depth].reshape(rows, kh * kw * depth)
        wg = weights[g * per_group:(g + 1) * per_group].reshape(per_group, kh * kw * depth)
        acc[:, g * per_group:(g + 1) * per_group] = cols @ wg.T
    out = add_bias_and_finish(op, acc, bias, out_c)
    return [out.reshape(out_shape)]


@TFL.kernel(DepthwiseConv2DOp)
def depthwise_conv_2d(op: Operation, args: list[Any]) -> list[np.ndarray]:
    """Depthwise convolution: each input channel c feeds output channels c*M .. c*M+M-1; summed
    tap by tap over the kernel window."""
    x, w, bias = args[0], args[1], args[2] if len(args) > 2 else None
    out_shape = op.results[0].type.shape
    _, kh, kw, out_c = w.shape
    multiplier = out_c // x.shape[3]
    if multiplier * x.shape[3] != out_c:
        raise fail(op, f"the filter's {out_c} channels are not a multiple of the input's {x.shape[3]}")
    padded, stride, dilation = _spatial(op, x, (kh, kw), out_shape[1:3])
    if multiplier > 1:
        padded = np.repeat(padded, multiplier, axis=3)
    view = windows(padded, out_shape[1:3], (kh, kw), stride, dilation)
    weights = weights_centred(op, w, out_c, 3)[0]
    acc = np.zeros(tuple(out_shape), dtype=np.float64)
    for i in range(kh):
        for j in range(kw):
            acc += view[:, :, :, i, j, :] * weights[i, j]
    return [add_bias_and_finish(op, acc, bias, out_c)]


@TFL.kernel(FullyConnectedOp)
def fully_connected(op: Operation, args: list[Any]) -> list[np.ndarray]:
    """Rows of K input values times the [O, K] weights, plus the bias (DEFAULT weights only)."""
    fmt = str_attr(op, "weights_format", "DEFAULT")
    if fmt != "DEFAULT":
        raise fail(op, f"weights_format {fmt} is not supported (only DEFAULT is)")
    if len(op.results) != 1:
        raise fail(op, f"{len(op.results)} results given; only the single-result form is supported")
    x, w, bias = args[0], args[1], args[2] if len(args) > 2 else None
    out_c, depth = w.shape
    rows = centred(op, x).reshape(-1, depth)
    acc = rows @ weights_centred(op, w, out_c, 0).T
    out = add_bias_and_finish(op, acc, bias, out_c)
    return [out.reshape(op.results[0].type.shape)]


@TFL.kernel(TransposeConvOp)
def transpose_conv(op: Operation, args: list[Any]) -> list[np.ndarray]:
    """Transposed convolution: every input pixel times every filter tap, scattered into the
    output at stride spacing; the padding is that of the forward convolution from an input the
    size of this op's output."""
    w, x, bias = args[1], args[2], args[3] if len(args) > 3 else None
    out_shape = tuple(op.results[0].type.shape)
    out_c, kh, kw, depth = w.shape
    n, ih, iw, _ = x.shape
    stride = (int_attr(op, "stride_h"), int_attr(op, "stride_w"))
    padding = str_attr(op, "padding", "VALID")
    before = []
    for i, k in enumerate((kh, kw)):
        size = out_shape[1 + i]
        forward = -(-size // stride[i]) if padding == "SAME" else -(-(size - k + 1) // stride[i])
        before.append(same_padding_before(size, forward, k, stride[i], 1, padding))
    per_tap = weights_centred(op, w, out_c, 0).transpose(3, 1, 2, 0).reshape(depth, -1)
    taps = centred(op, x).reshape(-1, depth) @ per_tap
    taps = taps.reshape(n, ih, iw, kh, kw, out_c)
    full_h = max((ih - 1) * stride[0] + kh, before[0] + out_shape[1])
    full_w = max((iw - 1) * stride[1] + kw, before[1] + out_shape[2])
    acc = np.zeros((n, full_h, full_w, out_c), dtype=np.float64)
    for i in range(kh):
        for j in range(kw):
            acc[:, i:i + (ih - 1) * stride[0] + 1:stride[0],
                j:j + (iw - 1) * stride[1] + 1:stride[1]] += taps[:, :, :, i, j]
    acc = acc[:, before[0]:before[0] + out_shape[1], before[1]:before[1] + out_shape[2]]
    return [add_bias_and_finish(op, acc, bias, out_c)]
