"""MEAN as the NPU computes it (Vela's ``convert_mean_to_depthwise_conv``).

The reduced axes are summed by depthwise convolutions with a kernel of ones into 32-bit
(``<name>_conv_<i>``; one per block of at most 64 rows and 4096 kernel elements, each reading a
slice of the IFM, added up by ``<name>_add_<i>``), then an elementwise multiply by the rescaled
1/N with an explicit shift (``<name>_mul``) writes the OFM. A mean over the channels first views
the IFM with the channels as width; a mean over axes of size 1 is a copy (``npu.dma``, Vela's
Memcpy).
"""
from __future__ import annotations

import math

import numpy as np

from npu_opt.dialects.npu.ops_conv import DepthwiseConv2DOp
from npu_opt.dialects.npu.ops_elementwise import AddOp, MulOp
from npu_opt.dialects.npu.ops_memory import DmaOp, SliceOp
from npu_opt.dialects.npu.attrs import OffsetAttr
from npu_opt.dialects.npu.quant import quantise_scale, scale_and_zero_point
from npu_opt.ir.core import Operation, Value
from npu_opt.ir.types import I32, I64, IntegerType, element_type_of
from npu_opt.passes.npu_lowering.builder import quant_type, storage, tensor
from npu_opt.passes.npu_lowering.context import Lowering
from npu_opt.passes.npu_lowering.view import constant, quant, shape_list, view_of

MAX_KERNEL, MAX_HEIGHT = 4096, 64


def lower_mean(op: Operation, lowering: Lowering) -> None:
    view = view_of(op)
    b = lowering.builder(op)
    assert view.ifm is not None and view.ofm is not None
    shape = shape_list(view.ifm) or []
    dims = len(shape)
    axes = {int(a) % dims for a in np.reshape(constant(op.operands[1]), -1)}  # type: ignore[arg-type]
    reduce = [i in axes for i in range(dims)]
    inter = list(shape_list(view.ofm) or [])
    if len(inter) < dims:
        for i in range(dims):
            if reduce[i]:
                inter.insert(i, 1)
    pad = 4 - dims
    reduce = [False] * pad + reduce
    ifm_shape = [1] * pad + list(shape)
    inter = [1] * pad + inter
    if not any(r and d > 1 for r, d in zip(reduce, ifm_shape)):
        # a mean over axes of size 1 copies the IFM (Vela's Memcpy); a requantising copy when the
        # scales differ
        if element_type_of(view.ifm.type) is element_type_of(view.ofm.type):
            b.finish(op, [b.npu(DmaOp, [view.ifm], view.ifm.type)])
        else:
            from npu_opt.passes.npu_lowering.pool import avgpool_nop
            ofm_type = tensor(ifm_shape, element_type_of(view.ofm.type))
            b.finish(op, [avgpool_nop(b, b.reshape(view.ifm, ifm_shape), ofm_type, b.name)])
        return
    if reduce[3] and ifm_shape[3] > 1:
        gone = 2 if ifm_shape[2] == 1 else 1
        for seq in (reduce, ifm_shape, inter):
            del seq[gone]
        reduce.append(False)
        ifm_shape.append(1)
        inter.append(1)
    h = ifm_shape[1] if reduce[1] else 1
    w = ifm_shape[2] if reduce[2] else 1
    count = h * w
    if h > MAX_HEIGHT and count <= MAX_KERNEL and reduce[1] and reduce[2]:
        ifm_shape = [ifm_shape[0], 1, h * w, ifm_shape[3]]
        w, h = h * w, 1
    per_conv = min(MAX_KERNEL // w, h, MAX_HEIGHT)
    convs = math.ceil(h / per_conv)
    ifm = b.reshape(view.ifm, ifm_shape)
    c = ifm_shape[3]
    out_scale, out_zp = scale_and_zero_point(quant(view.ofm))
    sum_type = tensor(inter, quant_type(I32, out_scale, out_zp))
    bias_elem = I64 if storage(view.ifm.type).width == 16 else I32
    sums: list[Value] = []
    for i in range(convs):
        kh = h % per_conv if i == convs - 1 and h % per_conv else per_conv
        read = [ifm_shape[0], kh if reduce[1] else ifm_shape[1], w if reduce[2] else ifm_shape[2], c]
        source = ifm
        if read != ifm_shape:
            source = b.npu(SliceOp, [ifm], tensor(read, element_type_of(ifm.type)), f"{b.name}_read_{i}",
                           offset=OffsetAttr((0, i * per_conv, 0, 0)))
        weights = b.const(np.ones((1, kh, w, c), dtype=np.int64),
                          tensor((1, kh, w, c), quant_type(IntegerType(8, "unsigned"), 1.0, 0)))
        bias = b.const(np.zeros(c, dtype=np.int64), tensor((c,), bias_elem))
        # Vela names it with its clone(suffix) of the MEAN, whose suffix repeats the name
        sums.append(b.npu(DepthwiseConv2DOp, [source, weights, bias], sum_type, f"{b.name}{b.name}_conv_{i}",
                          kernel=b.kernel((kh, w)), activation=b.activation("none", sum_type),
                          rescale=b.rescale(1, 0)))
    total = sums[-1]
    if len(sums) > 1:
        add_type = tensor(inter, quant_type(I32, 1.0, 0))
        pending = list(sums)
        first = pending.pop()
        total = b.npu(AddOp, [first, pending.pop()], add_type, f"{b.name}_add_0",
                      activation=b.activation("none", add_type), rescale=b.rescale(1, 0))
        index = 1
        while pending:
            total = b.npu(AddOp, [pending.pop(), total], add_type, f"{b.name}_add_{index}",
                          activation=b.activation("none", add_type), rescale=b.rescale(1, 0))
            index += 1
    in_scale, _ = scale_and_zero_point(quant(view.ifm))
    multiplier, shift_vela = quantise_scale(float(np.double(in_scale) / np.double(out_scale)))
    out_shift = 31 - shift_vela
    shift = min(int(math.floor(math.log2(count))), 32, 31 + out_shift)
    multiplier = int(np.int32((np.int64(multiplier) << shift) // count))
    out_shift -= shift
    scalar = b.const([multiplier], tensor((1, 1, 1, 1), quant_type(I32, 1.0, 0)))
    ofm_type = tensor(inter, element_type_of(view.ofm.type))
    result = b.npu(MulOp, [total, scalar], ofm_type, f"{b.name}_mul", activation=b.activation("none", ofm_type),
                   rescale=b.rescale(1, 31 - out_shift), rounding="tflite")
    b.finish(op, [result])


__all__ = ["lower_mean"]
