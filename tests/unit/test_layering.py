"""Layers import downwards only: ir -> dialects -> passes -> tools (and nothing imports bench/tests)."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ["ir", "dialects", "passes", "tools"]


def _layer_of(module: str) -> str:
    """The layer a module name belongs to: 'npu_opt.passes.cse' -> 'passes'; other names unchanged."""
    parts = module.split(".")
    return parts[1] if parts[0] == "npu_opt" and len(parts) > 1 else parts[0]


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(_layer_of(alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(_layer_of(node.module))
    return found


def _bare_layer_imports(path: Path) -> set[str]:
    """Imports of a layer outside the npu_opt namespace ('from ir.core import ...'): these would load
    a second copy of the module (or fail in an installed wheel)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
    names += [node.module for node in ast.walk(tree)
              if isinstance(node, ast.ImportFrom) and node.module and node.level == 0]
    return {name for name in names if name.split(".")[0] in LAYERS}


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


def test_every_import_goes_through_the_npu_opt_namespace():
    offenders = {}
    for folder in [*LAYERS, "tests", "bench"]:
        for path in sorted((ROOT / folder).rglob("*.py")):
            bare = _bare_layer_imports(path)
            if bare:
                offenders[str(path.relative_to(ROOT))] = sorted(bare)
    assert not offenders, f"imports outside npu_opt: {offenders}"


KNOWN_CYCLES: list[set[str]] = [
    {"npu_opt.dialects.npu.target", "npu_opt.dialects.npu.target_attr"},
    {"npu_opt.dialects.npu.perf.block_choice", "npu_opt.dialects.npu.perf.estimate"},
    {"npu_opt.dialects.npu.kernels.arith", "npu_opt.dialects.npu.kernels.lut"},
]
"""Cycles being broken elsewhere (issue 24); none may grow, and no other may appear."""


def _module_files() -> dict[str, Path]:
    found = {}
    for layer in LAYERS:
        for path in sorted((ROOT / layer).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            parts = parts[:-1] if parts[-1] == "__init__" else parts
            found[".".join(("npu_opt", *parts))] = path
    return found


def _runtime_imports(path: Path, modules: dict[str, Path]) -> set[str]:
    """The npu_opt modules ``path`` imports when it runs, function-local imports included
    (imports under ``if TYPE_CHECKING:`` are for annotations only)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {id(node) for guard in ast.walk(tree)
                   if isinstance(guard, ast.If) and "TYPE_CHECKING" in ast.unparse(guard.test)
                   for stmt in guard.body for node in ast.walk(stmt)}
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                found.add(full if full in modules else node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name in modules}


def _cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of ``graph`` with more than one module (Tarjan's)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []

    def visit(start: str) -> None:
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            nxt = next(edges, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(component)

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return found


def test_no_import_cycles():
    modules = _module_files()
    graph = {name: _runtime_imports(path, modules) - {name} for name, path in modules.items()}
    cycles = [sorted(cycle) for cycle in _cycles(graph) if cycle not in KNOWN_CYCLES]
    assert not cycles, f"import cycles (function-local imports count): {cycles}"
