"""The interface of an op that becomes one NPU_OP_* command of a stream."""
from __future__ import annotations

from dataclasses import dataclass

from npu_opt.ir.traits import Trait


@dataclass(frozen=True)
class IssuesCommand(Trait):
    """The op is the NPU_OP_* command ``command``, preceded by the register writes its attributes
    make (``registers``) and rebuilt from the register state by ``from_registers``."""

    command: str


__all__ = ["IssuesCommand"]
