"""Put a ``CompiledModel`` in the order Vela's legacy core writes, so that a compiled model that
went through the IR is written back as Vela wrote it: tensors sorted by name, operator codes
sorted by Vela's operator names, builtin options fields in Vela's order, the empty
intermediates and mutating-variable-inputs vectors on every operator, and in a subgraph without
an ethos-u operator a buffer of its own for every tensor (empty for those in the arena)."""
from __future__ import annotations

from npu_opt.dialects.tfl.opcodes import BUILTIN_OPERATORS
from npu_opt.dialects.tfl.tflite import schema as S
from npu_opt.dialects.tfl.tflite.ethosu_custom import (
    ETHOS_U_CODE, CompiledModel, CpuOperator, EthosUOperator, OptionsTable, Subgraph,
)

_LAST = {"STRIDED_SLICE": ("offset",), "TRANSPOSE_CONV": ("fused_activation_function",)}
"""Options fields Vela writes after the alphabetical ones (fields added to TFLite later)."""


def _opcode_key(code: tuple[int, str | None, int]) -> tuple[str, str, int]:
    """Vela sorts operator codes by its own operator names, which are (nearly) the builtin names
    in CamelCase: compare them without case and underscores; the ethos-u operator is its
    'CustomNpuOp'."""
    builtin, custom, version = code
    name = "customnpuop" if custom == ETHOS_U_CODE else BUILTIN_OPERATORS.get(builtin, "").replace("_", "").lower()
    return name, custom or "", version


def _field_order(table: OptionsTable, builtin: str) -> None:
    """Vela adds the fields it knows in alphabetical order of their names, some late ones last;
    fields npu-opt's schema does not name keep their order, after the named ones."""
    spec = S.OPTIONS.get(builtin)
    names = {f.slot: f.attr for f in spec.fields} if spec is not None and spec.type == table.type else {}
    last = _LAST.get(builtin, ())

    def key(position: int) -> tuple[int, str, int]:
        name = names.get(table.fields[position].slot)
        if name is None:
            return 2, "", position
        return (1 if name in last else 0), name, position

    table.fields = [table.fields[i] for i in sorted(range(len(table.fields)), key=key)]


def _sort_tensors(graph: Subgraph) -> None:
    order = sorted(range(len(graph.tensors)), key=lambda i: graph.tensors[i].name)
    new_index = {old: new for new, old in enumerate(order)}

    def remap(indices: list[int]) -> list[int]:
        return [new_index[i] if i >= 0 else i for i in indices]

    graph.tensors = [graph.tensors[i] for i in order]
    graph.inputs, graph.outputs = remap(graph.inputs), remap(graph.outputs)
    for op in graph.operators:
        op.inputs, op.outputs = remap(op.inputs), remap(op.outputs)
        if isinstance(op, EthosUOperator):
            a, b, c, d = remap(list(op.memory_tensors))
            op.memory_tensors = (a, b, c, d)
        elif op.intermediates is not None:
            op.intermediates = remap(op.intermediates)


def vela_layout(model: CompiledModel) -> CompiledModel:
    """``model`` rearranged in place into Vela's order (and returned)."""
    model.opcodes = sorted(model.opcodes, key=_opcode_key)
    for graph in model.subgraphs:
        _sort_tensors(graph)
        if not graph.ethos_u():  # Vela's writer, without a scratch tensor, gives each tensor a buffer
            for tensor in graph.tensors:
                tensor.data = b"" if tensor.data is None else tensor.data
        for op in graph.operators:
            if isinstance(op, EthosUOperator):
                op.empty_vectors = True
                continue
            assert isinstance(op, CpuOperator)
            name = BUILTIN_OPERATORS.get(op.builtin, "")
            for table in (op.options, op.options_2):
                if table is not None:
                    _field_order(table, name)
            op.intermediates = op.intermediates or []
            op.mutating_variable_inputs = op.mutating_variable_inputs or b""
    return model


__all__ = ["vela_layout"]
