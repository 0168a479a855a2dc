"""Passes that exist to test the infrastructure itself (like MLIR's test passes)."""
from __future__ import annotations

from npu_opt.ir.core import Operation
from npu_opt.ir.pass_manager import PassContext
from npu_opt.ir.pass_registry import Pass, option, register_pass


@register_pass("test-crash")
class TestCrash(Pass):
    """Raise an internal error, to exercise the crash reproducer (testing only)."""

    message: str = option("deliberate crash", "the text of the raised error")

    def run(self, module: Operation, ctx: PassContext) -> None:
        raise RuntimeError(self.message)


@register_pass("test-error")
class TestError(Pass):
    """Report an error on every op with the given name (testing only)."""

    op_name: str = option("test.effect", "ops of this name get an error")

    def run(self, module: Operation, ctx: PassContext) -> None:
        for op in module.walk():
            if op.name == self.op_name:
                ctx.error(f"test-error: found '{self.op_name}'", op)


@register_pass("test-dataflow", statistics={"nodes": "ops in function bodies", "edges": "use edges"})
class TestDataflow(Pass):
    """Count the nodes and edges of every function's dataflow graph (testing only)."""

    def run(self, module: Operation, ctx: PassContext) -> None:
        from npu_opt.ir.dataflow import DataflowGraph
        for op in module.walk():
            if op.name == "func.func" and op.regions and op.regions[0].blocks:
                graph = ctx.analyses.get(DataflowGraph, op).graph
                ctx.stat("nodes", graph.number_of_nodes())
                ctx.stat("edges", graph.number_of_edges())
                ctx.remark(f"dataflow of @{op.attr('sym_name').value}: {graph.number_of_nodes()} ops, "
                           f"{graph.number_of_edges()} edges", op)


@register_pass("test-break-ir", statistics={"erased": "func.return ops erased"})
class TestBreakIR(Pass):
    """Erase every func.return, leaving invalid IR for the verifier to catch (testing only)."""

    def run(self, module: Operation, ctx: PassContext) -> None:
        for op in [op for op in module.walk() if op.name == "func.return"]:
            ctx.rewriter.erase_op(op)
            ctx.stat("erased")
