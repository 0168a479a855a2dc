"""The attribute, type and location rules of the IR builder (a mixin of ir.parser._Builder).

Each method runs when lark reduces the grammar rule of the same name.
"""
from __future__ import annotations

import math
import re
from typing import Any

from lark import Token

from npu_opt.ir.attributes import (
    FALSE, TRUE, UNIT, ArrayAttr, Attribute, DenseElementsAttr, DenseResourceAttr, DictionaryAttr,
    FloatAttr, IntegerAttr, OpaqueAttr, StringAttr, SymbolRefAttr, TypeAttr, float_from_bits,
)
from npu_opt.ir.lexing import MAX_NESTING
from npu_opt.ir.parse_errors import _STRING_AT, _error, _parse_int
from npu_opt.ir.strings import unquote_string
from npu_opt.ir.location import UNKNOWN_LOC, FileLineColLoc, FusedLoc, Location, NameLoc
from npu_opt.ir.type_parser import AttributeSyntaxError, TypeSyntaxError
from npu_opt.ir.types import (
    F64, I64, FloatType, FunctionType, IndexType, IntegerType, QuantUniformType, RankedTensorType, Type,
)


_RESOURCE_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_$.\-]*")


def _element_bytes(element: Type) -> int | None:
    """Bytes per element in a resource blob (i1 takes a byte); None for unknown element types."""
    if isinstance(element, QuantUniformType):
        element = element.storage_type
    if isinstance(element, IntegerType):
        return (element.width + 7) // 8
    if isinstance(element, FloatType):
        return element.width // 8
    if isinstance(element, IndexType):
        return 8
    return None


_NO_BLOBS: dict[str, Any] = {}
"""The blobs of a module without a builtin resource group (never written to)."""
_RESOURCE_BYTES: dict[Type, int | None] = {}
"""Per tensor type, the blob size a dense_resource of it needs (see _resource_bytes)."""


def _resource_bytes(type: Type) -> int | None:
    """The bytes a ``dense_resource`` of ``type`` holds (None for element types of no known
    size), worked out once per type; ValueError when a dense_resource cannot have that type."""
    if not isinstance(type, RankedTensorType):
        raise ValueError(f"dense_resource needs a ranked tensor type, not '{type}'")
    if not type.has_static_shape:
        raise ValueError(f"dense_resource needs a statically shaped tensor type, not '{type}'")
    size = _element_bytes(type.element_type)
    expected = None if size is None else type.num_elements() * size
    _RESOURCE_BYTES[type] = expected
    return expected


_FLAT_INTEGERS = re.compile(r"\s*+\[\s*+(-?[0-9]{1,18}+(?:\s*+,\s*+-?[0-9]{1,18}+)*+)\s*+\]\s*+")

_FLAT_FACTS: dict[RankedTensorType, tuple | None] = {}
"""Per tensor type, what _flat_integers checks a literal against (see _flat_facts)."""


def _flat_facts(type: RankedTensorType) -> tuple | None:
    """(element count, lowest and highest value accepted, the dtype, and the highest value that
    goes straight into the array) for a rank-1 integer tensor type; None for any other type.
    Worked out once per type: a model's biases share a handful of types."""
    if type in _FLAT_FACTS:
        return _FLAT_FACTS[type]
    element = type.element_type
    facts = None
    if len(type.shape) == 1 and isinstance(element, IntegerType) and element.width != 1:
        from npu_opt.ir.attributes import numpy_dtype
        lo, hi = element.value_range()
        if element.signedness == "signless":
            hi = (1 << element.width) - 1  # signless accepts the unsigned spelling too
        direct = -1 if element.signedness == "unsigned" else (1 << (element.width - 1)) - 1
        facts = (type.shape[0], lo, hi, numpy_dtype(element), direct)
    _FLAT_FACTS[type] = facts
    return facts


def _flat_integers(body: str, type: RankedTensorType) -> Any:
    """The elements of a flat list of decimal integers for a rank-1 integer tensor (an imported
    bias, a shape) as parse_dense_literal would return them, or None for anything else (which
    parse_dense_literal then decodes, reporting any error): the general tokeniser costs about
    0.1 ms per literal, a third of an imported constant's parse. Values that all fit the signed
    range go straight into the array (what _to_array's masking gives for them)."""
    facts = _flat_facts(type)
    if facts is None:
        return None
    m = _FLAT_INTEGERS.fullmatch(body)
    if m is None:
        return None
    count, lo, hi, dtype, direct = facts
    values = list(map(int, m.group(1).split(",")))  # int() takes the blanks around each numeral
    if len(values) != count:
        return None
    high = max(values)
    if min(values) < lo or high > hi:
        return None
    if high <= direct:
        import numpy as np
        return np.array(values, dtype=dtype)
    from npu_opt.ir.dense_literal import _to_array
    return _to_array(values, type.element_type, dtype)


FUNCTION_NESTING = MAX_NESTING // 2
"""How deeply function types may nest. A function type returning one prints inside another pair
of parentheses, with the signature's own brackets around it all, so the limit leaves room for
the printed text to stay under the bracket-nesting limit: print then parse stays a fixed point
(and printing, which recurses per level, stays far from Python's recursion limit)."""


class AttributeRules:
    """Callbacks for locations, types and attributes; the host class provides the helpers."""

    # -- locations -------------------------------------------------------------------------
    def op_loc(self, children: list[Location]) -> Location:
        return children[0]

    def loc_unknown(self, children: list[Any]) -> Location:
        return UNKNOWN_LOC

    def loc_file(self, children: list[Token]) -> Location:
        return FileLineColLoc(self._unquote(children[0]), self._loc_number(children[1]),
                              self._loc_number(children[2]))

    def loc_name(self, children: list[Any]) -> Location:
        return NameLoc(self._unquote(children[0]), children[1])

    def loc_fused(self, children: list[Location]) -> Location:
        return FusedLoc(tuple(children))

    # -- types -----------------------------------------------------------------------------
    def non_fn_type(self, children: list[Token]) -> Type:
        return self._type(children[0])

    def type_item(self, children: list[Any]) -> tuple[Type, dict | None, Token | None]:
        attrs = children[1]
        return children[0], attrs, (self.state.closed_brace if attrs is not None else None)

    def type_items(self, children: list[Any]) -> list[tuple[Type, dict | None, Token | None]]:
        return children

    def paren_types(self, children: list[Any]) -> list[tuple[Type, dict | None, Token | None]]:
        return children[0] or []

    def function_type(self, children: list[Any]) -> FunctionType:
        inputs, results = children
        if not isinstance(results, list):
            results = [(results, None, None)]
        for _, attrs, brace in inputs + results:
            if attrs is not None:
                raise _error(self.state, "attribute dictionaries are only allowed on func.func results", brace)
        function = FunctionType([t for t, _, _ in inputs], [t for t, _, _ in results])
        if function.depth > FUNCTION_NESTING:
            raise _error(self.state, f"function types are nested more than {FUNCTION_NESTING} levels deep", None)
        return function

    # -- attributes ------------------------------------------------------------------------
    def int_attr(self, children: list[Any]) -> Attribute:
        token, type = children
        if type is None:
            type = I64
        try:
            if len(token) > 80:  # longer than any supported width needs; int() refuses thousands of digits
                raise ValueError(f"integer constant {token[:40]}... out of range for {type}")
            value = _parse_int(token)
            if isinstance(type, FloatType):
                if "x" not in token:
                    return FloatAttr(float(value), type)
                return FloatAttr(float_from_bits(value, type), type)
            if not isinstance(type, (IntegerType, IndexType)):
                raise ValueError(f"integer literal not valid for specified type '{type}'")
            return IntegerAttr(value, type)
        except (ValueError, OverflowError) as err:
            raise _error(self.state, str(err), token) from None

    def float_attr(self, children: list[Any]) -> Attribute:
        token, type = children
        if type is None:
            type = F64
        if not isinstance(type, FloatType):
            raise _error(self.state, f"floating point value not valid for specified type '{type}'", token)
        value = float(token)
        if math.isinf(value):
            raise _error(self.state, f"float constant {token} out of range for type '{type}'", token)
        try:
            return FloatAttr(value, type)
        except ValueError as err:
            raise _error(self.state, str(err), token) from None

    def true_attr(self, children: list[Any]) -> Attribute:
        return TRUE

    def false_attr(self, children: list[Any]) -> Attribute:
        return FALSE

    def unit_attr(self, children: list[Any]) -> Attribute:
        return UNIT

    def string_attr(self, children: list[Any]) -> Attribute:
        return StringAttr(self._unquote(children[0]))

    def attr_list(self, children: list[Attribute]) -> list[Attribute]:
        return children

    def array_attr(self, children: list[Any]) -> Attribute:
        return ArrayAttr(children[0] or [])

    def dict_attr(self, children: list[dict[str, Attribute]]) -> Attribute:
        return DictionaryAttr(children[0])

    def symbol_attr(self, children: list[Token]) -> Attribute:
        names = [self._symbol_name(t) for t in children]
        return SymbolRefAttr(names[0], names[1:])

    def type_attr(self, children: list[Type]) -> Attribute:
        return TypeAttr(children[0])

    def dense_attr(self, children: list[Any]) -> Attribute:
        token, type = children
        try:
            return self._dense_value(str(token), type)
        except ValueError as err:
            raise _error(self.state, str(err), token) from None

    def _dense_value(self, text: str, type: Type) -> Attribute:
        """``dense<...> : type`` from the text of its ``dense<...>``; ValueError saying what is wrong."""
        if not isinstance(type, RankedTensorType):
            raise ValueError(f"dense attribute needs a ranked tensor type, not '{type}'")
        body = text[len("dense<"):-1]
        values = _flat_integers(body, type)
        if values is not None:  # a fresh 1-D array of the type's dtype: the interned fields as _init sets them
            values.setflags(write=False)
            return DenseElementsAttr._intern_fields((type, values.tobytes()), {"type": type, "array": values})
        from npu_opt.ir.dense_literal import parse_dense_literal  # imports numpy
        return DenseElementsAttr(type, parse_dense_literal(body, type))

    def dense_resource_attr(self, children: list[Any]) -> Attribute:
        token, type = children
        try:
            return self._dense_resource_value(str(token), type)
        except ValueError as err:
            raise _error(self.state, str(err), token) from None

    def _dense_resource_value(self, text: str, type: Type) -> Attribute:
        """``dense_resource<key> : type`` from the text of its ``dense_resource<...>``, checked
        against the blob of that key; ValueError saying what is wrong."""
        expected = _RESOURCE_BYTES.get(type, False)
        if expected is False:
            expected = _resource_bytes(type)
        key = text[len("dense_resource<"):-1].strip()
        if _STRING_AT.fullmatch(key):
            key = unquote_string(key)  # a bad escape is a ValueError naming it
        elif not _RESOURCE_KEY.fullmatch(key):
            raise ValueError("expected a resource key (an identifier or a string) in "
                             f"dense_resource<...>, found '{key[:40]}'")
        blob = self.state.resources.blobs.get("builtin", _NO_BLOBS).get(key)
        if blob is not None and expected is not None and len(blob.data) != expected:
            raise ValueError(f"resource '{key}' holds {len(blob.data)} bytes but '{type}' needs {expected}")
        # DenseResourceAttr(type, key, blob), its interning key built here (blobs are told apart by identity)
        return DenseResourceAttr._intern_fields((type, key, None if blob is None else id(blob), blob),
                                                {"type": type, "key": key, "blob": blob})

    def dialect_attr(self, children: list[Token]) -> Attribute:
        token = children[0]
        cached = self._attr_cache.get(token)
        if cached is not None and (self.state.options.allow_unregistered or not isinstance(cached, OpaqueAttr)):
            return cached
        from npu_opt.ir.type_parser import dialect_parts
        try:
            attr = self._dialect_attr(*dialect_parts(str(token)))
        except AttributeSyntaxError as err:  # (its offset is into the body, after '<')
            raise _error(self.state, str(err), token, str(token).find("<") + 1 + err.offset if err.offset else 0) from None
        except (TypeSyntaxError, ValueError) as err:
            raise _error(self.state, str(err), token) from None
        self._attr_cache[str(token)] = attr
        return attr
