"""Layers import downwards only (ir -> hardware -> dialects -> interpreters -> passes -> tools), nothing imports bench/tests, and no import cycles."""
from __future__ import annotations

import ast
import functools
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ["ir", "hardware", "dialects", "interpreters", "passes", "tools"]


def _layer_of(module: str) -> str:
    """The layer a module name belongs to: 'npu_opt.passes.cse' -> 'passes'; other names unchanged."""
    parts = module.split(".")
    return parts[1] if parts[0] == "npu_opt" and len(parts) > 1 else parts[0]


@functools.lru_cache(maxsize=None)
def _import_nodes(path: Path) -> tuple[tuple[ast.Import | ast.ImportFrom, bool], ...]:
    """Each import statement of ``path``, and whether it sits in an ``if TYPE_CHECKING:`` block
    (parsed once: every test of this file walks the same sources)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {id(node) for block in ast.walk(tree) if isinstance(block, ast.If)
                   and isinstance(block.test, ast.Name) and block.test.id == "TYPE_CHECKING"
                   for stmt in block.body for node in ast.walk(stmt)}
    return tuple((node, id(node) in typing_only) for node in ast.walk(tree)
                 if isinstance(node, (ast.Import, ast.ImportFrom)))


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node, _ in _import_nodes(path):
        if isinstance(node, ast.Import):
            found.update(_layer_of(alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(_layer_of(node.module))
    return found


def _bare_layer_imports(path: Path) -> set[str]:
    """Imports of a layer outside the npu_opt namespace ('from ir.core import ...'): these would load
    a second copy of the module (or fail in an installed wheel)."""
    nodes = [node for node, _ in _import_nodes(path)]
    names = [alias.name for node in nodes if isinstance(node, ast.Import) for alias in node.names]
    names += [node.module for node in nodes if isinstance(node, ast.ImportFrom) and node.module and node.level == 0]
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


def test_the_hardware_model_reads_no_ir():
    """hardware/ is the pure Ethos-U model: of the IR it may use the diagnostics' error classes only."""
    offenders = {}
    modules = set(_module_paths())
    for path in sorted((ROOT / "hardware").rglob("*.py")):
        imported = _runtime_imports(path, modules, typing_too=True)
        ir_uses = {name for name in imported if _layer_of(name) == "ir"} - {"npu_opt.ir.diagnostics"}
        if ir_uses:
            offenders[str(path.relative_to(ROOT))] = sorted(ir_uses)
    assert not offenders, f"the hardware model imports IR modules: {offenders}"


def _module_paths() -> dict[str, Path]:
    """Every npu_opt module of the layers, by dotted name, and its file."""
    paths = {}
    for layer in LAYERS:
        for path in (ROOT / layer).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            parts = parts[:-1] if parts[-1] == "__init__" else parts
            paths["npu_opt." + ".".join(parts)] = path
    return paths


def _runtime_imports(path: Path, modules: set[str], typing_too: bool = False) -> set[str]:
    """The npu_opt modules ``path`` imports when it runs, function-local imports included and
    ``if TYPE_CHECKING:`` blocks left out unless ``typing_too``; ``from package import module``
    imports the module."""
    found: set[str] = set()
    for node, typing_only in _import_nodes(path):
        if typing_only and not typing_too:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in modules)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0 and node.module in modules:
            submodules = {f"{node.module}.{alias.name}" for alias in node.names} & modules
            found.update(submodules or {node.module})
    return found


def test_no_import_cycles():
    """No two modules import each other, directly or through others, not even inside a function."""
    paths = _module_paths()
    graph = nx.DiGraph()
    for module, path in paths.items():
        graph.add_edges_from((module, imported) for imported in _runtime_imports(path, set(paths)) - {module})
    cycles = sorted(sorted(group) for group in nx.strongly_connected_components(graph) if len(group) > 1)
    assert not cycles, f"import cycles: {cycles}"
