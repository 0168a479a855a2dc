"""Interfaces of the npu ops: what passes and the cost model ask an op instead of its name.

``CostedOp`` marks an op the NPU executes and says which hardware operation it is (``OpKind``,
hence its block type) and, for elementwise ops, which operator. Views carry ``MemoryOnly`` and
are not costed; ``npu.dma`` carries ``MemoryEffects`` (a transfer reads and writes memory).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from npu_opt.hardware.accelerators import BlockType
from npu_opt.hardware.op_kind import ELEMENTWISE_OPS, OpKind
from npu_opt.ir.traits import Trait

if TYPE_CHECKING:
    from npu_opt.ir.core import Operation


class CostedOp(Trait):
    """An op the NPU executes and the cost model charges: its ``kind`` of hardware operation
    (and so its ``block_type``), and its ``elementwise`` operator ('add', 'abs', ...) if any."""

    def __init__(self, kind: OpKind, elementwise: str = "") -> None:
        if kind.is_elementwise and elementwise not in ELEMENTWISE_OPS:
            raise TypeError(f"a costed {kind.value} op must name its elementwise operator, one of "
                            f"{', '.join(ELEMENTWISE_OPS)}; not {elementwise!r}")
        if not kind.is_elementwise and elementwise:
            raise TypeError(f"a costed {kind.value} op has no elementwise operator, not {elementwise!r}")
        self.kind = kind
        self.elementwise = elementwise

    @property
    def block_type(self) -> BlockType | None:
        return self.kind.block_type

    def __repr__(self) -> str:
        parts = [self.kind.value] + ([self.elementwise] if self.elementwise else [])
        block = self.block_type.value if self.block_type is not None else "none"
        return f"CostedOp({', '.join(parts)}; block type {block})"


def costed(op: "Operation") -> CostedOp | None:
    """The ``CostedOp`` interface of ``op``, or None for ops the NPU does not execute."""
    return op.trait(CostedOp)  # type: ignore[no-any-return]


__all__ = ["CostedOp", "costed"]
