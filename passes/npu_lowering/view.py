"""A Vela-shaped view of a tfl op: which operands are its IFM, IFM2, weights and bias, the data
types Vela would see, and the small shape helpers the support checks and lowerings share."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from npu_opt.dialects.tfl.shapes import constant_array
from npu_opt.ir.core import Operation, Value
from npu_opt.ir.location import FusedLoc, Location, NameLoc
from npu_opt.ir.types import (
    FloatType, IntegerType, NoneType, QuantUniformType, RankedTensorType, element_type_of,
)

# operand indices (ifm, ifm2, weights, bias) per op, as Vela's TensorIndices
_INDICES: dict[str, tuple[int | None, int | None, int | None, int | None]] = {
    "tfl.conv_2d": (0, None, 1, 2),
    "tfl.depthwise_conv_2d": (0, None, 1, 2),
    "tfl.fully_connected": (0, None, 1, 2),
    "tfl.transpose_conv": (2, None, 1, 3),
}
BINARY = ("tfl.add", "tfl.sub", "tfl.mul", "tfl.minimum", "tfl.maximum", "tfl.squared_difference")
NO_OPERANDS_CHECKED = ("tfl.concatenation", "tfl.pack", "tfl.padv2", "tfl.custom", "tfl.unsupported")


def builtin_name(op: Operation) -> str:
    """The TFLite operator name of a tfl op (``CONV_2D``), for messages."""
    cls = type(op)
    name = getattr(cls, "BUILTIN", "")
    if op.name == "tfl.unsupported":
        opcode = op.attr("opcode")
        return getattr(opcode, "value", "UNSUPPORTED")
    if op.name == "tfl.custom":
        return "CUSTOM"
    return name or op.name.split(".", 1)[1].upper()


def dtype_name(value: Value | None) -> str:
    """Vela's data type name of a tensor value: int8, uint8, int16, int32, float32, bool, ..."""
    if value is None:
        return "none"
    elem = element_type_of(value.type)
    if isinstance(elem, QuantUniformType):
        elem = elem.storage_type
    if isinstance(elem, IntegerType):
        if elem.width == 1:
            return "bool"
        return ("uint" if elem.is_unsigned else "int") + str(elem.width)
    if isinstance(elem, FloatType):
        return "float" + str(elem.width)
    return str(elem)


def shape_list(value: Value | None) -> list[int] | None:
    if value is None or not isinstance(value.type, RankedTensorType):
        return None
    return list(value.type.shape)


def shape4(shape: Sequence[int]) -> tuple[int, int, int, int]:
    """Vela's Shape4D: left-pad with ones to rank 4 (rank must be at most 4)."""
    padded = (1,) * (4 - len(shape)) + tuple(shape)
    return padded  # type: ignore[return-value]


def quant(value: Value | None) -> QuantUniformType | None:
    if value is None:
        return None
    elem = element_type_of(value.type)
    return elem if isinstance(elem, QuantUniformType) else None


def scaling_equal(a: Value | None, b: Value | None) -> bool:
    """Vela's ``check_quantized_tens_scaling_equal``: both quantised with equal scales and zero points."""
    qa, qb = quant(a), quant(b)
    return (qa is not None and qb is not None and qa.scales == qb.scales and qa.zero_points == qb.zero_points)


def op_name(op: Operation, fallback: str) -> str:
    """Vela's name of the op: the TFLite output tensor name the importer put in the location."""
    loc: Location | None = op.location
    while loc is not None:
        if isinstance(loc, NameLoc):
            return loc.name
        if isinstance(loc, FusedLoc):
            names = [l for l in loc.locations if isinstance(l, NameLoc)]
            return names[0].name if names else fallback
        break
    return fallback


@dataclass
class View:
    """The operands of ``op`` in Vela's roles. ``ifm``/``ifm2``/``weights``/``bias``/``ofm`` are
    None when the op has no such operand (or TFLite's "no value")."""

    op: Operation
    ifm: Value | None
    ifm2: Value | None
    weights: Value | None
    bias: Value | None
    ofm: Value | None

    @property
    def checked(self) -> list[Value]:
        """The tensors Vela's generic checks look at (``get_ifm_ifm2_weights_ofm``; all inputs when
        the op has none of those roles)."""
        tensors = [t for t in (self.ifm, self.ifm2, self.weights) if t is not None]
        if self.op.name in NO_OPERANDS_CHECKED or not tensors:
            tensors = [v for v in self.op.operands if not isinstance(v.type, NoneType)]
        return tensors + ([self.ofm] if self.ofm is not None else [])

    def faf(self) -> str | None:
        """The fused activation function name, or None."""
        attr = self.op.attr("fused_activation_function")
        value = getattr(attr, "value", None)
        return None if value in (None, "NONE") else value

    def attr(self, name: str, default: object = None) -> object:
        """The Python value of attribute ``name`` (``default`` when absent)."""
        attr = self.op.attr(name)
        if attr is None:
            return default
        return getattr(attr, "value", attr)

    def int(self, name: str, default: int = 0) -> int:
        """An integer attribute as an int."""
        return int(self.attr(name, default))  # type: ignore[call-overload]


def view_of(op: Operation) -> View:
    operands = [None if isinstance(v.type, NoneType) else v for v in op.operands]

    def at(index: int | None) -> Value | None:
        return operands[index] if index is not None and index < len(operands) else None

    ofm = op.results[0] if op.results else None
    if op.name in _INDICES:
        i, i2, w, b = _INDICES[op.name]
        return View(op, at(i), at(i2), at(w), at(b), ofm)
    if op.name in BINARY:
        return View(op, at(0), at(1), None, None, ofm)
    if op.name in ("tfl.concatenation", "tfl.pack"):
        return View(op, at(0), at(1), None, None, ofm)
    if op.name in ("tfl.split",):
        return View(op, at(1), None, None, None, ofm)
    return View(op, at(0), None, None, None, ofm)


def constant(value: Value | None) -> np.ndarray | None:
    """The contents of a constant operand (None if not constant)."""
    return None if value is None else constant_array(value)


def strided_slice_bounds(op: Operation) -> tuple[list[int], list[int]]:
    """Begin and end per input axis of a strided slice with masks (Vela's ``_get_slice_offsets``;
    a shrunk axis reads one element)."""
    shape = shape_list(op.operands[0]) or []
    view = view_of(op)
    begins, ends = constant(op.operands[1]), constant(op.operands[2])
    assert begins is not None and ends is not None
    begin_mask, end_mask, shrink = view.int("begin_mask"), view.int("end_mask"), view.int("shrink_axis_mask")
    begin, end = [0] * len(shape), list(shape)
    for i, dim in enumerate(shape):
        if i < begins.size and not begin_mask >> i & 1:
            begin[i] = int(begins.reshape(-1)[i]) + (dim if begins.reshape(-1)[i] < 0 else 0)
        if i < ends.size and not end_mask >> i & 1:
            end[i] = int(ends.reshape(-1)[i]) + (dim if ends.reshape(-1)[i] < 0 else 0)
        if shrink >> i & 1:
            end[i] = begin[i] + 1
    return begin, end


__all__ = ["BINARY", "View", "builtin_name", "constant", "dtype_name", "op_name", "quant", "scaling_equal",
           "shape4", "shape_list", "strided_slice_bounds", "view_of"]
