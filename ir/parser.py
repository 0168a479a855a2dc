"""Text to IR: a lark LALR parser with an inline transformer that builds ops as it reduces.

SSA names are resolved in region scopes while parsing (forward references are placeholders,
patched when defined), types are interned by token text, and every op records where it was
parsed from. Errors are raised as ParseError with a file:line:col location.
"""
from __future__ import annotations

import functools
import gc
import os
import re
from dataclasses import dataclass, field
from typing import Any

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedInput

from npu_opt.ir.attributes import Attribute, OpaqueAttr, StringAttr, TypeAttr, ArrayAttr, DictionaryAttr
from npu_opt.ir.core import Block, Operation, Region, Value
from npu_opt.ir.diagnostics import UserError
from npu_opt.ir.fast_lines import Line, build_run, flatten_runs as _flatten, line_pattern, parse_runs
from npu_opt.ir.lexing import (
    _CLOSE_TOKENS, _OPEN_TOKENS, _RESULT_NAME, _RESULTS_OK, MAX_NESTING,
    _cache_path, _grammar_text, faster_classes,
)
from npu_opt.ir.location import FileLineColLoc, Location
from npu_opt.ir.opdef import lookup_dialect, lookup_op
from npu_opt.ir.parse_attributes import AttributeRules
from npu_opt.ir.parse_generic_op import GenericOpRules, _piece_patterns
from npu_opt.ir.parse_errors import ParseError, _error, _pos, line_col, translate_lark_error
from npu_opt.ir.regex_cache import cache_file, use_pattern_cache
from npu_opt.ir.signature_split import PATTERNS as SIGNATURE_PATTERNS
from npu_opt.ir.resources import Resources, ResourceSyntaxError, find_trailer, parse_trailer
from npu_opt.ir.strings import UINT32_MAX, bounded_int, unquote_string
from npu_opt.ir.traits import IsolatedFromAbove
from npu_opt.ir.type_parser import TypeParser, TypeSyntaxError
from npu_opt.ir.types import FunctionType, OpaqueType, RankedTensorType, TensorType, Type

_ISOLATED_PRETTY = {"builtin.module", "func.func"}


class AttributeParserCrash(Exception):
    """A dialect's attribute parser raised something other than its syntax error: a bug.

    Deliberately not a ValueError, so no syntax-error handler on the way out catches it."""


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
    block_refs: dict[str, Token] = field(default_factory=dict)
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
        self.known_types: dict[str, Type] = {}  # type spellings decoded and checked in this parse
        self.tensor_texts: set[str] = set()  # spellings that are one whole tensor type (signature_split)
        self.depth = 0
        self.braces: list[Token] = []  # the open '{' tokens (fine-grained ones only)
        self.closed_brace: Token | None = None  # the '{' of the dictionary closed last
        self.runs: list[list[Line]] = []  # the fast-path line runs of the placeholder text (fast_lines)
        self.next_run = 0  # the run op_run must build next
        self.op_classes: dict[str, type[Operation]] = {}  # op name -> class, for fast_lines


class _Builder(GenericOpRules, AttributeRules, Transformer):
    """Inline transformer: each callback runs when its rule is reduced."""

    def __init__(self) -> None:
        super().__init__(visit_tokens=False)
        self.state: _State = None  # type: ignore[assignment]
        self.type_parser = TypeParser(self._parse_attribute_text, self._dialect_attr)
        self.pieces: dict[str, re.Pattern[str]] = {}
        """The regexes that cut a GENERIC_OP token into its pieces (set with the grammar)."""
        self._attr_cache: dict[str, Attribute] = {}

    # -- lexer callbacks -------------------------------------------------------------------
    def open_bracket(self, token: Token) -> Token:
        """Bound nesting: a megabyte of ``((((`` fails fast instead of filling the parse stack."""
        state = self.state
        if state is not None:
            state.depth += 1
            if state.depth > MAX_NESTING:
                raise _error(state, f"brackets are nested more than {MAX_NESTING} levels deep", token)
            if token.type == "LBRACE":
                state.braces.append(token)
        return token

    def close_bracket(self, token: Token) -> Token:
        state = self.state
        if state is not None:
            state.depth -= 1
            if token.type == "RBRACE" and state.braces:
                state.closed_brace = state.braces.pop()
        return token

    # -- helpers ---------------------------------------------------------------------------
    def _parse_attribute_text(self, text: str) -> Attribute:
        """Parse an attribute inside a type token (a tensor encoding); errors are TypeSyntaxErrors."""
        parser, _ = _lark_with_builder()
        try:
            return parser.parse(text, start="attribute_only")
        except UnexpectedInput as err:
            inner = translate_lark_error(err, text, "", parser)
        except ParseError as err:
            inner = err
        loc = inner.diagnostic.location
        offset = loc.col - 1 if isinstance(loc, FileLineColLoc) and loc.line == 1 else 0
        raise TypeSyntaxError(inner.diagnostic.message, offset)

    def _check_dialect(self, dialect: str, what: str, token: Token | None) -> None:
        if self.state.options.allow_unregistered or lookup_dialect(dialect) is not None:
            return
        raise _error(self.state, f"{what} of unregistered dialect '{dialect}'; use "
                     "--allow-unregistered-dialect to accept it", token)

    def _dialect_attr(self, dialect: str, name: str, body: str | None) -> Attribute:
        registered = lookup_dialect(dialect)
        if registered is not None and name in registered.attribute_parsers:
            try:
                return registered.attribute_parsers[name](body)
            except (UserError, TypeSyntaxError):
                raise  # the parser's deliberate verdict on the input (AttributeSyntaxError is one)
            except Exception as err:  # anything else is a bug in that parser: the crash guard's business
                raise AttributeParserCrash(f"the parser of '#{dialect}.{name}' failed: "
                                           f"{type(err).__name__}: {err}") from err
        if registered is None and self.state is not None and not self.state.options.allow_unregistered:
            raise TypeSyntaxError(f"attribute '#{dialect}.{name}' of unregistered dialect '{dialect}'; "
                                  "use --allow-unregistered-dialect to accept it")
        return OpaqueAttr(dialect, name, body)

    def _type(self, token: Token) -> Type:
        try:
            t = self.type_parser.parse(str(token))
        except TypeSyntaxError as err:
            raise _error(self.state, str(err), token, err.offset) from None
        except ValueError as err:
            raise _error(self.state, str(err), token) from None
        if not self.state.options.allow_unregistered:
            self._check_type_dialects(t, token)
        return t

    def _check_type_dialects(self, t: Type, token: Token) -> None:
        """Reject opaque types and encodings of unregistered dialects, also inside tensors
        (types are cached across parses, so this cannot be left to the first parse)."""
        while True:
            if isinstance(t, OpaqueType):
                self._check_dialect(t.dialect, "type", token)
            elif isinstance(t, RankedTensorType) and isinstance(t.encoding, OpaqueAttr):
                self._check_dialect(t.encoding.dialect, "attribute", token)
            elif isinstance(t, FunctionType):
                for inner in (*t.inputs, *t.results):
                    self._check_type_dialects(inner, token)
            if not isinstance(t, TensorType):
                return
            t = t.element_type

    def _lookup(self, token: str, type: Type, anchor: Token | None = None, offset: int = 0) -> Value:
        """Resolve a use of ``token`` (``%x`` or ``%x#1``) expected to have ``type``.

        Errors are reported ``offset`` characters into ``anchor`` (by default ``token`` itself).
        """
        state = self.state
        if anchor is None:
            anchor = token  # type: ignore[assignment]
        name, _, number = token.partition("#")
        index = self._count(number, "result number", anchor, offset) if number else 0
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
            for candidate in (f"{name}#{index}", name) if index == 0 else (f"{name}#{index}",):
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
            scope.block_refs[str(token)] = token
        return block

    def _unquote(self, token: Token) -> str:
        """The value of a string literal token; a bad escape is a parse error at the token."""
        try:
            return unquote_string(token)
        except ValueError as err:
            raise _error(self.state, str(err), token) from None

    def _loc_number(self, token: Token) -> int:
        if not token.isdigit():
            raise _error(self.state, f"expected a decimal line or column number, found '{token}'", token)
        return self._count(token, "line or column number", token)

    def _count(self, text: str, what: str, token: Token, offset: int = 0) -> int:
        """A non-negative numeral of the syntax (result numbers, counts, line numbers), bounded."""
        try:
            return bounded_int(text, UINT32_MAX, what)
        except ValueError as err:
            raise _error(self.state, str(err), token, offset) from None

    def _make_op(self, name_token: Token, name: str, operands: list[Value], result_types: tuple[Type, ...],
                 attributes: dict[str, Attribute] | None, properties: dict[str, Attribute] | None,
                 regions: list[Region], successors: list[Block]) -> Operation:
        cls = lookup_op(name)
        if cls is None:
            dialect = name.split(".", 1)[0]
            registered = lookup_dialect(dialect)
            if registered is not None and not registered.allow_unknown_ops:
                # as in MLIR, --allow-unregistered-dialect admits unknown dialects, not unknown ops
                # of a dialect npu-opt knows (those are typos or version skew)
                raise _error(self.state, f"unregistered operation '{name}' found in dialect "
                             f"('{dialect}') that does not allow unknown operations", name_token)
            if registered is None and not self.state.options.allow_unregistered:
                raise _error(self.state, f"operation '{name}' of unregistered dialect '{dialect}'; "
                             "use --allow-unregistered-dialect to accept it", name_token)
            cls = Operation
        if name == "builtin.module" and regions and not regions[0].blocks:
            regions[0].add_block(Block())  # a module always has its one block, as in MLIR
        pos = _pos(self.state, name_token)
        return cls(name, operands, result_types, attributes, properties, regions, successors,
                   location=pos, pos=pos)

    # -- operations ------------------------------------------------------------------------
    def start(self, children: list[Any]) -> list[Operation]:
        return _flatten(children)

    def op_run(self, children: list[Token]) -> list[Operation]:
        """The ops of a run of lines read by ir/fast_lines.py (a list, flattened by the rules
        that collect operations)."""
        return build_run(self, children[0])

    def attribute_only(self, children: list[Attribute]) -> Attribute:
        return children[0]

    def attr_dict_only(self, children: list[dict[str, Attribute]]) -> dict[str, Attribute]:
        return children[0]

    def operation(self, children: list[Any]) -> Operation:
        results, op, loc = children
        if results is not None:
            if _RESULTS_OK.match(results) is None:
                raise _error(self.state, "malformed result list: expected '%name' or '%name:count', "
                             "separated by ',' and followed by '='", results)
            if "," not in results and ":" not in results:  # '%name =', the commonest: what finditer finds
                defs = [(results[:-1].rstrip(" \t"), 1, 0)]
            else:
                defs = [(m.group(1), self._count(m.group(2) or "1", "result count", results, m.start()),
                         m.start()) for m in _RESULT_NAME.finditer(results)]
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

    def _sub_parse(self, text: str, start: str, token: Token, offset: int) -> Any:
        """Parse the text of a coarse token with the fine-grained rules, keeping error positions."""
        parser, _ = _lark_with_builder()
        try:
            return parser.parse(text, start=start)
        except UnexpectedInput as err:
            inner = translate_lark_error(err, text, self.state.filename, parser)
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
        if not body.startswith('"'):
            return body
        try:
            return unquote_string(body)
        except ValueError as err:
            raise _error(self.state, str(err), token, 1) from None

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
        arg.location = loc
        self.state.pending_arg_names.append((token, arg))
        return type, attrs, loc

    def func_type_arg(self, children: list[Any]) -> tuple[Type, dict | None, None]:
        return children[0], children[1], None

    def func_args(self, children: list[Any]) -> list[Any]:
        return children

    def func_results(self, children: list[Any]) -> list[tuple[Type, dict | None, Token | None]]:
        result = children[0]
        return result if isinstance(result, list) else [(result, None, None)]

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
        entry_ops = _flatten([c for c in children[1:] if not isinstance(c, Block)])
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
        self._check_blocks_defined(scope)
        if scope.forward:
            if scope.isolated or len(state.scopes) == 0:
                forward = next(iter(scope.forward.values()))
                raise _error(state, f"use of undeclared SSA value name '{forward.name}'",
                             forward.token, forward.offset)
            state.scopes[-1].forward.update(scope.forward)
        return region

    def _check_blocks_defined(self, scope: _Scope) -> None:
        for name, token in scope.block_refs.items():
            if name not in scope.defined_blocks:
                raise _error(self.state, f"reference to an undefined block '{name}'", token)

    def block_label(self, children: list[Any]) -> Block:
        token, args = children
        scope = self.state.scopes[-1]
        if str(token) in scope.defined_blocks:
            raise _error(self.state, f"redefinition of block '{token}'", token)
        scope.defined_blocks.add(str(token))
        block = self._block(token)
        for arg_token, type, loc in args or []:
            arg = block.add_arg(type)
            arg.location = loc
            self._define(str(arg_token), [arg], arg_token)
        return block

    def block_args(self, children: list[Any]) -> list[Any]:
        return children

    def block_arg(self, children: list[Any]) -> tuple[Token, Type, Location | None]:
        return children[0], children[1], children[2]

    def block(self, children: list[Any]) -> Block:
        block = children[0]
        for op in _flatten(children[1:]):
            block.append(op)
        return block


@functools.lru_cache(maxsize=1)
def _lark_with_builder() -> tuple[Lark, "_Builder"]:
    builder = _Builder()
    callbacks = {name: builder.open_bracket for name in _OPEN_TOKENS}
    callbacks.update({name: builder.close_bracket for name in _CLOSE_TOKENS})
    grammar, cache = _grammar_text(), _cache_path()
    parser = Lark(grammar, parser="lalr", lexer="contextual",
                  start=["start", "attribute_only", "attr_dict_only"],
                  maybe_placeholders=True, transformer=builder, cache=cache,
                  lexer_callbacks=callbacks)
    pieces = _piece_patterns(parser)
    pieces["line"] = line_pattern(pieces)
    pieces.update(SIGNATURE_PATTERNS)
    faster = {kind: faster_classes(pattern) for kind, pattern in pieces.items()}
    patterns = use_pattern_cache(parser, cache_file(os.path.dirname(cache) if isinstance(cache, str) else None,
                                                    grammar), faster.values())
    builder.pieces = {kind: patterns.compile(pattern) for kind, pattern in faster.items()}
    return parser, builder


def parse_ops(text: str, filename: str = "<stdin>", options: ParseOptions | None = None) -> tuple[list[Operation], Resources]:
    """Parse IR text to its top-level ops and resources. Raises ParseError."""
    options = options or ParseOptions()
    trailer_at = find_trailer(text)
    resources = Resources()
    if trailer_at is not None:
        collecting = gc.isenabled()
        gc.disable()  # thousands of blobs only allocate, as the parse below does
        try:
            resources = parse_trailer(text, trailer_at)
        except ResourceSyntaxError as err:
            line, col = line_col(text, err.offset)
            raise ParseError(str(err), FileLineColLoc(filename, line, col)) from None
        finally:
            if collecting:
                gc.enable()
    collecting = gc.isenabled()
    gc.disable()  # the parse only allocates; cyclic GC passes over it cost ~15% and free nothing
    fast = None
    try:
        parser, builder = _lark_with_builder()
        fast = parse_runs(parser, builder, lambda: _State(filename, options, resources), text, trailer_at)
    finally:
        if collecting:
            if fast is not None:
                _promote_young()
            gc.enable()
    if fast is not None:
        return fast, resources
    body = text if trailer_at is None else text[:trailer_at]
    return _parse_body(body, filename, options, resources), resources


def _promote_young() -> None:
    """Move every object the collector tracks into its oldest generation, as a pass over the
    young ones would once it is switched back on: a parsed module is long-lived, and that first
    pass over all of it (0.4 s for a 90,000-op import) would find no garbage. ``gc.freeze()`` and
    ``gc.unfreeze()`` only splice lists; skipped when the caller has frozen objects of its own."""
    if gc.get_freeze_count() == 0:
        gc.freeze()
        gc.unfreeze()


def _parse_body(body: str, filename: str, options: ParseOptions, resources: Resources) -> list[Operation]:
    """The top-level ops of ``body``, parsed the ordinary way. Raises ParseError."""
    parser, builder = _lark_with_builder()
    builder.state = _State(filename, options, resources)
    collecting = gc.isenabled()
    gc.disable()  # the parse only allocates; cyclic GC passes over it cost ~15% and free nothing
    try:
        ops = parser.parse(body, start="start")
        builder._check_blocks_defined(builder.state.scopes[0])  # successors of top-level ops
    except UnexpectedInput as err:
        raise translate_lark_error(err, body, filename, parser) from None
    except RecursionError:
        raise ParseError("input is nested too deeply", FileLineColLoc(filename, 1, 1)) from None
    finally:
        if collecting:
            gc.enable()
        state = builder.state
        builder.state = None  # type: ignore[assignment]
    scope = state.scopes[0]
    if scope.forward:
        forward = next(iter(scope.forward.values()))
        raise _error(state, f"use of undeclared SSA value name '{forward.name}'", forward.token, forward.offset)
    return ops


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
