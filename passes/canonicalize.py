"""canonicalize: fold ops and apply every registered op's canonicalization patterns greedily."""
from __future__ import annotations

from npu_opt.ir.core import Operation
from npu_opt.ir.opdef import iter_ops
from npu_opt.ir.pass_manager import PassContext
from npu_opt.ir.pass_registry import Pass, option, register_pass
from npu_opt.ir.patterns import RewritePattern, apply_patterns_greedily


def canonicalization_patterns() -> list[RewritePattern]:
    patterns: list[RewritePattern] = []
    for cls in iter_ops():
        patterns.extend(cls.canonicalization_patterns())
    return patterns


@register_pass("canonicalize", statistics={
    "num-folded": "Number of ops folded",
    "num-rewritten": "Number of pattern rewrites applied",
    "num-dce'd": "Number of trivially dead ops erased",
    "num-iterations": "Number of greedy sweeps run",
})
class Canonicalize(Pass):
    """Fold ops, erase dead pure ops and apply canonicalization patterns until a fixed point."""

    max_iterations: int = option(10, "the most greedy sweeps to run")
    test_convergence: bool = option(False, "fail if the sweeps have not converged at the limit")
    fold: bool = option(True, "also fold ops with their fold hooks")

    def run(self, module: Operation, ctx: PassContext) -> None:
        result = apply_patterns_greedily(module, canonicalization_patterns(), ctx.rewriter,
                                         max_iterations=self.max_iterations, fold=self.fold)
        ctx.stat("num-folded", result.folded)
        ctx.stat("num-rewritten", result.pattern_hits)
        ctx.stat("num-dce'd", result.erased_dead)
        ctx.stat("num-iterations", result.iterations)
        if self.test_convergence and not result.converged:
            ctx.error(f"canonicalizer failed to converge within {self.max_iterations} iterations", module)
