"""IR to text: pretty forms for builtin.module, func.func and func.return, generic form otherwise.

Printing is deterministic: values are numbered ``%0, %1, ...`` per isolated region in program
order, entry-block arguments of isolated ops are ``%argN``. Text is built in a list and joined once;
types and attributes cache their own text, so printing stays well above 100k ops/s.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Iterator

from npu_opt.ir.attributes import (
    ArrayAttr, Attribute, DenseElementsAttr, DenseResourceAttr, DictionaryAttr, ResourceBlob, StringAttr,
    TypeAttr, UNIT,
)
from npu_opt.ir.core import Block, BlockArgument, Operation, OpResult, Region, Value
from npu_opt.ir.location import UnknownLoc
from npu_opt.ir.resources import trailer_parts
from npu_opt.ir.strings import key_text, quote_string, symbol_text
from npu_opt.ir.traits import IsolatedFromAbove
from npu_opt.ir.types import FunctionType, Type

_op_name_text = functools.lru_cache(maxsize=4096)(quote_string)
"""An op name as the generic form prints it: quoted, with quotes and backslashes escaped."""

_FUNC_PRETTY_KEYS = ("sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs")
_VISIBILITIES = ("public", "private", "nested")
_NO_NAME = StringAttr("")


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
        self.root: Operation | None = None

    # -- attributes ----------------------------------------------------------------------------
    def collect_resources(self, root: Operation) -> None:
        """Find dense_resource blobs to print in the trailer, renaming clashing keys.

        A key is renamed (``key_1``, ...) when it already names another blob, or when some
        dense_resource without data (or an elided one) uses it: on reading the text back, that
        reference would otherwise bind to this blob.
        """
        limit = self.options.elide_large_constants
        found_all = [found for op in root.walk() for table in (op.properties, op.attributes) if table
                     for attr in table.values() for found in _resources_in(attr)]
        if not found_all:
            return
        reserved = {found.key for found in found_all if found.blob is None}
        if limit is not None:
            reserved.add("__elided__")
        assigned: dict[tuple[str, int], str] = {}
        for found in found_all:
            blob = found.blob
            if blob is None or (limit is not None and found.type.num_elements() > limit):
                continue
            key = assigned.get((found.key, id(blob)))
            if key is None:
                key = found.key
                if key in reserved or (key in self.blobs and self.blobs[key] is not blob):
                    suffix = 1
                    while f"{key}_{suffix}" in self.blobs or f"{key}_{suffix}" in reserved:
                        suffix += 1
                    key = f"{key}_{suffix}"
                assigned[(found.key, id(blob))] = key
                self.blobs[key] = blob
            if key != found.key:
                self.resource_names[id(found)] = key
                self.special_attrs = True

    def attr_text(self, attr: Attribute) -> str:
        if not self.special_attrs:
            return str(attr)
        limit = self.options.elide_large_constants
        if isinstance(attr, DenseElementsAttr):
            if limit is not None and attr.array.size > limit and not attr.is_splat():  # as MLIR does
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
        names = self.names
        named = names.get(results[0])
        if named is not None:  # already named by a use printed before this definition
            base = named.partition("#")[0]
        else:
            base = f"%{self.counters[-1]}"
            self.counters[-1] += 1
            if len(results) == 1:
                names[results[0]] = base
            else:
                for index, result in enumerate(results):
                    names[result] = f"{base}#{index}"
        if len(results) == 1:
            return base + " = "
        return f"{base}:{len(results)} = "

    def value(self, value: Value) -> str:
        name = self.names.get(value)
        if name is None:
            return self.forward_name(value)
        return name

    def forward_name(self, value: Value) -> str:
        """Name a value used before its definition is printed (a block that is printed later may
        dominate the use); the definition then reuses the name."""
        if isinstance(value, OpResult) and self.is_printed(value.op.parent):
            self.name_results(value.op)
            return self.names[value]
        if isinstance(value, BlockArgument) and self.is_printed(value.block):
            name = self.names[value] = f"%{self.counters[-1]}"
            self.counters[-1] += 1
            return name
        return "%<<UNKNOWN SSA VALUE>>"

    def is_printed(self, block: Block | None) -> bool:
        """Whether ``block`` is inside the op being printed (so its values get names)."""
        while block is not None and block.parent is not None:
            op = block.parent.parent
            if op is self.root:
                return True
            block = op.parent if op is not None else None
        return False

    def name_block_args(self, block: Block, entry_of_isolated: bool) -> None:
        for arg in block.args:
            if arg in self.names:
                continue
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

    def arg_loc(self, arg: BlockArgument) -> str:
        """`` loc(...)`` after a block argument, with --print-debuginfo, when it has a location."""
        if not self.options.debuginfo or arg.location is None:
            return ""
        return f" {arg.location}"

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
        text = f'{indent}{head}{_op_name_text(op.name)}({operands})'
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
        entry_label = print_entry_label and _needs_entry_label(region)
        for index, block in enumerate(region.blocks):
            if index == 0 and entry_named:
                pass
            else:
                self.name_block_args(block, isolated and index == 0)
            if index > 0 or entry_label:
                args = ", ".join(f"{self.names[a]}: {a.type}{self.arg_loc(a)}" for a in block.args)
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
        if (op.results or op.operands or op.successors or len(op.regions) != 1
                or len(op.regions[0].blocks) > 1):
            return False
        extra_props = {k: v for k, v in op.properties.items() if k != "sym_name"}
        if extra_props or (op.regions[0].blocks and op.regions[0].blocks[0].args):
            return False
        if not isinstance(op.properties.get("sym_name", _NO_NAME), StringAttr):
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
        vis = props.get("sym_visibility")
        if (not isinstance(fn, TypeAttr) or not isinstance(fn.type, FunctionType) or not isinstance(sym, StringAttr)
                or op.results or op.operands or op.successors or len(op.regions) != 1
                or not (vis is None or (isinstance(vis, StringAttr) and vis.value in _VISIBILITIES))):
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
                args.append(f"%arg{index}: {type}{attrs}{self.arg_loc(arg)}")
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


def _needs_entry_label(region: Region) -> bool:
    """Whether the entry block needs its ``^bb0`` label: it has arguments, or it is empty (without
    the label it would vanish, or a following block would become the entry), or a branch targets it."""
    blocks = region.blocks
    if not blocks:
        return False
    entry = blocks[0]
    if entry.args or entry.first is None:
        return True
    for block in blocks:
        op = block.first
        while op is not None:
            if op.successors and entry in op.successors:
                return True
            op = op.next
    return False


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
    printer.root = op
    printer.collect_resources(op)
    printer.op(op, "")
    if printer.blobs:
        printer.out.append("\n")
        printer.out += trailer_parts(printer.blobs)
    return "".join(printer.out)


def print_type(t: Type) -> str:
    return str(t)


__all__ = ["PrintOptions", "print_op", "quote_string", "UnknownLoc"]
