"""Which tfl ops the NPU can run: Vela 5.2's semantic checks (``tflite_model_semantic.py``) and
supported-operator checks (``tflite_supported_operators.py``), in Vela's order.

``check(op, options)`` returns None when the op goes to the NPU, else a ``Reason``: a short key
(for statistics) and the message of the first constraint the op violates, worded as Vela's
constraint with the values that violate it. Ops Vela runs on the NPU but npu-opt does not lower
yet get the key ``unimplemented``; operators Vela never runs on the NPU get ``cpu-only-op``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Iterator

import numpy as np

from ir.core import Operation, Value
from ir.types import NoneType, RankedTensorType
from passes.npu_lowering.view import (
    BINARY, View, builtin_name, constant, dtype_name, quant, scaling_equal, shape4, shape_list, view_of,
)


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
    "tfl.concatenation", "tfl.resize_nearest_neighbor", "tfl.reshape", "tfl.squeeze",
    "tfl.expand_dims", "tfl.quantize",
)
"""The tfl ops npu-legalize lowers (when their checks pass)."""

VELA_ONLY = (
    "tfl.abs", "tfl.exp", "tfl.rsqrt", "tfl.squared_difference", "tfl.pack", "tfl.unpack", "tfl.split",
    "tfl.split_v", "tfl.slice", "tfl.strided_slice", "tfl.transpose", "tfl.arg_max", "tfl.resize_bilinear",
    "tfl.shape",
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

# constraint texts shared by several checks (Vela's docstrings, values filled in)
OP_DTYPES = "int16, int32, int8, uint8"
INT32_OP_NAMES = "ADD, ARG_MAX, MIRROR_PAD, MUL, SHAPE, SUB, TRANSPOSE"
PER_AXIS_NAMES = "CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, TRANSPOSE_CONV"
FAF_NAMES = "LOGISTIC, RELU, RELU6, RELU_0_TO_1, RELU_N1_TO_1, TANH"
SHAPELESS_NAMES = "ADD, ARG_MAX, EXPAND_DIMS, MAXIMUM, MEAN, MINIMUM, MUL, QUANTIZE, SPLIT, SPLIT_V, SUB"

Check = Callable[[View], Iterator[Reason]]


def _r(key: str, text: str, detail: str = "") -> Reason:
    return Reason(key, f"{text}{' (' + detail + ')' if detail else ''}")


def _vname(view: View, value: Value) -> str:
    """How a tensor is named in a message: its role in the op."""
    for role in ("ifm", "ifm2", "weights", "bias", "ofm"):
        if getattr(view, role) is value:
            return role.upper() if role in ("ifm", "ifm2", "ofm") else role
    for index, operand in enumerate(view.op.operands):
        if operand is value:
            return f"operand #{index}"
    return "tensor"


def _fmt(shape: list[int] | None) -> str:
    return "[" + ", ".join(str(d) for d in shape) + "]" if shape is not None else "unranked"


# ---------------------------------------------------------------------------------------------
# Semantic checks (tflite_model_semantic.py): generic ones first
def semantic_generic(view: View) -> Iterator[Reason]:
    op = view.op
    tensors = [v for v in op.operands if not isinstance(v.type, NoneType)] + list(op.results)
    for value in tensors:
        shape = shape_list(value)
        if shape == [] and constant(value) is None and op.name != "tfl.quantize":
            yield _r("dynamic-tensor", "Input(s) and Output tensors must not be dynamic",
                     f"{_vname(view, value)} is a non-constant scalar")
    for value in tensors:
        shape = shape_list(value)
        if shape is None or any(d < 0 for d in shape):
            yield _r("undefined-shape", "Input(s) and Output tensors must have a defined shape",
                     f"{_vname(view, value)} has shape {_fmt(shape)}")
    if view.ofm is not None and shape_list(view.ofm) == [] and op.name != "tfl.quantize":
        yield _r("scalar-output", "Output tensors cannot be scalar")
    for value in op.operands:
        if shape_list(value) == [] and op.name not in SHAPELESS_INPUT_OPS:
            yield _r("scalar-input", f"Scalar Input tensors are only valid for op type: {SHAPELESS_NAMES}",
                     f"{_vname(view, value)} is scalar")
    for value in tensors:
        shape = shape_list(value)
        if shape is not None and len(shape) > 4:
            yield _r("rank", "Input(s) and Output tensors must not be greater than 4D",
                     f"{_vname(view, value)} has shape {_fmt(shape)}")
    if op.name not in ("tfl.shape", "tfl.arg_max", "tfl.transpose"):
        for value in view.checked:
            if quant(value) is None:
                yield _r("no-quantization", "Input(s), Output and Weight tensors must have quantization parameters",
                         f"{_vname(view, value)} has type {dtype_name(value)} without quantization")
    ofm_q, ifm_q = quant(view.ofm), quant(view.ifm)
    if ofm_q is not None:
        tiny = float(np.finfo(np.float32).tiny)
        if min(ofm_q.scales) < tiny:
            yield _r("quant-scale", "Input and Output tensors must have quantization scales that fit within "
                     "float32 precision", f"OFM scale {min(ofm_q.scales)}, minimum {tiny}")
        if ifm_q is not None and any(math.isinf(np.float32(s) / np.float32(min(ofm_q.scales)))
                                     for s in ifm_q.scales):
            yield _r("quant-scale", "Input and Output tensors must have quantization scales that fit within "
                     "float32 precision", "IFM scale divided by OFM scale is infinite")


def _same_dtype(view: View, a: Value | None, b: Value | None, text: str, key: str = "dtype-mismatch") -> Iterator[Reason]:
    if a is not None and b is not None and dtype_name(a) != dtype_name(b):
        yield _r(key, text, f"{dtype_name(a)} and {dtype_name(b)}")


def semantic_specific(view: View) -> Iterator[Reason]:
    op, name = view.op, view.op.name
    ifm, ofm = view.ifm, view.ofm
    if name == "tfl.conv_2d" and ifm is not None and view.weights is not None:
        ifm_depth, w = shape_list(ifm)[-1], shape_list(view.weights)
        if w is not None and ifm_depth % w[3]:
            yield _r("conv-groups", "IFM depth must be a whole multiple of the filter kernel depth",
                     f"IFM depth {ifm_depth}, filter kernel depth {w[3]}")
        elif w is not None and w[0] % (ifm_depth // w[3]):
            yield _r("conv-groups", "Number of filter kernels must be equally divisible by the number of "
                     "convolution groups", f"{w[0]} filter kernels, {ifm_depth // w[3]} groups")
    if name in POOL_OPS or name in UNARY_ELEMENTWISE or name in ("tfl.minimum", "tfl.maximum", "tfl.hard_swish",
                                                                 "tfl.softmax"):
        yield from _same_dtype(view, ifm, ofm, "IFM and OFM data types must match")
    if name == "tfl.concatenation":
        rank = len(shape_list(ofm) or [])
        axis = int(view.attr("axis", 0))  # type: ignore[arg-type]
        axis_n = axis + rank if axis < 0 else axis
        if not 0 <= axis_n < rank:
            yield _r("concat-axis", "Axis attribute must be in the range [0, <ofm_dimensions>)", f"axis {axis}")
    if name in BINARY or name in UNARY_ELEMENTWISE:
        out = shape_list(ofm)
        if shape_list(ifm) != out and (view.ifm2 is None or shape_list(view.ifm2) != out):
            yield _r("broadcast", "At least one Input's shape must match the OFM's shape",
                     f"IFM {_fmt(shape_list(ifm))}, IFM2 {_fmt(shape_list(view.ifm2))}, OFM {_fmt(out)}")
    if name in ("tfl.add", "tfl.sub", "tfl.mul"):
        yield from _same_dtype(view, ifm, view.ifm2, "Both Input data types must match")
        a, o = dtype_name(ifm), dtype_name(ofm)
        if a.startswith("int") and not o.startswith("int"):
            yield _r("dtype-mismatch", "For IFM that are signed, OFM must also be signed", f"IFM {a}, OFM {o}")
        if a.startswith("uint") and o not in (a, "int32"):
            yield _r("dtype-mismatch", "For IFM that are unsigned, OFM must either be the same type or int32",
                     f"IFM {a}, OFM {o}")
    if name in MEMORY_ONLY:
        if not scaling_equal(ifm, ofm):
            yield _r("quant-mismatch", "Input and output quantisation must match.")
    if name == "tfl.softmax":
        if shape_list(ifm) != shape_list(ofm):
            yield _r("shape-mismatch", "IFM and OFM shapes must match")
        beta = float(view.attr("beta", 1.0))  # type: ignore[arg-type]
        if beta < 0:
            yield _r("softmax-beta", "Beta value needs to be positive", f"beta {beta}")
    if name == "tfl.fully_connected" and ifm is not None and view.weights is not None:
        depth = shape_list(view.weights)[-1]
        elements = int(np.prod(shape_list(ifm)))
        if len(shape_list(ifm)) == 1 or elements % depth:
            yield _r("fc-shape", "The output tensor(s) must have 2D shape",
                     f"IFM {_fmt(shape_list(ifm))} cannot be reshaped to rows of {depth}")
        if view.attr("keep_num_dims") and len(shape_list(ifm)) != len(shape_list(ofm)):
            yield _r("fc-shape", "The IFM and OFM must have the same number of dimensions if keep_num_dims "
                     "is set to true")
    if name == "tfl.pad":
        pads = constant(op.operands[1])
        if pads is None:
            yield _r("non-constant", "The padding tensor must be constant")
    if name == "tfl.hard_swish" and dtype_name(ifm) not in ("int8", "uint8"):
        yield _r("dtype", "IFM must be int8 or uint8", f"IFM {dtype_name(ifm)}")
    if name == "tfl.mean":
        yield from _mean_semantic(view)


def _mean_semantic(view: View) -> Iterator[Reason]:
    shape = shape_list(view.ifm) or []
    if not 2 <= len(shape) <= 4:
        yield _r("mean-axis", "Input tensor must be at least 2D", f"input is {len(shape)}D")
        return
    axes = constant(view.op.operands[1])
    if axes is None:
        yield _r("non-constant", "Axis tensor must be constant")
        return
    for ax in [int(a) for a in np.reshape(axes, -1)]:
        if not 0 <= ax < len(shape):
            yield _r("mean-axis", "Axis parameter is out of bounds", f"axis {ax}, {len(shape)}D input")
            return
        if len(shape) == 4 and ax == 0 and shape[0] != 1:
            yield _r("mean-axis", "Reduction in Batch axis is only supported if batch size is 1")
            return
        if ax == len(shape) - 1 and len(shape) >= 3 and not any(s == 1 for s in shape[-3:]):
            yield _r("mean-axis", "Reduction in Depth axis is supported if at least one of H,W,C are of size 1",
                     f"shape {_fmt(shape)}")
            return


# ---------------------------------------------------------------------------------------------
# Supported-operator checks (tflite_supported_operators.py): generic ones first
def supported_generic(view: View) -> Iterator[Reason]:
    op = view.op
    for value in view.checked:
        if dtype_name(value) not in OP_DTYPES.split(", "):
            yield _r("dtype", f"Tensors must be of type: {OP_DTYPES}", f"{_vname(view, value)} is {dtype_name(value)}")
    for value in view.checked:
        if dtype_name(value) == "int32" and op.name not in INT32_OPS:
            yield _r("int32", f"Tensors which are int32 are only valid when op type is: {INT32_OP_NAMES}",
                     f"{_vname(view, value)} is int32")
    for value in view.checked:
        shape = shape_list(value) or []
        if not all(1 <= d <= 65535 for d in shape):
            yield _r("dimension", "Tensor dimensions must be in the range [1, 65535]",
                     f"{_vname(view, value)} has shape {_fmt(shape)}")
    if op.name not in PER_AXIS_OPS:
        for value in [t for t in (view.ifm, view.ifm2, view.weights, view.ofm) if t is not None]:
            q = quant(value)
            if q is not None and q.is_per_axis:
                yield _r("per-axis-quantization", f"Per-axis quantization is only supported for the following op "
                         f"types: {PER_AXIS_NAMES}", f"{_vname(view, value)} is quantised per axis")
    if op.name not in BATCH_EXEMPT:
        for value in (view.ifm, view.ifm2):
            shape = shape_list(value)
            if shape and len(shape) <= 4 and shape4(shape)[0] != 1:
                yield _r("batch", "IFM Tensor batch size must be 1", f"{_vname(view, value)} has batch size "
                         f"{shape4(shape)[0]}")
    faf = view.faf()
    if faf is not None and faf not in FAF_ALLOWED:
        yield _r("fused-activation", f"The fused activation function (if present) must be one of type: {FAF_NAMES}",
                 f"it is {faf}")
    if faf is not None and dtype_name(view.ofm) not in ("int16", "int8", "uint8"):
        yield _r("fused-activation", "If a fused activation function is present, the Output tensor must be one "
                 "of type: int16, int8, uint8", f"OFM is {dtype_name(view.ofm)}")


def _stride(view: View) -> tuple[int, int]:
    return int(view.attr("stride_w", 1)), int(view.attr("stride_h", 1))  # type: ignore[arg-type]


def resize_factor(ifm_width: int, stride: int) -> tuple[int, int]:
    """Vela's ``calc_resize_factor``: the factor a strided convolution's IFM width can be folded
    into its depth by, and the stride that remains."""
    factor = stride
    if ifm_width % factor:
        divisible = [s for s in (2, 3) if factor % s == 0]
        divisors = [s for s in divisible if ifm_width % (stride // s) == 0]
        new_factor = factor // (divisors[0] if divisors else 1)
        factor = new_factor if factor != new_factor else 1
    return factor, stride // factor


def _stride_no_upper_limit(view: View) -> Iterator[Reason]:
    stride_w, stride_h = _stride(view)
    ifm_w = shape4(shape_list(view.ifm))[2]
    ofm = shape4(shape_list(view.ofm))
    h_ok = ofm[1] == 1 or 1 <= stride_h <= 3
    optimized = resize_factor(ifm_w, stride_w)[1] if stride_w > 1 else stride_w
    w_ok = ofm[2] == 1 or (1 <= stride_w and optimized <= 3)
    if not (h_ok and w_ok):
        yield _r("stride", "Stride h must be between 1 and 3 when ofm height is greater than 1, and stride w must be "
                 "between 1 and 3 when ofm width is greater than 1 or divisible by 2 or 3 with the ifm width "
                 "divisible by stride_w/2 or stride_w/3", f"stride WxH {stride_w}x{stride_h}, IFM "
                 f"{_fmt(shape_list(view.ifm))}, OFM {_fmt(shape_list(view.ofm))}")


def _conv_like(view: View) -> Iterator[Reason]:
    op = view.op
    w = shape_list(view.weights) or [1, 1, 1, 1]
    if op.name == "tfl.transpose_conv":
        kh, kw, dh, dw = w[1], w[2], 1, 1
    else:
        kh, kw = w[1], w[2]
        dh, dw = int(view.attr("dilation_h_factor", 1)), int(view.attr("dilation_w_factor", 1))  # type: ignore[arg-type]
    area_h, area_w = (kh - 1) * dh + 1, (kw - 1) * dw + 1
    if not 1 <= area_h <= 64:
        yield _r("kernel", "Dilated kernel height must be in the range [1, 64]", f"dilated kernel height {area_h}")
    if not 1 <= area_h * area_w <= 4096:
        yield _r("kernel", "Product of dilated kernel width and height must be in the range [1, 4096]",
                 f"product {area_h * area_w}")
    yield from _weights_and_bias(view)
    if op.name == "tfl.conv_2d" or op.name == "tfl.depthwise_conv_2d":
        weights = constant(view.weights)
        q = quant(view.weights)
        if weights is not None and q is not None and dtype_name(view.ifm) in ("int8", "int16") \
                and any(z != 0 for z in q.zero_points):
            yield _r("asymmetric-weights", "Weights must be symmetric (zero point 0) for int8 and int16 IFMs "
                     "(Vela: --force-symmetric-int-weights)")


def _weights_and_bias(view: View, limit: bool = True) -> Iterator[Reason]:
    weights = view.weights
    if weights is not None and dtype_name(weights) not in ("int8", "uint8"):
        yield _r("weights", "Weight tensor must be 8-bit", f"weights are {dtype_name(weights)}")
    values = constant(weights)
    if weights is not None and values is None:
        yield _r("weights", "Weight tensor must be constant")
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
            yield _r("weights", "The sum of the weights cannot exceed 8323072", f"sum of weights {total}")
    bias = view.bias
    if bias is not None:
        if len(shape_list(bias) or []) != 1:
            yield _r("bias", "Optional Bias tensor must be of shape: 1D", f"bias shape {_fmt(shape_list(bias))}")
        if dtype_name(bias) not in ("int32", "int64"):
            yield _r("bias", "Optional Bias tensor must be of type: int32, int64", f"bias is {dtype_name(bias)}")
        values = constant(bias)
        if dtype_name(bias) == "int64" and values is not None and any(len(bin(int(v))[2:]) > 40 for v in values.reshape(-1)):
            yield _r("bias", "Optional Bias tensor values must fit within 40-bits")


def _tconv(view: View) -> Iterator[Reason]:
    stride_w, stride_h = _stride(view)
    w = shape_list(view.weights)
    ifm, ofm = shape4(shape_list(view.ifm)), shape4(shape_list(view.ofm))
    kh, kw = w[1], w[2]
    ok = (stride_w, stride_h) in ((1, 1), (2, 2)) or (stride_w == 2 and stride_h == 1 and ifm[1] == 1 and kh == 1)
    if not ok:
        yield _r("stride", "Stride values WxH must be 1x1 or 2x2, or 2x1 if ifm height and kernel height are 1",
                 f"stride WxH {stride_w}x{stride_h}, IFM height {ifm[1]}, kernel height {kh}")
    padding = view.attr("padding")
    if padding == "SAME" and (ofm[1] != ifm[1] * stride_h or ofm[2] != ifm[2] * stride_w):
        yield _r("shape", "SAME padding: OFM dimensions must equal IFM dimensions multiplied by stride",
                 f"IFM {_fmt(list(ifm))}, OFM {_fmt(list(ofm))}")
    if padding == "VALID" and (ofm[1] != ifm[1] * stride_h + max(kh - stride_h, 0)
                               or ofm[2] != ifm[2] * stride_w + max(kw - stride_w, 0)):
        yield _r("shape", "VALID padding: OFM dimensions must equal IFM dimensions multiplied by stride, minus "
                 "difference between kernel size and stride", f"IFM {_fmt(list(ifm))}, OFM {_fmt(list(ofm))}")


def pool_strides(view: View) -> tuple[int, int, str]:
    """Strides and padding after Vela's ``fixup_pool_strides`` (a window as large as the IFM,
    stepping by itself, becomes stride 1 VALID)."""
    stride_w, stride_h = _stride(view)
    kh, kw = int(view.attr("filter_height", 1)), int(view.attr("filter_width", 1))  # type: ignore[arg-type]
    ifm = shape4(shape_list(view.ifm))
    padding = str(view.attr("padding", "VALID"))
    if kw == stride_w == ifm[2] and kh == stride_h == ifm[1]:
        return 1, 1, "VALID"
    return stride_w, stride_h, padding


def _pool(view: View) -> Iterator[Reason]:
    stride_w, stride_h, padding = pool_strides(view)
    kh, kw = int(view.attr("filter_height", 1)), int(view.attr("filter_width", 1))  # type: ignore[arg-type]
    if view.op.name == "tfl.max_pool_2d":
        if not (1 <= stride_w <= 3 and 1 <= stride_h <= 3):
            yield _r("stride", "Stride values for both width and height must be in the range [1, 3]",
                     f"stride WxH {stride_w}x{stride_h}")
        if not 1 <= kh <= 256:
            yield _r("kernel", "Kernel filter height must be in the range [1, 256]", f"filter height {kh}")
        if not 1 <= kh * kw <= 65536:
            yield _r("kernel", "Product of kernel filter width and height must be in the range [1, 65536]",
                     f"product {kh * kw}")
        return
    yield from _stride_no_upper_limit(_FixedStrides(view, stride_w, stride_h))
    if padding != "VALID" and stride_w > 3:
        yield _r("stride", "For stride width greater than 3, valid padding needs to be used",
                 f"stride width {stride_w}, padding {padding}")
    if padding == "SAME" and not ((1 <= kw <= 8 or stride_w == kw) and 1 <= kh <= 8):
        yield _r("kernel", "Kernel filter values for both width and height must be in the range [1, 8]",
                 f"filter WxH {kw}x{kh}")
    if padding == "VALID" and not 1 <= kh <= 256:
        yield _r("kernel", "VALID padding: Kernel filter height must be in the range [1, 256]", f"filter height {kh}")
    if padding == "VALID" and not 1 <= kh * kw <= 65536:
        yield _r("kernel", "VALID padding: Product of kernel filter width and height must be in the range "
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
            yield _r("broadcast", "Broadcasting is only allowed for rank indices with dimension 1, from either IFM1 "
                     "or IFM2", f"IFM {_fmt(a)}, IFM2 {_fmt(b)}")
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
        yield _r("resize", "The width and height of the IFM and OFM must be equal, or the IFM 1x1, or the OFM 1x, 2x, "
                 "4x or 8x the IFM (minus one with align_corners) with equal factors",
                 f"IFM {_fmt(ifm)}, OFM {_fmt(ofm)}, align_corners {align}")
    size = constant(view.op.operands[1])
    if size is None or size.size != 2 or list(size.reshape(-1)) != ofm[1:3]:
        yield _r("resize", "The size tensor must match the output tensor shape")
    if align and view.attr("half_pixel_centers", False):
        yield _r("resize", "Both align_corners and half_pixel_centers can't be True")


def _pad(view: View) -> Iterator[Reason]:
    pads = view.op.operands[1]
    shape = shape_list(pads)
    if shape not in ([3, 2], [4, 2]):
        yield _r("pad", "The padding tensor must have the shape [3,2] or [4,2]", f"shape {_fmt(shape)}")
        return
    if dtype_name(pads) not in ("int32", "int64"):
        yield _r("pad", "Pad tensor must be of type: int32, int64", f"it is {dtype_name(pads)}")
    values = constant(pads)
    if values is not None and len(values) > 3 and int(values[0].sum()) != 0:
        yield _r("pad", "The pad tensor can only pad height, width and depth", f"batch padding {list(values[0])}")


def _mean(view: View) -> Iterator[Reason]:
    shape = shape_list(view.ifm)
    axes = [int(a) for a in np.reshape(constant(view.op.operands[1]), -1)]
    prod = int(np.prod([shape[a] for a in axes]))
    dtype = dtype_name(view.ifm)
    limit = {"int16": 1 << 16, "uint8": 1 << 23}.get(dtype, 1 << 24)
    if prod > limit:
        yield _r("mean-size", f"Product of reduced axes must be no greater than {limit} for {dtype} inputs",
                 f"product {prod}")
    hi = 0 if len(shape) < 4 else 1
    if shape[hi + 1] > 4096:
        yield _r("mean-size", "If Width axis is reduced its shape must be no greater than 4096",
                 f"width {shape[hi + 1]}")
    if len(shape) - 1 in axes and shape[-1] > 4096:
        yield _r("mean-size", "If Depth axis is reduced its shape must be no greater than 4096", f"depth {shape[-1]}")


def _reshape(view: View) -> Iterator[Reason]:
    if len(view.op.operands) > 1 and constant(view.op.operands[1]) is None:
        yield _r("non-constant", "Shape must be constant")


def _softmax(view: View) -> Iterator[Reason]:
    s = shape4(shape_list(view.ifm))
    if s[1] * s[2] > 65535:
        yield _r("softmax-size", "The product of IFM width and height must be in the range [1, 65535]",
                 f"product {s[1] * s[2]}")
    a, o = dtype_name(view.ifm), dtype_name(view.ofm)
    if not (a == o and a in ("int8", "uint8", "int16")):
        yield _r("dtype", "Softmax needs IFM and OFM of the same type, 8-bit or int16", f"IFM {a}, OFM {o}")


def supported_specific(view: View) -> Iterator[Reason]:
    name = view.op.name
    if name == "tfl.conv_2d":
        yield from _stride_no_upper_limit(view)
    if name in CONV_OPS:
        yield from _conv_like(view)
    if name == "tfl.transpose_conv":
        yield from _tconv(view)
    if name == "tfl.depthwise_conv_2d":
        stride_w, stride_h = _stride(view)
        if not (1 <= stride_w <= 3 and 1 <= stride_h <= 3):
            yield _r("stride", "Stride values for both width and height must be between 1 and 3",
                     f"stride WxH {stride_w}x{stride_h}")
        multiplier = int(view.attr("depth_multiplier", 1))  # type: ignore[arg-type]
        if multiplier > 1:
            ifm_c, ofm_c = shape_list(view.ifm)[-1], shape_list(view.ofm)[-1]
            if ifm_c != 1 or ofm_c != multiplier:
                yield _r("depth-multiplier", "For depth multipliers > 1, IFM channels must be 1 and OFM channels must "
                         "be equal to the depth multiplier", f"IFM channels {ifm_c}, OFM channels {ofm_c}, "
                         f"depth multiplier {multiplier}")
    if name in POOL_OPS:
        yield from _pool(view)
    if name == "tfl.resize_nearest_neighbor":
        yield from _resize(view)
    if name == "tfl.fully_connected":
        yield from _weights_and_bias(view, limit=False)
    if name in ("tfl.minimum", "tfl.maximum"):
        if not scaling_equal(view.ofm, view.ifm) or not scaling_equal(view.ofm, view.ifm2):
            yield _r("quant-mismatch", "Both Input quantization parameters must match OFM quantization parameters")
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


def check(op: Operation) -> Reason | None:
    """Why ``op`` cannot run on the NPU, or None if it can (and npu-legalize lowers it)."""
    if op.name not in LOWERED and op.name not in VELA_ONLY:
        return Reason("cpu-only-op", f"{builtin_name(op)} is a CPU only op")
    view = view_of(op)
    for stage in (semantic_generic, semantic_specific, supported_generic, supported_specific):
        for reason in stage(view):
            return reason
    if op.name in VELA_ONLY:
        return Reason("unimplemented", f"Vela runs {builtin_name(op)} on the NPU, but npu-legalize does not lower it "
                      "yet")
    return None


__all__ = ["LOWERED", "MEMORY_ONLY", "Reason", "VELA_ONLY", "check", "pool_strides", "resize_factor"]
