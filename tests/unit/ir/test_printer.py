"""The printer: pretty and generic forms, locations, elided constants, the resource trailer, value
naming, and interoperability with xDSL in both directions."""
from __future__ import annotations

import subprocess

import numpy as np
import pytest

from tool_paths import which_tool

from npu_opt.ir.attributes import (
    ArrayAttr, DenseElementsAttr, DenseResourceAttr, IntegerAttr, ResourceBlob, StringAttr, TypeAttr,
)
from npu_opt.ir.core import Block, Operation, Region
from npu_opt.ir.location import FileLineColLoc, NameLoc
from npu_opt.ir.opdef import lookup_op
from npu_opt.ir.parser import ParseOptions, parse_module
from npu_opt.ir.printer import PrintOptions, print_op
from npu_opt.ir.types import I8, I32, FunctionType, RankedTensorType


def _parse(text: str, allow_unregistered: bool = True):
    return parse_module(text, "t.mlir", ParseOptions(allow_unregistered=allow_unregistered))


def _module(*ops: Operation) -> Operation:
    block = Block()
    for op in ops:
        block.append(op)
    return (lookup_op("builtin.module") or Operation)("builtin.module", regions=[Region([block])])


FUNC_TEXT = """module {
  func.func @main(%arg0: tensor<2xi8>, %arg1: i32) -> tensor<2xi8> {
    %0:2 = "foo.split"(%arg0) {axis = 0 : i32} : (tensor<2xi8>) -> (tensor<1xi8>, tensor<1xi8>)
    %1 = "foo.concat"(%0#1, %0#0, %arg1) : (tensor<1xi8>, tensor<1xi8>, i32) -> tensor<2xi8>
    return %1 : tensor<2xi8>
  }
}
"""

FUNC_GENERIC = """"builtin.module"() ({
  "func.func"() <{sym_name = "main", function_type = (tensor<2xi8>, i32) -> tensor<2xi8>}> ({
  ^bb0(%arg0: tensor<2xi8>, %arg1: i32):
    %0:2 = "foo.split"(%arg0) {axis = 0 : i32} : (tensor<2xi8>) -> (tensor<1xi8>, tensor<1xi8>)
    %1 = "foo.concat"(%0#1, %0#0, %arg1) : (tensor<1xi8>, tensor<1xi8>, i32) -> tensor<2xi8>
    "func.return"(%1) : (tensor<2xi8>) -> ()
  }) : () -> ()
}) : () -> ()
"""


def test_pretty_output_is_exact() -> None:
    assert print_op(_parse(FUNC_TEXT)) == FUNC_TEXT


def test_generic_output_is_exact() -> None:
    assert print_op(_parse(FUNC_TEXT), PrintOptions(generic=True)) == FUNC_GENERIC
    assert print_op(_parse(FUNC_GENERIC)) == FUNC_TEXT


def test_debuginfo_prints_every_location() -> None:
    printed = print_op(_parse(FUNC_TEXT, allow_unregistered=True), PrintOptions(debuginfo=True))
    assert printed.splitlines() == [
        "module {",
        "  func.func @main(%arg0: tensor<2xi8>, %arg1: i32) -> tensor<2xi8> {",
        '    %0:2 = "foo.split"(%arg0) {axis = 0 : i32} : (tensor<2xi8>) -> (tensor<1xi8>, tensor<1xi8>) '
        'loc("t.mlir":3:5)',
        '    %1 = "foo.concat"(%0#1, %0#0, %arg1) : (tensor<1xi8>, tensor<1xi8>, i32) -> tensor<2xi8> '
        'loc("t.mlir":4:5)',
        '    return %1 : tensor<2xi8> loc("t.mlir":5:5)',
        '  } loc("t.mlir":2:3)',
        '} loc("t.mlir":1:1)',
    ]


def test_empty_module() -> None:
    assert print_op(_parse("")) == "module {\n}\n"
    assert print_op(_parse(""), PrintOptions(generic=True)) == '"builtin.module"() ({\n^bb0:\n}) : () -> ()\n'
    assert print_op(_parse('"builtin.module"() ({\n^bb0:\n}) : () -> ()')) == "module {\n}\n"


def test_every_sample_is_a_fixed_point(ir_sample: str, print_mode: PrintOptions, roundtrip) -> None:
    roundtrip(ir_sample, print_mode)


def test_values_are_numbered_per_isolated_region() -> None:
    text = ('func.func @a(%x: i32) {\n  %v = "foo.a"(%x) : (i32) -> i32\n  return\n}\n'
            'func.func @b(%y: i32) {\n  %w = "foo.b"(%y) : (i32) -> i32\n  return\n}\n'
            '%top = "foo.top"() : () -> i8\n"foo.r"() ({\n^bb0(%z: i8):\n  %q = "foo.in"(%top) : (i8) -> i8\n'
            '}) : () -> ()')
    printed = print_op(_parse(text))
    assert printed.count('"foo.a"(%arg0) : (i32) -> i32') == 1 and '%0 = "foo.b"(%arg0)' in printed
    # inside the (non-isolated) region of foo.r, numbering goes on from the enclosing region
    assert '%0 = "foo.top"() : () -> i8' in printed and "^bb0(%1: i8):" in printed
    assert '%2 = "foo.in"(%0) : (i8) -> i8' in printed


def test_block_labels() -> None:
    # an empty entry block keeps its label, or the next block would become the entry
    text = '"foo.g"() ({\n^bb0:\n^bb1:\n  "foo.x"() : () -> ()\n}) : () -> ()'
    printed = print_op(_parse(text))
    assert '"foo.g"() ({\n  ^bb0:\n  ^bb1:\n    "foo.x"() : () -> ()\n  }) : () -> ()' in printed
    # a branch to the entry block needs the label as well
    printed = print_op(_parse('"foo.h"() ({\n^bb0:\n  "foo.br"()[^bb0] : () -> ()\n}) : () -> ()'))
    assert '({\n  ^bb0:\n    "foo.br"()[^bb0] : () -> ()\n  })' in printed
    # an entry block with ops and no arguments prints none
    printed = print_op(_parse('"foo.k"() ({\n^entry:\n  "foo.x"() : () -> ()\n}) : () -> ()'))
    assert '"foo.k"() ({\n    "foo.x"() : () -> ()\n  })' in printed


def test_values_used_before_their_definition_is_printed() -> None:
    text = ('"foo.f"() ({\n  "foo.br"()[^bb2] : () -> ()\n^bb1:\n  "foo.use"(%v, %p#1) : (i32, i8) -> ()\n'
            '  "foo.ret"() : () -> ()\n^bb2:\n  %v = "foo.def"() : () -> i32\n  %p:2 = "foo.two"() : () -> (i8, i8)\n'
            '  "foo.br"()[^bb1] : () -> ()\n}) : () -> ()')
    printed = print_op(_parse(text))
    assert '"foo.use"(%0, %1#1) : (i32, i8) -> ()' in printed
    assert '%0 = "foo.def"() : () -> i32' in printed and '%1:2 = "foo.two"() : () -> (i8, i8)' in printed


def test_dangling_values_are_marked() -> None:
    orphan = Operation("foo.orphan", result_types=[I32])
    user = Operation("foo.user", operands=[orphan.results[0]])
    assert '"foo.user"(%<<UNKNOWN SSA VALUE>>) : (i32) -> ()' in print_op(_module(user))


def test_programmatic_ir_prints() -> None:
    func_cls = lookup_op("func.func")
    fn = func_cls.create("f", [I32], [I32])  # type: ignore[union-attr]
    ret = lookup_op("func.return").build(operands=[fn.regions[0].blocks[0].args[0]])  # type: ignore[union-attr]
    fn.regions[0].blocks[0].append(ret)
    assert print_op(_module(fn)) == "module {\n  func.func @f(%arg0: i32) -> i32 {\n    return %arg0 : i32\n  }\n}\n"


def test_pretty_forms_fall_back_to_generic_when_they_cannot_express_the_op() -> None:
    fn = Operation("func.func", properties={"sym_name": StringAttr("f"), "function_type": TypeAttr(
        FunctionType([], [])), "sym_visibility": StringAttr("weird vis")}, regions=[Region()])
    named_by_int = Operation("builtin.module", properties={"sym_name": IntegerAttr(1, I32)},
                             regions=[Region([Block()])])
    no_type = Operation("func.func", properties={"sym_name": StringAttr("g")}, regions=[Region()])
    stray_return = Operation("func.return")
    printed = print_op(_module(fn, named_by_int, no_type, stray_return))
    assert '"func.func"() <{sym_name = "f", function_type = () -> (), sym_visibility = "weird vis"}>' in printed
    assert '"builtin.module"() <{sym_name = 1 : i32}> ({' in printed
    assert '"func.func"() <{sym_name = "g"}> ({\n  }) : () -> ()' in printed
    assert '  "func.return"() : () -> ()\n' in printed
    assert print_op(_parse(printed)) == printed


def test_locations_with_debuginfo() -> None:
    op = Operation("foo.op", location=NameLoc("conv", FileLineColLoc("model.tflite", 3, 1)))
    assert 'loc("conv"("model.tflite":3:1))' in print_op(_module(op), PrintOptions(debuginfo=True))
    op.location = FileLineColLoc('dir/"quoted".mlir', 1, 2)
    printed = print_op(op.parent.parent.parent, PrintOptions(debuginfo=True))
    assert r'loc("dir/\22quoted\22.mlir":1:2)' in printed
    reparsed = _parse(printed)
    assert list(reparsed.regions[0].blocks[0].ops)[0].location == op.location


ELIDE_TEXT = ('"foo.w"() {big = dense<[1, 2, 3, 4, 5]> : tensor<5xi8>, small = dense<[1, 2]> : tensor<2xi8>, '
              'splat = dense<7> : tensor<100xi8>, r = dense_resource<k> : tensor<3xi8>, '
              'arr = [dense<[1, 2, 3]> : tensor<3xi8>]} : () -> ()\n'
              '{-#\n  dialect_resources: {\n    builtin: {\n      k: "0x01000000AABBCC"\n    }\n  }\n#-}\n')


def test_elide_large_constants() -> None:
    module = _parse(ELIDE_TEXT)
    elided = print_op(module, PrintOptions(elide_large_constants=2))
    assert ("{big = dense_resource<__elided__> : tensor<5xi8>, small = dense<[1, 2]> : tensor<2xi8>, "
            "splat = dense<7> : tensor<100xi8>, r = dense_resource<__elided__> : tensor<3xi8>, "
            "arr = [dense_resource<__elided__> : tensor<3xi8>]}") in elided
    assert "{-#" not in elided  # the elided blob is left out of the trailer
    assert print_op(_parse(elided)) == elided  # and the elided form reads back
    kept = print_op(module, PrintOptions(elide_large_constants=3))
    assert "r = dense_resource<k> : tensor<3xi8>" in kept and 'k: "0x01000000AABBCC"' in kept
    assert "arr = [dense<[1, 2, 3]> : tensor<3xi8>]" in kept


def test_resource_trailer_and_clashing_keys() -> None:
    t = RankedTensorType([2], I8)
    first, second = ResourceBlob(b"\x01\x02", 2), ResourceBlob(b"\x03\x04", 2)
    op = Operation("foo.x", attributes={"a": DenseResourceAttr(t, "k", first), "b": DenseResourceAttr(t, "k", second),
                                        "c": ArrayAttr([DenseResourceAttr(t, "k", first)])})
    printed = print_op(_module(op))
    assert printed == ('module {\n  "foo.x"() {a = dense_resource<k> : tensor<2xi8>, b = dense_resource<k_1> : '
                       'tensor<2xi8>, c = [dense_resource<k> : tensor<2xi8>]} : () -> ()\n}\n\n{-#\n'
                       '  dialect_resources: {\n    builtin: {\n      k: "0x020000000102",\n'
                       '      k_1: "0x020000000304"\n    }\n  }\n#-}\n')
    reparsed = list(_parse(printed).regions[0].blocks[0].ops)[0]
    assert reparsed.attributes["b"].as_array().tolist() == [3, 4]
    assert print_op(_parse(printed)) == printed


def test_large_blob_round_trips() -> None:
    data = np.arange(1 << 16, dtype=np.int32)
    op = Operation("foo.w", attributes={"w": DenseResourceAttr(RankedTensorType([1 << 16], I32), "w",
                                                                ResourceBlob(data.tobytes(), 64))})
    printed = print_op(_module(op))
    assert '      w: "0x40000000000000000100000002000000' in printed
    reparsed = list(_parse(printed).regions[0].blocks[0].ops)[0].attributes["w"]
    assert reparsed.blob.alignment == 64 and np.array_equal(reparsed.as_array(), data)


def test_dense_elements_attr_built_from_numpy() -> None:
    attr = DenseElementsAttr(RankedTensorType([2, 2], I8), np.array([[1, -2], [3, 4]]))
    assert str(attr) == "dense<[[1, -2], [3, 4]]> : tensor<2x2xi8>"
    printed = print_op(_module(Operation("foo.c", attributes={"value": attr})))
    assert print_op(_parse(printed)) == printed


# ---- interoperability with xDSL ----------------------------------------------------------------


def _xdsl_opt(text: str, *flags: str) -> subprocess.CompletedProcess:
    pytest.importorskip("xdsl")
    exe = which_tool("xdsl-opt")
    if exe is None:
        pytest.skip("xdsl-opt is not installed")
    return subprocess.run([exe, "--allow-unregistered-dialect", "--split-input-file", *flags], input=text,
                          capture_output=True, text=True, timeout=300)


def _chunks(texts: list[str]) -> str:
    return "\n// -----\n".join(texts)


def test_xdsl_opt_parses_what_we_print(ir_samples: dict[str, str], print_mode: PrintOptions) -> None:
    """One xdsl-opt run reads every sample as we print it (the chunks are split by '// -----')."""
    printed = [print_op(_parse(text), print_mode) for text in ir_samples.values()]
    result = _xdsl_opt(_chunks(printed))
    assert result.returncode == 0, f"xdsl-opt rejected our output:\n{result.stderr[-3000:]}"
    assert len(result.stdout.split("\n// -----\n")) == len(printed)


@pytest.mark.parametrize("flags", [(), ("--print-op-generic",)], ids=["default", "generic"])
def test_we_parse_what_xdsl_opt_prints(ir_samples: dict[str, str], flags: tuple[str, ...]) -> None:
    samples = {name: text for name, text in ir_samples.items() if text.strip()}  # xdsl-opt rejects empty input
    result = _xdsl_opt(_chunks(list(samples.values())), *flags)
    assert result.returncode == 0, result.stderr[-3000:]
    outputs = result.stdout.split("\n// -----\n")
    assert len(outputs) == len(samples)
    for name, output in zip(samples, outputs):
        module = _parse(output)
        printed = print_op(module)
        assert print_op(_parse(printed)) == printed, name
        # the same ops as reading the sample directly
        assert [op.name for op in module.walk()] == [op.name for op in _parse(samples[name]).walk()], name
