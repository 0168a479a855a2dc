"""The parser: what IR it builds from the generic and pretty syntax, and that print(parse(x)) is a
fixed point of parsing and printing for all of it."""
from __future__ import annotations

import pytest

from npu_opt.ir.attributes import UNIT, ArrayAttr, DictionaryAttr, IntegerAttr, StringAttr, TypeAttr
from npu_opt.ir.core import BlockArgument, OpResult
from npu_opt.ir.location import UNKNOWN_LOC, FileLineColLoc, FusedLoc, NameLoc
from npu_opt.ir.parser import ParseError, ParseOptions, parse_module, parse_ops
from npu_opt.ir.printer import PrintOptions, print_op
from npu_opt.ir.types import F32, I1, I8, I32, I64, FunctionType, RankedTensorType


def _parse(text: str, allow_unregistered: bool = True):
    return parse_module(text, "t.mlir", ParseOptions(allow_unregistered=allow_unregistered))


def _ops(module):
    return list(module.regions[0].blocks[0].ops)


def test_every_sample_round_trips(ir_sample: str, print_mode: PrintOptions) -> None:
    first = print_op(_parse(ir_sample), print_mode)
    second = print_op(_parse(first), print_mode)
    assert first == second


def test_generic_and_pretty_forms_agree(ir_sample: str) -> None:
    """Reading the generic form back and printing it pretty gives the pretty form, and vice versa."""
    module = _parse(ir_sample)
    pretty = print_op(module)
    generic = print_op(module, PrintOptions(generic=True))
    assert print_op(_parse(generic)) == pretty
    assert print_op(_parse(pretty), PrintOptions(generic=True)) == generic


def test_empty_input_is_an_empty_module() -> None:
    for text in ("", "\n\n", "// only a comment\n", "  // two\n// comments"):
        module = _parse(text)
        assert module.name == "builtin.module"
        assert len(module.regions[0].blocks) == 1 and not _ops(module)
        assert print_op(module) == "module {\n}\n"


def test_top_level_ops_are_wrapped_in_a_module() -> None:
    module = _parse('"foo.a"() : () -> ()\n"foo.b"() : () -> ()')
    assert module.name == "builtin.module"
    assert [op.name for op in _ops(module)] == ["foo.a", "foo.b"]
    explicit = _parse('module {\n  "foo.a"() : () -> ()\n}')
    assert [op.name for op in _ops(explicit)] == ["foo.a"]
    ops, resources = parse_ops('"foo.a"() : () -> ()\n"foo.b"() : () -> ()', "t.mlir", ParseOptions(True))
    assert [op.name for op in ops] == ["foo.a", "foo.b"] and not resources.blobs


def test_operands_results_and_uses() -> None:
    module = _parse('%0 = "foo.def"() : () -> i32\n%1 = "foo.add"(%0, %0) : (i32, i32) -> i64\n'
                    '"foo.use"(%1) : (i64) -> ()')
    a, b, c = _ops(module)
    assert isinstance(a.results[0], OpResult) and a.results[0].type is I32
    assert b.operands == [a.results[0], a.results[0]] and b.results[0].type is I64
    assert a.results[0].uses == [(b, 0), (b, 1)]
    assert c.operands == [b.results[0]] and not c.results


def test_multi_result_forms() -> None:
    module = _parse('%x:2 = "foo.pair"() : () -> (i32, i64)\n'
                    '%a, %b = "foo.pair"() : () -> (i8, i1)\n'
                    '%p:2, %q = "foo.three"() : () -> (i32, i32, f32)\n'
                    '"foo.use"(%x#1, %x#0, %b, %a, %p#1, %q) : (i64, i32, i1, i8, i32, f32) -> ()')
    pair, xdsl_pair, three, use = _ops(module)
    assert use.operands == [pair.results[1], pair.results[0], xdsl_pair.results[1], xdsl_pair.results[0],
                            three.results[1], three.results[2]]
    printed = print_op(module)
    assert '%0:2 = "foo.pair"() : () -> (i32, i64)' in printed
    assert '"foo.use"(%0#1, %0#0, %1#1, %1#0, %2#1, %2#2)' in printed


def test_single_result_can_be_named_with_hash_zero() -> None:
    module = _parse('"foo.use"(%v#0, %w) : (i32, i8) -> ()\n%v = "foo.def"() : () -> i32\n'
                    '%w = "foo.def"() : () -> i8\n"foo.use"(%v#0) : (i32) -> ()')
    use, v, w, again = _ops(module)
    assert use.operands == [v.results[0], w.results[0]] and again.operands == [v.results[0]]


def test_forward_references_are_resolved() -> None:
    module = _parse('"foo.use"(%later, %later#1) : (i32, i64) -> ()\n%later:2 = "foo.def"() : () -> (i32, i64)')
    use, definition = _ops(module)
    assert use.operands == definition.results
    assert definition.results[0].uses == [(use, 0)]


def test_regions_blocks_arguments_and_successors() -> None:
    module = _parse("""
"foo.cfg"() ({
^bb0(%arg0: i32, %arg1: i64):
  "foo.br"(%arg0)[^next] : (i32) -> ()
^next(%x: i32):
  "foo.cond_br"(%x, %arg1)[^next, ^done] : (i32, i64) -> ()
^done:
  "foo.ret"() : () -> ()
}, {
  "foo.inner"() : () -> ()
}) : () -> ()""")
    (cfg,) = _ops(module)
    first, second = cfg.regions
    entry, loop, done = first.blocks
    assert [a.type for a in entry.args] == [I32, I64] and isinstance(entry.args[0], BlockArgument)
    assert [a.type for a in loop.args] == [I32] and not done.args
    br, = entry.ops
    cond, = loop.ops
    assert br.successors == [loop] and br.operands == [entry.args[0]]
    assert cond.successors == [loop, done] and cond.operands == [loop.args[0], entry.args[1]]
    assert len(second.blocks) == 1 and [op.name for op in second.blocks[0].ops] == ["foo.inner"]
    printed = print_op(module)
    assert "^bb0(%0: i32, %1: i64):" in printed and "^bb1(%2: i32):" in printed
    assert '"foo.cond_br"(%2, %1)[^bb1, ^bb2]' in printed


def test_values_from_enclosing_regions_are_visible() -> None:
    module = _parse('%0 = "foo.def"() : () -> i32\n"foo.wrap"() ({\n  "foo.use"(%0) : (i32) -> ()\n}) : () -> ()')
    definition, wrap = _ops(module)
    (use,) = wrap.regions[0].blocks[0].ops
    assert use.operands == [definition.results[0]]


def test_isolated_regions_do_not_see_outer_values() -> None:
    with pytest.raises(ParseError, match="use of undeclared SSA value name '%0'") as info:
        _parse('%0 = "foo.def"() : () -> i32\nfunc.func @f() {\n  "foo.use"(%0) : (i32) -> ()\n  return\n}')
    assert (info.value.diagnostic.location.line, info.value.diagnostic.location.col) == (3, 13)


def test_names_may_be_reused_in_sibling_isolated_regions() -> None:
    module = _parse("func.func @a(%arg0: i32) {\n  %x = \"foo.a\"() : () -> i8\n  return\n}\n"
                    "func.func @b(%arg0: i64) {\n  %x = \"foo.b\"() : () -> i16\n  return\n}")
    a, b = _ops(module)
    assert a.regions[0].blocks[0].args[0].type is I32 and b.regions[0].blocks[0].args[0].type is I64


def test_forward_reference_across_blocks_prints_and_round_trips(roundtrip) -> None:
    text = """
"foo.f"() ({
^bb0:
  "foo.br"()[^bb2] : () -> ()
^bb1:
  "foo.use"(%x, %y#1, %z) : (i32, i64, i8) -> ()
  "foo.ret"() : () -> ()
^bb2:
  %x = "foo.def"() : () -> i32
  %y:2 = "foo.def2"() : () -> (i32, i64)
  "foo.br"()[^bb3] : () -> ()
^bb3(%z: i8):
  "foo.br"()[^bb1] : () -> ()
}) : () -> ()"""
    printed = roundtrip(text)
    assert "<<UNKNOWN" not in printed
    assert '"foo.use"(%0, %1#1, %2) : (i32, i64, i8) -> ()' in printed
    assert '%0 = "foo.def"() : () -> i32' in printed and "^bb3(%2: i8):" in printed


def test_locations() -> None:
    module = _parse("""
"foo.a"() : () -> () loc("name")
"foo.b"() : () -> () loc("file.mlir":1:2)
"foo.c"() : () -> () loc(unknown)
"foo.d"() : () -> () loc("n"("f.mlir":3:4))
"foo.e"() : () -> () loc(fused["a", "b.mlir":5:6])
"foo.f"() : () -> ()""")
    a, b, c, d, e, f = _ops(module)
    assert a.location == NameLoc("name")
    assert b.location == FileLineColLoc("file.mlir", 1, 2)
    assert c.location is UNKNOWN_LOC
    assert d.location == NameLoc("n", FileLineColLoc("f.mlir", 3, 4))
    assert e.location == FusedLoc((NameLoc("a"), FileLineColLoc("b.mlir", 5, 6)))
    assert f.location == FileLineColLoc("t.mlir", 7, 1)
    assert a.pos == FileLineColLoc("t.mlir", 2, 1)  # where it was parsed from, kept for diagnostics
    printed = print_op(module, PrintOptions(debuginfo=True))
    for text in ('loc("name")', 'loc("file.mlir":1:2)', "loc(unknown)", 'loc("n"("f.mlir":3:4))',
                 'loc(fused["a", "b.mlir":5:6])', 'loc("t.mlir":7:1)'):
        assert text in printed
    assert print_op(_parse(printed), PrintOptions(debuginfo=True)) == printed
    assert "loc(" not in print_op(module)


def test_result_location_is_the_result_list() -> None:
    (op,) = _ops(_parse('\n   %0 = "foo.a"() : () -> i32'))
    assert op.pos == FileLineColLoc("t.mlir", 2, 4)


def test_comments_are_ignored_everywhere() -> None:
    module = _parse("""// leading
"foo.a"() { // inside a dictionary, with "quotes and {braces
  x = 1 : i32 // the x
} : () -> () // after
// trailing""")
    (op,) = _ops(module)
    assert op.attributes == {"x": IntegerAttr(1, I32)}


def test_operand_lists_may_span_lines() -> None:
    module = _parse('%0 = "foo.d"() : () -> i32\n"foo.use"(\n  %0,\n  %0\n) : (i32, i32) -> ()')
    definition, use = _ops(module)
    assert use.operands == [definition.results[0]] * 2


def test_properties_and_attributes() -> None:
    (op,) = _ops(_parse('"foo.p"() <{p = 1 : i32, q = [1, 2]}> {d = "x", flag} : () -> ()'))
    assert op.properties == {"p": IntegerAttr(1, I32), "q": ArrayAttr([IntegerAttr(1, I64), IntegerAttr(2, I64)])}
    assert op.attributes == {"d": StringAttr("x"), "flag": UNIT}


def test_nesting_deeper_than_the_coarse_tokens_allow() -> None:
    depth = 20
    nested = "{a = " * depth + "1 : i32" + "}" * depth
    (op,) = _ops(_parse(f'"foo.deep"() <{{y = {nested}}}> {{x = {nested}}} : () -> ()'))
    inner = op.attributes["x"]
    for _ in range(depth):
        assert isinstance(inner, DictionaryAttr)
        inner = inner.get("a")
    assert inner is IntegerAttr(1, I32)
    assert op.properties["y"] is op.attributes["x"]
    fn = "i32"
    for _ in range(6):
        fn = f"({fn}) -> i32"
    (sig,) = _ops(_parse(f'%0 = "foo.sig"() {{t = {fn}}} : () -> ({fn})'))
    assert sig.attributes["t"].type is sig.results[0].type
    assert str(sig.results[0].type) == fn
    assert str(sig.results[0].type) in print_op(_parse(print_op(sig.parent.parent.parent)))


def test_pretty_module_forms() -> None:
    module = _parse('module @m attributes {foo.x = 1 : i32} {\n  builtin.module @inner attributes {} {\n  }\n'
                    '  builtin.module {\n    "foo.a"() : () -> ()\n  }\n}')
    assert module.properties == {"sym_name": StringAttr("m")}
    assert module.attributes == {"foo.x": IntegerAttr(1, I32)}
    inner, anonymous = _ops(module)
    assert inner.properties == {"sym_name": StringAttr("inner")} and not inner.attributes
    assert len(inner.regions[0].blocks) == 1  # a module always has its block
    assert "sym_name" not in anonymous.properties
    assert print_op(module) == ('module @m attributes {foo.x = 1 : i32} {\n  module @inner {\n  }\n  module {\n'
                                '    "foo.a"() : () -> ()\n  }\n}\n')


def test_pretty_func_forms() -> None:
    module = _parse("""
func.func @main(%arg0: tensor<1x8xi8> {foo.in = 0 : i32}, %b: i32) -> (tensor<1x8xi8> {foo.out}, i32) attributes {foo.fn} {
  %0 = "foo.op"(%arg0, %b) : (tensor<1x8xi8>, i32) -> tensor<1x8xi8>
  return %0, %b : tensor<1x8xi8>, i32
}
func.func private @decl(i32, f32 {foo.a}) -> i32
func.func public @empty() {
  func.return
}
func.func nested @"quoted name"() -> ((i32) -> i32)""")
    main, decl, empty, quoted = _ops(module)
    t = RankedTensorType([1, 8], I8)
    assert main.properties["sym_name"] is StringAttr("main")
    assert main.properties["function_type"] is TypeAttr(FunctionType([t, I32], [t, I32]))
    assert main.properties["arg_attrs"] is ArrayAttr([DictionaryAttr({"foo.in": IntegerAttr(0, I32)}),
                                                      DictionaryAttr({})])
    assert main.properties["res_attrs"] is ArrayAttr([DictionaryAttr({"foo.out": UNIT}), DictionaryAttr({})])
    assert main.attributes == {"foo.fn": UNIT}
    entry = main.regions[0].blocks[0]
    op, ret = entry.ops
    assert op.operands == entry.args and ret.name == "func.return"
    assert ret.operands == [op.results[0], entry.args[1]]
    assert decl.properties["sym_visibility"] is StringAttr("private") and not decl.regions[0].blocks
    assert decl.properties["arg_attrs"] is ArrayAttr([DictionaryAttr({}), DictionaryAttr({"foo.a": UNIT})])
    assert empty.properties["sym_visibility"] is StringAttr("public")
    assert [o.name for o in empty.regions[0].blocks[0].ops] == ["func.return"]
    assert quoted.properties["sym_name"] is StringAttr("quoted name")
    assert quoted.properties["function_type"].type.results == (FunctionType([I32], [I32]),)
    printed = print_op(module)
    assert ("func.func @main(%arg0: tensor<1x8xi8> {foo.in = 0 : i32}, %arg1: i32) -> (tensor<1x8xi8> "
            "{foo.out}, i32) attributes {foo.fn} {") in printed
    assert "    return %0, %arg1 : tensor<1x8xi8>, i32\n" in printed
    assert "func.func private @decl(i32, f32 {foo.a}) -> i32\n" in printed
    assert "func.func public @empty() {\n    return\n  }\n" in printed
    assert 'func.func nested @"quoted name"() -> ((i32) -> i32)\n' in printed


def test_func_and_return_in_generic_form() -> None:
    text = ('"func.func"() <{sym_name = "f", function_type = (i32) -> i32}> ({\n'
            '^bb0(%arg0: i32):\n  "func.return"(%arg0) : (i32) -> ()\n}) : () -> ()')
    module = _parse(text, allow_unregistered=False)
    assert print_op(module) == "module {\n  func.func @f(%arg0: i32) -> i32 {\n    return %arg0 : i32\n  }\n}\n"


def test_registered_ops_parse_without_allow_unregistered() -> None:
    module = _parse("func.func @f(%a: i1) -> i1 {\n  return %a : i1\n}", allow_unregistered=False)
    (fn,) = _ops(module)
    assert fn.registered and fn.properties["function_type"].type == FunctionType([I1], [I1])


def test_quant_and_builtin_types_need_no_registration() -> None:
    module = _parse("func.func private @f(tensor<2x!quant.uniform<i8:f32, 0.5>>, f32)", allow_unregistered=False)
    fn_type = _ops(module)[0].properties["function_type"].type
    assert str(fn_type.inputs[0]) == "tensor<2x!quant.uniform<i8:f32, 0.5>>" and fn_type.inputs[1] is F32


def test_resources_are_returned_and_attached() -> None:
    text = ('"foo.w"() {w = dense_resource<k> : tensor<3xi8>} : () -> ()\n'
            '{-#\n  dialect_resources: {\n    builtin: {\n      k: "0x01000000AABBCC"\n    }\n  },\n'
            '  external_resources: {\n    ext: {\n      path: "weights.bin"\n    }\n  }\n#-}\n')
    ops, resources = parse_ops(text, "t.mlir", ParseOptions(allow_unregistered=True))
    blob = resources.blobs["builtin"]["k"]
    assert blob.alignment == 1 and bytes(blob.data) == b"\xaa\xbb\xcc"
    assert resources.external == {"ext": {"path": '"weights.bin"'}}
    assert ops[0].attributes["w"].blob is blob
    assert ops[0].attributes["w"].as_array().tolist() == [-86, -69, -52]


TRAILERS = [  # blob entries the one-match reader takes, and ones it leaves to the scanner
    '  k: "0x01000000AABBCC",\n  k2 : "0x0400000001020304" }',
    '  k: "0x01000000AABBCC",\n }',
    '  "q k": "0x01000000AB", k.b-c: "0x01000000"}',
    '  k: "0x01000000AB\\x", j: "0x01000000"}',
    '  k: "0x01000000ABC"}',
    '  k: "0x03000000AB"}',
    '  k: "0x01000000AB" j: "0x01000000"}',
    '  k: "0x010000\n00AB"}',
    '  k: 12}',
    '  k: "0x01000000AB",, }',
]


@pytest.mark.parametrize("entries", TRAILERS)
def test_blob_entries_read_in_one_match_as_the_scanner_reads_them(entries, monkeypatch) -> None:
    import re
    from npu_opt.ir import resources

    def outcome() -> object:
        text = "{-#\n  dialect_resources: {\n    builtin: {\n" + entries + "\n  }\n#-}\n"
        try:
            found = resources.parse_trailer(text)
        except resources.ResourceSyntaxError as err:
            return str(err), err.offset
        return {key: (bytes(blob.data), blob.alignment) for key, blob in found.blobs["builtin"].items()}

    fast = outcome()
    monkeypatch.setattr(resources, "_BLOB_ENTRY", re.compile(r"(?!)"))  # never matches: the scanner alone
    assert outcome() == fast


def test_trailer_needs_its_own_line() -> None:
    # ``{-#`` only starts the trailer at the start of a line (after blanks)
    module = _parse('"foo.a"() {s = "{-#"} : () -> ()\n  {-#\n#-}\n')
    assert _ops(module)[0].attributes["s"] is StringAttr("{-#")


def test_parse_position_of_ops() -> None:
    module = _parse('module {\n  "foo.a"() : () -> ()\n  func.func @f() {\n    return\n  }\n}')
    a, f = _ops(module)
    assert a.pos == FileLineColLoc("t.mlir", 2, 3)
    assert f.pos == FileLineColLoc("t.mlir", 3, 3)
    (ret,) = f.regions[0].blocks[0].ops
    assert ret.pos == FileLineColLoc("t.mlir", 4, 5)
