"""The body of ``dense<...>``: a splat, nested lists, or a hex string of the raw little-endian data."""
from __future__ import annotations

import math
import re

import numpy as np

from npu_opt.ir.attributes import float_from_bits, numpy_dtype, round_to_type
from npu_opt.ir.types import FloatType, IndexType, IntegerType, RankedTensorType, Type

_TOKEN = re.compile(r"\s*(?:(\[)|(\])|(,)|(true|false)|([-+]?0x[0-9A-Fa-f]+)|"
                    r"([-+]?[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?)|(\S+?(?=[\s,\[\]]|\Z)))")
_OPEN, _CLOSE, _COMMA, _BOOL, _HEX, _NUMBER, _OTHER = range(1, 8)

MAX_BYTES = 1 << 30
"""The largest dense attribute accepted (a splat is stored expanded)."""


class DenseLiteralError(ValueError):
    pass


def _check_size(count: int, dtype: np.dtype) -> None:
    if count * dtype.itemsize > MAX_BYTES:
        raise DenseLiteralError(f"dense attribute of {count} elements is too large (the limit is "
                                f"{MAX_BYTES >> 20} MiB); use dense_resource for large constants")


def _from_hex(body: str, type: RankedTensorType, dtype: np.dtype) -> np.ndarray:
    text = body[1:-1]
    if len(body) < 2 or not body.endswith('"') or not text.startswith("0x"):
        raise DenseLiteralError("expected a hex string (\"0x...\") in dense attribute")
    hex_digits = text[2:]
    if len(hex_digits) % 2 or re.fullmatch(r"[0-9A-Fa-f]*", hex_digits) is None:
        raise DenseLiteralError("malformed hex string in dense attribute")
    raw = bytes.fromhex(hex_digits)
    count = type.num_elements()
    _check_size(count, dtype)
    size = dtype.itemsize
    little = dtype.newbyteorder("<")
    if len(raw) == size and count != 1:
        return np.full(count, np.frombuffer(raw, dtype=little)[0], dtype=dtype)
    if len(raw) != size * count:
        raise DenseLiteralError(f"elements hex data size is invalid for provided type: {len(raw)} bytes "
                                f"for {count} elements of {size} bytes")
    return np.frombuffer(raw, dtype=little).astype(dtype, copy=False)


def _element(text: str, kind: int, element: Type) -> int | float | bool:
    """The value of one element token, checked against the element type."""
    if isinstance(element, IntegerType) and element.width == 1:
        if kind == _BOOL:
            return text == "true"
        if kind in (_NUMBER, _HEX) and text.lstrip("+") in ("0", "1"):
            return text.lstrip("+") == "1"
        raise DenseLiteralError(f"expected 'true' or 'false' for an i1 element, found '{text}'")
    if kind == _BOOL:
        raise DenseLiteralError(f"unexpected boolean element '{text}' for element type '{element}'")
    if isinstance(element, FloatType):
        if kind == _HEX:
            return float_from_bits(int(text.lstrip("+-"), 16) * (-1 if text.startswith("-") else 1), element)
        value = float(text)
        if math.isinf(value):
            raise DenseLiteralError(f"float constant '{text}' out of range for type '{element}'")
        return round_to_type(value, element)
    if kind != _HEX and ("." in text or "e" in text or "E" in text):
        raise DenseLiteralError(f"expected an integer element, found '{text}'")
    digits = text.lstrip("+-")
    if len(digits) > 64:  # more than any supported width needs (and int() refuses thousands)
        raise DenseLiteralError(f"integer constant {text[:40]}... out of range for {element}")
    value = int(digits, 16 if kind == _HEX else 10) * (-1 if text.startswith("-") else 1)
    if isinstance(element, IntegerType):
        lo, hi = element.value_range()
        if element.signedness == "signless":
            hi = (1 << element.width) - 1  # signless accepts the unsigned spelling too
    else:
        assert isinstance(element, IndexType)
        lo, hi = -(1 << 63), (1 << 64) - 1
    if not lo <= value <= hi:
        raise DenseLiteralError(f"integer constant {text} out of range for {element}")
    return value


def _to_array(values: list, element: Type, dtype: np.dtype) -> np.ndarray:
    if isinstance(element, (IntegerType, IndexType)) and dtype != np.bool_:
        mask = (1 << (dtype.itemsize * 8)) - 1
        return np.array([v & mask for v in values], dtype=np.uint64).astype(dtype)
    return np.array(values, dtype=dtype)


def parse_dense_literal(body: str, type: RankedTensorType) -> np.ndarray:
    """Elements of ``dense<body> : type`` as a flat numpy array in the type's dtype.

    Raises DenseLiteralError (a ValueError) with a message for malformed or mismatched literals.
    """
    dtype = numpy_dtype(type.element_type)
    body = body.strip()
    count = type.num_elements()
    if body.startswith('"'):
        return _from_hex(body, type, dtype)
    if not body:
        if count != 0:
            raise DenseLiteralError(f"expected {count} elements, found none")
        return np.zeros(0, dtype=dtype)
    element = type.element_type
    # Each open list holds (kinds of its children: list or scalar, [shape of its first child]).
    stack: list[tuple[list, list]] = []
    values: list = []
    top: tuple | None = None  # (is_list, shape) of the whole literal once complete
    expect_item = True
    pos = 0
    while pos < len(body):
        m = _TOKEN.match(body, pos)
        if m is None:  # only trailing whitespace is left
            break
        pos = m.end()
        kind = m.lastindex or 0
        token = m.group(kind)
        if top is not None:
            raise DenseLiteralError(f"unexpected '{token[:20]}' after the end of the dense literal")
        if kind == _OTHER:
            raise DenseLiteralError(f"unexpected '{token[:20]}' in dense attribute")
        if kind == _COMMA:
            if expect_item or not stack:
                raise DenseLiteralError("unexpected ',' in dense attribute")
            expect_item = True
            continue
        if kind == _CLOSE:
            if not stack:
                raise DenseLiteralError("unbalanced ']' in dense attribute")
            children, shapes = stack.pop()
            if expect_item and children:
                raise DenseLiteralError("expected an element after ',' in dense attribute")
            shape = (len(children),) + (shapes[0] if shapes else ())
            item: tuple = (True, shape)
            expect_item = False
        elif kind == _OPEN:
            if not expect_item:
                raise DenseLiteralError("expected ',' between elements of dense attribute")
            stack.append(([], []))
            expect_item = True
            continue
        else:
            if not expect_item:
                raise DenseLiteralError("expected ',' between elements of dense attribute")
            values.append(_element(token, kind, element))
            item = (False, ())
            expect_item = False
        if not stack:
            top = item
            continue
        children, shapes = stack[-1]
        if children and (children[0] != item[0] or shapes[0] != item[1]):
            raise DenseLiteralError("inconsistent nesting of elements in dense attribute")
        if not children:
            shapes.append(item[1])
        children.append(item[0])
    if stack or top is None:
        raise DenseLiteralError("unbalanced '[' in dense attribute")
    is_list, shape = top
    if not is_list:
        _check_size(count, dtype)
        return np.full(count, _to_array(values, element, dtype)[0], dtype=dtype)
    if tuple(shape) != tuple(type.shape):
        raise DenseLiteralError(f"inferred shape of elements literal ({list(shape)}) does not "
                                f"match type ({list(type.shape)})")
    return _to_array(values, element, dtype).reshape(type.shape)
