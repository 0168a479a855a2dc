"""Layers import downwards only: ir -> dialects -> passes -> tools (and nothing imports bench/tests)."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ["ir", "dialects", "passes", "tools"]


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize("layer", LAYERS)
def test_layer_imports_only_lower_layers(layer: str):
    allowed = set(LAYERS[: LAYERS.index(layer) + 1])
    forbidden = (set(LAYERS) - allowed) | {"bench", "tests"}
    offenders = {}
    for path in sorted((ROOT / layer).rglob("*.py")):
        bad = _imports(path) & forbidden
        if bad:
            offenders[str(path.relative_to(ROOT))] = sorted(bad)
    assert not offenders, f"upward imports: {offenders}"
