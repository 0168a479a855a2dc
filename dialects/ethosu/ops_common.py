"""What the ethosu ops share: the constraint of a declared attribute, and the base op whose
command is preceded by its register writes and the waits it asks for."""
from __future__ import annotations

from typing import Any

from npu_opt.dialects.ethosu.attrs import (
    ActivationAttr, BlockAttr, FeatureMapAttr, KernelAttr, MemAttr, ScaleAttr, StreamAttr,
)
from npu_opt.dialects.ethosu.registers import RegisterReader, Write
from npu_opt.hardware.commands.words import RawCommand
from npu_opt.ir.attributes import Attribute
from npu_opt.ir.constraints import AttrConstraint, IntAttrC
from npu_opt.ir.opdef import AttrDef, Op


class DeclaredC(AttrConstraint):
    """An attribute of one declared class (ir/attrdef.py); to and from Python it is the attribute."""

    def __init__(self, cls: type) -> None:
        self.cls = cls
        self.description = f"#{cls.NAME} attribute"  # type: ignore[misc]

    def check(self, attr: Attribute) -> bool:
        return isinstance(attr, self.cls)

    def from_python(self, value: Any) -> Attribute:
        if isinstance(value, self.cls):
            return value
        raise TypeError(f"cannot make {self.description} from {value!r}")


FmC, KernelC, BlockC = DeclaredC(FeatureMapAttr), DeclaredC(KernelAttr), DeclaredC(BlockAttr)
ActC, ScaleC, StreamC, MemC = DeclaredC(ActivationAttr), DeclaredC(ScaleAttr), DeclaredC(StreamAttr), DeclaredC(MemAttr)
Count = IntAttrC(32, min_value=0)
LAST = 1 << 62
"""The declaration position of the wait attributes, after those of every subclass."""


class EthosuOp(Op):
    """An op that is one NPU_OP_* command: its register writes, its waits, then the command."""

    VERIFY_OP_NEEDS_DECLARED = True

    kernel_wait = AttrDef(Count, optional=True, doc="NPU_OP_KERNEL_WAIT before the command: NPU ops left running")
    dma_wait = AttrDef(Count, optional=True, doc="NPU_OP_DMA_WAIT before the command: DMA transfers left running")
    kernel_wait.order = dma_wait.order = LAST  # (printed after the register attributes, as written before the command)

    def register_writes(self, cores: int) -> list[Write]:
        """The register writes before the command, in Vela's order, for an NPU of ``cores`` cores."""
        raise NotImplementedError

    def command_fields(self) -> dict:
        """The fields of the NPU_OP_* command itself."""
        return {}

    @classmethod
    def attributes_from(cls, reader: RegisterReader, command: RawCommand, cores: int) -> dict:
        """The op's attributes from the register state and its command (waits excluded)."""
        raise NotImplementedError

    def wait_writes(self) -> list[Write]:
        """The waits, which the hardware acts on at once: always written, never elided."""
        writes: list[Write] = []
        if self.kernel_wait is not None:
            writes.append(("NPU_OP_KERNEL_WAIT", {"outstanding": self.kernel_wait}))
        if self.dma_wait is not None:
            writes.append(("NPU_OP_DMA_WAIT", {"outstanding": self.dma_wait}))
        return writes


__all__ = ["ActC", "BlockC", "Count", "DeclaredC", "EthosuOp", "FmC", "KernelC", "MemC", "ScaleC", "StreamC"]
