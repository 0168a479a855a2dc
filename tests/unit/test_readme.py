"""The README's claims hold: its example pass works, and its commands name real files."""
from __future__ import annotations

import re
from pathlib import Path

import npu_opt.dialects  # noqa: F401
import npu_opt.passes  # noqa: F401
from npu_opt.ir.diagnostics import DiagnosticEngine
from npu_opt.ir.parser import ParseOptions, parse_module
from npu_opt.ir.pass_manager import PassManager
from npu_opt.ir.pass_registry import PipelineError, parse_pipeline, registered_passes
from npu_opt.ir.printer import print_op

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()


def _example_pass_source() -> str:
    blocks = re.findall(r"```python\n(.*?)```", README, re.S)
    (source,) = [b for b in blocks if "register_pass" in b]
    return source


def test_example_pass_is_under_50_lines_and_runs():
    source = _example_pass_source()
    assert len(source.strip().splitlines()) < 50
    if "mul-to-add" not in registered_passes():
        exec(compile(source, "README.md", "exec"), {})
    module = parse_module(
        'func.func @f(%a: i32) -> i32 {\n'
        '  %c = "test.constant"() <{value = 2 : i32}> : () -> i32\n'
        '  %0 = "test.muli"(%a, %c) : (i32, i32) -> i32\n'
        '  return %0 : i32\n}', "t.mlir", ParseOptions())
    PassManager(parse_pipeline("mul-to-add{factor=2}"), DiagnosticEngine()).run(module)
    text = print_op(module)
    assert '"test.addi"(%arg0, %arg0)' in text and "test.muli" not in text
    try:
        parse_pipeline("mul-to-ad")
    except PipelineError as err:
        assert "did you mean 'mul-to-add'" in str(err)
    else:  # pragma: no cover
        raise AssertionError("misspelt pass accepted")


def test_readme_test_command_is_what_ci_runs():
    ci = (ROOT / ".ci" / "run").read_text().strip().splitlines()[-1]
    assert ci in README


def test_readme_example_file_exists():
    assert (ROOT / "examples" / "quickstart.mlir").is_file()
