"""tools/generate_checks.py: the generated FileCheck lines pass on the output they came from
(checked by running filecheck), bind every SSA name, and can be put into a source file."""
from __future__ import annotations

import contextlib
import functools
import io
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tool_paths import which_tool

from npu_opt.tools.generate_checks import checks_for_chunk, convert, escape, generate, insert_into_source, _Names

ROOT = Path(__file__).resolve().parents[3]
FILECHECK = which_tool("filecheck")
needs_filecheck = pytest.mark.skipif(FILECHECK is None, reason="filecheck is not installed")

SAMPLE = """\
func.func @f(%a: i32, %b: i32) -> (i32, tensor<2x2xi32>) {
  %s = "test.addi"(%a, %b) : (i32, i32) -> i32
  %t = "test.addi"(%a, %b) : (i32, i32) -> i32
  %e:2 = "test.effect"(%s, %t) {note = "%s stays text", d = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>} : (i32, i32) -> (i32, tensor<2x2xi32>)
  "test.br"(%e#0)[^bb1] : (i32) -> ()
^bb1(%x: i32):
  %r = "test.region"(%x) ({
  ^bb0(%inner: i32):
    %m = "test.muli"(%inner, %x) : (i32, i32) -> i32
    "test.yield"(%m) : (i32) -> ()
  }) : (i32) -> i32
  return %r, %e#1 : i32, tensor<2x2xi32>
}
func.func private @decl(i32) -> i32
"""


@functools.lru_cache(maxsize=None)
def npu_opt(text: str, *flags: str) -> str:
    """npu-opt's command-line entry point, run in this process (the checks are under test here,
    not npu-opt's start-up, which dominated a subprocess) on ``text``; cached: tests print SAMPLE alike."""
    from npu_opt.tools.npu_opt import main

    with tempfile.TemporaryDirectory() as tmp:
        source, output = Path(tmp) / "input.mlir", Path(tmp) / "output.mlir"
        source.write_text(text, encoding="utf-8")
        errors = io.StringIO()
        with contextlib.redirect_stderr(errors):
            code = main([str(source), "--allow-unregistered-dialect", "-o", str(output), *flags])
        assert code == 0, errors.getvalue()
        return output.read_text(encoding="utf-8")


def filecheck(checks: str, output: str, tmp_path: Path) -> subprocess.CompletedProcess:
    check_file = tmp_path / "checks.mlir"
    check_file.write_text(checks)
    return subprocess.run([FILECHECK, str(check_file)], input=output, capture_output=True, text=True,
                          timeout=120)


def checks_text(output: str, **options: object) -> str:
    return "\n\n// -----\n\n".join("\n".join(block) for block in generate(output, **options)) + "\n"


# -- the pieces -----------------------------------------------------------------------------

def test_escape_brackets_and_braces():
    assert escape("dense<[[1]]>") == r"dense<{{\[\[}}1]]>"
    assert escape("{{x}}") == r"{{\{\{}}x}}"
    assert escape("[1, [2]] {a = {}}") == "[1, [2]] {a = {}}"


def test_first_occurrence_captures_later_ones_match():
    names = _Names()
    assert convert('%0 = "test.addi"(%arg0, %arg0) : (i32, i32) -> i32', names) == \
        '%[[VAL_0:.*]] = "test.addi"(%[[ARG0:.*]], %[[ARG0]]) : (i32, i32) -> i32'
    assert convert("return %0, %1#1 : i32, i32", names) == "return %[[VAL_0]], %[[VAL_1:.*]]#1 : i32, i32"


def test_strings_are_not_values():
    names = _Names()
    assert convert('"test.effect"(%0) {s = "%0 and \\"%1\\""} : (i32) -> ()', names) == \
        '"test.effect"(%[[VAL_0:.*]]) {s = "%0 and \\"%1\\""} : (i32) -> ()'


def test_a_redefinition_gets_a_new_variable():
    names = _Names()
    convert('%0 = "test.constant"() {value = 1 : i32} : () -> i32', names)
    # a nested isolated function numbers its values from %0 again
    assert convert('%0 = "test.constant"() {value = 2 : i32} : () -> i32', names).startswith("%[[VAL_1:.*]] =")
    assert convert("func.func @g(%arg0: i32) {", names) == "func.func @g(%[[ARG0:.*]]: i32) {"
    assert convert("^bb1(%arg0: i8):", names) == "^bb1(%[[ARG0_1:.*]]: i8):"


def test_a_use_before_the_definition_captures():
    names = _Names()
    assert convert("return %3 : i32", names) == "return %[[VAL_0:.*]] : i32"
    assert convert('%3 = "test.constant"() {value = 3 : i32} : () -> i32', names).startswith("%[[VAL_0]] =")


def test_labels_same_and_next():
    lines = checks_for_chunk(npu_opt(SAMPLE))
    assert lines[0] == "// CHECK-LABEL: func.func @f("
    assert lines[1] == ("// CHECK-SAME: %[[ARG0:.*]]: i32, %[[ARG1:.*]]: i32) -> "
                        "(i32, tensor<2x2xi32>) {")
    assert lines[2] == '// CHECK-NEXT:   %[[VAL_0:.*]] = "test.addi"(%[[ARG0]], %[[ARG1]]) : (i32, i32) -> i32'
    assert "// CHECK-NEXT: ^bb1(%[[VAL_3:.*]]: i32):" in lines
    assert lines[-2:] == ["// CHECK-LABEL: func.func private @decl(", "// CHECK-SAME: i32) -> i32"]
    assert not any("module" in line for line in lines)
    loose = checks_for_chunk(npu_opt(SAMPLE), next_lines=False)
    assert not any("CHECK-NEXT" in line for line in loose)


def test_value_numbers_restart_per_function():
    output = npu_opt('func.func @a() -> i32 {\n  %0 = "test.constant"() {value = 1 : i32} : () -> i32\n'
                     '  return %0 : i32\n}\nfunc.func @b() -> i32 {\n'
                     '  %0 = "test.constant"() {value = 2 : i32} : () -> i32\n  return %0 : i32\n}\n')
    lines = checks_for_chunk(output)
    assert sum(1 for line in lines if "%[[VAL_0:.*]] =" in line) == 2


def test_insert_into_source_replaces_old_checks(tmp_path: Path):
    source = ("// RUN: npu-opt %s\n\n// CHECK: old\nfunc.func private @a()\n// -----\n"
              "// A comment.\n// OTHER: kept\nfunc.func private @b()\n")
    checks = [["// CHECK-LABEL: func.func private @a("], ["// CHECK-LABEL: func.func private @b("]]
    updated = insert_into_source(source, checks)
    assert updated == ("// RUN: npu-opt %s\n\n// CHECK-LABEL: func.func private @a(\nfunc.func private @a()\n"
                       "// -----\n// A comment.\n// OTHER: kept\n// CHECK-LABEL: func.func private @b(\n"
                       "func.func private @b()\n")
    assert insert_into_source(updated, checks) == updated
    with pytest.raises(ValueError, match="2 chunks but the output 1"):
        insert_into_source(source, checks[:1])


# -- against filecheck ----------------------------------------------------------------------

@needs_filecheck
@pytest.mark.parametrize("flags", [(), ("--pass=cse",), ("--print-op-generic",), ("--print-debuginfo",)],
                         ids=["pretty", "cse", "generic", "debuginfo"])
def test_generated_checks_pass_filecheck(flags: tuple[str, ...], tmp_path: Path):
    output = npu_opt(SAMPLE, *flags)
    result = filecheck(checks_text(output), output, tmp_path)
    assert result.returncode == 0, result.stderr


@needs_filecheck
def test_generated_checks_bind_values(tmp_path: Path):
    output = npu_opt(SAMPLE)
    checks = checks_text(output)
    # the same text with two operands swapped must not pass: the captures are used, not re-matched
    swapped = output.replace('"test.addi"(%arg0, %arg1)', '"test.addi"(%arg1, %arg0)', 1)
    assert swapped != output
    assert filecheck(checks, swapped, tmp_path).returncode != 0
    # nor may a value that was merged into another (cse) pass the checks of the original
    assert filecheck(checks, npu_opt(SAMPLE, "--pass=cse"), tmp_path).returncode != 0


@needs_filecheck
def test_split_output_and_source_mode(tmp_path: Path):
    source = tmp_path / "case.mlir"
    source.write_text(SAMPLE + "\n// -----\n\n// CHECK: stale\n" + SAMPLE.replace("@f(", "@g(") + "\n")
    output = npu_opt(source.read_text(), "--split-input-file", "--pass=cse")
    done = subprocess.run([sys.executable, "-m", "npu_opt.tools.generate_checks", "--source", str(source), "-i"],
                          input=output, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    text = source.read_text()
    assert "stale" not in text and text.count("// CHECK-LABEL: func.func @") == 2
    check = subprocess.run([FILECHECK, str(source)], input=output, capture_output=True, text=True, timeout=120)
    assert check.returncode == 0, check.stderr


def test_command_line_errors(tmp_path: Path):
    done = subprocess.run([sys.executable, "-m", "npu_opt.tools.generate_checks", "-i"], input="", capture_output=True,
                          text=True, cwd=ROOT, timeout=120)
    assert done.returncode != 0 and "-i needs --source" in done.stderr
    done = subprocess.run([sys.executable, "-m", "npu_opt.tools.generate_checks", str(tmp_path / "missing.mlir")],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 1 and "generate_checks: error:" in done.stderr


@needs_filecheck
def test_checks_for_every_valid_lit_input(tmp_path: Path):
    """Generated checks pass on the output of every valid input of the lit suite."""
    from test_interop_lit_inputs import INPUTS, npu_opt as npu_opt_in_process

    outputs = {path: npu_opt_in_process(path.read_text(encoding="utf-8")) for path in INPUTS}
    # One filecheck process over all of them (the checks of each output follow each other, as the
    # outputs do); only if that fails, one per input, to name the inputs whose checks fail.
    joined = filecheck("\n".join(checks_text(o) for o in outputs.values()), "\n".join(outputs.values()), tmp_path)
    if joined.returncode == 0:
        return
    failures = []
    for path, output in outputs.items():
        result = filecheck(checks_text(output), output, tmp_path)
        if result.returncode != 0:
            failures.append(f"{path.name}: {result.stderr[:500]}")
    assert not failures, "\n".join(failures)
