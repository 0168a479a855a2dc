"""The TFLite side of ``npu-run --compare-tflite``: run ai-edge-litert, compare its outputs with ours.

ai-edge-litert runs the original ``.tflite`` with TFLite's reference kernels by default (the
arithmetic the tfl kernels reproduce); ``builtin`` selects its optimised kernels instead. It is
an optional dependency (``pip install npu-opt[run]``), imported only when a comparison is asked
for. It runs in a child process (``litert_process``): LiteRT's kernels abort on some models
(its reference int8 softmax on a row of exponentials summing to 512 or more), and that is then
one error naming the model and the signal. Inputs are fed in the subgraph's input order, which
is the order of the imported function's arguments; outputs are paired with ours by tensor name
when every name is known and unique, else by position.
"""
from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from typing import Any, Sequence

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


@dataclass
class LitertRun:
    """What ai-edge-litert computed: the outputs in its order, and (when asked for) every tensor
    of the subgraph by name."""

    outputs: list[tuple[str, np.ndarray]]
    tensors: dict[str, np.ndarray]


def run_litert(model: bytes, path: str, inputs: Sequence[np.ndarray], kernels: str = "ref",
               keep_all: bool = False) -> LitertRun:
    """Run the ``model`` flatbuffer's main subgraph on ``inputs`` (``path`` names the model in
    errors); ``keep_all`` keeps every intermediate tensor too. It runs in a child process (see
    ``litert_process``), so that LiteRT's kernels aborting or crashing is one error naming the
    model and the signal instead of the end of this process."""
    from npu_opt.tools.litert_process import run_in_child
    if importlib.util.find_spec("ai_edge_litert") is None:
        raise UserError("--compare-tflite needs ai-edge-litert (pip install 'npu-opt[run]')")
    return run_in_child(run_litert_here, (model, path, inputs, kernels, keep_all), path, KERNEL_NAMES[kernels])


KERNEL_NAMES = {"ref": "reference", "builtin": "optimised"}
"""How errors name each kernel set of RESOLVERS."""


def run_litert_here(model: bytes, path: str, inputs: Sequence[np.ndarray], kernels: str = "ref",
                    keep_all: bool = False) -> LitertRun:
    """``run_litert`` in this process: a crash in LiteRT's kernels ends it."""
    try:
        from ai_edge_litert.interpreter import Interpreter, OpResolverType
    except ImportError:
        raise UserError("--compare-tflite needs ai-edge-litert (pip install 'npu-opt[run]')") from None
    resolver = OpResolverType.BUILTIN_REF if kernels == "ref" else OpResolverType.BUILTIN
    try:
        runner = Interpreter(model_content=model, experimental_op_resolver_type=resolver,
                             experimental_preserve_all_tensors=keep_all)
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
        outputs = [(detail["name"], np.array(runner.get_tensor(detail["index"])))
                   for detail in runner.get_output_details()]
        tensors: dict[str, np.ndarray] = {}
        if keep_all:
            for detail in runner.get_tensor_details():
                if detail["name"] and detail["name"] not in tensors:
                    try:
                        tensors[detail["name"]] = np.array(runner.get_tensor(detail["index"]))
                    except ValueError:  # (a tensor without data, e.g. a scratch buffer)
                        continue
        return LitertRun(outputs, tensors)
    except UserError:
        raise
    except (ValueError, RuntimeError) as err:
        text = " ".join(str(err).split())
        raise UserError(f"ai-edge-litert cannot run '{path}': {text[:300]}") from None


def result_names(op: Any) -> list[str | None]:
    """The TFLite tensor name each result of ``op`` carries in its location (the importer's
    ``loc("name")``, a fused location for several results, kept by the passes), else None."""
    from npu_opt.ir.location import FusedLoc, NameLoc
    loc = op.location
    if isinstance(loc, NameLoc):
        return [loc.name] + [None] * (len(op.results) - 1)
    if isinstance(loc, FusedLoc) and len(loc.locations) == len(op.results):
        return [part.name if isinstance(part, NameLoc) else None for part in loc.locations]
    return [None] * len(op.results)


class NamedResults:
    """An interpreter observer keeping the results named by a TFLite tensor in ``wanted``; when
    several ops carry one name (a legalised op and the reshapes around it) the last one wins."""

    def __init__(self, wanted: set[str]) -> None:
        self.wanted = wanted
        self.found: dict[str, tuple[str, np.ndarray]] = {}

    def __call__(self, op: Any, results: Sequence[Any]) -> None:
        for name, array in zip(result_names(op), results):
            if name in self.wanted and array is not None:
                self.found[name] = (op.name, np.array(array))


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


@dataclass(frozen=True)
class OpDifference:
    """How one op's result differs from the TFLite tensor of the same name: ``diff`` None when
    they cannot be compared (``why``); ``reshaped`` when only their shapes differ."""

    tensor: str
    op_name: str
    diff: Difference | None
    reshaped: bool = False
    why: str = ""


CONSTANT_OPS = ("tfl.pseudo_const", "tfl.pseudo_qconst", "tfl.no_value")


def op_differences(found: dict[str, tuple[str, np.ndarray]], tensors: dict[str, np.ndarray]) -> list[OpDifference]:
    """Each named op result of ``found`` (NamedResults.found) against TFLite's ``tensors``, in
    the order the ops ran; constants are left out. A result holding the same elements in
    another shape (1x1x1xN for 1xN, as the legalisation writes them) is compared reshaped."""
    records = []
    for tensor, (op_name, array) in found.items():
        if op_name in CONSTANT_OPS:
            continue
        ref = tensors[tensor]
        reshaped = array.shape != ref.shape and array.size == ref.size and array.dtype == ref.dtype
        try:
            diff = difference(array.reshape(ref.shape) if reshaped else array, ref, tensor)
        except UserError as err:
            records.append(OpDifference(tensor, op_name, None, why=err.diagnostic.message))
            continue
        records.append(OpDifference(tensor, op_name, diff, reshaped))
    return records


__all__ = ["CONSTANT_OPS", "Difference", "KERNEL_NAMES", "LitertRun", "NamedResults", "OpDifference", "RESOLVERS",
           "difference", "op_differences", "pair_outputs", "result_names", "run_litert", "run_litert_here"]
