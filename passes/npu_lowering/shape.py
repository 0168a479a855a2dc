"""Lowering of the operators that move data: RESHAPE/SQUEEZE/EXPAND_DIMS, PAD, CONCATENATION and
RESIZE_NEAREST_NEIGHBOR.

Design notes: docs/lowering_design.md, section Lowering data movement (npu_lowering/shape)."""
from __future__ import annotations

import math

import numpy as np

from npu_opt.dialects.npu.attrs import OffsetAttr
from npu_opt.dialects.npu.ops_conv import DepthwiseConv2DOp
from npu_opt.dialects.npu.ops_elementwise import AddOp
from npu_opt.dialects.npu.ops_memory import ConcatOp, DmaOp
from npu_opt.ir.attributes import Attribute
from npu_opt.ir.core import Operation, Value
from npu_opt.ir.traits import ConstantLike
from npu_opt.ir.types import I8, I32, RankedTensorType, Type, element_type_of
from npu_opt.passes.npu_lowering.builder import Builder, quant_type, storage, tensor
from npu_opt.passes.npu_lowering.context import Lowering
from npu_opt.passes.npu_lowering.elementwise import lut_op
from npu_opt.passes.npu_lowering.pool import avgpool_nop
from npu_opt.passes.npu_lowering.support import pool_strides
from npu_opt.passes.npu_lowering.tables import lut8
from npu_opt.passes.npu_lowering.view import constant, scaling_equal, shape4, shape_list, view_of

WRITE_ROUNDING = "half_up"
"""The rounding of a concatenation's (and a PAD's) writes and of a resize's x2 steps: Vela's
natural rounding there, TFLite's elsewhere."""
FAF_OP_NAME = {"RELU": "Relu", "RELU6": "Relu6", "RELU_N1_TO_1": "ReluN1To1", "RELU_0_TO_1": "Relu0To1",
               "TANH": "Tanh"}
"""Vela's op type names, used to name an activation unfused from a concatenation."""


# ---------------------------------------------------------------------------------------------
def lower_shape(op: Operation, lowering: Lowering) -> None:
    """SHAPE of a static tensor is a constant (Vela's ``convert_shape_op_to_constant_tensor``)."""
    b = lowering.builder(op)
    result = op.results[0].type
    assert isinstance(result, RankedTensorType)
    b.finish(op, [b.const(np.asarray(shape_list(op.operands[0]), dtype=np.int64), result)])


def needs_copy(op: Operation, lowering: Lowering) -> bool:
    """Vela turns a reshape into a Memcpy when its IFM has several users or cannot be replaced."""
    source = op.operands[0]
    producer = getattr(source, "op", None)
    if len(source.users()) > 1 or producer is None:
        return True
    if producer.has_trait(ConstantLike) or producer.name == "tfl.mean":
        return True
    return producer.dialect == "tfl" and not lowering.on_npu(producer)


def lower_reshape(op: Operation, lowering: Lowering, copy: bool) -> None:
    b = lowering.builder(op)
    source = op.operands[0]
    if copy:
        source = b.npu(DmaOp, [source], source.type)
    b.finish(op, [source])


# ---------------------------------------------------------------------------------------------
def pad_values(op: Operation) -> tuple[int, int, int, int, int, int]:
    """(top, left, bottom, right, near, far) of a PAD (Vela's ``get_pad_values_from_input``)."""
    pads = constant(op.operands[1])
    assert pads is not None
    p = pads.reshape(-1, 2)
    return int(p[-3][0]), int(p[-2][0]), int(p[-3][1]), int(p[-2][1]), int(p[-1][0]), int(p[-1][1])


def _leading_ok(pad: int, stride: int, kernel: int) -> bool:
    half = kernel // 2
    return pad == half or half <= stride or pad % stride == 0


def _absorbs(pad: Operation, user: Operation, lowering: Lowering) -> bool:
    """Whether ``user`` takes ``pad``'s padding as hardware padding (``replace_pad_by_hw_pad``)."""
    if user.name not in ("tfl.conv_2d", "tfl.depthwise_conv_2d", "tfl.average_pool_2d") or not lowering.on_npu(user):
        return False
    if user.operands[0] is not pad.results[0] or any(v is pad.results[0] for v in user.operands[1:]):
        return False
    view = view_of(user)
    if user.name == "tfl.average_pool_2d":
        stride_w, stride_h, padding = pool_strides(view)
        kh, kw = view.int("filter_height"), view.int("filter_width")
        as_pool = stride_w <= 3
    else:
        padding = str(view.attr("padding"))
        stride_w, stride_h = view.int("stride_w"), view.int("stride_h")
        w = shape_list(view.weights) or [1, 1, 1, 1]
        dh, dw = view.int("dilation_h_factor", 1), view.int("dilation_w_factor", 1)
        kh, kw = (w[1] - 1) * dh + 1, (w[2] - 1) * dw + 1
        as_pool = False
    if padding != "VALID":
        return False
    if element_type_of(pad.operands[0].type) is not element_type_of(pad.results[0].type) \
            and not scaling_equal(pad.operands[0], pad.results[0]):
        return False
    if storage(pad.operands[0].type) is not storage(pad.results[0].type):
        return False
    top, left, bottom, right, near, far = pad_values(pad)
    if near or far or left > kw // 2 or right > kw // 2 or top > kh // 2 or bottom > kh // 2:
        return False
    if not _leading_ok(top, stride_h, kh) or not _leading_ok(left, stride_w, kw):
        return False
    if as_pool and any(p not in (0, k // 2) for p, k in ((left, kw), (right, kw), (top, kh), (bottom, kh))):
        return False
    return True


def plan_pad(op: Operation, lowering: Lowering) -> tuple[int, bool]:
    """Record the users that absorb ``op``'s padding: how many do, and whether all do (the PAD
    then needs no op of its own)."""
    top, left, bottom, right, _, _ = pad_values(op)
    users = op.results[0].users()
    absorbing = [u for u in users if _absorbs(op, u, lowering)]
    for user in absorbing:
        lowering.absorbed_pads[user] = (op, (top, left, bottom, right))
    return len(absorbing), bool(users) and len(absorbing) == len(users)


def lower_pad(op: Operation, lowering: Lowering) -> None:
    """The copy-and-fill PAD, for users that do not absorb it."""
    b = lowering.builder(op)
    top, left, bottom, right, near, far = pad_values(op)
    source = op.operands[0]
    ifm4 = list(shape4(shape_list(source)))
    ofm = op.results[0]
    elem = element_type_of(ofm.type)
    q = elem if hasattr(elem, "zero_points") else None
    zero_point = q.zero_points[0] if q is not None else 0  # type: ignore[union-attr]
    writes: list[Value] = [avgpool_nop(b, b.reshape(source, ifm4), tensor(ifm4, elem), b.name + "_main",
                                       rounding=WRITE_ROUNDING)]
    offsets = [(0, top, left, near)]
    shape = list(ifm4)

    def fill(suffix: str, box: list[int], offset: tuple[int, int, int, int]) -> None:
        const = b.const(np.full(box, zero_point, dtype=np.int64), tensor(box, elem))
        writes.append(avgpool_nop(b, const, tensor(box, elem), f"{b.name}_{suffix}", rounding=WRITE_ROUNDING))
        offsets.append(offset)

    if top:
        fill("top", [shape[0], top, shape[2], shape[3]], (0, 0, left, near))
        shape[1] += top
    if bottom:
        fill("bottom", [shape[0], bottom, shape[2], shape[3]], (0, shape[1], left, near))
        shape[1] += bottom
    if left:
        fill("left", [shape[0], shape[1], left, shape[3]], (0, 0, 0, near))
        shape[2] += left
    if right:
        fill("right", [shape[0], shape[1], right, shape[3]], (0, 0, shape[2], near))
        shape[2] += right
    if near:
        fill("near", [shape[0], shape[1], shape[2], near], (0, 0, 0, 0))
        shape[3] += near
    if far:
        fill("far", [shape[0], shape[1], shape[2], far], (0, 0, 0, shape[3]))
        shape[3] += far
    result = b.npu(ConcatOp, writes, tensor(shape, elem), offsets=[OffsetAttr(o) for o in offsets])
    b.finish(op, [result])


# ---------------------------------------------------------------------------------------------
def lower_concat(op: Operation, lowering: Lowering) -> None:
    view = view_of(op)
    b = lowering.builder(op)
    ofm = op.results[0]
    elem = element_type_of(ofm.type)
    axis = view.int("axis")
    writes, offsets = [], []
    position = 0
    for index, value in enumerate(op.operands):
        shape = shape_list(value) or []
        axis4 = (axis if axis >= 0 else axis + len(shape)) + 4 - len(shape)
        shape4_ = shape4(shape)
        offset = [0, 0, 0, 0]
        offset[axis4] = position
        position += shape4_[axis4]
        writes.append(avgpool_nop(b, b.reshape(value, shape4_), tensor(shape4_, elem), f"{b.name}{index}_avgpool",
                                  rounding=WRITE_ROUNDING))
        offsets.append(OffsetAttr(tuple(offset)))
    result = b.npu(ConcatOp, writes, tensor(shape4(shape_list(ofm)), elem), offsets=offsets)
    faf = view.faf()
    if faf is not None:
        name = b.name + FAF_OP_NAME.get(faf, faf)
        if faf == "TANH" and storage(ofm.type).width == 8:
            from npu_opt.passes.npu_lowering.elementwise import _io
            values = lut8(math.tanh, _io(ofm), _io(ofm), storage(ofm.type).is_unsigned)
            result = lut_op(b, result, result.type, values, "tanh", f"{name}_lut_tanh")
        elif faf == "TANH":
            result = avgpool_nop(b, result, result.type, name + "_avgpool", "tanh")
        else:
            result = avgpool_nop(b, result, result.type, name + "_avgpool", faf.lower())
    b.finish(op, [result])


# ---------------------------------------------------------------------------------------------
def _upscale_factor(ifm: list[int], ofm: list[int], align: bool) -> int:
    if align:
        hf = (ofm[1] - 1) / (ifm[1] - 1) if ifm[1] != 1 else 1
        wf = (ofm[2] - 1) / (ifm[2] - 1) if ifm[2] != 1 else 1
    else:
        hf, wf = ofm[1] / ifm[1], ofm[2] / ifm[2]
    return int(max(hf, wf))


def resize_size(op: Operation) -> Attribute | None:
    """The values of a resize's constant size operand (Vela keeps it on the resize's first step)."""
    size = op.operands[1] if len(op.operands) > 1 else None
    producer = getattr(size, "op", None)
    return producer.attr("value") if producer is not None and producer.has_trait(ConstantLike) else None


def upscale_steps(b: Builder, ifm: Value, ifm4: list[int], ofm4: list[int], elem: Type,
                  align: bool, size: Attribute | None = None) -> tuple[Value, str, tuple[int, int]]:
    """The x2 nearest-neighbour 1x1 average pools before a resize's last x2 step: the value they
    leave, the name of the last step and the (height, width) upscale factors (Vela's
    ``convert_resize_to_upscale_and_average_pool``; names: the op's, then ``_<i>``); the first
    step keeps the resize's ``size``."""
    factor = _upscale_factor(ifm4, ofm4, align)
    up_h = 1 if ofm4[1] == ifm4[1] == 1 else factor
    up_w = 1 if ofm4[2] == ifm4[2] == 1 else factor
    steps = int(round(math.log2(factor)))
    current, shape = ifm, list(ifm4)
    for count in range(steps - 1):
        shape = [shape[0], shape[1] * (2 if up_h != 1 else 1), shape[2] * (2 if up_w != 1 else 1), shape[3]]
        name = b.name if count == 0 else f"{b.name}_{count}"
        current = avgpool_nop(b, current, tensor(shape, elem), name, resampling="nearest", rounding=WRITE_ROUNDING,
                              resize_size=size if count == 0 else None)
    return current, (b.name if steps == 1 else f"{b.name}_{steps - 1}"), (up_h, up_w)


def lower_resize_nearest(op: Operation, lowering: Lowering) -> None:
    view = view_of(op)
    b = lowering.builder(op)
    assert view.ifm is not None and view.ofm is not None
    ifm4, ofm4 = list(shape4(shape_list(view.ifm))), list(shape4(shape_list(view.ofm)))
    elem = element_type_of(view.ofm.type)
    ifm = b.reshape(view.ifm, ifm4)
    if ifm4 == ofm4:
        # an identity: Vela bypasses it (without requantising)
        if element_type_of(view.ifm.type) is elem:
            b.finish(op, [ifm])
        else:
            b.finish(op, [avgpool_nop(b, ifm, tensor(ofm4, elem), b.name)])
        return
    if ifm4[1] == ifm4[2] == 1:
        zeros = b.const(np.zeros(ofm4, dtype=np.int64), tensor(ofm4, quant_type(storage(view.ifm.type), 1.0, 0)))
        ofm_type = tensor(ofm4, elem)
        b.finish(op, [b.npu(AddOp, [zeros, ifm], ofm_type, b.name + "_add", activation=b.activation("none", ofm_type))])
        return
    align = bool(view.attr("align_corners", False))
    current, name, (up_h, up_w) = upscale_steps(b, ifm, ifm4, ofm4, elem, align, resize_size(op))
    ofm_type = tensor(ofm4, elem)
    if not align:
        first = current is ifm  # (a single x2 step: the size stays on it)
        b.finish(op, [avgpool_nop(b, current, ofm_type, name, resampling="nearest", rounding=WRITE_ROUNDING,
                                  resize_size=resize_size(op) if first else None)])
        return
    channels = ofm4[3]
    weights = np.zeros((1, up_h, up_w, channels), dtype=np.int64)
    weights[0, up_h // 2, up_w // 2, :] = 1
    wconst = b.const(weights, tensor(weights.shape, quant_type(I8, 1.0, 0)))
    bias = b.const(np.zeros(channels, dtype=np.int64), tensor((channels,), I32))
    result = b.npu(DepthwiseConv2DOp, [current, wconst, bias], ofm_type, name, kernel=b.kernel((up_h, up_w)),
                   resampling="nearest", activation=b.activation("none", ofm_type))
    b.finish(op, [result])


__all__ = ["lower_concat", "lower_pad", "lower_reshape", "lower_shape", "lower_resize_nearest", "needs_copy", "pad_values",
           "plan_pad", "resize_size", "upscale_steps"]
