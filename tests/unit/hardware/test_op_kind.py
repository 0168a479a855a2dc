"""hardware/op_kind.py: what an op's kind says of it, which the interpreters and passes ask
instead of its name."""
from __future__ import annotations

from npu_opt.hardware.accelerators import BlockType
from npu_opt.hardware.op_kind import OpKind


def test_windowed_kinds_are_those_a_kernel_slides_over() -> None:
    assert {k for k in OpKind if k.is_windowed} == {
        OpKind.CONV2D, OpKind.DEPTHWISE_CONV2D, OpKind.TRANSPOSE_CONV2D, OpKind.AVG_POOL, OpKind.MAX_POOL}


def test_kinds_with_weights_are_the_mac_operations() -> None:
    assert {k for k in OpKind if k.has_weights} == {
        OpKind.CONV2D, OpKind.DEPTHWISE_CONV2D, OpKind.TRANSPOSE_CONV2D, OpKind.VECTOR_PRODUCT}
    assert all(k.block_type in (BlockType.CONVOLUTION, BlockType.DEPTHWISE, BlockType.VECTOR_PRODUCT)
               for k in OpKind if k.has_weights)
