"""Vela's raw output (``vela --output-format raw``): an .npz per NPU program, which ExecuTorch's
Arm backend reads, made from a ``CompiledModel``.

Two flavours, as Vela writes them: ``legacy`` (the legacy core: one file per subgraph, for its
first ethos-u operator; payloads as uint8 arrays; shapes padded to rank 4) and ``default`` (the
C++ core: payloads as one bytes scalar; shapes padded to rank 6; the variable keys before the
quantisation ones). Regions are the base-pointer indices the command stream addresses: 0 the
read-only data, 1 the scratch arena, 2 the fast scratch when it is a memory of its own.
"""
from __future__ import annotations

import io
from typing import Any, BinaryIO

import numpy as np

from npu_opt.dialects.tfl.tflite.ethosu_custom import (
    CompiledModel, ContainerError, EthosUOperator, Quantisation, Subgraph, TensorRecord,
)

REGION_READ_ONLY, REGION_SCRATCH, REGION_FAST_SCRATCH = 0, 1, 2
FLAVOURS = ("legacy", "default")
_ELEMENT_BYTES = {0: 4, 1: 2, 2: 4, 3: 1, 4: 8, 6: 1, 7: 2, 9: 1, 10: 8, 12: 8, 15: 4, 16: 2}


def _fresh(text: str) -> str:
    """A new string object equal to ``text``. Pickle writes a string met twice as a reference;
    Vela's per-tensor and per-channel kinds are new objects each time, its 'none' one shared
    object, and the .npz bytes show the difference."""
    return "".join(list(text))


def _quantisation(q: Quantisation | None) -> dict[str, Any]:
    """The quantisation entry of one tensor: none, per_tensor (the first scale and zero point)
    or per_channel (all of them)."""
    if q is None or not q.scale or q.zero_point is None:
        return {"quant_type": "none", "scale": np.array([], dtype=np.float32),
                "zero_point": np.array([], dtype=np.int32)}
    scale, zero_point = np.array(q.scale, dtype=np.float32), np.array(q.zero_point, dtype=np.int32)
    if len(scale) > 1:
        return {"quant_type": _fresh("per_channel"), "scale": scale, "zero_point": zero_point}
    return {"quant_type": _fresh("per_tensor"), "scale": scale[:1], "zero_point": zero_point[:1]}


def _padded(shape: tuple[int, ...], rank: int) -> list[int]:
    return [1] * (rank - len(shape)) + list(shape)


def _feature_maps(tensors: list[TensorRecord], indices: list[int], rank: int, what: str) -> dict[str, list]:
    entry: dict[str, list] = {"shape": [], "elem_size": [], "region": [], "offset": [], "quantization": []}
    for index in indices:
        t = tensors[index]
        if t.arena_offset < 0:
            raise ContainerError(f"{what} tensor '{t.name}' has no arena offset (OfflineMemoryAllocation "
                                 "gives -1), which the raw format needs")
        size = _ELEMENT_BYTES.get(t.type_code)
        if size is None:
            raise ContainerError(f"{what} tensor '{t.name}' has element type code {t.type_code}, which the "
                                 "raw format cannot describe")
        entry["shape"].append(_padded(t.shape, rank))
        entry["elem_size"].append(size)
        entry["region"].append(REGION_SCRATCH)
        entry["offset"].append(t.arena_offset)
        entry["quantization"].append(_quantisation(t.quantisation))
    return entry


def raw_arrays(graph: Subgraph, op: EthosUOperator, fast_scratch_apart: bool,
               flavour: str = "legacy") -> dict[str, Any]:
    """The keys and values Vela saves for ``op`` of ``graph``, in its order. ``fast_scratch_apart``:
    the fast scratch is a memory of its own (a U65 with Dedicated_Sram), so region 2."""
    if flavour not in FLAVOURS:
        raise ContainerError(f"unknown raw flavour '{flavour}' (known: {', '.join(FLAVOURS)})")
    legacy = flavour == "legacy"
    rank = 4 if legacy else 6
    inputs = _feature_maps(graph.tensors, op.inputs, rank, "input")
    outputs = _feature_maps(graph.tensors, op.outputs, rank, "output")
    fast_size, fast_region = op.fast_scratch_size, REGION_FAST_SCRATCH if fast_scratch_apart else REGION_SCRATCH
    if not legacy and op.memory_tensors[3] == op.memory_tensors[2]:
        fast_size, fast_region = 0, REGION_READ_ONLY
    if legacy:
        payload: Any = np.frombuffer(op.payload, dtype=np.uint8)
        read_only: Any = np.frombuffer(bytes(op.read_only), dtype=np.uint8)
    else:
        payload, read_only = np.bytes_(op.payload), np.bytes_(bytes(op.read_only))
    arrays: dict[str, Any] = {
        "cmd_data": payload, "weight_data": read_only, "weight_region": REGION_READ_ONLY,
        "scratch_shape": [op.scratch_size], "scratch_region": REGION_SCRATCH, "scratch_size": op.scratch_size,
        "scratch_fast_shape": [fast_size], "scratch_fast_region": fast_region, "scratch_fast_size": fast_size,
    }
    for prefix, entry in (("input", inputs), ("output", outputs)):
        for key in ("shape", "elem_size", "region", "offset"):
            arrays[f"{prefix}_{key}"] = entry[key]
    quantisation = {"input_quantization": inputs["quantization"], "output_quantization": outputs["quantization"],
                    "variable_quantization": []}
    variables = {f"variable_{key}": [] for key in ("shape", "elem_size", "region", "offset")}
    if legacy:
        arrays.update(quantisation)
        arrays.update(variables)
    else:
        arrays.update(variables)
        arrays.update(quantisation)
    return arrays


def raw_files(model: CompiledModel, basename: str, fast_scratch_apart: bool,
              flavour: str = "legacy") -> dict[str, dict[str, Any]]:
    """File name -> arrays, named as Vela names them: legacy ``<base>_vela_sg<N>.npz`` for each
    subgraph with an ethos-u operator (its first), default ``<base>_vela.npz`` (one operator)."""
    if flavour == "default":
        found = [(g, op) for g in model.subgraphs for op in g.ethos_u()]
        if len(found) != 1:
            raise ContainerError(f"the default raw flavour holds one ethos-u operator; the model has {len(found)}")
        return {f"{basename}_vela.npz": raw_arrays(found[0][0], found[0][1], fast_scratch_apart, flavour)}
    files = {}
    for index, graph in enumerate(model.subgraphs):
        ops = graph.ethos_u()
        if ops:
            files[f"{basename}_vela_sg{index}.npz"] = raw_arrays(graph, ops[0], fast_scratch_apart, flavour)
    return files


def save_raw(target: str | BinaryIO, arrays: dict[str, Any]) -> None:
    """Write ``arrays`` with numpy's .npz writer (as Vela does, so the bytes match)."""
    np.savez(target, **arrays)


def raw_bytes(arrays: dict[str, Any]) -> bytes:
    stream = io.BytesIO()
    save_raw(stream, arrays)
    return stream.getvalue()


__all__ = ["raw_arrays", "raw_files", "save_raw", "raw_bytes", "FLAVOURS"]
