"""Ops that cut or pad tensors: pad, padv2, slice, strided_slice, split and split_v.

Output shapes follow from constant index operands (paddings, begins, sizes, split sizes); when
an index operand is not constant only ranks are checked.
"""
from __future__ import annotations

from npu_opt.ir.opdef import AttrDef, OperandDef, ResultDef, VerifyError
from npu_opt.ir.traits import Pure
from npu_opt.ir.types import DYNAMIC

from npu_opt.dialects.tfl.common import TFL, AnyTflTensor, BoolAttr, I32Attr, IndexTensor, TflOp
from npu_opt.dialects.tfl.shapes import (
    Shape, constant_ints, expect_rank, expect_shape, fmt, norm_axis, same_storage, shape_of,
)


def _verify_pad(op: TflOp) -> None:
    same_storage([op.operands[0], op.results[0]], "input and output")
    inp, pads = shape_of(op.operands[0]), shape_of(op.operands[1])
    if pads is not None:
        expect_rank(pads, 2, "padding")
        rows_ok = inp is None or pads[0] in (DYNAMIC, len(inp))
        if not rows_ok or pads[1] not in (DYNAMIC, 2):
            raise VerifyError(f"padding must have shape {len(inp) if inp else '?'}x2, but has {fmt(pads)}")
    values = constant_ints(op.operands[1])
    if inp is None or values is None:
        return
    if len(values) != 2 * len(inp):
        raise VerifyError(f"padding holds {len(values)} values, expected {2 * len(inp)}")
    if any(v < 0 for v in values):
        raise VerifyError("paddings must not be negative")
    expected = [d if d == DYNAMIC else d + values[2 * i] + values[2 * i + 1] for i, d in enumerate(inp)]
    expect_shape(shape_of(op.results[0]), expected)


@TFL.op
class PadOp(TflOp):
    """Zero padding (PAD); ``padding`` is [rank, 2] (before, after) per dimension. For quantised
    tensors the pad value is the zero point."""

    OP_NAME = "tfl.pad"
    BUILTIN = "PAD"
    traits = (Pure(),)
    input = OperandDef(AnyTflTensor)
    padding = OperandDef(IndexTensor)
    output = ResultDef(AnyTflTensor)

    def verify_shapes(self) -> None:
        _verify_pad(self)


@TFL.op
class PadV2Op(TflOp):
    """Padding with a given scalar ``constant_values`` (PADV2); ``padding`` as for tfl.pad."""

    OP_NAME = "tfl.padv2"
    BUILTIN = "PADV2"
    traits = (Pure(),)
    input = OperandDef(AnyTflTensor)
    padding = OperandDef(IndexTensor)
    constant_values = OperandDef(AnyTflTensor, optional=True, doc="the pad value; absent: zero (TFLite allows two inputs)")
    output = ResultDef(AnyTflTensor)

    def verify_shapes(self) -> None:
        _verify_pad(self)
        values = shape_of(self.constant_values)
        if values is not None and (len(values) > 1 or (values and values[0] not in (1, DYNAMIC))):
            raise VerifyError(f"constant_values must be a scalar, but has shape {fmt(values)}")


@TFL.op
class SliceOp(TflOp):
    """Take ``size[i]`` elements from ``begin[i]`` in every dimension (SLICE); a size of -1 takes
    the rest of the dimension."""

    OP_NAME = "tfl.slice"
    BUILTIN = "SLICE"
    traits = (Pure(),)
    input = OperandDef(AnyTflTensor)
    begin = OperandDef(IndexTensor)
    size = OperandDef(IndexTensor)
    output = ResultDef(AnyTflTensor)

    def verify_shapes(self) -> None:
        same_storage([self.operands[0], self.results[0]], "input and output")
        inp = shape_of(self.operands[0])
        if inp is None:
            return
        expect_rank(shape_of(self.results[0]), len(inp), "result")
        begin, size = constant_ints(self.operands[1]), constant_ints(self.operands[2])
        if begin is None or size is None:
            return
        if len(begin) != len(inp) or len(size) != len(inp):
            raise VerifyError(f"begin and size must hold {len(inp)} values each")
        expected = []
        for dim, b, s in zip(inp, begin, size):
            if dim == DYNAMIC:
                expected.append(DYNAMIC if s == -1 else s)
                continue
            length = dim - b if s == -1 else s
            if b < 0 or length < 0 or b + length > dim:
                raise VerifyError(f"slice [{b}, {b + length}) is outside a dimension of size {dim}")
            expected.append(length)
        expect_shape(shape_of(self.results[0]), expected)


def _strided_slice_shape(inp: Shape, begin: list[int], end: list[int], strides: list[int],
                         op: "StridedSliceOp") -> list[int]:
    """Result shape of a strided slice without ellipsis or new-axis masks (Python semantics)."""
    out = []
    for i, dim in enumerate(inp):
        if i >= len(begin):
            out.append(dim)
            continue
        stride = strides[i]
        if stride == 0:
            raise VerifyError(f"stride {i} is zero")
        shrink = bool(op.shrink_axis_mask >> i & 1)
        if dim == DYNAMIC:
            if not shrink:
                out.append(DYNAMIC)
            continue
        b = None if op.begin_mask >> i & 1 else begin[i]
        e = None if op.end_mask >> i & 1 else end[i]
        if op.offset and b is not None and e is not None:
            e = b + e
        if shrink:
            start = b if b is not None else 0
            if not -dim <= start < dim:
                raise VerifyError(f"shrunk index {start} is outside a dimension of size {dim}")
            continue
        out.append(len(range(*slice(b, e, stride).indices(dim))))
    return out


@TFL.op
class StridedSliceOp(TflOp):
    """Strided slice (STRIDED_SLICE) with TensorFlow's begin/end/ellipsis/new-axis/shrink-axis
    bit masks; ``offset`` makes ``end`` relative to ``begin``."""

    OP_NAME = "tfl.strided_slice"
    BUILTIN = "STRIDED_SLICE"
    traits = (Pure(),)
    input = OperandDef(AnyTflTensor)
    begin = OperandDef(IndexTensor)
    end = OperandDef(IndexTensor)
    strides = OperandDef(IndexTensor)
    begin_mask = AttrDef(I32Attr)
    ellipsis_mask = AttrDef(I32Attr)
    end_mask = AttrDef(I32Attr)
    new_axis_mask = AttrDef(I32Attr)
    offset = AttrDef(BoolAttr)
    shrink_axis_mask = AttrDef(I32Attr)
    output = ResultDef(AnyTflTensor)

    def verify_shapes(self) -> None:
        same_storage([self.operands[0], self.results[0]], "input and output")
        inp = shape_of(self.operands[0])
        indices = [constant_ints(v) for v in self.operands[1:4]]
        if inp is None or any(v is None for v in indices) or self.ellipsis_mask or self.new_axis_mask:
            return
        begin, end, strides = indices  # type: ignore[misc]
        if not len(begin) == len(end) == len(strides) or len(begin) > len(inp):  # type: ignore[arg-type]
            raise VerifyError(f"begin, end and strides must hold the same number of values, at most "
                              f"the input rank {len(inp)}")
        expect_shape(shape_of(self.results[0]),
                     _strided_slice_shape(inp, begin, end, strides, self))  # type: ignore[arg-type]


def _verify_split_results(op: TflOp, value_index: int, axis_operand: int, sizes: list[int] | None,
                          equal: bool) -> None:
    """Each result equals the input except along the split axis, where it takes its size
    (``equal`` parts, or ``sizes``; unknown sizes when neither)."""
    same_storage([op.operands[value_index], *op.results], "input and outputs")
    if op.num_splits != len(op.results):
        raise VerifyError(f"num_splits is {op.num_splits} but the op has {len(op.results)} results")
    inp = shape_of(op.operands[value_index])
    axis_values = constant_ints(op.operands[axis_operand])
    if inp is None or axis_values is None:
        return
    if len(axis_values) != 1:
        raise VerifyError(f"split_dim must hold one value, but holds {len(axis_values)}")
    axis = norm_axis(axis_values[0], len(inp), "split_dim")
    dim = inp[axis]
    if sizes is None and not equal:
        sizes = [DYNAMIC] * len(op.results)
    elif sizes is None:
        if dim != DYNAMIC and (op.num_splits <= 0 or dim % op.num_splits):
            raise VerifyError(f"dimension {axis} of size {dim} cannot be split into {op.num_splits} parts")
        sizes = [DYNAMIC if dim == DYNAMIC else dim // op.num_splits] * len(op.results)
    elif dim != DYNAMIC:
        if sizes.count(-1) > 1:
            raise VerifyError("size_splits may infer at most one size (-1)")
        if -1 in sizes:
            sizes = [dim - (sum(sizes) + 1) if s == -1 else s for s in sizes]
        if sum(sizes) != dim or any(s < 0 for s in sizes):
            raise VerifyError(f"size_splits {sizes} do not add up to dimension {axis} of size {dim}")
    if len(sizes) != len(op.results):
        raise VerifyError(f"size_splits holds {len(sizes)} sizes for {len(op.results)} results")
    for index, (result, size) in enumerate(zip(op.results, sizes)):
        expect_shape(shape_of(result), inp[:axis] + (size,) + inp[axis + 1:], f"result #{index}")


@TFL.op
class SplitOp(TflOp):
    """Split ``value`` into ``num_splits`` equal parts along ``split_dim`` (SPLIT)."""

    OP_NAME = "tfl.split"
    BUILTIN = "SPLIT"
    traits = (Pure(),)
    split_dim = OperandDef(IndexTensor)
    value = OperandDef(AnyTflTensor)
    num_splits = AttrDef(I32Attr)
    outputs = ResultDef(AnyTflTensor, variadic=True)

    def verify_shapes(self) -> None:
        _verify_split_results(self, 1, 0, None, equal=True)


@TFL.op
class SplitVOp(TflOp):
    """Split ``value`` along ``split_dim`` into parts of ``size_splits`` (SPLIT_V); one size may
    be -1 (the rest)."""

    OP_NAME = "tfl.split_v"
    BUILTIN = "SPLIT_V"
    traits = (Pure(),)
    value = OperandDef(AnyTflTensor)
    size_splits = OperandDef(IndexTensor)
    split_dim = OperandDef(IndexTensor)
    num_splits = AttrDef(I32Attr)
    outputs = ResultDef(AnyTflTensor, variadic=True)

    def verify_shapes(self) -> None:
        _verify_split_results(self, 0, 2, constant_ints(self.operands[1]), equal=False)


__all__ = ["PadOp", "PadV2Op", "SliceOp", "StridedSliceOp", "SplitOp", "SplitVOp"]
