"""The graph the fidelity benchmark costs: NPU operations as Vela 5.2.0 (legacy core) runs them.

To compare our cost model with Vela's per-layer report, the benchmark must cost the same
operations Vela costs, with the same shapes, tensor formats and memory placements. This module
holds that graph (``Tensor``, ``VelaOp``) and the three graph-level decisions Vela makes after
lowering, re-derived from its documented behaviour:

* pass order (``pass_order``): a depth-first walk back from the graph outputs, an op being placed
  once all consumers of its outputs are placed (``pass_packing.py``);
* tensor formats (``assign_formats``): NHCWB16 for NPU-internal feature maps unless a consumer or
  producer sees the tensor with another 4-D shape, a ReduceSum reads it as int32, it is a graph
  output, or (elementwise ops with a depth not a multiple of 16) the output could overwrite an
  NHWC input of the same shape (``graph_optimiser_util.check_format_restrictions``,
  ``scheduler.avoid_nhcwb16_for_ofm``);
* memory placement (``assign_memory``): feature maps in the arena, except that with a dedicated
  fast storage (Dedicated_Sram, unlimited cache) every internal feature map is moved into SRAM and
  only graph inputs and outputs stay in DRAM; constants (weights, LUTs, constant operands) in
  permanent storage.

The lowering of TFL ops into these ops is in vela_lowering.py. This is benchmark code: it
emulates Vela so that the *cost model* can be checked; the compiler's own legalisation is the
``npu-legalize`` pass.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from dialects.npu.perf import Kernel, OpKind, Shape4, TensorFormat


@dataclass(eq=False)
class Tensor:
    """A tensor of the lowered graph (identity matters: several ops may read one tensor)."""

    name: str
    shape: Shape4
    bits: int
    const: bool = False
    graph_input: bool = False
    graph_output: bool = False
    producers: list["VelaOp"] = field(default_factory=list)
    consumers: list["VelaOp"] = field(default_factory=list)
    linear: bool | None = None
    """Vela's ``force_linear_format``: None (undecided, linear), True (linear), False (may be
    NHCWB16)."""
    format: TensorFormat = TensorFormat.NHWC
    memory: str = ""
    """Where the tensor is when the op runs (after feature maps are moved to fast storage)."""
    planned_memory: str = ""
    """Where the tensor is while the scheduler decides (feature maps still in the arena)."""


@dataclass(eq=False)
class VelaOp:
    """One NPU operation as Vela schedules it, with the shapes through which it sees its tensors."""

    name: str
    """Vela's op name: the report's Name column."""
    tflite_op: str
    """The TFLite operator it comes from (the report's first column)."""
    kind: OpKind
    ifm: Tensor
    ofm: Tensor
    ifm_shape: Shape4
    ofm_shape: Shape4
    ifm2: Tensor | None = None
    ifm2_shape: Shape4 | None = None
    kernel: Kernel = Kernel()
    elementwise: str = ""
    activation: str = "none"
    weights: np.ndarray | None = None
    """HWIO weights (zero point already subtracted), for the encoded size."""
    lut_bytes: int = 0
    tflite_index: int = -1
    reversed_operands: bool = False

    def inputs(self) -> list[Tensor]:
        return [t for t in (self.ifm, self.ifm2) if t is not None]


def connect(op: VelaOp) -> VelaOp:
    """Register ``op`` as a consumer of its inputs and the producer of its output."""
    for tensor in op.inputs():
        tensor.consumers.append(op)
    op.ofm.producers.append(op)
    return op


# -- pass order ------------------------------------------------------------------------------
def pass_order(ops: list[VelaOp], outputs: list[Tensor], groups: dict[VelaOp, list[VelaOp]]) -> list[VelaOp]:
    """Vela's pass order: placed backwards from the outputs, depth first, an op once all
    consumers of its output have been placed, inputs visited in operand order.

    ``groups`` maps the last op of a decomposed TFL op (softmax, mean) to its ops in execution
    order; the group is placed as a unit.
    """
    placed: list[VelaOp] = []
    seen_op: set[int] = set()
    tensor_visits: dict[int, int] = {}
    group_of = {id(group[-1]): group for group in groups.values()}

    def visit_tensor(tensor: Tensor) -> None:
        count = tensor_visits.get(id(tensor), 0) + 1
        tensor_visits[id(tensor)] = count
        if count < len(tensor.consumers):
            return
        for producer in reversed(tensor.producers):
            visit_op(producer)

    def visit_op(op: VelaOp) -> None:
        if id(op) in seen_op:
            return
        group = group_of.get(id(op), [op])
        inside = {id(member.ofm) for member in group}
        for member in group:
            seen_op.add(id(member))
        placed.extend(reversed(group))
        for member in reversed(group):
            for tensor in member.inputs():
                if not tensor.const and id(tensor) not in inside:
                    visit_tensor(tensor)

    for tensor in outputs:
        for producer in reversed(tensor.producers):
            visit_op(producer)
    order = list(reversed(placed))
    missing = [op for op in ops if id(op) not in {id(o) for o in order}]
    return order + missing


# -- tensor formats ----------------------------------------------------------------------------
def _shape_mismatch(tensor: Tensor) -> bool:
    for op in tensor.consumers:
        seen = op.ifm_shape if op.ifm is tensor else op.ifm2_shape
        if seen != tensor.shape:
            return True
    return any(op.ofm_shape != tensor.shape for op in tensor.producers)


def _may_use_nhcwb16(tensor: Tensor) -> bool:
    """``check_format_restrictions``: whether the tensor may be NHCWB16 at all."""
    if tensor.linear or tensor.const or not tensor.producers:
        return False
    if _shape_mismatch(tensor):
        return False
    if any(op.kind is OpKind.DMA for op in tensor.consumers + tensor.producers):
        return False
    if any(op.kind is OpKind.REDUCE_SUM and tensor.bits == 32 for op in tensor.consumers):
        return False
    return True


def _avoid_nhcwb16_for_ofm(op: VelaOp) -> bool:
    """Elementwise op whose OFM could overwrite an NHWC input of the same shape (and type): keep
    the OFM linear when its depth is not a multiple of 16."""
    if not op.kind.is_elementwise or op.ofm_shape.depth % 16 == 0:
        return False
    for tensor, shape in ((op.ifm, op.ifm_shape), (op.ifm2, op.ifm2_shape)):
        if tensor is None or shape != op.ofm_shape:
            continue
        if tensor.format == op.ofm.format and tensor.bits == op.ofm.bits and tensor.format is TensorFormat.NHWC:
            return True
    return False


def assign_formats(order: list[VelaOp]) -> None:
    """Decide every tensor's format, in pass order (inputs before the ops that read them)."""
    tensors = {id(t): t for op in order for t in op.inputs() + [op.ofm]}
    for tensor in tensors.values():
        if _may_use_nhcwb16(tensor):
            tensor.linear = False
    for op in order:
        out = op.ofm
        if out.graph_output or out.linear in (None, True):
            continue
        if _avoid_nhcwb16_for_ofm(op):
            out.linear = True
            continue
        out.format = TensorFormat.NHCWB16


# -- memory placement --------------------------------------------------------------------------
def assign_memory(order: list[VelaOp], arena: str, fast: str, permanent: str) -> None:
    """Place feature maps (arena, or fast storage when it is separate) and constants.

    Vela makes its weight-buffering decisions while every feature map is still in the arena, and
    moves them to fast storage afterwards; both placements are kept (``planned_memory``,
    ``memory``) because the decisions use the first and the final estimate the second.
    """
    spilling = fast != arena
    for op in order:
        for tensor in op.inputs() + [op.ofm]:
            if tensor.const:
                tensor.memory = tensor.planned_memory = permanent
            elif spilling and not (tensor.graph_input or tensor.graph_output):
                tensor.memory, tensor.planned_memory = fast, arena
            else:
                tensor.memory = tensor.planned_memory = arena


__all__ = ["Tensor", "VelaOp", "assign_formats", "assign_memory", "connect", "pass_order"]
