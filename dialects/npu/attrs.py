"""Attributes of the npu ops: feature-map encodings, kernels, activations, rescales, offsets.

Each is an interned attribute with a textual form that parses and prints canonically:

- ``#npu.fm<NHCWB16>`` / ``#npu.fm<NHWC, Sram>`` (``FmAttr``): the format and memory area of a
  feature map, used as the *encoding of its tensor type* (``tensor<1x8x8x16xi8, #npu.fm<...>>``).
  A tensor without encoding is NHWC in the area its kind of tensor lives in by default (feature
  maps in the arena, constants in permanent storage), so legalisation leaves types plain and the
  formatting and placement passes add an encoding only where they deviate. One value has one
  format and area for its producer and every consumer, which is why it lives on the type.
- ``#npu.kernel<3x3, stride = 2x2, dilation = 1x1, padding = [0, 1, 1, 1]>`` (``KernelAttr``):
  kernel height x width, strides, dilation and the explicit hardware padding in Vela's order
  (top, left, bottom, right).
- ``#npu.act<relu6, min = -128, max = 127>`` (``ActivationAttr``): the fused activation function
  and its clamp range in quantised OFM units, as the NPU's ACTIVATION_MIN/MAX registers take it.
- ``#npu.rescale<multiplier = 1, shift = 0>`` (``RescaleAttr``): an explicit output rescale
  (Vela's ``ExplicitScaling``) where it does not follow from the operand and result types.
- ``#npu.offset<0, 0, 0, 16>`` (``OffsetAttr``): a 4-D NHWC element offset (slice reads and
  concatenation writes).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator

from npu_opt.hardware.accelerators import ActivationCycleCase
from npu_opt.hardware.vela_config import MEMORY_AREAS
from npu_opt.ir.strings import INT64_MAX, brief_number
from npu_opt.ir.type_parser import AttributeSyntaxError, split_top_level
from npu_opt.ir.attributes import Attribute

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


def _split_top(body: str) -> list[str]:
    """Split ``body`` at commas outside brackets and strings (none for an empty body)."""
    parts = [part.strip() for part in split_top_level(body)]
    return [] if parts == [""] else parts


def _items(body: str | None, what: str) -> Iterator[tuple[str | None, str]]:
    """(key, value) pairs of a body: ``key = value`` entries, or bare values (key None)."""
    if body is None:
        raise AttributeSyntaxError(f"#npu.{what} needs a body")
    for part in _split_top(body):
        if not part:
            raise AttributeSyntaxError(f"#npu.{what}: empty entry in '{body}'")
        key, eq, value = part.partition("=")
        if eq:
            yield key.strip(), value.strip()
        else:
            yield None, part


def _int(text: str, what: str) -> int:
    """An integer of a body (decimal or 0x hex), at most 64 bits wide."""
    try:
        value = int(text, 0) if len(text) <= 24 else None
    except ValueError:
        raise AttributeSyntaxError(f"#npu.{what}: expected an integer, found '{text[:40]}'") from None
    if value is None or not -INT64_MAX - 1 <= value <= INT64_MAX:
        raise AttributeSyntaxError(f"#npu.{what}: integer {brief_number(text)} does not fit in 64 bits")
    return value


def _pair(text: str, what: str) -> tuple[int, int]:
    """``HxW`` as (h, w)."""
    match = re.fullmatch(r"\s*(\d+)\s*x\s*(\d+)\s*", text)
    if match is None:
        raise AttributeSyntaxError(f"#npu.{what}: expected HxW, found '{text[:40]}'")
    return _int(match.group(1), what), _int(match.group(2), what)


def _int_list(text: str, what: str) -> tuple[int, ...]:
    """``[a, b, ...]`` (or a bare comma list) as ints."""
    inner = text.strip()
    if inner.startswith("[") and inner.endswith("]"):
        inner = inner[1:-1]
    return tuple(_int(part.strip(), what) for part in inner.split(",") if part.strip())


def _build(cls: type[Attribute], *args: object) -> Attribute:
    """``cls(*args)`` for a parser: the constructor's own checks become syntax errors."""
    try:
        return cls(*args)
    except ValueError as err:
        raise AttributeSyntaxError(str(err)) from None


# ---------------------------------------------------------------------------------------------
class FmAttr(Attribute):
    """``#npu.fm<FORMAT[, AREA]>``: a feature map's layout and, when not the default, its memory.

    ``area`` None means the default area of the tensor's kind (see the module docstring)."""

    __slots__ = ("format", "area")
    format: str
    area: str | None

    def _init(self, format: str, area: str | None = None) -> None:
        if format not in FORMATS:
            raise ValueError(f"#npu.fm: unknown format '{format}' (expected {' or '.join(FORMATS)})")
        if area is not None and area not in MEMORY_AREAS:
            raise ValueError(f"#npu.fm: unknown memory area '{area}' (expected one of {', '.join(MEMORY_AREAS)})")
        self._set("format", format)
        self._set("area", area)

    @classmethod
    def _key(cls, args: tuple) -> tuple:
        return (args[0], args[1] if len(args) > 1 else None)

    def _render(self) -> str:
        return f"#npu.fm<{self.format}{'' if self.area is None else ', ' + self.area}>"

    @staticmethod
    def parse(body: str | None) -> "FmAttr":
        values = [value for _, value in _items(body, "fm")]
        if not 1 <= len(values) <= 2:
            raise AttributeSyntaxError("#npu.fm takes a format and an optional memory area")
        return _build(FmAttr, values[0], values[1] if len(values) > 1 else None)  # type: ignore[return-value]


# ---------------------------------------------------------------------------------------------
class KernelAttr(Attribute):
    """``#npu.kernel<HxW, stride = HxW, dilation = HxW, padding = [top, left, bottom, right]>``.

    ``stride``, ``dilation`` and ``padding`` may be left out when 1x1, 1x1 and zero; they are
    always printed. ``dilated_height``/``dilated_width`` are the extent the kernel covers."""

    __slots__ = ("height", "width", "stride_h", "stride_w", "dilation_h", "dilation_w", "padding")
    height: int
    width: int
    stride_h: int
    stride_w: int
    dilation_h: int
    dilation_w: int
    padding: tuple[int, int, int, int]

    def _init(self, height: int, width: int, stride_h: int = 1, stride_w: int = 1, dilation_h: int = 1,
              dilation_w: int = 1, padding: tuple[int, int, int, int] = (0, 0, 0, 0)) -> None:
        for name, value in (("height", height), ("width", width), ("stride", stride_h), ("stride", stride_w),
                            ("dilation", dilation_h), ("dilation", dilation_w)):
            if value < 1:
                raise ValueError(f"#npu.kernel: {name} must be at least 1, not {value}")
        if len(padding) != 4 or any(p < 0 for p in padding):
            raise ValueError(f"#npu.kernel: padding must be four non-negative values, not {list(padding)}")
        for name, value in (("height", height), ("width", width), ("stride_h", stride_h), ("stride_w", stride_w),
                            ("dilation_h", dilation_h), ("dilation_w", dilation_w)):
            self._set(name, int(value))
        self._set("padding", tuple(int(p) for p in padding))

    @classmethod
    def _key(cls, args: tuple) -> tuple:
        defaults = (None, None, 1, 1, 1, 1, (0, 0, 0, 0))
        full = tuple(args) + defaults[len(args):]
        return full[:6] + (tuple(full[6]),)

    @classmethod
    def get(cls, size: tuple[int, int], stride: tuple[int, int] = (1, 1), dilation: tuple[int, int] = (1, 1),
            padding: tuple[int, int, int, int] = (0, 0, 0, 0)) -> "KernelAttr":
        """Keyword-friendly constructor; every pair is (h, w)."""
        return cls(size[0], size[1], stride[0], stride[1], dilation[0], dilation[1], tuple(padding))

    @property
    def size(self) -> tuple[int, int]:
        return self.height, self.width

    @property
    def stride(self) -> tuple[int, int]:
        return self.stride_h, self.stride_w

    @property
    def dilation(self) -> tuple[int, int]:
        return self.dilation_h, self.dilation_w

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

    def _render(self) -> str:
        pad = ", ".join(str(p) for p in self.padding)
        return (f"#npu.kernel<{self.height}x{self.width}, stride = {self.stride_h}x{self.stride_w}, "
                f"dilation = {self.dilation_h}x{self.dilation_w}, padding = [{pad}]>")

    @staticmethod
    def parse(body: str | None) -> "KernelAttr":
        size: tuple[int, int] | None = None
        fields: dict[str, object] = {}
        for key, value in _items(body, "kernel"):
            if key is None:
                if size is not None:
                    raise AttributeSyntaxError("#npu.kernel: the size is given twice")
                size = _pair(value, "kernel")
            elif key in ("stride", "dilation"):
                fields[key] = _pair(value, "kernel")
            elif key == "padding":
                pads = _int_list(value, "kernel")
                if len(pads) != 4:
                    raise AttributeSyntaxError("#npu.kernel: padding takes four values [top, left, bottom, right]")
                fields[key] = pads
            else:
                raise AttributeSyntaxError(f"#npu.kernel: unknown key '{key}' (expected stride, dilation or padding)")
        if size is None:
            raise AttributeSyntaxError("#npu.kernel: expected the kernel size HxW first")
        stride, dilation = fields.get("stride", (1, 1)), fields.get("dilation", (1, 1))
        try:
            return KernelAttr.get(size, stride, dilation, fields.get("padding", (0, 0, 0, 0)))  # type: ignore[arg-type]
        except ValueError as err:
            raise AttributeSyntaxError(str(err)) from None


# ---------------------------------------------------------------------------------------------
class ActivationAttr(Attribute):
    """``#npu.act<KIND, min = LO, max = HI>``: the fused activation and its quantised clamp range.

    ``min``/``max`` are in OFM units after quantisation (for ``relu`` on an OFM with zero point
    -128 the minimum is -128), already limited to the OFM type and to int16 as the NPU does."""

    __slots__ = ("kind", "min", "max")
    kind: str
    min: int
    max: int

    def _init(self, kind: str, min: int, max: int) -> None:
        if kind not in ACTIVATIONS:
            raise ValueError(f"#npu.act: unknown activation '{kind}' (expected one of {', '.join(ACTIVATIONS)})")
        if min > max:
            raise ValueError(f"#npu.act: min {min} is greater than max {max}")
        self._set("kind", kind)
        self._set("min", int(min))
        self._set("max", int(max))

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

    def _render(self) -> str:
        return f"#npu.act<{self.kind}, min = {self.min}, max = {self.max}>"

    @staticmethod
    def parse(body: str | None) -> "ActivationAttr":
        kind: str | None = None
        bounds: dict[str, int] = {}
        for key, value in _items(body, "act"):
            if key is None:
                if kind is not None:
                    raise AttributeSyntaxError("#npu.act: the activation kind is given twice")
                kind = value
            elif key in ("min", "max"):
                bounds[key] = _int(value, "act")
            else:
                raise AttributeSyntaxError(f"#npu.act: unknown key '{key}' (expected min or max)")
        if kind is None or set(bounds) != {"min", "max"}:
            raise AttributeSyntaxError("#npu.act takes a kind, min = ... and max = ...")
        return _build(ActivationAttr, kind, bounds["min"], bounds["max"])  # type: ignore[return-value]


# ---------------------------------------------------------------------------------------------
class RescaleAttr(Attribute):
    """``#npu.rescale<multiplier = M, shift = S>``: output = round(acc * M / 2^S) (Vela's
    ``ExplicitScaling`` with one multiplier and shift)."""

    __slots__ = ("multiplier", "shift")
    multiplier: int
    shift: int

    def _init(self, multiplier: int, shift: int) -> None:
        if not -(1 << 31) <= multiplier < (1 << 32):
            raise ValueError(f"#npu.rescale: multiplier {multiplier} does not fit in 32 bits")
        if not -64 <= shift <= 63:
            raise ValueError(f"#npu.rescale: shift {shift} is out of range")
        self._set("multiplier", int(multiplier))
        self._set("shift", int(shift))

    def _render(self) -> str:
        return f"#npu.rescale<multiplier = {self.multiplier}, shift = {self.shift}>"

    @staticmethod
    def parse(body: str | None) -> "RescaleAttr":
        values: dict[str, int] = {}
        for key, value in _items(body, "rescale"):
            if key not in ("multiplier", "shift"):
                raise AttributeSyntaxError("#npu.rescale takes multiplier = ... and shift = ...")
            values[key] = _int(value, "rescale")
        if set(values) != {"multiplier", "shift"}:
            raise AttributeSyntaxError("#npu.rescale takes multiplier = ... and shift = ...")
        return _build(RescaleAttr, values["multiplier"], values["shift"])  # type: ignore[return-value]


# ---------------------------------------------------------------------------------------------
class OffsetAttr(Attribute):
    """``#npu.offset<n, h, w, c>``: an element offset into a 4-D NHWC tensor."""

    __slots__ = ("values",)
    values: tuple[int, ...]

    def _init(self, values: tuple[int, ...]) -> None:
        if any(v < 0 for v in values):
            raise ValueError(f"#npu.offset: offsets must not be negative, not {list(values)}")
        self._set("values", tuple(int(v) for v in values))

    @classmethod
    def _key(cls, args: tuple) -> tuple:
        return (tuple(args[0]),)

    def __iter__(self) -> Iterator[int]:
        return iter(self.values)

    def __len__(self) -> int:
        return len(self.values)

    def __getitem__(self, index: int) -> int:
        return self.values[index]

    def _render(self) -> str:
        return "#npu.offset<" + ", ".join(str(v) for v in self.values) + ">"

    @staticmethod
    def parse(body: str | None) -> "OffsetAttr":
        if body is None:
            raise AttributeSyntaxError("#npu.offset needs a body")
        return _build(OffsetAttr, _int_list(body, "offset"))  # type: ignore[return-value]


PARSERS = {"fm": FmAttr.parse, "kernel": KernelAttr.parse, "act": ActivationAttr.parse,
           "rescale": RescaleAttr.parse, "offset": OffsetAttr.parse}
"""Attribute name -> parser of its body, registered on the npu dialect."""


@dataclass(frozen=True)
class FeatureMap:
    """A value's resolved layout and memory area (see ``dialects.npu.ops_common.feature_map``)."""

    format: str
    area: str

    @property
    def is_nhcwb16(self) -> bool:
        return self.format == "NHCWB16"


__all__ = ["ACTIVATIONS", "ActivationAttr", "FORMATS", "FeatureMap", "FmAttr", "KernelAttr", "OffsetAttr",
           "PARSERS", "ROUNDINGS", "RescaleAttr"]
