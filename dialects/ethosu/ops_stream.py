"""The stream around the NPU operations: the program of one ``ethos-u`` operator, DMA transfers
and the stop that ends the stream."""
from __future__ import annotations

from npu_opt.dialects.ethosu.dialect import ETHOSU
from npu_opt.dialects.ethosu.interfaces import IssuesCommand
from npu_opt.dialects.ethosu.ops_common import Count, EthosuOp, MemC
from npu_opt.dialects.ethosu.registers import RegisterReader, Write, mem_writes, read_mem
from npu_opt.hardware.commands.words import RawCommand
from npu_opt.ir.constraints import IntAttrC
from npu_opt.ir.opdef import AttrDef, Op, VerifyError
from npu_opt.ir.traits import HasParent, IsTerminator, SingleBlock


@ETHOSU.op
class ProgramOp(Op):
    """The command stream of one ``ethos-u`` custom operator: its ops in stream order, ending
    with ``ethosu.stop`` (its terminator). ``parallel_mode`` (NPU_SET_PARALLEL_MODE, written first) is the
    number of cores minus one on a U65; a U55 stream has none."""

    OP_NAME = "ethosu.program"
    traits = (SingleBlock(),)
    parallel_mode = AttrDef(IntAttrC(32, min_value=0, max_value=1), optional=True,
                            doc="cores minus one (U65 only)")

    @property
    def cores(self) -> int:
        return 1 + (self.parallel_mode or 0)

    def verify_op(self) -> None:
        if len(self.regions) != 1 or len(self.regions[0].blocks) != 1:
            raise VerifyError("needs one region of one block")


NonZero = IntAttrC(32, min_value=1)
"""A number whose zero is spelled by leaving the attribute out (one spelling per program)."""


@ETHOSU.op
class DmaOp(EthosuOp):
    """A DMA transfer of ``length`` bytes (NPU_OP_DMA_START) from ``src`` to ``dst``."""

    OP_NAME = "ethosu.dma"
    traits = (IssuesCommand("NPU_OP_DMA_START"), HasParent("ethosu.program"))
    src = AttrDef(MemC, doc="the source (DMA0_SRC_REGION, DMA0_SRC)")
    dst = AttrDef(MemC, doc="the destination (DMA0_DST_REGION, DMA0_DST)")
    length = AttrDef(IntAttrC(64, min_value=0), doc="bytes to copy (DMA0_LEN)")
    channel = AttrDef(NonZero, optional=True, doc="the DMA channel (NPU_OP_DMA_START; absent: 0)")
    mode = AttrDef(NonZero, optional=True, doc="the transfer mode (NPU_OP_DMA_START; absent: 0)")

    def register_writes(self, cores: int) -> list[Write]:
        return [*mem_writes("SRC", self.src), *mem_writes("DST", self.dst),
                ("NPU_SET_DMA0_LEN", {"address": self.length})]

    def command_fields(self) -> dict:
        return {"mode": self.mode or 0, "channel": self.channel or 0}

    @classmethod
    def attributes_from(cls, reader: RegisterReader, command: RawCommand, cores: int) -> dict:
        attrs = {"src": read_mem(reader, "SRC"), "dst": read_mem(reader, "DST"),
                 "length": reader.number("NPU_SET_DMA0_LEN", "address")}
        attrs.update({name: command.field(name) for name in ("channel", "mode") if command.field(name)})
        return attrs


@ETHOSU.op
class StopOp(Op):
    """The end of the stream (NPU_OP_STOP); Vela sets every bit of its interrupt mask."""

    OP_NAME = "ethosu.stop"
    traits = (IsTerminator(), HasParent("ethosu.program"))
    mask = AttrDef(IntAttrC(32, min_value=0, max_value=0xFFFF), doc="the interrupt mask")


__all__ = ["DmaOp", "ProgramOp", "StopOp"]
