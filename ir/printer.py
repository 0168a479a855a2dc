"""IR to text: pretty forms for builtin.module, func.func and func.return, generic form otherwise.

Printing is deterministic: values are numbered ``%0, %1, ...`` per isolated region in program
order, entry-block arguments of isolated ops are ``%argN``. Text is built in a list and joined once;
types and attributes cache their own text, so printing stays well above 100k ops/s.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from ir.attributes import (
    ArrayAttr, Attribute, DenseElementsAttr, DenseResourceAttr, DictionaryAttr, ResourceBlob, UNIT,
)
from ir.core import Block, Operation, Region, Value
from ir.location import UnknownLoc
from ir.resources import print_trailer
from ir.strings import key_text, quote_string, symbol_text
from ir.traits import IsolatedFromAbove
from ir.types import FunctionType, Type

_FUNC_PRETTY_KEYS = ("sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs")


@dataclass
class PrintOptions:
    generic: bool = False
    debuginfo: bool = False
    elide_large_constants: int | None = None
    """Constants with more elements than this print as ``dense_resource<__elided__>``."""


class _Printer:
    def __init__(self, options: PrintOptions) -> None:
        self.options = options
        self.out: list[str] = []
        self.names: dict[Value, str] = {}
        self.counters: list[int] = [0]
        self.arg_counters: list[int] = [0]
        self.block_names: dict[Block, str] = {}
        self.sig_cache: dict[tuple, str] = {}
        self.dict_cache: dict[tuple, str] = {}
        self.blobs: dict[str, ResourceBlob] = {}
        self.resource_names: dict[int, str] = {}
        self.special_attrs = options.elide_large_constants is not None

    # -- attributes ----------------------------------------------------------------------------
    def collect_resources(self, root: Operation) -> None:
        """Find dense_resource blobs to print in the trailer, renaming clashing keys."""
        limit = self.options.elide_large_constants
        for op in root.walk():
            for table in (op.properties, op.attributes):
                if not table:
                    continue
                for attr in table.values():
                    for found in _resources_in(attr):
                        blob = found.blob
                        if blob is None or (limit is not None and found.type.num_elements() > limit):
                            continue
                        key = found.key
                        owner = self.blobs.get(key)
                        if owner is blob:
                            continue
                        if owner is not None:
                            suffix = 1
                            while f"{key}_{suffix}" in self.blobs:
                                suffix += 1
                            key = f"{key}_{suffix}"
                            self.resource_names[id(found)] = key
                            self.special_attrs = True
                        self.blobs[key] = blob

    def attr_text(self, attr: Attribute) -> str:
        if not self.special_attrs:
            return str(attr)
        limit = self.options.elide_large_constants
        if isinstance(attr, DenseElementsAttr):
            if limit is not None and attr.array.size > limit:
                return f"dense_resource<__elided__> : {attr.type}"
        elif isinstance(attr, DenseResourceAttr):
            if limit is not None and attr.type.num_elements() > limit:
                return f"dense_resource<__elided__> : {attr.type}"
            renamed = self.resource_names.get(id(attr))
            if renamed is not None:
                return f"dense_resource<{key_text(renamed)}> : {attr.type}"
        elif isinstance(attr, ArrayAttr):
            return "[" + ", ".join(self.attr_text(a) for a in attr.elements) + "]"
        elif isinstance(attr, DictionaryAttr):
            return self.dict_text(attr.entries)
        return str(attr)

    def dict_text(self, items: tuple[tuple[str, Attribute], ...]) -> str:
        if not self.special_attrs:
            found = self.dict_cache.get(items)
            if found is not None:
                return found
        parts = [key_text(k) if v is UNIT else f"{key_text(k)} = {self.attr_text(v)}" for k, v in items]
        text = "{" + ", ".join(parts) + "}"
        if not self.special_attrs:
            self.dict_cache[items] = text
        return text

    # -- names -----------------------------------------------------------------------------
    def name_results(self, op: Operation) -> str:
        results = op.results
        if not results:
            return ""
        base = f"%{self.counters[-1]}"
        self.counters[-1] += 1
        names = self.names
        if len(results) == 1:
            names[results[0]] = base
            return base + " = "
        for index, result in enumerate(results):
            names[result] = f"{base}#{index}"
        return f"{base}:{len(results)} = "

    def value(self, value: Value) -> str:
        name = self.names.get(value)
        if name is None:
            return "%<<UNKNOWN SSA VALUE>>"
        return name

    def name_block_args(self, block: Block, entry_of_isolated: bool) -> None:
        for arg in block.args:
            if entry_of_isolated:
                self.names[arg] = f"%arg{self.arg_counters[-1]}"
                self.arg_counters[-1] += 1
            else:
                self.names[arg] = f"%{self.counters[-1]}"
                self.counters[-1] += 1

    def signature(self, op: Operation) -> str:
        key = (tuple(v.type for v in op.operands), tuple(r.type for r in op.results))
        text = self.sig_cache.get(key)
        if text is None:
            text = str(FunctionType(key[0], key[1]))
            self.sig_cache[key] = text
        return text

    def loc_suffix(self, op: Operation) -> str:
        if not self.options.debuginfo:
            return ""
        return f" {op.location}"

    # -- operations ------------------------------------------------------------------------
    def op(self, op: Operation, indent: str) -> None:
        if not self.options.generic:
            name = op.name
            if name == "builtin.module" and self.module_pretty(op, indent):
                return
            if name == "func.func" and self.func_pretty(op, indent):
                return
            if name == "func.return" and self.return_pretty(op, indent):
                return
        self.generic(op, indent)

    def generic(self, op: Operation, indent: str) -> None:
        head = self.name_results(op)
        names = self.names
        operands = ", ".join([names.get(v) or self.value(v) for v in op.operands])
        text = f'{indent}{head}"{op.name}"({operands})'
        if op.successors:
            text += "[" + ", ".join(self.block_name(b) for b in op.successors) + "]"
        if op.properties:
            text += " <" + self.dict_text(tuple(op.properties.items())) + ">"
        if op.regions:
            self.out.append(text + " (")
            isolated = op.has_trait(IsolatedFromAbove)
            for index, region in enumerate(op.regions):
                self.region(region, indent, isolated, print_entry_label=True)
                if index + 1 < len(op.regions):
                    self.out.append(", ")
            text = ")"
        if op.attributes:
            text += " " + self.dict_text(tuple(op.attributes.items()))
        text += " : " + self.signature(op) + self.loc_suffix(op) + "\n"
        self.out.append(text)

    def region(self, region: Region, indent: str, isolated: bool, print_entry_label: bool,
               entry_named: bool = False) -> None:
        """Print ``{ ... }`` (the caller prints what comes before and after)."""
        if isolated:
            self.counters.append(0)
            self.arg_counters.append(0)
        for index, block in enumerate(region.blocks):
            self.block_names[block] = f"^bb{index}"
        self.out.append("{\n")
        inner = indent + "  "
        for index, block in enumerate(region.blocks):
            if index == 0 and entry_named:
                pass
            else:
                self.name_block_args(block, isolated and index == 0)
            if index > 0 or (print_entry_label and block.args):
                args = ", ".join(f"{self.names[a]}: {a.type}" for a in block.args)
                label = self.block_names[block] + (f"({args})" if block.args else "")
                self.out.append(f"{indent}{label}:\n")
            for op in block.ops:
                self.op(op, inner)
        self.out.append(indent + "}")
        if isolated:
            self.counters.pop()
            self.arg_counters.pop()

    def block_name(self, block: Block) -> str:
        return self.block_names.get(block, "^<<UNKNOWN BLOCK>>")

    def module_pretty(self, op: Operation, indent: str) -> bool:
        if op.results or op.operands or len(op.regions) != 1 or len(op.regions[0].blocks) > 1:
            return False
        extra_props = {k: v for k, v in op.properties.items() if k != "sym_name"}
        if extra_props or (op.regions[0].blocks and op.regions[0].blocks[0].args):
            return False
        text = indent + "module"
        sym = op.properties.get("sym_name")
        if sym is not None:
            text += " " + symbol_text(sym.value)  # type: ignore[attr-defined]
        if op.attributes:
            text += " attributes " + self.dict_text(tuple(op.attributes.items()))
        self.out.append(text + " ")
        self.region(op.regions[0], indent, isolated=True, print_entry_label=False)
        self.out.append(self.loc_suffix(op) + "\n")
        return True

    def func_pretty(self, op: Operation, indent: str) -> bool:
        props = op.properties
        fn = props.get("function_type")
        sym = props.get("sym_name")
        if (fn is None or sym is None or not isinstance(getattr(fn, "type", None), FunctionType)
                or op.results or op.operands or len(op.regions) != 1):
            return False
        fn_type: FunctionType = fn.type  # type: ignore[attr-defined]
        region = op.regions[0]
        declaration = not region.blocks
        if not declaration and [a.type for a in region.blocks[0].args] != list(fn_type.inputs):
            return False
        arg_attrs = _dicts(props.get("arg_attrs"), len(fn_type.inputs))
        res_attrs = _dicts(props.get("res_attrs"), len(fn_type.results))
        if arg_attrs is None or res_attrs is None:
            return False
        extra = {k: v for k, v in props.items() if k not in _FUNC_PRETTY_KEYS}
        extra.update(op.attributes)
        text = indent + "func.func "
        vis = props.get("sym_visibility")
        if vis is not None:
            text += vis.value + " "  # type: ignore[attr-defined]
        text += symbol_text(sym.value) + "("  # type: ignore[attr-defined]
        self.counters.append(0)
        self.arg_counters.append(0)
        args = []
        for index, type in enumerate(fn_type.inputs):
            attrs = f" {self.dict_text(arg_attrs[index])}" if arg_attrs[index] else ""
            if declaration:
                args.append(f"{type}{attrs}")
            else:
                arg = region.blocks[0].args[index]
                self.names[arg] = f"%arg{index}"
                args.append(f"%arg{index}: {type}{attrs}")
        self.arg_counters[-1] = len(fn_type.inputs)
        text += ", ".join(args) + ")"
        results = fn_type.results
        if results:
            if len(results) == 1 and not res_attrs[0] and not isinstance(results[0], FunctionType):
                text += f" -> {results[0]}"
            else:
                parts = [f"{t} {self.dict_text(a)}" if a else str(t) for t, a in zip(results, res_attrs)]
                text += " -> (" + ", ".join(parts) + ")"
        if extra:
            text += " attributes " + self.dict_text(tuple(extra.items()))
        if declaration:
            self.out.append(text + self.loc_suffix(op) + "\n")
        else:
            self.out.append(text + " ")
            self.region(region, indent, isolated=False, print_entry_label=False, entry_named=True)
            self.out.append(self.loc_suffix(op) + "\n")
        self.counters.pop()
        self.arg_counters.pop()
        return True

    def return_pretty(self, op: Operation, indent: str) -> bool:
        if op.results or op.regions or op.properties or op.attributes or op.successors:
            return False
        parent = op.parent_op()
        if parent is None or parent.name != "func.func":
            return False
        if not op.operands:
            self.out.append(f"{indent}return{self.loc_suffix(op)}\n")
            return True
        values = ", ".join(self.value(v) for v in op.operands)
        types = ", ".join(str(v.type) for v in op.operands)
        self.out.append(f"{indent}return {values} : {types}{self.loc_suffix(op)}\n")
        return True


def _dicts(attr: Attribute | None, count: int) -> list[tuple] | None:
    if attr is None:
        return [()] * count
    if not isinstance(attr, ArrayAttr) or len(attr) != count:
        return None
    out = []
    for entry in attr.elements:
        if not isinstance(entry, DictionaryAttr):
            return None
        out.append(entry.entries)
    return out


def _resources_in(attr: Attribute) -> Iterator[DenseResourceAttr]:
    if isinstance(attr, DenseResourceAttr):
        yield attr
    elif isinstance(attr, ArrayAttr):
        for element in attr.elements:
            yield from _resources_in(element)
    elif isinstance(attr, DictionaryAttr):
        for _, value in attr.entries:
            yield from _resources_in(value)


def print_op(op: Operation, options: PrintOptions | None = None) -> str:
    """Print ``op`` (usually a module) and, after it, the trailer of the blobs it references."""
    printer = _Printer(options or PrintOptions())
    printer.collect_resources(op)
    printer.op(op, "")
    text = "".join(printer.out)
    if printer.blobs:
        text += "\n" + print_trailer(printer.blobs)
    return text


def print_type(t: Type) -> str:
    return str(t)


__all__ = ["PrintOptions", "print_op", "quote_string", "UnknownLoc"]
