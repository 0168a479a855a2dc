"""The CPU-fallback reasons of npu-legalize (passes/npu_lowering/support*.py) are worded by this
project: each names the offending value and the limit, and none repeats a Vela constraint
docstring. The Vela comparison runs only where Vela is installed."""
from __future__ import annotations

import ast
import difflib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[4]
SOURCES = [ROOT / "passes" / "npu_lowering" / name for name in ("support.py", "support_ops.py")]


def _messages() -> list[str]:
    """Every message template passed to reason()/Reason(), with {...} fields as X."""
    found = []
    for path in SOURCES:
        source = path.read_text()
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("reason", "Reason"):
                for arg in node.args[1:]:
                    text = "".join(re.findall(r'f?"((?:[^"\\]|\\.)*)"', ast.get_source_segment(source, arg) or ""))
                    found.append(re.sub(r"\{[^}]*\}", "X", text))
    return found


def _normal(text: str) -> str:
    return re.sub(r"[^a-z0-9x ]", "", " ".join(text.lower().split()))


def test_most_reasons_quote_a_value() -> None:
    messages = _messages()
    assert len(messages) > 60
    with_values = [m for m in messages if "X" in m]
    # the few without a value say what is missing (a constant, a mode): 'computed at run time'
    assert len(with_values) >= len(messages) - 10


def test_no_reason_repeats_a_vela_docstring() -> None:
    vela = pytest.importorskip("ethosu.vela")
    folder = Path(vela.__file__).parent
    docs = []
    for name in ("tflite_supported_operators.py", "tflite_model_semantic.py"):
        for node in ast.walk(ast.parse((folder / name).read_text())):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("constraint"):
                doc = ast.get_docstring(node)
                if doc:
                    docs.append(_normal(doc))
    assert len(docs) > 50
    close = [(m, d) for m in map(_normal, _messages()) for d in docs
             if d in m or difflib.SequenceMatcher(None, m, d).ratio() > 0.8]
    assert close == []
