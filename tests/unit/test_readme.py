"""The front page and the guides hold: their example pass and API example run, their npu-opt
commands parse, the files and links they name exist, and every dependency says why it is there."""
from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

import npu_opt.dialects  # noqa: F401
import npu_opt.passes  # noqa: F401
from npu_opt.ir.diagnostics import DiagnosticEngine
from npu_opt.ir.parser import ParseOptions, parse_module
from npu_opt.ir.pass_manager import PassManager
from npu_opt.ir.pass_registry import PipelineError, parse_pipeline, registered_passes
from npu_opt.ir.printer import print_op

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
DEVELOPER_GUIDE = (ROOT / "docs" / "developer_guide.md").read_text()
PAGES = {"README.md": README, **{f"docs/{p.name}": p.read_text() for p in sorted((ROOT / "docs").glob("*.md"))}}
"""The hand-written pages (the generated references are checked by test_reference_docs.py)."""


def _python_blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, re.S)


def _example_pass_source() -> str:
    (source,) = [b for b in _python_blocks(DEVELOPER_GUIDE) if "register_pass" in b]
    return source


def test_example_pass_is_under_50_lines_and_runs():
    source = _example_pass_source()
    assert len(source.strip().splitlines()) < 50
    if "mul-to-add" not in registered_passes():
        exec(compile(source, "docs/developer_guide.md", "exec"), {})
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


def test_api_example_is_ten_lines_and_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]):
    (source,) = [b for b in _python_blocks(README) if "npu_opt.tools import api" in b]
    assert len([line for line in source.splitlines() if line.strip()]) <= 10
    monkeypatch.chdir(tmp_path)
    exec(compile(source.replace('"tests/data/', f'"{ROOT}/tests/data/'), "README.md", "exec"), {})
    lines = capsys.readouterr().out.splitlines()
    assert float(lines[0]) > 0 and len(lines) >= 3  # the total cycles, then one line per frontier point
    assert all(int(line.split()[1]) >= 0 for line in lines[1:])
    assert "npu.search = #npu.search" in (tmp_path / "scheduled.mlir").read_text()


def test_readme_test_command_is_what_ci_runs():
    ci = (ROOT / ".ci" / "run").read_text().strip().splitlines()[-1]
    assert ci in README


def test_readme_example_file_exists():
    assert (ROOT / "examples" / "quickstart.mlir").is_file()


def _commands(text: str, tool: str) -> list[list[str]]:
    """The indented ``tool ...`` command lines of a page (continuations joined, comments dropped)."""
    joined = re.sub(r"\\\n\s*", "", text)
    return [shlex.split(line.strip(), comments=True)[1:] for line in joined.splitlines()
            if line.startswith("    " + tool + " ")]


@pytest.mark.parametrize("page", ["README.md", "docs/user_guide.md"])
def test_npu_opt_commands_parse(page: str):
    from npu_opt.tools.api import parse_pipelines
    from npu_opt.tools.cli_args import parse_args

    commands = _commands(PAGES[page], "npu-opt")
    assert len(commands) >= 5
    for argv in commands:
        args = parse_args(argv)
        parse_pipelines(args.pipeline)


@pytest.mark.parametrize("page", sorted(PAGES))
def test_named_files_and_links_exist(page: str):
    text = PAGES[page]
    base = ROOT if page == "README.md" else ROOT / "docs"
    links = [link.split("#")[0] for link in re.findall(r"\]\(([^)]+)\)", text) if "://" not in link]
    missing = [link for link in links if link and not (base / link).exists()]
    named = re.findall(r"(?<![\w/.-])((?:tests/data|examples|bench|docs)/[\w./-]+\.(?:tflite|mlir|md|py|json|png))", text)
    missing += [path for path in named if not (ROOT / path).exists()]
    assert not missing, f"{page} names files that do not exist: {missing}"


def _dependencies() -> set[str]:
    """The distribution names pyproject.toml requires, with every extra's."""
    text = (ROOT / "pyproject.toml").read_text()
    names = set()
    for block in re.findall(r"(?ms)^(?:dependencies|\w[\w-]*) = \[\n(.*?)^\]", text):
        names.update(re.findall(r'^\s*"([A-Za-z0-9_.-]+)', block, re.M))
    return names


def test_readme_says_why_each_dependency():
    section = README.split("## Why each dependency", 1)[1]
    named = {name.lower() for name in re.findall(r"\*\*([\w.-]+)\*\*", section)}
    missing = {name for name in _dependencies() if name.lower() not in named}
    assert len(_dependencies()) >= 10 and not missing, f"README does not say why these are used: {missing}"


def test_pages_do_not_speak_of_issues():
    assert not [page for page, text in PAGES.items() if page in ("README.md", "docs/user_guide.md",
                                                                 "docs/developer_guide.md", "docs/design.md")
                and re.search(r"\bissue \d", text)]

