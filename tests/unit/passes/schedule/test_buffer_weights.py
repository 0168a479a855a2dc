"""npu-insert-dma / npu-buffer-weights / npu-estimate: the weight-streaming decision lives in the IR.

The estimate decides nothing, so a module printed after npu-buffer-weights and read back must be
costed exactly as in one pipeline run; and the estimate of a module with no weight DMA must read
every op's weights in place.
"""
from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest

import npu_opt.dialects  # noqa: F401
import npu_opt.passes  # noqa: F401
from npu_opt.dialects.npu.ops_memory import DmaOp
from npu_opt.dialects.npu.perf.ir_attrs import COST_ATTR
from npu_opt.dialects.npu.schedule_attrs import CASCADE_ATTR, STREAM_ATTR, USAGE_ATTR, StreamAttr
from npu_opt.dialects.tfl.tflite import import_tflite
from npu_opt.ir.core import Operation
from npu_opt.ir.diagnostics import DiagnosticEngine
from npu_opt.ir.parser import ParseOptions, parse_module
from npu_opt.ir.pass_manager import PassManager
from npu_opt.ir.pass_registry import parse_pipeline
from npu_opt.ir.printer import print_op
from npu_opt.tools.api import set_target
from npu_opt.passes.schedule.pipeline import REORDER_DMAS
from targeted_import import imported_with_target, parsed_with_target, run_pipeline

DATA = Path(__file__).resolve().parents[3] / "data"
FRONT = "npu-legalize,npu-order,npu-format-nhcwb16,npu-place-tensors,npu-select-block-config"
DECIDED = f"npu-insert-dma,{REORDER_DMAS},npu-buffer-weights,{REORDER_DMAS}"
"""Weight DMAs inserted and decided, each numbered by npu-order as the schedule pipeline does."""
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
    whole = _run(_imported("conv", config), f"{FRONT},{DECIDED},npu-estimate")
    decided = _run(_imported("conv", config), f"{FRONT},{DECIDED}")
    reread = parse_module(print_op(decided), "decided.mlir", ParseOptions(False))
    _run(reread, "npu-estimate")
    assert _costs(reread) == _costs(whole)
    streams = [op.attr(STREAM_ATTR) for op in reread.walk() if isinstance(op, DmaOp)]
    assert streams and all(isinstance(s, StreamAttr) for s in streams)


def test_estimate_without_dma_reads_weights_in_place() -> None:
    in_place = _run(_imported("conv", "shared"), f"{FRONT},npu-estimate")
    ignored = _run(_imported("conv", "shared"),
                   f"{FRONT},{DECIDED},npu-estimate{{weight-buffering=false}}")
    streamed = _run(_imported("conv", "shared"), f"{FRONT},{DECIDED},npu-estimate")
    assert _costs(in_place) == _costs(ignored)
    assert _costs(in_place) != _costs(streamed)


def test_size_limit_falls_back_to_the_arena_cache_size_without_a_schedule() -> None:
    # Without npu.schedule, optimise=Size takes the arena cache size, as Performance does.
    size = _run(_imported("conv", "shared"),
                f"{FRONT},npu-insert-dma,{REORDER_DMAS},npu-buffer-weights{{optimise=Size}},{REORDER_DMAS}")
    perf = _run(_imported("conv", "shared"), f"{FRONT},{DECIDED}")
    assert print_op(size) == print_op(perf)


def test_a_one_byte_limit_erases_every_weight_dma() -> None:
    module = _run(_imported("conv", "shared"),
                  f"{FRONT},npu-insert-dma,{REORDER_DMAS},npu-buffer-weights{{buffer-limit=1}},{REORDER_DMAS}")
    assert not [op for op in module.walk() if isinstance(op, DmaOp)]
    in_place = _run(_imported("conv", "shared"), f"{FRONT},npu-estimate")
    assert _costs(_run(module, "npu-estimate")) == _costs(in_place)


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_deciding_again_changes_nothing_when_nothing_changed(config: str) -> None:
    # The schedule pipeline runs npu-insert-dma and npu-buffer-weights again after the cascades:
    # on a module nothing else touched, the second run re-inserts and re-decides the same copies.
    once = _run(_imported("conv", config), f"{FRONT},{DECIDED}")
    twice = _run(_imported("conv", config), f"{FRONT},{DECIDED},{DECIDED}")
    assert print_op(twice) == print_op(once)


CORPUS_MODEL = Path("/work/shared/corpus/models/mobilenet_v1_100_224.tflite")


@pytest.mark.skipif(not CORPUS_MODEL.exists(), reason="the shared corpus is not here")
def test_cascaded_mobilenet_fits_the_dedicated_384kb_cache() -> None:
    # Buffers decided after the cascades, beside their 372736 bytes of rolling buffers, leave the
    # whole schedule within the 393216-byte cache (Vela: 378896 bytes); decided before them,
    # sliced member streams and a prefetch took 622928.
    module = set_target(import_tflite(CORPUS_MODEL.read_bytes(), "mobilenet_v1"), "ethos-u65-256",
                        system_config="Ethos_U65_High_End", memory_mode="Dedicated_Sram_384KB")
    _run(module, "schedule")
    usage = str(module.attr("npu.usage"))
    sram = int(usage.split("Sram = [")[1].split(",")[0])
    assert sram <= 393216


def _two_conv_chain() -> str:
    """Two 3x3 convolutions on a 64x64 map (32 -> 64 -> 64 channels) with seeded random weights,
    as MLIR text: on a small dedicated SRAM they run as one cascade."""
    q = "!quant.uniform<i8:f32, 0.0625>"
    rng = np.random.default_rng(23)

    def t(c: int) -> str:
        return f"tensor<1x64x64x{c}x{q}>"

    lines = []
    for name, x, cin, cout in (("a", "%x", 32, 64), ("b", "%a", 64, 64)):
        w_type = f"tensor<{cout}x3x3x{cin}x!quant.uniform<i8<-127:127>:f32:0, {{{','.join(['0.015625'] * cout)}}}>>"
        b_type = f"tensor<{cout}x!quant.uniform<i32:f32:0, {{{','.join(['0.0009765625'] * cout)}}}>>"
        data = rng.integers(-127, 128, size=cout * 9 * cin, dtype=np.int8).tobytes().hex().upper()
        lines += [f'    %{name}_w = "tfl.pseudo_qconst"() <{{qtype = {w_type}, value = dense<"0x{data}"> : '
                  f'tensor<{cout}x3x3x{cin}xi8>}}> : () -> {w_type}',
                  f'    %{name}_b = "tfl.pseudo_qconst"() <{{qtype = {b_type}, value = dense<5> : tensor<{cout}xi32>}}> : '
                  f'() -> {b_type}',
                  f'    %{name} = "tfl.conv_2d"({x}, %{name}_w, %{name}_b) <{{dilation_h_factor = 1 : i32, '
                  'dilation_w_factor = 1 : i32, fused_activation_function = "NONE", padding = "SAME", stride_h = 1 : '
                  f'i32, stride_w = 1 : i32}}> : ({t(cin)}, {w_type}, {b_type}) -> {t(cout)}']
    return (f"module {{\n  func.func @main(%x: {t(32)}) -> {t(64)} {{\n" + "\n".join(lines)
            + f"\n    return %b : {t(64)}\n  }}\n}}\n")


def test_a_cascade_member_gets_what_the_whole_weights_before_it_leave() -> None:
    """Vela adds each cascade member's whole weights to the cascade's memory: the second conv's
    37,520-byte buffer does not fit beside the first's weights and the rolling buffer in 64,000
    bytes, so it reads its weights in place (U-Net's decoder on a 384 KB SRAM, in small). Counting
    each member's buffer alone, both were buffered and the allocation overflowed the SRAM."""
    module = parsed_with_target(_two_conv_chain(), "chain.mlir", "ethos-u65-256", "Ethos_U65_High_End",
                                "Dedicated_Sram", 64_000)
    printed = run_pipeline(module, "schedule{optimise=Performance}", remarks=True)
    assert "error" not in printed, printed
    convs = [op for op in module.walk() if op.name == "npu.conv2d"]
    assert len(convs) == 2 and all(op.attr(CASCADE_ATTR) is not None for op in convs)
    assert isinstance(convs[0].operands[1].op, DmaOp) and not isinstance(convs[1].operands[1].op, DmaOp)
    assert "weights of 'conv_2d_1' are read in place from Dram: its smallest weight buffer takes" in printed
    used = dict((area, used) for area, used, _ in module.attr(USAGE_ATTR).areas)["Sram"]
    assert used <= 64_000
