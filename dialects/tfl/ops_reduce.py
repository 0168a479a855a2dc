"""Reductions and resampling: mean, arg_max, resize_bilinear and resize_nearest_neighbor."""
from __future__ import annotations

from npu_opt.ir.opdef import AttrDef, OperandDef, ResultDef, VerifyError
from npu_opt.ir.traits import Pure

from npu_opt.dialects.tfl.common import TFL, Activations, AnyTflTensor, BoolAttr, I32Tensor, IndexTensor, TflOp
from npu_opt.dialects.tfl.shapes import (
    constant_ints, expect_rank, expect_shape, norm_axis, same_storage, shape_of,
)


@TFL.op
class MeanOp(TflOp):
    """Mean over the dimensions listed in ``axis`` (MEAN); with ``keep_dims`` they stay as size 1,
    otherwise they are removed."""

    OP_NAME = "tfl.mean"
    BUILTIN = "MEAN"
    traits = (Pure(),)
    input = OperandDef(Activations)
    axis = OperandDef(IndexTensor)
    keep_dims = AttrDef(BoolAttr)
    output = ResultDef(Activations)

    def verify_shapes(self) -> None:
        same_storage([self.operands[0], self.results[0]], "input and output")
        inp = shape_of(self.operands[0])
        axes = constant_ints(self.operands[1])
        if inp is None or axes is None:
            return
        reduced = {norm_axis(a, len(inp)) for a in axes}
        if self.keep_dims:
            expected = [1 if i in reduced else d for i, d in enumerate(inp)]
        else:
            expected = [d for i, d in enumerate(inp) if i not in reduced]
        expect_shape(shape_of(self.results[0]), expected)


@TFL.op
class ArgMaxOp(TflOp):
    """Index of the largest value along dimension ``dim`` (ARG_MAX), which is removed. The result
    element type (i32 or i64) is TFLite's ``output_type``."""

    OP_NAME = "tfl.arg_max"
    BUILTIN = "ARG_MAX"
    traits = (Pure(),)
    input = OperandDef(AnyTflTensor)
    dim = OperandDef(IndexTensor)
    output = ResultDef(IndexTensor)

    def verify_shapes(self) -> None:
        inp = shape_of(self.operands[0])
        dim = constant_ints(self.operands[1])
        if inp is None or dim is None:
            return
        if len(dim) != 1:
            raise VerifyError(f"dim must hold one value, but holds {len(dim)}")
        axis = norm_axis(dim[0], len(inp), "dim")
        expect_shape(shape_of(self.results[0]), inp[:axis] + inp[axis + 1:])


class _Resize(TflOp):
    """Shared verifier: NHWC input, ``size`` = [new_height, new_width], output N x h x w x C."""

    def verify_shapes(self) -> None:
        same_storage([self.operands[0], self.results[0]], "input and output")
        inp = shape_of(self.operands[0])
        expect_rank(inp, 4, "input")
        expect_rank(shape_of(self.operands[1]), 1, "size")
        if self.align_corners and self.half_pixel_centers:
            raise VerifyError("align_corners and half_pixel_centers cannot both be true")
        size = constant_ints(self.operands[1])
        if inp is None:
            return
        if size is None:
            expect_rank(shape_of(self.results[0]), 4, "result")
            return
        if len(size) != 2 or min(size) < 1:
            raise VerifyError(f"size must hold two positive values, but is {size}")
        expect_shape(shape_of(self.results[0]), (inp[0], size[0], size[1], inp[3]))


@TFL.op
class ResizeBilinearOp(_Resize):
    """Bilinear resize of an NHWC tensor to ``size`` (RESIZE_BILINEAR)."""

    OP_NAME = "tfl.resize_bilinear"
    BUILTIN = "RESIZE_BILINEAR"
    traits = (Pure(),)
    input = OperandDef(Activations)
    size = OperandDef(I32Tensor)
    align_corners = AttrDef(BoolAttr, default=False)
    half_pixel_centers = AttrDef(BoolAttr, default=False)
    output = ResultDef(Activations)


@TFL.op
class ResizeNearestNeighborOp(_Resize):
    """Nearest-neighbour resize of an NHWC tensor to ``size`` (RESIZE_NEAREST_NEIGHBOR)."""

    OP_NAME = "tfl.resize_nearest_neighbor"
    BUILTIN = "RESIZE_NEAREST_NEIGHBOR"
    traits = (Pure(),)
    input = OperandDef(Activations)
    size = OperandDef(I32Tensor)
    align_corners = AttrDef(BoolAttr, default=False)
    half_pixel_centers = AttrDef(BoolAttr, default=False)
    output = ResultDef(Activations)


__all__ = ["MeanOp", "ArgMaxOp", "ResizeBilinearOp", "ResizeNearestNeighborOp"]
