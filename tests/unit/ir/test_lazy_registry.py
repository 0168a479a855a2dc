"""Dialects and passes load on first reference, and what they register does not depend on import
order. Each case runs in a fresh interpreter, since this test process has imported everything."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap


def _run(code: str) -> dict:
    """Run ``code`` in a fresh interpreter; it prints one JSON object as its last line."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_malformed_npu_block_is_an_error_with_only_the_dialect_loaded():
    result = _run("""
        import json, sys
        import npu_opt.dialects.npu
        from npu_opt.ir.parser import ParseError, ParseOptions, parse_module
        text = '"foo.op"() {a = #npu.block<13x6>, b = #npu.cost<total = x>} : () -> ()'
        try:
            parse_module(text, "t.mlir", ParseOptions(allow_unregistered=True))
            outcome = "parsed"
        except ParseError as err:
            outcome = str(err)
        good = parse_module('"foo.op"() {a = #npu.block<13x6x16, ifm = 32x8x8, acc = 32, '
                            'traversal = part_kernel>} : () -> ()', "t.mlir",
                            ParseOptions(allow_unregistered=True))
        attr = next(iter(good.regions[0].blocks[0].ops)).attr("a")
        print(json.dumps({"outcome": outcome, "class": type(attr).__name__,
                          "passes": "npu_opt.passes.npu_perf" in sys.modules}))
    """)
    assert "#npu.block" in result["outcome"] and "13x6" in result["outcome"]
    assert result["class"] == "BlockAttr"
    assert result["passes"] is False


def test_an_empty_module_loads_only_builtin():
    result = _run("""
        import io, json, sys
        from contextlib import redirect_stdout
        from npu_opt.tools.npu_opt import main
        import tempfile, os
        path = os.path.join(tempfile.mkdtemp(), "empty.mlir")
        open(path, "w").write("module {}\\n")
        with redirect_stdout(io.TextIOWrapper(io.BytesIO())) as out:
            code = main([path])
            out.flush()
        loaded = sorted(m for m in sys.modules if m.startswith("npu_opt.dialects.")
                        or m.startswith("npu_opt.passes.") or m in ("numpy", "networkx"))
        print(json.dumps({"code": code, "out": out.buffer.getvalue().decode(), "loaded": loaded}))
    """)
    assert result["code"] == 0 and "module" in result["out"]
    assert result["loaded"] == ["npu_opt.dialects.builtin"]


def test_an_op_name_loads_its_dialect_and_a_pipeline_its_passes():
    result = _run("""
        import json, sys
        import npu_opt.dialects, npu_opt.passes
        from npu_opt.ir.opdef import lookup_op
        from npu_opt.ir.pass_registry import parse_pipeline
        before = "npu_opt.dialects.tfl" in sys.modules
        cls = lookup_op("tfl.add")
        passes = [p.NAME for p in parse_pipeline("cse")]
        print(json.dumps({"before": before, "cls": cls.__name__, "tfl": "npu_opt.dialects.tfl" in sys.modules,
                          "passes": passes, "cse": "npu_opt.passes.cse" in sys.modules,
                          "dce": "npu_opt.passes.dce" in sys.modules}))
    """)
    assert result == {"before": False, "cls": result["cls"], "tfl": True, "passes": ["cse"], "cse": True,
                      "dce": False}


def test_did_you_mean_sees_passes_not_loaded_yet():
    result = _run("""
        import json, sys
        import npu_opt.passes
        from npu_opt.ir.pass_registry import PipelineError, parse_pipeline
        try:
            parse_pipeline("npu-estimat")
            message = ""
        except PipelineError as err:
            message = str(err)
        print(json.dumps({"message": message}))
    """)
    assert "did you mean 'npu-estimate'" in result["message"]


def test_declared_tables_name_exactly_what_the_modules_register():
    result = _run("""
        import importlib, json, pkgutil
        import npu_opt.dialects, npu_opt.passes
        from npu_opt.ir import opdef, pass_registry
        for package in (npu_opt.dialects, npu_opt.passes):  # every module there, listed or not
            for info in pkgutil.iter_modules(package.__path__):
                importlib.import_module(f"{package.__name__}.{info.name}")
        print(json.dumps({
            "dialects": sorted(d.name for d in opdef.all_dialects()),
            "passes": sorted([*pass_registry.registered_passes(), *pass_registry.registered_pipelines()]),
        }))
    """)
    from npu_opt.dialects import DIALECT_MODULES
    from npu_opt.passes import PASS_MODULES
    assert result["dialects"] == sorted(DIALECT_MODULES)
    assert result["passes"] == sorted(name for names in PASS_MODULES.values() for name in names)


def test_listing_loads_every_pass_and_dialect():
    result = _run("""
        import io, json
        from contextlib import redirect_stdout
        from npu_opt.tools.npu_opt import main
        with redirect_stdout(io.StringIO()) as passes:
            main(["--list-passes"])
        with redirect_stdout(io.StringIO()) as dialects:
            main(["--show-dialects"])
        print(json.dumps({"passes": passes.getvalue(), "dialects": dialects.getvalue()}))
    """)
    for name in ("canonicalize", "npu-estimate", "npu-place-tensors", "test-crash", "estimate"):
        assert f"  {name} " in result["passes"]
    for name in ("builtin", "func", "npu", "test", "tfl"):
        assert f"\n{name}: " in "\n" + result["dialects"]


def test_loading_the_ir_dialects_imports_neither_numpy_nor_networkx():
    result = _run("""
        import json, sys
        import npu_opt.dialects.builtin, npu_opt.dialects.func, npu_opt.dialects.tfl, npu_opt.dialects.npu
        import npu_opt.ir.parser, npu_opt.ir.printer, npu_opt.ir.verifier
        print(json.dumps(sorted(m for m in ("numpy", "networkx") if m in sys.modules)))
    """)
    assert result == []
