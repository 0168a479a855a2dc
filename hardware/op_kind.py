"""``OpKind``: the hardware operation the cost model charges, with the NPU block type it runs as.

Kept apart from the performance model so that the npu ops can declare their kind (the
``CostedOp`` interface, dialects/npu/interfaces.py) without importing the model.
"""
from __future__ import annotations

import enum

from npu_opt.hardware.accelerators import BlockType


class OpKind(str, enum.Enum):
    """The hardware operation (Vela's op type, reduced to what changes the cost). Each member
    carries its block type; ``OpKind("conv2d")`` looks a kind up by its name."""

    def __new__(cls, value: str, block_type: BlockType | None) -> "OpKind":
        member = str.__new__(cls, value)
        member._value_ = value
        member._block_type = block_type  # type: ignore[attr-defined]
        return member

    CONV2D = ("conv2d", BlockType.CONVOLUTION)
    DEPTHWISE_CONV2D = ("depthwise_conv2d", BlockType.DEPTHWISE)
    TRANSPOSE_CONV2D = ("transpose_conv2d", BlockType.CONVOLUTION)
    AVG_POOL = ("avg_pool", BlockType.POOLING)
    MAX_POOL = ("max_pool", BlockType.POOLING)
    REDUCE_SUM = ("reduce_sum", BlockType.REDUCE_SUM)
    VECTOR_PRODUCT = ("vector_product", BlockType.VECTOR_PRODUCT)
    """A fully connected layer."""
    ELEMENTWISE_BINARY = ("elementwise_binary", BlockType.ELEMENTWISE)
    ELEMENTWISE_UNARY = ("elementwise_unary", BlockType.ELEMENTWISE)
    LUT = ("lut", BlockType.POOLING)
    """A table-lookup activation on its own: a 1x1 pooling pass that applies the LUT."""
    DMA = ("dma", None)
    """A memory-to-memory copy (Vela's Memcpy): no NPU compute, so no block type."""

    @property
    def block_type(self) -> BlockType | None:
        """The NPU block type (None for DMA)."""
        return self._block_type  # type: ignore[attr-defined,no-any-return]

    @property
    def is_convolution(self) -> bool:
        """Conv or depthwise conv: the ops that fetch weights per block in the block-config cost."""
        return self.block_type in (BlockType.CONVOLUTION, BlockType.DEPTHWISE)

    @property
    def is_elementwise(self) -> bool:
        return self.block_type is BlockType.ELEMENTWISE

    @property
    def is_windowed(self) -> bool:
        """A kernel slides over the IFM: an OFM row reads a window of IFM rows."""
        return self in (OpKind.CONV2D, OpKind.DEPTHWISE_CONV2D, OpKind.TRANSPOSE_CONV2D, OpKind.AVG_POOL,
                        OpKind.MAX_POOL)

    @property
    def has_weights(self) -> bool:
        """The MAC operations that multiply by a weight tensor."""
        return self in (OpKind.CONV2D, OpKind.DEPTHWISE_CONV2D, OpKind.TRANSPOSE_CONV2D, OpKind.VECTOR_PRODUCT)


ELEMENTWISE_OPS: tuple[str, ...] = (
    "add", "sub", "mul", "min", "max", "shl", "shr", "squared_difference",  # binary
    "abs", "clz", "leaky_relu", "rsqrt", "exp", "not",  # unary
)
"""Elementwise operators an elementwise kind may name; add/sub and mul have their own
output-cycle costs."""

__all__ = ["ELEMENTWISE_OPS", "OpKind"]
