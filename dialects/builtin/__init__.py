"""The builtin dialect: ``builtin.module``, the top-level container of a program."""
from __future__ import annotations

from npu_opt.ir.constraints import StrAttrC
from npu_opt.ir.opdef import AttrDef, Dialect, Op, register_dialect
from npu_opt.ir.traits import IsolatedFromAbove, NoTerminator, SingleBlock, SymbolTable

BUILTIN = register_dialect(Dialect("builtin", "MLIR's builtin dialect: the module container."))


@BUILTIN.op
class ModuleOp(Op):
    """A container of functions and other symbols; printed as ``module { ... }``.

    Its single block has no terminator, and the symbols defined in it must be unique."""

    OP_NAME = "builtin.module"
    traits = (IsolatedFromAbove(), NoTerminator(), SingleBlock(), SymbolTable())
    sym_name = AttrDef(StrAttrC(), optional=True, doc="optional module name")

    def verify_op(self) -> None:
        from npu_opt.ir.opdef import VerifyError
        if len(self.regions) != 1:
            raise VerifyError("requires one region")
        if self.operands or self.results:
            raise VerifyError("takes no operands and has no results")


__all__ = ["BUILTIN", "ModuleOp"]
