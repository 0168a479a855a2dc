"""The func dialect: ``func.func`` (functions) and ``func.return`` (their terminator)."""
from __future__ import annotations

from npu_opt.ir.attributes import ArrayAttr, DictionaryAttr, StringAttr, TypeAttr
from npu_opt.ir.constraints import AnyType, ArrayAttrC, StrAttrC, SymbolNameC, TypeAttrC
from npu_opt.ir.core import Block, Region
from npu_opt.ir.location import UNKNOWN_LOC, Location
from npu_opt.ir.opdef import AttrDef, Dialect, Op, OperandDef, VerifyError, register_dialect
from npu_opt.ir.traits import HasParent, IsTerminator, IsolatedFromAbove, Pure, ReturnLike, Symbol
from npu_opt.ir.types import FunctionType, Type

FUNC = register_dialect(Dialect("func", "Functions, returns."))


@FUNC.op
class FuncOp(Op):
    """A function: a symbol with a signature and a body region (empty for a declaration).

    The entry block's arguments must match the signature's inputs; every ``func.return`` in the
    body must return values of the signature's result types."""

    OP_NAME = "func.func"
    traits = (IsolatedFromAbove(), Symbol())
    sym_name = AttrDef(SymbolNameC(), doc="the function's name")
    function_type = AttrDef(TypeAttrC(FunctionType), doc="the signature")
    sym_visibility = AttrDef(StrAttrC(("public", "private", "nested")), optional=True)
    arg_attrs = AttrDef(ArrayAttrC(), optional=True, doc="one dictionary per argument")
    res_attrs = AttrDef(ArrayAttrC(), optional=True, doc="one dictionary per result")

    @classmethod
    def create(cls, name: str, inputs: list[Type], results: list[Type],
               location: Location = UNKNOWN_LOC) -> "FuncOp":
        """A function with an empty entry block whose arguments match ``inputs``."""
        region = Region([Block(inputs)])
        op = cls.build(attrs={"sym_name": StringAttr(name),
                              "function_type": TypeAttr(FunctionType(inputs, results))},
                       regions=[region], location=location)
        return op  # type: ignore[return-value]

    @property
    def body(self) -> Region:
        return self.regions[0]

    @property
    def signature(self) -> FunctionType:
        return self.properties["function_type"].type  # type: ignore[attr-defined]

    def verify_op(self) -> None:
        if len(self.regions) != 1:
            raise VerifyError("requires one region")
        fn = self.function_type
        if not isinstance(fn, FunctionType):
            return
        for key, count in (("arg_attrs", len(fn.inputs)), ("res_attrs", len(fn.results))):
            attrs = self.attr(key)
            if attrs is not None and (not isinstance(attrs, ArrayAttr) or len(attrs) != count
                                      or not all(isinstance(a, DictionaryAttr) for a in attrs)):
                raise VerifyError(f"expects '{key}' to hold {count} dictionaries")
        region = self.regions[0]
        if not region.blocks:
            return
        entry = region.blocks[0]
        if len(entry.args) != len(fn.inputs):
            raise VerifyError(f"entry block must have {len(fn.inputs)} arguments to match function signature")
        for index, (arg, expected) in enumerate(zip(entry.args, fn.inputs)):
            if arg.type is not expected:
                raise VerifyError(f"type of entry block argument #{index}('{arg.type}') must match the "
                                  f"type of the corresponding argument in function signature('{expected}')")


@FUNC.op
class ReturnOp(Op):
    """Returns the values of a function's results; must end the function's blocks."""

    OP_NAME = "func.return"
    traits = (Pure(), IsTerminator(), ReturnLike(), HasParent("func.func"))
    operands_ = OperandDef(AnyType, variadic=True, doc="the returned values")

    def verify_op(self) -> None:
        parent = self.parent_op()
        if parent is None or not isinstance(parent, FuncOp):
            return
        signature = parent.function_type
        if not isinstance(signature, FunctionType):
            return  # the function's own verifier reports the missing or malformed signature
        results = signature.results
        if len(self.operands) != len(results):
            raise VerifyError(f"has {len(self.operands)} operands, but enclosing function (@"
                              f"{parent.sym_name}) returns {len(results)}")
        for index, (value, expected) in enumerate(zip(self.operands, results)):
            if value.type is not expected:
                raise VerifyError(f"type of return operand {index} ('{value.type}') doesn't match "
                                  f"function result type ('{expected}') in function @{parent.sym_name}")


__all__ = ["FUNC", "FuncOp", "ReturnOp"]
