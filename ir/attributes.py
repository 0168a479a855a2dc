"""Builtin attributes: integer, float, bool, string, unit, array, dictionary, symbol ref, type,
dense elements, dense resources, and opaque dialect attributes (``#npu.fm<...>``).

All attributes are interned and immutable; each caches its printed text.
"""
from __future__ import annotations

import math
import struct
from typing import TYPE_CHECKING, Any, Iterator, Mapping, Sequence

from npu_opt.ir.interning import Interned
from npu_opt.ir.strings import key_text, quote_string, symbol_text
from npu_opt.ir.types import (
    BF16, F32, F64, I1, I64, FloatType, IndexType, IntegerType, RankedTensorType, Type,
)

if TYPE_CHECKING:  # numpy is imported where dense data is touched: it costs ~0.1 s of start-up
    import numpy as np


class Attribute(Interned):
    """Base of all attributes."""

    __slots__ = ()


class IntegerAttr(Attribute):
    """An integer of an integer or index type; ``true``/``false`` when the type is i1."""

    __slots__ = ("value", "type")
    value: int
    type: Type

    def _init(self, value: int, type: Type = I64) -> None:
        if isinstance(type, IntegerType):
            lo, hi = type.value_range()
            if type.signedness == "signless" and type.width > 1:
                hi = (1 << type.width) - 1  # signless accepts the unsigned spelling too
            if not lo <= value <= hi:
                raise ValueError(f"integer constant {value} out of range for {type}")
        elif isinstance(type, IndexType):
            if not -(1 << 63) <= value < 1 << 64:
                raise ValueError(f"integer constant {value} out of range for {type}")
        else:
            raise ValueError(f"integer attribute needs an integer or index type, not {type}")
        self._set("value", int(value))
        self._set("type", type)

    @classmethod
    def _key(cls, args: tuple) -> tuple:
        return (int(args[0]), args[1] if len(args) > 1 else I64)

    def _render(self) -> str:
        if self.type is I1:
            return "true" if self.value else "false"
        return f"{self.value} : {self.type}"


def BoolAttr(value: bool) -> IntegerAttr:
    """``true`` or ``false``: an i1 IntegerAttr, as in MLIR."""
    return IntegerAttr(1 if value else 0, I1)


TRUE = BoolAttr(True)
FALSE = BoolAttr(False)


def round_to_type(value: float, type: FloatType) -> float:
    """``value`` rounded to the nearest value of ``type`` (as a Python float).

    ValueError when a finite value is too large for the type. NaN payloads are kept as they are.
    """
    value = float(value)
    kind = type.kind
    if kind == "f64" or not math.isfinite(value):
        return value
    try:
        if kind == "f32":
            return struct.unpack("<f", struct.pack("<f", value))[0]
        if kind == "f16":
            return struct.unpack("<e", struct.pack("<e", value))[0]
    except OverflowError:
        raise ValueError(f"float constant {value!r} out of range for type '{type}'") from None
    # bf16: the upper half of an f32, rounded to nearest even.
    try:
        bits = struct.unpack("<I", struct.pack("<f", value))[0]
    except OverflowError:
        raise ValueError(f"float constant {value!r} out of range for type '{type}'") from None
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    rounded = struct.unpack("<f", struct.pack("<I", bits))[0]
    if math.isinf(rounded):
        raise ValueError(f"float constant {value!r} out of range for type '{type}'")
    return rounded


def format_float(value: float, type: FloatType | None = None) -> str:
    """Shortest decimal text that reads back to the same value of ``type`` (f64 by default),
    spelled as an MLIR float literal (always with a '.')."""
    value = float(value)
    text = repr(value)
    if type is not None and type.kind != "f64" and math.isfinite(value):
        for digits in range(1, 17):
            candidate = f"{value:.{digits}g}"
            try:
                if round_to_type(float(candidate), type) != value:
                    continue
            except ValueError:  # rounded past the largest finite value
                continue
            text = repr(float(candidate))
            break
    if "e" in text:
        mantissa, exponent = text.split("e")
        if "." not in mantissa:
            mantissa += ".0"
        return f"{mantissa}e{exponent}"
    return text


def float_bits(value: float, type: FloatType) -> int:
    """The IEEE bit pattern of ``value`` in ``type`` (used for nan/inf, printed as hex)."""
    if type.kind == "f64":
        return struct.unpack("<Q", struct.pack("<d", value))[0]
    if type.kind == "f32":
        return struct.unpack("<I", struct.pack("<f", value))[0]
    if type.kind == "f16":
        return struct.unpack("<H", struct.pack("<e", value))[0]
    return struct.unpack("<I", struct.pack("<f", value))[0] >> 16


def float_from_bits(bits: int, type: FloatType) -> float:
    """Inverse of float_bits; ValueError when ``bits`` does not fit the type's width."""
    if not 0 <= bits < 1 << type.width:
        raise ValueError(f"hexadecimal float constant 0x{bits:X} out of range for type '{type}'"
                         if bits >= 0 else "hexadecimal float literal should not have a leading minus")
    if type.kind == "f64":
        return struct.unpack("<d", struct.pack("<Q", bits))[0]
    if type.kind == "f32":
        return struct.unpack("<f", struct.pack("<I", bits))[0]
    if type.kind == "f16":
        return struct.unpack("<e", struct.pack("<H", bits))[0]
    return struct.unpack("<f", struct.pack("<I", bits << 16))[0]


def hex_width(type: FloatType) -> int:
    return {"f64": 16, "f32": 8}.get(type.kind, 4)


class FloatAttr(Attribute):
    """A float of a float type; nan and infinities print as their bit pattern in hex."""

    __slots__ = ("value", "type")
    value: float
    type: FloatType

    def _init(self, value: float, type: FloatType = F64) -> None:
        if not isinstance(type, FloatType):
            raise ValueError(f"float attribute needs a float type, not {type}")
        self._set("value", round_to_type(value, type))
        self._set("type", type)

    @classmethod
    def _key(cls, args: tuple) -> tuple:
        type = args[1] if len(args) > 1 else F64
        if not isinstance(type, FloatType):
            raise ValueError(f"float attribute needs a float type, not {type}")
        value = round_to_type(args[0], type)
        # NaNs compare by bit pattern (float.hex() prints every NaN as 'nan').
        key = value.hex() if not math.isnan(value) else f"nan:{float_bits(value, type):x}"
        return (key, type)

    def _render(self) -> str:
        if math.isfinite(self.value):
            return f"{format_float(self.value, self.type)} : {self.type}"
        bits = float_bits(self.value, self.type)
        return f"0x{bits:0{hex_width(self.type)}X} : {self.type}"


class StringAttr(Attribute):
    __slots__ = ("value",)
    value: str

    def _init(self, value: str) -> None:
        self._set("value", value)

    def _render(self) -> str:
        return quote_string(self.value)


class UnitAttr(Attribute):
    """Presence-only attribute; printed as a bare key in dictionaries."""

    __slots__ = ()

    def _init(self) -> None:
        pass

    def _render(self) -> str:
        return "unit"


UNIT = UnitAttr()


class ArrayAttr(Attribute):
    __slots__ = ("elements",)
    elements: tuple[Attribute, ...]

    def _init(self, elements: Sequence[Attribute]) -> None:
        self._set("elements", tuple(elements))

    @classmethod
    def _key(cls, args: tuple) -> tuple:
        return (tuple(args[0]),)

    def _render(self) -> str:
        return "[" + ", ".join(str(e) for e in self.elements) + "]"

    def __iter__(self) -> Iterator[Attribute]:
        return iter(self.elements)

    def __len__(self) -> int:
        return len(self.elements)

    def __getitem__(self, index: int) -> Attribute:
        return self.elements[index]


def format_entries(entries: Mapping[str, Attribute] | Sequence[tuple[str, Attribute]]) -> str:
    """``{a = 1 : i32, flag}``: the body of an attribute dictionary, unit values as bare keys."""
    items = entries.items() if isinstance(entries, Mapping) else entries
    parts = [key_text(k) if v is UNIT else f"{key_text(k)} = {v}" for k, v in items]
    return "{" + ", ".join(parts) + "}"


class DictionaryAttr(Attribute):
    """An ordered name → attribute mapping (insertion order is kept, as xDSL does)."""

    __slots__ = ("entries",)
    entries: tuple[tuple[str, Attribute], ...]

    def _init(self, entries: Mapping[str, Attribute] | Sequence[tuple[str, Attribute]]) -> None:
        items = tuple(entries.items()) if isinstance(entries, Mapping) else tuple(entries)
        self._set("entries", items)

    @classmethod
    def _key(cls, args: tuple) -> tuple:
        entries = args[0]
        return (tuple(entries.items()) if isinstance(entries, Mapping) else tuple(entries),)

    def _render(self) -> str:
        return format_entries(self.entries)

    def as_dict(self) -> dict[str, Attribute]:
        return dict(self.entries)

    def get(self, key: str, default: Any = None) -> Any:
        for k, v in self.entries:
            if k == key:
                return v
        return default


class SymbolRefAttr(Attribute):
    """``@root`` or ``@root::@nested``."""

    __slots__ = ("root", "nested")
    root: str
    nested: tuple[str, ...]

    def _init(self, root: str, nested: Sequence[str] = ()) -> None:
        self._set("root", root)
        self._set("nested", tuple(nested))

    @classmethod
    def _key(cls, args: tuple) -> tuple:
        return (args[0], tuple(args[1]) if len(args) > 1 else ())

    def _render(self) -> str:
        return "::".join(symbol_text(n) for n in (self.root, *self.nested))


class TypeAttr(Attribute):
    __slots__ = ("type",)
    type: Type

    def _init(self, type: Type) -> None:
        self._set("type", type)

    def _render(self) -> str:
        return str(self.type)


_DTYPES = {("signless", 8): "int8", ("signed", 8): "int8", ("unsigned", 8): "uint8",
           ("signless", 16): "int16", ("signed", 16): "int16", ("unsigned", 16): "uint16",
           ("signless", 32): "int32", ("signed", 32): "int32", ("unsigned", 32): "uint32",
           ("signless", 64): "int64", ("signed", 64): "int64", ("unsigned", 64): "uint64"}
_FLOAT_DTYPES = {"f16": "float16", "f32": "float32", "f64": "float64"}


def numpy_dtype(element: Type) -> np.dtype:
    """The numpy dtype holding elements of ``element``; ValueError when there is none."""
    import numpy as np
    if isinstance(element, IntegerType):
        if element.width == 1:
            return np.dtype(np.bool_)
        dt = _DTYPES.get((element.signedness, element.width))
        if dt is not None:
            return np.dtype(dt)
    elif isinstance(element, IndexType):
        return np.dtype(np.int64)
    elif isinstance(element, FloatType) and element is not BF16:
        return np.dtype(_FLOAT_DTYPES[element.kind])
    raise ValueError(f"elements of type {element} are not supported in dense attributes")


def _format_element(value: Any, element: Type) -> str:
    if isinstance(element, IntegerType) and element.width == 1:
        return "true" if value else "false"
    if isinstance(element, FloatType):
        v = float(value)
        if math.isfinite(v):
            return format_float(v, element)
        return f"0x{float_bits(v, element):0{hex_width(element)}X}"
    return str(int(value))


HEX_THRESHOLD = 100
"""Dense attributes with more elements than this print as a hex string (fast to print and parse)."""


class DenseElementsAttr(Attribute):
    """``dense<...> : tensor<...>``: a constant tensor held as a read-only numpy array."""

    __slots__ = ("type", "array")
    type: RankedTensorType
    array: np.ndarray

    def _init(self, type: RankedTensorType, array: np.ndarray) -> None:
        import numpy as np
        dtype = numpy_dtype(type.element_type)
        arr = np.ascontiguousarray(np.asarray(array, dtype=dtype)).reshape(type.shape)
        arr.setflags(write=False)
        self._set("type", type)
        self._set("array", arr)

    @classmethod
    def _key(cls, args: tuple) -> tuple:
        type, array = args
        import numpy as np
        dtype = numpy_dtype(type.element_type)
        data = np.ascontiguousarray(np.asarray(array, dtype=dtype))
        if data.size != type.num_elements():
            raise ValueError(f"{data.size} elements do not fill {type}")
        return (type, data.tobytes())

    def is_splat(self) -> bool:
        """All elements have the same bit pattern (so 0.0 and -0.0 differ, and NaNs can splat)."""
        import numpy as np
        flat = self.array.reshape(-1)
        if flat.size == 0:
            return False
        rows = flat.view(np.uint8).reshape(flat.size, flat.itemsize)
        if not np.array_equal(rows[-1], rows[0]):  # a cheap early answer for most non-splats
            return False
        return bool(np.all(rows == rows[0]))

    def _render(self) -> str:
        return f"dense<{self.literal()}> : {self.type}"

    def literal(self) -> str:
        """The text between ``dense<`` and ``>``."""
        import numpy as np
        flat = self.array.reshape(-1)
        element = self.type.element_type
        if flat.size == 0:
            return ""
        if self.is_splat():
            return _format_element(flat[0], element)
        if flat.size > HEX_THRESHOLD and flat.dtype != np.bool_:  # i1 never prints as hex
            return f'"0x{flat.astype(flat.dtype.newbyteorder("<"), copy=False).tobytes().hex().upper()}"'
        return self._nested(self.array, element)

    def _nested(self, arr: np.ndarray, element: Type) -> str:
        if arr.ndim == 0:
            return _format_element(arr.item(), element)
        if arr.ndim == 1:
            return "[" + ", ".join(_format_element(v, element) for v in arr.tolist()) + "]"
        return "[" + ", ".join(self._nested(sub, element) for sub in arr) + "]"


class ResourceBlob:
    """Bytes of a ``dense_resource`` held in the module's ``{-# dialect_resources #-}`` trailer.

    Blobs are compared by identity; the data is a read-only memoryview that is never copied.
    """

    __slots__ = ("data", "alignment", "__weakref__")

    def __init__(self, data: bytes | memoryview, alignment: int = 16) -> None:
        self.data = memoryview(data).toreadonly()
        self.alignment = alignment

    def as_array(self, type: RankedTensorType) -> np.ndarray:
        """A zero-copy numpy view of the blob with the tensor type's shape and element type."""
        import numpy as np
        dtype = numpy_dtype(type.element_type)
        arr = np.frombuffer(self.data, dtype=dtype)
        return arr.reshape(type.shape)

    def hex(self) -> str:
        """The trailer text: ``0x`` + little-endian u32 alignment + data, in upper-case hex."""
        head = struct.pack("<I", self.alignment).hex().upper()
        return "0x" + head + self.data.hex().upper()


class DenseResourceAttr(Attribute):
    """``dense_resource<key> : tensor<...>``: a constant whose bytes live in a ResourceBlob.

    ``blob`` is None when the data was elided (``dense_resource<__elided__>``) or not given.
    """

    __slots__ = ("type", "key", "blob")
    type: RankedTensorType
    key: str
    blob: ResourceBlob | None

    def _init(self, type: RankedTensorType, key: str, blob: ResourceBlob | None) -> None:
        self._set("type", type)
        self._set("key", key)
        self._set("blob", blob)

    @classmethod
    def _key(cls, args: tuple) -> tuple:
        return (args[0], args[1], id(args[2]) if args[2] is not None else None, args[2])

    def _render(self) -> str:
        return f"dense_resource<{key_text(self.key)}> : {self.type}"

    def as_array(self) -> np.ndarray:
        if self.blob is None:
            raise ValueError(f"the data of dense_resource<{self.key}> is not available")
        return self.blob.as_array(self.type)


class OpaqueAttr(Attribute):
    """An attribute of a dialect npu-opt keeps verbatim: ``#dialect.name<body>``."""

    __slots__ = ("dialect", "attr_name", "body")
    dialect: str
    attr_name: str
    body: str | None

    def _init(self, dialect: str, attr_name: str, body: str | None = None) -> None:
        self._set("dialect", dialect)
        self._set("attr_name", attr_name)
        self._set("body", body)

    @classmethod
    def _key(cls, args: tuple) -> tuple:
        return (args[0], args[1], args[2] if len(args) > 2 else None)

    def _render(self) -> str:
        head = f"#{self.dialect}.{self.attr_name}" if self.attr_name else f"#{self.dialect}"
        return head if self.body is None else f"{head}<{self.body}>"


def int_attr(value: int, width: int = 64) -> IntegerAttr:
    return IntegerAttr(value, I64 if width == 64 else IntegerType(width))


def f32_attr(value: float) -> FloatAttr:
    return FloatAttr(value, F32)
