"""From npu dialect ops to cost-model descriptions (``describe_op``, ``op_weights_hwio``): the one
place the pure cost model meets the IR.

Design notes: docs/cost_model_design.md, section From IR to cost-model descriptions (ir_adapter)."""
from __future__ import annotations

from typing import Callable, Mapping

import numpy as np

from npu_opt.dialects.npu.interfaces import costed
from npu_opt.dialects.npu.ops_common import NpuComputeOp, element_bits, feature_map, is_constant, quant_of, shape_of
from npu_opt.dialects.npu.ops_elementwise import LutOp
from npu_opt.dialects.npu.ops_memory import ConcatOp, DmaOp, slice_root
from npu_opt.hardware.perf.op_desc import MEMORY_AREAS, Kernel, NpuOpDesc, derived, OpKind, Resampling, TensorDesc, TensorFormat, WeightsDesc
from npu_opt.hardware.perf.shape import Shape4
from npu_opt.dialects.npu.target_attr import target_of
from npu_opt.ir.analysis import Analysis, AnalysisManager
from npu_opt.ir.core import Operation, Value

Placement = Mapping[Value, str]
"""Memory area per value overriding the IR's."""


def is_costed(op: Operation) -> bool:
    """Ops the NPU executes (compute ops and DMA: the ``CostedOp`` interface); views are not."""
    return costed(op) is not None


def report_name(op: Operation) -> str:
    """The op's name in reports: its ``name`` attribute (Vela's name, the TFLite output tensor
    name), else its location's name."""
    attr = op.attr("name")
    if attr is not None and hasattr(attr, "value"):
        return str(attr.value)
    loc = op.location
    return str(getattr(loc, "name", "") or loc)


def _shape4(value: Value) -> Shape4:
    shape = shape_of(value)
    return Shape4.of(shape) if shape else Shape4(1, 1, 1, 1)


def _whole(value: Value) -> Shape4 | None:
    """The whole tensor ``value`` is a window of (through slices) or a part of (the result of
    the concatenation it is written into); None when it is a tensor of its own."""
    users = value.users()
    if len(users) == 1 and isinstance(users[0], ConcatOp):
        return _shape4(users[0].results[0])
    source = slice_root(value)
    return None if source is value else _shape4(source)


def _tensor(value: Value, target: object, placement: Placement | None) -> TensorDesc:
    fm = feature_map(value, target)
    area = placement.get(value, fm.area) if placement else fm.area
    return TensorDesc(_shape4(value), element_bits(value), TensorFormat(fm.format), area, _whole(value))


def _activation(op: Operation) -> str:
    if isinstance(op, NpuComputeOp):
        act = op.attr("activation")
        return getattr(act, "kind", "none") if act is not None else "none"
    return "none"


def _lut(op: Operation, target: object) -> tuple[int, str]:
    lut = op.lut_operand() if isinstance(op, NpuComputeOp) else None
    if lut is None:
        return 0, getattr(target, "permanent_storage_area", "OffChipFlash")
    count = 1
    for d in shape_of(lut):
        count *= d
    return count * element_bits(lut) // 8, feature_map(lut, target).area


def _kernel(op: Operation) -> Kernel:
    k = op.attr("kernel")
    if k is None:
        return Kernel()
    return Kernel(k.width, k.height, k.stride_w, k.stride_h, k.dilation_w, k.dilation_h)


def weights_source(op: Operation) -> Value | None:
    """The value whose contents are ``op``'s weights: its weights operand, or the constant a
    weight DMA (npu-insert-dma) copies into it; None for an op without weights."""
    weights = getattr(op, "weights", None)
    if weights is None or not isinstance(weights, Value):
        return None
    owner = getattr(weights, "op", None)
    return owner.operands[0] if isinstance(owner, DmaOp) else weights


def op_weights_hwio(op: Operation) -> np.ndarray | None:
    """The op's constant weights as Vela encodes them: H x W x I x O, zero point subtracted
    (depthwise: H x W x 1 x C; vector product: 1 x 1 x K x O; transpose convolution flipped);
    None when the op has no weights or their values are not available. Weights copied by a DMA
    are the DMA's source constant."""
    weights = weights_source(op)
    if weights is None:
        return None
    owner = getattr(weights, "op", None)
    attr = owner.attr("value") if owner is not None else None
    if attr is None:
        return None
    try:
        array = np.asarray(attr.array if hasattr(attr, "array") else attr.as_array()).astype(np.int16)
    except ValueError:  # elided data (dense_resource<__elided__>): sizes fall back to raw
        return None
    quant = quant_of(weights)
    zero = np.asarray(quant.zero_points if quant is not None else (0,), dtype=np.int16)
    interface = costed(op)
    kind = interface.kind if interface is not None else None
    if kind is OpKind.VECTOR_PRODUCT:  # [O, K]
        return (array - zero[:, None] if zero.size > 1 else array - zero[0]).T[None, None, :, :]
    if kind is OpKind.DEPTHWISE_CONV2D:  # 1HWC
        corrected = array - (zero.reshape(1, 1, 1, -1) if zero.size > 1 else zero[0])
        return np.transpose(corrected, (1, 2, 0, 3))
    corrected = array - (zero.reshape(-1, 1, 1, 1) if zero.size > 1 else zero[0])  # OHWI
    hwio = np.transpose(corrected, (1, 2, 3, 0))
    return hwio[::-1, ::-1] if kind is OpKind.TRANSPOSE_CONV2D else hwio


def _roles(op: Operation, kind: OpKind) -> tuple[Value, Value | None, Value]:
    """The values ``describe_op`` reads as IFM, IFM2 (None: none, or the stand-alone table
    lookup's synthetic zero) and OFM. A binary elementwise op with a constant or 0-D first
    operand reads the other one as its IFM."""
    if kind is OpKind.ELEMENTWISE_BINARY and not isinstance(op, LutOp):
        first, second = op.operands[0], op.operands[1]
        first_fixed = is_constant(first) or not shape_of(first)
        second_primary = not (is_constant(second) or not shape_of(second)) and shape_of(second) == shape_of(op.results[0])
        if first_fixed and second_primary:
            first, second = second, first
        return first, second, op.results[0]
    return op.operands[0], None, op.results[0]


def describe_op(op: Operation, target: object, encoded_bytes: int | None = None,
                placement: Placement | None = None) -> NpuOpDesc | None:
    """The cost-model description of ``op`` on ``target`` (a ``Target``), or None for an op that
    costs nothing. Weights are read from where their encoding says (permanent storage by
    default) at ``encoded_bytes`` (default: their raw size)."""
    interface = costed(op)
    if interface is None:
        return None
    tensor = lambda v: _tensor(v, target, placement)  # noqa: E731
    kind = interface.kind
    activation = _activation(op)
    lut_bytes, lut_memory = _lut(op, target)
    resampling = Resampling(getattr(op.attr("resampling"), "value", "none") or "none")
    first, second, result = _roles(op, kind)
    ofm = tensor(result)
    if kind is OpKind.DMA:
        return NpuOpDesc(OpKind.DMA, tensor(first), ofm)
    if isinstance(op, LutOp):
        ifm = tensor(first)
        zero = TensorDesc(Shape4(1, 1, 1, 1), ifm.bits, TensorFormat.NHWC, lut_memory)
        return NpuOpDesc(OpKind.ELEMENTWISE_BINARY, ifm, ofm, zero, activation="lut", elementwise="add",
                         ifm2_scalar=True, lut_bytes=lut_bytes, lut_memory=lut_memory)
    operator = interface.elementwise
    if kind is OpKind.ELEMENTWISE_UNARY:
        return NpuOpDesc(kind, tensor(first), ofm, activation=activation,
                         elementwise=operator, lut_bytes=lut_bytes, lut_memory=lut_memory)
    if kind is OpKind.ELEMENTWISE_BINARY:
        assert second is not None
        scalar = not shape_of(second)
        return NpuOpDesc(kind, tensor(first), ofm, tensor(second), activation=activation,
                         elementwise=operator, ifm2_scalar=scalar, rescaled=_rescaled(op), lut_bytes=lut_bytes,
                         lut_memory=lut_memory)
    ifm = tensor(first)
    weights = None
    hwio_count = _weight_count(op)
    if hwio_count:
        area = feature_map(op.weights, target).area  # type: ignore[attr-defined]
        if placement:
            area = placement.get(op.weights, area)  # type: ignore[attr-defined]
        weights = WeightsDesc(encoded_bytes if encoded_bytes is not None else hwio_count, hwio_count, area)
    padding = tuple(op.attr("kernel").padding) if op.attr("kernel") is not None else (0, 0, 0, 0)
    return NpuOpDesc(kind, ifm, ofm, kernel=_kernel(op), weights=weights, activation=activation,
                     rescaled=_rescaled(op), resampling=resampling, lut_bytes=lut_bytes, lut_memory=lut_memory,
                     padding=padding)  # type: ignore[arg-type]


def _known_area(area: str) -> str:
    """``area``, checked as the descriptions' constructors would (``derived`` does not)."""
    if area not in MEMORY_AREAS:
        raise ValueError(f"unknown memory area {area!r} (expected one of {', '.join(MEMORY_AREAS)})")
    return area


def placed(op: Operation, desc: NpuOpDesc, placement: Placement | None) -> NpuOpDesc:
    """``desc``, the description of ``op`` on its target without overrides, with the memory areas
    ``placement`` gives: ``describe_op(op, target, placement=placement)`` without describing the
    op again (only areas differ, so the others are shared)."""
    if not placement:
        return desc
    interface = costed(op)
    assert interface is not None
    first, second, result = _roles(op, interface.kind)
    changes: dict[str, object] = {}
    for name, value in (("ifm", first), ("ifm2", second), ("ofm", result)):
        area = placement.get(value) if value is not None else None
        tensor = getattr(desc, name)
        if area is not None and tensor is not None and tensor.memory != area:
            changes[name] = derived(tensor, memory=_known_area(area))
    weights = getattr(op, "weights", None)
    if desc.weights is not None and isinstance(weights, Value):
        area = placement.get(weights)
        if area is not None and desc.weights.memory != area:
            changes["weights"] = derived(desc.weights, memory=_known_area(area))
    return derived(desc, **changes) if changes else desc  # type: ignore[arg-type]


def _weight_count(op: Operation) -> int:
    weights = getattr(op, "weights", None)
    if not isinstance(weights, Value):
        return 0
    count = 1
    for d in shape_of(weights):
        count *= d
    return count


def _rescaled(op: Operation) -> bool:
    """Vela's ``has_scaling``: the op rescales (quantised operands, or an explicit rescale)."""
    if op.attr("rescale") is not None:
        return True
    return quant_of(op.operands[0]) is not None and quant_of(op.results[0]) is not None


def with_weights(desc: NpuOpDesc, encoded_bytes: int) -> NpuOpDesc:
    """``desc`` with its weights at ``encoded_bytes``."""
    if desc.weights is None:
        return desc
    return derived(desc, weights=derived(desc.weights, encoded_bytes=encoded_bytes))


class OpDescription(Analysis):
    """One op's cost-model description on its module's target (``desc``; None for an op that
    costs nothing), as an analysis: the block-config search and the estimate share it, and a
    pass that changes IR drops it unless it declares it preserved."""

    def __init__(self, op: Operation, manager: AnalysisManager) -> None:
        super().__init__(op, manager)
        self.desc = describe_op(op, target_of(module_of(op))) if is_costed(op) else None

    def copied_to(self, op: Operation) -> "OpDescription":
        """The description of ``op``, an unchanged copy of this one's op (ir/clone.py): the same
        description, without describing the op again."""
        copy = OpDescription.__new__(OpDescription)
        copy.anchor = op
        copy.desc = self.desc
        return copy


def module_of(op: Operation) -> Operation:
    """The outermost op enclosing ``op`` (the module whose ``npu.target`` applies)."""
    root = op
    for ancestor in op.ancestors():
        root = ancestor
    return root


Describer = Callable[[Operation], NpuOpDesc | None]

__all__ = ["Describer", "OpDescription", "Placement", "describe_op", "is_costed", "module_of", "op_weights_hwio",
           "placed", "report_name", "weights_source", "with_weights"]
