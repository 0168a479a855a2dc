"""TFLite import and export round trips over the repo's tests/data models and, when ../shared is
beside the repo, the benchmark corpus: import(export(import(m))) prints exactly as import(m),
through IR text as well, and (with ai-edge-litert installed) export(import(m)) computes
bit-identical outputs to m on random inputs."""
from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import npu_opt.dialects  # noqa: F401
from npu_opt.ir.diagnostics import DiagnosticEngine
from npu_opt.ir.parser import parse_module
from npu_opt.ir.printer import PrintOptions, print_op
from npu_opt.ir.verifier import verify
from npu_opt.dialects.tfl.tflite import export_tflite, import_tflite

ROOT = Path(__file__).resolve().parents[5]
DATA = ROOT / "tests" / "data"
CORPUS = ROOT.parent / "shared" / "corpus" / "models"
DATA_MODELS = sorted(DATA.glob("*.tflite"))
CORPUS_MODELS = sorted(CORPUS.glob("*.tflite")) if CORPUS.is_dir() else []
corpus = pytest.mark.skipif(not CORPUS_MODELS, reason="../shared/corpus is not beside the repo")
HAVE_LITERT = importlib.util.find_spec("ai_edge_litert") is not None


def _text(module, debuginfo: bool = True) -> str:
    return print_op(module, PrintOptions(debuginfo=debuginfo))


def _check_roundtrip(path: Path) -> None:
    data = path.read_bytes()
    module = import_tflite(data, path.name)
    engine = DiagnosticEngine()
    assert verify(module, engine), f"{path.name} does not verify after import"
    exported = export_tflite(module)
    # export is a fixed point: exporting the re-imported model gives the same bytes
    assert export_tflite(import_tflite(exported, "exported.tflite")) == exported
    for debuginfo in (True, False):
        text = _text(module, debuginfo)
        again = import_tflite(exported, "exported.tflite")
        assert _text(again, debuginfo) == text
        # through IR text: parse the printed IR, export it, import it again
        parsed = parse_module(text, f"{path.stem}.mlir")
        assert _text(import_tflite(export_tflite(parsed), "reparsed.tflite"), debuginfo) == text


def test_tests_data_holds_every_model_of_the_generator():
    names = {p.name for p in DATA_MODELS}
    spec = importlib.util.spec_from_file_location("make_models", DATA / "make_models.py")
    assert spec is not None and spec.loader is not None
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    assert names == set(generator.MODELS)
    for name in generator.MODELS:
        assert generator.build(name) == (DATA / name).read_bytes(), f"{name} is stale: rerun make_models.py"


def test_tests_data_covers_every_op_of_the_dialect():
    from npu_opt.dialects.tfl import TFL
    seen = set()
    for path in DATA_MODELS + sorted((DATA / "vela" / "compiled").glob("*.tflite")):  # tfl.ethos_u
        seen.update(op.name for op in import_tflite(path.read_bytes(), path.name).walk())
    assert set(TFL.ops) <= seen, f"no test model uses {sorted(set(TFL.ops) - seen)}"


@pytest.mark.parametrize("path", DATA_MODELS, ids=lambda p: p.name)
def test_tests_data_roundtrip(path: Path):
    _check_roundtrip(path)


@corpus
@pytest.mark.parametrize("path", CORPUS_MODELS, ids=lambda p: p.name)
def test_corpus_roundtrip(path: Path):
    _check_roundtrip(path)


@corpus
def test_corpus_constants_are_zero_copy_views_of_the_file():
    from npu_opt.ir.attributes import DenseResourceAttr
    path = CORPUS / "mobilenet_v1_100_224.tflite"
    data = path.read_bytes()
    module = import_tflite(data, path.name)
    blobs = [op.attr("value") for op in module.walk() if isinstance(op.attr("value"), DenseResourceAttr)]
    assert blobs
    for attr in blobs:
        assert attr.blob.data.obj is data  # a view of the file's bytes, not a copy
        assert len(attr.blob.data) > 64


def _run(model: bytes, inputs: list[np.ndarray]) -> list[np.ndarray]:
    from ai_edge_litert.interpreter import Interpreter
    interpreter = Interpreter(model_content=model)
    interpreter.allocate_tensors()
    for detail, value in zip(interpreter.get_input_details(), inputs):
        interpreter.set_tensor(detail["index"], value)
    interpreter.invoke()
    return [interpreter.get_tensor(d["index"]).copy() for d in interpreter.get_output_details()]


def _random_inputs(model: bytes, seed: int) -> list[np.ndarray]:
    from ai_edge_litert.interpreter import Interpreter
    interpreter = Interpreter(model_content=model)
    rng = np.random.default_rng(seed)
    inputs = []
    for detail in interpreter.get_input_details():
        dtype, shape = detail["dtype"], detail["shape"]
        if np.issubdtype(dtype, np.floating):
            inputs.append(rng.standard_normal(shape).astype(dtype))
        elif dtype == np.int32:  # indices: keep them in range
            inputs.append(rng.integers(0, 4, size=shape).astype(dtype))
        else:
            info = np.iinfo(dtype)
            inputs.append(rng.integers(info.min, info.max, size=shape, endpoint=True).astype(dtype))
    return inputs


def _check_bit_exact(path: Path) -> None:
    original = path.read_bytes()
    exported = export_tflite(import_tflite(original, path.name))
    for seed in range(3):
        inputs = _random_inputs(original, seed)
        for want, got in zip(_run(original, inputs), _run(exported, inputs)):
            assert want.dtype == got.dtype and want.shape == got.shape
            assert np.array_equal(want, got, equal_nan=True)


def _runnable() -> list[Path]:
    spec = importlib.util.spec_from_file_location("make_models", DATA / "make_models.py")
    assert spec is not None and spec.loader is not None
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    return [DATA / name for name in generator.RUNNABLE]


@pytest.mark.skipif(not HAVE_LITERT, reason="ai-edge-litert is not installed (pip install -e '.[tflite-runtime]')")
@pytest.mark.parametrize("path", _runnable(), ids=lambda p: p.name)
def test_tests_data_exports_compute_bit_identical_outputs(path: Path):
    _check_bit_exact(path)


@corpus
@pytest.mark.skipif(not HAVE_LITERT, reason="ai-edge-litert is not installed (pip install -e '.[tflite-runtime]')")
@pytest.mark.parametrize("path", CORPUS_MODELS, ids=lambda p: p.name)
def test_corpus_exports_compute_bit_identical_outputs(path: Path):
    _check_bit_exact(path)


def test_npu_opt_reads_tflite_directly_and_translate_exports_from_text(tmp_path: Path):
    model = DATA / "conv.tflite"
    opt = subprocess.run([sys.executable, "-m", "npu_opt.tools.npu_opt", str(model), "-p", "cse", "--print-debuginfo"],
                         capture_output=True, text=True, cwd=ROOT)
    assert opt.returncode == 0, opt.stderr
    assert '"tfl.conv_2d"' in opt.stdout and 'loc("conv")' in opt.stdout
    text = tmp_path / "conv.mlir"
    text.write_text(opt.stdout)
    out = tmp_path / "conv.tflite"
    done = subprocess.run([sys.executable, "-m", "npu_opt.tools.npu_translate", "--export-tflite", str(text), "-o", str(out)],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert _text(import_tflite(out.read_bytes(), "x")) == _text(import_tflite(model.read_bytes(), "y"))
