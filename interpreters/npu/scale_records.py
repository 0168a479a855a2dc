"""The scale/bias records a MAC op's weight stream carries, from the rescale its kernel computes
with (``conv.scales_of``), so the bytes and the interpreter cannot disagree.

Design notes: docs/weight_codec.md, section Scale/bias records."""
from __future__ import annotations

import numpy as np

from npu_opt.dialects.npu.ops_memory import DmaOp
from npu_opt.dialects.tfl.shapes import constant_array
from npu_opt.hardware.codec.scale_bias import scale_bias_records
from npu_opt.interpreters.npu.arith import rounding_of
from npu_opt.interpreters.npu.conv import scales_of
from npu_opt.ir.core import Operation


def op_bias(op: Operation) -> np.ndarray:
    """The op's constant bias per output channel (zeros without one; a bias a DMA copies is read
    from the DMA's source)."""
    count = int(op.results[0].type.shape[-1])  # type: ignore[attr-defined]
    operand = op.operands[2] if len(op.operands) > 2 else None
    owner = getattr(operand, "op", None)
    if isinstance(owner, DmaOp):
        operand = owner.operands[0]
    values = constant_array(operand) if operand is not None else None
    if values is None:
        if operand is not None:
            raise ValueError(f"the bias of '{op.name}' is not a constant: its scale/bias records need its values")
        return np.zeros(count, np.int64)
    return np.asarray(values, np.int64).reshape(-1)


def op_scale_bias(op: Operation) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(biases, multipliers, shifts) of the op's output channels as the records hold them: the
    interpreter's rescale, the multiplier one more where the op rounds away from zero (the NPU
    rounds half up; the extra unit of the multiplier turns ties away from zero)."""
    bias = op_bias(op)
    multipliers, shifts = scales_of(op, bias.size, None)
    if rounding_of(op) == "away_zero":
        multipliers = multipliers + 1
    return bias, multipliers, shifts


def op_scale_bias_records(op: Operation) -> bytes:
    """The 10-byte scale/bias record of each of the op's output channels, in channel order."""
    return scale_bias_records(*op_scale_bias(op))


__all__ = ["op_bias", "op_scale_bias", "op_scale_bias_records"]
