"""Vela's raw output (.npz) of a compiled model, for ``npu-translate --export-vela-raw`` and the
Python API's ``Model.write_vela_raw`` (docs/deployable_tflite.md, Vela's raw output)."""
from __future__ import annotations

from dataclasses import dataclass

from npu_opt.ir.diagnostics import UserError


@dataclass
class RawOutput:
    """The .npz bytes of the first ethos-u operator, and how many further operators the format drops."""

    data: bytes
    dropped: int


def raw_output(compiled: bytes, fast_scratch_apart: bool, name: str) -> RawOutput:
    """The raw output of a compiled .tflite (``compiled``), as Vela's legacy core writes it: the
    first ethos-u operator of the one subgraph holding some. ``fast_scratch_apart``: the target's
    fast storage is a memory of its own (the fast scratch's region is 2). UserError, naming
    ``name``, for a model the format cannot hold."""
    from npu_opt.dialects.tfl.tflite.ethosu_custom import ContainerError
    from npu_opt.dialects.tfl.tflite.ethosu_raw import raw_bytes, raw_files
    from npu_opt.dialects.tfl.tflite.ethosu_reader import read_compiled

    try:
        model = read_compiled(compiled)
        files = raw_files(model, "model", fast_scratch_apart)
    except ContainerError as err:
        raise UserError(f"{name}: {err}") from None
    if not files:
        raise UserError(f"{name}: the model has no ethos-u operator to write in the raw format")
    if len(files) > 1:
        raise UserError(f"{name}: {len(files)} subgraphs hold ethos-u operators; the raw format "
                        "writes one file per subgraph, and one output names one")
    dropped = sum(len(g.ethos_u()) for g in model.subgraphs) - len(files)
    return RawOutput(raw_bytes(next(iter(files.values()))), dropped)


DROPPED_WARNING = ("the raw format holds the first ethos-u operator of a subgraph; {dropped} more are not "
                   "written (as Vela does)")
"""The warning for the operators the raw format leaves out."""

__all__ = ["DROPPED_WARNING", "RawOutput", "raw_output"]
