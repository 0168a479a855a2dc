"""Ops that only move data: reshape, squeeze, expand_dims, transpose, concatenation, pack, unpack
and shape. Where the output shape follows from a constant operand, the verifier checks it."""
from __future__ import annotations

from npu_opt.ir.constraints import ArrayAttrC, IntAttrC
from npu_opt.ir.opdef import AttrDef, OperandDef, ResultDef, VerifyError
from npu_opt.ir.traits import MemoryOnly, Pure
from npu_opt.ir.types import DYNAMIC

from npu_opt.dialects.tfl.common import (
    TFL, ActivationAttr, AnyTflTensor, I32Attr, IndexTensor, TflOp,
)
from npu_opt.dialects.tfl.shapes import (
    constant_ints, dims_agree, expect_rank, expect_shape, fmt, norm_axis, num_elements,
    same_storage, shape_of,
)


@TFL.op
class ReshapeOp(TflOp):
    """Reshape (RESHAPE): same elements, new shape. ``shape`` is a 1-D i32 tensor; one entry may
    be -1 (inferred). Element counts must agree, and a constant ``shape`` must match the result."""

    OP_NAME = "tfl.reshape"
    BUILTIN = "RESHAPE"
    traits = (Pure(), MemoryOnly())
    input = OperandDef(AnyTflTensor)
    shape = OperandDef(IndexTensor)
    output = ResultDef(AnyTflTensor)

    def verify_shapes(self) -> None:
        same_storage([self.operands[0], self.results[0]], "input and output")
        inp, out = shape_of(self.operands[0]), shape_of(self.results[0])
        count = num_elements(inp) if inp is not None else None
        if count is not None and out is not None and num_elements(out) not in (None, count):
            raise VerifyError(f"input of shape {fmt(inp)} has {count} elements but the result of "
                              f"shape {fmt(out)} has {num_elements(out)}")
        wanted = constant_ints(self.operands[1])
        if wanted is None or out is None:
            return
        if wanted.count(-1) > 1:
            raise VerifyError("shape may infer at most one dimension (-1)")
        if len(wanted) != len(out) or any(w != -1 and not dims_agree(w, o) for w, o in zip(wanted, out)):
            raise VerifyError(f"result shape {fmt(out)} does not match the requested shape {wanted}")


@TFL.op
class SqueezeOp(TflOp):
    """Remove size-1 dimensions (SQUEEZE): those listed in ``squeeze_dims``, or all of them."""

    OP_NAME = "tfl.squeeze"
    BUILTIN = "SQUEEZE"
    traits = (Pure(), MemoryOnly())
    input = OperandDef(AnyTflTensor)
    squeeze_dims = AttrDef(ArrayAttrC(IntAttrC(64)), default=[])
    output = ResultDef(AnyTflTensor)

    def verify_shapes(self) -> None:
        same_storage([self.operands[0], self.results[0]], "input and output")
        inp = shape_of(self.operands[0])
        if inp is None:
            return
        dims = {norm_axis(d, len(inp), "squeeze dimension") for d in self.squeeze_dims}
        if not dims:
            dims = {i for i, d in enumerate(inp) if d == 1}
        for d in dims:
            if inp[d] not in (1, DYNAMIC):
                raise VerifyError(f"cannot squeeze dimension {d} of size {inp[d]}")
        expect_shape(shape_of(self.results[0]), [d for i, d in enumerate(inp) if i not in dims])


@TFL.op
class ExpandDimsOp(TflOp):
    """Insert a size-1 dimension at index ``dim`` (EXPAND_DIMS); negative counts from the end."""

    OP_NAME = "tfl.expand_dims"
    BUILTIN = "EXPAND_DIMS"
    traits = (Pure(), MemoryOnly())
    input = OperandDef(AnyTflTensor)
    dim = OperandDef(IndexTensor)
    output = ResultDef(AnyTflTensor)

    def verify_shapes(self) -> None:
        same_storage([self.operands[0], self.results[0]], "input and output")
        inp = shape_of(self.operands[0])
        if inp is None:
            return
        expect_rank(shape_of(self.results[0]), len(inp) + 1, "result")
        dim = constant_ints(self.operands[1])
        if dim is None:
            return
        if len(dim) != 1:
            raise VerifyError(f"dim must hold one value, but holds {len(dim)}")
        axis = norm_axis(dim[0], len(inp) + 1, "dim")
        expect_shape(shape_of(self.results[0]), inp[:axis] + (1,) + inp[axis:])


@TFL.op
class TransposeOp(TflOp):
    """Permute dimensions (TRANSPOSE): output dimension i is input dimension perm[i]."""

    OP_NAME = "tfl.transpose"
    BUILTIN = "TRANSPOSE"
    traits = (Pure(),)
    input = OperandDef(AnyTflTensor)
    perm = OperandDef(IndexTensor)
    output = ResultDef(AnyTflTensor)

    def verify_shapes(self) -> None:
        same_storage([self.operands[0], self.results[0]], "input and output")
        inp = shape_of(self.operands[0])
        perm = constant_ints(self.operands[1])
        if inp is None or perm is None:
            return
        if sorted(perm) != list(range(len(inp))):
            raise VerifyError(f"perm {perm} is not a permutation of the input's {len(inp)} dimensions")
        expect_shape(shape_of(self.results[0]), [inp[p] for p in perm])


@TFL.op
class ConcatenationOp(TflOp):
    """Concatenate tensors along ``axis`` (CONCATENATION): every other dimension must agree and
    the result's ``axis`` dimension is the sum of the inputs'."""

    OP_NAME = "tfl.concatenation"
    BUILTIN = "CONCATENATION"
    traits = (Pure(),)
    values = OperandDef(AnyTflTensor, variadic=True)
    axis = AttrDef(I32Attr)
    fused_activation_function = AttrDef(ActivationAttr)
    output = ResultDef(AnyTflTensor)

    def verify_shapes(self) -> None:
        if not self.operands:
            raise VerifyError("expects at least one input")
        same_storage([*self.operands, self.results[0]], "inputs and output")
        shapes = [shape_of(v) for v in self.operands]
        if any(s is None for s in shapes):
            return
        rank = len(shapes[0])  # type: ignore[arg-type]
        axis = norm_axis(self.axis, rank)
        total = 0
        result = list(shapes[0])  # type: ignore[arg-type]
        for index, shape in enumerate(shapes):
            assert shape is not None
            if len(shape) != rank:
                raise VerifyError(f"input #{index} has rank {len(shape)}, expected {rank}")
            for d in range(rank):
                if d != axis and not dims_agree(shape[d], result[d]):
                    raise VerifyError(f"input #{index} has shape {fmt(shape)}, which disagrees with "
                                      f"{fmt(shapes[0])} outside axis {axis}")  # type: ignore[arg-type]
                if d != axis and result[d] == DYNAMIC:
                    result[d] = shape[d]
            total = DYNAMIC if DYNAMIC in (total, shape[axis]) else total + shape[axis]
        result[axis] = total
        expect_shape(shape_of(self.results[0]), result)


@TFL.op
class PackOp(TflOp):
    """Stack ``values_count`` tensors of one shape along a new dimension ``axis`` (PACK)."""

    OP_NAME = "tfl.pack"
    BUILTIN = "PACK"
    traits = (Pure(),)
    values = OperandDef(AnyTflTensor, variadic=True)
    axis = AttrDef(I32Attr)
    values_count = AttrDef(I32Attr)
    output = ResultDef(AnyTflTensor)

    def verify_shapes(self) -> None:
        if self.values_count != len(self.operands) or not self.operands:
            raise VerifyError(f"values_count is {self.values_count} but the op has "
                              f"{len(self.operands)} inputs")
        same_storage([*self.operands, self.results[0]], "inputs and output")
        first = shape_of(self.operands[0])
        if first is None:
            return
        for index, value in enumerate(self.operands):
            shape = shape_of(value)
            if shape is not None and (len(shape) != len(first) or not all(map(dims_agree, shape, first))):
                raise VerifyError(f"input #{index} has shape {fmt(shape)}, expected {fmt(first)}")
        axis = norm_axis(self.axis, len(first) + 1)
        expect_shape(shape_of(self.results[0]), first[:axis] + (len(self.operands),) + first[axis:])


@TFL.op
class UnpackOp(TflOp):
    """Split a tensor into ``num`` tensors along ``axis``, removing that dimension (UNPACK)."""

    OP_NAME = "tfl.unpack"
    BUILTIN = "UNPACK"
    traits = (Pure(),)
    input = OperandDef(AnyTflTensor)
    axis = AttrDef(I32Attr)
    num = AttrDef(I32Attr)
    outputs = ResultDef(AnyTflTensor, variadic=True)

    def verify_shapes(self) -> None:
        if self.num != len(self.results):
            raise VerifyError(f"num is {self.num} but the op has {len(self.results)} results")
        same_storage([self.operands[0], *self.results], "input and outputs")
        inp = shape_of(self.operands[0])
        if inp is None:
            return
        axis = norm_axis(self.axis, len(inp))
        if inp[axis] not in (DYNAMIC, self.num):
            raise VerifyError(f"dimension {axis} has size {inp[axis]}, not num = {self.num}")
        for index, result in enumerate(self.results):
            expect_shape(shape_of(result), inp[:axis] + inp[axis + 1:], f"result #{index}")


@TFL.op
class ShapeOp(TflOp):
    """The shape of a tensor as a 1-D i32 or i64 tensor (SHAPE)."""

    OP_NAME = "tfl.shape"
    BUILTIN = "SHAPE"
    traits = (Pure(),)
    input = OperandDef(AnyTflTensor)
    output = ResultDef(IndexTensor)

    def verify_shapes(self) -> None:
        inp = shape_of(self.operands[0])
        if inp is not None:
            expect_shape(shape_of(self.results[0]), (len(inp),))


__all__ = ["ReshapeOp", "SqueezeOp", "ExpandDimsOp", "TransposeOp", "ConcatenationOp", "PackOp",
           "UnpackOp", "ShapeOp"]
