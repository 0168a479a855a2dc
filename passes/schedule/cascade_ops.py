"""From the IR to the cascade builder's records: ``sched_ops`` reads one NPU run as ``SchedOp``s,
every rule a query of the op's interfaces and the graph, never of its name.

Design notes: docs/scheduler_design.md, section Cascade records from the IR (cascade_ops)."""
from __future__ import annotations

from npu_opt.hardware.accelerators import BlockType
from npu_opt.dialects.npu.attrs import KernelAttr
from npu_opt.dialects.npu.interfaces import costed
from npu_opt.hardware.op_kind import OpKind
from npu_opt.dialects.npu.ops_common import encoding_of, is_constant, shape_of
from npu_opt.dialects.npu.ops_memory import ConcatOp, slice_root
from npu_opt.dialects.npu.perf.ir_adapter import report_name
from npu_opt.hardware.perf.op_desc import NpuOpDesc, TensorFormat
from npu_opt.dialects.npu.schedule_attrs import BAND_ATTR
from npu_opt.ir.core import OpResult, Operation, Value
from npu_opt.ir.traits import MemoryOnly, ReturnLike
from npu_opt.dialects.npu.execution_order import concat_user, readers_through_views
from npu_opt.passes.schedule.cascade_builder import SchedOp
from npu_opt.passes.schedule.stripes import tensor_bytes

WHOLE_VECTOR_BLOCKS = (BlockType.VECTOR_PRODUCT, BlockType.REDUCE_SUM)
"""Block types whose every output element reads the whole input: no stripe of rows exists."""


def is_weight_dma(op: Operation) -> bool:
    """An ``npu.dma`` copying a constant (weights into fast storage): not a scheduled op."""
    interface = costed(op)
    return (interface is not None and interface.kind is OpKind.DMA
            and any(is_constant(slice_root(v)) for v in op.operands))


def _source(value: Value) -> Operation | None:
    """The executed op writing ``value``, looking through views (a concatenation's first part's
    writer); None for a function argument."""
    return _writers(value)[0]


def _writers(value: Value) -> list[Operation | None]:
    """The executed ops writing ``value``: through reshape views to the op writing their source,
    and for a concatenation the writer of each part (None for a function argument)."""
    while isinstance(value, OpResult) and value.op.has_trait(MemoryOnly):
        op = value.op
        if isinstance(op, ConcatOp):
            return [w for part in op.operands for w in _writers(part)]
        value = op.operands[0]
    return [value.op] if isinstance(value, OpResult) else [None]


def concat_read_by(op: Operation) -> ConcatOp | None:
    """The concatenation ``op`` reads (through reshape views), if any."""
    for value in op.operands:
        while isinstance(value, OpResult) and value.op.has_trait(MemoryOnly):
            if isinstance(value.op, ConcatOp):
                return value.op
            value = value.op.operands[0]
    return None


def channel_concat(op: Operation) -> bool:
    """Whether ``op`` is a concatenation along the channels only (no strides, every part at
    offset 0 in batch, height and width): the kind cascade concats may roll."""
    return (isinstance(op, ConcatOp) and op.steps() == (1, 1, 1, 1)
            and not any(any(offset.values[:3]) for offset in op.offsets))


def _cascadable_concat(ofm: Value, position: dict[Operation, int]) -> ConcatOp | None:
    """The concatenation ``ofm`` is a part of when it may roll in a cascade with its parts'
    writers and its reader (``concats``, see the module docstring), else None."""
    concat = concat_user(ofm)
    if concat is None or not channel_concat(concat):
        return None
    assert isinstance(concat, ConcatOp)
    result = concat.results[0]
    shape = shape_of(result)
    if _linear(result) or len(shape) != 4:
        return None
    for part in concat.operands:
        part_shape = shape_of(part)
        if (len(part_shape) != 4 or part_shape[1:3] != shape[1:3]
                or not isinstance(part, OpResult) or part.op not in position or len(part.op.results) != 1):
            return None
    readers = readers_through_views(result)
    if len(readers) != 1 or readers[0] not in position or readers[0].has_trait(ReturnLike):
        return None
    return concat


def _fixed(value: Value) -> bool:
    """A constant or a 0-D (scalar) operand: not a streamed feature map."""
    return is_constant(value) or not shape_of(value)


def _feature_inputs(op: Operation, desc: NpuOpDesc) -> tuple[Value, Value | None]:
    """The operands read as IFM and IFM2, with a binary elementwise op's fixed first operand
    swapped behind the feature map (as ``describe_op`` describes it)."""
    if desc.kind is OpKind.ELEMENTWISE_BINARY and len(op.operands) >= 2:
        first, second = op.operands[0], op.operands[1]
        if _fixed(first) and not _fixed(second) and shape_of(second) == shape_of(op.results[0]):
            return second, first
        return first, second
    return op.operands[0], None


def is_join(op: Operation, desc: NpuOpDesc, ifm: Value, ifm2: Value | None) -> bool:
    """A binary elementwise op of two streamed feature maps, both of the OFM's shape (no
    broadcast): with cascade joins, a cascade may run through it reading the IFM2 whole."""
    shape = shape_of(op.results[0])
    return (desc.kind is OpKind.ELEMENTWISE_BINARY and ifm2 is not None and not _fixed(ifm) and not _fixed(ifm2)
            and shape_of(ifm) == shape and shape_of(ifm2) == shape)


def joinable(op: Operation, desc: NpuOpDesc) -> bool:
    """Whether cascade joins could let a cascade run through ``op`` (``is_join`` of its feature inputs)."""
    return is_join(op, desc, *_feature_inputs(op, desc))


def _refusal(op: Operation, desc: NpuOpDesc, ifm: Value, ifm2: Value | None, joins: bool = False) -> str | None:
    block = desc.block_type
    if block is None or block is BlockType.DEFAULT:
        return "it runs no NPU compute block (a memory copy)"
    if block in WHOLE_VECTOR_BLOCKS:
        return f"its {block.value} block type reads the whole IFM for every output"
    if desc.kind is OpKind.TRANSPOSE_CONV2D:
        return "it is a transpose convolution"
    for value in (ifm2,) if op.attr(BAND_ATTR) is not None else (ifm, ifm2):
        if value is not None and slice_root(value) is not value:
            return "it reads a window of a larger tensor (a slice)"
    if desc.kind is OpKind.ELEMENTWISE_BINARY:
        assert ifm2 is not None
        if _fixed(ifm):
            return "its streamed IFM is a constant or scalar"
        if shape_of(ifm) != shape_of(op.results[0]):
            return "its IFM is broadcast to the OFM shape"
        if not _fixed(ifm2) and not joins:
            return "its second operand is a feature map (only a constant or scalar may be)"
        if not _fixed(ifm2) and shape_of(ifm2) != shape_of(op.results[0]):
            return "its second operand is a feature map broadcast to the OFM shape"
    return None


def _linear(value: Value) -> bool:
    enc = encoding_of(value)
    return enc is None or enc.format == TensorFormat.NHWC.value


def _storage(value: Value) -> object:
    """The element type as stored (a quantised type's storage integer type): an OFM may
    overwrite an IFM whatever the two quantisations are."""
    element = getattr(value.type, "element_type", value.type)
    return getattr(element, "storage_type", element)


def _reuses_ifm(op: Operation, desc: NpuOpDesc, inputs: list[Value]) -> bool:
    """An elementwise OFM may overwrite an input of the same shape, format and stored element
    type (quantisation aside) that only this op reads."""
    if not desc.kind.is_elementwise:
        return False
    ofm = op.results[0]
    for value in inputs:
        if (value is not None and not _fixed(value) and shape_of(value) == shape_of(ofm)
                and encoding_of(value) == encoding_of(ofm) and _storage(value) == _storage(ofm)
                and len(value.users()) == 1):
            return True
    return False


def sched_ops(run: list[Operation], describe, joins: bool = False, branches: bool = False,
              concats: bool = False) -> tuple[list[SchedOp], list[Operation]]:
    """The scheduled ops of one NPU run (schedule order) as ``SchedOp``s, and their IR ops.
    ``describe(op)`` gives the op's cost-model description; ``joins``: a binary elementwise op
    of two feature maps may be cascaded; ``branches`` (implies ``joins``): an op whose OFM the
    next op and a later join read may be a cascade member; ``concats``: the parts of a
    concatenation and their reader may be one cascade, and an op read by several ops as their
    IFM (a fork) a member (see the module docstring)."""
    joins = joins or branches
    branching: list[int] = []  # ops whose only reason for a whole OFM is their two consumers
    forking: list[int] = []  # ops whose only reason for a whole OFM is their several consumers
    ops = [op for op in run if costed(op) is not None and not is_weight_dma(op)]
    position = {op: i for i, op in enumerate(ops)}
    records: list[SchedOp] = []
    ifm_of: dict[int, Value] = {}
    for index, op in enumerate(ops):
        desc: NpuOpDesc = describe(op)
        ifm, ifm2 = _feature_inputs(op, desc)
        join = joins and is_join(op, desc, ifm, ifm2)
        ifm_desc, ifm2_desc = desc.ifm, desc.ifm2
        if join and index > 0 and _source(ifm) is not ops[index - 1] and _source(ifm2) is ops[index - 1]:
            # the op just before writes the second operand (a residual add of the skip and the
            # block's last conv, in that order): the chain runs through it, the first is read whole
            ifm, ifm2, ifm_desc, ifm2_desc = ifm2, ifm, ifm2_desc, ifm_desc
        assert ifm_desc is not None
        ifm_of[index] = ifm
        ofm = op.results[0]
        source = _source(ifm)
        readers = readers_through_views(ofm)
        consumers = tuple(sorted({position[r] for r in readers if r in position}))
        full_ifm = None
        concat_reader = None
        writers = _writers(ifm)
        ifm_from = tuple(position[w] for w in writers) if all(w in position for w in writers) else ()
        if op.attr(BAND_ATTR) is not None and slice_root(ifm) is not ifm:
            full_ifm = "it reads a window of a larger tensor (a slice), whole"
        elif source is None or source not in position:
            full_ifm = "it is a graph input"
        elif _linear(ifm):
            full_ifm = "it is stored linear (NHWC)"
        full_ofm = None
        if any(r.has_trait(ReturnLike) or r not in position for r in readers):
            full_ofm = "it is a graph output"
        elif _linear(ofm):
            full_ofm = "it is stored linear (NHWC)"
        elif concat_user(ofm) is not None:
            full_ofm = "it is part of a concatenation"
            if concats and _cascadable_concat(ofm, position) is not None:
                full_ofm, concat_reader = None, position[readers[0]]
        elif len(consumers) > 1 or len(op.results) > 1:
            full_ofm = f"it has {max(len(consumers), len(op.results))} consumers"
            if branches and len(consumers) == 2 and len(op.results) == 1:
                branching.append(index)
            if concats and len(op.results) == 1:
                forking.append(index)
        elif (reads := sum(_source(v) is op for r in readers if r in position for v in r.operands)) > 1:
            # one op reading it as both operands (x + x): Vela counts each read as a consumer
            full_ofm = f"'{report_name(ops[consumers[0]])}' reads it {reads} times"
        binary = desc.kind is OpKind.ELEMENTWISE_BINARY
        ifm2_bytes = 0
        if ifm2_desc is not None and (join or not binary):
            ifm2_bytes = tensor_bytes(ifm2_desc.shape, ifm2_desc.element_bytes, ifm2_desc.format == TensorFormat.NHCWB16)
        ifm2_source = _source(ifm2) if join and ifm2 is not None else None
        full_ifm2_bytes = 0
        if ifm2_desc is not None and ifm2 is not None and not _fixed(ifm2) and (
                _source(ifm2) not in position or _linear(ifm2)):
            full_ifm2_bytes = tensor_bytes(ifm2_desc.shape, ifm2_desc.element_bytes,
                                           ifm2_desc.format == TensorFormat.NHCWB16)
        records.append(SchedOp(
            index=index, name=report_name(op), ifm=ifm_desc.shape, ofm=desc.ofm.shape, kernel=desc.kernel,
            resampling=desc.resampling,
            ifm_bytes=tensor_bytes(ifm_desc.shape, ifm_desc.element_bytes, ifm_desc.format == TensorFormat.NHCWB16),
            # (a part of a concatenation counts the whole tensor it writes into, as Vela sizes its OFM)
            ofm_bytes=tensor_bytes(desc.ofm.whole or desc.ofm.shape, desc.ofm.element_bytes,
                                   desc.ofm.format == TensorFormat.NHCWB16),
            ifm2_bytes=ifm2_bytes, ifm_element_bytes=ifm_desc.element_bytes,
            ofm_element_bytes=desc.ofm.element_bytes, refusal=_refusal(op, desc, ifm, ifm2, joins),
            full_ifm=full_ifm, full_ifm2_bytes=full_ifm2_bytes, full_ofm=full_ofm, reuses_ifm=_reuses_ifm(op, desc, [ifm, ifm2]),
            consumers=consumers, ifm2_producer=position.get(ifm2_source) if ifm2_source is not None else None,
            pad_top=kernel.pad_top if isinstance(kernel := op.attr("kernel"), KernelAttr) else None,
            ifm_from=ifm_from, concat_reader=concat_reader))
    for record in records:
        if len(record.consumers) == 1:
            consumer = record.consumers[0]
            record.feeds_ifm = _source(ifm_of[consumer]) is ops[record.index]
    for index in branching:
        nxt, join = records[index].consumers
        if (nxt == index + 1 and _source(ifm_of[nxt]) is ops[index] and records[join].ifm2_producer == index
                and _source(ifm_of[join]) is not ops[index]):
            # a branch point: the next op reads the OFM as its IFM, a later join as its IFM2
            records[index].full_ofm, records[index].branch_join = None, join
    for index in forking:
        if records[index].full_ofm is not None and all(records[c].ifm_from == (index,)
                                                       for c in records[index].consumers):
            # a fork: every reader reads the OFM as its IFM
            records[index].full_ofm, records[index].fork = None, True
    return records, ops


__all__ = ["WHOLE_VECTOR_BLOCKS", "channel_concat", "concat_read_by", "is_join", "joinable", "is_weight_dma",
           "sched_ops"]
