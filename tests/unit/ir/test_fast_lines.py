"""ir/fast_lines.py (whole generic-op lines read without lark) builds exactly the IR the ordinary
parse builds (same printed text, same positions and locations, same interned objects), takes
the lines it should, and leaves every error to the ordinary rules, so each diagnostic keeps its
message and file:line:col."""
from __future__ import annotations

import pytest

from npu_opt.ir import fast_lines
from npu_opt.ir.attributes import DenseResourceAttr
from npu_opt.ir import parser as parser_module
from npu_opt.ir.parser import ParseError, ParseOptions, parse_module
from npu_opt.ir.printer import PrintOptions, print_op

PER_AXIS = "!quant.uniform<i8<-127:127>:f32:0, {0.5,0.25,1e-3,.5}>"
PER_AXIS_ZP = "!quant.uniform<i8:f32:0, {0.5:1,0.25:-2}>"
ACT = "tensor<1x4x!quant.uniform<i8:f32, 0.125:-128>>"
ACT2 = "tensor<1x4x!quant.uniform<i8:f32, 2.5e-02>>"
TRAILER = '\n{-#\n  dialect_resources: {\n    builtin: {\n      w: "0x0400000001020304"\n    }\n  }\n#-}\n'

LINES = [
    f'%0 = "foo.c"() <{{qtype = tensor<4x1x1x1x{PER_AXIS}>, value = dense_resource<w> : tensor<4x1x1x1xi8>}}> '
    f': () -> tensor<4x1x1x1x{PER_AXIS}> loc("main/w")',
    f'%1 = "foo.c"() <{{value = dense<[1, -2]> : tensor<2xi32>, k = dense<7> : tensor<3xi8>}}> : () -> {ACT}',
    f'%2 = "foo.c"() <{{q = tensor<2x{PER_AXIS_ZP}>}}> : () -> tensor<2x{PER_AXIS_ZP}> loc("a\\"b\\n")',
    f'%3 = "foo.conv"(%1, %0) <{{padding = "SAME", stride = [1 : i32, 2 : i32], f = 1.5 : f32, u, t = true}}> '
    f'{{note = "x y", e = dense<"0x01020304"> : tensor<4xi8>}} : ({ACT}, tensor<4x1x1x1x{PER_AXIS}>) -> {ACT2}',
    '%4 = "foo.c"() {s = "esc\\"aped\\\\", d = {inner = 1 : i64}, a = [], sym = @f, n = unit} : () -> i32 loc("n")',
    '"foo.sink"(%3, %4) : (' + ACT2 + ', i32) -> ()',
    '%5:2 = "foo.pair"() : () -> (i8, i8)',
    '"foo.sink"(%5#1) : (i8) -> ()',
    '%6 = "foo.c"() : () -> tensor<?x3xf32>   ',
    '%7 = "foo.r"() ({\n    %8 = "foo.c"() : () -> i32\n    "foo.y"(%8, %6) : (i32, tensor<?x3xf32>) -> ()\n  }) : () -> i32',
    '%9 = "foo.c"() : () -> i32 loc(unknown)',
    '%10 = "foo.c"() : () -> i32 // a comment',
    '%11 = "foo.c"() : () -> i32 loc("deep"("child"))',
    '%12 = "foo.c"() {t = !foo.bar<1, "x>">, ty = f32} : () -> !foo.q<a<b<c>>>',
]


def _module(lines: list[str]) -> str:
    body = "\n".join(f"  {line}" for line in lines)
    return f"module {{\n{body}\n}}\n{TRAILER}"


def _walk(text: str, allow: bool = True) -> tuple[str, str, list]:
    module = parse_module(text, "f.mlir", ParseOptions(allow_unregistered=allow))
    ops = [(op.name, op.pos, op.location, _items(op.attributes), _items(op.properties),
            tuple(r.type for r in op.results), tuple(v.type for v in op.operands)) for op in module.walk()]
    return print_op(module), print_op(module, PrintOptions(generic=True)), ops


def _items(attributes: dict) -> tuple:
    """The entries, each value its interned object (a resource's by text: each parse has its own
    blobs, so the two parses' DenseResourceAttrs differ by blob identity only)."""
    return tuple((k, str(v) if isinstance(v, DenseResourceAttr) else v) for k, v in attributes.items())


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Fast lines taken even for short inputs; counts of runs built and lines built each way."""
    monkeypatch.setattr(fast_lines, "MIN_LINES", 1)
    counts = {"runs": 0, "general": 0}
    build_run, general = fast_lines.build_run, fast_lines._general_line

    def counting_run(builder, token):
        counts["runs"] += 1
        return build_run(builder, token)

    def counting_general(builder, entry):
        counts["general"] += 1
        return general(builder, entry)

    monkeypatch.setattr(parser_module, "build_run", counting_run)
    monkeypatch.setattr(fast_lines, "_general_line", counting_general)
    return counts


def _ordinary(monkeypatch: pytest.MonkeyPatch, text: str, allow: bool = True) -> tuple[str, str, list]:
    with monkeypatch.context() as patch:
        patch.setattr(fast_lines, "find_runs", lambda body, pattern, end=None: None)
        return _walk(text, allow)


def test_fast_lines_build_what_the_ordinary_parse_builds(counted, monkeypatch):
    text = _module(LINES)
    fast = _walk(text)
    assert counted["runs"] >= 3  # split by the region op and the lines with a trailing loc/comment
    assert fast == _ordinary(monkeypatch, text)
    assert parse_module(print_op(parse_module(text, "f.mlir", ParseOptions(True))), "g.mlir",
                        ParseOptions(True)) is not None


@pytest.mark.parametrize("index", range(len(LINES)))
def test_each_line_alone_and_repeated(index, counted, monkeypatch):
    line = LINES[index]
    needs = {3: [0, 1], 5: [0, 1, 3, 4], 7: [6], 9: [8]}.get(index, [])
    lines = [LINES[i] for i in needs] + [line] + [f'"foo.z"() {{k = {i} : i32}} : () -> ()' for i in range(3)]
    text = _module(lines)
    assert _walk(text) == _ordinary(monkeypatch, text)


def test_the_imported_shape_takes_no_general_rule(counted):
    lines = [LINES[0], LINES[1], f'%3 = "foo.conv"(%1, %0) <{{padding = "SAME"}}> : ({ACT}, '
             f'tensor<4x1x1x1x{PER_AXIS}>) -> {ACT2} loc("c")'] * 1
    _walk(_module(lines))
    assert counted["runs"] == 1 and counted["general"] == 0


def test_short_inputs_keep_the_ordinary_parse():
    assert fast_lines.find_runs(_module(LINES[:3]), parser_module._lark_with_builder()[1].pieces["line"]) is None


BAD = [
    ('%0 = "foo.c"() : () -> i32', '%1 = "foo.d"(%0) : (i8) -> i8'),  # mistyped use
    ('%0 = "foo.c"() : () -> i32', '%1 = "foo.d"(%x) : (i32) -> i8'),  # undefined
    ('%0 = "foo.c"() : () -> i32', '%0 = "foo.c"() : () -> i32'),  # redefinition
    ('%0 = "foo.c"() : () -> i32', '%1 = "foo.d"(%0, %0) : (i32) -> i8'),  # operand count
    ('%0 = "foo.c"() : () -> i32', '%1, %2 = "foo.d"() : () -> i8'),  # result count
    ('%0 = "foo.c"() <{v = dense<[1, 2, 3]> : tensor<2xi32>}> : () -> i32', '"foo.e"() : () -> ()'),
    ('%0 = "foo.c"() <{v = dense_resource<w> : tensor<5xi8>}> : () -> i32', '"foo.e"() : () -> ()'),
    ('%0 = "foo.c"() : () -> tensor<2x!quant.uniform<i8:f32:0, {0.5,-1.0}>>', '"foo.e"() : () -> ()'),
    ('%0 = "foo.c"() : () -> tensor<2x!quant.uniform<i8:f32:0, {0.5,}>>', '"foo.e"() : () -> ()'),
    ('%0 = "foo.c"() : () -> i32 loc("bad\\q")', '"foo.e"() : () -> ()'),
    ('%0 = "foo.c"() <{s = "bad\\q"}> : () -> i32', '"foo.e"() : () -> ()'),
    ('"func.nonsense"() : () -> ()', '"foo.e"() : () -> ()'),  # unknown op of a registered dialect
    ('%0 = "foo.c"() {t = !bar.baz} : () -> i32', '"foo.e"() : () -> ()'),
    ('"foo.e"() : () -> ()', '"foo.e"() : () -> ()\n  }\n}'),  # a syntax error after a run
    ('"foo.e"() : () -> ()', '"foo.e"(%q) : (i32) -> ()'),  # use never defined
]


def _outcome(text: str, allow: bool) -> tuple:
    try:
        return ("parsed", _walk(text, allow))
    except ParseError as err:
        return ("error", err.diagnostic.message, err.diagnostic.location)


@pytest.mark.parametrize("allow", [True, False])
@pytest.mark.parametrize("first,second", BAD)
def test_errors_in_fast_lines_are_the_ordinary_ones(first, second, allow, counted, monkeypatch):
    lines = [f'"foo.z"() {{k = {i} : i32}} : () -> ()' for i in range(3)] + [first, second]
    text = _module(lines)
    fast = _outcome(text, allow)
    with monkeypatch.context() as patch:
        patch.setattr(fast_lines, "find_runs", lambda body, pattern, end=None: None)
        ordinary = _outcome(text, allow)
    assert fast == ordinary
    assert fast[0] == "error" or allow  # each is an error at least without --allow-unregistered-dialect


def test_a_placeholder_inside_a_multiline_token_falls_back(counted, monkeypatch):
    """Lines that lark would read as part of a longer token (an opaque type's body spanning
    lines) are not ops: the run check sees its placeholder was never built and reparses."""
    lines = ['"foo.z"() : () -> ()'] * 2 + ['%0 = "foo.c"() : () -> !foo.t<', '  %1 = "foo.c"() : () -> i32',
                                             '  "foo.d"() : () -> ()', '>']
    text = _module(lines)
    assert _walk(text) == _ordinary(monkeypatch, text)


def test_input_holding_the_placeholder_mark_is_parsed_the_ordinary_way():
    text = _module(LINES[:1] * 3 + ['"foo.c"() {s = "\x00"} : () -> ()'])
    assert fast_lines.find_runs(text, parser_module._lark_with_builder()[1].pieces["line"]) is None


def test_the_run_pattern_of_one_tensor_matches_the_character_pattern():
    """signature_split._ONE_TENSOR (runs of plain characters) accepts exactly what _TENSOR (one
    step per character) accepts."""
    import random

    from npu_opt.ir.signature_split import _ONE_TENSOR, _patterns
    one = _patterns()[0]
    rng = random.Random(7)
    alphabet = '<>{}[]x8a,"()-: '
    for _ in range(20000):
        text = "tensor<" + "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14)))
        assert (one.fullmatch(text) is None) == (_ONE_TENSOR.fullmatch(text) is None), text


QUANT_TENSORS = [
    "tensor<8x3x!quant.uniform<i8<-127:127>:f32:0, {0.5,0.25,1e-3,.5,2.5E+2,7,0.125,3.0e-05}>>",
    "tensor<2x!quant.uniform<i8:f32:1, { 0.5 , 0.25 }>>",
    "tensor<2x!quant.uniform<u8:f32:0, {0.5,0.25}>>",
    "tensor<1x4x!quant.uniform<i8:f32, 0.125:-128>>",
    "tensor<1x4x!quant.uniform<i8:f32, 0.125>>",
    "tensor<4x!quant.uniform<i16:f32, 2.0:7>>",
    "tensor<4x!quant.uniform<i8<-8:7>:f32, 2.0:7>>",
    "tensor<4x!quant.uniform<i8<-8:7>:f32, 2.0:8>>",  # zero point out of range (all that follow: not taken)
    "tensor<4x!quant.uniform<i8:f32, 0.0>>",  # zero scale
    "tensor<4x!quant.uniform<i8:f32, inf>>",
    "tensor<4x!quant.uniform<i8:f32, nan>>",
    "tensor<2x!quant.uniform<i8:f32:0, {0.5,nan}>>",
    "tensor<2x!quant.uniform<i8:f32:0, {0.5:1,0.25:2}>>",
    "tensor<2x!quant.uniform<i8:f32:0, {0.5,}>>",
    "tensor<2x!quant.uniform<i8:f32:0, 0.5>>",
    "tensor<2x!quant.uniform<i8<1:0>:f32, 0.5>>",
    "tensor<2x!quant.uniform<i8:f32, 0.5:99999999999999999999>>",
    "tensor<99999999999999999999x!quant.uniform<i8:f32, 0.5>>",
    "tensor<?x!quant.uniform<i8:f32, 0.5>>",
]


TAKEN = 7
"""The first TAKEN spellings above are ones the fast decoder must take."""


@pytest.mark.parametrize("text", QUANT_TENSORS)
def test_quant_tensors_decode_as_the_general_type_parser_does(text):
    """type_parser._quant_tensor gives the general path's object, or None where that path has
    anything to say (an error, an unusual spelling)."""
    from npu_opt.ir.type_parser import TypeParser, TypeSyntaxError
    builder = parser_module._lark_with_builder()[1]

    def general() -> object:
        parser = TypeParser(builder._parse_attribute_text, builder._dialect_attr)
        parser._quant_tensor = lambda text: None  # type: ignore[method-assign]
        try:
            return parser.parse(text)
        except (TypeSyntaxError, ValueError) as err:
            return ("error", str(err))

    expected = general()
    fast = TypeParser(builder._parse_attribute_text, builder._dialect_attr)
    try:
        fast.parse(text)  # decodes the head, the first time through the general path
    except (TypeSyntaxError, ValueError):
        pass
    quick = fast.quant_tensor(text)
    if isinstance(expected, tuple):
        assert quick is None
    elif QUANT_TENSORS.index(text) < TAKEN:
        assert quick is expected
    else:
        assert quick is None or quick is expected


def test_blocks_functions_and_top_level_ops(counted, monkeypatch):
    """Runs inside labelled blocks, function bodies and at the top level (no module) are built
    where the ordinary parse puts them."""
    blocks = ('%r = "foo.r"() ({\n  ^bb0(%a: i32):\n    %b = "foo.c"(%a) : (i32) -> i32\n'
              '    %c = "foo.c"(%b) : (i32) -> i32\n    "foo.br"(%c)[^bb1] : (i32) -> ()\n'
              '  ^bb1:\n    "foo.y"() : () -> ()\n    "foo.y"() : () -> ()\n  }) : () -> i32')
    func = ('func.func @f(%x: i32) -> i32 {\n    %0 = "foo.c"(%x) : (i32) -> i32 loc("a")\n'
            '    %1 = "foo.c"(%0) : (i32) -> i32\n    return %1 : i32\n  }')
    for text in (_module([blocks, func]), "\n".join(LINES[:2] + LINES[6:9]) + TRAILER):
        runs = counted["runs"]
        assert _walk(text) == _ordinary(monkeypatch, text)
        assert counted["runs"] > runs
