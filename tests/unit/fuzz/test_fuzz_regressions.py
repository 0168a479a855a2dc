"""The crash classes a fuzz campaign found, each reduced to its smallest input: every one is now
one diagnostic and exit 1 (or, for a bug in a dialect's parser, a crash reproducer and exit 2),
and printed IR parses back to the same text."""
from __future__ import annotations

import resource
import struct
from pathlib import Path

import pytest

import npu_opt.dialects  # noqa: F401
from npu_opt.ir.diagnostics import UserError
from npu_opt.ir.parser import ParseOptions, parse_module
from npu_opt.ir.printer import PrintOptions, print_op
from npu_opt.ir.strings import quote_string
from npu_opt.tools import npu_opt, npu_translate

DATA = Path(__file__).resolve().parents[3] / "tests" / "data"
BIG = "9" * 5000
"""More digits than Python converts to or from an int by default (4,300)."""


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _run(tool, argv: list[str], capsys) -> tuple[int, str]:
    code = tool.main(argv)
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return code, err


# Each: (id, text, what the one diagnostic says)
HUGE_NUMERALS = [
    ("tensor-dim", f'"x.op"() : () -> tensor<{BIG}xi8>', "tensor dimension 999999999999... (5000 digits) is larger "
     "than 9223372036854775807"),
    ("int-width", f'"x.op"() : () -> i{BIG}', "integer width 999999999999... (5000 digits) is larger than 16777216"),
    ("attr-width", f'"x.op"() {{a = 2 : i{BIG}}} : () -> ()', "is larger than 16777216"),
    ("attr-value", f'"x.op"() {{a = {BIG} : i32}} : () -> ()', "out of range for i32"),
    ("loc-line", f'"x.op"() : () -> () loc("f":{BIG}:1)', "line or column number 999999999999... (5000 digits) is "
     "larger than 4294967295"),
    ("result-number", f'%0 = "x.a"() : () -> i8\n"x.b"(%0#{BIG}) : (i8) -> ()', "result number 999999999999... "
     "(5000 digits) is larger than 4294967295"),
    ("result-count", f'%0:{BIG} = "x.a"() : () -> i8', "result count 999999999999... (5000 digits) is larger"),
    ("quant-zero-point", f'"x.op"() : () -> !quant.uniform<i8:f32, 0.5:{BIG}>', "zero point 999999999999... "
     "(5000 digits) is larger"),
    ("quant-width", '"x.op"() : () -> !quant.uniform<i128:f32, 0.5>', "quantised storage type i128 is wider than 64 "
     "bits"),
    ("npu-offset", f'"x.op"() {{a = #npu.offset<{BIG}, 0, 0, 0>}} : () -> ()', "#npu.offset: integer "
     "999999999999... (5000 digits) does not fit in 64 bits"),
    ("npu-kernel", f'"x.op"() {{a = #npu.kernel<{BIG}x1>}} : () -> ()', "does not fit in 64 bits"),
]


@pytest.mark.parametrize("text,message", [c[1:] for c in HUGE_NUMERALS], ids=[c[0] for c in HUGE_NUMERALS])
def test_huge_numerals_are_one_user_error(text: str, message: str, tmp_path: Path, capsys):
    source = tmp_path / "big.mlir"
    source.write_text(text + "\n")
    code, err = _run(npu_opt, [str(source), "--allow-unregistered-dialect"], capsys)
    assert code == 1 and err.count("error:") == 1
    assert message in err
    for translation in ("--mlir-to-dot", "--export-tflite"):
        code, err = _run(npu_translate, [translation, "--allow-unregistered-dialect", str(source),
                                         "-o", str(tmp_path / "out")], capsys)
        assert code == 1 and message in err


def test_huge_line_offset_in_expected_diagnostics(tmp_path: Path, capsys):
    source = tmp_path / "expect.mlir"
    source.write_text(f"// expected-error@+{BIG} {{{{x}}}}\nfunc.func @f() {{\n  return\n}}\n")
    code, err = _run(npu_opt, [str(source), "--verify-diagnostics"], capsys)
    assert code == 1
    assert f"{source}:1:4: error: line offset @+999999999999... (5000 digits) in an expected-diagnostic " \
           "annotation is larger than 2147483648" in err


def test_invalid_regex_in_expected_diagnostics(tmp_path: Path, capsys):
    source = tmp_path / "expect.mlir"
    source.write_text("// expected-error-re {{a{{(}}b}}\nfunc.func @f() {\n  return\n}\n")
    code, err = _run(npu_opt, [str(source), "--verify-diagnostics"], capsys)
    assert code == 1 and "invalid regex in expected-error-re" in err


def test_func_without_function_type_is_a_verifier_error(tmp_path: Path, capsys):
    source = tmp_path / "func.mlir"
    source.write_text('"func.func"() <{sym_name = "f"}> ({\n  "func.return"() : () -> ()\n}) : () -> ()\n')
    code, err = _run(npu_opt, [str(source)], capsys)
    assert code == 1 and err.count("error:") == 1
    assert "'func.func' op requires attribute 'function_type'" in err
    code, err = _run(npu_translate, ["--mlir-to-dot", str(source)], capsys)
    assert code == 1 and "requires attribute 'function_type'" in err


@pytest.mark.parametrize("attribute", ["alpha = 0.125", "beta = 1.0"])
@pytest.mark.parametrize("value", ["0x7FC00000", "0x7F800000"])
def test_non_finite_alpha_and_beta_are_rejected(attribute: str, value: str, tmp_path: Path, capsys):
    """NaN or infinite LEAKY_RELU alpha / SOFTMAX beta: a verifier error, not a crash in lowering."""
    code, _ = _run(npu_opt, [str(DATA / "elementwise.tflite"), "-o", str(tmp_path / "ok.mlir")], capsys)
    assert code == 0
    text = (tmp_path / "ok.mlir").read_text()
    assert f"{attribute} : f32" in text
    source = tmp_path / "bad.mlir"
    source.write_text(text.replace(f"{attribute} : f32", f"{attribute.split(' =')[0]} = {value} : f32"))
    code, err = _run(npu_opt, [str(source), "--pass=estimate", "--target=ethos-u55-128"], capsys)
    assert code == 1 and err.count("error:") == 1
    assert f"attribute '{attribute.split(' =')[0]}' failed to satisfy constraint: finite 32-bit float" in err


def test_nan_alpha_in_a_model_is_rejected(tmp_path: Path, capsys):
    data = (DATA / "elementwise.tflite").read_bytes()
    alpha = struct.pack("<f", 0.125)
    assert data.count(alpha) >= 1
    at = data.index(alpha)
    source = tmp_path / "nan.tflite"
    for replaced in range(data.count(alpha)):  # the option is one of the occurrences
        at = data.index(alpha, at if replaced == 0 else at + 1)
        source.write_bytes(data[:at] + struct.pack("<f", float("nan")) + data[at + 4:])
        code, err = _run(npu_opt, [str(source), "--pass=estimate", "--target=ethos-u55-128",
                                   "-o", str(tmp_path / "out.mlir")], capsys)
        assert code in (0, 1)
        if "finite 32-bit float" in err:
            assert code == 1
            return
    pytest.fail("no occurrence of 0.125 was the LEAKY_RELU alpha")


@pytest.mark.parametrize("input_type,result_type,message", [
    ("tensor<i8>", "tensor<1x4xi8>", "input must have rank 1 or more"),
    ("tensor<1x1xi8>", "tensor<i8>", "result shape [] does not match the inferred shape 1x4"),
])
def test_fully_connected_with_rank_0_operands(input_type: str, result_type: str, message: str, tmp_path: Path,
                                              capsys):
    source = tmp_path / "fc.mlir"
    source.write_text(
        f'func.func @f(%a: {input_type}, %w: tensor<4x1xi8>, %b: tensor<4xi32>) -> {result_type} {{\n'
        '  %0 = "tfl.fully_connected"(%a, %w, %b) <{fused_activation_function = "NONE", keep_num_dims = false, '
        f'weights_format = "DEFAULT"}}> : ({input_type}, tensor<4x1xi8>, tensor<4xi32>) -> {result_type}\n'
        f'  return %0 : {result_type}\n}}\n')
    code, err = _run(npu_opt, [str(source), "--pass=estimate", "--target=ethos-u55-128"], capsys)
    assert code == 1 and err.count("error:") == 1 and message in err


@pytest.mark.parametrize("name", ['x.a"b', "x.a\\b", "x.a\\\\\\b", "x.\u00e9\n"])
def test_op_names_print_escaped_and_parse_back(name: str):
    text = f"{quote_string(name)}() : () -> ()\n"
    module = parse_module(text, "n.mlir", ParseOptions(allow_unregistered=True))
    printed = print_op(module)
    again = parse_module(printed, "n.mlir", ParseOptions(allow_unregistered=True))
    assert [op.name for op in again.walk()][-1] == name
    assert print_op(again) == printed


@pytest.mark.parametrize("count", [1, 2, 3, 64, 65, 4301])
@pytest.mark.parametrize("where", ["attr", "loc", "key", "symbol", "dialect-attr", "op-name"])
def test_backslash_runs_survive_print_and_parse(count: int, where: str):
    value = "a" + "\\" * count + '"' + "\\" * count
    q = quote_string(value)
    text = {"attr": f'"x.op"() {{s = {q}}} : () -> ()', "loc": f'"x.op"() : () -> () loc({q})',
            "key": f'"x.op"() {{{q} = 1}} : () -> ()', "symbol": f"func.func private @{q}()",
            "dialect-attr": f'"x.op"() {{s = #x.y<{q}>}} : () -> ()', "op-name": f"{q}() : () -> ()"}[where]
    options = ParseOptions(allow_unregistered=True)
    for generic in (False, True):
        printed = print_op(parse_module(text, "s.mlir", options), PrintOptions(generic=generic, debuginfo=True))
        assert print_op(parse_module(printed, "s.mlir", options), PrintOptions(generic=generic, debuginfo=True)) \
            == printed


def test_per_axis_quant_parses_in_linear_time():
    """20 KB of scales, or of digits in one scale, parse in well under a second (was 20 s+)."""
    scales = ",".join(f"{i + 1}.5e-3" for i in range(2500))
    many = f'"x.op"() : () -> tensor<2500x!quant.uniform<i8:f32:0, {{{scales}}}>>'
    digits = f'"x.op"() : () -> !quant.uniform<i8:f32:0, {{{"1" * 20000}x}}>'
    spaces = f'"x.op"() : () -> !quant.uniform<i8:f32:0, {{0.5{" " * 20000}x}}>'
    began = _cpu()
    parse_module(many, "q.mlir", ParseOptions(allow_unregistered=True))
    for text in (digits, spaces):
        with pytest.raises(UserError, match="expected a scale"):
            parse_module(text, "q.mlir", ParseOptions(allow_unregistered=True))
    assert _cpu() - began < 2.0


def test_a_bug_in_a_dialect_attribute_parser_reaches_the_crash_guard(tmp_path: Path, capsys, monkeypatch):
    """A deliberate AttributeSyntaxError is a syntax error; any other exception is an internal error."""
    from npu_opt.ir.opdef import lookup_dialect
    npu = lookup_dialect("npu")
    source = tmp_path / "attr.mlir"
    source.write_text('"x.op"() {a = #npu.offset<1, 2, 3, 4>} : () -> ()\n')
    bad = tmp_path / "bad.mlir"
    bad.write_text('"x.op"() {a = #npu.offset<1, two>} : () -> ()\n')
    code, err = _run(npu_opt, [str(bad), "--allow-unregistered-dialect"], capsys)
    assert code == 1 and "bad.mlir:1:15: error: #npu.offset: expected an integer, found 'two'" in err

    def broken(body: str | None):
        raise KeyError("oops")
    monkeypatch.setitem(npu.attribute_parsers, "offset", broken)
    reproducer = tmp_path / "repro.mlir"
    code, err = _run(npu_opt, [str(source), "--allow-unregistered-dialect", f"--crash-reproducer={reproducer}"],
                     capsys)
    assert code == 2
    assert "internal error during parsing (AttributeParserCrash: the parser of '#npu.offset' failed: " \
           "KeyError: 'oops')" in err
    assert reproducer.exists()


@pytest.mark.parametrize("translation,suffix", [("--mlir-to-dot", ".mlir"), ("--export-tflite", ".mlir"),
                                                ("--import-tflite", ".tflite")])
def test_npu_translate_has_a_crash_guard(translation: str, suffix: str, tmp_path: Path, capsys, monkeypatch):
    """A bug in a translation: one line naming it and a saved copy of the input, exit 2, no traceback."""
    source = tmp_path / f"in{suffix}"
    source.write_bytes((DATA / "conv.tflite").read_bytes() if suffix == ".tflite" else b"func.func @f() {\n"
                       b"  return\n}\n")
    name = translation[2:]

    def broken(args):
        raise IndexError("tuple index out of range")
    monkeypatch.setitem(npu_translate.TRANSLATIONS, name, (broken, "broken"))
    saved = tmp_path / f"saved{suffix}"
    code, err = _run(npu_translate, [translation, str(source), "-o", str(tmp_path / "out"),
                                     f"--crash-reproducer={saved}"], capsys)
    assert code == 2
    assert err == (f"npu-translate: internal error during {name} (IndexError: tuple index out of range); input "
                   f"saved to {saved}; replay with: npu-translate {translation} {saved}\n")
    assert saved.read_bytes() == source.read_bytes()
    assert not (tmp_path / "out").exists()


def test_dot_labels_are_escaped(tmp_path: Path, capsys):
    source = tmp_path / "dot.mlir"
    source.write_text('func.func @"a\\22b"() {\n  "x.a\\\\b"() : () -> ()\n  return\n}\n')
    out = tmp_path / "out.dot"
    code, _ = _run(npu_translate, ["--mlir-to-dot", "--allow-unregistered-dialect", str(source), "-o", str(out)],
                   capsys)
    assert code == 0
    dot = out.read_text()
    assert 'subgraph "cluster_a\\"b" { label="@a\\"b";' in dot
    assert '[label="x.a\\\\b"];' in dot


def test_export_of_signless_masks_and_oversized_shapes(tmp_path: Path, capsys):
    """A signless i32 option with bit 31 set exports as that bit pattern; a dimension TFLite's
    int32 shapes cannot hold is one user error (both were exceptions in the exporter)."""
    code, _ = _run(npu_opt, [str(DATA / "shape.tflite"), "-o", str(tmp_path / "shape.mlir")], capsys)
    text = (tmp_path / "shape.mlir").read_text()
    assert code == 0 and "begin_mask = 0 : i32" in text
    source = tmp_path / "mask.mlir"
    source.write_text(text.replace("begin_mask = 0 : i32", "begin_mask = 2147483648 : i32", 1))
    out = tmp_path / "mask.tflite"
    code, _ = _run(npu_translate, ["--export-tflite", str(source), "-o", str(out)], capsys)
    assert code == 0
    code, _ = _run(npu_translate, ["--import-tflite", str(out), "-o", str(tmp_path / "back.mlir")], capsys)
    assert code == 0 and "begin_mask = -2147483648 : i32" in (tmp_path / "back.mlir").read_text()
    source.write_text("func.func @f(%x: tensor<4294967296xi8>) -> tensor<4294967296xi8> {\n"
                      "  return %x : tensor<4294967296xi8>\n}\n")
    code, err = _run(npu_translate, ["--export-tflite", str(source), "-o", str(out)], capsys)
    assert code == 1 and err.count("error:") == 1
    assert "cannot export to TFLite: 4294967296 does not fit in the 32-bit integers" in err


def test_function_types_nested_deeper_than_the_limit_are_one_user_error(tmp_path: Path, capsys):
    """Seed 2027, case 97403: a result type of 197 function types each returning the next parsed,
    and printing it recursed past Python's limit (an internal error). Deeper than the limit is
    now one diagnostic; at the limit the module prints and parses back to the same text."""
    def nested(depth: int) -> str:  # () -> () -> ... -> i1: the arrows nest without brackets
        return f"func.func private @f() -> ({'() -> ' * depth}i1)\n"

    deep = tmp_path / "deep.mlir"
    deep.write_text(nested(200))
    code, err = _run(npu_opt, [str(deep), "-o", str(tmp_path / "out.mlir")], capsys)
    assert code == 1 and err.count("error:") == 1
    assert "function types are nested more than 64 levels deep" in err
    assert not (tmp_path / "out.mlir").exists()
    text = print_op(parse_module(nested(64), "ok.mlir"))
    assert print_op(parse_module(text, "again.mlir")) == text
