"""Constraints on operand/result types and attribute values, used by declarative op definitions.

Each constraint knows how to check, how to describe itself (for messages and docs), and for
attributes how to convert to and from plain Python values.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from npu_opt.ir.attributes import (
    ArrayAttr, Attribute, BoolAttr, DenseElementsAttr, DenseResourceAttr, DictionaryAttr, FloatAttr,
    IntegerAttr, StringAttr, SymbolRefAttr, TypeAttr, UnitAttr, UNIT,
)
from npu_opt.ir.types import (
    F32, I1, FloatType, FunctionType, IntegerType, IndexType, NoneType, QuantUniformType,
    RankedTensorType, TensorType, Type,
)


# ---------------------------------------------------------------------------------------------
# Type constraints
@dataclass(frozen=True)
class TypeConstraint:
    """A predicate over types with a human description."""

    description: str
    predicate: Callable[[Type], bool]

    def check(self, t: Type) -> bool:
        return self.predicate(t)


AnyType = TypeConstraint("any type", lambda t: True)
AnyTensor = TypeConstraint("tensor of any type values", lambda t: isinstance(t, TensorType))
AnyRankedTensor = TypeConstraint("ranked tensor of any type values", lambda t: isinstance(t, RankedTensorType))
AnyInteger = TypeConstraint("integer", lambda t: isinstance(t, IntegerType))
AnyFloat = TypeConstraint("floating-point", lambda t: isinstance(t, FloatType))
Index = TypeConstraint("index", lambda t: isinstance(t, IndexType))
NoneTypeC = TypeConstraint("none type", lambda t: isinstance(t, NoneType))


def element_is(name: str, predicate: Callable[[Type], bool]) -> Callable[[Type], bool]:
    return lambda t: isinstance(t, TensorType) and predicate(t.element_type)


def TensorOf(*allowed: str) -> TypeConstraint:
    """Tensors whose element is one of ``allowed``: names like 'i8', 'i32', 'f32', 'qi8', 'qu8', 'i1'."""

    def ok(elem: Type) -> bool:
        if isinstance(elem, QuantUniformType):
            st = elem.storage_type
            return ("qu" if st.is_unsigned else "qi") + str(st.width) in allowed
        return str(elem) in allowed

    desc = "tensor of " + " or ".join(allowed) + " values"
    return TypeConstraint(desc, lambda t: isinstance(t, TensorType) and ok(t.element_type))


def Optional_(inner: TypeConstraint) -> TypeConstraint:
    """``inner`` or ``none`` (TFLite's "no value" operands)."""
    return TypeConstraint(f"{inner.description} or none type",
                          lambda t: isinstance(t, NoneType) or inner.check(t))


# ---------------------------------------------------------------------------------------------
# Attribute constraints
class AttrConstraint:
    """Base of attribute constraints: check, describe, and Python <-> attribute conversion."""

    description = "any attribute"

    def check(self, attr: Attribute) -> bool:
        return True

    def to_python(self, attr: Attribute) -> Any:
        return attr

    def from_python(self, value: Any) -> Attribute:
        if isinstance(value, Attribute):
            return value
        raise TypeError(f"cannot make {self.description} from {value!r}")


class AnyAttr(AttrConstraint):
    pass


@dataclass(frozen=True)
class IntAttrC(AttrConstraint):
    """A signless integer attribute of the given width, optionally bounded."""

    width: int = 32
    min_value: int | None = None
    max_value: int | None = None

    @property
    def description(self) -> str:  # type: ignore[override]
        bounds = ""
        if self.min_value is not None:
            bounds = f" whose minimum value is {self.min_value}"
        return f"{self.width}-bit signless integer attribute{bounds}"

    def check(self, attr: Attribute) -> bool:
        if not isinstance(attr, IntegerAttr) or attr.type != IntegerType(self.width):
            return False
        if self.min_value is not None and attr.value < self.min_value:
            return False
        return self.max_value is None or attr.value <= self.max_value

    def to_python(self, attr: Attribute) -> int:
        return attr.value  # type: ignore[attr-defined]

    def from_python(self, value: Any) -> Attribute:
        if isinstance(value, Attribute):
            return value
        return IntegerAttr(int(value), IntegerType(self.width))


@dataclass(frozen=True)
class FloatAttrC(AttrConstraint):
    type: FloatType = F32
    finite: bool = False
    """Refuse NaN and infinities (for values that feed integer arithmetic, like scales)."""

    @property
    def description(self) -> str:  # type: ignore[override]
        return f"{'finite ' if self.finite else ''}{self.type.width}-bit float attribute"

    def check(self, attr: Attribute) -> bool:
        return (isinstance(attr, FloatAttr) and attr.type is self.type
                and (not self.finite or math.isfinite(attr.value)))

    def to_python(self, attr: Attribute) -> float:
        return attr.value  # type: ignore[attr-defined]

    def from_python(self, value: Any) -> Attribute:
        return value if isinstance(value, Attribute) else FloatAttr(float(value), self.type)


class BoolAttrC(AttrConstraint):
    description = "bool attribute"

    def check(self, attr: Attribute) -> bool:
        return isinstance(attr, IntegerAttr) and attr.type is I1

    def to_python(self, attr: Attribute) -> bool:
        return bool(attr.value)  # type: ignore[attr-defined]

    def from_python(self, value: Any) -> Attribute:
        return value if isinstance(value, Attribute) else BoolAttr(bool(value))


@dataclass(frozen=True)
class StrAttrC(AttrConstraint):
    """A string attribute, optionally one of a fixed set (an enum, as TFL's ``padding``)."""

    choices: tuple[str, ...] = ()

    @property
    def description(self) -> str:  # type: ignore[override]
        if self.choices:
            return "string attribute whose value is " + ", or ".join(self.choices)
        return "string attribute"

    def check(self, attr: Attribute) -> bool:
        return isinstance(attr, StringAttr) and (not self.choices or attr.value in self.choices)

    def to_python(self, attr: Attribute) -> str:
        return attr.value  # type: ignore[attr-defined]

    def from_python(self, value: Any) -> Attribute:
        return value if isinstance(value, Attribute) else StringAttr(str(value))


class SymbolNameC(StrAttrC):
    description = "symbol name (string attribute)"  # type: ignore[assignment]


class UnitAttrC(AttrConstraint):
    description = "unit attribute"

    def check(self, attr: Attribute) -> bool:
        return isinstance(attr, UnitAttr)

    def to_python(self, attr: Attribute) -> bool:
        return True

    def from_python(self, value: Any) -> Attribute:
        return value if isinstance(value, Attribute) else UNIT


@dataclass(frozen=True)
class TypeAttrC(AttrConstraint):
    kind: type = Type

    @property
    def description(self) -> str:  # type: ignore[override]
        return "function type attribute" if self.kind is FunctionType else "type attribute"

    def check(self, attr: Attribute) -> bool:
        return isinstance(attr, TypeAttr) and isinstance(attr.type, self.kind)

    def to_python(self, attr: Attribute) -> Type:
        return attr.type  # type: ignore[attr-defined]

    def from_python(self, value: Any) -> Attribute:
        return value if isinstance(value, Attribute) else TypeAttr(value)


class ElementsAttrC(AttrConstraint):
    description = "constant vector/tensor attribute"

    def check(self, attr: Attribute) -> bool:
        return isinstance(attr, (DenseElementsAttr, DenseResourceAttr))


@dataclass(frozen=True)
class ArrayAttrC(AttrConstraint):
    element: AttrConstraint | None = None

    @property
    def description(self) -> str:  # type: ignore[override]
        return "array attribute" if self.element is None else f"array of {self.element.description}"

    def check(self, attr: Attribute) -> bool:
        if not isinstance(attr, ArrayAttr):
            return False
        return self.element is None or all(self.element.check(e) for e in attr.elements)

    def to_python(self, attr: Attribute) -> Any:
        if self.element is None:
            return attr
        return [self.element.to_python(e) for e in attr.elements]  # type: ignore[attr-defined]

    def from_python(self, value: Any) -> Attribute:
        if isinstance(value, Attribute):
            return value
        conv = self.element.from_python if self.element else (lambda v: v)
        return ArrayAttr([conv(v) for v in value])


class DictAttrC(AttrConstraint):
    description = "dictionary of named attribute values"

    def check(self, attr: Attribute) -> bool:
        return isinstance(attr, DictionaryAttr)


class SymbolRefC(AttrConstraint):
    description = "symbol reference attribute"

    def check(self, attr: Attribute) -> bool:
        return isinstance(attr, SymbolRefAttr)


def describe_all(constraints: Sequence[AttrConstraint]) -> str:
    return ", ".join(c.description for c in constraints)
