"""Creating npu ops and constants in front of the tfl op being lowered, through the rewriter.

A ``Builder`` is made per lowered tfl op: everything it creates goes right before that op, with
the op's location, and is counted. ``finish`` replaces the tfl op's result with the lowered value
(viewing it in the result's shape when the npu ops produced a 4-D view) and erases the op.
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from npu_opt.dialects.npu.attrs import ActivationAttr, KernelAttr, RescaleAttr
from npu_opt.dialects.npu.ops_common import NpuComputeOp, NpuOp, activation_range, dtype_range
from npu_opt.dialects.npu.ops_memory import ReshapeOp
from npu_opt.dialects.npu.quant import activation_clamp, quantise_float32, scale_and_zero_point
from npu_opt.ir.attributes import DenseElementsAttr, StringAttr, TypeAttr
from npu_opt.ir.core import Operation, Value
from npu_opt.ir.pass_manager import PassContext
from npu_opt.ir.types import IntegerType, QuantUniformType, RankedTensorType, Type, element_type_of


def tensor(shape: Sequence[int], element: Type) -> RankedTensorType:
    return RankedTensorType(tuple(int(d) for d in shape), element)


def quant_type(storage: IntegerType, scale: float, zero_point: int = 0) -> QuantUniformType:
    """A per-tensor ``!quant.uniform`` over f32."""
    from npu_opt.ir.types import F32
    return QuantUniformType(storage, F32, [float(scale)], [int(zero_point)])


def storage(t: Type) -> IntegerType:
    elem = element_type_of(t)
    if isinstance(elem, QuantUniformType):
        return elem.storage_type
    assert isinstance(elem, IntegerType), f"'{t}' is not an integer tensor"
    return elem


class Builder:
    """Creates the ops that replace one tfl op."""

    def __init__(self, ctx: PassContext, anchor: Operation, name: str, target: Any) -> None:
        self.ctx = ctx
        self.anchor = anchor
        self.name = name
        self.target = target
        self.created: list[Operation] = []

    # -- generic creation ---------------------------------------------------------------------
    def insert(self, op: Operation) -> Operation:
        self.ctx.rewriter.insert_before(op, self.anchor)
        if isinstance(op, NpuOp):
            self.created.append(op)
        return op

    def npu(self, cls: type[NpuOp], operands: Sequence[Value], result: Type, name: str | None = None,
            **attrs: Any) -> Value:
        """Create an npu op with ``attrs`` (Python values or attributes) and return its result."""
        given = {k: v for k, v in attrs.items() if v is not None}
        given["name"] = StringAttr(self.name if name is None else name)
        op = cls.build(list(operands), [result], given, location=self.anchor.location)
        return self.insert(op).results[0]

    def const(self, values: np.ndarray | Sequence[int] | int, t: RankedTensorType) -> Value:
        """A constant tensor of type ``t`` (quantised element types become ``tfl.pseudo_qconst``)."""
        from npu_opt.dialects.tfl import ConstOp, QConstOp
        elem = element_type_of(t)
        array = np.asarray(values)
        if isinstance(elem, QuantUniformType):
            store = RankedTensorType(t.shape, elem.storage_type)
            data = DenseElementsAttr(store, _wrap(array, elem.storage_type).reshape(t.shape))
            op = QConstOp.build([], [t], {"qtype": TypeAttr(t), "value": data}, location=self.anchor.location)
        else:
            data = DenseElementsAttr(t, _wrap(array, elem).reshape(t.shape))  # type: ignore[arg-type]
            op = ConstOp.build([], [t], {"value": data}, location=self.anchor.location)
        return self.insert(op).results[0]

    def reshape(self, value: Value, shape: Sequence[int], name: str | None = None) -> Value:
        """``value`` viewed with ``shape`` (itself when it already has it)."""
        t = value.type
        assert isinstance(t, RankedTensorType)
        if tuple(t.shape) == tuple(shape):
            return value
        return self.npu(ReshapeOp, [value], tensor(shape, t.element_type), name)

    # -- attributes ----------------------------------------------------------------------------
    def activation(self, kind: str, ofm_type: Type, avgpool: bool = False, explicit: bool = False) -> ActivationAttr:
        """The ``#npu.act`` of ``kind`` on an OFM of ``ofm_type``, with Vela's quantised clamp."""
        if kind == "lut" and storage(ofm_type).width == 32:
            return ActivationAttr("lut", -128, 127)  # the NPU forces an 8-bit range for 32-bit tables
        q = element_type_of(ofm_type)
        lo, hi = activation_clamp(kind, q if isinstance(q, QuantUniformType) else None,
                                  dtype_range(ofm_type), avgpool_quirk=avgpool and not explicit)
        full = activation_range(ofm_type)
        return ActivationAttr(kind, max(lo, full[0]), min(hi, full[1]))

    def clip(self, lo: float, hi: float, ofm_type: Type) -> ActivationAttr:
        """A ``clip`` activation to the real range [lo, hi], quantised with the OFM's quantisation
        (scale 1 and zero point 0 for plain integers), within what the registers take."""
        q = element_type_of(ofm_type)
        scale, zp = scale_and_zero_point(q if isinstance(q, QuantUniformType) else None)
        full = activation_range(ofm_type)
        lo_q = min(max(quantise_float32(lo, scale, zp), full[0]), full[1])
        hi_q = min(max(quantise_float32(hi, scale, zp), lo_q), full[1])
        return ActivationAttr("clip", lo_q, hi_q)

    @staticmethod
    def rescale(multiplier: int, shift: int) -> RescaleAttr:
        return RescaleAttr(int(multiplier), int(shift))

    @staticmethod
    def kernel(size: tuple[int, int], stride: tuple[int, int] = (1, 1), dilation: tuple[int, int] = (1, 1),
               padding: Sequence[int] = (0, 0, 0, 0)) -> KernelAttr:
        return KernelAttr.get(size, stride, dilation, tuple(padding))  # type: ignore[arg-type]

    # -- finishing -----------------------------------------------------------------------------
    def finish(self, op: Operation, values: Sequence[Value]) -> None:
        """Replace ``op``'s results by ``values`` (viewed in each result's shape) and erase it."""
        final = []
        for result, value in zip(op.results, values):
            if value.type is not result.type:
                t = result.type
                assert isinstance(t, RankedTensorType)
                assert element_type_of(value.type) is t.element_type, (value.type, t)
                value = self.npu(ReshapeOp, [value], t)
            final.append(value)
        self.ctx.rewriter.replace_op(op, final)


def _wrap(array: np.ndarray, elem: Type) -> np.ndarray:
    """Integer values wrapped into the element type's two's complement range (LUT words)."""
    if isinstance(elem, IntegerType) and elem.width in (8, 16, 32, 64):
        bits = elem.width
        values = np.asarray(array, dtype=object if bits == 64 else np.int64)
        if elem.is_unsigned:
            return np.asarray(values, dtype=np.int64) % (1 << bits)
        wrapped = (np.asarray(values, dtype=np.int64) + (1 << (bits - 1))) % (1 << bits) - (1 << (bits - 1)) \
            if bits < 64 else np.asarray(values, dtype=np.int64)
        return wrapped
    return np.asarray(array)


__all__ = ["Builder", "NpuComputeOp", "quant_type", "storage", "tensor"]
