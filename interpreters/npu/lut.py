"""The stand-alone ``npu.lut`` kernel: Vela runs it as an ADD of a scalar zero, so the value
reaches the table unscaled (table.py does the lookup)."""
from __future__ import annotations

from typing import Any

import numpy as np

from npu_opt.dialects.npu.dialect import NPU
from npu_opt.interpreters.npu.arith import finish, ifm_zero_point
from npu_opt.dialects.npu.ops_elementwise import LutOp
from npu_opt.ir.core import Operation
from npu_opt.ir.interpreter import fail

Rows = tuple[int, int] | None


@NPU.kernel(LutOp)
def lut(op: Operation, args: list[Any], *, ofm_rows: Rows = None, ofm_channels: Rows = None) -> list[np.ndarray]:
    """The stand-alone table lookup: the IFM value, unscaled, through the table."""
    x = np.asarray(args[0], dtype=np.int64)
    if ofm_channels is not None:
        x = x[..., ofm_channels[0]:ofm_channels[1]]
    return [finish(op, x - ifm_zero_point(op.operands[0]), args)]  # type: ignore[arg-type]


__all__ = ["lut"]
