"""The interpreter's core (ir/interpreter.py): argument checking, op-by-op execution, located
errors for ops it cannot run, the observer, and kernels loading only when first needed."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from npu_opt.ir.interpreter import InterpretError, Interpreter, run_function
from npu_opt.ir.parser import ParseOptions, parse_module

CONSTANTS = """
func.func @main(%a: tensor<2x2xi32>) -> (tensor<2x2xi32>, tensor<3xi8>, tensor<2xi8>) {
  %c = "tfl.pseudo_const"() <{value = dense<[1, -2, 3]> : tensor<3xi8>}> : () -> tensor<3xi8>
  %q = "tfl.pseudo_qconst"() <{qtype = tensor<2x!quant.uniform<i8:f32, 0.5:-1>>, value = dense<[-128, 127]> : tensor<2xi8>}> : () -> tensor<2x!quant.uniform<i8:f32, 0.5:-1>>
  func.return %a, %c, %q : tensor<2x2xi32>, tensor<3xi8>, tensor<2x!quant.uniform<i8:f32, 0.5:-1>>
}
"""


def _module(text: str, unregistered: bool = False):
    return parse_module(text, "case.mlir", ParseOptions(allow_unregistered=unregistered))


def test_arguments_and_constants_come_back_as_storage_arrays():
    outputs = run_function(_module(CONSTANTS), [[1, 2, 3, 4]])
    assert outputs[0].dtype == np.int32 and outputs[0].shape == (2, 2)
    assert outputs[0].tolist() == [[1, 2], [3, 4]]
    assert outputs[1].dtype == np.int8 and outputs[1].tolist() == [1, -2, 3]
    assert outputs[2].dtype == np.int8 and outputs[2].tolist() == [-128, 127]


def test_wrong_input_count_size_and_range_are_errors():
    module = _module(CONSTANTS)
    with pytest.raises(InterpretError, match="takes 1 input"):
        run_function(module, [])
    with pytest.raises(InterpretError, match="3 element"):
        run_function(module, [[1, 2, 3]])
    with pytest.raises(InterpretError, match="outside int32"):
        run_function(module, [np.array([1, 2, 3, 1 << 40], dtype=np.int64)])


def test_an_op_without_a_kernel_is_a_located_error():
    text = """func.func @main(%a: tensor<2xi32>) -> tensor<2xi32> {
  %b = "foo.bar"(%a) : (tensor<2xi32>) -> tensor<2xi32>
  func.return %b : tensor<2xi32>
}
"""
    with pytest.raises(InterpretError) as info:
        run_function(_module(text, unregistered=True), [[1, 2]])
    diagnostic = info.value.diagnostic
    assert "'foo.bar' cannot be interpreted" in diagnostic.message
    assert (diagnostic.location.file, diagnostic.location.line) == ("case.mlir", 2)


def test_the_observer_sees_every_op_in_order():
    seen: list[str] = []
    Interpreter(_module(CONSTANTS), observer=lambda op, results: seen.append(op.name)).run([[0] * 4])
    assert seen == ["tfl.pseudo_const", "tfl.pseudo_qconst"]


def test_a_named_function_is_chosen_and_a_missing_one_reported():
    text = CONSTANTS + CONSTANTS.replace("@main", "@other")
    assert run_function(_module(text), [[5] * 4], func_name="other")[0].tolist() == [[5, 5], [5, 5]]
    with pytest.raises(InterpretError, match="no function '@nope'"):
        run_function(_module(text), [[5] * 4], func_name="nope")


def test_kernels_load_only_when_an_op_is_interpreted():
    code = textwrap.dedent("""
        import json, sys
        import npu_opt.dialects
        from npu_opt.ir.parser import parse_module
        module = parse_module('''%s''', "t.mlir")
        before = "npu_opt.interpreters.tfl" in sys.modules
        from npu_opt.ir.interpreter import run_function
        run_function(module, [[0, 0, 0, 0]])
        print(json.dumps({"before": before, "after": "npu_opt.interpreters.tfl" in sys.modules}))
    """) % CONSTANTS
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1]) == {"before": False, "after": True}
