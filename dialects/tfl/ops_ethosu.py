"""``tfl.ethos_u``: a compiled NPU program as TFLite Micro's Ethos-U kernel runs it (the
``ethos-u`` CUSTOM operator of a Vela-compiled .tflite). Its operands and results are only the
feature maps; its commands are an ``ethosu.program`` in its region (or, for a stream that does not
decode, the words), the read-only data and scratch areas attributes. docs/deployable_tflite.md
says why it is an op of its own."""
from __future__ import annotations

from npu_opt.ir.attributes import DenseElementsAttr, DenseResourceAttr
from npu_opt.ir.core import Operation
from npu_opt.ir.constraints import AnyTensor, ArrayAttrC, ElementsAttrC, IntAttrC, StrAttrC
from npu_opt.ir.opdef import AttrDef, OperandDef, ResultDef, VerifyError
from npu_opt.ir.traits import IsolatedFromAbove, NoTerminator, SingleBlock
from npu_opt.ir.types import IntegerType, RankedTensorType

from npu_opt.dialects.ethosu.ops_stream import ProgramOp
from npu_opt.dialects.tfl.common import TFL, TflOp

_U32 = IntegerType(32, "unsigned")
_U8 = IntegerType(8, "unsigned")
ARENA_OFFSETS = "tfl.arena_offsets"
"""Discardable attribute: the arena offset of each result of an op (of each argument, on a
func.func), -1 where TFLite Micro places the tensor (OfflineMemoryAllocation)."""


def _vector_of(attr: object, element: IntegerType) -> bool:
    kind = getattr(attr, "type", None)
    return isinstance(attr, (DenseElementsAttr, DenseResourceAttr)) and isinstance(kind, RankedTensorType) \
        and kind.rank == 1 and kind.element_type is element


@TFL.op
class EthosUOp(TflOp):
    """An ``ethos-u`` operator: its region holds the ``ethosu.program`` of its command stream, or
    when the stream does not decode ``command_stream`` holds it (ui32 words, the driver header
    stripped); ``read_only`` the bytes of its read-only tensor
    (encoded weights, scales and biases, LUTs), ``scratch_size``/``fast_scratch_size`` the bytes
    of its scratch areas and ``scratch_offset``/``fast_scratch_offset`` their arena offsets;
    ``npu_config``/``npu_id`` the CONFIG and ID register values the driver payload carries.
    ``tensor_names`` names its four memory tensors (command stream, read-only, scratch, fast
    scratch) in the file."""

    OP_NAME = "tfl.ethos_u"
    traits = (SingleBlock(), NoTerminator(), IsolatedFromAbove())
    input = OperandDef(AnyTensor, variadic=True)
    command_stream = AttrDef(ElementsAttrC(), optional=True)
    read_only = AttrDef(ElementsAttrC())
    scratch_size = AttrDef(IntAttrC(64, min_value=0))
    fast_scratch_size = AttrDef(IntAttrC(64, min_value=0))
    scratch_offset = AttrDef(IntAttrC(64, min_value=-1), default=0)
    fast_scratch_offset = AttrDef(IntAttrC(64, min_value=-1), default=0)
    npu_config = AttrDef(IntAttrC(64, min_value=0, max_value=0xFFFFFFFF))
    npu_id = AttrDef(IntAttrC(64, min_value=0, max_value=0xFFFFFFFF))
    tensor_names = AttrDef(ArrayAttrC(StrAttrC()), optional=True)
    output = ResultDef(AnyTensor, variadic=True)

    @property
    def program(self) -> ProgramOp | None:
        """The ``ethosu.program`` of its region, or None when it keeps the words."""
        if not self.regions or not self.regions[0].blocks:
            return None
        ops = list(self.regions[0].blocks[0].ops)
        return ops[0] if len(ops) == 1 else None

    def verify_shapes(self) -> None:
        words = self.attr("command_stream")
        if len(self.regions) > 1 or (self.regions and len(self.regions[0].blocks) != 1):
            raise VerifyError("takes at most one region, of one block")
        if self.regions:
            ops = list(self.regions[0].blocks[0].ops)
            if len(ops) != 1 or not isinstance(ops[0], ProgramOp):
                raise VerifyError(f"its region must hold one ethosu.program, not {len(ops)} ops"
                                  + (f" ('{ops[0].name}')" if len(ops) == 1 else ""))
            if words is not None:
                raise VerifyError("has both an ethosu.program and command_stream words; one stream needs one")
        elif words is None:
            raise VerifyError("needs its commands: an ethosu.program in its region or command_stream words")
        elif not _vector_of(words, _U32):
            raise VerifyError(f"command_stream must be a 1-D tensor of ui32 words, not "
                              f"'{getattr(self.attr('command_stream'), 'type', None)}'")
        if not _vector_of(self.attr("read_only"), _U8):
            raise VerifyError(f"read_only must be a 1-D tensor of ui8 bytes, not "
                              f"'{getattr(self.attr('read_only'), 'type', None)}'")
        names = self.attr("tensor_names")
        if names is not None and len(names.elements) != 4:
            raise VerifyError(f"tensor_names must name 4 tensors (command stream, read-only, scratch, "
                              f"fast scratch), not {len(names.elements)}")
        if not self.results:
            raise VerifyError("an ethos_u op must write at least one feature map")


def holds_ethos_u(op: Operation) -> bool:
    """Whether ``op`` (a module) holds a compiled NPU program: a deployable model, whose op
    locations are its tensor names."""
    return any(isinstance(inner, EthosUOp) for inner in op.walk())


__all__ = ["EthosUOp", "ARENA_OFFSETS", "holds_ethos_u"]
