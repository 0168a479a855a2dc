"""What the npu ops share: base classes, operand constraints, verification helpers and the
accessors the scheduling passes and the performance model read.

Design notes: docs/lowering_design.md, section What the npu ops share (ops_common)."""
from __future__ import annotations

from typing import Any, ClassVar, Sequence

from npu_opt.hardware.accelerators import BlockType
from npu_opt.dialects.npu.attrs import (
    ROUNDINGS, ActivationAttr, FeatureMap, FmAttr, KernelAttr, OffsetAttr, RescaleAttr,
)
from npu_opt.dialects.npu.interfaces import CostedOp
from npu_opt.ir.attributes import Attribute
from npu_opt.ir.constraints import AttrConstraint, StrAttrC, TypeAttrC, TypeConstraint
from npu_opt.ir.core import Value
from npu_opt.ir.opdef import AttrDef, Op, VerifyError
from npu_opt.ir.traits import ConstantLike, MemoryOnly
from npu_opt.ir.types import (
    IntegerType, QuantUniformType, RankedTensorType, TensorType, Type, element_type_of,
)

# ---------------------------------------------------------------------------------------------
# Attribute constraints for the npu attributes
class IsAttr(AttrConstraint):
    """An attribute of one Python class; to and from Python it is the attribute itself."""

    def __init__(self, cls: type, description: str) -> None:
        self.cls = cls
        self.description = description  # type: ignore[misc]

    def check(self, attr: Attribute) -> bool:
        return isinstance(attr, self.cls)

    def to_python(self, attr: Attribute) -> Any:
        return attr

    def from_python(self, value: Any) -> Attribute:
        if isinstance(value, self.cls):
            return value
        raise TypeError(f"cannot make {self.description} from {value!r}")


KernelC = IsAttr(KernelAttr, "#npu.kernel attribute")
ActivationC = IsAttr(ActivationAttr, "#npu.act attribute")
RescaleC = IsAttr(RescaleAttr, "#npu.rescale attribute")
OffsetC = IsAttr(OffsetAttr, "#npu.offset attribute")
RoundingC = StrAttrC(ROUNDINGS)
ResamplingC = StrAttrC(("none", "nearest", "transpose"))


class KeyedAttrDef(AttrDef):
    """An AttrDef whose IR key differs from its Python name (``name`` is taken by Operation)."""

    def __init__(self, key: str, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._key = key

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = self._key


# ---------------------------------------------------------------------------------------------
# Type predicates and constraints
def storage_of(t: Type) -> IntegerType | None:
    """The integer storage type of a (quantised) integer tensor type, else None."""
    elem = element_type_of(t)
    if isinstance(elem, QuantUniformType):
        return elem.storage_type
    return elem if isinstance(elem, IntegerType) else None


def element_bits(value_or_type: Value | Type) -> int:
    """Bits per element (8, 16, 32, ...) of a tensor of (quantised) integers."""
    t = value_or_type.type if isinstance(value_or_type, Value) else value_or_type
    storage = storage_of(t)
    if storage is None:
        raise ValueError(f"'{t}' is not a tensor of integers")
    return storage.width


def element_bytes(value_or_type: Value | Type) -> int:
    """Bytes one element takes in memory, for any tensor a schedule stores: (quantised) integers
    (at least a byte), floats left on the CPU, and other element types as one byte each."""
    t = value_or_type.type if isinstance(value_or_type, Value) else value_or_type
    storage = storage_of(t)
    if storage is not None:
        return max(storage.width, 8) // 8
    elem = element_type_of(t)
    width = getattr(elem, "width", 8)
    return max(int(width), 8) // 8


def is_signed(value_or_type: Value | Type) -> bool:
    t = value_or_type.type if isinstance(value_or_type, Value) else value_or_type
    storage = storage_of(t)
    return storage is not None and not storage.is_unsigned


def quant_of(value_or_type: Value | Type) -> QuantUniformType | None:
    """The quantisation of a tensor type, or None for plain integers."""
    t = value_or_type.type if isinstance(value_or_type, Value) else value_or_type
    elem = element_type_of(t)
    return elem if isinstance(elem, QuantUniformType) else None


def _int_tensor(t: Type, widths: Sequence[int]) -> bool:
    storage = storage_of(t) if isinstance(t, TensorType) else None
    return storage is not None and storage.width in widths


def _static(t: Type) -> bool:
    return isinstance(t, RankedTensorType) and t.has_static_shape


FeatureMap4D = TypeConstraint(
    "static 4-D tensor of 8-, 16- or 32-bit (quantised) integers",
    lambda t: _static(t) and t.rank == 4 and _int_tensor(t, (8, 16, 32)))  # type: ignore[attr-defined]
FeatureMapOrScalar = TypeConstraint(
    "static 4-D or 0-D (scalar) tensor of 8-, 16- or 32-bit (quantised) integers",
    lambda t: _static(t) and t.rank in (0, 4) and _int_tensor(t, (8, 16, 32)))  # type: ignore[attr-defined]
Weights = TypeConstraint(
    "static tensor of 8-bit (quantised) integers",
    lambda t: _static(t) and _int_tensor(t, (8,)))
Bias = TypeConstraint(
    "static 1-D tensor of 32- or 64-bit (quantised) integers",
    lambda t: _static(t) and t.rank == 1 and _int_tensor(t, (32, 64)))  # type: ignore[attr-defined]
LookupTable = TypeConstraint(
    "static 1-D tensor of 256 8-bit or 256/512 32-bit integers",
    lambda t: _static(t) and t.rank == 1 and (  # type: ignore[attr-defined]
        (_int_tensor(t, (8,)) and t.shape[0] == 256)  # type: ignore[attr-defined]
        or (_int_tensor(t, (32,)) and t.shape[0] in (256, 512))))  # type: ignore[attr-defined]
AnyStaticTensor = TypeConstraint("static tensor", _static)


def shape_of(value: Value) -> tuple[int, ...]:
    """The static shape of a ranked tensor value."""
    t = value.type
    if not isinstance(t, RankedTensorType):
        raise ValueError(f"'{t}' is not a ranked tensor type")
    return t.shape


def fmt(shape: Sequence[int]) -> str:
    return "x".join(str(d) for d in shape) if shape else "scalar"


# ---------------------------------------------------------------------------------------------
# Accessors used by later passes
def is_constant(value: Value) -> bool:
    """True if ``value`` is defined by a constant op (weights, biases, tables, scalars): one with
    the ``ConstantLike`` trait."""
    owner = getattr(value, "op", None)
    return isinstance(owner, Op) and owner.has_trait(ConstantLike)


def encoding_of(value: Value) -> FmAttr | None:
    t = value.type
    enc = t.encoding if isinstance(t, RankedTensorType) else None
    return enc if isinstance(enc, FmAttr) else None


def feature_map(value: Value, target: Any) -> FeatureMap:
    """The format and memory area of ``value`` on ``target`` (a ``Target``): its ``#npu.fm``
    encoding where given, else NHWC in permanent storage for constants and in the feature-map
    (arena) storage for everything else."""
    enc = encoding_of(value)
    fmt_ = enc.format if enc is not None else "NHWC"
    area = enc.area if enc is not None else None
    if area is None:
        area = target.permanent_storage_area if is_constant(value) else target.feature_map_storage_area
    return FeatureMap(fmt_, area)


def with_encoding(t: RankedTensorType, encoding: FmAttr | None) -> RankedTensorType:
    """``t`` with its encoding replaced (None drops it)."""
    return RankedTensorType(t.shape, t.element_type, encoding)


def dtype_range(value_or_type: Value | Type) -> tuple[int, int]:
    """The integer range of the elements' storage type."""
    t = value_or_type.type if isinstance(value_or_type, Value) else value_or_type
    storage = storage_of(t)
    if storage is None:
        raise ValueError(f"'{t}' is not a tensor of integers")
    return storage.value_range()


def activation_range(value_or_type: Value | Type) -> tuple[int, int]:
    """The widest clamp the NPU's activation registers take for this OFM: its type's range,
    limited to int16 (ACTIVATION_MIN/MAX are 16-bit)."""
    lo, hi = dtype_range(value_or_type)
    return max(lo, -(1 << 15)), min(hi, (1 << 15) - 1)


# ---------------------------------------------------------------------------------------------
# Base classes
class NpuOp(Op):
    """Base of the npu ops. The verifier runs ``verify_op`` (the op's own checks) only when the
    declared operand, result and attribute constraints hold (it reports those)."""

    BLOCK_TYPE: ClassVar[BlockType | None] = None
    """The NPU block type the op runs as: its ``CostedOp`` interface's (None for views and DMA)."""
    VELA_OP: ClassVar[str] = ""
    """Vela's op type of the same operation (``Conv2DBias``, ``AvgPool``, ``Add`` ...), which
    the performance model's per-op rules are written against."""
    MEMORY_ONLY: ClassVar[bool] = False
    """Shorthand for ``has_trait(MemoryOnly)``: views that move no data (reshape, slice, concat)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Derive the shorthands above from the declared traits (the traits are the truth)."""
        super().__init_subclass__(**kwargs)
        traits = getattr(cls, "traits", ())
        costed = next((t for t in traits if isinstance(t, CostedOp)), None)
        cls.BLOCK_TYPE = costed.block_type if costed is not None else None
        cls.MEMORY_ONLY = any(isinstance(t, MemoryOnly) for t in traits)

    tensor_name = KeyedAttrDef("name", StrAttrC(), optional=True,
                               doc="Vela's name of the op (TFLite output tensor name, with suffixes "
                                   "for decomposed ops); reports join on it")

    VERIFY_OP_NEEDS_DECLARED = True

    def verify_op(self) -> None:
        self.verify_npu()
        self.verify_encodings()

    def verify_npu(self) -> None:
        """The op's own checks; raise VerifyError."""

    def verify_encodings(self) -> None:
        for index, value in enumerate([*self.operands, *self.results]):
            t = value.type
            if isinstance(t, RankedTensorType) and t.encoding is not None and not isinstance(t.encoding, FmAttr):
                raise VerifyError(f"tensor encoding '{t.encoding}' is not an #npu.fm attribute")


class NpuComputeOp(NpuOp):
    """Base of the ops the NPU computes: they have an OFM, a fused activation with its clamp,
    and an output rescale with a rounding mode."""

    activation = AttrDef(ActivationC, optional=True,
                         doc="fused activation; absent means none, clamped to the OFM type's range")
    rescale = AttrDef(RescaleC, optional=True, doc="explicit output rescale (else from the types)")
    rounding = AttrDef(RoundingC, optional=True, doc="rounding of the rescale (default 'tflite')")
    output_quant = AttrDef(TypeAttrC(), optional=True,
                           doc="quantisation the rescale targets when a fused LUT requantises")

    @property
    def ofm(self) -> Value:
        return self.results[0]

    @property
    def kernel_attr(self) -> KernelAttr:
        """The kernel; 1x1, stride 1, no padding for ops without a ``kernel`` attribute."""
        kernel = self.attr("kernel")
        return kernel if isinstance(kernel, KernelAttr) else KernelAttr((1, 1))

    def activation_attr(self) -> ActivationAttr:
        """The activation, with the OFM type's range when none is given."""
        act = self.attr("activation")
        if isinstance(act, ActivationAttr):
            return act
        return ActivationAttr("none", *activation_range(self.results[0]))

    def lut_operand(self) -> Value | None:
        """The lookup table of a ``lut`` activation, if the op has one."""
        return getattr(self, "lut", None)

    def verify_activation(self) -> None:
        act = self.attr("activation")
        lut = self.lut_operand()
        if isinstance(act, ActivationAttr):
            lo, hi = activation_range(self.results[0])
            if act.min < lo or act.max > hi:
                raise VerifyError(f"activation range [{act.min}, {act.max}] is outside the OFM range [{lo}, {hi}]")
            if act.uses_lut and lut is None:
                raise VerifyError("a 'lut' activation needs a lookup table operand")
        if lut is not None and not (isinstance(act, ActivationAttr) and act.uses_lut):
            raise VerifyError("a lookup table operand needs a 'lut' activation")

    def verify_npu(self) -> None:
        self.verify_activation()
        self.verify_shapes()

    def verify_shapes(self) -> None:
        """Shape checks of the op; raise VerifyError."""


def check_depth(what: str, actual: int, expected: int) -> None:
    if actual != expected:
        raise VerifyError(f"{what} is {actual}, expected {expected}")


def check_window(kernel: KernelAttr, ifm: Sequence[int], ofm: Sequence[int], upscale: int = 1) -> None:
    """Every OFM element must read inside the (upscaled, padded) IFM. Vela forces a stride of 1
    along an axis whose OFM size is 1, so the OFM may be smaller than the window allows, never
    larger."""
    top, left, bottom, right = kernel.padding
    for axis, (size, out, stride, extent, before, after) in enumerate((
            (ifm[1] * upscale, ofm[1], kernel.stride_h, kernel.dilated_height, top, bottom),
            (ifm[2] * upscale, ofm[2], kernel.stride_w, kernel.dilated_width, left, right))):
        if (out - 1) * stride + extent > size + before + after:
            what = "height" if axis == 0 else "width"
            raise VerifyError(f"OFM {what} {out} needs {(out - 1) * stride + extent} input rows/columns with "
                              f"{kernel}, but the padded IFM {what} is {size + before + after}")


__all__ = [
    "ActivationC", "AnyStaticTensor", "Bias", "FeatureMap4D", "FeatureMapOrScalar", "IsAttr",
    "KernelC", "KeyedAttrDef", "LookupTable", "NpuComputeOp", "NpuOp", "OffsetC", "RescaleC", "ResamplingC",
    "RoundingC", "Weights", "activation_range", "check_depth", "check_window", "dtype_range", "element_bits", "element_bytes",
    "encoding_of", "feature_map", "fmt", "is_constant", "is_signed", "quant_of", "shape_of", "storage_of",
    "with_encoding",
]
