"""What the cost model needs to know about one NPU operation: ``NpuOpDesc``, a hashable value so
cost functions can be memoised on it.

Design notes: docs/cost_model_design.md, section Op descriptions (op_desc)."""
from __future__ import annotations

import enum
from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import Callable, TypeVar

from npu_opt.hardware.accelerators import BlockType
from npu_opt.hardware.op_kind import ELEMENTWISE_OPS, OpKind
from npu_opt.hardware.perf.shape import Shape4

MEMORY_AREAS: tuple[str, ...] = ("Sram", "Dram", "OnChipFlash", "OffChipFlash")
"""Memories a tensor can live in (as in a Vela system config)."""
SHRAM = "Shram"
"""The NPU's internal shared buffer: only LUTs are DMA'd into it."""


class TensorFormat(str, enum.Enum):
    """Memory layout of a feature map: linear NHWC, or NHCWB16 (depth in bricks of 16)."""

    NHWC = "NHWC"
    NHCWB16 = "NHCWB16"

    @property
    def rounding(self) -> Shape4:
        """Storage rounding quantum: NHCWB16 stores the depth rounded up to 16."""
        return Shape4(1, 1, 1, 16) if self is TensorFormat.NHCWB16 else Shape4(1, 1, 1, 1)


class Resampling(str, enum.Enum):
    """How the IFM is upscaled on the fly (Vela's ``resampling_mode``)."""

    NONE = "none"
    NEAREST = "nearest"
    """Nearest-neighbour 2x upscaling (RESIZE_NEAREST_NEIGHBOR)."""
    TRANSPOSE = "transpose"
    """Zero-insertion 2x upscaling (TRANSPOSE_CONV)."""

    @property
    def upscale(self) -> int:
        return 1 if self is Resampling.NONE else 2


ACTIVATIONS: tuple[str, ...] = (
    "none", "relu", "relu6", "relu_n1_to_1", "relu_0_to_1", "clip", "tanh", "sigmoid", "lut",
)
"""Fused activations. The ReLU family costs the ReLU rate, tanh/sigmoid/lut the LUT rate; a
plain clip (min/max clamp) costs nothing extra."""
RELU_ACTIVATIONS = frozenset({"relu", "relu6", "relu_n1_to_1", "relu_0_to_1"})
LUT_ACTIVATIONS = frozenset({"tanh", "sigmoid", "lut"})


def _memoised_hash(desc: object, compared: Callable[[object], tuple]) -> int:
    """The hash of ``compared(desc)``, its compared fields, kept on the instance: descriptions are
    frozen and key the cost model's memo tables, and hashing a nested description on every
    lookup cost more than the lookups."""
    cached = desc.__dict__.get("_hash")
    if cached is None:
        cached = hash(compared(desc))
        object.__setattr__(desc, "_hash", cached)
    return cached


_Desc = TypeVar("_Desc", "TensorDesc", "WeightsDesc", "NpuOpDesc")


def derived(desc: _Desc, **changes: object) -> _Desc:
    """``desc`` with ``changes``, without its constructor's checks: for the variants the
    scheduler derives from a checked description (a stripe, a memory area, a weight size), tens
    of thousands per schedule search, where ``dataclasses.replace`` re-ran every check (4-5x the
    time). The caller vouches for the changes; a memoised hash is dropped."""
    copy = object.__new__(type(desc))
    fields_ = copy.__dict__
    fields_.update(desc.__dict__)
    fields_.pop("_hash", None)
    fields_.update(changes)
    return copy


@dataclass(frozen=True)
class TensorDesc:
    """A feature map as one op reads or writes it."""

    shape: Shape4
    bits: int = 8
    format: TensorFormat = TensorFormat.NHWC
    memory: str = "Sram"
    whole: Shape4 | None = None
    """The whole tensor when the op reads a window of it (a slice) or writes a part of it (a
    concatenation): Vela searches the block config on it (its ``ifm_shapes``/``ofm_shapes``),
    while accesses are counted on ``shape``. None: ``shape`` is the whole tensor."""

    def __post_init__(self) -> None:
        if self.bits not in (8, 16, 32, 64):
            raise ValueError(f"feature-map elements are 8, 16, 32 or 64 bits, not {self.bits}")
        if self.memory not in MEMORY_AREAS:
            raise ValueError(f"unknown memory area {self.memory!r} (expected one of {', '.join(MEMORY_AREAS)})")
        if min(self.shape) < 1:
            raise ValueError(f"feature-map shape {self.shape} has an empty axis")
        object.__setattr__(self, "format", TensorFormat(self.format))

    def __hash__(self) -> int:
        return _memoised_hash(self, _TENSOR_COMPARED)

    @property
    def element_bytes(self) -> int:
        return self.bits // 8

    @property
    def block_shape(self) -> Shape4:
        """The shape the block-config search sizes blocks on (the whole tensor)."""
        return self.whole if self.whole is not None else self.shape

    def storage_bytes(self) -> int:
        """Bytes the tensor occupies (NHCWB16 rounds the depth up to 16)."""
        return self.shape.round_up(self.format.rounding).elements() * self.element_bytes


@dataclass(frozen=True)
class Kernel:
    """Kernel size, stride and dilation (width first, as Vela's ``Kernel``)."""

    width: int = 1
    height: int = 1
    stride_x: int = 1
    stride_y: int = 1
    dilation_x: int = 1
    dilation_y: int = 1

    def __post_init__(self) -> None:
        if min(self.width, self.height, self.stride_x, self.stride_y, self.dilation_x, self.dilation_y) < 1:
            raise ValueError(f"kernel sizes, strides and dilations must be at least 1: {self}")

    def elements_wh(self) -> int:
        return self.width * self.height

    def area_width(self) -> int:
        """Width covered by the dilated kernel."""
        return (self.width - 1) * self.dilation_x + 1

    def area_height(self) -> int:
        """Height covered by the dilated kernel."""
        return (self.height - 1) * self.dilation_y + 1


@dataclass(frozen=True)
class WeightsDesc:
    """The encoded weights and scale/bias records of a weighted op, and where the NPU reads them.

    ``encoded_bytes`` is the whole encoded stream (weights plus the 10-byte-per-channel scale
    records, all depth slices); ``raw_elements`` the element count of the original weights; the
    ratio gives the bandwidth of a weight fetch. ``memory`` is where the NPU reads them during the
    op: permanent storage, or the fast-storage buffer when ``buffered`` (weights DMA'd into SRAM;
    Vela charges those reads no access cycles, the DMA is costed separately, see dma.py).
    """

    encoded_bytes: int
    raw_elements: int
    memory: str = "OffChipFlash"
    buffered: bool = False
    scale_bytes: int = 10
    """Bytes per OFM channel of the scale/bias records (40-bit bias, 32-bit multiplier, shift);
    0 when the op has none. Vela counts the scale reads at this size."""

    def __post_init__(self) -> None:
        if self.memory not in MEMORY_AREAS:
            raise ValueError(f"unknown memory area {self.memory!r}")
        if self.raw_elements < 1 or self.encoded_bytes < 0:
            raise ValueError("weights need at least one element and a non-negative encoded size")


@dataclass(frozen=True)
class NpuOpDesc:
    """One NPU operation as the cost model sees it (see the module docstring)."""

    kind: OpKind
    ifm: TensorDesc
    ofm: TensorDesc
    ifm2: TensorDesc | None = None
    kernel: Kernel = Kernel()
    weights: WeightsDesc | None = None
    activation: str = "none"
    elementwise: str = ""
    """The elementwise operator (``add``, ``mul``, ...) of ELEMENTWISE_* kinds."""
    ifm2_scalar: bool = False
    """IFM2 is a true scalar (rank 0): it takes no SHRAM buffer."""
    rescaled: bool = True
    """The op rescales its output (Vela's ``has_scaling``): with a 16-bit IFM that needs the
    40-bit accumulator."""
    resampling: Resampling = Resampling.NONE
    lut_bytes: int = 0
    """Bytes of the activation LUT DMA'd into SHRAM before the op (1024 for an int8 LUT)."""
    lut_memory: str = "OffChipFlash"
    """Where the LUT is read from (permanent storage)."""
    padding: tuple[int, int, int, int] = field(default=(0, 0, 0, 0), compare=False)
    """Explicit padding (top, left, bottom, right). Kept for a complete description; Vela's
    performance model does not depend on it, so it is left out of equality and hashing and
    descriptions differing only in padding share memoised costs."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", OpKind(self.kind))
        object.__setattr__(self, "resampling", Resampling(self.resampling))
        if self.activation not in ACTIVATIONS:
            raise ValueError(f"unknown activation {self.activation!r} (expected one of {', '.join(ACTIVATIONS)})")
        if self.kind.is_elementwise and self.elementwise not in ELEMENTWISE_OPS:
            raise ValueError(f"elementwise op needs one of {', '.join(ELEMENTWISE_OPS)}, not {self.elementwise!r}")
        if self.kind is OpKind.ELEMENTWISE_BINARY and self.ifm2 is None:
            raise ValueError("a binary elementwise op needs an IFM2")
        if self.kind in (OpKind.CONV2D, OpKind.DEPTHWISE_CONV2D, OpKind.TRANSPOSE_CONV2D,
                         OpKind.VECTOR_PRODUCT) and self.weights is None:
            raise ValueError(f"a {self.kind.value} op needs weights")

    def __hash__(self) -> int:
        return _memoised_hash(self, _OP_COMPARED)

    # -- derived properties ------------------------------------------------------------------
    @property
    def block_type(self) -> BlockType | None:
        return self.kind.block_type

    @property
    def uses_lut(self) -> bool:
        """The activation is a table lookup: it takes two SHRAM banks."""
        return self.activation in LUT_ACTIVATIONS or self.lut_bytes > 0

    @property
    def has_bias(self) -> bool:
        return self.weights is not None and self.weights.scale_bytes > 0

    @property
    def shape_signature(self) -> tuple:
        """What the block-config search depends on (the memo key of ``find_block_config``)."""
        return (self.block_type, self.ofm.block_shape, self.ifm.block_shape,
                self.ifm2.block_shape if self.ifm2 else None,
                self.ifm2_scalar, self.ifm.bits, self.kernel, self.uses_lut, self.rescaled, self.resampling)

    # -- variants for the scheduler ------------------------------------------------------------
    def ifm_area_for(self, ofm: Shape4) -> tuple[int, int]:
        """IFM (height, width) needed to produce an OFM of ``ofm``'s height and width."""
        up = self.resampling.upscale
        nearest = 1 if self.resampling is Resampling.NEAREST else 0

        def need(out: int, stride: int, area: int) -> int:
            return -(-((out - 1) * stride + area + nearest) // up)

        return (need(ofm.height, self.kernel.stride_y, self.kernel.area_height()),
                need(ofm.width, self.kernel.stride_x, self.kernel.area_width()))

    def with_ofm_stripe(self, stripe: Shape4) -> "NpuOpDesc":
        """This op producing only an OFM stripe: the IFM becomes the input area the stripe needs
        (clamped to the whole IFM), as Vela's ``create_scheduler_info`` does; for a part of a
        concatenation, the whole tensor the block search sizes on is striped too."""
        stripe = stripe.min(self.ofm.shape)
        if stripe == self.ofm.shape:
            return self
        height, width = self.ifm_area_for(stripe)
        ifm = derived(self.ifm, shape=self.ifm.shape.with_hw(min(height, self.ifm.shape.height),
                                                             min(width, self.ifm.shape.width)))
        ifm2 = self.ifm2
        if ifm2 is not None:
            ifm2 = derived(ifm2, shape=ifm2.shape.with_hw(min(height, ifm2.shape.height),
                                                          min(width, ifm2.shape.width)))
        whole = self.ofm.whole
        if whole is not None:
            # a part of a concatenation: Vela's stripe of the whole tensor (the block search's
            # shape) has the stripe's height and the whole tensor's width and depth
            whole = whole.with_hw(min(stripe.height, whole.height), whole.width)
        return derived(self, ifm=ifm, ifm2=ifm2, ofm=derived(self.ofm, shape=stripe, whole=whole))

    def as_scheduled(self) -> "NpuOpDesc":
        """This op as Vela's scheduler costs it for its slack (``estimate_op_performance``): the
        written OFM part at the whole tensor's depth (they differ for a part of a depth
        concatenation, whose scheduled cost is that of the full depth)."""
        return self.with_ofm_depth(self.ofm.block_shape.depth)

    def with_ofm_depth(self, depth: int) -> "NpuOpDesc":
        """This op producing only ``depth`` OFM channels (a weight-streaming depth slice); the
        IFM is unchanged, as in Vela's ``estimate_op_performance``."""
        if depth == self.ofm.shape.depth:
            return self
        return derived(self, ofm=derived(self.ofm, shape=self.ofm.shape.with_depth(depth)))


_TENSOR_FIELDS = tuple(f.name for f in fields(TensorDesc) if f.compare)
_OP_FIELDS = tuple(f.name for f in fields(NpuOpDesc) if f.compare)
"""The fields equality compares, which the memoised hashes cover (padding is left out)."""
_TENSOR_COMPARED = attrgetter(*_TENSOR_FIELDS)
_OP_COMPARED = attrgetter(*_OP_FIELDS)
"""Each a tuple of those fields' values, read in one call (hashing derived descriptions is hot)."""

__all__ = [
    "ACTIVATIONS", "derived", "ELEMENTWISE_OPS", "Kernel", "LUT_ACTIVATIONS", "MEMORY_AREAS", "NpuOpDesc", "OpKind",
    "RELU_ACTIVATIONS", "Resampling", "SHRAM", "TensorDesc", "TensorFormat", "WeightsDesc",
]
