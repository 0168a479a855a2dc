"""Memory-only views and the DMA copy.

``npu.reshape``, ``npu.slice`` and ``npu.concat`` move no data: their results alias memory of
their operands (a reshape and a slice read in place; a concatenation is the buffer its operands'
producers write into at offsets, Vela's ``ConcatSliceWrite``). ``npu.dma`` copies a tensor,
e.g. from one memory area to another (Vela's ``Memcpy`` and weight/LUT DMAs).
"""
from __future__ import annotations

from npu_opt.dialects.npu.dialect import NPU
from npu_opt.dialects.npu.interfaces import CostedOp
from npu_opt.hardware.op_kind import OpKind
from npu_opt.dialects.npu.ops_common import (
    AnyStaticTensor, NpuComputeOp, NpuOp, OffsetC, encoding_of, fmt, shape_of,
)
from npu_opt.ir.constraints import ArrayAttrC, IntAttrC, TypeConstraint
from npu_opt.ir.opdef import AttrDef, OperandDef, ResultDef, VerifyError
from npu_opt.ir.patterns import RewritePattern
from npu_opt.ir.rewriter import Rewriter
from npu_opt.ir.core import Operation, Value
from npu_opt.ir.traits import MemoryEffects, MemoryOnly, Pure
from npu_opt.ir.types import RankedTensorType, element_type_of

Static4D = TypeConstraint("static 4-D tensor",
                          lambda t: isinstance(t, RankedTensorType) and t.has_static_shape and t.rank == 4)


def _shape4(shape: tuple[int, ...]) -> tuple[int, ...]:
    """Vela's Shape4D: left-padded with ones to four dimensions."""
    return (1,) * (4 - len(shape)) + tuple(shape) if len(shape) <= 4 else tuple(shape)


def _same_elements(op: NpuOp, values: list) -> None:
    first = element_type_of(values[0].type)
    for value in values[1:]:
        if element_type_of(value.type) is not first:
            raise VerifyError(f"element types differ: '{first}' and '{element_type_of(value.type)}'")


def _same_area(op: NpuOp, a, b) -> None:
    ea, eb = encoding_of(a), encoding_of(b)
    area_a = ea.area if ea is not None else None
    area_b = eb.area if eb is not None else None
    if area_a != area_b:
        raise VerifyError("a view must stay in the memory area of the tensor it views")


class _FoldReshapeChain(RewritePattern):
    """reshape(reshape(x)) -> reshape(x); a reshape to its operand's own type -> its operand."""

    op_name = "npu.reshape"

    def match_and_rewrite(self, op: Operation, rewriter: Rewriter) -> None:
        source = op.operands[0]
        inner = getattr(source, "op", None)
        if source.type is op.results[0].type:
            rewriter.replace_op(op, [source])
            return
        if isinstance(inner, ReshapeOp):
            rewriter.set_operand(op, 0, inner.operands[0])


@NPU.op
class ReshapeOp(NpuOp):
    """A view of a tensor with another shape of the same elements in the same (NHWC) order:
    Vela's bypassed Reshape/Squeeze/ExpandDims, and the 4-D views compute ops need. NHCWB16 is
    only possible when both shapes are the same in 4-D (a no-op reshape)."""

    OP_NAME = "npu.reshape"
    traits = (Pure(), MemoryOnly())
    source = OperandDef(AnyStaticTensor, doc="the tensor viewed")
    result = ResultDef(AnyStaticTensor, doc="the same elements in another shape")

    def verify_npu(self) -> None:
        a, b = shape_of(self.source), shape_of(self.result)
        count_a = 1
        for d in a:
            count_a *= d
        count_b = 1
        for d in b:
            count_b *= d
        if count_a != count_b:
            raise VerifyError(f"cannot view {fmt(a)} ({count_a} elements) as {fmt(b)} ({count_b} elements)")
        _same_elements(self, [self.source, self.result])
        _same_area(self, self.source, self.result)
        encodings = [encoding_of(v) for v in (self.source, self.result)]
        if any(e is not None and e.format == "NHCWB16" for e in encodings) and _shape4(a) != _shape4(b):
            raise VerifyError("an NHCWB16 tensor can only be viewed with the same 4-D shape")

    @classmethod
    def canonicalization_patterns(cls) -> list[RewritePattern]:
        return [_FoldReshapeChain()]


@NPU.op
class SliceOp(NpuOp):
    """A view of the box of the result's shape at ``offset`` in a 4-D tensor (Vela's
    ``SplitSliceRead``, moved into its consumer as a read offset)."""

    OP_NAME = "npu.slice"
    traits = (Pure(), MemoryOnly())
    source = OperandDef(Static4D, doc="the tensor read from")
    offset = AttrDef(OffsetC, doc="NHWC element offset of the box")
    result = ResultDef(Static4D, doc="the box")

    def verify_npu(self) -> None:
        src, out = shape_of(self.source), shape_of(self.result)
        off = self.offset.values
        if len(off) != 4:
            raise VerifyError(f"offset must have four values, not {len(off)}")
        if any(o + r > s for o, r, s in zip(off, out, src)):
            raise VerifyError(f"box {fmt(out)} at {list(off)} is outside the source {fmt(src)}")
        _same_elements(self, [self.source, self.result])
        _same_area(self, self.source, self.result)


@NPU.op
class ConcatOp(NpuOp):
    """The buffer its operands' producers write into, each at its ``offsets`` entry (Vela's
    concatenation as ``ConcatSliceWrite`` ops, and PAD as a copy plus border fills).

    The boxes must tile the result exactly. Each operand must be produced by an npu op that
    writes it (a compute op or a DMA) and be used only here, so it can be written in place.
    With ``strides`` every slice writes one element per stride on each axis from its offset,
    so slices interleave (Vela's OFM stride multiplier; a strided write needs linear NHWC)."""

    OP_NAME = "npu.concat"
    traits = (Pure(), MemoryOnly())
    inputs = OperandDef(Static4D, variadic=True, doc="the slices, each written by its producer")
    offsets = AttrDef(ArrayAttrC(OffsetC), doc="NHWC offset of each slice in the result")
    strides = AttrDef(ArrayAttrC(IntAttrC(64, min_value=1)), optional=True,
                      doc="NHWC distance between neighbouring elements of a slice in the result (default 1s)")
    result = ResultDef(Static4D, doc="the assembled tensor")

    def steps(self) -> tuple[int, ...]:
        """The strides as four integers (ones when absent)."""
        given = self.strides
        return (1, 1, 1, 1) if given is None else tuple(int(s) for s in given)

    def verify_npu(self) -> None:
        out = shape_of(self.result)
        offsets = [o.values for o in self.offsets]
        steps = self.steps()
        if not self.operands:
            raise VerifyError("needs at least one slice")
        if len(offsets) != len(self.operands):
            raise VerifyError(f"has {len(self.operands)} slices but {len(offsets)} offsets")
        if len(steps) != 4:
            raise VerifyError(f"strides must have four values, not {len(steps)}")
        _same_elements(self, [*self.operands, self.result])
        total = 0
        boxes = []
        for index, (value, off) in enumerate(zip(self.operands, offsets)):
            shape = shape_of(value)
            if len(off) != 4 or any(o + (s - 1) * t >= r for o, s, r, t in zip(off, shape, out, steps)):
                raise VerifyError(f"slice #{index} {fmt(shape)} at {list(off)} is outside the result {fmt(out)}")
            producer = getattr(value, "op", None)
            if not isinstance(producer, (NpuComputeOp, DmaOp)) or len(value.uses) != 1:
                raise VerifyError(f"slice #{index} must be written by an npu compute or DMA op and used only here")
            _same_area(self, value, self.result)
            boxes.append((off, shape))
            count = 1
            for d in shape:
                count *= d
            total += count
        for i, (oa, sa) in enumerate(boxes):
            for j in range(i):
                ob, sb = boxes[j]
                if all(_progressions_meet(x, n, y, m, t) for x, n, y, m, t in zip(oa, sa, ob, sb, steps)):
                    raise VerifyError(f"slices #{j} and #{i} overlap")
        count = 1
        for d in out:
            count *= d
        if total != count:
            raise VerifyError(f"the slices cover {total} of the result's {count} elements")


def _progressions_meet(start_a: int, count_a: int, start_b: int, count_b: int, step: int) -> bool:
    """Whether ``start + step * k`` (k below the count) of two slices share an element."""
    if (start_a - start_b) % step:
        return False
    return start_a < start_b + count_b * step and start_b < start_a + count_a * step


@NPU.op
class DmaOp(NpuOp):
    """A copy by the NPU's DMA engine (Vela's ``Memcpy``, and the weight and LUT transfers of
    later passes): same shape and elements, possibly another memory area. DMA reads and writes
    linear (NHWC) data only. A transfer has memory effects (it reads its source and writes its
    destination), so CSE never merges two DMAs and DCE never erases an unused one."""

    OP_NAME = "npu.dma"
    VELA_OP = "Memcpy"
    traits = (MemoryEffects(read=True, write=True), CostedOp(OpKind.DMA))
    source = OperandDef(AnyStaticTensor, doc="the tensor copied")
    result = ResultDef(AnyStaticTensor, doc="the copy")

    def verify_npu(self) -> None:
        if shape_of(self.source) != shape_of(self.result):
            raise VerifyError(f"copy of {fmt(shape_of(self.source))} has shape {fmt(shape_of(self.result))}")
        _same_elements(self, [self.source, self.result])
        for value in (self.source, self.result):
            enc = encoding_of(value)
            if enc is not None and enc.format != "NHWC":
                raise VerifyError("a DMA copies NHWC (linear) tensors only")


def slice_root(value: Value) -> Value:
    """The buffer a slice result is a window of, through slices of slices (the value itself when
    no slice produces it)."""
    while isinstance(getattr(value, "op", None), SliceOp):
        value = value.op.operands[0]  # type: ignore[attr-defined]
    return value


__all__ = ["ConcatOp", "DmaOp", "ReshapeOp", "SliceOp", "slice_root"]
