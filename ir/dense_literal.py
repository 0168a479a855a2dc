"""The body of ``dense<...>``: a splat, nested lists, or a hex string of the raw little-endian data."""
from __future__ import annotations

import re

import numpy as np

from ir.attributes import float_from_bits, numpy_dtype
from ir.types import FloatType, IntegerType, RankedTensorType

_TOKEN = re.compile(r"\s*(?:(\[)|(\])|(,)|(true|false)|([-+]?0x[0-9A-Fa-f]+)|"
                    r"([-+]?[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?)|(\S))")


class DenseLiteralError(ValueError):
    pass


def _from_hex(body: str, type: RankedTensorType, dtype: np.dtype) -> np.ndarray:
    text = body[1:-1]
    if not text.startswith("0x"):
        raise DenseLiteralError("expected a hex string (\"0x...\") in dense attribute")
    try:
        raw = bytes.fromhex(text[2:])
    except ValueError:
        raise DenseLiteralError("malformed hex string in dense attribute") from None
    if len(raw) * 2 != len(text) - 2:
        raise DenseLiteralError("malformed hex string in dense attribute")
    count = type.num_elements()
    size = dtype.itemsize
    if len(raw) == size:
        return np.full(count, np.frombuffer(raw, dtype=dtype.newbyteorder("<"))[0], dtype=dtype)
    if len(raw) != size * count:
        raise DenseLiteralError(f"elements hex data size is invalid for provided type: {len(raw)} bytes "
                                f"for {count} elements of {size} bytes")
    return np.frombuffer(raw, dtype=dtype.newbyteorder("<")).astype(dtype, copy=False)


def _element(text: str, kind: int, element: object) -> object:
    if kind == 4:
        return text == "true"
    if kind == 5:
        value = int(text.lstrip("+-"), 16) * (-1 if text.startswith("-") else 1)
        if isinstance(element, FloatType):
            return float_from_bits(value, element)
        return value
    if isinstance(element, FloatType):
        return float(text)
    if "." in text or "e" in text or "E" in text:
        raise DenseLiteralError(f"expected an integer element, found '{text}'")
    return int(text)


def parse_dense_literal(body: str, type: RankedTensorType) -> np.ndarray:
    """Elements of ``dense<body> : type`` as a flat numpy array in the type's dtype."""
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
    stack: list[list] = [[]]
    shape_check: list[list[int]] = []
    pos = 0
    expect_value = True
    while pos < len(body):
        m = _TOKEN.match(body, pos)
        if m is None:
            break
        pos = m.end()
        kind = m.lastindex or 0
        if kind == 1:
            stack.append([])
        elif kind == 2:
            if len(stack) == 1:
                raise DenseLiteralError("unbalanced ']' in dense attribute")
            done = stack.pop()
            stack[-1].append(done)
        elif kind == 3:
            continue
        elif kind in (4, 5, 6):
            stack[-1].append(_element(m.group(kind), kind, element))
        else:
            raise DenseLiteralError(f"unexpected '{m.group(7)}' in dense attribute")
        expect_value = False
    del shape_check, expect_value
    if len(stack) != 1 or len(stack[0]) != 1:
        raise DenseLiteralError("malformed element list in dense attribute")
    value = stack[0][0]
    if not isinstance(value, list):
        if isinstance(element, IntegerType) and element.width > 1 and isinstance(value, bool):
            raise DenseLiteralError("expected an integer element, found a boolean")
        return np.full(count, value, dtype=dtype)
    try:
        array = np.array(value, dtype=dtype if not isinstance(element, IntegerType) else object)
    except ValueError:
        raise DenseLiteralError("inconsistent nesting of elements in dense attribute") from None
    if array.dtype == object and array.ndim != len(type.shape) and array.size:
        raise DenseLiteralError("inconsistent nesting of elements in dense attribute")
    if tuple(array.shape) != tuple(type.shape):
        raise DenseLiteralError(f"inferred shape of elements literal ({list(array.shape)}) does not "
                                f"match type ({list(type.shape)})")
    if isinstance(element, IntegerType):
        lo, hi = element.value_range()
        if element.signedness == "signless" and element.width > 1:
            hi = (1 << element.width) - 1
        flat = array.reshape(-1)
        for v in flat:
            if isinstance(v, list) or not lo <= int(v) <= hi:
                raise DenseLiteralError(f"integer constant {v} out of range for {element}")
        return np.array([int(v) for v in flat], dtype=np.int64 if element.width > 1 else np.bool_
                        ).astype(dtype).reshape(type.shape) if element.width > 1 else flat.astype(np.bool_).reshape(type.shape)
    return array
