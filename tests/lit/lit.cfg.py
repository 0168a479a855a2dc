# lit configuration of npu-opt's FileCheck tests.  Run with:  lit -sv tests/lit
import importlib.util
import os
import shutil
import sys
import sysconfig

import lit.formats

config.name = "npu-opt"
# The internal shell: the same behaviour on every platform, and pipes/redirections without bash.
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
# Inputs/ holds data files for RUN lines (binary garbage, truncated IR, ...), not tests.
config.excludes = ["Inputs", "Output", "lit.cfg.py", "run_filecheck.py"]

config.test_source_root = os.path.dirname(os.path.abspath(__file__))
config.test_exec_root = os.path.join(config.test_source_root, "Output")

# Find npu-opt, npu-translate, filecheck and xdsl-opt where the invoking environment finds them,
# preferring the scripts of the Python running lit (skips wrapper shims such as pyenv's, which
# cost ~0.1 s of CPU per command). In a virtual environment that sees the base interpreter's
# packages, tools installed there (filecheck, xdsl-opt) have their scripts in the base's bin dir.
path = os.environ.get("PATH", os.defpath)
scripts = sysconfig.get_path("scripts")
base_scripts = sysconfig.get_path("scripts", vars={"base": sys.base_prefix, "platbase": sys.base_exec_prefix})
if base_scripts and base_scripts != scripts and os.path.exists(os.path.join(base_scripts, "filecheck")):
    path = base_scripts + os.pathsep + path
if scripts and os.path.exists(os.path.join(scripts, "npu-opt")):
    path = scripts + os.pathsep + path
config.environment["PATH"] = path
for name in ("HOME", "TMPDIR", "TEMP", "TMP", "PYTHONPATH", "VIRTUAL_ENV", "PYENV_VERSION", "PYENV_ROOT"):
    if name in os.environ:
        config.environment[name] = os.environ[name]
config.environment["PYTHONIOENCODING"] = "utf-8"
config.environment["NO_COLOR"] = "1"
# Start-up is dominated by imports: keep compiled bytecode (out of the source tree) even when the
# caller sets PYTHONDONTWRITEBYTECODE (lit does not pass that variable on); the unit tests share it.
config.environment["PYTHONPYCACHEPREFIX"] = os.path.join(os.path.dirname(config.test_source_root), ".pycache")

# filecheck is the Python clone (1.0.6): it ignores FILECHECK_OPTS and has no [[@LINE+N]] or
# numeric [[#X+1]] expressions and no --implicit-check-not; tests stick to captures, {{regex}},
# CHECK-LABEL/-NEXT/-SAME/-NOT/-DAG/-COUNT/-EMPTY and --check-prefix/--input-file/--allow-empty.
python = sys.executable
# filecheck through run_filecheck.py, with `python -S` (no site), where this Python finds the
# package: ~65 ms less CPU per check than the console script (the file says why).
filecheck = "filecheck"
filecheck_spec = importlib.util.find_spec("filecheck")
if filecheck_spec is not None and filecheck_spec.submodule_search_locations:
    package_dir = os.path.dirname(list(filecheck_spec.submodule_search_locations)[0])
    filecheck = " ".join(path.replace("\\", "/") for path in (
        python, "-S", os.path.join(config.test_source_root, "run_filecheck.py"), package_dir))
# Substitutions are applied in order, before lit's own %s/%t, so they may contain %s and %t.
config.substitutions.append(("%npu_opt", "npu-opt"))
config.substitutions.append(("%npu_translate", "npu-translate"))
config.substitutions.append(("%filecheck", filecheck))
config.substitutions.append(("%python", python.replace("\\", "/")))
# Print generic, re-parse, print again and check: the checks see the IR after a round trip.
config.substitutions.append((
    "%roundtrip",
    "npu-opt %s --split-input-file --allow-unregistered-dialect --print-op-generic"
    " | npu-opt --split-input-file --allow-unregistered-dialect | " + filecheck + " %s"))
# print(parse(x)) must equal print(parse(print(parse(x)))): printing is a fixed point.
config.substitutions.append((
    "%fixedpoint",
    "npu-opt %s --split-input-file --allow-unregistered-dialect -o %t.fp1"
    " && npu-opt %t.fp1 --split-input-file --allow-unregistered-dialect -o %t.fp2"
    " && diff %t.fp1 %t.fp2"))
# Does a path exist?  (The internal shell has no 'test -e'/'ls'.)  Exit 0 if it exists, 1 if not.
config.substitutions.append((
    "%exists",
    python.replace("\\", "/") + " -S -c \"import os, sys; sys.exit(0 if os.path.exists(sys.argv[1]) else 1)\""))

# Optional Python packages, as features for REQUIRES: lines (the tools run with this Python).
for feature, module in (("matplotlib", "matplotlib"), ("litert", "ai_edge_litert"), ("vela", "ethosu.vela")):
    try:
        if importlib.util.find_spec(module) is not None:
            config.available_features.add(feature)
    except ImportError:  # a parent package is missing (ethosu for ethosu.vela)
        pass
if shutil.which("xdsl-opt", path=config.environment["PATH"]):
    config.available_features.add("xdsl")
if shutil.which("npu-translate", path=config.environment["PATH"]):
    config.available_features.add("npu-translate")
