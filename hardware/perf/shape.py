"""A 4-D NHWC extent for the cost model: feature-map shapes, OFM stripes and blocks.

The cost model does a lot of per-axis arithmetic (clip to a block, round up to a micro-block,
count blocks), always on batch x height x width x depth. ``Shape4`` is an immutable, hashable
value so that op descriptions built from it can key ``functools.lru_cache``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Sequence


def round_up(value: int, multiple: int) -> int:
    """``value`` rounded up to a multiple of ``multiple``."""
    return ((value + multiple - 1) // multiple) * multiple


def round_down(value: int, multiple: int) -> int:
    """``value`` rounded down to a multiple of ``multiple``."""
    return (value // multiple) * multiple


def div_up(value: int, divisor: int) -> int:
    """Integer division rounding up (how many ``divisor``-sized pieces cover ``value``)."""
    return (value + divisor - 1) // divisor


@dataclass(frozen=True)
class Shape4:
    """Batch x height x width x depth (NHWC order)."""

    batch: int
    height: int
    width: int
    depth: int

    @classmethod
    def of(cls, dims: Sequence[int]) -> "Shape4":
        """A shape from 0 to 4 dims, padded with leading 1s (TFLite's ``[1, 12]`` is 1x1x1x12)."""
        dims = [int(d) for d in dims]
        if len(dims) > 4:
            raise ValueError(f"shape {dims} has more than 4 dimensions")
        return cls(*([1] * (4 - len(dims)) + dims))

    @classmethod
    def hwc(cls, height: int, width: int, depth: int) -> "Shape4":
        return cls(1, height, width, depth)

    def __iter__(self) -> Iterator[int]:
        return iter((self.batch, self.height, self.width, self.depth))

    def __str__(self) -> str:
        return f"{self.batch}x{self.height}x{self.width}x{self.depth}"

    # -- element counts --------------------------------------------------------------------
    def elements(self) -> int:
        return self.batch * self.height * self.width * self.depth

    def elements_wh(self) -> int:
        return self.height * self.width

    # -- per-axis arithmetic ---------------------------------------------------------------
    def min(self, other: "Shape4") -> "Shape4":
        """Per-axis minimum: the part of a block that lies inside this shape."""
        return Shape4(min(self.batch, other.batch), min(self.height, other.height),
                      min(self.width, other.width), min(self.depth, other.depth))

    def round_up(self, quantum: "Shape4") -> "Shape4":
        """Each axis rounded up to a multiple of ``quantum``'s."""
        return Shape4(round_up(self.batch, quantum.batch), round_up(self.height, quantum.height),
                      round_up(self.width, quantum.width), round_up(self.depth, quantum.depth))

    def div_round_up(self, block: "Shape4") -> "Shape4":
        """How many ``block``s cover this shape, per axis."""
        return Shape4(div_up(self.batch, block.batch), div_up(self.height, block.height),
                      div_up(self.width, block.width), div_up(self.depth, block.depth))

    def ratio(self, block: "Shape4") -> tuple[float, float, float, float]:
        """This shape divided by ``block`` per axis, as fractions (Vela's ``Shape4D / Shape4D``)."""
        return (self.batch / block.batch, self.height / block.height, self.width / block.width,
                self.depth / block.depth)

    def with_height(self, height: int) -> "Shape4":
        return Shape4(self.batch, height, self.width, self.depth)

    def with_width(self, width: int) -> "Shape4":
        return Shape4(self.batch, self.height, width, self.depth)

    def with_depth(self, depth: int) -> "Shape4":
        return Shape4(self.batch, self.height, self.width, depth)

    def with_hw(self, height: int, width: int) -> "Shape4":
        return Shape4(self.batch, height, width, self.depth)


__all__ = ["Shape4", "div_up", "round_down", "round_up"]
