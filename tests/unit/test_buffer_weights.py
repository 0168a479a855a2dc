"""npu-insert-dma / npu-buffer-weights / npu-estimate: the weight-streaming decision lives in the IR.

The estimate decides nothing, so a module printed after npu-buffer-weights and read back must be
costed exactly as in one pipeline run; and the estimate of a module with no weight DMA must read
every op's weights in place.
"""
from __future__ import annotations

import argparse
import io
from pathlib import Path

import pytest

import npu_opt.dialects  # noqa: F401
import npu_opt.passes  # noqa: F401
from npu_opt.dialects.npu.ops_memory import DmaOp
from npu_opt.dialects.npu.perf.ir_attrs import COST_ATTR
from npu_opt.dialects.npu.schedule_attrs import STREAM_ATTR, StreamAttr
from npu_opt.dialects.tfl.tflite import import_tflite
from npu_opt.ir.core import Operation
from npu_opt.ir.diagnostics import DiagnosticEngine
from npu_opt.ir.parser import ParseOptions, parse_module
from npu_opt.ir.pass_manager import PassManager
from npu_opt.ir.pass_registry import parse_pipeline
from npu_opt.ir.printer import print_op
from npu_opt.tools.target_options import apply_target, prepare_target
from targeted_import import imported_with_target

DATA = Path(__file__).resolve().parents[1] / "data"
FRONT = "npu-legalize,npu-order,npu-format-nhcwb16,npu-place-tensors,npu-select-block-config"
CONFIGS = {
    "shared": ("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram"),
    "dedicated": ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram"),
}


def _imported(model: str, config: str) -> Operation:
    return imported_with_target(model, *CONFIGS[config])


def _run(module: Operation, pipeline: str) -> Operation:
    engine = DiagnosticEngine(stream=io.StringIO())
    engine.show_remarks = False
    PassManager(parse_pipeline(pipeline), engine, verify_each=True).run(module)
    return module


def _costs(module: Operation) -> list[str]:
    return [str(op.attr(COST_ATTR)) for op in module.walk() if op.attr(COST_ATTR) is not None]


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_printed_decisions_are_costed_as_in_one_run(config: str) -> None:
    whole = _run(_imported("conv", config), f"{FRONT},npu-insert-dma,npu-buffer-weights,npu-estimate")
    decided = _run(_imported("conv", config), f"{FRONT},npu-insert-dma,npu-buffer-weights")
    reread = parse_module(print_op(decided), "decided.mlir", ParseOptions(False))
    _run(reread, "npu-estimate")
    assert _costs(reread) == _costs(whole)
    streams = [op.attr(STREAM_ATTR) for op in reread.walk() if isinstance(op, DmaOp)]
    assert streams and all(isinstance(s, StreamAttr) for s in streams)


def test_estimate_without_dma_reads_weights_in_place() -> None:
    in_place = _run(_imported("conv", "shared"), f"{FRONT},npu-estimate")
    ignored = _run(_imported("conv", "shared"),
                   f"{FRONT},npu-insert-dma,npu-buffer-weights,npu-estimate{{weight-buffering=false}}")
    streamed = _run(_imported("conv", "shared"), f"{FRONT},npu-insert-dma,npu-buffer-weights,npu-estimate")
    assert _costs(in_place) == _costs(ignored)
    assert _costs(in_place) != _costs(streamed)


def test_size_limit_falls_back_to_the_arena_cache_size_without_a_schedule() -> None:
    # Without npu.schedule, optimise=Size takes the arena cache size, as Performance does.
    size = _run(_imported("conv", "shared"), f"{FRONT},npu-insert-dma,npu-buffer-weights{{optimise=Size}}")
    perf = _run(_imported("conv", "shared"), f"{FRONT},npu-insert-dma,npu-buffer-weights")
    assert print_op(size) == print_op(perf)


def test_a_one_byte_limit_erases_every_weight_dma() -> None:
    module = _run(_imported("conv", "shared"), f"{FRONT},npu-insert-dma,npu-buffer-weights{{buffer-limit=1}}")
    assert not [op for op in module.walk() if isinstance(op, DmaOp)]
    in_place = _run(_imported("conv", "shared"), f"{FRONT},npu-estimate")
    assert _costs(_run(module, "npu-estimate")) == _costs(in_place)


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_deciding_again_changes_nothing_when_nothing_changed(config: str) -> None:
    # The schedule pipeline runs npu-insert-dma and npu-buffer-weights again after the cascades:
    # on a module nothing else touched, the second run re-inserts and re-decides the same copies.
    once = _run(_imported("conv", config), f"{FRONT},npu-insert-dma,npu-buffer-weights")
    twice = _run(_imported("conv", config), f"{FRONT},npu-insert-dma,npu-buffer-weights,npu-insert-dma,"
                                            "npu-buffer-weights")
    assert print_op(twice) == print_op(once)


CORPUS_MODEL = Path("/work/shared/corpus/models/mobilenet_v1_100_224.tflite")


@pytest.mark.skipif(not CORPUS_MODEL.exists(), reason="the shared corpus is not here")
def test_cascaded_mobilenet_fits_the_dedicated_384kb_cache() -> None:
    # Buffers decided after the cascades, beside their 372736 bytes of rolling buffers, leave the
    # whole schedule within the 393216-byte cache (Vela: 378896 bytes); decided before them,
    # sliced member streams and a prefetch took 622928.
    request = prepare_target(argparse.Namespace(target="ethos-u65-256", system_config="Ethos_U65_High_End",
                                                memory_mode="Dedicated_Sram_384KB", config=[], arena_cache_size=None))
    assert request is not None
    module = import_tflite(CORPUS_MODEL.read_bytes(), "mobilenet_v1")
    apply_target(module, request)
    _run(module, "schedule")
    usage = str(module.attr("npu.usage"))
    sram = int(usage.split("Sram = [")[1].split(",")[0])
    assert sram <= 393216
