#!/usr/bin/env python3
"""IR throughput benchmark: npu-opt's parser, verifier, printer and passes, with xDSL beside it.

Run from anywhere:

    python bench/ir_throughput.py            # full run (10 to 15 minutes on 2 busy shared cores)
    python bench/ir_throughput.py --quick    # xDSL on a 5,000-op module, scaled (about 5 minutes)
    python bench/ir_throughput.py --imported-only  # only the imported-IR rows, printed (about 2 minutes)

It generates its inputs into a temporary directory (fixed seeds, so every run measures the same
text), measures, and rewrites the results section of bench/RESULTS.md (``--results`` to write
elsewhere). In-process figures are medians of CPU time (time.process_time) over several runs, each
workload in its own child process so that its peak RSS is its own; end-to-end figures are medians
of wall time, with the child's CPU time and peak RSS taken from os.wait4.

Imported IR (bench/throughput_imported.py) is a 30,000-layer conv/depthwise chain written as
``npu-translate --import-tflite`` prints it, and the ../shared/corpus models imported to text;
each is parsed once per fresh process (the first parse of its type spellings, as a real run).

End-to-end runs keep compiled bytecode in a directory of their own (PYTHONPYCACHEPREFIX, with
PYTHONDONTWRITEBYTECODE unset), as an installed package and lit.cfg.py do; start-up is also
measured without it. Output goes to stdout redirected to /dev/null.
"""
from __future__ import annotations

import argparse
import datetime
import gc
import io
import json
import os
import platform
import resource
import shutil
import stat
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

REPO = Path(__file__).resolve().parent.parent
DEFAULT_RESULTS = REPO / "bench" / "RESULTS.md"
SOURCE_ENV = "NPU_OPT_BENCH_SOURCE"
"""Environment variable naming the source tree the workers import npu-opt from (default: REPO)."""
LAUNCHER = "import sys\nfrom npu_opt.tools.npu_opt import main\nsys.exit(main())\n"
"""What the npu-opt console script runs; used to run a source tree other than the installed one."""

import bench_inputs as bi  # noqa: E402  (the inputs check every bench shares)
import compile_time as ct  # noqa: E402  (the corpus's models)
from throughput_imported import worker_generate_imported, worker_imported  # noqa: E402  (bench/ is on sys.path)
from throughput_inputs import worker_generate  # noqa: E402
from throughput_report import render, write_results  # noqa: E402

NUM_OPS = 50_000
XDSL_QUICK_OPS = 5_000
DISTINCT_OPS = 10_000
BLOB_BYTES = 50 * 1024 * 1024
CHAIN_LAYERS = 30_000
CORPUS = bi.default_corpus() / "models"



# ---------------------------------------------------------------------------------------------
# In-process workers (each runs in its own child process; prints one JSON object)
# ---------------------------------------------------------------------------------------------

def _timed(fn: Callable[[], Any]) -> tuple[Any, float, float]:
    """Run ``fn`` once after a full collection; return (result, CPU seconds, wall seconds)."""
    gc.collect()
    cpu, wall = time.process_time(), time.perf_counter()
    result = fn()
    return result, time.process_time() - cpu, time.perf_counter() - wall


def _series(cpu: list[float], wall: list[float], **extra: Any) -> dict[str, Any]:
    return {"cpu": cpu, "wall": wall, "cpu_median": statistics.median(cpu),
            "wall_median": statistics.median(wall), **extra}


def _peak_rss() -> int:
    """This process's peak resident set size in bytes (ru_maxrss is KiB on Linux)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024


def _npu_imports() -> dict[str, Any]:
    if SOURCE_ENV in os.environ:  # a directory holding the tree under test as ``npu_opt``
        sys.path.insert(0, os.environ[SOURCE_ENV])
    import npu_opt.dialects  # noqa: F401 - registers the dialects
    import npu_opt.passes  # noqa: F401 - registers the passes
    from npu_opt.ir.attributes import IntegerAttr
    from npu_opt.ir.diagnostics import DiagnosticEngine
    from npu_opt.ir.parser import ParseOptions, parse_module
    from npu_opt.ir.pass_manager import PassContext
    from npu_opt.ir.pass_registry import Pass, parse_pipeline
    from npu_opt.ir.printer import PrintOptions, print_op
    from npu_opt.ir.types import I64
    from npu_opt.ir.verifier import verify
    return dict(IntegerAttr=IntegerAttr, DiagnosticEngine=DiagnosticEngine, ParseOptions=ParseOptions,
                parse_module=parse_module, PassContext=PassContext, Pass=Pass,
                parse_pipeline=parse_pipeline, PrintOptions=PrintOptions, print_op=print_op,
                I64=I64, verify=verify)


_WARMUP = ('module {\n  func.func @f(%arg0: i32) -> i32 {\n'
           '    %0 = "x.y"(%arg0) <{a = 1 : i64}> : (i32) -> i32\n    return %0 : i32\n  }\n}\n')


def _warm_up(api: dict[str, Any]) -> float:
    """Parse and print a tiny module (loads the grammar); return its CPU seconds."""
    _, cpu, _ = _timed(lambda: api["print_op"](api["parse_module"](
        _WARMUP, "warmup.mlir", api["ParseOptions"](allow_unregistered=True)), api["PrintOptions"]()))
    return cpu


def worker_npu_ops(path: str, runs: int, parse_runs: int) -> dict[str, Any]:
    api = _npu_imports()
    parse_module, options = api["parse_module"], api["ParseOptions"](allow_unregistered=True)
    baseline = _peak_rss()
    warmup = _warm_up(api)
    text = Path(path).read_text(encoding="utf-8")
    out: dict[str, Any] = {"baseline_rss": baseline, "warmup_cpu": warmup}

    module = None
    cpu, wall = [], []
    for _ in range(parse_runs):
        module = None
        module, c, w = _timed(lambda: parse_module(text, path, options))
        cpu.append(c)
        wall.append(w)
    num_ops = sum(1 for _ in module.walk())
    out["ops"] = num_ops
    out["parse"] = _series(cpu, wall)

    # The same parse with the cyclic garbage collector off, to show what collection costs.
    cpu, wall = [], []
    for _ in range(parse_runs):
        other = None
        gc.collect()
        gc.disable()
        try:
            other, c, w = _timed(lambda: parse_module(text, path, options))
        finally:
            gc.enable()
        cpu.append(c)
        wall.append(w)
    del other
    out["parse_nogc"] = _series(cpu, wall)

    engine = api["DiagnosticEngine"]()
    cpu, wall = [], []
    for _ in range(runs):
        ok, c, w = _timed(lambda: api["verify"](module, engine))
        assert ok, "the generated module does not verify"
        cpu.append(c)
        wall.append(w)
    out["verify"] = _series(cpu, wall)

    cpu, wall = [], []
    printed = ""
    for _ in range(runs):
        printed = ""
        printed, c, w = _timed(lambda: api["print_op"](module, api["PrintOptions"]()))
        cpu.append(c)
        wall.append(w)
    out["print"] = _series(cpu, wall, round_trip_exact=printed == text, chars=len(printed))
    del printed

    class MarkEveryOp(api["Pass"]):  # type: ignore[misc, valid-type]
        """The trivial pass: set one discardable attribute on every op, through the rewriter."""

        def __init__(self, value: Any) -> None:
            self.value = value

        def run(self, root: Any, ctx: Any) -> None:
            rewriter, value = ctx.rewriter, self.value
            for op in root.walk():
                rewriter.set_attr(op, "bench.mark", value)

    cpu, wall, changed = [], [], []
    for run in range(runs):
        mark = MarkEveryOp(api["IntegerAttr"](run + 1, api["I64"]))  # a new value: every op changes
        ctx = api["PassContext"](api["DiagnosticEngine"]())
        _, c, w = _timed(lambda: mark.run(module, ctx))
        cpu.append(c)
        wall.append(w)
        changed.append(ctx.rewriter.counts["attributes set"])
    out["mark"] = _series(cpu, wall, attributes_set=changed)

    pipeline = api["parse_pipeline"]("cse,dce")
    cpu, wall, counts = [], [], []
    for _ in range(runs):
        ctx = api["PassContext"](api["DiagnosticEngine"]())

        def run_pipeline() -> None:
            for pass_ in pipeline:
                pass_.run(module, ctx)
        _, c, w = _timed(run_pipeline)
        cpu.append(c)
        wall.append(w)
        counts.append(dict(ctx.stats))
    out["cse_dce"] = _series(cpu, wall, stats=counts)
    out["still_valid"] = api["verify"](module, engine)
    out["peak_rss"] = _peak_rss()
    return out


def worker_npu_parse(path: str, runs: int) -> dict[str, Any]:
    api = _npu_imports()
    parse_module, options = api["parse_module"], api["ParseOptions"](allow_unregistered=True)
    _warm_up(api)
    text = Path(path).read_text(encoding="utf-8")
    module = None
    cpu, wall = [], []
    for _ in range(runs):
        module = None
        module, c, w = _timed(lambda: parse_module(text, path, options))
        cpu.append(c)
        wall.append(w)
    return {"ops": sum(1 for _ in module.walk()), "parse": _series(cpu, wall), "peak_rss": _peak_rss()}


def worker_npu_pure(path: str, runs: int) -> dict[str, Any]:
    api = _npu_imports()
    parse_module, options = api["parse_module"], api["ParseOptions"]()
    _warm_up(api)
    text = Path(path).read_text(encoding="utf-8")
    pipeline = api["parse_pipeline"]("cse,dce")
    cpu, wall, counts = [], [], []
    ops_before = ops_after = 0
    valid = True
    for _ in range(runs):
        module = None
        gc.collect()
        module = parse_module(text, path, options)
        ops_before = sum(1 for _ in module.walk())
        ctx = api["PassContext"](api["DiagnosticEngine"]())

        def run_pipeline() -> None:
            for pass_ in pipeline:
                pass_.run(module, ctx)
        _, c, w = _timed(run_pipeline)
        cpu.append(c)
        wall.append(w)
        counts.append(dict(ctx.stats))
        ops_after = sum(1 for _ in module.walk())
        valid = valid and api["verify"](module, api["DiagnosticEngine"]())
    return {"ops": ops_before, "ops_after": ops_after, "valid_after": valid,
            "cse_dce": _series(cpu, wall, stats=counts), "peak_rss": _peak_rss()}


def worker_npu_blob(path: str, runs: int) -> dict[str, Any]:
    api = _npu_imports()
    parse_module, options = api["parse_module"], api["ParseOptions"](allow_unregistered=True)
    _warm_up(api)
    text = Path(path).read_text(encoding="utf-8")
    parse_cpu, parse_wall, print_cpu, print_wall = [], [], [], []
    same = True
    for _ in range(runs):
        module = printed = None
        module, c, w = _timed(lambda: parse_module(text, path, options))
        parse_cpu.append(c)
        parse_wall.append(w)
        printed, c, w = _timed(lambda: api["print_op"](module, api["PrintOptions"]()))
        print_cpu.append(c)
        print_wall.append(w)
    peak = _peak_rss()
    return {"parse": _series(parse_cpu, parse_wall), "print": _series(print_cpu, print_wall),
            "round_trip_same_blob": _same_blob(printed, text), "peak_rss": peak}


def _same_blob(printed: str, text: str) -> bool:
    """Whether ``printed`` carries the same IR and blob as ``text``, up to the case of the hex
    (npu-opt prints upper case, as MLIR does) and blank lines, compared a megabyte at a time."""
    a, b = printed.find('"0x'), text.find('"0x')
    if a < 0 or b < 0 or len(printed) - a != len(text) - b:
        return False
    if [line for line in printed[:a].split("\n") if line] != [line for line in text[:b].split("\n") if line]:
        return False
    step = 1 << 20
    return all(printed[a + i:a + i + step].lower() == text[b + i:b + i + step].lower()
               for i in range(0, len(text) - b, step))


def _xdsl_context() -> Any:
    from xdsl.context import Context
    from xdsl.universe import Universe
    ctx = Context(allow_unregistered=True)
    for name, factory in Universe.get_multiverse().all_dialects.items():  # as xdsl-opt does
        ctx.register_dialect(name, factory)
    return ctx


def worker_xdsl(path: str, parse_runs: int, print_runs: int) -> dict[str, Any]:
    from xdsl.parser import Parser
    from xdsl.printer import Printer
    ctx = _xdsl_context()
    Parser(ctx, _WARMUP, "warmup.mlir").parse_module()
    text = Path(path).read_text(encoding="utf-8")
    module = None
    cpu, wall = [], []
    for _ in range(parse_runs):
        module = None
        module, c, w = _timed(lambda: Parser(ctx, text, path).parse_module())
        cpu.append(c)
        wall.append(w)
    num_ops = sum(1 for _ in module.walk())
    out: dict[str, Any] = {"ops": num_ops, "parse": _series(cpu, wall)}

    def print_module() -> str:
        stream = io.StringIO()
        Printer(stream=stream).print_op(module)
        return stream.getvalue()
    cpu, wall = [], []
    for _ in range(print_runs):
        _, c, w = _timed(print_module)
        cpu.append(c)
        wall.append(w)
    out["print"] = _series(cpu, wall)
    out["peak_rss"] = _peak_rss()
    return out


WORKERS: dict[str, Callable[..., dict[str, Any]]] = {
    "generate": worker_generate,
    "npu-ops": worker_npu_ops, "npu-parse": worker_npu_parse, "npu-pure": worker_npu_pure,
    "npu-blob": worker_npu_blob,
    "generate-imported": worker_generate_imported, "imported": worker_imported,
    "xdsl": worker_xdsl,
}


def _source_env(source: Path | None) -> dict[str, str]:
    """The environment that makes a child Python import ``npu_opt`` from ``source`` (a directory
    holding the tree as ``npu_opt``; None: the installed package)."""
    if source is None:
        return dict(os.environ)
    path = os.pathsep.join(filter(None, [str(source), os.environ.get("PYTHONPATH")]))
    return dict(os.environ, PYTHONPATH=path, **{SOURCE_ENV: str(source)})


def _bytecode_env(base: dict[str, str], cache: Path | None) -> dict[str, str]:
    """``base`` with compiled bytecode kept in ``cache`` (None: no bytecode for npu-opt's own
    sources, as with PYTHONDONTWRITEBYTECODE and no __pycache__)."""
    env = dict(base)
    env.pop("PYTHONPYCACHEPREFIX", None)  # (the interpreter's and site-packages' own bytecode stays)
    if cache is None:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    else:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(cache)
    return env


def run_worker(kind: str, *args: Any, source: Path | None = None) -> dict[str, Any]:
    """Run one in-process workload in a fresh interpreter and return what it measured."""
    argv = [sys.executable, str(Path(__file__).resolve()), "--worker", kind, *map(str, args)]
    done = subprocess.run(argv, capture_output=True, text=True, env=_source_env(source), check=False)
    if done.returncode != 0:
        raise RuntimeError(f"worker {kind} failed ({done.returncode}):\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


# ---------------------------------------------------------------------------------------------
# End-to-end runs
# ---------------------------------------------------------------------------------------------

def run_command(argv: list[str], runs: int, expect: str | None = None,
                env: dict[str, str] | None = None) -> dict[str, Any]:
    """Run ``argv`` ``runs`` times with stdout to /dev/null (or captured when ``expect`` is given).

    Wall time is measured around the child; its CPU time and peak RSS come from os.wait4.
    """
    walls, cpus, rsss = [], [], []
    for _ in range(runs):
        with tempfile.TemporaryFile() as err, tempfile.TemporaryFile() as captured:
            began = time.perf_counter()
            proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stderr=err, env=env,
                                    stdout=captured if expect is not None else subprocess.DEVNULL)
            _, status, usage = os.wait4(proc.pid, 0)
            walls.append(time.perf_counter() - began)
            proc.returncode = os.waitstatus_to_exitcode(status)
            if proc.returncode != 0:
                err.seek(0)
                raise RuntimeError(f"{' '.join(argv)} exited with {proc.returncode}:\n"
                                   f"{err.read().decode(errors='replace')[-2000:]}")
            if expect is not None:
                captured.seek(0)
                output = captured.read().decode(errors="replace")
                if expect not in output:
                    raise RuntimeError(f"{' '.join(argv)} printed {output!r}, expected {expect!r}")
        cpus.append(usage.ru_utime + usage.ru_stime)
        rsss.append(usage.ru_maxrss * (1 if sys.platform == "darwin" else 1024))
    return {"wall": walls, "cpu": cpus, "wall_median": statistics.median(walls),
            "cpu_median": statistics.median(cpus), "peak_rss": max(rsss)}


# ---------------------------------------------------------------------------------------------
# The run
# ---------------------------------------------------------------------------------------------

def _log(message: str, started: float) -> None:
    sys.stderr.write(f"[{time.perf_counter() - started:6.1f}s] {message}\n")
    sys.stderr.flush()


def _machine(rev: str | None) -> dict[str, Any]:
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        commit = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", f"{rev or 'HEAD'}^{{commit}}"],
                                capture_output=True, text=True, check=True).stdout.strip()
        if rev is not None:
            commit += " (extracted with git archive)"
        elif subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "--untracked-files=no"],
                            capture_output=True, text=True, check=True).stdout.strip():
            commit += " plus the uncommitted changes in the working tree"
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    versions = {}
    for package in ("lark", "xdsl", "networkx", "numpy"):
        try:
            from importlib.metadata import version
            versions[package] = version(package)
        except Exception:  # noqa: BLE001 - a missing package is just not reported
            versions[package] = "not installed"
    return {"python": f"{platform.python_implementation()} {platform.python_version()}",
            "platform": platform.platform(), "cpu_model": model, "cpus": os.cpu_count(),
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "commit": commit, "versions": versions, "load_start": os.getloadavg()}


def measure(quick: bool, keep: Path | None, started: float, num_ops: int = NUM_OPS,
            quick_ops: int = XDSL_QUICK_OPS, blob_bytes: int = BLOB_BYTES,
            distinct_ops: int = DISTINCT_OPS, rev: str | None = None,
            chain_layers: int = CHAIN_LAYERS) -> dict[str, Any]:
    full_xdsl = not quick
    xdsl_ops = num_ops if full_xdsl else quick_ops
    r: dict[str, Any] = {"quick": quick, "machine": _machine(rev), "num_ops": num_ops,
                         "xdsl_ops": xdsl_ops, "blob_bytes": blob_bytes, "rev": rev}
    xdsl_opt = bi.console_script("xdsl-opt")

    work = Path(tempfile.mkdtemp(prefix="npu-opt-bench-")) if keep is None else keep
    work.mkdir(parents=True, exist_ok=True)
    try:
        source: Path | None = None
        base_env = dict(os.environ)
        if rev is None:
            npu_opt = [bi.console_script("npu-opt")]
            r["npu_opt_path"] = npu_opt[0]
            r["npu_opt_on_path"] = shutil.which("npu-opt")
        else:
            source = work / "src"
            tree = source / "npu_opt"
            tree.mkdir(parents=True, exist_ok=True)
            archive = subprocess.run(["git", "-C", str(REPO), "archive", "--format=tar", rev],
                                     capture_output=True, check=True).stdout
            subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
            (source / "npu-opt").write_text(LAUNCHER, encoding="utf-8")
            npu_opt = [sys.executable, str(source / "npu-opt")]
            base_env = _source_env(source)
            r["npu_opt_path"] = f"python <{rev}>/npu-opt (the console script's three lines)"
            r["npu_opt_on_path"] = None
        big, pure, blob = work / "big.mlir", work / "pure.mlir", work / "blob.mlir"
        small, empty, distinct = work / "small.mlir", work / "empty.mlir", work / "distinct.mlir"
        r.update(run_worker("generate", work, num_ops, quick_ops, distinct_ops, blob_bytes))
        _log(f"inputs written to {work}", started)

        runs, parse_runs = 5, 3
        r["npu_ops"] = run_worker("npu-ops", big, runs, parse_runs, source=source)
        _log("npu-opt in-process, ops module", started)
        r["npu_distinct"] = run_worker("npu-parse", distinct, parse_runs, source=source)
        _log("npu-opt in-process, distinct-attributes module", started)
        r["npu_pure"] = run_worker("npu-pure", pure, 3, source=source)
        _log("npu-opt in-process, pure module (cse,dce)", started)
        r["npu_blob"] = run_worker("npu-blob", blob, 5 if full_xdsl else 3, source=source)
        _log("npu-opt in-process, blob module", started)

        r.update(run_worker("generate-imported", work, chain_layers, CORPUS, source=source))
        imported: dict[str, list[dict[str, Any]]] = {}
        for name in r["imported_sizes"]:
            imported[name] = [run_worker("imported", work / name, source=source)
                              for _ in range(3 if name == "chain.mlir" else 5)]
        r["imported"] = imported
        _log(f"npu-opt in-process, imported IR ({len(imported) - 1} corpus models)", started)

        pycache = work / "pycache"
        env = _bytecode_env(base_env, pycache)
        run_command([*npu_opt, str(empty)], 1, env=env)  # writes npu-opt's bytecode
        run_command([xdsl_opt, str(empty)], 1, env=env)
        e2e: dict[str, Any] = {}
        e2e["version"] = run_command([*npu_opt, "--version"], 10, expect="npu-opt", env=env)
        if r["npu_opt_on_path"] and Path(r["npu_opt_on_path"]).resolve() != Path(npu_opt[0]).resolve():
            e2e["version_path"] = run_command([r["npu_opt_on_path"], "--version"], 10, expect="npu-opt")
        e2e["empty"] = run_command([*npu_opt, str(empty)], 10, env=env)
        e2e["empty_no_bytecode"] = run_command([*npu_opt, str(empty)], 10, env=_bytecode_env(base_env, None))
        e2e["big"] = run_command([*npu_opt, str(big), "--allow-unregistered-dialect"], 3, env=env)
        e2e["blob"] = run_command([*npu_opt, str(blob), "--allow-unregistered-dialect"], 3, env=env)
        r["e2e"] = e2e
        _log("npu-opt end to end", started)

        xdsl: dict[str, Any] = {}
        xdsl["version"] = run_command([xdsl_opt, "--version"], 5, expect="xdsl", env=env)
        xdsl["empty"] = run_command([xdsl_opt, str(empty)], 10, env=env)
        xdsl_input = big if full_xdsl else small
        xdsl["big"] = run_command([xdsl_opt, str(xdsl_input), "--allow-unregistered-dialect"],
                                  1 if full_xdsl else 2, env=env)
        _log(f"xdsl-opt end to end, {xdsl_ops}-op module", started)
        xdsl["blob"] = run_command([xdsl_opt, str(blob), "--allow-unregistered-dialect"], 1, env=env)
        _log("xdsl-opt end to end, blob module", started)
        try:
            xdsl["inproc"] = run_worker("xdsl", xdsl_input, 1 if full_xdsl else 3, 2 if full_xdsl else 5)
        except RuntimeError as err:
            xdsl["inproc_error"] = str(err)[-500:]
        _log("xDSL in-process", started)
        r["xdsl"] = xdsl
    finally:
        if keep is None:
            shutil.rmtree(work, ignore_errors=True)
    r["machine"]["load_end"] = os.getloadavg()
    return r
def measure_imported(rev: str | None, chain_layers: int, started: float) -> str:
    """The imported-IR workloads alone (the chain, three fresh processes; each corpus model,
    five), as a Markdown table of median CPU seconds and ops/s; RESULTS.md is not touched."""
    with tempfile.TemporaryDirectory(prefix="npu-opt-bench-") as directory:
        work, source = Path(directory), None
        if rev is not None:
            source = work / "src"
            (source / "npu_opt").mkdir(parents=True)
            archive = subprocess.run(["git", "-C", str(REPO), "archive", "--format=tar", rev],
                                     capture_output=True, check=True).stdout
            subprocess.run(["tar", "-x", "-C", str(source / "npu_opt")], input=archive, check=True)
        sizes = run_worker("generate-imported", work, chain_layers, CORPUS, source=source)["imported_sizes"]
        lines = [f"Imported IR at {_machine(rev)['commit']}, load average {os.getloadavg()[0]:.1f}:", "",
                 "| input | ops | parse CPU (runs) | parse ops/s | verify CPU (runs) | verify ops/s |",
                 "|---|---|---|---|---|---|"]
        for name in sizes:
            runs = [run_worker("imported", work / name, source=source) for _ in range(3 if name == "chain.mlir" else 5)]
            parse = statistics.median(r["parse"] for r in runs)
            verify = statistics.median(r["verify"] for r in runs)
            ops = runs[0]["ops"]
            parses = ", ".join(f"{r['parse']:.3f}" for r in runs)
            verifies = ", ".join(f"{r['verify']:.3f}" for r in runs)
            lines.append(f"| {name} | {ops:,} | {parse:.3f} s ({parses}) | {ops / parse:,.0f} | "
                         f"{verify:.3f} s ({verifies}) | {ops / max(verify, 1e-9):,.0f} |")
            _log(f"imported {name}", started)
        lines.append(f"\nload average at the end {os.getloadavg()[0]:.1f}")
        return "\n".join(lines) + "\n"


def _dev_null_ok() -> bool:
    try:
        return stat.S_ISCHR(os.stat(os.devnull).st_mode)
    except OSError:
        return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="measure xDSL on a 5,000-op module and scale (about 2 minutes)")
    parser.add_argument("--results", type=Path, default=DEFAULT_RESULTS,
                        help=f"Markdown file to update (default: {DEFAULT_RESULTS.relative_to(REPO)})")
    parser.add_argument("--keep-inputs", type=Path, default=None, metavar="DIR",
                        help="write the generated inputs to DIR and keep them")
    parser.add_argument("--json", type=Path, default=None, metavar="FILE", help="also dump every figure as JSON")
    parser.add_argument("--at", default=None, metavar="REV",
                        help="benchmark a committed revision (extracted with git archive into the temporary "
                             "directory) instead of the working tree, e.g. --at HEAD while the tree is mid-edit")
    parser.add_argument("--imported-only", action="store_true",
                        help="measure only the imported-IR workloads (chain and corpus models) and print "
                             "them; RESULTS.md is not rewritten")
    parser.add_argument("--worker", nargs="+", help=argparse.SUPPRESS)
    # For trying the script out on small inputs; the figures are then not comparable to the targets.
    parser.add_argument("--num-ops", type=int, default=NUM_OPS, help=argparse.SUPPRESS)
    parser.add_argument("--quick-ops", type=int, default=XDSL_QUICK_OPS, help=argparse.SUPPRESS)
    parser.add_argument("--blob-bytes", type=int, default=BLOB_BYTES, help=argparse.SUPPRESS)
    parser.add_argument("--distinct-ops", type=int, default=DISTINCT_OPS, help=argparse.SUPPRESS)
    parser.add_argument("--chain-layers", type=int, default=CHAIN_LAYERS, help=argparse.SUPPRESS)
    # Re-render the report from a --json dump (to change the report without measuring again).
    parser.add_argument("--from-json", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.worker:
        kind, *rest = args.worker
        params = [rest[0], *(int(arg) if arg.lstrip("-").isdigit() else arg for arg in rest[1:])]
        print(json.dumps(WORKERS[kind](*params)))
        return 0

    if args.from_json is not None:
        results = json.loads(args.from_json.read_text(encoding="utf-8"))
        section = render(results, results["elapsed"])
        write_results(args.results, section)
        sys.stdout.write(section)
        return 0
    if not _dev_null_ok():
        sys.stderr.write(f"{os.devnull} is not a character device; fix it before benchmarking\n")
        return 1
    sizes = {"num-ops": (args.num_ops, NUM_OPS), "quick-ops": (args.quick_ops, XDSL_QUICK_OPS),
             "blob-bytes": (args.blob_bytes, BLOB_BYTES), "distinct-ops": (args.distinct_ops, DISTINCT_OPS),
             "chain-layers": (args.chain_layers, CHAIN_LAYERS)}
    if not args.imported_only and bi.partial_run_refused(
            "ir_throughput.py", args.results, DEFAULT_RESULTS, {name: str(v[0]) for name, v in sizes.items()},
            {name: str(v[1]) for name, v in sizes.items()}, "--results"):
        return 1  # figures of other sizes are not comparable to the targets: not into RESULTS.md
    if not args.imported_only and not bi.inputs_present("ir_throughput.py", args.results,
                                                        [CORPUS / f"{m}.tflite" for m in ct.MODELS],
                                                        hint="the corpus is ../shared/corpus beside the repository; "
                                                             f"give another copy with {bi.CORPUS_ENV}=DIR"):
        return 1
    started = time.perf_counter()
    if args.imported_only:
        sys.stdout.write(measure_imported(args.at, args.chain_layers, started))
        return 0
    results = measure(args.quick, args.keep_inputs, started, args.num_ops, args.quick_ops,
                      args.blob_bytes, args.distinct_ops, args.at, args.chain_layers)
    elapsed = results["elapsed"] = time.perf_counter() - started
    section = render(results, elapsed)
    write_results(args.results, section)
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
    sys.stdout.write(section)
    _log(f"done; wrote {args.results}", started)
    if not _dev_null_ok():
        sys.stderr.write(f"warning: {os.devnull} is no longer a character device\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
