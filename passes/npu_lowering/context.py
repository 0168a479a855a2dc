"""State shared by the lowerings of one function: the target, where each tfl op was placed, the
names of ops, and the PAD operators absorbed into the padding of their consumers."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from npu_opt.ir.core import Operation
from npu_opt.ir.pass_manager import PassContext
from npu_opt.passes.npu_lowering.builder import Builder
from npu_opt.passes.npu_lowering.padding import Padding4
from npu_opt.passes.npu_lowering.view import op_name

ACTIVATION_OF_FAF = {None: "none", "NONE": "none", "RELU": "relu", "RELU6": "relu6", "RELU_N1_TO_1": "relu_n1_to_1",
                     "RELU_0_TO_1": "relu_0_to_1", "TANH": "tanh"}
"""TFLite fused activation -> ``#npu.act`` kind."""


@dataclass
class Lowering:
    """What a lowering function may read and record."""

    ctx: PassContext
    target: Any
    placement: dict[Operation, bool] = field(default_factory=dict)
    """tfl op -> True if it goes to the NPU."""
    ordinals: dict[Operation, int] = field(default_factory=dict)
    """tfl op -> its position among the function's tfl operators (Vela's op index)."""
    absorbed_pads: dict[Operation, tuple[Operation, Padding4]] = field(default_factory=dict)
    """consumer -> (the PAD, its padding) for PADs turned into hardware padding; the consumer reads
    the PAD's input when it is lowered (its producer may have been lowered, and replaced, since)."""
    force_symmetric_weights: bool = False

    def on_npu(self, op: Operation | None) -> bool:
        return op is not None and self.placement.get(op, False)

    def name(self, op: Operation) -> str:
        """Vela's name of ``op``: the location's tensor name, else the op kind and its position."""
        return op_name(op, f"{op.name.split('.', 1)[1]}_{self.ordinals.get(op, 0)}")

    def builder(self, op: Operation) -> Builder:
        return Builder(self.ctx, op, self.name(op), self.target)

    def is_first(self, op: Operation) -> bool:
        """True for the first operator of the function (Vela's op index 0)."""
        return self.ordinals.get(op) == 0

    @property
    def lut_fusion_allowed(self) -> bool:
        """Vela fuses a table lookup into the op before it only when SHRAM has reserved banks for
        the LUT (not on the 16-bank U55-32 and U55-64)."""
        return self.target.accelerator.shram_reserved_end_banks > 0


__all__ = ["ACTIVATION_OF_FAF", "Lowering"]
