"""Shape inference helpers shared by the tfl ops' verifiers.

Shapes are tuples of ints with ``DYNAMIC`` (-1) for unknown dimensions; a value whose type is not
a ranked tensor has no shape (None), and checks that need it are skipped. Every helper raises
``VerifyError`` with a message naming what disagrees.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from npu_opt.ir.attributes import DenseElementsAttr, DenseResourceAttr
from npu_opt.ir.core import Value
from npu_opt.ir.opdef import VerifyError
from npu_opt.ir.types import DYNAMIC, QuantUniformType, RankedTensorType, Type, element_type_of

if TYPE_CHECKING:  # only the annotations name numpy; importing it costs ~0.1 s of every tfl run
    import numpy as np

Shape = tuple[int, ...]


def shape_of(value: Value | None) -> Shape | None:
    """The shape of a ranked tensor value, else None."""
    if value is None:
        return None
    t = value.type
    return t.shape if isinstance(t, RankedTensorType) else None


def fmt(shape: Sequence[int]) -> str:
    """``1x?x4`` as in tensor types (``[]`` for a scalar)."""
    if not shape:
        return "[]"
    return "x".join("?" if d == DYNAMIC else str(d) for d in shape)


def dims_agree(a: int, b: int) -> bool:
    return a == b or a == DYNAMIC or b == DYNAMIC


def shapes_agree(a: Sequence[int], b: Sequence[int]) -> bool:
    return len(a) == len(b) and all(dims_agree(x, y) for x, y in zip(a, b))


def expect_shape(actual: Shape | None, expected: Sequence[int], what: str = "result") -> None:
    """Raise unless ``actual`` (None: unknown, accepted) agrees with ``expected``."""
    if actual is not None and not shapes_agree(actual, expected):
        raise VerifyError(f"{what} shape {fmt(actual)} does not match the inferred shape {fmt(tuple(expected))}")


def expect_rank(shape: Shape | None, rank: int | Sequence[int], what: str) -> None:
    ranks = (rank,) if isinstance(rank, int) else tuple(rank)
    if shape is not None and len(shape) not in ranks:
        wanted = " or ".join(str(r) for r in ranks)
        raise VerifyError(f"{what} must have rank {wanted}, but has shape {fmt(shape)}")


def broadcast(a: Shape, b: Shape) -> Shape:
    """NumPy broadcasting of two shapes; VerifyError when they are incompatible."""
    rank = max(len(a), len(b))
    pa = (1,) * (rank - len(a)) + tuple(a)
    pb = (1,) * (rank - len(b)) + tuple(b)
    out = []
    for x, y in zip(pa, pb):
        if x == 1:
            out.append(y)
        elif y == 1 or x == y:
            out.append(x)
        elif x == DYNAMIC or y == DYNAMIC:
            out.append(x if y == DYNAMIC else y)
        else:
            raise VerifyError(f"operands of shapes {fmt(a)} and {fmt(b)} are not broadcastable")
    return tuple(out)


def norm_axis(axis: int, rank: int, what: str = "axis") -> int:
    """``axis`` in ``[-rank, rank)`` made non-negative."""
    if not -rank <= axis < rank:
        raise VerifyError(f"{what} {axis} is out of range for rank {rank}")
    return axis + rank if axis < 0 else axis


def conv_output_size(size: int, kernel: int, stride: int, dilation: int, padding: str) -> int:
    """TFLite's output size of a convolution or pooling window along one axis."""
    if size == DYNAMIC or kernel == DYNAMIC:
        return DYNAMIC
    effective = (kernel - 1) * dilation + 1
    if padding == "SAME":
        return (size + stride - 1) // stride
    return max(0, (size - effective + stride) // stride)


def storage_of(t: Type) -> Type:
    """The element type with quantisation stripped (``!quant.uniform<i8:...>`` -> i8)."""
    elem = element_type_of(t)
    return elem.storage_type if isinstance(elem, QuantUniformType) else elem


def same_storage(values: Sequence[Value], what: str) -> None:
    """All ``values`` have the same element storage type (scales may differ)."""
    types = [storage_of(v.type) for v in values]
    if any(t is not types[0] for t in types[1:]):
        shown = ", ".join(str(element_type_of(v.type)) for v in values)
        raise VerifyError(f"{what} must have the same element type, but have {shown}")


def constant_array(value: Value | None) -> np.ndarray | None:
    """The contents of ``value`` if a ``tfl.pseudo_const``/``pseudo_qconst`` defines it."""
    owner = getattr(value, "op", None)
    if owner is None or owner.name not in ("tfl.pseudo_const", "tfl.pseudo_qconst"):
        return None
    attr = owner.attr("value")
    if isinstance(attr, DenseElementsAttr):
        return attr.array
    if isinstance(attr, DenseResourceAttr) and attr.blob is not None:
        try:
            return attr.as_array()
        except ValueError:
            return None
    return None


def constant_ints(value: Value | None) -> list[int] | None:
    """The integer contents of a constant operand as a flat list, else None."""
    array = constant_array(value)
    if array is None or array.dtype.kind not in "iu":
        return None
    return [int(v) for v in array.reshape(-1).tolist()]


def num_elements(shape: Shape) -> int | None:
    """Element count, or None if a dimension is dynamic."""
    count = 1
    for dim in shape:
        if dim == DYNAMIC:
            return None
        count *= dim
    return count
