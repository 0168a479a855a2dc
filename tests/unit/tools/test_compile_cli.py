"""``npu-opt model.tflite --pass=compile{...} -o model_npu.tflite`` writes a deployable model;
``-o x.mlir`` the same as IR, which ``npu-translate --export-tflite`` writes as the same file and
``--export-vela-raw`` as Vela's raw .npz; the Python API does the same; a model that does not
compile is one located error, exit 1, and no file; npu-run runs the result against LiteRT."""
from __future__ import annotations

from pathlib import Path

import pytest

from npu_opt.tools import api
from npu_opt.tools.npu_opt import main as npu_opt
from npu_opt.tools.npu_run import main as npu_run
from npu_opt.tools.npu_translate import main as npu_translate

DATA = Path(__file__).resolve().parents[2] / "data"
CONV = str(DATA / "conv.tflite")
VELA = DATA / "vela" / "compiled"
U55 = ["--target=ethos-u55-128", "--system-config=Ethos_U55_High_End_Embedded", "--memory-mode=Shared_Sram"]
COMPILE = "--pass=compile{optimise=Performance vela-metadata}"


def test_compile_writes_vela_s_tflite(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "conv_npu.tflite"
    assert npu_opt([CONV, COMPILE, *U55, "-o", str(out)]) == 0, capsys.readouterr().err
    assert out.read_bytes() == (VELA / "conv.u55-128.legacy.tflite").read_bytes()


def test_the_ir_exports_to_the_same_tflite_and_to_vela_s_raw_output(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """The IR keeps the tensor names (its locations are printed for a compiled model) and the
    target (so the raw export needs no --target)."""
    ir, tflite, raw = tmp_path / "conv.mlir", tmp_path / "conv.tflite", tmp_path / "conv.npz"
    assert npu_opt([CONV, COMPILE, *U55, "-o", str(ir)]) == 0
    assert 'loc("logits")' in ir.read_text()
    assert npu_translate(["--export-tflite", str(ir), "-o", str(tflite)]) == 0
    assert tflite.read_bytes() == (VELA / "conv.u55-128.legacy.tflite").read_bytes()
    assert npu_translate(["--export-vela-raw", str(ir), "-o", str(raw)]) == 0
    assert "1 more are not written (as Vela does)" in capsys.readouterr().err
    assert raw.read_bytes() == (VELA / "conv.u55-128.legacy.sg0.npz").read_bytes()


def test_the_python_api_writes_the_same(tmp_path: Path) -> None:
    model = api.load(CONV).set_target("ethos-u55-128", system_config="Ethos_U55_High_End_Embedded",
                                      memory_mode="Shared_Sram")
    model.run("compile{optimise=Performance vela-metadata}")
    model.write(str(tmp_path / "conv.tflite"))
    assert (tmp_path / "conv.tflite").read_bytes() == (VELA / "conv.u55-128.legacy.tflite").read_bytes()
    warnings = model.write_vela_raw(str(tmp_path / "conv.npz"))
    assert [w.message for w in warnings] == ["the raw format holds the first ethos-u operator of a subgraph; "
                                             "1 more are not written (as Vela does)"]
    assert (tmp_path / "conv.npz").read_bytes() == (VELA / "conv.u55-128.legacy.sg0.npz").read_bytes()


def test_the_raw_output_needs_a_compiled_model(tmp_path: Path) -> None:
    model = api.load(CONV).set_target("ethos-u55-128")
    with pytest.raises(api.NpuOptError, match="the model has no ethos-u operator to write in the raw format"):
        model.write_vela_raw(str(tmp_path / "conv.npz"))
    assert not (tmp_path / "conv.npz").exists()


def test_a_model_that_does_not_compile_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "resize_bilinear_npu.tflite"
    code = npu_opt([str(DATA / "resize_bilinear.tflite"), "--pass=compile{optimise=Performance}", *U55, "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 1 and not out.exists()
    assert err.splitlines() == ['"rb_half_pixel": error: \'npu.depthwise_conv2d\': replicated padding '
                                "(a bilinear resize's phases: Vela's tile padding) is not lowered yet"]


def test_a_tflite_output_takes_one_module(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = npu_opt([str(DATA.parent / "lit" / "Inputs" / "npu-run-softmax-abort.mlir"), "--split-input-file",
                    "-o", str(tmp_path / "x.tflite")])
    assert code == 1
    assert "a .tflite file holds one model, and --split-input-file makes one per chunk" in capsys.readouterr().err


def test_npu_run_compares_the_compiled_model_with_litert(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("ai_edge_litert")
    out = tmp_path / "branches_npu.tflite"
    flags = ["--target=ethos-u65-256", "--system-config=Ethos_U65_High_End", "--memory-mode=Dedicated_Sram"]
    assert npu_opt([str(DATA / "branches.tflite"), "--pass=compile{optimise=Performance}", *flags, "-o", str(out)]) == 0
    assert npu_run([str(out), "--tflite", str(DATA / "branches.tflite"), "--compare-tflite"]) == 0
    assert "max abs diff 0, 0 of 1728 elements differ" in capsys.readouterr().out
