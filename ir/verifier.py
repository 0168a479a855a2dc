"""IR-wide verification: declared op constraints, traits, custom verifiers, terminators, dominance.

Runs after parsing and after every pass. Reports every problem it finds through a
DiagnosticEngine (several per run) and returns whether the IR is valid.
"""
from __future__ import annotations

from npu_opt.ir.analysis import AnalysisManager
from npu_opt.ir.core import Block, BlockArgument, Operation, OpResult, Region, Value
from npu_opt.ir.declared import DeclaredChecks
from npu_opt.ir.diagnostics import Diagnostic, DiagnosticEngine
from npu_opt.ir.dominance import DominanceInfo
from npu_opt.ir.opdef import Op, VerifyError
from npu_opt.ir.traits import IsolatedFromAbove, IsTerminator, NoTerminator


class _Verifier:
    """One verification run: reports to ``diags``, reads block dominance from ``dominance``."""

    def __init__(self, diags: DiagnosticEngine, dominance: DominanceInfo, declared: DeclaredChecks) -> None:
        self.diags = diags
        self.dominance = dominance
        self.declared = declared
        self.ok = True

    def error(self, op: Operation, message: str, note: tuple[str, Operation | None] | None = None) -> None:
        self.ok = False
        diag = Diagnostic("error", f"'{op.name}' op {message}", op.diag_location())
        if note is not None:
            diag.attach_note(note[0], note[1].diag_location() if note[1] is not None else None)
        self.diags.emit(diag)

    def op(self, op: Operation) -> None:
        if isinstance(op, Op):
            violations = self.declared.violations(op)
            for message in violations:
                self.error(op, message)
            for trait in op.traits:
                for message in trait.verify(op):
                    if isinstance(message, tuple):
                        self.error(message[1], message[0], message[2])
                    else:
                        self.error(op, message)
            if not (violations and op.VERIFY_OP_NEEDS_DECLARED):
                try:
                    op.verify_op()
                except VerifyError as err:
                    self.error(op, str(err))
            if not op.has_trait(NoTerminator):
                for index, region in enumerate(op.regions):
                    for block in region.blocks:
                        self.terminator(op, block)

    def terminator(self, owner: Operation, block: Block) -> None:
        last = block.last
        if last is None:
            self.error(owner, "empty block: expect at least a terminator")
        elif isinstance(last, Op) and not last.has_trait(IsTerminator):
            self.error(last, "block must end with a terminator operation (e.g. 'func.return')")

    # -- dominance -----------------------------------------------------------------------------
    def region(self, region: Region, visible: list[set[Value]]) -> None:
        blocks = region.blocks
        if len(blocks) <= 1:
            for block in blocks:
                self.block(block, visible)
            return
        tree = self.dominance.region(region)
        defined_in: dict[Block, set[Value]] = {}
        for block in tree.order:
            # values of every dominating block are visible: chain through the dominator tree
            chain = []
            cursor = tree.idom[block]
            while cursor is not None:
                chain.append(defined_in[cursor])
                cursor = tree.idom.get(cursor)
            defined_in[block] = self.block(block, visible + chain)

    def block(self, block: Block, visible: list[set[Value]]) -> set[Value]:
        local: set[Value] = set(block.args)
        scopes = visible + [local]
        for op in block.ops:
            if op.parent is not block:
                self.error(op, "is linked into a block it does not belong to")
            for index, value in enumerate(op.operands):
                if value in local:
                    continue
                if any(value in scope for scope in visible):
                    continue
                self.bad_operand(op, index, value)
            self.op(op)
            if op.regions:
                isolated = op.has_trait(IsolatedFromAbove)
                inner = [] if isolated else scopes
                for region in op.regions:
                    self.region(region, list(inner))
            for result in op.results:
                local.add(result)
        return local

    def bad_operand(self, op: Operation, index: int, value: Value) -> None:
        if isinstance(value, OpResult):
            definer = value.op
            if definer.parent is None:
                self.error(op, f"operand #{index} refers to a value whose defining op was erased")
                return
            if _is_outside_isolated(op, definer):
                self.error(op, f"using value defined outside the region (operand #{index})",
                           ("required by region isolation constraints", _isolating_ancestor(op)))
                return
            self.error(op, f"operand #{index} does not dominate this use", ("operand defined here", definer))
        elif isinstance(value, BlockArgument):
            self.error(op, f"operand #{index} is a block argument that does not dominate this use")
        else:
            self.error(op, f"operand #{index} is not a value of this IR")


def _isolating_ancestor(op: Operation) -> Operation | None:
    for ancestor in op.ancestors():
        if ancestor.has_trait(IsolatedFromAbove):
            return ancestor
    return None


def _is_outside_isolated(user: Operation, definer: Operation) -> bool:
    isolating = _isolating_ancestor(user)
    if isolating is None:
        return False
    return not any(a is isolating for a in definer.ancestors())


def verify(root: Operation, diags: DiagnosticEngine, analyses: AnalysisManager | None = None) -> bool:
    """Verify ``root`` and everything nested in it; report problems to ``diags``. The dominance
    analysis and the memo of declared-constraint checks come from ``analyses`` when given
    (computed once, shared with the passes and with later verifications)."""
    manager = analyses if analyses is not None else AnalysisManager()
    verifier = _Verifier(diags, manager.get(DominanceInfo, root), manager.get(DeclaredChecks, root))
    verifier.op(root)
    for region in root.regions:
        verifier.region(region, [])
    return verifier.ok
