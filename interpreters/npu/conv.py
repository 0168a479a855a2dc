"""Kernels of the NPU's MAC operations: conv2d, depthwise_conv2d, transpose_conv2d, vector_product,
computed exactly as the NPU accumulates and scales.

Design notes: docs/interpreter_design.md, section npu kernels: MAC operations (kernels/conv)."""
from __future__ import annotations

from typing import Any

import numpy as np

from npu_opt.dialects.npu.dialect import NPU
from npu_opt.interpreters.npu.arith import (
    explicit_rescale, finish, ifm_zero_point, per_channel, rescale, rounding_of, scale, target_quant,
)
from npu_opt.interpreters.npu.windows import input_window, sliding
from npu_opt.dialects.npu.ops_common import quant_of, storage_of
from npu_opt.dialects.npu.ops_conv import Conv2DOp, DepthwiseConv2DOp, TransposeConv2DOp, VectorProductOp
from npu_opt.dialects.npu.quant import quantise_scale, reduced_quantise_scale
from npu_opt.ir.core import Operation
from npu_opt.ir.interpreter import fail

Rows = tuple[int, int] | None


def _weights_centred(op: Operation, weights: np.ndarray, axis: int, channels: Rows) -> np.ndarray:
    """The weights minus their zero point(s) (per output channel on ``axis``), as float64."""
    q = quant_of(op.operands[1])
    w = np.asarray(weights, dtype=np.float64)
    if q is None or not any(q.zero_points):
        return w
    zps = per_channel(np.asarray(q.zero_points, dtype=np.float64), channels)
    shape = [1] * w.ndim
    shape[axis] = -1
    return w - (zps.reshape(shape) if zps.size > 1 else zps[0])


def scales_of(op: Operation, count: int, channels: Rows) -> tuple[np.ndarray, np.ndarray]:
    """Per-output-channel (multipliers, shifts) of the op's output rescale."""
    explicit = explicit_rescale(op)
    if explicit is not None:
        return np.full(count, explicit[0], dtype=np.int64), np.full(count, explicit[1], dtype=np.int64)
    ifm_scale, wq, out = scale(op.operands[0]), quant_of(op.operands[1]), target_quant(op)
    if ifm_scale is None or wq is None or out is None:
        return np.ones(count, dtype=np.int64), np.zeros(count, dtype=np.int64)
    w_scales = per_channel(np.asarray(wq.scales, dtype=np.float64), channels)
    out_scale = np.double(out.scales[0])
    if op.name == "npu.vector_product":  # Vela casts FullyConnected's product through float32
        reals = [np.double(np.float32(ifm_scale) * np.float32(s)) / out_scale for s in w_scales]
    else:
        reals = [np.double(ifm_scale) * np.double(s) / out_scale for s in w_scales]
    storage = storage_of(op.operands[0].type)
    bias_storage = storage_of(op.operands[2].type)
    reduced = storage is not None and storage.width == 16 and bias_storage is not None and bias_storage.width == 64
    pairs = [(reduced_quantise_scale if reduced else quantise_scale)(float(r)) for r in reals]
    if len(pairs) == 1:
        pairs = pairs * count
    return np.array([p[0] for p in pairs], dtype=np.int64), np.array([p[1] for p in pairs], dtype=np.int64)


def _zero_points(op: Operation, bias: np.ndarray) -> tuple[int, int | None]:
    """(IFM zero point subtracted, OFM zero point added or None for the target's)."""
    if rounding_of(op) == "away_zero":
        ifm_zp = ifm_zero_point(op.operands[0]) if np.any(bias) else 0
        return ifm_zp, 0
    return ifm_zero_point(op.operands[0]), None


def _output(op: Operation, acc: np.ndarray, args: list[Any], channels: Rows, ofm_zp: int | None) -> np.ndarray:
    """The output stage of a MAC op on its accumulators (last axis: output channels)."""
    count = acc.shape[-1]
    multipliers, shifts = scales_of(op, count, channels)
    scaled = rescale(acc, multipliers, shifts, rounding_of(op))
    return finish(op, scaled, args, ofm_zp)  # type: ignore[arg-type]


def _bias(args: list[Any], count: int) -> np.ndarray:
    bias = args[2]
    return np.zeros(count, dtype=np.int64) if bias is None else np.asarray(bias, dtype=np.int64)



def _ofm_hw(op: Operation, ofm_rows: Rows) -> tuple[int, int, int]:
    shape = op.results[0].type.shape  # type: ignore[attr-defined]
    first, last = ofm_rows if ofm_rows is not None else (0, shape[1])
    return shape[1], last - first, shape[2]


def _group_inputs(op: Operation, group: int, in_depth: int) -> slice | np.ndarray:
    """The IFM channels convolution group ``group`` reads: a slice when they are contiguous (no
    fold, or one group), else their indices in the weights' input order."""
    if isinstance(op, Conv2DOp) and op.width_fold is not None:
        return np.asarray(op.input_channels(group), dtype=np.intp)
    return slice(group * in_depth, (group + 1) * in_depth)


@NPU.kernel(Conv2DOp, TransposeConv2DOp)
def conv2d(op: Operation, args: list[Any], *, ofm_rows: Rows = None, ofm_channels: Rows = None) -> list[np.ndarray]:
    """Convolution (OHWI weights; grouped when the IFM is deeper than the weights' I, each group
    reading the channels ``Conv2DOp.input_channels`` gives: contiguous, or interleaved after a
    ``width_fold``), and the transpose convolution: a stride-1 convolution of the zero-inserted
    x2 IFM with the kernel rotated by 180 degrees (TensorFlow Lite's scatter form written as a
    gather)."""
    ifm, weights = np.asarray(args[0]), np.asarray(args[1])
    bias = _bias(args, weights.shape[0])
    ifm_zp, ofm_zp = _zero_points(op, bias)
    height, rows, width = _ofm_hw(op, ofm_rows)
    window = input_window(op, ifm.astype(np.float64) - ifm_zp, 0.0, ofm_rows, height)
    w = _weights_centred(op, weights, 0, ofm_channels)
    if op.name == "npu.transpose_conv2d":
        w = w[:, ::-1, ::-1, :]  # the NPU runs the kernel rotated by 180 degrees (as Vela encodes it)
    out_channels, _, _, in_depth = w.shape
    groups = ifm.shape[3] // in_depth
    if groups * in_depth != ifm.shape[3]:
        raise fail(op, f"the IFM depth {ifm.shape[3]} is not a multiple of the weights' input depth {in_depth}")
    c0 = ofm_channels[0] if ofm_channels is not None else 0
    total_out = op.results[0].type.shape[3]  # type: ignore[attr-defined]
    per_group = max(total_out // groups, 1)
    kernel = op.kernel  # type: ignore[attr-defined]
    acc = np.zeros((ifm.shape[0], rows, width, out_channels), dtype=np.float64)
    channel_group = (np.arange(out_channels) + c0) // per_group
    for group in np.unique(channel_group):
        outs = np.nonzero(channel_group == group)[0]
        ins = _group_inputs(op, int(group), in_depth)
        for (ky, kx), view in sliding(window, kernel, rows, width):
            acc[..., outs] += view[..., ins] @ w[outs, ky, kx, :].T
    return [_output(op, acc.astype(np.int64) + bias, args, ofm_channels, ofm_zp)]


@NPU.kernel(DepthwiseConv2DOp)
def depthwise_conv2d(op: Operation, args: list[Any], *, ofm_rows: Rows = None,
                     ofm_channels: Rows = None) -> list[np.ndarray]:
    """Depthwise convolution (1HWC weights): each channel with its own kernel."""
    ifm, weights = np.asarray(args[0]), np.asarray(args[1])
    bias = _bias(args, weights.shape[3])
    ifm_zp, ofm_zp = _zero_points(op, bias)
    if ofm_channels is not None:
        ifm = ifm[..., ofm_channels[0]:ofm_channels[1]]
    height, rows, width = _ofm_hw(op, ofm_rows)
    window = input_window(op, ifm.astype(np.float64) - ifm_zp, 0.0, ofm_rows, height)
    w = _weights_centred(op, weights, 3, ofm_channels)[0]
    acc = np.zeros((ifm.shape[0], rows, width, w.shape[2]), dtype=np.float64)
    for (ky, kx), view in sliding(window, op.kernel, rows, width):  # type: ignore[attr-defined]
        acc += view * w[ky, kx]
    return [_output(op, acc.astype(np.int64) + bias, args, ofm_channels, ofm_zp)]


@NPU.kernel(VectorProductOp)
def vector_product(op: Operation, args: list[Any], *, ofm_rows: Rows = None,
                   ofm_channels: Rows = None) -> list[np.ndarray]:
    """Fully connected: every IFM pixel's K values times the [O, K] weights, plus the bias."""
    ifm, weights = np.asarray(args[0]), np.asarray(args[1])
    bias = _bias(args, weights.shape[0])
    ifm_zp = ifm_zero_point(op.operands[0])
    w = _weights_centred(op, weights, 0, ofm_channels)
    acc = (ifm.astype(np.float64) - ifm_zp) @ w.T
    return [_output(op, acc.astype(np.int64) + bias, args, ofm_channels, None)]


__all__ = ["conv2d", "depthwise_conv2d", "scales_of", "vector_product"]
