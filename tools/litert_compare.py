"""The TFLite side of ``npu-run --compare-tflite``: run ai-edge-litert, compare its outputs with ours.

ai-edge-litert runs the original ``.tflite`` with TFLite's reference kernels by default (the
arithmetic the tfl kernels reproduce); ``builtin`` selects its optimised kernels instead. It is
an optional dependency (``pip install npu-opt[run]``), imported only when a comparison is asked
for. Inputs are fed in the subgraph's input order, which is the order of the imported
function's arguments; outputs are paired with ours by tensor name when every name is known
and unique, else by position.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from npu_opt.ir.diagnostics import UserError

RESOLVERS = ("ref", "builtin")
"""ai-edge-litert kernel sets --tflite-kernels chooses from: reference or optimised."""


@dataclass(frozen=True)
class Difference:
    """How one of our outputs differs from TFLite's: the largest absolute difference (as a
    float, exact for every integer storage type) and how many elements are not equal."""

    max_abs: float
    differing: int
    total: int


def run_litert(model: bytes, path: str, inputs: Sequence[np.ndarray],
               kernels: str = "ref") -> list[tuple[str, np.ndarray]]:
    """(tensor name, array) of every output of the ``model`` flatbuffer's main subgraph run on
    ``inputs``; ``path`` names the model in errors."""
    try:
        from ai_edge_litert.interpreter import Interpreter, OpResolverType
    except ImportError:
        raise UserError("--compare-tflite needs ai-edge-litert (pip install 'npu-opt[run]')") from None
    resolver = OpResolverType.BUILTIN_REF if kernels == "ref" else OpResolverType.BUILTIN
    try:
        runner = Interpreter(model_content=model, experimental_op_resolver_type=resolver)
        details = runner.get_input_details()
        if len(details) != len(inputs):
            raise UserError(f"'{path}' takes {len(details)} input(s) in ai-edge-litert, but the "
                            f"function that ran takes {len(inputs)}")
        for detail, array in zip(details, inputs):
            if tuple(detail["shape"]) != array.shape or np.dtype(detail["dtype"]) != array.dtype:
                raise UserError(f"input '{detail['name']}' of '{path}' is "
                                f"{np.dtype(detail['dtype'])}{list(detail['shape'])} in ai-edge-litert, "
                                f"but the function's argument is {array.dtype}{list(array.shape)}")
        runner.allocate_tensors()
        for detail, array in zip(details, inputs):
            runner.set_tensor(detail["index"], array)
        runner.invoke()
        return [(detail["name"], np.array(runner.get_tensor(detail["index"])))
                for detail in runner.get_output_details()]
    except UserError:
        raise
    except (ValueError, RuntimeError) as err:
        text = " ".join(str(err).split())
        raise UserError(f"ai-edge-litert cannot run '{path}': {text[:300]}") from None


def pair_outputs(names: Sequence[str], theirs: Sequence[tuple[str, np.ndarray]]) -> list[np.ndarray]:
    """TFLite's outputs in the order of ours (``names``): by name when all match, else by
    position; an error when the counts differ."""
    if len(names) != len(theirs):
        raise UserError(f"the function returns {len(names)} output(s), but the TFLite model has {len(theirs)}")
    by_name = {name: array for name, array in theirs}
    if len(by_name) == len(theirs) and set(by_name) == set(names):
        return [by_name[name] for name in names]
    return [array for _, array in theirs]


def difference(ours: np.ndarray, theirs: np.ndarray, name: str) -> Difference:
    """How ``ours`` differs from ``theirs`` elementwise; an error if their shapes or dtypes differ
    (then no element-wise difference means anything)."""
    if ours.shape != theirs.shape or ours.dtype != theirs.dtype:
        raise UserError(f"output '{name}' is {ours.dtype}{list(ours.shape)} here but "
                        f"{theirs.dtype}{list(theirs.shape)} in TFLite")
    if ours.dtype.kind in "iub":
        delta = np.abs(ours.astype(np.int64) - theirs.astype(np.int64))
        unequal = delta != 0
    else:
        a, b = ours.astype(np.float64), theirs.astype(np.float64)
        same = (a == b) | (np.isnan(a) & np.isnan(b))
        delta = np.where(same, 0.0, np.abs(a - b))
        delta = np.where(np.isnan(delta), np.inf, delta)  # a NaN on one side only: as far as can be
        unequal = ~same
    return Difference(float(delta.max()) if delta.size else 0.0, int(unequal.sum()), int(ours.size))


__all__ = ["Difference", "RESOLVERS", "difference", "pair_outputs", "run_litert"]
