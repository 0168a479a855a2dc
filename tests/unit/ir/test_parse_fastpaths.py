"""The parser's fast paths (attribute dictionaries with types and dense values, op signatures,
split_top_level, per-axis scales) build exactly what the grammar path builds, and leave every
error to the grammar path, so messages and positions do not change."""
from __future__ import annotations

import random

import pytest

from npu_opt.ir import parse_generic_op
from npu_opt.ir import parser as parser_module
from npu_opt.ir.parser import ParseError, ParseOptions, parse_module
from npu_opt.ir.printer import PrintOptions, print_op
from npu_opt.ir.type_parser import split_top_level

PER_AXIS = "!quant.uniform<i8<-127:127>:f32:0, {0.5,0.25,1e-3,.5}>"
GOOD = [
    f'%0 = "foo.c"() <{{qtype = tensor<4x1x1x1x{PER_AXIS}>, value = dense_resource<w> : tensor<4x1x1x1xi8>}}> '
    f": () -> tensor<4x1x1x1x{PER_AXIS}>",
    '%0 = "foo.c"() <{value = dense<[1, -2]> : tensor<2xi32>, k = dense<7> : tensor<3xi8>}> : () -> i32',
    '%0 = "foo.c"() {t = i32, u = index, n = none, f = f32, d = !foo.bar<1, "x>">, z} : () -> tensor<*xf32>',
    '%0:2 = "foo.c"() : () -> (tensor<2x!quant.uniform<i8:f32, 0.5:-3>>, !foo.q<a<b<c>>>)',
    '"foo.c"() {e = dense<"0x01020304"> : tensor<4xi8>, s = "a b", a = [1, 2]} : () -> ()',
    '%0 = "foo.c"() : () -> ((i32) -> i32)',
    '%a = "foo.c"() : () -> i8\n"foo.d"(%a, %a) : (i8, i8) -> ()',
    '"foo.c"() {f = () -> (), g = (i32, f32) -> (i1, i8)} : () -> ()',
]
BIAS = "tensor<2x!quant.uniform<i32:f32:0, {0.5,2.5e-05}>>"
ACT = "tensor<2x!quant.uniform<i8:f32, 0.25:-128>>"
CONSTANTS = [  # imported constants' properties (the constant-dictionary cut) and near misses
    f'%0 = "foo.c"() <{{qtype = {BIAS}, value = dense<[1, -2]> : tensor<2xi32>}}> : () -> {BIAS}',
    f'%0 = "foo.c"() <{{qtype = {ACT}, value = dense<[1, -2]> : tensor<2xi8>}}> : () -> {ACT}',
    f'%0 = "foo.c"() <{{qtype = {ACT}, value = dense_resource<w> : tensor<4xi8>}}> : () -> {ACT}',
    f'%0 = "foo.c"() <{{qtype = {ACT}, value = dense<[1, -2]> : tensor<2xi8>, k = 1 : i32}}> : () -> {ACT}',
    f'%0 = "foo.c"() <{{qtype = {ACT}, value = dense<[1, -2]>  : tensor<2xi8>}}> : () -> {ACT}',
    f'%0 = "foo.c"() <{{qtype = {ACT}, value = dense<5> : tensor<2xi8>}}> : ()  -> {ACT}',
    '%0 = "foo.c"() <{qtype = tensor<2xi8>, value = dense<[1, 2]> : tensor<2xi8>}> : () -> tensor<2xi8>',
    '%0 = "foo.c"() <{qtype = tensor<2x!foo.t<">>, value = ">>, value = dense<[1, 2]> : tensor<2xi8>}> '
    ': () -> i8',
    f'%0 = "foo.c"() <{{qtype = {ACT}, value = dense<[1, -2]> : tensor<2xi8>}}> : () -> {ACT}\n'
    f'%1 = "foo.d"() <{{qtype = {ACT}, value = dense<[1, -2]> : tensor<2xi8>}}> : () -> {ACT}',
]
GOOD += CONSTANTS
TRAILER = '\n{-#\n  dialect_resources: {\n    builtin: {\n      w: "0x0400000001020304"\n    }\n  }\n#-}\n'
BAD = [
    '%0 = "foo.c"() <{v = dense_resource<w> : tensor<5xi8>}> : () -> i32',  # 4 bytes, not 5
    '%0 = "foo.c"() <{v = dense<[1, 2, 3]> : tensor<2xi32>}> : () -> i32',
    '%0 = "foo.c"() <{v = dense<1> : i32}> : () -> i32',
    '%0 = "foo.c"() <{t = tensor<4xi99999999>}> : () -> i32',
    '%0 = "foo.c"() : (i32) -> tensor<2x!quant.uniform<i8:f32:0, {0.5,-1.0}>>',
    '%0 = "foo.c"() : () -> tensor<2x!quant.uniform<i8:f32:0, {0.5,}>>',
    '%0 = "foo.c"() {t = !bar.baz} : () -> i32',  # (errors only without --allow-unregistered-dialect)
    '%0 = "foo.c"() : () -> !bar.baz',
]
BAD[:0] = [
    f'%0 = "foo.c"() <{{qtype = {BIAS}, value = dense<[1, 2, 3]> : tensor<2xi32>}}> : () -> {BIAS}',
    f'%0 = "foo.c"() <{{qtype = {ACT}, value = dense_resource<w> : tensor<5xi8>}}> : () -> {ACT}',
    f'%0 = "foo.c"() <{{qtype = {ACT}, value = dense<[1, 300]> : tensor<2xi8>}}> : () -> {ACT}',
    '%0 = "foo.c"() <{qtype = tensor<2x!quant.uniform<i8:f32:0, {0.5,-1.0}>>, value = dense<[1, 2]> '
    ': tensor<2xi8>}> : () -> i8',
    '%0 = "foo.c"() <{qtype = tensor<2x!quant.uniform<i8:f32, 0.5:-300>>, value = dense<[1, 2]> '
    ': tensor<2xi8>}> : () -> i8',
    '%0 = "foo.c"() <{qtype = tensor<2x!quant.uniform<i8:f32, 0.5>>, value = dense_resource<nokey> '
    ': tensor<2xi8>}> : () -> tensor<2x!quant.uniform<i8:f32, 0.5>>\n"foo.d"(%0) : (i8) -> ()',
]
STRICT_ONLY = 2


def _disable_fast_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parse_generic_op, "simple_dictionary", lambda body, typed=None, entry=None: None)
    monkeypatch.setattr(parser_module._Builder, "_constant_dictionary", lambda self, text: None)
    monkeypatch.setattr(parser_module._Builder, "_constant_signature", lambda self, text: None)
    monkeypatch.setattr(parser_module._Builder, "_fast_signature", lambda self, body: None)


def _parse(text: str, allow: bool = True) -> str:
    module = parse_module(text + TRAILER, "f.mlir", ParseOptions(allow_unregistered=allow))
    return print_op(module, PrintOptions(generic=True))


def _error(text: str, allow: bool) -> tuple[str, object]:
    with pytest.raises(ParseError) as info:
        parse_module(text + TRAILER, "f.mlir", ParseOptions(allow_unregistered=allow))
    return info.value.diagnostic.message, info.value.diagnostic.location


@pytest.mark.parametrize("text", GOOD)
def test_fast_paths_build_what_the_grammar_builds(text, monkeypatch):
    fast = _parse(text)
    _disable_fast_paths(monkeypatch)
    assert _parse(text) == fast


@pytest.mark.parametrize("text, allow", [(text, True) for text in BAD[:-STRICT_ONLY]]
                         + [(text.replace("foo.c", "test.c"), False) for text in BAD])
def test_errors_are_the_grammar_paths_own(text, allow, monkeypatch):
    fast = _error(text, allow)
    _disable_fast_paths(monkeypatch)
    assert _error(text, allow) == fast


def _split_by_characters(text: str, sep: str = ",") -> list[str]:
    """split_top_level's meaning, one character at a time (the reference it is tested against)."""
    parts, depth, start, in_string, i = [], 0, 0, False, 0
    while i < len(text):
        ch = text[i]
        if in_string:
            if ch == "\\":
                i += 1
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "<([{":
            depth += 1
        elif ch in ">)]}" and not (ch == ">" and i > 0 and text[i - 1] == "-"):
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
        i += 1
    return parts + [text[start:]]


def test_split_top_level_matches_a_character_scan():
    rng = random.Random(7)
    alphabet = 'ab,<>()[]{}"\\- x\n'
    for _ in range(20000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(16)))
        for sep in (",", "x"):
            assert split_top_level(text, sep) == _split_by_characters(text, sep), (text, sep)


@pytest.mark.parametrize("text", GOOD[:5])
def test_imported_shapes_of_ops_never_need_the_grammar_for_their_pieces(text, monkeypatch):
    def refuse(self, *args):
        raise AssertionError("the grammar path was used")
    monkeypatch.setattr(parser_module._Builder, "_sub_parse", refuse)
    assert _parse(text)


# Ops lexed whole (one GENERIC_OP token) report errors where the fine-grained rules did.
POSITIONS = [
    ('%0 = "foo.c"() : () -> i32\n%1 = "foo.d"(%0, %9) : (i32, i32) -> i32',
     "use of undeclared SSA value name '%9'", 2, 18),
    ('"foo.c"() <{a = 1 : i32}>\n    : (i32) -> ()', "expected 0 operand types but had 1", 2, 5),
    ('"foo.c"() {a = dense<[1, 2]> : tensor<3xi8>} : () -> ()', "does not match type ([3])", 1, 16),
    ('  %0 = "foo.c"() <{a = 1 : i32}> : () -> i32 loc("n")\n  "foo.d"(%0) : (i8) -> ()',
     "expects different type than prior uses: 'i8' vs 'i32'", 2, 11),
    ('"foo.c"() {a = 1 : i32,\n  b = #foo<x>, c = tensor<2xi99999999>} : () -> ()',
     "integer width 99999999 is larger than", 2, 29),
    ('%0:2 = "foo.c"() : () -> i32', "defines 1 results but was provided 2", 1, 1),
    ('%0 = "foo.c"() : () -> i32\n%1 = "foo.d"(%0,\n   %9) : (i32, i32) -> i32',
     "use of undeclared SSA value name '%9'", 3, 4),
    ('%0 = "foo.c"() : () -> i32\n  %1 = "foo.d"(%0, %0#1) <{a = 1 : i32}> : (i32, i32) -> i32',
     "result number 1 out of range for '%0'", 2, 20),
]


@pytest.mark.parametrize("text, message, line, col", POSITIONS)
def test_whole_op_tokens_report_errors_in_place(text, message, line, col):
    with pytest.raises(ParseError) as info:
        parse_module(text, "p.mlir", ParseOptions(allow_unregistered=True))
    where = info.value.diagnostic.location
    assert message in info.value.diagnostic.message
    assert (where.line, where.col) == (line, col)


def test_whole_op_tokens_keep_their_locations():
    text = ('%0 = "foo.c"() : () -> i32 loc("a"("b":1:2))\n"foo.d"(%0) : (i32) -> () loc(unknown)\n'
            '"foo.e"() : () -> () loc("q")\n  "foo.f"() : () -> ()')
    module = parse_module(text, "p.mlir", ParseOptions(allow_unregistered=True))
    assert [str(op.location) for op in module.walk()][1:] == [
        'loc("a"("b":1:2))', "loc(unknown)", 'loc("q")', 'loc("p.mlir":4:3)']


def test_flat_integer_literals_decode_as_the_general_reader_does():
    """parse_attributes' flat-list shortcut returns what parse_dense_literal returns, and leaves
    everything it does not take (out of range, wrong count, other shapes) to it."""
    import numpy as np
    from npu_opt.ir.dense_literal import parse_dense_literal
    from npu_opt.ir.parse_attributes import _flat_integers
    from npu_opt.ir.types import IntegerType, RankedTensorType
    rng = random.Random(11)
    for width, sign in ((8, "signless"), (8, "signed"), (8, "unsigned"), (32, "signless"), (64, "signless"), (1, "signless")):
        element = IntegerType(width, sign)
        for _ in range(300):
            count = rng.randrange(1, 6)
            values = [rng.choice([0, 1, -1, 127, 128, 255, 256, -128, -129, 2**31, -2**63, 2**64 - 1, 2**64])
                      for _ in range(count)]
            body = "[" + ", ".join(map(str, values)) + "]"
            shape = [rng.choice([count, count + 1])]
            fast = _flat_integers(body, RankedTensorType(shape, element))
            try:
                slow = parse_dense_literal(body, RankedTensorType(shape, element))
            except ValueError:
                assert fast is None, body
                continue
            assert fast is None or (fast.dtype == slow.dtype and np.array_equal(fast, slow)), (body, width, sign)
    assert _flat_integers("[1, 2]", RankedTensorType([1, 2], IntegerType(8))) is None


def test_imported_constants_take_the_constant_dictionary_cut(monkeypatch):
    """The properties and signature of an imported constant (either value kind) decode without
    the typed-entry pattern or the signature split."""
    def refuse(*args, **kwargs):
        raise AssertionError("the general path was used")
    monkeypatch.setattr(parse_generic_op, "simple_dictionary", refuse)
    monkeypatch.setattr(parse_generic_op, "split_spaced_signature", refuse)
    module = parse_module("\n".join(CONSTANTS[:3]).replace("%0", "%a", 1).replace("%0", "%b", 1)
                          + TRAILER, "f.mlir", ParseOptions(allow_unregistered=True))
    ops = list(module.walk())[1:]
    assert [str(op.properties["qtype"]) for op in ops] == [BIAS, ACT, ACT]
    assert [str(op.results[0].type) for op in ops] == [BIAS, ACT, ACT]
    assert ops[0].properties["value"].array.tolist() == [1, -2]
    assert ops[2].properties["value"].blob is not None


def test_interned_fields_are_filled_in_before_the_object_becomes_immutable():
    """_intern_fields (the parsers' direct path) fills a new object in through a builder class
    and hands out an object of the real class, the one the constructor gives, immutable; a name
    that is no slot fails and leaves nothing in the table."""
    from npu_opt.ir.interning import Interned

    class Pair(Interned):
        __slots__ = ("left", "right")

        def _init(self, left: int, right: int) -> None:
            self._set("left", left)
            self._set("right", right)

        def _render(self) -> str:
            return f"<{self.left}, {self.right}>"

    made = Pair._intern_fields((3, 4), {"left": 3, "right": 4})
    assert made is Pair(3, 4) and (made.left, made.right, made._text) == (3, 4, None)
    assert type(made) is Pair and str(made) == "<3, 4>"
    with pytest.raises(AttributeError):
        Pair._intern_fields((5, 6), {"left": 5, "middle": 6})
    assert Pair._intern_fields((5, 6), {"left": 5, "right": 6}) is Pair(5, 6)
    with pytest.raises(AttributeError):
        made.left = 5


def test_attributes_interned_directly_are_the_constructors_own():
    """The parser builds TypeAttr and DenseResourceAttr through _intern_fields with the key their
    constructors would compute: the same objects."""
    from npu_opt.ir.attributes import DenseResourceAttr, TypeAttr
    text = CONSTANTS[2] + TRAILER
    _, resources = parser_module.parse_ops(text, "f.mlir", ParseOptions(allow_unregistered=True))
    module = parse_module(text, "f.mlir", ParseOptions(allow_unregistered=True))
    op = list(module.walk())[1]
    qtype, value = op.properties["qtype"], op.properties["value"]
    assert qtype is TypeAttr(qtype.type)
    assert value is DenseResourceAttr(value.type, "w", value.blob) and value.blob is not None
    assert DenseResourceAttr(value.type, "w", None) is not value
    assert resources.blobs["builtin"]["w"] is not value.blob  # (each parse has its own blobs)
