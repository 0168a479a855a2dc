"""npu-run's inputs and outputs: which array feeds which argument, and how results are saved.

Design notes: docs/tools_design.md, section npu-run inputs and outputs (run_inputs)."""
from __future__ import annotations

import io
import zipfile
import zlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

import numpy as np

from npu_opt.ir.attributes import DictionaryAttr, StringAttr
from npu_opt.ir.diagnostics import UserError
from npu_opt.ir.interpreter import storage_dtype
from npu_opt.ir.types import IntegerType, QuantUniformType, RankedTensorType, Type, element_type_of

if TYPE_CHECKING:
    from npu_opt.ir.core import Operation


@dataclass(frozen=True)
class Port:
    """One argument or result of the function that runs: its name, position and type."""

    name: str
    index: int
    type: Type

    @property
    def shape(self) -> tuple[int, ...]:
        """The static shape (arguments and results of a runnable function are ranked)."""
        return tuple(self.type.shape) if isinstance(self.type, RankedTensorType) else ()

    @property
    def dtype(self) -> np.dtype:
        """The numpy dtype its values are held in (the storage type of a quantised type)."""
        return storage_dtype(self.type)


def _entry_names(func: "Operation", key: str, count: int) -> list[str | None]:
    """The tensor names ``tf.entry_function`` gives for ``key`` ("inputs"/"outputs"), or Nones
    when the attribute is absent or names a different number of values."""
    entry = func.attributes.get("tf.entry_function")
    if isinstance(entry, DictionaryAttr):
        names = entry.get(key)
        if isinstance(names, StringAttr) and count:
            parts = names.value.split(",")
            if len(parts) == count:
                return [part or None for part in parts]
    return [None] * count


def _ports(names: list[str | None], types: Sequence[Type], fallback: str) -> list[Port]:
    """Ports for ``types``, named by ``names`` where given and unique, else ``<fallback>N``."""
    taken: set[str] = set()
    ports = []
    for index, (name, t) in enumerate(zip(names, types)):
        if name is None or name in taken:
            name = f"{fallback}{index}"
        taken.add(name)
        ports.append(Port(name, index, t))
    return ports


def function_ports(func: "Operation") -> tuple[list[Port], list[Port]]:
    """(arguments, results) of ``func`` with their names."""
    block = func.regions[0].entry
    arg_types = [arg.type for arg in block.args] if block is not None else []
    returned = [op for op in block.ops if op.name == "func.return"] if block is not None else []
    result_types = [v.type for v in returned[-1].operands] if returned else []
    return (_ports(_entry_names(func, "inputs", len(arg_types)), arg_types, "arg"),
            _ports(_entry_names(func, "outputs", len(result_types)), result_types, "output"))


def parse_input_option(text: str) -> tuple[str | None, str]:
    """``NAME=FILE.npy`` -> (NAME, FILE.npy); a bare ``FILE.npz`` -> (None, FILE.npz), its
    arrays named by their keys. The last ``=`` before a ``.npy`` name splits, so tensor names
    holding ``=`` still work."""
    if "=" in text:
        name, _, path = text.rpartition("=")
        if name:
            return name, path
    if text.endswith(".npz"):
        return None, text
    raise UserError(f"--input '{text}' must be NAME=FILE.npy (or a FILE.npz whose keys are input names)")


def _find_port(ports: list[Port], name: str) -> Port:
    """The argument called ``name`` (or at position ``name``); an error listing the names."""
    for port in ports:
        if port.name == name:
            return port
    if name.isdigit() and int(name) < len(ports):
        return ports[int(name)]
    known = ", ".join(f"'{p.name}'" for p in ports) or "none"
    raise UserError(f"--input names '{name}', which is not an input of the function "
                    f"(its inputs: {known}; or a position 0..{len(ports) - 1})")


NPY_MAGIC = b"\x93NUMPY"
"""How a .npy file starts (numpy's format)."""
NPZ_MAGIC = b"PK\x03\x04"
"""How a .npz (a zip archive) starts."""


def _read_arrays(name: str | None, path: str) -> list[tuple[str, np.ndarray]]:
    """(input name, array) pairs held by ``path``: one for a .npy, each key of a .npz."""
    try:
        with open(path, "rb") as stream:
            data = stream.read()
    except OSError as err:
        raise UserError(f"cannot open input file '{path}': {err.strerror}") from None
    if not data.startswith((NPY_MAGIC, NPZ_MAGIC)):  # (numpy would take any other bytes for a pickle)
        raise UserError(f"'{path}' is not a numpy .npy or .npz file: it starts with neither the .npy magic "
                        "'\\x93NUMPY' nor a zip header (numpy.save and numpy.savez write those)")
    try:
        loaded = np.load(io.BytesIO(data), allow_pickle=False)
        if isinstance(loaded, np.lib.npyio.NpzFile):
            with loaded:
                pairs = [(key, loaded[key]) for key in loaded.files]
            if name is not None:
                if len(pairs) != 1:
                    raise UserError(f"'{path}' holds {len(pairs)} arrays; give input '{name}' one .npy "
                                    "(or pass the .npz alone to feed inputs by its keys)")
                return [(name, pairs[0][1])]
            return pairs
    except (ValueError, OSError, EOFError, zipfile.BadZipFile, zlib.error) as err:  # (a corrupt .npz: its zip)
        if "allow_pickle" in str(err):  # (an object array: numpy's advice to unpickle is not ours to give)
            raise UserError(f"'{path}' holds Python objects (a pickled object array), not numbers: save the "
                            "input as a numeric array") from None
        raise UserError(f"cannot read '{path}' as a numpy .npy/.npz file: {err}") from None
    if name is None:
        raise UserError(f"'{path}' is a single array: name the input it feeds (NAME={path})")
    return [(name, loaded)]


def check_input(port: Port, array: np.ndarray, source: str) -> np.ndarray:
    """``array`` if it has ``port``'s exact shape and storage dtype; else an error naming both."""
    if array.dtype != port.dtype:
        raise UserError(f"input '{port.name}' from '{source}' has dtype {array.dtype}, but the argument "
                        f"of type {port.type} is held as {port.dtype}")
    if tuple(array.shape) != port.shape:
        shape = "x".join(str(d) for d in array.shape) or "scalar"
        want = "x".join(str(d) for d in port.shape) or "scalar"
        raise UserError(f"input '{port.name}' from '{source}' has shape {shape}, but the argument "
                        f"of type {port.type} has shape {want}")
    return np.ascontiguousarray(array)


def storage_range(t: Type) -> tuple[int, int] | None:
    """The (min, max) stored integers of ``t``'s element type; None for floats."""
    elem = element_type_of(t)
    if isinstance(elem, QuantUniformType):
        return elem.storage_min, elem.storage_max
    if isinstance(elem, IntegerType):
        if elem.width == 1:
            return 0, 1
        return elem.value_range()
    return None


def random_input(port: Port, rng: np.random.Generator) -> np.ndarray:
    """Seeded random values for ``port`` over its storage range (see the module docstring)."""
    span = storage_range(port.type)
    if span is None:
        return rng.uniform(-1.0, 1.0, size=port.shape).astype(port.dtype)
    lo, hi = span
    return rng.integers(lo, hi, size=port.shape, dtype=np.int64, endpoint=True).astype(port.dtype)


@dataclass
class Inputs:
    """The arrays a run takes, one per argument, and where each came from (for the summary)."""

    arrays: list[np.ndarray]
    sources: list[str]


def gather_inputs(ports: list[Port], options: Sequence[str], seed: int) -> Inputs:
    """One array per argument: from the ``--input`` options, the rest seeded random values
    (drawn in argument order from one generator, so a given input does not change the others')."""
    given: dict[int, tuple[np.ndarray, str]] = {}
    for option in options:
        name, path = parse_input_option(option)
        for key, array in _read_arrays(name, path):
            port = _find_port(ports, key)
            if port.index in given:
                raise UserError(f"input '{port.name}' is given twice (by '{given[port.index][1]}' and '{path}')")
            given[port.index] = (check_input(port, array, path), path)
    rng = np.random.default_rng(seed)
    arrays, sources = [], []
    for port in ports:
        drawn = random_input(port, rng)
        if port.index in given:
            array, path = given[port.index]
            arrays.append(array)
            sources.append(f"from {path}")
        else:
            arrays.append(drawn)
            sources.append(f"random (seed {seed})")
    return Inputs(arrays, sources)


def npz_bytes(ports: Sequence[Port], arrays: Sequence[np.ndarray]) -> bytes:
    """The results as an uncompressed .npz, one array per result keyed by its name."""
    import zipfile
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        for port, array in zip(ports, arrays):
            with archive.open(f"{port.name}.npy", "w") as member:  # (np.load strips the .npy)
                np.lib.format.write_array(member, np.asarray(array), allow_pickle=False)
    return buffer.getvalue()


__all__ = ["Inputs", "Port", "check_input", "function_ports", "gather_inputs", "npz_bytes",
           "parse_input_option", "random_input", "storage_range"]
