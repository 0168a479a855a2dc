"""What the support checks share: ``Reason``, the op lists the checks refer to, and the helpers
that word a reason (each names the offending value and the limit it breaks)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

from npu_opt.ir.core import Value
from npu_opt.ir.types import QuantUniformType, element_type_of
from npu_opt.passes.npu_lowering.view import BINARY, View


@dataclass(frozen=True)
class Reason:
    """Why an op stays on the CPU: a statistics key and the message."""

    key: str
    message: str


LOWERED = (
    "tfl.conv_2d", "tfl.depthwise_conv_2d", "tfl.transpose_conv", "tfl.fully_connected",
    "tfl.average_pool_2d", "tfl.max_pool_2d", "tfl.add", "tfl.sub", "tfl.mul", "tfl.minimum",
    "tfl.maximum", "tfl.relu", "tfl.relu6", "tfl.relu_n1_to_1", "tfl.relu_0_to_1", "tfl.tanh",
    "tfl.logistic", "tfl.hard_swish", "tfl.leaky_relu", "tfl.softmax", "tfl.mean", "tfl.pad",
    "tfl.concatenation", "tfl.resize_nearest_neighbor", "tfl.resize_bilinear", "tfl.reshape", "tfl.squeeze",
    "tfl.expand_dims", "tfl.quantize", "tfl.abs", "tfl.split", "tfl.split_v", "tfl.slice", "tfl.strided_slice",
    "tfl.unpack", "tfl.exp", "tfl.rsqrt", "tfl.squared_difference", "tfl.shape",
)
"""The tfl ops npu-legalize lowers (when their checks pass)."""

VELA_ONLY = (
    "tfl.pack", "tfl.transpose", "tfl.arg_max",
)
"""Ops Vela 5.2 can place on the NPU that npu-legalize does not lower yet."""

MEMORY_ONLY = ("tfl.reshape", "tfl.squeeze", "tfl.expand_dims")
RELU_OPS = ("tfl.relu", "tfl.relu6", "tfl.relu_n1_to_1", "tfl.relu_0_to_1")
CONV_OPS = ("tfl.conv_2d", "tfl.depthwise_conv_2d", "tfl.transpose_conv")
POOL_OPS = ("tfl.average_pool_2d", "tfl.max_pool_2d")
UNARY_ELEMENTWISE = ("tfl.abs", "tfl.exp", "tfl.rsqrt", "tfl.leaky_relu")
SHAPELESS_INPUT_OPS = BINARY + ("tfl.split", "tfl.split_v", "tfl.mean", "tfl.expand_dims", "tfl.quantize",
                                "tfl.arg_max")
INT32_OPS = ("tfl.add", "tfl.mul", "tfl.sub", "tfl.arg_max", "tfl.transpose", "tfl.shape")
BATCH_EXEMPT = ("tfl.fully_connected", "tfl.softmax", "tfl.reshape", "tfl.shape", "tfl.squeeze", "tfl.split",
                "tfl.split_v", "tfl.strided_slice", "tfl.slice", "tfl.unpack")
PER_AXIS_OPS = CONV_OPS + ("tfl.fully_connected",)
FAF_ALLOWED = ("RELU", "RELU6", "RELU_N1_TO_1", "RELU_0_TO_1", "TANH")

# operator lists quoted in reasons (TFLite operator names)
OP_DTYPES = "int16, int32, int8, uint8"
INT32_OP_NAMES = "ADD, ARG_MAX, MIRROR_PAD, MUL, SHAPE, SUB, TRANSPOSE"
PER_AXIS_NAMES = "CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, TRANSPOSE_CONV"
FAF_NAMES = "LOGISTIC, RELU, RELU6, RELU_0_TO_1, RELU_N1_TO_1, TANH"
SHAPELESS_NAMES = "ADD, ARG_MAX, EXPAND_DIMS, MAXIMUM, MEAN, MINIMUM, MUL, QUANTIZE, SPLIT, SPLIT_V, SUB"

Check = Callable[[View], Iterator[Reason]]


def reason(key: str, message: str) -> Reason:
    """A Reason for statistics key ``key``; ``message`` names the offending value and the limit."""
    return Reason(key, message)


def fmt_quant(value: Value | None) -> str:
    """A tensor's quantisation as a reason quotes it: ``scale 0.5, zero point 3``."""
    elem = element_type_of(value.type) if value is not None else None
    if not isinstance(elem, QuantUniformType):
        return "no quantisation"
    if elem.is_per_axis:
        return f"per-axis scales {list(elem.scales)}, zero points {list(elem.zero_points)}"
    return f"scale {elem.scales[0]:g}, zero point {elem.zero_points[0]}"


def role_name(view: View, value: Value) -> str:
    """How a tensor is named in a message: its role in the op."""
    for role in ("ifm", "ifm2", "weights", "bias", "ofm"):
        if getattr(view, role) is value:
            return role.upper() if role in ("ifm", "ifm2", "ofm") else role
    for index, operand in enumerate(view.op.operands):
        if operand is value:
            return f"operand #{index}"
    return "tensor"


def fmt_shape(shape: list[int] | None) -> str:
    """A shape as a reason quotes it: ``[1, ?, 4, 8]`` (``?`` for a dynamic dimension)."""
    if shape is None:
        return "unranked"
    return "[" + ", ".join("?" if d < 0 else str(d) for d in shape) + "]"


__all__ = ["BATCH_EXEMPT", "BINARY", "CONV_OPS", "FAF_ALLOWED", "INT32_OPS", "LOWERED", "MEMORY_ONLY",
           "PER_AXIS_OPS", "POOL_OPS", "Reason", "SHAPELESS_INPUT_OPS", "UNARY_ELEMENTWISE", "VELA_ONLY", "fmt_quant",
           "fmt_shape", "reason", "role_name"]
