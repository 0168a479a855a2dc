"""Attributes of the npu ops, declared (ir/attrdef.py): feature-map encodings, kernels, activations,
rescales and offsets; ``npu-opt --dialect-docs`` shows their syntax.

A tensor without ``#npu.fm`` encoding is NHWC in the default area of its kind (feature maps in
the arena, constants in permanent storage); one value has one format and area for its producer
and every consumer, which is why they live on its type.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from npu_opt.hardware.accelerators import ActivationCycleCase
from npu_opt.hardware.vela_config import MEMORY_AREAS
from npu_opt.ir.attr_params import Dims, Int, List, Word
from npu_opt.ir.attrdef import BODY, POSITIONAL, AttrDef, Param

FORMATS: tuple[str, ...] = ("NHWC", "NHCWB16")
"""Feature-map layouts of the NPU: linear NHWC, and NHCWB16 (bricks of 16 channels)."""

ACTIVATIONS: tuple[str, ...] = ("none", "relu", "relu6", "relu_n1_to_1", "relu_0_to_1", "clip", "tanh",
                                "sigmoid", "lut")
"""Fused activation kinds. ``tanh``/``sigmoid`` are the NPU's built-in functions (TFLite's fused
TANH, and stand-alone 16-bit tanh/logistic); stand-alone 8-bit tanh and logistic and the other
table functions are ``lut`` with a table operand. ``clip`` clamps to min/max only."""

ROUNDINGS: tuple[str, ...] = ("tflite", "to_zero", "half_up", "away_zero")
"""Rounding modes of the output rescale (Vela's ``RoundingMode``); ``tflite`` is the default."""

_RELU_FAMILY = ("relu", "relu6", "relu_n1_to_1", "relu_0_to_1")
PAIR = Dims(2, "HxW")


class FmAttr(AttrDef):
    """A feature map's layout and, when not the default of its kind of tensor, its memory area:
    the encoding of its tensor type."""

    NAME = "npu.fm"
    format = Param(Word(FORMATS), POSITIONAL, doc="the layout")
    area = Param(Word(MEMORY_AREAS, "memory area"), POSITIONAL, default=None, doc="the memory area (none: the default)")


class KernelAttr(AttrDef):
    """A kernel's height x width, strides, dilation and explicit hardware padding (top, left,
    bottom, right, Vela's order)."""

    NAME = "npu.kernel"
    size = Param(PAIR, POSITIONAL, doc="height x width")
    stride = Param(PAIR, default=(1, 1), print_default=True, doc="the strides")
    dilation = Param(PAIR, default=(1, 1), print_default=True, doc="the dilation")
    padding = Param(List(Int(0), 4), default=(0, 0, 0, 0), print_default=True, doc="[top, left, bottom, right]")

    @classmethod
    def get(cls, size: tuple[int, int], stride: tuple[int, int] = (1, 1), dilation: tuple[int, int] = (1, 1),
            padding: tuple[int, int, int, int] = (0, 0, 0, 0)) -> "KernelAttr":
        """The kernel of these (h, w) pairs and padding."""
        return cls(size, stride, dilation, padding)

    @property
    def height(self) -> int:
        return self.size[0]

    @property
    def width(self) -> int:
        return self.size[1]

    @property
    def stride_h(self) -> int:
        return self.stride[0]

    @property
    def stride_w(self) -> int:
        return self.stride[1]

    @property
    def dilation_h(self) -> int:
        return self.dilation[0]

    @property
    def dilation_w(self) -> int:
        return self.dilation[1]

    @property
    def dilated_height(self) -> int:
        return (self.height - 1) * self.dilation_h + 1

    @property
    def dilated_width(self) -> int:
        return (self.width - 1) * self.dilation_w + 1

    @property
    def elements(self) -> int:
        """Kernel elements (height x width), as Vela's ``Kernel.elements_wh``."""
        return self.height * self.width

    @property
    def pad_top(self) -> int:
        return self.padding[0]

    @property
    def pad_left(self) -> int:
        return self.padding[1]

    @property
    def pad_bottom(self) -> int:
        return self.padding[2]

    @property
    def pad_right(self) -> int:
        return self.padding[3]

    def output_size(self, ifm_h: int, ifm_w: int) -> tuple[int, int]:
        """OFM height and width for an IFM of ``ifm_h`` x ``ifm_w`` with this kernel's padding."""
        top, left, bottom, right = self.padding
        out_h = (ifm_h + top + bottom - self.dilated_height) // self.stride_h + 1
        out_w = (ifm_w + left + right - self.dilated_width) // self.stride_w + 1
        return out_h, out_w


class ActivationAttr(AttrDef):
    """The fused activation and its clamp range in quantised OFM units, already limited to the
    OFM type and to int16 as the NPU's ACTIVATION_MIN/MAX registers take it."""

    NAME = "npu.act"
    kind = Param(Word(ACTIVATIONS, "activation"), POSITIONAL, doc="the activation function")
    min = Param(Int(), doc="the clamp's lower end")
    max = Param(Int(), doc="the clamp's upper end")

    def verify(self) -> None:
        if self.min > self.max:
            raise ValueError(f"min {self.min} is greater than max {self.max}")

    @property
    def uses_lut(self) -> bool:
        """True for a table lookup (the op then has a ``lut`` operand)."""
        return self.kind == "lut"

    @property
    def cycle_case(self) -> ActivationCycleCase:
        """Which column of the activation cycle table applies (Vela: Sigmoid/Tanh/LUT, the ReLU
        family, anything else incl. clip)."""
        if self.kind in ("tanh", "sigmoid", "lut"):
            return ActivationCycleCase.LUT
        if self.kind in _RELU_FAMILY:
            return ActivationCycleCase.RELU
        return ActivationCycleCase.NONE


class RescaleAttr(AttrDef):
    """An explicit output rescale, output = round(acc * multiplier / 2^shift) (Vela's
    ``ExplicitScaling`` with one multiplier and shift)."""

    NAME = "npu.rescale"
    multiplier = Param(Int(-(1 << 31), (1 << 32) - 1), doc="a 32-bit multiplier")
    shift = Param(Int(-64, 63), doc="the right shift")


class OffsetAttr(AttrDef):
    """An element offset into a 4-D NHWC tensor (slice reads, concatenation writes)."""

    NAME = "npu.offset"
    values = Param(List(Int(0), brackets=False), BODY, doc="n, h, w, c")

    def __iter__(self) -> Iterator[int]:
        return iter(self.values)

    def __len__(self) -> int:
        return len(self.values)

    def __getitem__(self, index: int) -> int:
        return self.values[index]


ATTRIBUTES = (FmAttr, KernelAttr, ActivationAttr, RescaleAttr, OffsetAttr)
"""The op attributes, registered on the npu dialect."""


@dataclass(frozen=True)
class FeatureMap:
    """A value's resolved layout and memory area (see ``dialects.npu.ops_common.feature_map``)."""

    format: str
    area: str

    @property
    def is_nhcwb16(self) -> bool:
        return self.format == "NHCWB16"


__all__ = ["ACTIVATIONS", "ATTRIBUTES", "ActivationAttr", "FORMATS", "FeatureMap", "FmAttr", "KernelAttr",
           "OffsetAttr", "ROUNDINGS", "RescaleAttr"]
