"""Builtin types and attributes: their objects, their text, and print(parse(x)) being a fixed point."""
from __future__ import annotations

import math
import struct

import numpy as np
import pytest

from npu_opt.ir.attributes import (
    FALSE, TRUE, UNIT, ArrayAttr, DenseElementsAttr, DenseResourceAttr, DictionaryAttr, FloatAttr, IntegerAttr,
    OpaqueAttr, ResourceBlob, StringAttr, SymbolRefAttr, TypeAttr, float_bits, float_from_bits, round_to_type,
)
from npu_opt.ir.parser import ParseError, ParseOptions, parse_module
from npu_opt.ir.printer import PrintOptions, print_op
from npu_opt.ir.types import (
    BF16, DYNAMIC, F16, F32, F64, I1, I8, I32, I64, INDEX, NONE, FloatType, FunctionType, IndexType, IntegerType,
    NoneType, OpaqueType, QuantUniformType, RankedTensorType, UnrankedTensorType,
)


def _parse(text: str, allow_unregistered: bool = True):
    return parse_module(text, "t.mlir", ParseOptions(allow_unregistered=allow_unregistered))


def _only_op(module):
    ops = list(module.regions[0].blocks[0].ops)
    assert len(ops) == 1
    return ops[0]


def _fixed_point(text: str, generic: bool = False) -> str:
    options = PrintOptions(generic=generic)
    first = print_op(_parse(text), options)
    assert print_op(_parse(first), options) == first
    return first


def type_of(text: str):
    """Parse ``text`` as the result type of an op (and check the op round-trips)."""
    source = f'%0 = "foo.op"() : () -> ({text})'
    for generic in (False, True):
        _fixed_point(source, generic)
    return _only_op(_parse(source)).results[0].type


def attr_of(text: str):
    """Parse ``text`` as an attribute value (and check the op round-trips)."""
    source = f'"foo.op"() {{a = {text}}} : () -> ()'
    for generic in (False, True):
        _fixed_point(source, generic)
    return _only_op(_parse(source)).attributes["a"]


# ---- types -------------------------------------------------------------------------------------

BUILTIN_TYPES = [
    # (source, canonical text, class)
    ("i1", "i1", IntegerType), ("i8", "i8", IntegerType), ("i32", "i32", IntegerType),
    ("i64", "i64", IntegerType), ("i17", "i17", IntegerType), ("si8", "si8", IntegerType),
    ("ui8", "ui8", IntegerType), ("si32", "si32", IntegerType), ("ui64", "ui64", IntegerType),
    ("f16", "f16", FloatType), ("bf16", "bf16", FloatType), ("f32", "f32", FloatType),
    ("f64", "f64", FloatType), ("index", "index", IndexType), ("none", "none", NoneType),
    ("tensor<1x?x4xi8>", "tensor<1x?x4xi8>", RankedTensorType),
    ("tensor<?x?xf32>", "tensor<?x?xf32>", RankedTensorType),
    ("tensor<i8>", "tensor<i8>", RankedTensorType),
    ("tensor<0xi32>", "tensor<0xi32>", RankedTensorType),
    ("tensor<*xf32>", "tensor<*xf32>", UnrankedTensorType),
    ("tensor<4xi8, #foo.fm<nhcwb16, sram, 4096>>", "tensor<4xi8, #foo.fm<nhcwb16, sram, 4096>>", RankedTensorType),
    ("tensor<4xi8,#foo.enc>", "tensor<4xi8, #foo.enc>", RankedTensorType),
    ('tensor<2xf32, "layout">', 'tensor<2xf32, "layout">', RankedTensorType),
    ("!quant.uniform<i8:f32, 0.5:-3>", "!quant.uniform<i8:f32, 0.5:-3>", QuantUniformType),
    ("!quant.uniform<u8:f32, 1.0>", "!quant.uniform<u8:f32, 1.0>", QuantUniformType),
    ("!quant.uniform<i8:f32, 0.25:0>", "!quant.uniform<i8:f32, 0.25>", QuantUniformType),
    ("!quant.uniform<i8<-127:127>:f32, 2.5e-05:1>", "!quant.uniform<i8<-127:127>:f32, 2.5e-05:1>", QuantUniformType),
    ("!quant.uniform<i8<-128:127>:f32, 0.5>", "!quant.uniform<i8:f32, 0.5>", QuantUniformType),
    ("!quant.uniform<i8:f32:1, {0.5:1,0.25:2}>", "!quant.uniform<i8:f32:1, {0.5:1,0.25:2}>", QuantUniformType),
    ("!quant.uniform<i8<-127:127>:f32:0, {0.5, 0.25}>", "!quant.uniform<i8<-127:127>:f32:0, {0.5,0.25}>",
     QuantUniformType),
    ("!quant.uniform<i16:f16:3, {1.0:-5}>", "!quant.uniform<i16:f16:3, {1.0:-5}>", QuantUniformType),
    ("tensor<2x!quant.uniform<i8:f32, 0.5:-3>>", "tensor<2x!quant.uniform<i8:f32, 0.5:-3>>", RankedTensorType),
    ('!foo.bar<1, "x>", [a]>', '!foo.bar<1, "x>", [a]>', OpaqueType),
    ("!foo.baz", "!foo.baz", OpaqueType),
    ("!foo.q<a<b<c>>>", "!foo.q<a<b<c>>>", OpaqueType),
    ("!foo.arrow<(i32) -> i64>", "!foo.arrow<(i32) -> i64>", OpaqueType),
    ("tensor<3x!foo.elem<1>>", "tensor<3x!foo.elem<1>>", RankedTensorType),
]


@pytest.mark.parametrize("source,canonical,cls", BUILTIN_TYPES, ids=[t[0] for t in BUILTIN_TYPES])
def test_builtin_type_round_trips(source: str, canonical: str, cls: type) -> None:
    parsed = type_of(source)
    assert isinstance(parsed, cls)
    assert str(parsed) == canonical
    # the canonical text reads back to the very same (interned) object, in every position
    assert type_of(canonical) is parsed
    assert attr_of(canonical) is TypeAttr(parsed)
    if cls is not UnrankedTensorType:
        fn = _only_op(_parse(f"func.func private @f({canonical}) -> ({canonical})"))
        assert fn.properties["function_type"].type == FunctionType([parsed], [parsed])


FUNCTION_TYPES = [
    ("() -> ()", "() -> ()", (), ()),
    ("(i32) -> i32", "(i32) -> i32", (I32,), (I32,)),
    ("(i32) -> (i32)", "(i32) -> i32", (I32,), (I32,)),
    ("(i32, f32) -> (i1, i8)", "(i32, f32) -> (i1, i8)", (I32, F32), (I1, I8)),
    ("() -> (i32, i32, i32)", "() -> (i32, i32, i32)", (), (I32, I32, I32)),
    ("(i32) -> ((i32) -> i32)", "(i32) -> ((i32) -> i32)", (I32,), (FunctionType([I32], [I32]),)),
    ("((i32) -> i32) -> ()", "((i32) -> i32) -> ()", (FunctionType([I32], [I32]),), ()),
    ("(tensor<?xf32>, index) -> tensor<*xf32>", "(tensor<?xf32>, index) -> tensor<*xf32>",
     (RankedTensorType([DYNAMIC], F32), INDEX), (UnrankedTensorType(F32),)),
]


@pytest.mark.parametrize("source,canonical,inputs,results", FUNCTION_TYPES, ids=[t[0] for t in FUNCTION_TYPES])
def test_function_types(source: str, canonical: str, inputs: tuple, results: tuple) -> None:
    attr = attr_of(source)
    assert isinstance(attr, TypeAttr)
    assert attr.type is FunctionType(inputs, results)
    assert str(attr) == canonical


def test_function_type_as_op_signature_with_multiple_results() -> None:
    op = _only_op(_parse('%0:3 = "foo.op"() : () -> (i32, f16, (i8) -> ())'))
    assert [r.type for r in op.results] == [I32, F16, FunctionType([I8], [])]
    assert '%0:3 = "foo.op"() : () -> (i32, f16, (i8) -> ())' in _fixed_point(
        '%0:3 = "foo.op"() : () -> (i32, f16, (i8) -> ())')


def test_types_are_interned_and_immutable() -> None:
    assert IntegerType(8) is I8
    assert IntegerType(8, "signed") is not I8
    assert RankedTensorType([1, DYNAMIC], I8) is RankedTensorType((1, DYNAMIC), I8)
    assert FloatType("f32") is F32
    assert type_of("none") is NONE
    with pytest.raises(AttributeError):
        I8.width = 16  # type: ignore[misc]


def test_tensor_type_properties() -> None:
    t = type_of("tensor<2x?x3xi8>")
    assert t.shape == (2, DYNAMIC, 3) and t.rank == 3 and not t.has_static_shape
    with pytest.raises(ValueError):
        t.num_elements()
    scalar = type_of("tensor<f32>")
    assert scalar.shape == () and scalar.num_elements() == 1
    encoded = type_of("tensor<4xi8, #foo.fm<nhcwb16, sram, 4096>>")
    assert isinstance(encoded.encoding, OpaqueAttr)
    assert (encoded.encoding.dialect, encoded.encoding.attr_name) == ("foo", "fm")
    assert encoded.encoding.body == "nhcwb16, sram, 4096"
    assert encoded is not RankedTensorType([4], I8)


def test_quant_uniform_fields() -> None:
    per_tensor = type_of("!quant.uniform<i8<-127:127>:f32, 2.5e-05:1>")
    assert per_tensor.storage_type is I8 and per_tensor.expressed_type is F32
    assert (per_tensor.storage_min, per_tensor.storage_max) == (-127, 127)
    assert per_tensor.scales == (2.5e-05,) and per_tensor.zero_points == (1,)
    assert not per_tensor.is_per_axis
    per_axis = type_of("!quant.uniform<u8:f32:1, {0.5:1,0.25:2}>")
    assert per_axis.axis == 1 and per_axis.scales == (0.5, 0.25) and per_axis.zero_points == (1, 2)
    assert per_axis.storage_type.is_unsigned and (per_axis.storage_min, per_axis.storage_max) == (0, 255)


@pytest.mark.parametrize("bad", [
    "!quant.uniform<i8:f32, 0.5:200>",          # zero point outside the storage range
    "!quant.uniform<i8<-200:127>:f32, 0.5>",    # range wider than the storage type
    "!quant.uniform<i8:f32, -1.0>",             # scales are positive
    "!quant.uniform<i8:f32, {0.5,0.25}>",       # several scales without an axis
    "!quant.uniform<i8:f32:0, 0.5>",            # per-axis parameters need braces
    "!quant.uniform<i8:f99, 0.5>",
    "!quant.uniform<i8>",
])
def test_malformed_quant_types_are_parse_errors(bad: str) -> None:
    with pytest.raises(ParseError) as info:
        _parse(f'%0 = "foo.op"() : () -> {bad}')
    assert info.value.diagnostic.location.line == 1


def test_integer_type_widths() -> None:
    assert type_of("i128").width == 128
    with pytest.raises(ParseError):
        _parse('%0 = "foo.op"() : () -> i99999999')
    with pytest.raises(ParseError):
        _parse('%0 = "foo.op"() : () -> i0')


# ---- attributes --------------------------------------------------------------------------------

ATTRIBUTES = [
    # (source, canonical text)
    ("1 : i32", "1 : i32"),
    ("42", "42 : i64"),
    ("-5 : si8", "-5 : si8"),
    ("-128 : i8", "-128 : i8"),
    ("255 : i8", "255 : i8"),
    ("255 : ui8", "255 : ui8"),
    ("0x10 : i64", "16 : i64"),
    ("-0x10 : i32", "-16 : i32"),
    ("0xFFFFFFFFFFFFFFFF : ui64", "18446744073709551615 : ui64"),
    ("-9223372036854775808 : i64", "-9223372036854775808 : i64"),
    ("7 : index", "7 : index"),
    ("1 : i1", "true"),
    ("true", "true"),
    ("false", "false"),
    ("2.5", "2.5 : f64"),
    ("1.5 : f16", "1.5 : f16"),
    ("-0.0 : f32", "-0.0 : f32"),
    ("0.1 : f32", "0.1 : f32"),
    ("1.0e-10 : f64", "1.0e-10 : f64"),
    ("1.5e3 : f32", "1500.0 : f32"),
    ("3.0 : bf16", "3.0 : bf16"),
    ("0x7FC00000 : f32", "0x7FC00000 : f32"),
    ("0x7F800000 : f32", "0x7F800000 : f32"),
    ("0xFF800000 : f32", "0xFF800000 : f32"),
    ("0xFFF0000000000000 : f64", "0xFFF0000000000000 : f64"),
    ("0x7FF8000000000000 : f64", "0x7FF8000000000000 : f64"),
    ("0x7E00 : f16", "0x7E00 : f16"),
    ("0x7FC0 : bf16", "0x7FC0 : bf16"),
    ("0x3F800000 : f32", "1.0 : f32"),
    ('"abc"', '"abc"'),
    ('""', '""'),
    (r'"a\"b"', r'"a\22b"'),
    (r'"tab\there"', r'"tab\09here"'),
    (r'"new\nline"', r'"new\0Aline"'),
    (r'"back\\slash"', r'"back\\slash"'),
    (r'"\41\42"', '"AB"'),
    ('"é 日本"', r'"\C3\A9 \E6\97\A5\E6\9C\AC"'),
    (r'"\C3\A9"', r'"\C3\A9"'),
    ("unit", "unit"),
    ("[]", "[]"),
    ('[1, 2.0, "x"]', '[1 : i64, 2.0 : f64, "x"]'),
    ("[[1 : i32], [], [true]]", "[[1 : i32], [], [true]]"),
    ("{}", "{}"),
    ("{x = {y = 1 : i32}, z = {}, flag}", "{x = {y = 1 : i32}, z = {}, flag}"),
    ('{"quoted key" = 1 : i8, b = unit}', '{"quoted key" = 1 : i8, b}'),
    ("@a", "@a"),
    ("@a::@b", "@a::@b"),
    ("@a::@b::@c", "@a::@b::@c"),
    ('@"x y"', '@"x y"'),
    ('@"x y"::@"z.w"', '@"x y"::@z.w'),
    ("i32", "i32"),
    ("tensor<2x?xf32>", "tensor<2x?xf32>"),
    ("!quant.uniform<i8:f32, 0.5:-3>", "!quant.uniform<i8:f32, 0.5:-3>"),
    ("#foo.bar", "#foo.bar"),
    ('#foo.bar<1, [2], "s>">', '#foo.bar<1, [2], "s>">'),
    ("#foo.nested<a<b>, c>", "#foo.nested<a<b>, c>"),
    ("#foo.arrow<() -> ()>", "#foo.arrow<() -> ()>"),
    ("dense<1> : tensor<4xi8>", "dense<1> : tensor<4xi8>"),
    ("dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>", "dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>"),
    ("dense<[true, false, true]> : tensor<3xi1>", "dense<[true, false, true]> : tensor<3xi1>"),
    ("dense<true> : tensor<2xi1>", "dense<true> : tensor<2xi1>"),
    ("dense<[1.5, -2.0, 0.25]> : tensor<3xf32>", "dense<[1.5, -2.0, 0.25]> : tensor<3xf32>"),
    ("dense<[0.1, 0x7FC00000]> : tensor<2xf32>", "dense<[0.1, 0x7FC00000]> : tensor<2xf32>"),
    ("dense<[0.0, -0.0]> : tensor<2xf16>", "dense<[0.0, -0.0]> : tensor<2xf16>"),
    ("dense<2.5> : tensor<2x2xf16>", "dense<2.5> : tensor<2x2xf16>"),
    ("dense<> : tensor<0xi8>", "dense<> : tensor<0xi8>"),
    ("dense<[]> : tensor<0xi8>", "dense<> : tensor<0xi8>"),
    ("dense<[[], []]> : tensor<2x0xf32>", "dense<> : tensor<2x0xf32>"),
    ("dense<[0, 255]> : tensor<2xui8>", "dense<[0, 255]> : tensor<2xui8>"),
    ("dense<[255, -1]> : tensor<2xi8>", "dense<-1> : tensor<2xi8>"),
    ('dense<"0x01020304"> : tensor<4xi8>', "dense<[1, 2, 3, 4]> : tensor<4xi8>"),
    ('dense<"0x0100"> : tensor<3xi16>', "dense<1> : tensor<3xi16>"),
    ("dense<[[1], [2]]> : tensor<2x1xsi8>", "dense<[[1], [2]]> : tensor<2x1xsi8>"),
    ("dense<5> : tensor<i32>", "dense<5> : tensor<i32>"),
    ("dense<[1, 2]> : tensor<2xindex>", "dense<[1, 2]> : tensor<2xindex>"),
    ("dense<18446744073709551615> : tensor<2xui64>", "dense<18446744073709551615> : tensor<2xui64>"),
]


@pytest.mark.parametrize("source,canonical", ATTRIBUTES, ids=[a[0] for a in ATTRIBUTES])
def test_attribute_round_trips(source: str, canonical: str) -> None:
    attr = attr_of(source)
    if attr is UNIT:  # printed as a bare key in a dictionary
        assert '"foo.op"() {a} : () -> ()' in _fixed_point(f'"foo.op"() {{a = {source}}} : () -> ()')
    assert str(attr) == canonical
    assert attr_of(canonical) is attr


def test_integer_attr_values() -> None:
    assert attr_of("0x10 : i64") is IntegerAttr(16, I64)
    assert attr_of("-0x10 : i32").value == -16
    assert attr_of("1 : i1") is TRUE and attr_of("false") is FALSE
    big = attr_of("0xFFFFFFFFFFFFFFFF : ui64")
    assert big.value == 2 ** 64 - 1 and big.type is IntegerType(64, "unsigned")
    for value, type in ((128, IntegerType(8, "signed")), (-1, IntegerType(8, "unsigned")), (2, I1), (256, I8)):
        with pytest.raises(ValueError, match="out of range"):
            IntegerAttr(value, type)
    with pytest.raises(ValueError):
        IntegerAttr(1, F32)


def test_float_attr_values_are_rounded_to_their_type() -> None:
    assert FloatAttr(0.1, F32) is FloatAttr(float(np.float32(0.1)), F32)
    assert FloatAttr(0.1, F32).value == float(np.float32(0.1))
    assert attr_of("0.1 : f32") is FloatAttr(0.1, F32)
    assert FloatAttr(0.1, F64).value == 0.1
    assert FloatAttr(1 / 3, BF16).value == 0.333984375
    assert math.isnan(attr_of("0x7FC00000 : f32").value)
    assert attr_of("0x7F800000 : f32").value == math.inf
    assert attr_of("0xFFF0000000000000 : f64").value == -math.inf
    assert attr_of("0x3C00 : f16").value == 1.0
    # different NaN payloads are different attributes; -0.0 differs from 0.0
    assert FloatAttr(float_from_bits(0x7FC00001, F32), F32) is not FloatAttr(math.nan, F32)
    assert FloatAttr(-0.0, F32) is not FloatAttr(0.0, F32)
    for value, type in ((1e39, F32), (70000.0, F16), (1e39, BF16)):
        with pytest.raises(ValueError, match="out of range"):
            FloatAttr(value, type)


def test_float_bit_helpers() -> None:
    assert float_bits(math.nan, F32) == 0x7FC00000
    assert float_bits(math.inf, F16) == 0x7C00
    assert float_bits(-math.inf, BF16) == 0xFF80
    assert float_from_bits(0x3F80, BF16) == 1.0
    assert round_to_type(65504.0, F16) == 65504.0
    with pytest.raises(ValueError):
        float_from_bits(0x1_0000_0000, F32)
    with pytest.raises(ValueError):
        float_from_bits(-1, F64)
    assert struct.unpack("<d", struct.pack("<Q", float_bits(0.5, F64)))[0] == 0.5


def test_string_attr_values() -> None:
    assert attr_of(r'"a\"b\n\t\\"').value == 'a"b\n\t\\'
    assert attr_of(r'"\C3\A9"').value == "é"
    assert attr_of('"é 日本"').value == "é 日本"
    assert StringAttr("x\x00y").value == "x\x00y"
    assert str(StringAttr("x\x00y")) == r'"x\00y"'
    assert attr_of(str(StringAttr("\x7f\u2028 ok"))).value == "\x7f\u2028 ok"


def test_collection_attrs() -> None:
    array = attr_of('[1 : i8, "s", [unit]]')
    assert isinstance(array, ArrayAttr) and len(array) == 3
    assert array[0] is IntegerAttr(1, I8) and array[1] is StringAttr("s") and array[2] is ArrayAttr([UNIT])
    dictionary = attr_of('{b = 2 : i32, a = {c}, "q k" = "v"}')
    assert isinstance(dictionary, DictionaryAttr)
    assert [k for k, _ in dictionary.entries] == ["b", "a", "q k"]  # insertion order is kept
    assert dictionary.get("a") is DictionaryAttr({"c": UNIT}) and dictionary.get("missing") is None
    assert dictionary.as_dict()["q k"] is StringAttr("v")


def test_symbol_refs() -> None:
    ref = attr_of('@a::@"b c"::@d')
    assert isinstance(ref, SymbolRefAttr) and ref.root == "a" and ref.nested == ("b c", "d")
    assert str(SymbolRefAttr("x y")) == '@"x y"'
    assert attr_of('@"x y"') is SymbolRefAttr("x y")


def test_dense_elements_values() -> None:
    splat = attr_of("dense<3> : tensor<2x2xi8>")
    assert isinstance(splat, DenseElementsAttr) and splat.is_splat()
    assert splat.array.dtype == np.int8 and splat.array.tolist() == [[3, 3], [3, 3]]
    nested = attr_of("dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>")
    assert nested.array.tolist() == [[1, 2], [3, 4]] and not nested.is_splat()
    assert attr_of("dense<[true, false]> : tensor<2xi1>").array.tolist() == [True, False]
    floats = attr_of("dense<[1.5, 0x7FC00000]> : tensor<2xf32>").array
    assert floats[0] == 1.5 and math.isnan(floats[1])
    assert attr_of("dense<> : tensor<0xi8>").array.size == 0
    assert attr_of("dense<[0, 255]> : tensor<2xui8>").array.tolist() == [0, 255]
    assert attr_of("dense<[255]> : tensor<1xi8>").array.tolist() == [-1]
    with pytest.raises(ValueError):
        splat.array[0, 0] = 1  # read-only


def test_dense_splat_compares_bits() -> None:
    zeros = DenseElementsAttr(RankedTensorType([2], F32), np.array([0.0, -0.0], dtype=np.float32))
    assert not zeros.is_splat()
    assert str(zeros) == "dense<[0.0, -0.0]> : tensor<2xf32>"
    nans = DenseElementsAttr(RankedTensorType([3], F32), np.full(3, np.nan, dtype=np.float32))
    assert nans.is_splat() and str(nans) == "dense<0x7FC00000> : tensor<3xf32>"


def test_large_dense_prints_as_hex_and_reads_back() -> None:
    values = list(range(-100, 50))
    attr = attr_of(f"dense<[{', '.join(map(str, values))}]> : tensor<150xi32>")
    text = str(attr)
    assert text.startswith('dense<"0x9CFFFFFF9DFFFFFF') and text.endswith('"> : tensor<150xi32>')
    assert attr_of(text) is attr
    assert attr.array.tolist() == values
    floats = DenseElementsAttr(RankedTensorType([101], F16), np.arange(101, dtype=np.float16))
    assert str(floats).startswith('dense<"0x0000003C0040') and attr_of(str(floats)) is floats
    # i1 never uses the hex form
    bools = DenseElementsAttr(RankedTensorType([101], I1), np.arange(101) % 2 == 0)
    assert str(bools).startswith("dense<[true, false, true")
    assert attr_of(str(bools)) is bools


def test_dense_resource_attr_and_trailer() -> None:
    text = ('"foo.op"() {a = dense_resource<blob1> : tensor<2xi16>, b = dense_resource<"my blob"> : tensor<1xf32>} '
            ': () -> ()\n{-#\n  dialect_resources: {\n    builtin: {\n      blob1: "0x080000000100FFFF",\n'
            '      "my blob": "0x040000000000803F"\n    }\n  }\n#-}\n')
    op = _only_op(_parse(text))
    blob1, blob2 = op.attributes["a"], op.attributes["b"]
    assert isinstance(blob1, DenseResourceAttr) and blob1.key == "blob1"
    assert blob1.blob.alignment == 8 and bytes(blob1.blob.data) == b"\x01\x00\xff\xff"
    assert blob1.as_array().tolist() == [1, -1]
    assert blob2.key == "my blob" and blob2.as_array().tolist() == [1.0]
    printed = _fixed_point(text)
    assert 'dense_resource<"my blob"> : tensor<1xf32>' in printed
    assert '      blob1: "0x080000000100FFFF"' in printed
    assert printed.endswith('      "my blob": "0x040000000000803F"\n    }\n  }\n#-}\n')


def test_dense_resource_without_data_and_elided() -> None:
    attr = attr_of("dense_resource<__elided__> : tensor<4xf32>")
    assert isinstance(attr, DenseResourceAttr) and attr.blob is None
    with pytest.raises(ValueError):
        attr.as_array()
    blob = ResourceBlob(b"\x01\x02\x03\x04", alignment=4)
    assert blob.hex() == "0x0400000001020304"


def test_opaque_attrs() -> None:
    attr = attr_of('#foo.bar<1, [2], "s>">')
    assert isinstance(attr, OpaqueAttr)
    assert (attr.dialect, attr.attr_name, attr.body) == ("foo", "bar", '1, [2], "s>"')
    assert attr_of("#foo.baz") is OpaqueAttr("foo", "baz", None)


def test_attributes_are_interned() -> None:
    assert IntegerAttr(1, I32) is IntegerAttr(1, I32)
    assert ArrayAttr([IntegerAttr(1, I32)]) is ArrayAttr((IntegerAttr(1, I32),))
    assert DictionaryAttr({"a": UNIT}) is DictionaryAttr([("a", UNIT)])
    assert DictionaryAttr({"a": UNIT, "b": UNIT}) is not DictionaryAttr({"b": UNIT, "a": UNIT})
    assert TypeAttr(I32) is attr_of("i32")
    assert StringAttr("x") is attr_of('"x"')
    assert NONE is type_of("none")
