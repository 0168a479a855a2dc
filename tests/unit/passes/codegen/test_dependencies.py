"""BLOCKDEP and waits (passes/codegen/dependencies.py) on hand-built ethosu ops, against values
Vela 5.2's calc_blockdep gives for the same registers (mobilenet_v2_035_96, config A: a
depthwise reading channels 0-31 of the tensor whose channels 112-143 the conv before it wrote)."""
from __future__ import annotations

import npu_opt.dialects  # noqa: F401  (registers the dialects)
from npu_opt.dialects.ethosu.attrs import (
    ActivationAttr, BlockAttr, FeatureMapAttr, KernelAttr, MemAttr, StreamAttr,
)
from npu_opt.dialects.ethosu.ops_block import ConvOp, DepthwiseOp
from npu_opt.dialects.ethosu.ops_stream import DmaOp
from npu_opt.hardware.accelerators import accelerator
from npu_opt.passes.codegen.dependencies import MAX_BLOCKDEP, blockdep, waits

U55 = accelerator("ethos-u55-128")


def fm(base: int, depth: int, ofm: bool = False) -> FeatureMapAttr:
    shape = {"height": 6, "width": 6} if ofm else {}
    return FeatureMapAttr.build(dtype="int8", layout="NHCWB16", region=1, bases=[base, 0, 0, 0], tiles=[6, 6, 6],
                                strides=[16, 864, 96], depth=depth, zero_point=0, **shape)


def op(cls: type, ifm: FeatureMapAttr, ofm: FeatureMapAttr, kernel: int, block: tuple[int, int, int]):
    stream = StreamAttr.build(region=1, base=0, length=16)
    return cls.build(attrs={
        "ifm": ifm, "ofm": ofm, "activation": ActivationAttr.build(function="none", min=-128, max=127),
        "block": BlockAttr.build(size=block, ib_end=6, ab_start=14), "rounding": "tfl", "upscale": "none",
        "blockdep": 0, "kernel": KernelAttr.build(size=(kernel, kernel), padding=[kernel // 2] * 4),
        "weights": stream, "scales": stream})


def test_a_depth_window_of_the_written_tensor_compares_by_bytes():
    conv = op(ConvOp, fm(1152, 24), fm(2976, 32, ofm=True), 1, (6, 6, 48))
    depthwise = op(DepthwiseOp, fm(2304, 32), fm(7488, 32, ofm=True), 3, (6, 6, 16))
    assert blockdep(conv, depthwise, ((6, 6, 32), None), U55) == MAX_BLOCKDEP  # Vela: 3
    assert blockdep(None, depthwise, ((6, 6, 32), None), U55) == 0


def test_reading_the_window_just_written_waits_for_its_blocks():
    conv = op(ConvOp, fm(1152, 24), fm(2976, 32, ofm=True), 1, (6, 6, 48))
    reader = op(DepthwiseOp, fm(2976, 32), fm(7488, 32, ofm=True), 3, (6, 6, 16))
    assert blockdep(conv, reader, ((6, 6, 32), None), U55) == 0  # Vela: 0 (its first job needs the only block)


def test_a_dma_over_bytes_an_operation_reads_waits_for_it():
    conv = op(ConvOp, fm(1152, 24), fm(2976, 32, ofm=True), 1, (6, 6, 48))
    dma = DmaOp.build(attrs={"src": MemAttr.build(region=0, address=0),
                             "dst": MemAttr.build(region=1, address=1152), "length": 64})
    found = waits([conv, dma], {conv: ((6, 6, 24), None)}, U55)
    assert found == [(None, None), (0, None)]  # the DMA waits until no NPU operation is left running
