"""Run a function of the IR with numpy: each op's kernel maps its operands' arrays to its results'.

A value is held as a numpy array of its storage type: quantised integers as their stored integers
(int8, int16, int32 ...), floats as floats, so an interpreter run is bit-exact by construction
whenever the kernels are. Kernels belong to the dialect that defines the op: a dialect names the
modules holding them (``Dialect.kernel_modules``), which are imported the first time one of its
ops runs, and each registers its kernels with ``Dialect.kernel``. An op without a kernel, or a
kernel that cannot run the op as written, is reported as an error at the op's location.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from npu_opt.ir.diagnostics import UserError
from npu_opt.ir.location import Location
from npu_opt.ir.opdef import lookup_dialect
from npu_opt.ir.types import RankedTensorType, Type, storage_type_of

if TYPE_CHECKING:
    import numpy as np

    from npu_opt.ir.core import Operation, Value

Kernel = Callable[["Operation", list[Any]], Sequence[Any]]
"""A kernel: (the op, its operands' arrays in operand order) -> its results' arrays. An operand
that is absent (an optional operand given as ``tfl.no_value``) is passed as None."""

Observer = Callable[["Operation", Sequence[Any]], None]
"""Called after each op runs, with its results' arrays (for tracing and per-op comparison)."""


class InterpretError(UserError):
    """An op the interpreter cannot run: no kernel, or a case its kernel does not implement."""


MAX_ELEMENTS = 1 << 26
"""The most elements one value may have for the interpreter to hold it (and the wider arrays its
kernels compute it in): far beyond any real model's tensors, well within a machine's memory."""


def check_sizes(func: "Operation") -> None:
    """InterpretError at the first argument or result of ``func`` with more than ``MAX_ELEMENTS``
    elements: too large to run, said before any array is made."""
    block = func.regions[0].entry if func.regions else None
    if block is None:
        return
    values = [(arg, f"argument #{arg.index}", func) for arg in block.args]
    values += [(result, f"result #{result.index} of '{op.name}'", op) for op in block.ops for result in op.results]
    for value, what, op in values:
        t = value.type
        if isinstance(t, RankedTensorType) and t.has_static_shape and t.num_elements() > MAX_ELEMENTS:
            raise InterpretError(f"{what} ({t}) has {t.num_elements()} elements, more than the {MAX_ELEMENTS} "
                                 "the interpreter can hold", op.diag_location())


def storage_dtype(t: Type) -> "np.dtype":
    """The numpy dtype a value of tensor type ``t`` is held in: its (quantised) storage type."""
    from npu_opt.ir.attributes import numpy_dtype
    elem = storage_type_of(t)
    return numpy_dtype(elem)


def kernel_for(op: "Operation") -> Kernel:
    """The kernel of ``op``'s dialect for it; InterpretError if there is none."""
    dialect = lookup_dialect(op.dialect)
    kernel = dialect.find_kernel(op.name) if dialect is not None else None
    if kernel is None:
        raise InterpretError(f"'{op.name}' cannot be interpreted: its dialect has no kernel for it",
                             op.diag_location())
    return kernel


def fail(op: "Operation", message: str) -> InterpretError:
    """The error a kernel raises for a case it does not run (``raise fail(op, "...")``)."""
    return InterpretError(f"'{op.name}' cannot be interpreted: {message}", op.diag_location())


@dataclass
class Interpreter:
    """Runs functions of ``module`` op by op in block order (which is a valid execution order:
    SSA values are defined before they are used). ``observer`` sees every op's results."""

    module: "Operation"
    observer: Observer | None = None
    _env: dict["Value", Any] = field(default_factory=dict, init=False, repr=False)

    def function(self, name: str | None = None) -> "Operation":
        """The function named ``name``, or the module's only (first) function."""
        funcs = [op for op in self.module.walk() if op.name == "func.func" and op.regions
                 and op.regions[0].entry is not None]
        if name is not None:
            funcs = [f for f in funcs if getattr(f, "sym_name", None) == name]
        if not funcs:
            what = f"function '@{name}'" if name is not None else "function with a body"
            raise InterpretError(f"the module has no {what} to run", self.module.diag_location())
        return funcs[0]

    def run(self, inputs: Sequence[Any], func_name: str | None = None) -> list[Any]:
        """Run the function on ``inputs`` (one array per argument, converted to the argument's
        storage dtype and shape) and return the arrays its ``func.return`` returns."""
        import numpy as np
        func = self.function(func_name)
        block = func.regions[0].entry
        assert block is not None
        if len(inputs) != len(block.args):
            raise InterpretError(f"@{getattr(func, 'sym_name', '?')} takes {len(block.args)} input(s), "
                                 f"but {len(inputs)} were given", func.diag_location())
        check_sizes(func)
        env = self._env
        env.clear()
        for arg, array in zip(block.args, inputs):
            env[arg] = _as_argument(np.asarray(array), arg.type, func.diag_location())
        for op in block.ops:
            if op.name == "func.return":
                return [env[v] for v in op.operands]
            self._run_op(op, env)
        raise InterpretError("the function ends without func.return", func.diag_location())

    def _run_op(self, op: "Operation", env: dict["Value", Any]) -> None:
        kernel = kernel_for(op)
        args = [env.get(v) for v in op.operands]
        results = kernel(op, args)
        if len(results) != len(op.results):
            raise fail(op, f"its kernel gave {len(results)} result(s) for {len(op.results)}")
        for value, array in zip(op.results, results):
            env[value] = array
        if self.observer is not None:
            self.observer(op, results)


def _as_argument(array: "np.ndarray", t: Type, loc: Location) -> "np.ndarray":
    """``array`` as an argument of type ``t``: same element count, reshaped and cast exactly."""
    import numpy as np
    if not isinstance(t, RankedTensorType):
        return array
    dtype = storage_dtype(t)
    if array.size != t.num_elements():
        raise InterpretError(f"an input of {array.size} element(s) was given for an argument of "
                             f"type {t} ({t.num_elements()} elements)", loc)
    if array.dtype != dtype:
        if dtype.kind in "iu" and array.dtype.kind in "iu":
            info = np.iinfo(dtype)
            if array.size and (array.min() < info.min or array.max() > info.max):
                raise InterpretError(f"an input holds values outside {dtype} for an argument of "
                                     f"type {t}", loc)
        array = array.astype(dtype)
    return np.ascontiguousarray(array.reshape(t.shape))


def run_function(module: "Operation", inputs: Sequence[Any], func_name: str | None = None,
                 observer: Observer | None = None) -> list[Any]:
    """Run ``module``'s function (the first, or ``func_name``) on ``inputs``."""
    return Interpreter(module, observer).run(inputs, func_name)


def kernels_of(dialect_name: str) -> Mapping[str, Kernel]:
    """Every kernel dialect ``dialect_name`` has (loading its kernel modules), by op name."""
    dialect = lookup_dialect(dialect_name)
    if dialect is None:
        return {}
    dialect.load_kernels()
    return dict(dialect.kernels)


__all__ = ["InterpretError", "Interpreter", "Kernel", "MAX_ELEMENTS", "Observer", "check_sizes", "fail", "kernel_for",
           "kernels_of", "run_function", "storage_dtype"]
