"""The read-only data of a module laid out by npu-flash-layout: each weighted op's encoded buffer
and each constant's values at their ``npu.flash`` offsets, zeros elsewhere (the ranges Vela
reserves for bias tensors and writes nothing into); the tensor an ``ethos-u`` operator reads from
region 0 (docs/codegen_design.md, The read-only data)."""
from __future__ import annotations

import numpy as np

from npu_opt.dialects.npu.ops_common import element_bits, storage_of
from npu_opt.dialects.npu.schedule_attrs import FLASH_ATTR, FlashAttr
from npu_opt.dialects.tfl.shapes import constant_array
from npu_opt.hardware.perf.shape import round_up
from npu_opt.hardware.target import Target
from npu_opt.ir.analysis import AnalysisManager
from npu_opt.ir.core import Operation
from npu_opt.ir.traits import ConstantLike
from npu_opt.passes.codegen.weight_bytes import LoweringError, WeightBuffers

ALIGNMENT = 16


def constant_bytes(op: Operation) -> bytes:
    """A constant's values in their storage type, little-endian."""
    value = op.results[0]
    storage = storage_of(value.type)
    kind = "u" if storage is not None and getattr(storage, "is_unsigned", False) else "i"
    array = constant_array(value)
    if array is None:
        raise LoweringError(op, "a constant in the read-only data has no values")
    return np.ascontiguousarray(array).astype(f"<{kind}{element_bits(value) // 8}").tobytes()


def read_only_data(module: Operation, target: Target, buffers: WeightBuffers | None = None) -> bytes:
    """The bytes of the read-only data: every ``npu.flash`` range filled, its length the end of
    the last range rounded up to 16 bytes (weight buffers from ``buffers`` when given)."""
    buffers = buffers if buffers is not None else WeightBuffers(module, AnalysisManager())
    pieces: list[tuple[int, bytes]] = []
    for op in module.walk():
        flash = op.attr(FLASH_ATTR)
        if not isinstance(flash, FlashAttr):
            continue
        if op.has_trait(ConstantLike):
            data = constant_bytes(op)
        else:
            buffer = buffers.of(op, target)
            if buffer is None:
                raise LoweringError(op, "npu.flash on an op without weights")
            data = buffer.data
        if len(data) != flash.size:
            raise LoweringError(op, f"npu.flash says {flash.size} bytes, its data has {len(data)}")
        pieces.append((flash.offset, data))
    end = max((offset + len(data) for offset, data in pieces), default=0)
    image = bytearray(round_up(end, ALIGNMENT))
    for offset, data in pieces:
        image[offset:offset + len(data)] = data
    return bytes(image)


__all__ = ["constant_bytes", "read_only_data"]
