"""npu-legalize: lower the tfl ops Vela 5.2 runs on the NPU into npu ops; leave the others as tfl
ops marked for the CPU, with a remark saying why.

Design notes: docs/lowering_design.md, section npu-legalize (npu_legalize)."""
from __future__ import annotations

from importlib import import_module
from typing import Callable

from npu_opt.hardware.accelerators import DEFAULT_ACCELERATOR
from npu_opt.dialects.npu.ops_common import NpuOp
from npu_opt.hardware.target import resolve_target
from npu_opt.dialects.npu.target_attr import target_of
from npu_opt.ir.attributes import StringAttr
from npu_opt.ir.core import Operation
from npu_opt.ir.pass_manager import PassContext
from npu_opt.ir.pass_registry import Pass, option, register_pass
from npu_opt.ir.traits import ConstantLike, MemoryOnly
from npu_opt.passes.npu_lowering import conv, elementwise, shape
from npu_opt.passes.npu_lowering.context import Lowering
from npu_opt.passes.npu_lowering.fuse import erase_dead, fold_reshapes, fuse_activations
from npu_opt.passes.npu_lowering.support import Reason, check
from npu_opt.passes.npu_lowering.view import builtin_name

PLACEMENT_ATTR = "npu.placement"
"""Discardable attribute of a tfl op left for the CPU (value "cpu")."""

Lower = Callable[[Operation, Lowering], None]


def _on_first_use(module: str, function: str) -> Lower:
    """The lowering ``function`` of ``passes/npu_lowering/<module>.py``, importing that module only
    when an op of its family is lowered (most models have no softmax, mean, split, ...)."""
    def lower(op: Operation, lowering: Lowering) -> None:
        getattr(import_module(f"npu_opt.passes.npu_lowering.{module}"), function)(op, lowering)
    lower.__qualname__ = lower.__name__ = f"{module}.{function}"
    return lower


LOWERINGS: dict[str, Lower] = {
    **{name: conv.lower_mac for name in ("tfl.conv_2d", "tfl.depthwise_conv_2d", "tfl.fully_connected",
                                         "tfl.transpose_conv")},
    "tfl.average_pool_2d": _on_first_use("pool", "lower_pool"),
    "tfl.max_pool_2d": _on_first_use("pool", "lower_pool"),
    **{name: elementwise.lower_binary for name in elementwise.BINARY_OPS},
    **{name: elementwise.lower_relu for name in elementwise.RELU_KIND},
    **{name: elementwise.lower_table_activation for name in elementwise.TABLE_FUNCTIONS},
    "tfl.leaky_relu": elementwise.lower_leaky_relu,
    "tfl.quantize": elementwise.lower_quantize,
    "tfl.abs": elementwise.lower_abs,
    "tfl.squared_difference": elementwise.lower_squared_difference,
    **{name: _on_first_use("split", "lower_split")
       for name in ("tfl.split", "tfl.split_v", "tfl.slice", "tfl.strided_slice", "tfl.unpack")},
    "tfl.softmax": _on_first_use("softmax", "lower_softmax"),
    "tfl.mean": _on_first_use("mean", "lower_mean"),
    "tfl.pad": shape.lower_pad,
    "tfl.concatenation": shape.lower_concat,
    "tfl.resize_nearest_neighbor": shape.lower_resize_nearest,
    "tfl.resize_bilinear": _on_first_use("resize_bilinear", "lower_resize_bilinear"),
    "tfl.shape": shape.lower_shape,
}

REASONS = {
    "operator": "operators Vela never runs on the NPU",
    "unimplemented": "operators Vela runs on the NPU that npu-legalize does not lower yet",
    "dtype": "unsupported data types", "int32": "int32 tensors on ops that do not take them",
    "dimension": "tensor dimensions outside [1, 65535]", "batch": "batch sizes above 1",
    "stride": "strides the NPU cannot run", "kernel": "kernel sizes and dilations beyond the limits",
    "weights": "non-constant, non-8-bit or too large weights", "bias": "unsupported biases",
    "no-quantization": "tensors without quantisation (e.g. float)",
    "fused-activation": "unsupported fused activations", "broadcast": "unsupported broadcasting",
    "neighbours": "memory-only ops between CPU ops",
}
"""Statistics ``cpu-<key>`` of the most common reasons (others appear under their own key)."""


@register_pass("npu-legalize", statistics={
    "tfl-ops-lowered": "tfl ops lowered to npu ops",
    "npu-ops-created": "npu ops created (compute ops and views)",
    "cpu-ops": "tfl ops left on the CPU",
    "activations-fused": "stand-alone activations fused into the op before them",
    "pads-absorbed": "ops taking the PAD before them as hardware padding",
    **{f"cpu-{key}": f"ops left on the CPU for {text}" for key, text in REASONS.items()},
})
class NpuLegalize(Pass):
    """Lower tfl ops to npu ops where Vela runs them on the NPU; mark the rest for the CPU.

    Decompositions follow Vela 5.2's graph optimiser (softmax, mean, pad, strided average pools,
    table activations, ...); each op left on the CPU gets a remark naming the violated constraint."""

    force_symmetric_int_weights: bool = option(
        False, "run convolutions with asymmetric int8/int16 weights on the NPU, taking their zero points as 0 "
               "(Vela's --force-symmetric-int-weights)")

    def run(self, module: Operation, ctx: PassContext) -> None:
        target = target_of(module, required=False) or resolve_target(DEFAULT_ACCELERATOR)
        for func in [op for op in module.walk() if op.name == "func.func"]:
            for region in func.regions:
                for block in region.blocks:
                    self._legalize(list(block.ops), ctx, target)

    # ---------------------------------------------------------------------------------------
    def _legalize(self, block_ops: list[Operation], ctx: PassContext, target: object) -> None:
        lowering = Lowering(ctx, target, force_symmetric_weights=self.force_symmetric_int_weights)
        ops = [op for op in block_ops if op.dialect == "tfl" and not op.has_trait(ConstantLike)]
        for index, op in enumerate(ops):
            lowering.ordinals[op] = index
        # ops already marked for the CPU (by an earlier run, or by hand) stay there, silently
        ops = [op for op in ops if op.attr(PLACEMENT_ATTR) is None]
        reasons = self._place(ops, lowering)
        for op in ops:
            reason = reasons.get(op)
            if reason is not None:
                self._mark_cpu(op, reason, lowering)
        copies = {op: shape.needs_copy(op, lowering) for op in ops
                  if op.has_trait(MemoryOnly) and lowering.on_npu(op)}
        absorbed_pads = []
        for op in ops:
            if op.name == "tfl.pad" and lowering.on_npu(op):
                count, whole = shape.plan_pad(op, lowering)
                ctx.stat("pads-absorbed", count)
                if whole:
                    absorbed_pads.append(op)
        leftovers: list[Operation] = []
        for op in ops:
            if not lowering.on_npu(op) or any(op is pad for pad in absorbed_pads):
                continue
            leftovers.extend(v.op for v in op.operands if hasattr(v, "op"))  # type: ignore[attr-defined]
            if op.has_trait(MemoryOnly):
                shape.lower_reshape(op, lowering, copies[op])
            else:
                LOWERINGS[op.name](op, lowering)
            ctx.stat("tfl-ops-lowered")
        for pad in absorbed_pads:
            if not pad.results[0].uses:
                leftovers.extend(v.op for v in pad.operands if hasattr(v, "op"))  # type: ignore[attr-defined]
                ctx.rewriter.erase_op(pad)
                ctx.stat("tfl-ops-lowered")
        block = next((op.parent for op in block_ops if op.parent is not None), None)
        if block is None:
            return
        fold_reshapes(self._npu_ops(block), ctx.rewriter)
        ctx.stat("activations-fused", fuse_activations(self._npu_ops(block), lowering))
        fold_reshapes(self._npu_ops(block), ctx.rewriter)
        erase_dead(leftovers + self._npu_ops(block), ctx.rewriter)
        ctx.stat("npu-ops-created", len(self._npu_ops(block)))

    @staticmethod
    def _npu_ops(block: object) -> list[Operation]:
        return [op for op in block.ops if isinstance(op, NpuOp)]  # type: ignore[attr-defined]

    # ---------------------------------------------------------------------------------------
    def _place(self, ops: list[Operation], lowering: Lowering) -> dict[Operation, Reason]:
        """Decide each op's placement; the reasons of those left on the CPU."""
        reasons: dict[Operation, Reason] = {}
        for op in ops:
            reason = check(op)
            if reason is not None and reason.key == "asymmetric-weights" and self.force_symmetric_int_weights:
                reason = None
            if reason is None:
                lowering.placement[op] = True
            else:
                reasons[op] = reason
        memory_ops = [op for op in ops if op.has_trait(MemoryOnly) and lowering.on_npu(op)]
        for op in memory_ops:
            lowering.placement[op] = False
        changed = True
        while changed:
            changed = False
            for op in memory_ops:
                if lowering.on_npu(op):
                    continue
                producer = getattr(op.operands[0], "op", None)
                if lowering.on_npu(producer) or any(lowering.on_npu(user) for user in op.results[0].users()):
                    lowering.placement[op] = True
                    changed = True
        for op in memory_ops:
            if not lowering.on_npu(op):
                reasons[op] = Reason("neighbours", "A memory-only op stays on the CPU unless its producer or a "
                                         "consumer runs on the NPU")
        return reasons

    @staticmethod
    def _mark_cpu(op: Operation, reason: Reason, lowering: Lowering) -> None:
        ctx = lowering.ctx
        ctx.rewriter.set_attr(op, PLACEMENT_ATTR, StringAttr("cpu"))
        ctx.remark(f"{builtin_name(op)} '{lowering.name(op)}' runs on the CPU: {reason.message}", op)
        ctx.stat("cpu-ops")
        ctx.stat(f"cpu-{reason.key}")


__all__ = ["LOWERINGS", "NpuLegalize", "PLACEMENT_ATTR"]
