"""After lowering: fold reshape chains, fuse stand-alone activations into the ops producing their
input, and erase what became dead.

- A table lookup (``npu.lut`` from a tanh, sigmoid, hard-swish or leaky ReLU) moves into the op
  before it when Vela's ``fuse_activation_function_with_prev`` would move it: that op is an NPU
  compute op without an activation, its result is used only by the lookup, it can take a table,
  and the accelerator has SHRAM banks reserved for the LUT (not U55-32/64). The op then writes
  the lookup's result type and rescales to its old one first (``output_quant``).
- A ReLU-family 1x1 average pool "no-op" disappears into the op before it when Vela's pass
  packing would put both in one pass: a compute op without an activation whose result, of the
  same type and 4-D shape, is used only by the activation.
"""
from __future__ import annotations

from typing import Iterable

from npu_opt.dialects.npu.ops_common import NpuComputeOp
from npu_opt.dialects.npu.ops_memory import ReshapeOp
from npu_opt.dialects.npu.ops_pool import AvgPoolOp
from npu_opt.ir.attributes import StringAttr, TypeAttr
from npu_opt.ir.core import Operation, Value
from npu_opt.ir.rewriter import Rewriter
from npu_opt.ir.traits import ConstantLike
from npu_opt.ir.types import RankedTensorType, element_type_of
from npu_opt.passes.npu_lowering.builder import Builder
from npu_opt.passes.npu_lowering.context import Lowering
from npu_opt.passes.npu_lowering.elementwise import FUSABLE_MARK

def fold_reshapes(ops: Iterable[Operation], rewriter: Rewriter) -> None:
    """reshape(reshape(x)) -> reshape(x); identity reshapes disappear; unused ones are erased."""
    for op in list(ops):
        if op.parent is None or not isinstance(op, ReshapeOp):
            continue
        inner = getattr(op.operands[0], "op", None)
        while isinstance(inner, ReshapeOp):
            rewriter.set_operand(op, 0, inner.operands[0])
            if not inner.results[0].uses:
                rewriter.erase_op(inner)
            inner = getattr(op.operands[0], "op", None)
        if op.operands[0].type is op.results[0].type:
            rewriter.replace_op(op, [op.operands[0]])
        elif not op.results[0].uses:
            rewriter.erase_op(op)


def erase_dead(candidates: Iterable[Operation], rewriter: Rewriter) -> None:
    """Erase constants and views among ``candidates`` that have no uses left (transitively)."""
    work = [op for op in candidates]
    while work:
        op = work.pop()
        if op.parent is None or any(r.uses for r in op.results):
            continue
        if not op.has_trait(ConstantLike) and not isinstance(op, ReshapeOp):
            continue
        producers = [getattr(v, "op", None) for v in op.operands]
        rewriter.erase_op(op)
        work.extend(p for p in producers if p is not None)


def _producer(value: Value) -> tuple[NpuComputeOp | None, list[Operation]]:
    """The compute op whose result reaches ``value`` through single-use reshapes, and the reshapes."""
    chain: list[Operation] = []
    while True:
        owner = getattr(value, "op", None)
        if owner is None or len(value.uses) != 1:
            return None, chain
        if isinstance(owner, ReshapeOp):
            chain.append(owner)
            value = owner.operands[0]
            continue
        return (owner if isinstance(owner, NpuComputeOp) else None), chain


def _can_take_activation(op: NpuComputeOp) -> bool:
    act = op.attr("activation")
    return (getattr(act, "kind", "none") == "none" and op.attr(FUSABLE_MARK) is None)


def _shape(value: Value) -> tuple[int, ...]:
    t = value.type
    return t.shape if isinstance(t, RankedTensorType) else ()


def fuse_lut(lut: Operation, lowering: Lowering) -> bool:
    """Move a stand-alone table lookup into its producer; True if it did."""
    producer, chain = _producer(lut.operands[0])
    if producer is None or not lowering.lut_fusion_allowed or not _can_take_activation(producer):
        return False
    takes_table = any(d.name == "lut" for d in type(producer)._operand_defs)
    if not takes_table or _shape(producer.results[0]) != _shape(lut.operands[0]):
        return False
    rewriter = lowering.ctx.rewriter
    b = Builder(lowering.ctx, producer, "", lowering.target)
    new_type = RankedTensorType(_shape(producer.results[0]), element_type_of(lut.results[0].type))
    props = dict(producer.properties)
    props["activation"] = b.activation("lut", new_type)
    props["output_quant"] = TypeAttr(element_type_of(producer.results[0].type))
    fused = type(producer)(producer.name, [*producer.operands, lut.operands[1]], [new_type],
                           dict(producer.attributes), props, location=producer.location)
    rewriter.insert_before(fused, lut)  # where the table, defined after the producer, dominates it
    rewriter.replace_all_uses(lut.results[0], fused.results[0])
    rewriter.erase_op(lut)
    for view in chain:
        rewriter.erase_op(view)
    rewriter.erase_op(producer)
    return True


def fuse_relu(nop: Operation, lowering: Lowering) -> bool:
    """Fold a ReLU-family average-pool no-op into its producer; True if it did."""
    producer, chain = _producer(nop.operands[0])
    if producer is None or not _can_take_activation(producer):
        return False
    if producer.results[0].type is not nop.results[0].type:
        return False
    rewriter = lowering.ctx.rewriter
    b = Builder(lowering.ctx, producer, "", lowering.target)
    kind = nop.attr("activation").kind  # type: ignore[union-attr]
    quirk = isinstance(producer, AvgPoolOp) and producer.attr("rescale") is None
    rewriter.set_property(producer, "activation", b.activation(kind, producer.results[0].type, avgpool=quirk))
    rewriter.replace_all_uses(nop.results[0], producer.results[0])
    rewriter.erase_op(nop)
    for view in chain:
        rewriter.erase_op(view)
    return True


def fuse_activations(ops: list[Operation], lowering: Lowering) -> int:
    """Fuse the marked stand-alone activations among ``ops`` (tables first, as in Vela); returns
    how many were fused. The marks are removed."""
    fused = 0
    marked = [op for op in ops if op.parent is not None and op.attr(FUSABLE_MARK) is not None]
    for kind, fuse in (("lut", fuse_lut), ("relu", fuse_relu)):
        for op in marked:
            mark = op.attributes.get(FUSABLE_MARK)
            if op.parent is None or not isinstance(mark, StringAttr) or mark.value != kind:
                continue
            if fuse(op, lowering):
                fused += 1
    for op in marked:
        if op.parent is not None:
            lowering.ctx.rewriter.remove_attr(op, FUSABLE_MARK)
    return fused


__all__ = ["erase_dead", "fold_reshapes", "fuse_activations"]
