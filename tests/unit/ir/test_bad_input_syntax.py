"""Bad input: every malformed text is a ParseError with a useful message at the right 1-based
line:column, found quickly (no catastrophic backtracking), and never a Python traceback."""
from __future__ import annotations

import random

import pytest

from npu_opt.ir.parser import ParseError, ParseOptions, parse_module
from npu_opt.ir.printer import PrintOptions, print_op


def _error(text: str, allow_unregistered: bool = True) -> ParseError:
    with pytest.raises(ParseError) as info:
        parse_module(text, "bad.mlir", ParseOptions(allow_unregistered=allow_unregistered))
    return info.value


def _where(err: ParseError) -> tuple[int, int]:
    loc = err.diagnostic.location
    assert loc.file == "bad.mlir"
    return loc.line, loc.col


def _resource(blob: str) -> str:
    return ('"foo.w"() {w = dense_resource<b> : tensor<1xi8>} : () -> ()\n{-#\n  dialect_resources: {\n'
            f'    builtin: {{\n      b: {blob}\n    }}\n  }}\n#-}}\n')


# (id, text, expected message (a substring), line, column[, allow_unregistered])
CASES = [
    # malformed syntax
    ("malformed", '"foo.op"() : () ->\n  "x"', "unexpected '\"x\"'; expected '(', dialect type, tensor type, type", 2, 3),
    ("missing-colon", '"foo.op"() () -> ()', "unexpected ')'", 1, 13),
    ("missing-arrow", '"foo.op"() : ()', "unexpected end of file; expected '->'", 1, 16),
    ("stray-brace", "}", "unexpected '}'", 1, 1),
    ("loc-junk", '"foo.op"() : () -> () loc(nonsense)', "unexpected 'nonsense'; expected 'fused', 'unknown', string",
     1, 27),
    ("loc-hex", '"foo.op"() : () -> () loc("f":0x3:1)', "expected a decimal line or column number", 1, 31),
    ("operand-list", '"foo.op"(%a %b) : (i32, i32) -> ()', "expected ',' or ')' in the operand list, found '%b'", 1, 13),
    ("operand-int", '"foo.op"(1) : (i32) -> ()', "expected an SSA value (like %0) in the operand list, found '1'", 1, 10),
    ("result-list", '%a %b = "foo.op"() : () -> (i32, i32)', "malformed result list", 1, 1),
    ("result-with-hash", '%a#1 = "foo.op"() : () -> i32', "unexpected '%a#1'", 1, 1),
    ("fn-type-attrs", '"foo.op"() : (i32 {a}) -> ()', "attribute dictionaries are only allowed on func.func results",
     1, 19),
    ("func-decl-named-args", "func.func private @f(%a: i32)", "a function declaration takes argument types", 1, 1),
    ("return-count", "func.func @f(%a: i32) {\n  return %a : i32, i32\n}",
     "expected 1 types to match the returned values, found 2", 2, 3),
    # SSA values and blocks
    ("undefined", '"foo.op"(%x) : (i32) -> ()', "use of undeclared SSA value name '%x'", 1, 10),
    ("undefined-nested", '"foo.r"() ({\n  "foo.u"(%nope) : (i32) -> ()\n}) : () -> ()',
     "use of undeclared SSA value name '%nope'", 2, 11),
    ("undefined-in-func", 'func.func @f() {\n  "foo.u"(%nope) : (i32) -> ()\n  return\n}',
     "use of undeclared SSA value name '%nope'", 2, 11),
    ("outer-value-in-isolated", '%v = "foo.d"() : () -> i32\nfunc.func @f() {\n  "foo.u"(%v) : (i32) -> ()\n'
     '  return\n}', "use of undeclared SSA value name '%v'", 3, 11),
    ("redefined", '%a = "foo.a"() : () -> i32\n%a = "foo.a"() : () -> i32', "redefinition of SSA value '%a'", 2, 1),
    ("redefined-block-arg", '"foo.r"() ({\n^bb0(%a: i32):\n  %a = "foo.a"() : () -> i32\n}) : () -> ()',
     "redefinition of SSA value '%a'", 3, 3),
    ("redefined-in-region", '%a = "foo.a"() : () -> i32\n"foo.r"() ({\n  %a = "foo.a"() : () -> i32\n}) : () -> ()',
     "redefinition of SSA value '%a'", 3, 3),
    ("type-mismatch", '%x = "foo.d"() : () -> i32\n"foo.u"(%x) : (i64) -> ()',
     "use of value '%x' expects different type than prior uses: 'i64' vs 'i32'", 2, 9),
    ("type-mismatch-forward-uses", '"foo.u"(%x) : (i32) -> ()\n"foo.u"(%x) : (i64) -> ()\n%x = "foo.d"() : () -> i32',
     "use of value '%x' expects different type than prior uses: 'i64' vs 'i32'", 2, 9),
    ("type-mismatch-forward-def", '"foo.u"(%x) : (i64) -> ()\n%x = "foo.d"() : () -> i32',
     "use of value '%x' expects different type than prior uses: 'i64' vs 'i32'", 1, 9),
    ("operand-type-count", '%x = "foo.d"() : () -> i32\n"foo.u"(%x, %x) : (i32) -> ()',
     "expected 2 operand types but had 1", 2, 17),
    ("operand-type-count-0", '"foo.u"() : (i32) -> ()', "expected 0 operand types but had 1", 1, 11),
    ("result-count", '%a:3 = "foo.op"() : () -> (i32)', "operation defines 1 results but was provided 3 to bind", 1, 1),
    ("result-count-xdsl", '%a, %b = "foo.op"() : () -> i32', "operation defines 1 results but was provided 2 to bind",
     1, 1),
    ("result-number", '%a:2 = "foo.op"() : () -> (i32, i32)\n"foo.u"(%a#5) : (i32) -> ()',
     "result number 5 out of range for '%a' (2 results)", 2, 9),
    ("undefined-block", '"foo.r"() ({\n  "foo.br"()[^nowhere] : () -> ()\n}) : () -> ()',
     "reference to an undefined block '^nowhere'", 2, 14),
    ("undefined-block-top-level", '"foo.br"()[^bb1] : () -> ()', "reference to an undefined block '^bb1'", 1, 12),
    ("redefined-block", '"foo.r"() ({\n^bb0:\n  "foo.y"() : () -> ()\n^bb0:\n  "foo.y"() : () -> ()\n}) : () -> ()',
     "redefinition of block '^bb0'", 4, 1),
    # registration
    ("unregistered-op", '"foo.bar"() : () -> ()',
     "operation 'foo.bar' of unregistered dialect 'foo'; use --allow-unregistered-dialect", 1, 1, False),
    ("unknown-op-of-registered-dialect", 'module {\n  "func.nope"() : () -> ()\n}',
     "unregistered operation 'func.nope' found in dialect ('func') that does not allow unknown operations", 2, 3,
     False),
    ("unregistered-type", 'func.func private @f(i32, !foo.x)', "type of unregistered dialect 'foo'", 1, 27, False),
    ("unregistered-type-in-tensor", "func.func private @f(tensor<2x!foo.x>)", "type of unregistered dialect 'foo'",
     1, 22, False),
    ("unregistered-attr", "module attributes {a = #foo.x<1>} {\n}",
     "attribute '#foo.x' of unregistered dialect 'foo'", 1, 24, False),
    ("unregistered-encoding", "func.func private @f(tensor<2xi8, #foo.enc>)",
     "attribute '#foo.enc' of unregistered dialect 'foo'", 1, 35, False),
    ("custom-syntax", "%0 = arith.constant 1 : i32", "unexpected 'arith.constant'", 1, 6),
    ("custom-syntax-nested", "module {\n  func.func @f() {\n    foo.bar %x : i32\n  }\n}", "unexpected 'foo.bar'", 3, 5),
    # strings
    ("unterminated-string", '"abc', "unterminated string", 1, 1),
    ("unterminated-attr-string", '"foo.op"() {s = "abc} : () -> ()', "unterminated string", 1, 17),
    ("unterminated-op-name", '"foo.op() : () -> ()', "unterminated string", 1, 1),
    ("unterminated-symbol", '"foo.op"() {s = @"abc} : () -> ()', "unterminated string", 1, 17),
    ("bad-escape", r'"foo.op"() {s = "a\qb"} : () -> ()', r"unknown escape '\q' in string literal", 1, 17),
    ("bad-escape-key", r'"foo.op"() {"a\qb" = 1} : () -> ()', r"unknown escape '\q'", 1, 13),
    ("bad-escape-op-name", r'"foo.o\qp"() : () -> ()', r"unknown escape '\q'", 1, 1),
    ("bad-escape-loc", r'"foo.op"() : () -> () loc("a\q")', r"unknown escape '\q'", 1, 27),
    ("bad-escape-symbol", r'"foo.op"() {s = @"a\q"} : () -> ()', r"unknown escape '\q'", 1, 18),
    # numbers
    ("int-too-big", '"foo.op"() {a = 300 : i8} : () -> ()', "integer constant 300 out of range for i8", 1, 17),
    ("int-too-small", '"foo.op"() {a = -129 : i8} : () -> ()', "integer constant -129 out of range for i8", 1, 17),
    ("int-negative-unsigned", '"foo.op"() {a = -1 : ui8} : () -> ()', "integer constant -1 out of range for ui8", 1, 17),
    ("int-too-big-unsigned", '"foo.op"() {a = 256 : ui8} : () -> ()', "integer constant 256 out of range for ui8", 1, 17),
    ("int-too-big-signed", '"foo.op"() {a = 128 : si8} : () -> ()', "integer constant 128 out of range for si8", 1, 17),
    ("int-i1", '"foo.op"() {a = 2 : i1} : () -> ()', "integer constant 2 out of range for i1", 1, 17),
    ("int-thousands-of-digits", '"foo.op"() {a = ' + "9" * 5000 + " : i64} : () -> ()", "out of range for i64", 1, 17),
    ("int-index", '"foo.op"() {a = 99999999999999999999999 : index} : () -> ()', "out of range for index", 1, 17),
    ("int-wrong-type", '"foo.op"() {a = 1 : tensor<2xi8>} : () -> ()', "integer literal not valid for specified type",
     1, 17),
    ("float-too-big", '"foo.op"() {a = 1.0e39 : f32} : () -> ()', "out of range for type 'f32'", 1, 17),
    ("float-too-big-f64", '"foo.op"() {a = 1.0e400 : f64} : () -> ()', "out of range for type 'f64'", 1, 17),
    ("float-hex-too-wide", '"foo.op"() {a = 0x1FFFF : f16} : () -> ()',
     "hexadecimal float constant 0x1FFFF out of range for type 'f16'", 1, 17),
    ("float-wrong-type", '"foo.op"() {a = 1.5 : i32} : () -> ()', "floating point value not valid for specified type",
     1, 17),
    # dense literals
    ("dense-count", '"foo.op"() {a = dense<[1, 2, 3]> : tensor<2xi8>} : () -> ()',
     "inferred shape of elements literal ([3]) does not match type ([2])", 1, 17),
    ("dense-shape", '"foo.op"() {a = dense<[1, 2, 3, 4]> : tensor<2x2xi8>} : () -> ()',
     "inferred shape of elements literal ([4]) does not match type ([2, 2])", 1, 17),
    ("dense-ragged", '"foo.op"() {a = dense<[[1, 2], [3]]> : tensor<2x2xi8>} : () -> ()',
     "inconsistent nesting of elements", 1, 17),
    ("dense-mixed-nesting", '"foo.op"() {a = dense<[[1], 2]> : tensor<2x1xi8>} : () -> ()',
     "inconsistent nesting of elements", 1, 17),
    ("dense-range", '"foo.op"() {a = dense<[1, 300]> : tensor<2xi8>} : () -> ()',
     "integer constant 300 out of range for i8", 1, 17),
    ("dense-splat-range", '"foo.op"() {a = dense<300> : tensor<2xi8>} : () -> ()',
     "integer constant 300 out of range for i8", 1, 17),
    ("dense-unsigned-range", '"foo.op"() {a = dense<[-1, 255]> : tensor<2xui8>} : () -> ()',
     "integer constant -1 out of range for ui8", 1, 17),
    ("dense-float-for-int", '"foo.op"() {a = dense<[1.5]> : tensor<1xi32>} : () -> ()',
     "expected an integer element, found '1.5'", 1, 17),
    ("dense-bool-for-int", '"foo.op"() {a = dense<true> : tensor<1xi32>} : () -> ()', "unexpected boolean element", 1, 17),
    ("dense-float-range", '"foo.op"() {a = dense<[70000.0]> : tensor<1xf16>} : () -> ()', "out of range", 1, 17),
    ("dense-hex-size", '"foo.op"() {a = dense<"0x010203"> : tensor<2xi8>} : () -> ()',
     "elements hex data size is invalid for provided type", 1, 17),
    ("dense-hex-odd", '"foo.op"() {a = dense<"0x010"> : tensor<2xi8>} : () -> ()', "malformed hex string", 1, 17),
    ("dense-hex-space", '"foo.op"() {a = dense<"0x01 02"> : tensor<2xi8>} : () -> ()', "malformed hex string", 1, 17),
    ("dense-dynamic", '"foo.op"() {a = dense<1> : tensor<?xi8>} : () -> ()', "has a dynamic shape", 1, 17),
    ("dense-not-tensor", '"foo.op"() {a = dense<1> : i8} : () -> ()', "dense attribute needs a ranked tensor type", 1, 17),
    ("dense-junk", '"foo.op"() {a = dense<[1, x]> : tensor<2xi8>} : () -> ()', "unexpected 'x' in dense attribute", 1, 17),
    ("dense-commas", '"foo.op"() {a = dense<[1,, 2]> : tensor<2xi8>} : () -> ()', "unexpected ','", 1, 17),
    ("dense-missing-comma", '"foo.op"() {a = dense<[1 2]> : tensor<2xi8>} : () -> ()', "expected ','", 1, 17),
    ("dense-unbalanced", '"foo.op"() {a = dense<[[1]> : tensor<1xi8>} : () -> ()', "unbalanced '['", 1, 17),
    ("dense-huge-splat", '"foo.op"() {a = dense<0> : tensor<100000x100000xi8>} : () -> ()', "too large", 1, 17),
    # types
    ("deep-angles", '%0 = "foo.op"() : () -> !foo.t' + "<" * 12 + ">" * 12, "'<' brackets are nested 12 levels deep",
     1, 31),
    ("tensor-element", '%0 = "foo.op"() : () -> tensor<1xfoo>', "unknown type 'foo'", 1, 34),
    ("tensor-of-tensor", '%0 = "foo.op"() : () -> tensor<1xtensor<2xi8>>', "invalid tensor element type", 1, 34),
    ("tensor-encoding", '%0 = "foo.op"() : () -> tensor<1xi8, [1 2]>', "unexpected '2'", 1, 41),
    ("unranked-tensor", '%0 = "foo.op"() : () -> tensor<*i8>', "expected 'x' after '*'", 1, 33),
    ("integer-width", '%0 = "foo.op"() : () -> i99999999', "integer width 99999999 is larger than 16777216", 1, 25),
    # truncated files
    ("truncated-operands", 'module {\n  %0 = "foo.a"(',
     "expected an SSA value (like %0) in the operand list, found the end of the file", 2, 16),
    ("truncated-type", 'module {\n  %0 = "foo.a"() : () -> tensor<1x',
     "unexpected end of file; expected '>' to close the '<' at line 2, column 32", 2, 35),
    ("truncated-type-midfile", '%0 = "foo.op"() : () -> tensor<1x\n"foo.next"() : () -> ()',
     "unexpected end of file; expected '>' to close the '<' at line 1, column 31", 2, 24),
    ("truncated-attributes", 'module {\n  %0 = "foo.a"() {a = ', "unexpected end of file", 2, 23),
    ("truncated-properties", '"foo.a"() <{a = 1', "unexpected end of file; expected ',', '}'", 1, 18),
    ("truncated-region", 'module {\n  "foo.a"() : () -> ()\n', "unexpected end of file", 3, 1),
    ("truncated-return", "func.func @f(%arg0: i32) -> i32 {\n  return %arg0 : i", "unexpected 'i'", 2, 18),
    ("truncated-signature", '"foo.op"() : () ->', "unexpected end of file", 1, 19),
    # nesting
    ("deep-arrays", '"foo.op"() {a = ' + "[" * 200 + "]" * 200 + "} : () -> ()",
     "brackets are nested more than 128 levels deep", 1, 144),
    ("deep-regions", '"foo.op"() ({' * 100 + "}) : () -> ()" * 100, "brackets are nested more than 128 levels deep",
     1, 844),
    # resources
    ("blob-odd-length", _resource('"0x040000000"'), "malformed hex string in resource blob", 5, 10),
    ("blob-not-hex", _resource('"0x04000000zz"'), "malformed hex string in resource blob", 5, 10),
    ("blob-whitespace", _resource('"0x04000000 01"'), "malformed hex string in resource blob", 5, 10),
    ("blob-no-0x", _resource('"0400000001"'), 'expected a hex string ("0x...") for a resource blob', 5, 10),
    ("blob-no-alignment", _resource('"0x0400"'), "missing its 4-byte alignment prefix", 5, 10),
    ("blob-bad-alignment", _resource('"0x0300000001"'), "alignment 3 is not a power of two", 5, 10),
    ("blob-not-a-string", _resource("0x0400000001"), "expected a hex string for a resource blob", 5, 10),
    ("blob-size", _resource('"0x040000000102"'), "resource 'b' holds 2 bytes but 'tensor<1xi8>' needs 1", 1, 16),
    ("trailer-unterminated-string", _resource('"0x0400000001').split("\n    }")[0],
     "unterminated string in resource trailer", 5, 10),
    ("trailer-truncated", _resource('"0x0400000001"').split("    }")[0], "expected ',' or '}' in resource trailer", 6, 1),
    ("trailer-junk-after", _resource('"0x0400000001"') + "junk\n", "unexpected text after the resource trailer", 9, 1),
    ("trailer-unknown-section", "{-#\n  nonsense: {}\n#-}\n",
     "expected 'dialect_resources' or 'external_resources'", 2, 3),
    ("trailer-key-escape", '{-#\n  dialect_resources: {\n    builtin: {\n      "a\\q": "0x0100000001"\n    }\n  }\n#-}\n',
     r"unknown escape '\q'", 4, 7),
    ("resource-key", '"foo.op"() {a = dense_resource<a b> : tensor<1xi8>} : () -> ()',
     "expected a resource key (an identifier or a string)", 1, 17),
    ("resource-dynamic", '"foo.op"() {a = dense_resource<a> : tensor<?xi8>} : () -> ()',
     "dense_resource needs a statically shaped tensor type", 1, 17),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_bad_input_is_reported_at_its_position(case: tuple) -> None:
    _, text, message, line, col, *rest = case
    err = _error(text, allow_unregistered=rest[0] if rest else True)
    assert message in err.diagnostic.message
    assert _where(err) == (line, col), err.diagnostic.message
    assert err.diagnostic.severity == "error"
    assert "Traceback" not in err.diagnostic.message


def test_unregistered_ops_are_accepted_when_allowed() -> None:
    module = parse_module('"foo.bar"() : () -> !foo.t\n', "ok.mlir", ParseOptions(allow_unregistered=True))
    assert [op.name for op in module.walk()] == ["builtin.module", "foo.bar"]


def test_allow_unregistered_is_checked_on_every_parse() -> None:
    """Types and attributes are cached across parses; the registration check must not be."""
    text = 'func.func private @f(tensor<2x!foo.x, #foo.e>) attributes {a = #foo.y}'
    parse_module(text, "a.mlir", ParseOptions(allow_unregistered=True))
    with pytest.raises(ParseError, match="unregistered dialect 'foo'"):
        parse_module(text, "b.mlir", ParseOptions(allow_unregistered=False))


# ---- robustness: truncation, garbage, huge unterminated input ----------------------------------

VALID = """module @m attributes {foo.bar = 1 : i32} {
  func.func @main(%arg0: tensor<1x8xi8> {foo.in}, %arg1: i32) -> (tensor<1x8xi8>, i32) {
    %0:2 = "foo.op"(%arg0, %arg1) {s = "a\\22b", d = dense<[1, 2]> : tensor<2xi8>} : (tensor<1x8xi8>, i32) -> (tensor<1x8xi8>, i32) loc("n"("f.mlir":1:2))
    "foo.br"(%0#1)[^bb1] : (i32) -> ()
  ^bb1(%x: i32):
    %q = "foo.q"() <{p = !quant.uniform<i8:f32, 0.5:-3>}> : () -> tensor<4xi8, #foo.fm<nhcwb16, sram, 4096>>
    return %0#0, %x : tensor<1x8xi8>, i32
  }
  func.func private @decl(i32) -> i32
  "foo.w"() {w = dense_resource<blob> : tensor<2xi8>} : () -> ()
}
{-#
  dialect_resources: {
    builtin: {
      blob: "0x010000000102"
    }
  }
#-}
"""


def _parse_or_parse_error(text: str, allow_unregistered: bool = True) -> None:
    """Parsing either succeeds (and then printing is a fixed point) or raises ParseError at a real
    position of the text; anything else escaping is a bug."""
    try:
        module = parse_module(text, "bad.mlir", ParseOptions(allow_unregistered=allow_unregistered))
    except ParseError as err:
        line, col = _where(err)
        lines = text.split("\n")
        assert 1 <= line <= len(lines)
        assert 1 <= col <= len(lines[line - 1]) + 1
        return
    for options in (PrintOptions(), PrintOptions(generic=True, debuginfo=True)):
        printed = print_op(module, options)
        again = parse_module(printed, "bad.mlir", ParseOptions(allow_unregistered=allow_unregistered))
        assert print_op(again, options) == printed


def test_valid_base_text_parses() -> None:
    parse_module(VALID, "ok.mlir", ParseOptions(allow_unregistered=True))


def test_every_truncation_is_a_parse_error_or_valid() -> None:
    for cut in range(0, len(VALID), 3):
        _parse_or_parse_error(VALID[:cut])


def test_truncated_in_the_middle_of_an_op() -> None:
    cut = VALID.index('"foo.op"(%arg0') + len('"foo.op"(%arg0, %ar')
    err = _error(VALID[:cut])
    assert _where(err) == (3, 12 + len('"foo.op"(%arg0, %ar'))  # the end of the file
    assert "expected ',' or ')' in the operand list, found the end of the file" in err.diagnostic.message


@pytest.mark.parametrize("seed", range(12))
def test_random_edits_never_raise_anything_but_parse_errors(seed: int) -> None:
    rng = random.Random(seed)
    pieces = list('"%#@!^:=,->(){}[]<>0123456789abcxi .\n\\') + [
        "tensor<", "dense<", "->", "0x", "loc(", "{-#", "#-}", "?x", "*x", "!quant.uniform<", "i8", "%0", "^bb1",
        "dense_resource<", "func.func", "module", "return", "//", '"']
    for _ in range(40):
        text = VALID
        for _ in range(rng.randint(1, 4)):
            pos = rng.randrange(len(text) + 1)
            choice = rng.random()
            if choice < 0.35:
                text = text[:pos] + text[pos + rng.randint(1, 6):]
            elif choice < 0.8:
                text = text[:pos] + rng.choice(pieces) + text[pos:]
            else:
                other = rng.randrange(len(text) + 1)
                text = text[:pos] + text[min(pos, other):max(pos, other)] + text[pos:]
        _parse_or_parse_error(text, allow_unregistered=bool(seed % 2))


@pytest.mark.parametrize("seed", range(8))
def test_binary_garbage(seed: int) -> None:
    data = random.Random(seed).randbytes(4096)
    text = data.decode("utf-8", errors="replace")
    err = _error(text)
    line, col = _where(err)
    assert line >= 1 and col >= 1
    _parse_or_parse_error(text)


def test_binary_garbage_after_valid_ops() -> None:
    garbage = random.Random(7).randbytes(512).decode("utf-8", errors="replace").replace("\n", " ")
    err = _error('"foo.a"() : () -> ()\n' + "x" + garbage)
    assert _where(err) == (2, 1)


MB = 1 << 20

# Unterminated or unbalanced input a few megabytes long: each must fail fast (the patterns of the
# coarse tokens are possessive and unambiguous, nesting is bounded), with the error where it is.
LONG = [
    ("tensor<", lambda n: "tensor<" * (n // 7), "unexpected 'tensor'", (1, 1)),
    ("tensor<-as-type", lambda n: '"foo.a"() : () -> ' + "tensor<" * (n // 7), "nested more than 128 levels deep",
     (1, 921)),
    ("sig-tensor<", lambda n: '"foo.a"() : () -> tensor<' + "x" * n, "expected '>' to close the '<'", None),
    ("open-braces", lambda n: '"foo.a"() ' + "{" * n, "unexpected '{'", (1, 12)),
    ("attr-dicts", lambda n: '"foo.a"() ' + "{a = " * (n // 5), "brackets are nested more than 128 levels deep", None),
    ("props", lambda n: '"foo.a"() <' + "{" * n, "unexpected '{'", (1, 13)),
    ("quotes", lambda n: '"' * n, "", (1, 3)),
    ("attr-string", lambda n: '"foo.a"() {a = "' + "x" * n, "unterminated string", (1, 16)),
    ("escaped-quotes", lambda n: '"foo.a"() {a = "' + '\\"' * (n // 2), "unterminated string", (1, 16)),
    ("op-parens", lambda n: '"foo.a"' + "(" * n, "expected an SSA value", (1, 9)),
    ("sig-parens", lambda n: '"foo.a"() : ' + "(" * n, "brackets are nested more than 128 levels deep", None),
    ("sig-arrows", lambda n: '"foo.a"() : (' + "->" * (n // 2), "unexpected '->'", (1, 14)),
    ("arrows-in-type", lambda n: '"foo.a"() : (tensor<' + "->" * (n // 2), "expected '>' to close the '<'", None),
    ("dialect-angles", lambda n: '"foo.a"() : () -> !a.b' + "<" * n, "brackets are nested more than 128", None),
    ("dialect-arrows", lambda n: '"foo.a"() : () -> !a.b<' + "<->" * (n // 3), "brackets are nested more than 128",
     None),
    ("dense", lambda n: '"foo.a"() {a = dense<' + "1," * (n // 2), "expected '>' to close the '<'", None),
    ("dense-hex", lambda n: '"foo.a"() {a = dense<"0x' + "AB" * (n // 2), "unterminated string", (1, 22)),
    ("dense-resource", lambda n: '"foo.a"() {a = dense_resource<' + "a" * n, "expected '>' to close the '<'", None),
    ("results", lambda n: "%a, " * (n // 4), "unexpected '%a'", (1, 1)),
    ("operands", lambda n: '"foo.a"(' + "%a, " * (n // 4), "operand list, found the end of the file", None),
    ("loc", lambda n: '"foo.a"() : () -> () loc(' + '"a"(' * (n // 4), "nested more than 128", None),
    ("symbol", lambda n: '"foo.a"() {a = @"' + "x" * n, "unterminated string", (1, 16)),
    ("arrays", lambda n: '"foo.a"() {a = ' + "[" * n, "nested more than 128", None),
    ("paren-pairs", lambda n: '"foo.a"(' + "()" * (n // 2), "expected an SSA value", (1, 9)),
    ("many-lines", lambda n: "x\n" * (n // 2), "unexpected 'x'", (1, 1)),
    ("comment", lambda n: "// " + "x" * n + '\n"', "unterminated string", (2, 1)),
    ("trailer", lambda n: "{-#" + " dialect_resources: {" * (n // 21), "expected a hex string for a resource blob",
     (1, 66)),
    ("trailer-blob", lambda n: '{-#\n dialect_resources: {\n builtin: {\n b: "0x' + "A" * n, "unterminated string",
     (4, 5)),
]


@pytest.mark.parametrize("name,make,message,where", LONG, ids=[c[0] for c in LONG])
def test_megabytes_of_unterminated_input(name: str, make, message: str, where) -> None:
    text = make(5 * MB)
    err = _error(text)
    assert message in err.diagnostic.message
    if where is not None:
        assert _where(err) == where
    else:
        line, col = _where(err)
        assert line >= 1 and col >= 1


@pytest.mark.parametrize("seed", range(3))
def test_a_long_single_line_of_garbage(seed: int) -> None:
    rng = random.Random(seed)
    alphabet = 'abc{}()<>"%#@!:=,-> 0123456789\\[]'
    chunk = "".join(rng.choice(alphabet) for _ in range(1 << 16))
    text = chunk * 80  # ~5 MB, one line
    err = _error(text)
    assert _where(err)[0] == 1


def test_a_long_single_line_of_binary_garbage() -> None:
    chunk = random.Random(3).randbytes(1 << 16).replace(b"\n", b" ")
    err = _error((chunk * 80).decode("utf-8", errors="replace"))
    assert _where(err)[0] == 1


def _crashy_dialect():
    from npu_opt.ir.attributes import StringAttr
    from npu_opt.ir.opdef import Dialect, lookup_dialect, register_dialect

    dialect = lookup_dialect("unittest_crashy")
    if dialect is None:
        dialect = register_dialect(Dialect("unittest_crashy", "attribute parsers that fail (a unit-test fixture)"))

        @dialect.attribute("ok")
        def _ok(body: str | None) -> StringAttr:
            return StringAttr(f"ok:{body}")

        @dialect.attribute("boom")
        def _boom(body: str | None) -> StringAttr:
            return {"a": StringAttr("a")}[body or ""]  # KeyError unless the body is 'a'

        @dialect.attribute("strict")
        def _strict(body: str | None) -> StringAttr:
            from npu_opt.ir.type_parser import AttributeSyntaxError
            if body != "a":
                raise AttributeSyntaxError(f"#unittest_crashy.strict takes 'a', not '{body}'")
            return StringAttr("a")
    return dialect


def test_dialect_attribute_parser_rejections_are_parse_errors_and_bugs_are_not() -> None:
    """A parser's AttributeSyntaxError is a parse error at the attribute; any other exception is a
    bug in that parser and escapes as AttributeParserCrash (the driver's crash guard reports it)."""
    from npu_opt.ir.parser import AttributeParserCrash
    _crashy_dialect()
    module = parse_module('"foo.op"() {a = #unittest_crashy.ok<x>, b = #unittest_crashy.boom<a>} : () -> ()',
                          "ok.mlir", ParseOptions(allow_unregistered=True))
    op = next(iter(module.regions[0].blocks[0].ops))
    assert op.attributes["a"].value == "ok:x" and op.attributes["b"].value == "a"
    err = _error('"foo.op"() {a = 1 : i32,\n  b = #unittest_crashy.strict<zz>} : () -> ()')
    assert err.diagnostic.message == "#unittest_crashy.strict takes 'a', not 'zz'"
    assert _where(err) == (2, 7)
    err = _error('%0 = "foo.op"() : () -> tensor<2xi8, #unittest_crashy.strict<zz>>')
    assert err.diagnostic.message == "#unittest_crashy.strict takes 'a', not 'zz'"
    assert _where(err) == (1, 38)  # the encoding
    for text in ('"foo.op"() {a = 1 : i32,\n  b = #unittest_crashy.boom<zz>} : () -> ()',
                 '%0 = "foo.op"() : () -> tensor<2xi8, #unittest_crashy.boom<zy>>'):
        with pytest.raises(AttributeParserCrash, match="the parser of '#unittest_crashy.boom' failed: KeyError"):
            parse_module(text, "bad.mlir", ParseOptions(allow_unregistered=True))
