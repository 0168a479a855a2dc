"""``npu-insert-dma``: the copies of constant data into fast storage, as explicit ``npu.dma`` ops,
where the NPU would otherwise read weights from slow memory.

Design notes: docs/scheduler_design.md, section npu-insert-dma (insert_dma)."""
from __future__ import annotations

from npu_opt.dialects.npu.attrs import FmAttr
from npu_opt.hardware.op_kind import OpKind
from npu_opt.dialects.npu.ops_common import NpuComputeOp, encoding_of, feature_map, is_constant, with_encoding
from npu_opt.dialects.npu.ops_memory import DmaOp
from npu_opt.dialects.npu.interfaces import costed
from npu_opt.hardware.perf.arch import perf_target
from npu_opt.dialects.npu.perf.ir_adapter import report_name
from npu_opt.hardware.perf.weight_buffering import weights_need_dma
from npu_opt.dialects.npu.perf.weight_dma import weights_of
from npu_opt.dialects.npu.perf.weight_streams import WeightStreams
from npu_opt.dialects.npu.target_attr import target_of
from npu_opt.ir.core import Operation
from npu_opt.ir.dominance import DominanceInfo
from npu_opt.ir.pass_manager import PassContext
from npu_opt.ir.pass_registry import Pass, option, register_pass
from npu_opt.ir.types import RankedTensorType
from npu_opt.dialects.npu.dma_issue import dma_free_order
from npu_opt.dialects.npu.execution_order import graph_blocks


@register_pass("npu-insert-dma", statistics={
    "weights": "ops whose weights get a DMA into fast storage",
    "in-place": "weighted ops whose weights are read where they are (fast storage, or fully connected)",
    "luts": "LUTs left to the implicit SHRAM copy the estimate charges",
})
class InsertDma(Pass):
    """Insert an ``npu.dma`` copying each op's weights into fast storage where Vela would copy
    them (see the module docstring), and make the op read the copy."""

    PRESERVES = (WeightStreams, DominanceInfo)
    """The weight values and block configs the encoders depend on do not change; the DMA is a
    new op in the same block."""

    weights: bool = option(True, "copy weights held in slow permanent storage into fast storage")

    def run(self, module: Operation, ctx: PassContext) -> None:
        target = target_of(module)
        perf = perf_target(target)
        fast = target.fast_storage_area
        for block in list(graph_blocks(module)):
            try:
                order = dma_free_order(block)  # (weight DMAs need no copy; a new one has no time yet)
            except ValueError as err:
                ctx.error(str(err), block.parent_op())
                continue
            for op in order:  # each new copy gets its time from npu-order, which the pipeline runs next
                self._visit(op, target, perf, fast, ctx)

    def _visit(self, op: Operation, target, perf, fast: str, ctx: PassContext) -> Operation | None:
        """Copy ``op``'s weights if they need it (returns the DMA); remarks say why not."""
        if isinstance(op, NpuComputeOp):
            if op.lut_operand() is not None:
                ctx.stat("luts")
                ctx.remark(f"the LUT of '{report_name(op)}' gets no npu.dma: Vela copies it into SHRAM, which no "
                           f"#npu.fm memory area names; the estimate charges that copy to the op", op)
        weights = weights_of(op)
        if weights is None or not self.weights:
            return None
        if not is_constant(weights):  # a copy already (the pass ran before) or not a constant
            return None
        interface = costed(op)
        area = feature_map(weights, target).area
        if interface is not None and interface.kind is OpKind.VECTOR_PRODUCT:
            ctx.stat("in-place")
            ctx.remark(f"weights of '{report_name(op)}' are read in place from {area}: fully connected ops "
                       f"never buffer weights", op)
            return None
        if not weights_need_dma(perf, area):
            ctx.stat("in-place")
            ctx.remark(f"weights of '{report_name(op)}' are read in place from {area}: "
                       f"{self._why_no_copy(area, target)}", op)
            return None
        ctx.stat("weights")
        return self._copy(op, weights, fast, ctx)

    @staticmethod
    def _why_no_copy(area: str, target) -> str:
        if target.permanent_storage_area == target.fast_storage_area:
            return f"the permanent storage is the fast storage ({target.fast_storage_area})"
        return f"only weights in Dram or OffChipFlash are copied into {target.fast_storage_area}"

    @staticmethod
    def _copy(op: Operation, weights, fast: str, ctx: PassContext) -> Operation:
        """Insert the DMA of ``weights`` into ``fast`` before ``op`` and make ``op`` read it."""
        t = weights.type
        assert isinstance(t, RankedTensorType)
        old = encoding_of(weights)
        copy_type = with_encoding(t, FmAttr(old.format if old is not None else "NHWC", fast))
        dma = DmaOp.build([weights], [copy_type], location=op.location)
        ctx.rewriter.insert_before(dma, op)
        index = next(i for i, operand in enumerate(op.operands) if operand is weights)
        ctx.rewriter.set_operand(op, index, dma.results[0])
        return dma


__all__ = ["InsertDma"]
