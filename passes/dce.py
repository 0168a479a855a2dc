"""dce: erase pure ops whose results are unused, until none is left."""
from __future__ import annotations

from npu_opt.ir.core import Operation
from npu_opt.ir.dominance import DominanceInfo
from npu_opt.ir.pass_manager import PassContext
from npu_opt.ir.pass_registry import Pass, register_pass
from npu_opt.ir.patterns import is_trivially_dead


@register_pass("dce", statistics={"num-dce'd": "Number of dead operations erased"})
class DCE(Pass):
    """Erase operations without side effects whose results are never used."""

    PRESERVES = (DominanceInfo,)
    """Terminators are never dead, so the control flow, hence dominance, is unchanged."""

    def run(self, module: Operation, ctx: PassContext) -> None:
        worklist = [op for op in module.walk() if op is not module]
        while worklist:
            op = worklist.pop()
            if op.parent is None or not is_trivially_dead(op):
                continue
            producers = [getattr(v, "op", None) for v in op.operands]
            ctx.rewriter.erase_op(op)
            ctx.stat("num-dce'd")
            worklist.extend(p for p in producers if p is not None)
