"""Which tfl ops the NPU can run: Vela 5.2's semantic checks (``tflite_model_semantic.py``) and
supported-operator checks (``tflite_supported_operators.py``), in Vela's order.

``check(op, options)`` returns None when the op goes to the NPU, else a ``Reason``: a short key
(for statistics) and the message of the first constraint the op violates, worded as Vela's
constraint with the values that violate it. Ops Vela runs on the NPU but npu-opt does not lower
yet get the key ``unimplemented``; operators Vela never runs on the NPU get ``operator``.
"""
from __future__ import annotations

import math
from typing import Iterator

import numpy as np

from npu_opt.ir.core import Operation
from npu_opt.ir.types import NoneType
from npu_opt.passes.npu_lowering.support_common import (
    BATCH_EXEMPT, BINARY, FAF_ALLOWED, FAF_NAMES, INT32_OP_NAMES, INT32_OPS, LOWERED, MEMORY_ONLY, OP_DTYPES,
    PER_AXIS_NAMES, PER_AXIS_OPS, SHAPELESS_INPUT_OPS, SHAPELESS_NAMES, UNARY_ELEMENTWISE, VELA_ONLY,
    Reason, fmt_shape, reason, role_name,
)
from npu_opt.passes.npu_lowering.support_ops import pool_strides, resize_factor, supported_specific
from npu_opt.passes.npu_lowering.view import (
    View, builtin_name, constant, dtype_name, quant, scaling_equal, shape4, shape_list, view_of,
)


# ---------------------------------------------------------------------------------------------
# Semantic checks (tflite_model_semantic.py): generic ones first
def semantic_generic(view: View) -> Iterator[Reason]:
    op = view.op
    tensors = [v for v in op.operands if not isinstance(v.type, NoneType)] + list(op.results)
    for value in tensors:
        shape = shape_list(value)
        if shape == [] and constant(value) is None and op.name != "tfl.quantize":
            yield reason("dynamic-tensor", "Input(s) and Output tensors must not be dynamic",
                         f"{role_name(view, value)} is a non-constant scalar")
    for value in tensors:
        shape = shape_list(value)
        if shape is None or any(d < 0 for d in shape):
            yield reason("undefined-shape", "Input(s) and Output tensors must have a defined shape",
                         f"{role_name(view, value)} has shape {fmt_shape(shape)}")
    for value in op.operands:
        if shape_list(value) == [] and op.name not in SHAPELESS_INPUT_OPS:
            yield reason("scalar-input", f"Scalar Input tensors are only valid for op type: {SHAPELESS_NAMES}",
                         f"{role_name(view, value)} is scalar")
    for value in tensors:
        shape = shape_list(value)
        if shape is not None and len(shape) > 4:
            yield reason("rank", "Input(s) and Output tensors must not be greater than 4D",
                         f"{role_name(view, value)} has shape {fmt_shape(shape)}")
    if op.name not in ("tfl.shape", "tfl.arg_max", "tfl.transpose"):
        for value in view.checked:
            if quant(value) is None:
                yield reason("no-quantization", "Input(s), Output and Weight tensors must have quantization parameters",
                             f"{role_name(view, value)} has type {dtype_name(value)} without quantization")
    ofm_q, ifm_q = quant(view.ofm), quant(view.ifm)
    if ofm_q is not None:
        tiny = float(np.finfo(np.float32).tiny)
        if min(ofm_q.scales) < tiny:
            yield reason("quant-scale", "Input and Output tensors must have quantization scales that fit within "
                         "float32 precision", f"OFM scale {min(ofm_q.scales)}, minimum {tiny}")
        if ifm_q is not None and any(math.isinf(np.float32(s) / np.float32(min(ofm_q.scales)))
                                     for s in ifm_q.scales):
            yield reason("quant-scale", "Input and Output tensors must have quantization scales that fit within "
                         "float32 precision", "IFM scale divided by OFM scale is infinite")


def semantic_specific(view: View) -> Iterator[Reason]:
    """Vela's op-specific semantic checks. Those about matching element types, shapes and the
    concatenation axis are left out: the tfl ops' own verifiers already enforce them."""
    op, name = view.op, view.op.name
    ifm, ofm = view.ifm, view.ofm
    if name == "tfl.conv_2d" and ifm is not None and view.weights is not None:
        ifm_depth, w = shape_list(ifm)[-1], shape_list(view.weights)
        if w is not None and ifm_depth % w[3]:
            yield reason("conv-groups", "IFM depth must be a whole multiple of the filter kernel depth",
                         f"IFM depth {ifm_depth}, filter kernel depth {w[3]}")
        elif w is not None and w[0] % (ifm_depth // w[3]):
            yield reason("conv-groups", "Number of filter kernels must be equally divisible by the number of "
                         "convolution groups", f"{w[0]} filter kernels, {ifm_depth // w[3]} groups")
    if name in BINARY or name in UNARY_ELEMENTWISE:
        out = shape_list(ofm)
        if shape_list(ifm) != out and (view.ifm2 is None or shape_list(view.ifm2) != out):
            yield reason("broadcast", "At least one Input's shape must match the OFM's shape",
                         f"IFM {fmt_shape(shape_list(ifm))}, IFM2 {fmt_shape(shape_list(view.ifm2))}, "
                         f"OFM {fmt_shape(out)}")
    if name in MEMORY_ONLY:
        if not scaling_equal(ifm, ofm):
            yield reason("quant-mismatch", "Input and output quantisation must match.")
    if name == "tfl.softmax":
        beta = float(view.attr("beta", 1.0))  # type: ignore[arg-type]
        if beta < 0:
            yield reason("softmax-beta", "Beta value needs to be positive", f"beta {beta}")
    if name == "tfl.fully_connected" and ifm is not None and view.weights is not None:
        depth = shape_list(view.weights)[-1]
        elements = int(np.prod(shape_list(ifm)))
        if len(shape_list(ifm)) == 1 or elements % depth:
            yield reason("fc-shape", "The output tensor(s) must have 2D shape",
                         f"IFM {fmt_shape(shape_list(ifm))} cannot be reshaped to rows of {depth}")
        if view.attr("keep_num_dims") and len(shape_list(ifm)) != len(shape_list(ofm)):
            yield reason("fc-shape", "The IFM and OFM must have the same number of dimensions if keep_num_dims "
                         "is set to true")
    if name == "tfl.pad":
        pads = constant(op.operands[1])
        if pads is None:
            yield reason("non-constant", "The padding tensor must be constant")
    if name in ("tfl.slice", "tfl.strided_slice"):
        if any(constant(v) is None for v in op.operands[1:]):
            yield reason("non-constant", "Begin, End and Stride Input tensors must be constant")
        elif name == "tfl.strided_slice":
            yield from _strided_slice_semantic(view)
    if name == "tfl.exp" and dtype_name(ifm) not in ("int8", "int16"):
        yield reason("dtype", "IFM must be int8 or int16", f"IFM {dtype_name(ifm)}")
    if name == "tfl.hard_swish" and dtype_name(ifm) not in ("int8", "uint8"):
        yield reason("dtype", "IFM must be int8 or uint8", f"IFM {dtype_name(ifm)}")
    if name == "tfl.mean":
        yield from _mean_semantic(view)


def _strided_slice_semantic(view: View) -> Iterator[Reason]:
    from npu_opt.passes.npu_lowering.split import strided_slice_bounds
    if view.int("ellipsis_mask"):
        yield reason("slice", "ellipsis_mask must be 0")
        return
    if view.int("new_axis_mask") and view.int("shrink_axis_mask"):
        yield reason("slice", "new_axis_mask and shrink_axis_mask cannot both be set")
        return
    begin, end = strided_slice_bounds(view.op)
    shrink = view.int("shrink_axis_mask")
    if any(e <= b for i, (b, e) in enumerate(zip(begin, end)) if not shrink >> i & 1):
        yield reason("slice", "Slice 'end' values must be greater than 'begin' values", f"begin {begin}, end {end}")


def _mean_semantic(view: View) -> Iterator[Reason]:
    shape = shape_list(view.ifm) or []
    if not 2 <= len(shape) <= 4:
        yield reason("mean-axis", "Input tensor must be at least 2D", f"input is {len(shape)}D")
        return
    axes = constant(view.op.operands[1])
    if axes is None:
        yield reason("non-constant", "Axis tensor must be constant")
        return
    for ax in [int(a) for a in np.reshape(axes, -1)]:
        if not 0 <= ax < len(shape):
            yield reason("mean-axis", "Axis parameter is out of bounds", f"axis {ax}, {len(shape)}D input")
            return
        if len(shape) == 4 and ax == 0 and shape[0] != 1:
            yield reason("mean-axis", "Reduction in Batch axis is only supported if batch size is 1")
            return
        if ax == len(shape) - 1 and len(shape) >= 3 and not any(s == 1 for s in shape[-3:]):
            yield reason("mean-axis", "Reduction in Depth axis is supported if at least one of H,W,C are of size 1",
                         f"shape {fmt_shape(shape)}")
            return


# ---------------------------------------------------------------------------------------------
# Supported-operator checks (tflite_supported_operators.py): generic ones first
def supported_generic(view: View) -> Iterator[Reason]:
    op = view.op
    for value in view.checked:
        if dtype_name(value) not in OP_DTYPES.split(", "):
            yield reason("dtype", f"Tensors must be of type: {OP_DTYPES}",
                         f"{role_name(view, value)} is {dtype_name(value)}")
    for value in view.checked:
        if dtype_name(value) == "int32" and op.name not in INT32_OPS:
            yield reason("int32", f"Tensors which are int32 are only valid when op type is: {INT32_OP_NAMES}",
                         f"{role_name(view, value)} is int32")
    for value in view.checked:
        shape = shape_list(value) or []
        if not all(1 <= d <= 65535 for d in shape):
            yield reason("dimension", "Tensor dimensions must be in the range [1, 65535]",
                         f"{role_name(view, value)} has shape {fmt_shape(shape)}")
    if op.name not in PER_AXIS_OPS:
        for value in [t for t in (view.ifm, view.ifm2, view.weights, view.ofm) if t is not None]:
            q = quant(value)
            if q is not None and q.is_per_axis:
                yield reason("per-axis-quantization", f"Per-axis quantization is only supported for the following op "
                             f"types: {PER_AXIS_NAMES}", f"{role_name(view, value)} is quantised per axis")
    if op.name not in BATCH_EXEMPT:
        for value in (view.ifm, view.ifm2):
            shape = shape_list(value)
            if shape and len(shape) <= 4 and shape4(shape)[0] != 1:
                yield reason("batch", "IFM Tensor batch size must be 1", f"{role_name(view, value)} has batch size "
                             f"{shape4(shape)[0]}")
    faf = view.faf()
    if faf is not None and faf not in FAF_ALLOWED:
        yield reason("fused-activation", f"The fused activation function (if present) must be one of type: {FAF_NAMES}",
                     f"it is {faf}")
    if faf is not None and dtype_name(view.ofm) not in ("int16", "int8", "uint8"):
        yield reason("fused-activation", "If a fused activation function is present, the Output tensor must be one "
                     "of type: int16, int8, uint8", f"OFM is {dtype_name(view.ofm)}")


def check(op: Operation) -> Reason | None:
    """Why ``op`` cannot run on the NPU, or None if it can (and npu-legalize lowers it)."""
    if op.name not in LOWERED and op.name not in VELA_ONLY:
        return Reason("operator", f"{builtin_name(op)} is a CPU only op")
    view = view_of(op)
    # SHAPE folds to a constant before Vela's supported-operator checks (convert_shape_op_to_constant_tensor)
    stages = (semantic_generic, semantic_specific) if op.name == "tfl.shape" else (
        semantic_generic, semantic_specific, supported_generic, supported_specific)
    for stage in stages:
        for found in stage(view):
            return found
    if op.name == "tfl.strided_slice" and (view.int("new_axis_mask") or any(
            int(s) != 1 for s in np.reshape(constant(op.operands[3]), -1))):  # type: ignore[arg-type]
        return Reason("unimplemented", "npu-legalize lowers strided slices with unit strides and no new axes only")
    if op.name == "tfl.fully_connected" and view.attr("weights_format", "DEFAULT") != "DEFAULT":
        return Reason("unimplemented", "npu-legalize lowers fully connected layers with DEFAULT weights only")
    if op.name in VELA_ONLY:
        return Reason("unimplemented", f"Vela runs {builtin_name(op)} on the NPU, but npu-legalize does not lower it "
                      "yet")
    return None


__all__ = ["LOWERED", "MEMORY_ONLY", "Reason", "VELA_ONLY", "check", "pool_strides", "resize_factor", "view_of"]
