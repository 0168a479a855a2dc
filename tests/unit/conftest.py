"""Shared setup of the unit tests: the repository and the shared test helpers (this folder) on
sys.path, all dialects registered, and the
sample modules that the syntax tests round-trip (``ir_sample``) and exchange with xDSL."""
from __future__ import annotations

import gc
import os
import sys
from pathlib import Path
from typing import Callable

import pytest

ROOT = Path(__file__).resolve().parents[2]
PYCACHE = ROOT / "tests" / ".pycache"
"""Compiled bytecode of every module the tests and the tools they start import (lit's too): a
caller's PYTHONDONTWRITEBYTECODE would otherwise make each of those processes compile npu-opt anew."""
os.environ["PYTHONPYCACHEPREFIX"] = str(PYCACHE)
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.pycache_prefix = str(PYCACHE)
sys.dont_write_bytecode = False
HELPERS = Path(__file__).resolve().parent
"""The helpers tests import by name (targeted_import, tool_paths, ...); the tests mirror the source tree below."""
for _path in (ROOT, HELPERS):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from npu_opt.tools.blas_threads import single_threaded_blas  # noqa: E402

single_threaded_blas()  # (before numpy: as in npu-opt, no BLAS threads, so the search's pool may fork)
import npu_opt.dialects  # noqa: E402,F401  (registers builtin, func and the other dialects)
from npu_opt.ir.parser import ParseOptions, parse_module  # noqa: E402
from npu_opt.ir.printer import PrintOptions, print_op  # noqa: E402

_BIG_LIST = ", ".join(str(i % 200 - 100) for i in range(150))

# Sample modules covering the syntax npu-opt reads and writes. Ops are in dialects nobody
# registers ("foo", "bar"), so they parse with allow_unregistered=True, as in xdsl-opt.
IR_SAMPLES: dict[str, str] = {
    "types": """
%0:14 = "foo.types"() : () -> (i1, i8, i32, i64, si8, ui8, si32, ui64, f16, bf16, f32, f64, index, none)
%1:5 = "foo.tensors"() : () -> (tensor<1x?x4xi8>, tensor<i8>, tensor<*xf32>, tensor<?x?xf32>, tensor<0xi32>)
%2 = "foo.encoded"() : () -> tensor<4xi8, #foo.fm<nhcwb16, sram, 4096>>
%3:5 = "foo.quant"() : () -> (!quant.uniform<i8:f32, 0.5:-3>, !quant.uniform<u8:f32, 1.0>, !quant.uniform<i8<-127:127>:f32, 2.5e-05:1>, !quant.uniform<i8:f32:1, {0.5:1,0.25:2}>, !quant.uniform<i8<-127:127>:f32:0, {0.5,0.25}>)
%4:4 = "foo.opaque"() : () -> (tensor<2x!quant.uniform<i8:f32, 0.5:-3>>, !foo.bar<1, "x>", [a]>, !foo.baz, !foo.q<a<b<c>>>)
"foo.fn"() {f = () -> (), g = (i32, f32) -> (i1, i8), h = (i32) -> ((i32) -> i32), k = (i32) -> i32} : () -> ()
""",
    "attributes": r"""
"foo.attrs"() {a = 1 : i32, b = -5 : si8, c = 0x10 : i64, d = 0x7FC00000 : f32, e = 1.5 : f16, f = true, g = "a\"b\n\\ \C3\A9 é", h = unit, i = false, arr = [1, 2.0, "x", [], [[3 : i32]]], dd = {x = {y = 1}, z = {}}, s = @a::@b, q = @"x y", t = i32, tt = tensor<2x?xf32>, f2 = 0xFFF0000000000000 : f64, f3 = 0x7E00 : f16, f4 = -0.0 : f32, f5 = 0.1 : f32, f6 = 1.0e-10 : f64, u = 255 : ui8, idx = 7 : index, op = #foo.bar<1, [2], "s>">, op2 = #foo.baz, neg = -9223372036854775808 : i64} : () -> ()
""",
    "dense": f"""
"foo.dense"() {{a = dense<1> : tensor<4xi8>, b = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>, c = dense<[{_BIG_LIST}]> : tensor<150xi32>, d = dense<[true, false, true]> : tensor<3xi1>, e = dense<true> : tensor<2xi1>, f = dense<[1.5, -2.0e10, 0.25]> : tensor<3xf32>, g = dense<> : tensor<0xi8>, h = dense<2.5> : tensor<2x2xf16>, i = dense<[0, 255]> : tensor<2xui8>, j = dense<"0x01020304"> : tensor<4xi8>, k = dense<[[1], [2]]> : tensor<2x1xsi8>, l = dense<5> : tensor<i32>, m = dense<[1.0, 2.0]> : tensor<2xf64>, o = dense<[1, 2]> : tensor<2xindex>, p = dense<[0.0, -0.0]> : tensor<2xf32>}} : () -> ()
""",
    "resources": """
"foo.weights"() {r = dense_resource<blob1> : tensor<4xi8>, s = dense_resource<blob2> : tensor<2xi32>} : () -> ()
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x0400000001020304",
      blob2: "0x040000000100000002000000"
    }
  }
#-}
""",
    "regions": """
// a comment at the top
"foo.cfg"() ({
^bb0(%arg0: i32, %arg1: i64):
  %0:2 = "foo.pair"(%arg0) : (i32) -> (i32, i64) loc("name")
  %a, %b = "foo.pair"() : () -> (i32, i64) loc("file.mlir":3:7)
  "foo.br"(%0#0, %b)[^bb1] : (i32, i64) -> () loc(unknown) // trailing comment
^bb1(%x: i32, %y: i64):
  "foo.cond_br"(%x)[^bb1, ^bb2] : (i32) -> () loc("n"("f.mlir":1:2))
^bb2:
  "foo.use"(%fwd) : (i8) -> () loc(fused["a", "b.mlir":3:4])
  %fwd = "foo.def"() : () -> i8
  "foo.ret"() : () -> ()
}, {
  "foo.inner"() : () -> ()
}) {attr = 1 : i32} : () -> ()
"foo.props"() <{p = 1 : i32, q = [1, 2]}> {d = "x"} : () -> ()
""",
    "module_func": """
module @m attributes {foo.bar = 1 : i32, "quoted key" = "v"} {
  builtin.module @inner attributes {} {
  }
  func.func @main(%arg0: tensor<1x8xi8> {foo.in = 0 : i32}, %arg1: i32) -> (tensor<1x8xi8> {foo.out}, i32) attributes {foo.fn} {
    %0 = "foo.op"(%arg0, %arg1) : (tensor<1x8xi8>, i32) -> tensor<1x8xi8>
    return %0, %arg1 : tensor<1x8xi8>, i32
  }
  func.func private @decl(i32) -> i32
  func.func public @empty() {
    func.return
  }
  func.func nested @multi(%arg0: i32) -> (i32, i32) {
    return %arg0, %arg0 : i32, i32
  }
  func.func @returns_fn() -> ((i32) -> i32)
}
""",
    "empty": "",
}

PRINT_MODES = {
    "pretty": PrintOptions(),
    "generic": PrintOptions(generic=True),
    "debuginfo": PrintOptions(debuginfo=True),
    "generic-debuginfo": PrintOptions(generic=True, debuginfo=True),
}


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "ir_sample" in metafunc.fixturenames:
        metafunc.parametrize("ir_sample", list(IR_SAMPLES.values()), ids=list(IR_SAMPLES))
    if "print_mode" in metafunc.fixturenames:
        metafunc.parametrize("print_mode", list(PRINT_MODES.values()), ids=list(PRINT_MODES))


def parse(text: str, allow_unregistered: bool = True, filename: str = "test.mlir"):
    return parse_module(text, filename, ParseOptions(allow_unregistered=allow_unregistered))


def roundtrip_text(text: str, options: PrintOptions | None = None, allow_unregistered: bool = True) -> str:
    """print(parse(text)), after checking that printing is a fixed point of parse-and-print."""
    options = options or PrintOptions()
    first = print_op(parse(text, allow_unregistered), options)
    second = print_op(parse(first, allow_unregistered), options)
    assert second == first, f"not a fixed point:\n{first}\n----\n{second}"
    return first


@pytest.fixture
def roundtrip() -> Callable[..., str]:
    return roundtrip_text


@pytest.fixture
def parse_ir() -> Callable[..., object]:
    return parse


@pytest.fixture
def ir_samples() -> dict[str, str]:
    return dict(IR_SAMPLES)


HEAVY_FILES = ("test_wheel_install.py", "test_search_monotone.py", "test_cascade_branches.py",
               "test_interop_lit_inputs.py", "test_cascade_concats.py", "test_search_interrupt.py")
"""The files that take longest (measured CPU, and the wheel test's pip runs), collected first:
``-n auto --dist loadfile`` hands out files in collection order, and one of these started last
kept one worker busy long after the other had finished."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Move the tests of HEAVY_FILES to the front, in that order; the rest keep theirs."""
    rank = {name: index for index, name in enumerate(HEAVY_FILES)}
    items.sort(key=lambda item: rank.get(item.path.name, len(HEAVY_FILES)))


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """pytest ends a session with five full cycle collections, so that an exception raised in a
    finaliser is reported; each walks every object a worker still holds (~280,000, ~0.22 s of
    CPU). After one collection here, what is still alive is frozen out of the collector's
    walks, so those five see only what this one's finalisers freed or made: the same reports."""
    gc.collect()
    gc.freeze()
