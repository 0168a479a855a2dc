"""``npu-flash-layout``: where each weighted op's encoded weight buffer lies in the read-only data
(``npu.flash``), laid out as Vela 5.2 does (docs/codegen_design.md, The read-only data)."""
from __future__ import annotations

from npu_opt.dialects.npu.execution_order import runs_by_function
from npu_opt.dialects.npu.schedule_attrs import FLASH_ATTR, FlashAttr
from npu_opt.dialects.npu.target_attr import target_of
from npu_opt.hardware.perf.shape import round_up
from npu_opt.dialects.npu.interfaces import costed
from npu_opt.dialects.npu.ops_common import element_bits
from npu_opt.dialects.npu.perf.ir_adapter import weights_source
from npu_opt.hardware.op_kind import OpKind
from npu_opt.ir.core import OpResult, Operation, Value
from npu_opt.ir.traits import ConstantLike
from npu_opt.ir.pass_manager import PassContext
from npu_opt.ir.pass_registry import Pass, register_pass
from npu_opt.passes.codegen.weight_bytes import LoweringError, WeightBuffers

ALIGNMENT = 16
"""Every range of the read-only data starts at a multiple of this many bytes."""

RECORD_BYTES = 10
"""Bytes of one output channel's scale/bias record."""


def is_table_lookup_alone(op: Operation) -> bool:
    """A table lookup on its own (its table the only other operand): Vela runs it as the add of
    a scalar zero, a constant of its own in the read-only data."""
    table = op.lut_operand() if hasattr(op, "lut_operand") else None  # type: ignore[attr-defined]
    return table is not None and len(op.operands) == 2 and op.operands[1] is table


def _raw_bytes(value: Value) -> int:
    return int(value.type.num_elements()) * element_bits(value) // 8  # type: ignore[attr-defined]


def _constant_operands(op: Operation) -> list[Value]:
    """The constants an unweighted NPU op reads (scalars and tensors of elementwise ops, lookup
    tables): Vela keeps each in the read-only data, once however many ops read it."""
    return [v for v in op.operands if isinstance(v, OpResult) and v.op.has_trait(ConstantLike)]


def _kept_input_bytes(op: Operation) -> int:
    """Bytes of the constant input Vela keeps on an op the NPU never reads (a resize's size, on
    its first step): a range it reserves and writes nothing into."""
    size = op.attr("resize_size")
    return 0 if size is None else int(size.type.num_elements()) * 4  # (int32 values)


def _kept_bias_bytes(op: Operation) -> int:
    """A transpose convolution's constant bias keeps a range of its own before the records'
    (Vela gives the op a new bias tensor and leaves the original among the pass's inputs)."""
    interface = costed(op)
    if interface is None or interface.kind is not OpKind.TRANSPOSE_CONV2D or len(op.operands) < 3:
        return 0
    bias = op.operands[2]
    if not (isinstance(bias, OpResult) and bias.op.has_trait(ConstantLike)):
        return 0
    return round_up(_raw_bytes(bias), ALIGNMENT)


@register_pass("npu-flash-layout", statistics={
    "buffers": "weight buffers given an offset",
    "shared": "buffers of a weight tensor placed before with the same bytes, sharing them",
    "bytes": "bytes of read-only data laid out",
})
class FlashLayout(Pass):
    """Give each weighted NPU op the offset of its encoded weight buffer in the read-only data,
    and each constant an unweighted NPU op reads its own.

    Linear allocation over the NPU runs in order (Vela's NPU subgraphs); within a run, first a
    range per weighted op of its scale/bias records' size (Vela allocates the op's bias tensor
    there and writes no bytes into it; a transpose convolution's original bias before it) and
    per other op each constant it reads (a lookup table, an elementwise operand) not placed yet
    (a table lookup on its own has a scalar zero before its table; a resize's first step a range
    for the size Vela keeps on it), then each op's buffer; a buffer
    of the same weight constant equal to one already placed takes its offset. Every range is
    rounded up to 16 bytes."""

    PRESERVES = (WeightBuffers,)
    """It sets npu.flash alone: every weight buffer stays as encoded."""

    def run(self, module: Operation, ctx: PassContext) -> None:
        target = target_of(module)
        encoded = ctx.analyses.get(WeightBuffers, module)
        end = 0
        placed: dict[tuple[Value | None, bytes], int] = {}
        for _block, runs in runs_by_function(module, ctx):
            for run in runs:
                buffers = []
                for op in run:
                    try:
                        buffer = encoded.of(op, target)
                    except LoweringError as err:
                        ctx.error(str(err), err.op)
                        return
                    if buffer is not None:
                        buffers.append((op, buffer))
                weighted = {op for op, _ in buffers}
                seen: set = set()
                for op in run:
                    if op in weighted:
                        end += _kept_bias_bytes(op)
                        end += round_up(RECORD_BYTES * int(op.results[0].type.shape[-1]), ALIGNMENT)
                    elif costed(op) is not None and costed(op).kind is not OpKind.DMA:  # type: ignore[union-attr]
                        if is_table_lookup_alone(op):
                            end += ALIGNMENT  # Vela's scalar zero added to a table lookup
                        for value in _constant_operands(op):
                            if value not in seen:
                                seen.add(value)
                                flash = FlashAttr.build(offset=end, size=_raw_bytes(value))
                                ctx.rewriter.set_attr(value.op, FLASH_ATTR, flash)  # type: ignore[union-attr]
                                end += round_up(_raw_bytes(value), ALIGNMENT)
                        end += round_up(_kept_input_bytes(op), ALIGNMENT)
                for op, buffer in buffers:
                    data = buffer.data
                    key = (weights_source(op), data)  # Vela shares the encoding of one weight tensor
                    offset = placed.get(key)
                    if offset is None:
                        offset = placed[key] = end
                        end += round_up(len(data), ALIGNMENT)
                        ctx.stat("bytes", round_up(len(data), ALIGNMENT))
                    else:
                        ctx.stat("shared")
                    ctx.stat("buffers")
                    ctx.rewriter.set_attr(op, FLASH_ATTR, FlashAttr.build(offset=offset, size=len(data)))
