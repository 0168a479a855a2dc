"""The generic op form's rules of the IR builder (a mixin of ir.parser._Builder): the one-token
GENERIC_OP fast path, the fine-grained generic-op rules, and the decoding of its dictionaries and
signature (cached per distinct text, fast paths first, the grammar via ``_sub_parse`` otherwise).

Each public method runs when lark reduces the grammar rule of the same name.
"""
from __future__ import annotations

import re
from typing import Any

from lark import Lark, Token

from npu_opt.ir.attr_fastpath import simple_dictionary, typed_entry_pattern
from npu_opt.ir.attributes import UNIT, Attribute, TypeAttr
from npu_opt.ir.core import Block, Operation, Region
from npu_opt.ir.diagnostics import UserError
from npu_opt.ir.regex_cache import compile_shared
from npu_opt.ir.lexing import _OPERANDS_OK, _VALUE_NAME, faster_classes
from npu_opt.ir.location import Location, NameLoc
from npu_opt.ir.parse_errors import _diagnose_operands, _error
from npu_opt.ir.signature_split import split_spaced_signature, split_tensor_signature
from npu_opt.ir.type_parser import split_top_level
from npu_opt.ir.types import FunctionType, Type


class GenericOpRules:
    """Generic-op rules of the builder; the builder supplies ``state``, ``pieces``, ``type_parser``,
    ``_lookup``, ``_make_op``, ``_block``, ``_unquote``, ``_sub_parse`` and the attribute rules."""

    def whole_generic_op(self, children: list[Any]) -> Operation:
        """A generic op lexed as one GENERIC_OP token: cut into the tokens the fine-grained rules
        take (each at its own line and column) and built by those same rules."""
        results, token, loc = children
        whole = self.pieces["whole"].match(token)
        if whole is not None:
            quick = self._quick_generic_op(token, whole)
            if quick is not None:
                return self.operation([results, quick[0], quick[1] or loc])
        pieces, space, pos = self.pieces, self.pieces["space"], 0

        def piece(kind: str, optional: bool = False) -> Token | None:
            nonlocal pos
            pos = space.match(token, pos).end()  # type: ignore[union-attr]
            m = pieces[kind].match(token, pos)
            if m is None:
                if optional:
                    return None
                raise _error(self.state, f"malformed operation ({kind})", token, pos)  # pragma: no cover
            start, pos = m.start(), m.end()
            return _sub_token(token, kind.upper(), start, pos)

        name = self.op_name([piece("name")])
        uses = self.op_operands([piece("operands")])
        props_token, attrs_token = piece("properties", True), piece("attributes", True)
        signature = piece("signature")
        props = None if props_token is None else self._dictionary(props_token, 1)
        attrs = None if attrs_token is None else self._dictionary(attrs_token, 0)
        op = self.generic_op([name, uses, None, props, None, attrs, (self._signature(signature), signature)])
        pos = space.match(token, pos).end()  # type: ignore[union-attr]
        if pos < len(token):
            m = pieces["loc"].match(token, pos)
            if m is not None:
                loc = self.loc_name([_sub_token(token, "STRING", m.start(1), m.end(1)), None])
        return self.operation([results, op, loc])

    def _quick_generic_op(self, token: Token, m: re.Match[str]) -> tuple[Operation, Location | None] | None:
        """The op of a GENERIC_OP token whose pieces all decode without the grammar (a plain
        name, well-formed operands, dictionaries and signature the fast paths take, as many
        operand types as operands), built without cutting the token into sub-tokens: errors
        found while building (undefined or mistyped values, unregistered ops) are reported at
        the same line and column, as offsets into the token. Returns the op and its name location;
        None, before any side effect, for
        anything else: whole_generic_op then takes the general path, which reports every
        syntax error."""
        name = m.group("name")
        if "\\" in name:
            return None
        operands_at = m.start("operands")
        operands = m.group("operands")
        if _OPERANDS_OK.match(operands) is None:
            return None
        props = m.group("properties")
        if props is not None:
            props = self._quick_dictionary(props[1:-1])
            if props is None:
                return None
        attrs = m.group("attributes")
        if attrs is not None:
            attrs = self._quick_dictionary(attrs)
            if attrs is None:
                return None
        fn_type = self._quick_signature(m.group("signature"))
        if fn_type is None:
            return None
        uses = [(u.group(), operands_at + u.start()) for u in _VALUE_NAME.finditer(operands)]
        if len(uses) != len(fn_type.inputs):
            return None
        loc_text = m.group("loc")
        loc = None
        if loc_text is not None:
            if "\\" in loc_text:
                return None
            loc = NameLoc(loc_text[1:-1], None)
        operand_values = [self._lookup(use, t, token, offset) for (use, offset), t in zip(uses, fn_type.inputs)]
        return self._make_op(token, name[1:-1], operand_values, fn_type.results, attrs, props, [], []), loc

    def _quick_dictionary(self, text: str) -> dict[str, Attribute] | None:
        """``_dictionary`` of the text ``{...}`` when the fast path decodes it (or it was decoded
        before); None when only the grammar can, which whole_generic_op's general path then does."""
        if text.startswith("{qtype = tensor<") and "//" not in text:
            constant = self._constant_dictionary(text)
            if constant is not None:
                return constant  # (each constant's is new: not worth looking up or keeping in the cache)
        cache = self.state.dict_cache
        found = cache.get(text)
        if found is None:
            if "//" in text:
                return None
            found = simple_dictionary(text[1:-1], self._fast_value, self.pieces["typed_entry"])
            if found is None:
                return None
            cache[text] = found
        return dict(found)

    def _constant_dictionary(self, text: str) -> dict[str, Attribute] | None:
        """The properties of an imported constant, ``{qtype = Q, value = dense<...> : T}`` or
        ``dense_resource<key>`` instead of ``dense<...>``, spelled exactly so (one blank around
        each ``=`` and ``:``) with ``Q`` a tensor of ``!quant.uniform`` spelling: cut with str
        methods and one short match of the value, instead of the general typed-entry pattern
        over the whole text. Q is the text up to the first ``>>, value = ``: a quantised tensor
        spelling holds ``>>`` only at its end, and requiring that it decode as one makes the cut
        the one that pattern finds, and the values the ones it gives. None for anything else."""
        cut = text.find(">>, value = ")
        if cut < 0:
            return None
        tail = _CONSTANT_VALUE.match(text, cut + 12)
        if tail is None:
            return None
        qtype = text[9:cut + 2]
        type_ = self._known_type(qtype)
        if type_ is None or qtype not in self.state.tensor_texts:
            return None  # not one quantised tensor spelling: the general pattern decides
        literal, value_type = tail.groups()
        value = self._fast_value("dense" if literal[5] == "<" else "dense_resource", literal, value_type)
        if value is None:
            return None
        return {"qtype": TypeAttr._intern_fields((type_,), {"type": type_}), "value": value}  # (TypeAttr(type_))

    def op_name(self, children: list[Token]) -> Token:
        self.state.op_stack.append(self._unquote(children[0]))
        return children[0]

    def value_uses(self, children: list[Token]) -> list[Token]:
        return children

    def successors(self, children: list[Token]) -> list[Block]:
        return [self._block(t) for t in children]

    def attr_entries(self, children: list[tuple[str, Attribute, Token]]) -> dict[str, Attribute]:
        entries = {name: value for name, value, _ in children}
        if len(entries) != len(children):
            seen: set[str] = set()
            for name, _, token in children:
                if name in seen:
                    raise _error(self.state, f"duplicate key '{name}' in dictionary attribute", token)
                seen.add(name)
        return entries

    def attr_dict(self, children: list[Any]) -> dict[str, Attribute]:
        return children[0] or {}

    def attr_entry(self, children: list[Any]) -> tuple[str, Attribute, Token]:
        key, value = children
        name = self._unquote(key) if key.type == "STRING" else str(key)
        return name, (UNIT if value is None else value), key

    def regions(self, children: list[Region]) -> list[Region]:
        return children

    def op_operands(self, children: list[Token]) -> list[tuple[str, Token, int]]:
        """The operand names, each with the token and offset to report errors at."""
        token = children[0]
        if _OPERANDS_OK.match(token) is None:
            message, offset = _diagnose_operands(token, 0) or ("malformed operand list", 0)
            raise _error(self.state, message, token, offset)
        return [(m.group(0), token, m.start()) for m in _VALUE_NAME.finditer(token)]

    def op_properties(self, children: list[Any]) -> dict[str, Attribute]:
        if len(children) == 1:
            return self._dictionary(children[0], 1)
        return children[1]

    def op_attributes(self, children: list[Any]) -> dict[str, Attribute]:
        item = children[0]
        if isinstance(item, Token):
            return self._dictionary(item, 0)
        return item

    def op_signature(self, children: list[Any]) -> tuple[FunctionType, Token]:
        if len(children) == 1:
            return self._signature(children[0]), children[0]
        return children[1], children[0]

    def generic_op(self, children: list[Any]) -> Operation:
        name_token, uses, successors, props, regions, attrs, signature = children
        name = self.state.op_stack.pop()
        fn_type, sig_token = signature
        if len(uses) != len(fn_type.inputs):
            raise _error(self.state, f"expected {len(uses)} operand type{'s' if len(uses) != 1 else ''} "
                         f"but had {len(fn_type.inputs)}", sig_token)
        operands = [self._lookup(use, t, anchor, offset) for (use, anchor, offset), t in zip(uses, fn_type.inputs)]
        return self._make_op(name_token, name, operands, fn_type.results, attrs, props,
                             regions or [], successors or [])

    def _dictionary(self, token: Token, skip: int) -> dict[str, Attribute]:
        """Decode a ``{...}`` (or ``<{...}>`` when skip=1) token, once per distinct text."""
        text = token[skip:len(token) - skip] if skip else str(token)
        found = self._quick_dictionary(text)
        if found is None:
            found = self.state.dict_cache[text] = self._sub_parse(text, "attr_dict_only", token, skip)
            found = dict(found)
        return found

    def _fast_value(self, kind: str, literal: str, type_text: str) -> Attribute | None:
        """A dictionary value that needs its type (for attr_fastpath), or None when anything is
        off: the grammar path then decodes the dictionary and reports the error where it is."""
        try:
            type_ = self._known_type(type_text)
            if type_ is None:
                return None
            if kind == "type":
                return TypeAttr(type_)
            if kind == "dense":
                return self._dense_value(literal, type_)
            return self._dense_resource_value(literal, type_)
        except ValueError:
            return None

    def _known_type(self, text: str) -> Type | None:
        """The type spelled ``text`` (cached by text), or None if it is malformed or names a
        dialect that is not registered when that is an error; raises nothing."""
        known = self.state.known_types
        type_ = known.get(text)
        if type_ is not None:
            return type_
        if text.startswith("tensor<"):
            type_ = self.type_parser.quant_tensor(text)  # no dialect to check in it
            if type_ is not None:
                known[text] = type_
                # a spelling quant_tensor takes is one balanced tensor type without parentheses
                # or arrows, as split_spaced_signature checks: a constant's type, met again in
                # its own signature and its user's, is not matched a second time there
                self.state.tensor_texts.add(text)
                return type_
        try:
            type_ = self.type_parser.parse(text)
            if not self.state.options.allow_unregistered:
                self._check_type_dialects(type_, None)  # type: ignore[arg-type]
        except (UserError, ValueError):
            return None
        known[text] = type_
        return type_

    def _fast_signature(self, body: str) -> FunctionType | None:
        """``(T, ...) -> T`` or ``(T, ...) -> (T, ...)`` without the grammar: split at top-level
        commas, each type decoded once per spelling. None for anything else (function types as
        results, types with attribute dictionaries, comments, errors): the grammar path takes those."""
        if "//" in body:
            return None
        tensors = (split_spaced_signature(body, self.state.tensor_texts)
                   or split_tensor_signature(body, (self.pieces["tensor"], self.pieces["tensor_signature"])))
        if tensors is not None:
            input_texts, result_texts = tensors[0], [tensors[1]]
        else:
            close = _matching_paren(body)
            if close < 0:
                return None
            rest = body[close + 1:].lstrip()
            if not rest.startswith("->"):
                return None
            rest = rest[2:].strip()
            if rest.startswith("("):
                if _matching_paren(rest) != len(rest) - 1:
                    return None
                result_texts = _type_list(rest[1:-1])
            else:
                result_texts = [rest]
            input_texts = _type_list(body[1:close])
        if input_texts is None or result_texts is None:
            return None
        types: list[Type] = []
        known = self.state.known_types
        for text in (*input_texts, *result_texts):
            if not text or text[0] == "(":
                return None
            type_ = known.get(text) or self._known_type(text)
            if type_ is None:
                return None
            types.append(type_)
        count = len(input_texts)
        return FunctionType.from_parsed(tuple(types[:count]), tuple(types[count:]))

    def _quick_signature(self, text: str) -> FunctionType | None:
        """The function type of the signature text ``: (...) -> ...`` when the fast path decodes it
        (or it was decoded before); None when only the grammar can, which _signature then does."""
        if text.startswith(": () -> "):
            found = self._constant_signature(text)
            if found is not None:
                return found  # (each constant's is new: not worth looking up or keeping in the cache)
        cache = self.state.signature_cache
        found = cache.get(text)
        if found is None:
            found = self._fast_signature(text[text.index("("):])
            if found is not None:
                cache[str(text)] = found
        return found

    def _constant_signature(self, text: str) -> FunctionType | None:
        """``: () -> T`` (a constant's signature) when ``T`` is a tensor spelling decoded before,
        usually just before as the constant's own type: what _fast_signature gives for it
        (split_spaced_signature would check ``T`` is in tensor_texts, and T holds no ``//``)."""
        spelling = text[8:]
        result = self.state.known_types.get(spelling)
        if result is not None and spelling in self.state.tensor_texts:
            return FunctionType.from_parsed((), (result,))
        return None

    def _signature(self, token: Token) -> FunctionType:
        found = self._quick_signature(token)
        if found is None:
            colon = token.index("(")
            parsed = self._sub_parse(token[colon:], "attribute_only", token, colon)
            if not isinstance(parsed, TypeAttr) or not isinstance(parsed.type, FunctionType):
                raise _error(self.state, "expected a function type for the operation", token)
            found = self.state.signature_cache[str(token)] = parsed.type
        return found


def _sub_token(token: Token, kind: str, start: int, end: int) -> Token:
    """The characters ``start:end`` of ``token`` as a token of their own, at their own line and column."""
    newlines = token.count("\n", 0, start)
    if newlines:
        line, column = token.line + newlines, start - token.rfind("\n", 0, start)  # type: ignore[operator]
    else:
        line, column = token.line, token.column + start  # type: ignore[operator]
    return Token(kind, str.__str__(token)[start:end], token.start_pos + start, line, column)  # type: ignore[operator]


def _matching_paren(text: str) -> int:
    """The index of the ``)`` closing the ``(`` that ``text`` starts with; -1 if none does."""
    if not text.startswith("("):
        return -1
    depth = 0
    for m in _PARENS.finditer(text):
        token = m.group()
        if token == "(":
            depth += 1
        elif token == ")":
            depth -= 1
            if depth == 0:
                return m.start()
    return -1


def _type_list(text: str) -> list[str] | None:
    """The comma-separated type spellings in ``text`` ([] when blank)."""
    if not text.strip():
        return []
    return [part.strip() for part in split_top_level(text)]


_CONSTANT_VALUE = compile_shared(faster_classes(
    r"(dense_resource<[^<>]*+>|dense<[^<>]*+>) : (tensor<(?:[0-9]{1,18}+x)*+[a-z0-9]++>)\}\Z"))
"""The value of an imported constant's properties, from just after ``value = `` to the closing
brace: what the typed-entry pattern's ``dense``/``dense_resource`` alternatives take there, with
a plain tensor type of static shape."""
_PARENS = re.compile(r'"(?:[^"\\]|\\.)*+"|[()]', re.S)


def _piece_patterns(parser: Lark) -> dict[str, str]:
    """The regexes of a GENERIC_OP token's pieces, in order: the grammar's own terminals."""
    def terminal(name: str) -> str:
        return parser.get_terminal(name).pattern.to_regexp()
    pieces = {"name": terminal("STRING"), "operands": terminal("OPERANDS"), "properties": terminal("PROPERTIES"),
              "attributes": terminal("ATTRIBUTES"), "signature": terminal("SIGNATURE"),
              "loc": rf"loc\(\s*+({terminal('STRING')})\s*+\)", "space": r"\s*+",
              "typed_entry": typed_entry_pattern()}  # (for simple_dictionary, compiled once per install)
    pieces["whole"] = (  # all of them at once, for _quick_generic_op
        rf"(?P<name>{pieces['name']})\s*+(?P<operands>{pieces['operands']})\s*+"
        rf"(?:(?P<properties>{pieces['properties']})\s*+)?(?:(?P<attributes>{pieces['attributes']})\s*+)?"
        rf"(?P<signature>{pieces['signature']})\s*+(?:loc\(\s*+(?P<loc>{pieces['name']})\s*+\))?\Z")
    return pieces
