"""Builtin types: integers, floats, index, none, tensors, functions, quant.uniform, opaque dialect types.

All types are interned (see ir.interning), so ``a is b`` is type equality, and each caches its text.
"""
from __future__ import annotations

import struct
from typing import TYPE_CHECKING, Sequence

from npu_opt.ir.interning import Interned

if TYPE_CHECKING:
    from npu_opt.ir.attributes import Attribute

DYNAMIC = -1
"""Marker for a dynamic (``?``) tensor dimension."""


class Type(Interned):
    """Base of all types."""

    __slots__ = ()


class IntegerType(Type):
    """``iN`` (signless), ``siN`` (signed) or ``uiN`` (unsigned)."""

    __slots__ = ("width", "signedness")
    width: int
    signedness: str

    def _init(self, width: int, signedness: str = "signless") -> None:
        if width <= 0 or width > 1 << 24:
            raise ValueError(f"invalid integer width {width}")
        if signedness not in ("signless", "signed", "unsigned"):
            raise ValueError(f"invalid signedness {signedness!r}")
        self._set("width", width)
        self._set("signedness", signedness)

    @classmethod
    def _key(cls, args: tuple) -> tuple:
        return (args[0], args[1] if len(args) > 1 else "signless")

    def _render(self) -> str:
        prefix = {"signless": "i", "signed": "si", "unsigned": "ui"}[self.signedness]
        return f"{prefix}{self.width}"

    @property
    def is_unsigned(self) -> bool:
        return self.signedness == "unsigned"

    def value_range(self) -> tuple[int, int]:
        """The representable range; signless integers are treated as signed except i1."""
        if self.signedness == "unsigned" or self.width == 1:
            return 0, (1 << self.width) - 1
        return -(1 << (self.width - 1)), (1 << (self.width - 1)) - 1


FLOAT_KINDS = ("f16", "bf16", "f32", "f64")


class FloatType(Type):
    """``f16``, ``bf16``, ``f32`` or ``f64``."""

    __slots__ = ("kind",)
    kind: str

    def _init(self, kind: str) -> None:
        if kind not in FLOAT_KINDS:
            raise ValueError(f"unknown float type {kind!r}")
        self._set("kind", kind)

    def _render(self) -> str:
        return self.kind

    @property
    def width(self) -> int:
        return 64 if self.kind == "f64" else 32 if self.kind == "f32" else 16


class IndexType(Type):
    __slots__ = ()

    def _init(self) -> None:
        pass

    def _render(self) -> str:
        return "index"


class NoneType(Type):
    __slots__ = ()

    def _init(self) -> None:
        pass

    def _render(self) -> str:
        return "none"


class TensorType(Type):
    """Common base of ranked and unranked tensors."""

    __slots__ = ("element_type",)
    element_type: Type


class RankedTensorType(TensorType):
    """``tensor<1x?x4xi8>`` with an optional encoding attribute (``tensor<4xi8, #npu.fm<...>>``)."""

    __slots__ = ("shape", "encoding")
    shape: tuple[int, ...]
    encoding: "Attribute | None"

    def _init(self, shape: Sequence[int], element_type: Type, encoding: "Attribute | None" = None) -> None:
        for dim in shape:
            if dim < 0 and dim != DYNAMIC:
                raise ValueError(f"invalid tensor dimension {dim}")
        self._set("shape", tuple(shape))
        self._set("element_type", element_type)
        self._set("encoding", encoding)

    @classmethod
    def _key(cls, args: tuple) -> tuple:
        return (tuple(args[0]), args[1], args[2] if len(args) > 2 else None)

    @classmethod
    def from_parsed(cls, shape: tuple[int, ...], element_type: Type,
                    encoding: "Attribute | None" = None) -> "RankedTensorType":
        """``RankedTensorType(shape, element_type, encoding)`` for a shape a parser decoded from
        digits and ``?`` (so every dimension is valid): the same interned object, without
        re-checking the dimensions or normalising the arguments (a third of a tensor type's cost)."""
        return cls._intern_fields((shape, element_type, encoding),
                                  {"shape": shape, "element_type": element_type, "encoding": encoding})

    def _render(self) -> str:
        dims = "".join(("?" if d == DYNAMIC else str(d)) + "x" for d in self.shape)
        enc = "" if self.encoding is None else f", {self.encoding}"
        return f"tensor<{dims}{self.element_type}{enc}>"

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def has_static_shape(self) -> bool:
        return DYNAMIC not in self.shape

    def num_elements(self) -> int:
        count = 1
        for dim in self.shape:
            if dim == DYNAMIC:
                raise ValueError(f"{self} has a dynamic shape")
            count *= dim
        return count


class UnrankedTensorType(TensorType):
    """``tensor<*xf32>``."""

    __slots__ = ()

    def _init(self, element_type: Type) -> None:
        self._set("element_type", element_type)

    def _render(self) -> str:
        return f"tensor<*x{self.element_type}>"


def _function_depth(inputs: Sequence[Type], results: Sequence[Type]) -> int:
    """1 + the deepest function type among ``inputs`` and ``results`` (each knows its own)."""
    return 1 + max((t.depth for t in (*inputs, *results) if isinstance(t, FunctionType)), default=0)


class FunctionType(Type):
    """``(inputs) -> results``; used by func.func and by the generic op syntax."""

    __slots__ = ("inputs", "results", "depth")
    inputs: tuple[Type, ...]
    results: tuple[Type, ...]
    depth: int
    """How deeply function types nest in this one (1: none inside): the parser refuses more than
    its bracket-nesting limit, as each level prints inside another pair of parentheses."""

    def _init(self, inputs: Sequence[Type], results: Sequence[Type]) -> None:
        self._set("inputs", tuple(inputs))
        self._set("results", tuple(results))
        self._set("depth", _function_depth(self.inputs, self.results))

    @classmethod
    def _key(cls, args: tuple) -> tuple:
        return (tuple(args[0]), tuple(args[1]))

    @classmethod
    def from_parsed(cls, inputs: tuple[Type, ...], results: tuple[Type, ...]) -> "FunctionType":
        """``FunctionType(inputs, results)`` for tuples a parser built: the same interned object,
        without copying them into new tuples for the key and again for the fields."""
        return cls._intern_fields((inputs, results), {"inputs": inputs, "results": results,
                                                      "depth": _function_depth(inputs, results)})

    def _render(self) -> str:
        ins = ", ".join(str(t) for t in self.inputs)
        if len(self.results) == 1 and not isinstance(self.results[0], FunctionType):
            outs = str(self.results[0])
        else:
            outs = "(" + ", ".join(str(t) for t in self.results) + ")"
        return f"({ins}) -> {outs}"


_INF = float("inf")

MAX_QUANT_STORAGE_WIDTH = 64
"""The widest storage type of a quantised type (TFLite's 16x8 networks have int64 biases;
MLIR's quant dialect stops at 32 bits)."""


class QuantUniformType(Type):
    """``!quant.uniform``: affine int quantisation, per tensor or per axis.

    ``storage_min``/``storage_max`` are None when they are the storage type's full range
    (then they are not printed). ``axis`` is None for per-tensor quantisation.
    """

    __slots__ = ("storage_type", "storage_min", "storage_max", "expressed_type", "axis", "scales", "zero_points")
    storage_type: IntegerType
    storage_min: int
    storage_max: int
    expressed_type: FloatType
    axis: int | None
    scales: tuple[float, ...]
    zero_points: tuple[int, ...]

    def _init(
        self,
        storage_type: IntegerType,
        expressed_type: FloatType,
        scales: Sequence[float],
        zero_points: Sequence[int],
        axis: int | None = None,
        storage_min: int | None = None,
        storage_max: int | None = None,
    ) -> None:
        if storage_type.width > MAX_QUANT_STORAGE_WIDTH:
            raise ValueError(f"quantised storage type {storage_type} is wider than "
                             f"{MAX_QUANT_STORAGE_WIDTH} bits")
        full_min, full_max = storage_type.value_range()
        lo = full_min if storage_min is None else storage_min
        hi = full_max if storage_max is None else storage_max
        if not full_min <= lo <= hi <= full_max:
            raise ValueError(f"illegal storage type range [{lo}, {hi}] for {storage_type}")
        if len(scales) != len(zero_points) or not scales:
            raise ValueError("quantisation needs as many zero points as scales, and at least one")
        if axis is None and len(scales) != 1:
            raise ValueError("per-tensor quantisation has exactly one scale")
        for scale in scales:
            if not scale > 0 or scale == float("inf"):
                raise ValueError(f"illegal scale: {scale}")
        for zp in zero_points:
            if not lo <= zp <= hi:
                raise ValueError(f"zero point {zp} is outside the storage range [{lo}, {hi}]")
        self._set("storage_type", storage_type)
        self._set("expressed_type", expressed_type)
        self._set("scales", tuple(float(s) for s in scales))
        self._set("zero_points", tuple(int(z) for z in zero_points))
        self._set("axis", axis)
        self._set("storage_min", lo)
        self._set("storage_max", hi)

    @classmethod
    def _key(cls, args: tuple) -> tuple:
        padded = tuple(args) + (None,) * (7 - len(args))
        storage, expressed, scales, zps, axis, lo, hi = padded
        full_min, full_max = storage.value_range()
        lo = None if lo == full_min else lo
        hi = None if hi == full_max else hi
        # the scales' bit patterns, packed in one call (per-axis types have one scale per channel);
        # NaN and infinite scales, whose patterns would differ where their values compare equal,
        # are refused by _init, so never reach the table
        scale_bits = struct.pack(f"<{len(scales)}d", *map(float, scales))
        return (storage, expressed, scale_bits, tuple(zps), axis, lo, hi)

    @classmethod
    def from_parsed(cls, storage_type: IntegerType, expressed_type: FloatType, scales: list[float],
                    zero_points: list[int], axis: int | None = None, storage_min: int | None = None,
                    storage_max: int | None = None) -> "QuantUniformType":
        """``QuantUniformType(...)`` for parameters a parser decoded (floats and ints): the same
        interned object, its key built once and the checks of ``_init`` done with a few builtins
        over the whole lists. Anything those checks doubt (a bad range, a NaN or infinite scale,
        a zero point out of range) goes through the constructor, which raises the usual error."""
        full_min, full_max = storage_type.value_range()
        lo = full_min if storage_min is None else storage_min
        hi = full_max if storage_max is None else storage_max
        count = len(scales)
        if (storage_type.width > MAX_QUANT_STORAGE_WIDTH or not full_min <= lo <= hi <= full_max
                or count != len(zero_points) or not count or (axis is None and count != 1)
                or not sum(scales) < _INF or not min(scales) > 0  # NaN or inf anywhere: the sum is too
                or min(zero_points) < lo or max(zero_points) > hi):
            return cls(storage_type, expressed_type, scales, zero_points, axis, storage_min, storage_max)
        scale_tuple, zp_tuple = tuple(scales), tuple(zero_points)
        key = (storage_type, expressed_type, struct.pack(f"<{count}d", *scale_tuple), zp_tuple, axis,
               None if lo == full_min else lo, None if hi == full_max else hi)
        return cls._intern_fields(key, {
            "storage_type": storage_type, "expressed_type": expressed_type, "scales": scale_tuple,
            "zero_points": zp_tuple, "axis": axis, "storage_min": lo, "storage_max": hi})

    @property
    def is_per_axis(self) -> bool:
        return self.axis is not None

    def _render(self) -> str:
        st = self.storage_type
        storage = ("u" if st.is_unsigned else "i") + str(st.width)
        full_min, full_max = st.value_range()
        if (self.storage_min, self.storage_max) != (full_min, full_max):
            storage += f"<{self.storage_min}:{self.storage_max}>"
        params = [format_quant_param(s, z) for s, z in zip(self.scales, self.zero_points)]
        if self.axis is None:
            return f"!quant.uniform<{storage}:{self.expressed_type}, {params[0]}>"
        return f"!quant.uniform<{storage}:{self.expressed_type}:{self.axis}, {{{','.join(params)}}}>"


def format_quant_param(scale: float, zero_point: int) -> str:
    text = repr(float(scale))
    return text if zero_point == 0 else f"{text}:{zero_point}"


class OpaqueType(Type):
    """A type of a dialect npu-opt does not model: ``!dialect.name<body>``, kept verbatim."""

    __slots__ = ("dialect", "type_name", "body")
    dialect: str
    type_name: str
    body: str | None

    def _init(self, dialect: str, type_name: str, body: str | None = None) -> None:
        self._set("dialect", dialect)
        self._set("type_name", type_name)
        self._set("body", body)

    @classmethod
    def _key(cls, args: tuple) -> tuple:
        return (args[0], args[1], args[2] if len(args) > 2 else None)

    def _render(self) -> str:
        head = f"!{self.dialect}.{self.type_name}" if self.type_name else f"!{self.dialect}"
        return head if self.body is None else f"{head}<{self.body}>"


def i(width: int) -> IntegerType:
    """Shorthand for a signless integer type."""
    return IntegerType(width)


I1, I8, I16, I32, I64 = (IntegerType(w) for w in (1, 8, 16, 32, 64))
F16, BF16, F32, F64 = (FloatType(k) for k in FLOAT_KINDS)
INDEX = IndexType()
NONE = NoneType()


def element_type_of(t: Type) -> Type:
    """The element type of a tensor, or the type itself."""
    return t.element_type if isinstance(t, TensorType) else t


def storage_type_of(t: Type) -> Type:
    """The storage type of a (tensor of) quantised type, or the element type."""
    elem = element_type_of(t)
    return elem.storage_type if isinstance(elem, QuantUniformType) else elem
