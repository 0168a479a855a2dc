"""Kernels of the ops that only hold data: constants and the absent optional operand."""
from __future__ import annotations

from typing import Any

import numpy as np

from npu_opt.dialects.tfl.common import TFL
from npu_opt.dialects.tfl.ops_misc import ConstOp, NoValueOp, QConstOp
from npu_opt.ir.attributes import DenseElementsAttr, DenseResourceAttr
from npu_opt.ir.core import Operation
from npu_opt.ir.interpreter import fail, storage_dtype


@TFL.kernel(ConstOp, QConstOp)
def constant(op: Operation, args: list[Any]) -> list[np.ndarray]:
    """The constant's stored elements (integers for a quantised constant), in its result's shape."""
    attr = op.attr("value")
    if isinstance(attr, DenseElementsAttr):
        array = attr.array
    elif isinstance(attr, DenseResourceAttr):
        if attr.blob is None:
            raise fail(op, f"the data of dense_resource<{attr.key}> is not in the file (elided?)")
        array = attr.as_array()
    else:
        raise fail(op, f"a constant value of kind {type(attr).__name__} is not supported")
    result_type = op.results[0].type
    return [np.asarray(array, dtype=storage_dtype(result_type)).reshape(result_type.shape)]


@TFL.kernel(NoValueOp)
def no_value(op: Operation, args: list[Any]) -> list[None]:
    """An absent optional operand: kernels receive None for it."""
    return [None]
