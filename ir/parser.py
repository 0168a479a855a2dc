"""Text to IR: a lark LALR parser with an inline transformer that builds ops as it reduces.

SSA names are resolved in region scopes while parsing (forward references are placeholders,
patched when defined), types are interned by token text, and every op records where it was
parsed from. Errors are raised as ParseError with a file:line:col location.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ir.attributes import (
    FALSE, TRUE, UNIT, ArrayAttr, Attribute, DenseElementsAttr, DenseResourceAttr, DictionaryAttr,
    FloatAttr, IntegerAttr, OpaqueAttr, StringAttr, SymbolRefAttr, TypeAttr,
)
from ir.core import Block, Operation, Region, Value
from ir.dense_literal import DenseLiteralError, parse_dense_literal
from ir.diagnostics import UserError
from ir.location import UNKNOWN_LOC, FileLineColLoc, FusedLoc, Location, NameLoc
from ir.opdef import lookup_dialect, lookup_op
from ir.resources import Resources, ResourceSyntaxError, parse_trailer, split_trailer
from ir.strings import unquote_string
from ir.traits import IsolatedFromAbove
from ir.type_parser import TypeParser, TypeSyntaxError
from ir.types import F64, I64, FloatType, FunctionType, IndexType, IntegerType, RankedTensorType, Type

_GRAMMAR = Path(__file__).with_name("mlir.lark")
_ISOLATED_PRETTY = {"builtin.module", "func.func"}


class ParseError(UserError):
    """A syntax or name-resolution error at a source position."""


_STRING_RE = r'"(?:[^"\\\n]|\\.)*"'


def _nested(open_: str, close: str, atom: str, depth: int) -> str:
    """A regex for ``open ... close`` with up to ``depth`` nested levels and strings inside."""
    pattern = f"(?:{atom})*"
    for _ in range(depth):
        pattern = f"(?:{atom}|{open_}{pattern}{close})*"
    return f"{open_}{pattern}{close}"


def _grammar_text() -> str:
    angle = _nested("<", ">", rf'->|[^<>"]|{_STRING_RE}', 5)
    braced = _nested(r"\{", r"\}", rf'[^{{}}"]|{_STRING_RE}', 5)
    parens = _nested(r"\(", r"\)", rf'->|[^()<>"]|{_STRING_RE}|{angle}', 3)
    return (_GRAMMAR.read_text().replace("@NESTED@", angle).replace("@BRACED@", braced)
            .replace("@PARENS@", parens))


def _cache_path() -> str | bool:
    """Where lark keeps its analysed grammar between runs (halves npu-opt's start-up)."""
    import os
    import tempfile
    directory = os.path.join(tempfile.gettempdir(), f"npu-opt-{os.getuid() if hasattr(os, 'getuid') else 0}")
    try:
        os.makedirs(directory, exist_ok=True)
    except OSError:
        return False
    return os.path.join(directory, "mlir-grammar.lark-cache")


@functools.lru_cache(maxsize=1)
def _lark_with_builder() -> tuple[Lark, "_Builder"]:
    builder = _Builder()
    parser = Lark(_grammar_text(), parser="lalr", lexer="contextual",
                  start=["start", "attribute_only", "attr_dict_only"],
                  maybe_placeholders=True, transformer=builder, cache=_cache_path())
    return parser, builder


_VALUE_NAME = re.compile(r"%[A-Za-z0-9_$.\-]+(?:#[0-9]+)?")
_RESULT_NAME = re.compile(r"(%[A-Za-z0-9_$.\-]+)(?::([0-9]+))?")


class _Forward(Value):
    """Placeholder for an SSA value used before its definition."""

    __slots__ = ("name", "token", "offset")

    def __init__(self, type: Type, name: str, token: Token, offset: int) -> None:
        self.type = type
        self.uses = []
        self.name = name
        self.token = token
        self.offset = offset


@dataclass
class _Scope:
    isolated: bool
    values: dict[str, list[Value]] = field(default_factory=dict)
    forward: dict[str, _Forward] = field(default_factory=dict)
    blocks: dict[str, Block] = field(default_factory=dict)
    defined_blocks: set[str] = field(default_factory=set)
    entry: Block | None = None


@dataclass
class ParseOptions:
    allow_unregistered: bool = False


class _State:
    """Per-parse mutable state of the builder."""

    def __init__(self, filename: str, options: ParseOptions, resources: Resources) -> None:
        self.filename = filename
        self.options = options
        self.resources = resources
        self.scopes: list[_Scope] = [_Scope(isolated=True)]
        self.op_stack: list[str] = []
        self.pending_entry: Block | None = None
        self.pending_arg_names: list[tuple[Token, Value]] = []
        self.dict_cache: dict[str, dict[str, Attribute]] = {}
        self.signature_cache: dict[str, FunctionType] = {}


def _pos(state: _State, token: Token) -> FileLineColLoc:
    return FileLineColLoc(state.filename, token.line, token.column)  # type: ignore[arg-type]


def _error(state: _State, message: str, token: Token | None, offset: int = 0) -> ParseError:
    if token is None or token.line is None:
        return ParseError(message, FileLineColLoc(state.filename, 1, 1))
    return ParseError(message, FileLineColLoc(state.filename, token.line, token.column + offset))  # type: ignore[operator]


def _parse_int(text: str) -> int:
    if "x" in text:
        sign = -1 if text.startswith("-") else 1
        return sign * int(text.lstrip("+-"), 16)
    return int(text)


class _Builder(Transformer):
    """Inline transformer: each callback runs when its rule is reduced."""

    def __init__(self) -> None:
        super().__init__(visit_tokens=False)
        self.state: _State = None  # type: ignore[assignment]
        self.type_parser = TypeParser(self._parse_attribute_text, self._dialect_attr)
        self._attr_cache: dict[str, Attribute] = {}

    # -- helpers ---------------------------------------------------------------------------
    def _parse_attribute_text(self, text: str) -> Attribute:
        parser, _ = _lark_with_builder()
        return parser.parse(text, start="attribute_only")

    def _check_dialect(self, dialect: str, what: str, token: Token | None) -> None:
        if self.state.options.allow_unregistered or lookup_dialect(dialect) is not None:
            return
        raise _error(self.state, f"{what} of unregistered dialect '{dialect}'; use "
                     "--allow-unregistered-dialect to accept it", token)

    def _dialect_attr(self, dialect: str, name: str, body: str | None) -> Attribute:
        registered = lookup_dialect(dialect)
        if registered is not None and name in registered.attribute_parsers:
            return registered.attribute_parsers[name](body)
        if registered is None and self.state is not None and not self.state.options.allow_unregistered:
            raise TypeSyntaxError(f"attribute '#{dialect}.{name}' of unregistered dialect '{dialect}'; "
                                  "use --allow-unregistered-dialect to accept it")
        return OpaqueAttr(dialect, name, body)

    def _type(self, token: Token) -> Type:
        try:
            t = self.type_parser.parse(str(token))
        except TypeSyntaxError as err:
            raise _error(self.state, str(err), token, err.offset) from None
        if token.type == "DIALECT_TYPE" and not token.startswith("!quant."):
            self._check_dialect(token[1:].split(".", 1)[0].split("<", 1)[0], "type", token)
        return t

    def _lookup(self, token: str, type: Type, anchor: Token | None = None) -> Value:
        """Resolve a use of ``token`` (``%x`` or ``%x#1``) expected to have ``type``."""
        state = self.state
        if anchor is None:
            anchor = token  # type: ignore[assignment]
            offset = 0
        else:
            offset = anchor.find(token)
        name, _, number = token.partition("#")
        index = int(number) if number else 0
        for scope in reversed(state.scopes):
            group = scope.values.get(name)
            if group is not None:
                if index >= len(group):
                    raise _error(state, f"result number {index} out of range for '{name}' "
                                 f"({len(group)} results)", anchor, offset)
                value = group[index]
                break
            forward = scope.forward.get(token)
            if forward is not None:
                value = forward
                break
            if scope.isolated:
                scope = state.scopes[-1]
                value = _Forward(type, str(token), anchor, offset)
                scope.forward[str(token)] = value
                return value
        else:  # pragma: no cover - the outermost scope is isolated
            raise _error(state, f"use of undeclared SSA value name '{token}'", anchor, offset)
        if value.type is not type:
            raise _error(state, f"use of value '{token}' expects different type than prior uses: "
                         f"'{type}' vs '{value.type}'", anchor, offset)
        return value

    def _define(self, name: str, values: list[Value], anchor: Token, offset: int = 0) -> None:
        state = self.state
        if "#" in name:
            raise _error(state, f"expected an SSA value name without '#', found '{name}'", anchor, offset)
        for scope in reversed(state.scopes):
            if name in scope.values:
                raise _error(state, f"redefinition of SSA value '{name}'", anchor, offset)
            if scope.isolated:
                break
        scope = state.scopes[-1]
        scope.values[name] = values
        for index, value in enumerate(values):
            key = name if index == 0 and len(values) == 1 else f"{name}#{index}"
            for candidate in (key, name) if index == 0 else (key,):
                forward = scope.forward.pop(candidate, None)
                if forward is None:
                    continue
                if forward.type is not value.type:
                    raise _error(state, f"use of value '{candidate}' expects different type than "
                                 f"prior uses: '{forward.type}' vs '{value.type}'", forward.token,
                                 forward.offset)
                for user, operand_index in forward.uses:
                    user.operands[operand_index] = value
                    value.uses.append((user, operand_index))

    def _block(self, token: Token) -> Block:
        scope = self.state.scopes[-1]
        block = scope.blocks.get(str(token))
        if block is None:
            block = Block()
            scope.blocks[str(token)] = block
        return block

    def _make_op(self, name_token: Token, name: str, operands: list[Value], result_types: tuple[Type, ...],
                 attributes: dict[str, Attribute] | None, properties: dict[str, Attribute] | None,
                 regions: list[Region], successors: list[Block]) -> Operation:
        cls = lookup_op(name)
        if cls is None:
            dialect = name.split(".", 1)[0]
            registered = lookup_dialect(dialect)
            if registered is not None and not registered.allow_unknown_ops and not self.state.options.allow_unregistered:
                raise _error(self.state, f"unregistered operation '{name}' found in dialect "
                             f"('{dialect}') that does not allow unknown operations", name_token)
            if registered is None and not self.state.options.allow_unregistered:
                raise _error(self.state, f"operation '{name}' of unregistered dialect '{dialect}'; "
                             "use --allow-unregistered-dialect to accept it", name_token)
            cls = Operation
        pos = _pos(self.state, name_token)
        return cls(name, operands, result_types, attributes, properties, regions, successors,
                   location=pos, pos=pos)

    # -- operations ------------------------------------------------------------------------
    def start(self, children: list[Operation]) -> list[Operation]:
        return children

    def attribute_only(self, children: list[Attribute]) -> Attribute:
        return children[0]

    def attr_dict_only(self, children: list[dict[str, Attribute]]) -> dict[str, Attribute]:
        return children[0]

    def operation(self, children: list[Any]) -> Operation:
        results, op, loc = children
        if results is not None:
            defs = [(m.group(1), int(m.group(2) or 1), m.start()) for m in _RESULT_NAME.finditer(results)]
            expected = sum(count for _, count, _ in defs)
            if expected != len(op.results):
                raise _error(self.state, f"operation defines {len(op.results)} results but was "
                             f"provided {expected} to bind", results)
            start = 0
            for name, count, offset in defs:
                self._define(name, list(op.results[start:start + count]), results, offset)
                start += count
            op.pos = _pos(self.state, results)
            op.location = op.pos
        if loc is not None:
            op.location = loc
        return op

    def op_name(self, children: list[Token]) -> Token:
        self.state.op_stack.append(unquote_string(children[0]))
        return children[0]

    def value_uses(self, children: list[Token]) -> list[Token]:
        return children

    def successors(self, children: list[Token]) -> list[Block]:
        return [self._block(t) for t in children]

    def attr_entries(self, children: list[tuple[str, Attribute]]) -> dict[str, Attribute]:
        return dict(children)

    def attr_dict(self, children: list[Any]) -> dict[str, Attribute]:
        return children[0] or {}

    def attr_entry(self, children: list[Any]) -> tuple[str, Attribute]:
        key, value = children
        name = unquote_string(key) if key.type == "STRING" else str(key)
        return name, (UNIT if value is None else value)

    def regions(self, children: list[Region]) -> list[Region]:
        return children

    def generic_op(self, children: list[Any]) -> Operation:
        name_token, operands_token, successors, props_token, regions, attrs_token, sig_token = children
        name = self.state.op_stack.pop()
        fn_type = self._signature(sig_token)
        uses = _VALUE_NAME.findall(operands_token)
        if len(uses) != len(fn_type.inputs):
            raise _error(self.state, f"expected {len(uses)} operand type{'s' if len(uses) != 1 else ''} "
                         f"but had {len(fn_type.inputs)}", sig_token)
        if uses:
            operands = [self._lookup(name_, t, operands_token) for name_, t in zip(uses, fn_type.inputs)]
        else:
            operands = []
        props = self._dictionary(props_token, 1) if props_token is not None else None
        attrs = self._dictionary(attrs_token, 0) if attrs_token is not None else None
        return self._make_op(name_token, name, operands, fn_type.results, attrs, props,
                             regions or [], successors or [])

    def _dictionary(self, token: Token, skip: int) -> dict[str, Attribute]:
        """Decode a ``{...}`` (or ``<{...}>`` when skip=1) token, once per distinct text."""
        text = token[skip:len(token) - skip] if skip else str(token)
        cache = self.state.dict_cache
        found = cache.get(text)
        if found is None:
            found = self._sub_parse(text, "attr_dict_only", token, skip)
            cache[text] = found
        return dict(found)

    def _signature(self, token: Token) -> FunctionType:
        cache = self.state.signature_cache
        found = cache.get(token)
        if found is None:
            colon = token.index("(")
            body = token[colon:]
            found = self._sub_parse(body, "attribute_only", token, colon)
            if not isinstance(found, TypeAttr) or not isinstance(found.type, FunctionType):
                raise _error(self.state, "expected a function type for the operation", token)
            found = found.type
            cache[str(token)] = found
        return found

    def _sub_parse(self, text: str, start: str, token: Token, offset: int) -> Any:
        """Parse the text of a coarse token with the fine-grained rules, keeping error positions."""
        parser, _ = _lark_with_builder()
        try:
            return parser.parse(text, start=start)
        except UnexpectedInput as err:
            inner = _translate(err, text, self.state.filename, parser)
            loc = inner.diagnostic.location
            assert isinstance(loc, FileLineColLoc)
            line = token.line + loc.line - 1  # type: ignore[operator]
            col = token.column + offset + loc.col - 1 if loc.line == 1 else loc.col  # type: ignore[operator]
            raise ParseError(inner.diagnostic.message, FileLineColLoc(self.state.filename, line, col)) from None
        except ParseError as err:
            loc = err.diagnostic.location
            if isinstance(loc, FileLineColLoc) and loc.line <= 1 and token.line is not None:
                err.diagnostic.location = FileLineColLoc(self.state.filename, token.line,
                                                         token.column + offset + loc.col - 1)
            raise

    def module_kw(self, children: list[Token]) -> Token:
        self.state.op_stack.append("builtin.module")
        return children[0]

    def module_op(self, children: list[Any]) -> Operation:
        kw, symbol, attrs, region = children
        self.state.op_stack.pop()
        props: dict[str, Attribute] = {}
        if symbol is not None:
            props["sym_name"] = StringAttr(self._symbol_name(symbol))
        op = self._make_op(kw, "builtin.module", [], (), attrs, props, [region], [])
        return op

    def _symbol_name(self, token: Token) -> str:
        body = token[1:]
        return unquote_string(body) if body.startswith('"') else body

    def func_kw(self, children: list[Token]) -> Token:
        return children[0]

    def func_head(self, children: list[Token]) -> tuple[Token, Token | None, Token]:
        keyword, visibility, symbol = children
        self.state.op_stack.append("func.func")
        self.state.pending_entry = Block()
        self.state.pending_arg_names = []
        return keyword, visibility, symbol

    def func_named_arg(self, children: list[Any]) -> tuple[Type, dict | None, Location | None]:
        token, type, attrs, loc = children
        block = self.state.pending_entry
        assert block is not None
        arg = block.add_arg(type)
        self.state.pending_arg_names.append((token, arg))
        return type, attrs, loc

    def func_type_arg(self, children: list[Any]) -> tuple[Type, dict | None, None]:
        return children[0], children[1], None

    def func_args(self, children: list[Any]) -> list[Any]:
        return children

    def func_results(self, children: list[Any]) -> list[tuple[Type, dict | None]]:
        result = children[0]
        return result if isinstance(result, list) else [(result, None)]

    def func_op(self, children: list[Any]) -> Operation:
        head, args, results, attrs, region = children
        name_token, visibility, symbol = head
        self.state.op_stack.pop()
        args = args or []
        results = results or []
        fn_type = FunctionType([a[0] for a in args], [r[0] for r in results])
        props: dict[str, Attribute] = {"sym_name": StringAttr(self._symbol_name(symbol)),
                                       "function_type": TypeAttr(fn_type)}
        if visibility is not None:
            props["sym_visibility"] = StringAttr(str(visibility))
        if any(a[1] for a in args):
            props["arg_attrs"] = ArrayAttr([DictionaryAttr(a[1] or {}) for a in args])
        if any(r[1] for r in results):
            props["res_attrs"] = ArrayAttr([DictionaryAttr(r[1] or {}) for r in results])
        regions = [region] if region is not None else [Region()]
        op = self._make_op(name_token, "func.func", [], (), attrs, props, regions, [])
        self.state.pending_entry = None
        if region is None and args and self.state.pending_arg_names:
            raise _error(self.state, "a function declaration takes argument types, not named arguments",
                         name_token)
        return op

    def types(self, children: list[Type]) -> list[Type]:
        return children

    def return_kw(self, children: list[Token]) -> Token:
        return children[0]

    def return_op(self, children: list[Any]) -> Operation:
        kw, uses, types = children
        uses = uses or []
        types = types or []
        if len(uses) != len(types):
            raise _error(self.state, f"expected {len(uses)} types to match the returned values, "
                         f"found {len(types)}", kw)
        operands = [self._lookup(tok, t) for tok, t in zip(uses, types)]
        return self._make_op(kw, "func.return", operands, (), None, None, [], [])

    # -- regions ---------------------------------------------------------------------------
    def region_open(self, children: list[Token]) -> Block | None:
        state = self.state
        owner = state.op_stack[-1] if state.op_stack else ""
        cls = lookup_op(owner)
        isolated = owner in _ISOLATED_PRETTY or (cls is not None and cls.has_trait(cls, IsolatedFromAbove))  # type: ignore[arg-type]
        scope = _Scope(isolated=isolated)
        state.scopes.append(scope)
        if owner == "func.func" and state.pending_entry is not None:
            scope.entry = state.pending_entry
            for token, arg in state.pending_arg_names:
                self._define(str(token), [arg], token)
            state.pending_entry = None
        return None

    def region(self, children: list[Any]) -> Region:
        state = self.state
        scope = state.scopes.pop()
        region = Region()
        entry_ops = [c for c in children[1:] if isinstance(c, Operation)]
        blocks = [c for c in children[1:] if isinstance(c, Block)]
        entry = scope.entry
        if entry is not None or entry_ops or not blocks:
            if entry is None:
                entry = Block()
            if entry_ops or entry.args or scope.entry is not None or not blocks:
                for op in entry_ops:
                    entry.append(op)
                if entry_ops or entry.args or scope.entry is not None:
                    region.add_block(entry)
        for block in blocks:
            region.add_block(block)
        for name, block in scope.blocks.items():
            if name not in scope.defined_blocks:
                raise _error(state, f"reference to an undefined block '{name}'", None)
        if scope.forward:
            if scope.isolated or len(state.scopes) == 0:
                token = next(iter(scope.forward.values())).token
                forward = next(iter(scope.forward.values()))
                raise _error(state, f"use of undeclared SSA value name '{forward.name}'",
                             forward.token, forward.offset)
            state.scopes[-1].forward.update(scope.forward)
        return region

    def block_label(self, children: list[Any]) -> Block:
        token, args = children
        scope = self.state.scopes[-1]
        if str(token) in scope.defined_blocks:
            raise _error(self.state, f"redefinition of block '{token}'", token)
        scope.defined_blocks.add(str(token))
        block = self._block(token)
        for arg_token, type, loc in args or []:
            arg = block.add_arg(type)
            self._define(str(arg_token), [arg], arg_token)
        return block

    def block_args(self, children: list[Any]) -> list[Any]:
        return children

    def block_arg(self, children: list[Any]) -> tuple[Token, Type, Location | None]:
        return children[0], children[1], children[2]

    def block(self, children: list[Any]) -> Block:
        block = children[0]
        for op in children[1:]:
            block.append(op)
        return block

    # -- locations -------------------------------------------------------------------------
    def op_loc(self, children: list[Location]) -> Location:
        return children[0]

    def loc_unknown(self, children: list[Any]) -> Location:
        return UNKNOWN_LOC

    def loc_file(self, children: list[Token]) -> Location:
        return FileLineColLoc(unquote_string(children[0]), int(children[1]), int(children[2]))

    def loc_name(self, children: list[Any]) -> Location:
        return NameLoc(unquote_string(children[0]), children[1])

    def loc_fused(self, children: list[Location]) -> Location:
        return FusedLoc(tuple(children))

    # -- types -----------------------------------------------------------------------------
    def non_fn_type(self, children: list[Token]) -> Type:
        return self._type(children[0])

    def type_item(self, children: list[Any]) -> tuple[Type, dict | None]:
        return children[0], children[1]

    def type_items(self, children: list[Any]) -> list[tuple[Type, dict | None]]:
        return children

    def paren_types(self, children: list[Any]) -> list[tuple[Type, dict | None]]:
        return children[0] or []

    def function_type(self, children: list[Any]) -> FunctionType:
        inputs, results = children
        if not isinstance(results, list):
            results = [(results, None)]
        for _, attrs in inputs + results:
            if attrs is not None:
                raise _error(self.state, "attribute dictionaries are only allowed on func.func results", None)
        return FunctionType([t for t, _ in inputs], [t for t, _ in results])

    # -- attributes ------------------------------------------------------------------------
    def int_attr(self, children: list[Any]) -> Attribute:
        token, type = children
        value = _parse_int(token)
        if type is None:
            type = I64
        try:
            if isinstance(type, FloatType):
                from ir.attributes import float_from_bits
                if "x" not in token:
                    return FloatAttr(float(value), type)
                return FloatAttr(float_from_bits(value, type), type)
            if not isinstance(type, (IntegerType, IndexType)):
                raise ValueError(f"integer literal not valid for specified type '{type}'")
            return IntegerAttr(value, type)
        except ValueError as err:
            raise _error(self.state, str(err), token) from None

    def float_attr(self, children: list[Any]) -> Attribute:
        token, type = children
        if type is None:
            type = F64
        if not isinstance(type, FloatType):
            raise _error(self.state, f"floating point value not valid for specified type '{type}'", token)
        return FloatAttr(float(token), type)

    def true_attr(self, children: list[Any]) -> Attribute:
        return TRUE

    def false_attr(self, children: list[Any]) -> Attribute:
        return FALSE

    def unit_attr(self, children: list[Any]) -> Attribute:
        return UNIT

    def string_attr(self, children: list[Any]) -> Attribute:
        try:
            return StringAttr(unquote_string(children[0]))
        except ValueError as err:
            raise _error(self.state, str(err), children[0]) from None

    def attr_list(self, children: list[Attribute]) -> list[Attribute]:
        return children

    def array_attr(self, children: list[Any]) -> Attribute:
        return ArrayAttr(children[0] or [])

    def dict_attr(self, children: list[dict[str, Attribute]]) -> Attribute:
        return DictionaryAttr(children[0])

    def symbol_attr(self, children: list[Token]) -> Attribute:
        names = [self._symbol_name(t) for t in children]
        return SymbolRefAttr(names[0], names[1:])

    def type_attr(self, children: list[Type]) -> Attribute:
        return TypeAttr(children[0])

    def dense_attr(self, children: list[Any]) -> Attribute:
        token, type = children
        if not isinstance(type, RankedTensorType):
            raise _error(self.state, f"dense attribute needs a ranked tensor type, not '{type}'", token)
        try:
            array = parse_dense_literal(token[len("dense<"):-1], type)
            return DenseElementsAttr(type, array)
        except (DenseLiteralError, ValueError) as err:
            raise _error(self.state, str(err), token) from None

    def dense_resource_attr(self, children: list[Any]) -> Attribute:
        token, type = children
        if not isinstance(type, RankedTensorType):
            raise _error(self.state, f"dense_resource needs a ranked tensor type, not '{type}'", token)
        key = token[len("dense_resource<"):-1].strip()
        if key.startswith('"'):
            key = unquote_string(key)
        blob = self.state.resources.blobs.get("builtin", {}).get(key)
        if blob is not None:
            expected = type.num_elements() * max(1, _element_bytes(type))
            if len(blob.data) != expected:
                raise _error(self.state, f"resource '{key}' holds {len(blob.data)} bytes but "
                             f"'{type}' needs {expected}", token)
        return DenseResourceAttr(type, key, blob)

    def dialect_attr(self, children: list[Token]) -> Attribute:
        token = children[0]
        cached = self._attr_cache.get(token)
        if cached is not None and (self.state.options.allow_unregistered or not isinstance(cached, OpaqueAttr)):
            return cached
        from ir.type_parser import dialect_parts
        try:
            attr = self._dialect_attr(*dialect_parts(str(token)))
        except (TypeSyntaxError, ValueError) as err:
            raise _error(self.state, str(err), token) from None
        self._attr_cache[str(token)] = attr
        return attr


def _element_bytes(type: RankedTensorType) -> int:
    from ir.attributes import numpy_dtype
    try:
        return numpy_dtype(type.element_type).itemsize
    except ValueError:
        return 1


_TERMINAL_NAMES = {
    "VALUE": "SSA value", "CARET_ID": "block name", "SYMBOL": "symbol name", "STRING": "string",
    "BARE_ID": "identifier", "FLOAT": "float", "INT": "integer", "BUILTIN_TYPE": "type",
    "TENSOR_TYPE": "tensor type", "DIALECT_TYPE": "dialect type", "DIALECT_ATTR": "dialect attribute",
    "DENSE": "dense attribute", "DENSE_RESOURCE": "dense_resource attribute",
    "LPAR": "'('", "RPAR": "')'", "LBRACE": "'{'", "RBRACE": "'}'", "LSQB": "'['", "RSQB": "']'",
    "COLON": "':'", "COMMA": "','", "EQUAL": "'='", "MORETHAN": "'>'", "LESSTHAN": "'<'",
    "__ANON_0": "'->'", "_END": "end of file", "$END": "end of file",
}
_BARE_AT = re.compile(r"[A-Za-z_][A-Za-z0-9_$.]*")


def _describe_expected(parser: Lark, expected: set[str]) -> str:
    names = []
    terminals = {t.name: t for t in parser.terminals}
    for name in sorted(expected):
        if name in _TERMINAL_NAMES:
            names.append(_TERMINAL_NAMES[name])
        elif name in terminals and terminals[name].pattern.type == "str":
            names.append(f"'{terminals[name].pattern.value}'")
        else:
            names.append(name.lower())
    names = sorted(set(names))
    if len(names) > 6:
        names = names[:6] + ["..."]
    return ", ".join(names)


def _translate(err: UnexpectedInput, text: str, filename: str, parser: Lark) -> ParseError:
    line, col = err.line, err.column
    if isinstance(err, UnexpectedCharacters):
        char = text[err.pos_in_stream] if err.pos_in_stream < len(text) else ""
        word = _BARE_AT.match(text, err.pos_in_stream)
        if char == '"':
            message = "unterminated string (expected '\"' before the end of the line)"
        elif word and ("STRING" in err.allowed or "VALUE" in err.allowed) and "." in word.group(0):
            message = (f"custom assembly form of '{word.group(0)}' is not supported; write the op in "
                       "generic form (\"name\"(operands) : (types) -> types)")
        elif word:
            message = f"unexpected '{word.group(0)[:40]}'; expected {_describe_expected(parser, err.allowed)}"
        else:
            shown = repr(char)[1:-1] if char else "end of input"
            message = f"unexpected character '{shown}'; expected {_describe_expected(parser, err.allowed)}"
    elif isinstance(err, UnexpectedEOF):
        message = f"unexpected end of file; expected {_describe_expected(parser, set(err.expected))}"
        lines = text.split("\n")
        line, col = len(lines), len(lines[-1]) + 1
    else:
        assert isinstance(err, UnexpectedToken)
        token = err.token
        if token.type == "$END":
            lines = text.split("\n")
            line, col = len(lines), len(lines[-1]) + 1
            message = f"unexpected end of file; expected {_describe_expected(parser, err.expected)}"
        else:
            message = f"unexpected '{str(token)[:40]}'; expected {_describe_expected(parser, err.expected)}"
    return ParseError(message, FileLineColLoc(filename, line or 1, col or 1))


def parse_ops(text: str, filename: str = "<stdin>", options: ParseOptions | None = None) -> tuple[list[Operation], Resources]:
    """Parse IR text to its top-level ops and resources. Raises ParseError."""
    options = options or ParseOptions()
    body, trailer, trailer_at = split_trailer(text)
    resources = Resources()
    if trailer is not None:
        try:
            resources = parse_trailer(trailer)
        except ResourceSyntaxError as err:
            absolute = trailer_at + err.offset
            line = text.count("\n", 0, absolute) + 1
            col = absolute - (text.rfind("\n", 0, absolute) + 1) + 1
            raise ParseError(str(err), FileLineColLoc(filename, line, col)) from None
    parser, builder = _lark_with_builder()
    builder.state = _State(filename, options, resources)
    try:
        ops = parser.parse(body, start="start")
    except UnexpectedInput as err:
        raise _translate(err, body, filename, parser) from None
    except RecursionError:
        raise ParseError("input is nested too deeply", FileLineColLoc(filename, 1, 1)) from None
    finally:
        state = builder.state
        builder.state = None  # type: ignore[assignment]
    scope = state.scopes[0]
    if scope.forward:
        forward = next(iter(scope.forward.values()))
        raise _error(state, f"use of undeclared SSA value name '{forward.name}'", forward.token, forward.offset)
    return ops, resources


def parse_module(text: str, filename: str = "<stdin>", options: ParseOptions | None = None) -> Operation:
    """Parse IR text into one ``builtin.module`` (top-level ops are wrapped in one, as MLIR does)."""
    ops, _ = parse_ops(text, filename, options)
    if len(ops) == 1 and ops[0].name == "builtin.module":
        return ops[0]
    cls = lookup_op("builtin.module") or Operation
    block = Block()
    for op in ops:
        block.append(op)
    module = cls("builtin.module", regions=[Region([block])], location=FileLineColLoc(filename, 1, 1))
    return module
