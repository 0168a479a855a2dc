"""Which tfl ops the NPU can run: the same constraints as Vela 5.2 (its semantic and
supported-operator checks), tested in the same order so the first failure is the one Vela hits.

``check(op)`` returns None when the op goes to the NPU, else a ``Reason``: a short key (for
statistics) and a message naming the offending value and the limit it breaks. Ops Vela runs on
the NPU but npu-opt does not lower yet get the key ``unimplemented``; operators the NPU has no
equivalent for get ``operator``.
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
    Reason, fmt_quant, fmt_shape, reason, role_name,
)
from npu_opt.passes.npu_lowering.support_ops import pool_strides, resize_factor, supported_specific
from npu_opt.passes.npu_lowering.view import (
    View, builtin_name, constant, dtype_name, quant, scaling_equal, shape4, shape_list, strided_slice_bounds, view_of,
)


# ---------------------------------------------------------------------------------------------
# Semantic checks (the model is well formed for the NPU): generic ones first
def semantic_generic(view: View) -> Iterator[Reason]:
    """Shapes, ranks and quantisation every NPU operand needs."""
    op = view.op
    tensors = [v for v in op.operands if not isinstance(v.type, NoneType)] + list(op.results)
    for value in tensors:
        shape = shape_list(value)
        if shape == [] and constant(value) is None and op.name != "tfl.quantize":
            yield reason("dynamic-tensor", f"{role_name(view, value)} is a scalar computed at run time; an NPU "
                         "operand without a shape has to be a constant")
    for value in tensors:
        shape = shape_list(value)
        if shape is None or any(d < 0 for d in shape):
            yield reason("undefined-shape", f"{role_name(view, value)} has shape {fmt_shape(shape)}; every "
                         "dimension of an NPU tensor must be known at compile time")
    for value in op.operands:
        if shape_list(value) == [] and op.name not in SHAPELESS_INPUT_OPS:
            yield reason("scalar-input", f"{role_name(view, value)} is a scalar; on the NPU only {SHAPELESS_NAMES} "
                         "accept scalar operands")
    for value in tensors:
        shape = shape_list(value)
        if shape is not None and len(shape) > 4:
            yield reason("rank", f"{role_name(view, value)} has {len(shape)} dimensions {fmt_shape(shape)}; the "
                         "NPU handles at most 4")
    if op.name not in ("tfl.shape", "tfl.arg_max", "tfl.transpose"):
        for value in view.checked:
            if quant(value) is None:
                yield reason("no-quantization", f"{role_name(view, value)} is {dtype_name(value)} without "
                             "quantisation parameters; the NPU computes on quantised integers only")
    ofm_q, ifm_q = quant(view.ofm), quant(view.ifm)
    if ofm_q is not None:
        tiny = float(np.finfo(np.float32).tiny)
        if min(ofm_q.scales) < tiny:
            yield reason("quant-scale", f"OFM scale {min(ofm_q.scales):g} is below {tiny:g}, the smallest normal "
                         "float32 the NPU's rescaling can use")
        if ifm_q is not None and any(math.isinf(np.float32(s) / np.float32(min(ofm_q.scales)))
                                     for s in ifm_q.scales):
            yield reason("quant-scale", f"IFM scale {max(ifm_q.scales):g} / OFM scale {min(ofm_q.scales):g} "
                         "overflows float32, so no rescale can express it")


def semantic_specific(view: View) -> Iterator[Reason]:
    """Op-specific semantic checks. Those about matching element types, shapes and the
    concatenation axis are left out: the tfl ops' own verifiers already enforce them."""
    op, name = view.op, view.op.name
    ifm, ofm = view.ifm, view.ofm
    if name == "tfl.conv_2d" and ifm is not None and view.weights is not None:
        ifm_depth, w = shape_list(ifm)[-1], shape_list(view.weights)
        if w is not None and ifm_depth % w[3]:
            yield reason("conv-groups", f"IFM depth {ifm_depth} is not a multiple of the filter depth {w[3]}, so "
                         "the channels do not split into whole groups")
        elif w is not None and w[0] % (ifm_depth // w[3]):
            yield reason("conv-groups", f"{w[0]} filters do not divide evenly among {ifm_depth // w[3]} "
                         "convolution groups")
    if name in BINARY or name in UNARY_ELEMENTWISE:
        out = shape_list(ofm)
        if shape_list(ifm) != out and (view.ifm2 is None or shape_list(view.ifm2) != out):
            yield reason("broadcast", f"neither IFM {fmt_shape(shape_list(ifm))} nor IFM2 "
                         f"{fmt_shape(shape_list(view.ifm2))} has the OFM's shape {fmt_shape(out)}; the NPU "
                         "broadcasts one input at most")
    if name in MEMORY_ONLY:
        if not scaling_equal(ifm, ofm):
            yield reason("quant-mismatch", f"IFM ({fmt_quant(ifm)}) and OFM ({fmt_quant(ofm)}) are quantised "
                         "differently; a reshape moves bytes and cannot requantise")
    if name == "tfl.softmax":
        beta = float(view.attr("beta", 1.0))  # type: ignore[arg-type]
        if beta < 0:
            yield reason("softmax-beta", f"beta = {beta:g} is negative; the NPU's softmax needs beta >= 0")
    if name == "tfl.fully_connected" and ifm is not None and view.weights is not None:
        depth = shape_list(view.weights)[-1]
        elements = int(np.prod(shape_list(ifm)))
        if len(shape_list(ifm)) == 1 or elements % depth:
            yield reason("fc-shape", f"IFM {fmt_shape(shape_list(ifm))} does not split into rows of {depth} "
                         "(the weights' input depth), so the OFM cannot be 2D")
        if view.attr("keep_num_dims") and len(shape_list(ifm)) != len(shape_list(ofm)):
            yield reason("fc-shape", f"keep_num_dims is set but the IFM has {len(shape_list(ifm))} dimensions "
                         f"and the OFM {len(shape_list(ofm))}")
    if name == "tfl.pad":
        pads = constant(op.operands[1])
        if pads is None:
            yield reason("non-constant", "the paddings operand is computed at run time; the NPU needs the "
                         "padding amounts at compile time")
    if name in ("tfl.slice", "tfl.strided_slice"):
        if any(constant(v) is None for v in op.operands[1:]):
            names = ("begin", "end", "strides")
            dynamic = [n for n, v in zip(names, op.operands[1:]) if constant(v) is None]
            yield reason("non-constant", f"{', '.join(dynamic)} {'is' if len(dynamic) == 1 else 'are'} computed at "
                         "run time; the NPU needs slice bounds at compile time")
        elif name == "tfl.strided_slice":
            yield from _strided_slice_semantic(view)
    if name == "tfl.exp" and dtype_name(ifm) not in ("int8", "int16"):
        yield reason("dtype", f"IFM is {dtype_name(ifm)}; the NPU evaluates EXP as a table for int8 and int16 "
                     "inputs only")
    if name == "tfl.hard_swish" and dtype_name(ifm) not in ("int8", "uint8"):
        yield reason("dtype", f"IFM is {dtype_name(ifm)}; the NPU evaluates HARD_SWISH as a table for int8 and "
                     "uint8 inputs only")
    if name == "tfl.mean":
        yield from _mean_semantic(view)


def _strided_slice_semantic(view: View) -> Iterator[Reason]:
    if view.int("ellipsis_mask"):
        yield reason("slice", f"ellipsis_mask = {view.int('ellipsis_mask')}; the NPU slices without ellipsis "
                     "(mask 0) only")
        return
    if view.int("new_axis_mask") and view.int("shrink_axis_mask"):
        yield reason("slice", f"new_axis_mask = {view.int('new_axis_mask')} and shrink_axis_mask = "
                     f"{view.int('shrink_axis_mask')}: at most one of them may be non-zero")
        return
    begin, end = strided_slice_bounds(view.op)
    shrink = view.int("shrink_axis_mask")
    empty = [i for i, (b, e) in enumerate(zip(begin, end)) if e <= b and not shrink >> i & 1]
    if empty:
        axis = empty[0]
        yield reason("slice", f"axis {axis} selects nothing: end {end[axis]} is not after begin {begin[axis]} "
                     f"(begin {begin}, end {end})")


def _mean_semantic(view: View) -> Iterator[Reason]:
    shape = shape_list(view.ifm) or []
    if not 2 <= len(shape) <= 4:
        yield reason("mean-axis", f"the input is {len(shape)}D {fmt_shape(shape)}; the NPU averages 2D to 4D inputs")
        return
    axes = constant(view.op.operands[1])
    if axes is None:
        yield reason("non-constant", "the axis operand is computed at run time; the NPU needs the reduced "
                     "axes at compile time")
        return
    for ax in [int(a) for a in np.reshape(axes, -1)]:
        if not 0 <= ax < len(shape):
            yield reason("mean-axis", f"axis {ax} is out of range for a {len(shape)}D input (0 to "
                         f"{len(shape) - 1})")
            return
        if len(shape) == 4 and ax == 0 and shape[0] != 1:
            yield reason("mean-axis", f"axis 0 averages a batch of {shape[0]}; the NPU can reduce the batch "
                         "only when it is 1")
            return
        if ax == len(shape) - 1 and len(shape) >= 3 and not any(s == 1 for s in shape[-3:]):
            yield reason("mean-axis", f"averaging the channels of {fmt_shape(shape)} needs one of its last "
                         "three dimensions to be 1")
            return


# ---------------------------------------------------------------------------------------------
# Supported-operator checks (what the NPU hardware can do): generic ones first
def supported_generic(view: View) -> Iterator[Reason]:
    """Data types, dimensions, per-axis quantisation, batch and fused activations."""
    op = view.op
    for value in view.checked:
        if dtype_name(value) not in OP_DTYPES.split(", "):
            yield reason("dtype", f"{role_name(view, value)} has type {dtype_name(value)}; NPU tensors are "
                         f"{OP_DTYPES.replace(', uint8', ' or uint8')}")
    for value in view.checked:
        if dtype_name(value) == "int32" and op.name not in INT32_OPS:
            yield reason("int32", f"{role_name(view, value)} is int32, which {builtin_name(op)} does not take on the "
                         f"NPU (int32 tensors are for {INT32_OP_NAMES})")
    for value in view.checked:
        shape = shape_list(value) or []
        outside = [(i, d) for i, d in enumerate(shape) if not 1 <= d <= 65535]
        if outside:
            axis, size = outside[0]
            yield reason("dimension", f"{role_name(view, value)} {fmt_shape(shape)} has dimension {axis} = {size}, "
                         "outside the NPU's 1 to 65535")
    if op.name not in PER_AXIS_OPS:
        for value in [t for t in (view.ifm, view.ifm2, view.weights, view.ofm) if t is not None]:
            q = quant(value)
            if q is not None and q.is_per_axis:
                yield reason("per-axis-quantization", f"{role_name(view, value)} has per-axis scales; on the NPU "
                             f"only {PER_AXIS_NAMES} take them")
    if op.name not in BATCH_EXEMPT:
        for value in (view.ifm, view.ifm2):
            shape = shape_list(value)
            if shape and len(shape) <= 4 and shape4(shape)[0] != 1:
                yield reason("batch", f"{role_name(view, value)} {fmt_shape(shape)} has a batch of "
                             f"{shape4(shape)[0]}; the NPU runs {builtin_name(op)} on a batch of 1")
    faf = view.faf()
    if faf is not None and faf not in FAF_ALLOWED:
        yield reason("fused-activation", f"fused activation {faf} has no NPU equivalent (the NPU fuses "
                     f"{FAF_NAMES})")
    if faf is not None and dtype_name(view.ofm) not in ("int16", "int8", "uint8"):
        yield reason("fused-activation", f"fused activation {faf} with an OFM of type {dtype_name(view.ofm)}; "
                     "the NPU fuses activations into int8, uint8 and int16 outputs only")


def check(op: Operation) -> Reason | None:
    """Why ``op`` cannot run on the NPU, or None if it can (and npu-legalize lowers it)."""
    if op.name not in LOWERED and op.name not in VELA_ONLY:
        return Reason("operator", f"the NPU has no {builtin_name(op)} operation")
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
