"""Kernels of tfl's 2-D pooling ops: average_pool_2d and max_pool_2d.

Pooling keeps the input's quantisation (TFLite requires the output's to equal it), so no rescale:
a quantised average is the integer sum of the window's stored values divided by the number of
positions inside the input (padding does not count), rounded half away from zero as TFLite's
``(sum +- count / 2) / count`` in C integer division does; a maximum is the largest stored value.
Both are then clamped to the fused activation's range. Float averages sum in float64 and round
once to float32.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from npu_opt.dialects.tfl.common import TFL
from npu_opt.interpreters.tfl.conv import pad_spatial, same_padding_before, str_attr, int_attr, windows
from npu_opt.interpreters.tfl.quantize import activation_float, activation_range, quant_of
from npu_opt.dialects.tfl.ops_conv import AveragePool2DOp, MaxPool2DOp
from npu_opt.ir.core import Operation
from npu_opt.ir.interpreter import storage_dtype
from npu_opt.ir.types import QuantUniformType, element_type_of


def _geometry(op: Operation, x: np.ndarray) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int],
                                                      tuple[int, int], tuple[int, int]]:
    """(output size, kernel, stride, padding before, padded size needed) of a pooling op."""
    out_hw = tuple(op.results[0].type.shape[1:3])
    kernel = (int_attr(op, "filter_height"), int_attr(op, "filter_width"))
    stride = (int_attr(op, "stride_h"), int_attr(op, "stride_w"))
    padding = str_attr(op, "padding", "VALID")
    before = tuple(same_padding_before(x.shape[1 + i], out_hw[i], kernel[i], stride[i], 1, padding)
                   for i in range(2))
    needed = tuple((out_hw[i] - 1) * stride[i] + kernel[i] for i in range(2))
    return out_hw, kernel, stride, before, needed  # type: ignore[return-value]


def _finish(op: Operation, values: np.ndarray) -> np.ndarray:
    """Clamp a pooled result to the fused activation and store it in the result dtype."""
    out_type = op.results[0].type
    activation = str_attr(op, "fused_activation_function")
    if isinstance(element_type_of(out_type), QuantUniformType):
        low, high = activation_range(op, activation, quant_of(op, out_type, "output"))
        return np.clip(values, low, high).astype(storage_dtype(out_type))
    return activation_float(op, activation, values.astype(np.float32))


def _window_sum(padded: np.ndarray, out_hw: tuple[int, int], kernel: tuple[int, int],
                stride: tuple[int, int]) -> np.ndarray:
    """Sum over each pooling window, tap by tap (keeps memory at one output's size)."""
    view = windows(padded, out_hw, kernel, stride, (1, 1))
    total = np.zeros(view.shape[:3] + view.shape[5:], dtype=padded.dtype)
    for i in range(kernel[0]):
        for j in range(kernel[1]):
            total += view[:, :, :, i, j, :]
    return total


@TFL.kernel(AveragePool2DOp)
def average_pool_2d(op: Operation, args: list[Any]) -> list[np.ndarray]:
    """Average over each window's positions inside the input."""
    x = args[0]
    out_hw, kernel, stride, before, needed = _geometry(op, x)
    quantised = isinstance(element_type_of(op.results[0].type), QuantUniformType)
    work = np.int64 if quantised else np.float64
    sums = _window_sum(pad_spatial(x.astype(work), before, needed), out_hw, kernel, stride)
    inside = np.ones((1, x.shape[1], x.shape[2], 1), dtype=np.int64)
    counts = _window_sum(pad_spatial(inside, before, needed), out_hw, kernel, stride)
    if quantised:
        half = counts // 2
        magnitude = (np.abs(sums) + half) // counts
        return [_finish(op, np.where(sums > 0, magnitude, -magnitude))]
    return [_finish(op, sums / counts)]


@TFL.kernel(MaxPool2DOp)
def max_pool_2d(op: Operation, args: list[Any]) -> list[np.ndarray]:
    """Largest value of each window's positions inside the input."""
    x = args[0]
    out_hw, kernel, stride, before, needed = _geometry(op, x)
    lowest = np.iinfo(x.dtype).min if x.dtype.kind in "iu" else -np.inf
    view = windows(pad_spatial(x, before, needed, lowest), out_hw, kernel, stride, (1, 1))
    return [_finish(op, view.max(axis=(3, 4)))]
