"""npu-allocate in half steps: a weight buffer prefetched under an op may take the bytes of that
op's double buffer its last depth slice does not read (Vela's live ranges), which is what lets
Performance schedule YOLO-tiny, ResNet-50 and U-Net in a 384 KB dedicated SRAM where Vela does.

The model is built here: a 256-channel 1x1 convolution whose weights stream in three slices
through a double buffer, then a small one whose weights are prefetched under it, in 72,000 bytes
of dedicated SRAM. Counted on whole time indices, both buffers of the first and the prefetched
buffer of the second are live at once (72,400 bytes: the schedule failed)."""
from __future__ import annotations

import re

import numpy as np

import npu_opt.dialects  # noqa: F401
import npu_opt.passes  # noqa: F401
from npu_opt.dialects.npu.ops_memory import DmaOp
from npu_opt.dialects.npu.schedule_attrs import (
    ALLOC_ATTR, SECOND_BUFFER_ATTR, SHARES_TAIL_ATTR, STREAM_ATTR, TIME_ATTR, USAGE_ATTR,
)
from npu_opt.ir.printer import print_op
from npu_opt.dialects.npu.target_attr import target_of
from npu_opt.dialects.npu.execution_order import graph_blocks
from npu_opt.passes.schedule.pipeline import REORDER_DMAS
from npu_opt.passes.schedule.live_ranges import (
    SimpleRange, half_steps, in_half_steps, live_ranges, memory_usage, tail_sharing,
)
from targeted_import import parsed_with_target, run_pipeline

LIMIT = 72_000
Q = "!quant.uniform<i8:f32, 0.0625>"


def _t(*shape: int) -> str:
    return "tensor<" + "x".join(map(str, shape)) + f"x{Q}>"


def _conv(name: str, x: str, cin: int, cout: int, rng: np.random.Generator) -> list[str]:
    """A 1x1 conv_2d on a 2x2 map with seeded int8 weights (random, so the codec cannot shrink them)."""
    w_type = f"tensor<{cout}x1x1x{cin}x!quant.uniform<i8<-127:127>:f32:0, {{{','.join(['0.015625'] * cout)}}}>>"
    b_type = f"tensor<{cout}x!quant.uniform<i32:f32:0, {{{','.join(['0.0009765625'] * cout)}}}>>"
    data = rng.integers(-127, 128, size=cout * cin, dtype=np.int8).tobytes().hex().upper()
    return [
        f'    %{name}_w = "tfl.pseudo_qconst"() <{{qtype = {w_type}, value = dense<"0x{data}"> : '
        f'tensor<{cout}x1x1x{cin}xi8>}}> : () -> {w_type}',
        f'    %{name}_b = "tfl.pseudo_qconst"() <{{qtype = {b_type}, value = dense<5> : tensor<{cout}xi32>}}> : () -> {b_type}',
        f'    %{name} = "tfl.conv_2d"({x}, %{name}_w, %{name}_b) <{{dilation_h_factor = 1 : i32, dilation_w_factor = 1 : '
        f'i32, fused_activation_function = "NONE", padding = "SAME", stride_h = 1 : i32, stride_w = 1 : i32}}> : '
        f'({_t(1, 2, 2, cin)}, {w_type}, {b_type}) -> {_t(1, 2, 2, cout)}',
    ]


def _model() -> str:
    rng = np.random.default_rng(23)
    body = _conv("a", "%x", 256, 256, rng) + _conv("b", "%a", 256, 32, rng)
    return (f"module {{\n  func.func @main(%x: {_t(1, 2, 2, 256)}) -> {_t(1, 2, 2, 32)} {{\n" + "\n".join(body)
            + f"\n    return %b : {_t(1, 2, 2, 32)}\n  }}\n}}\n")


def test_prefetch_takes_the_double_buffer_the_last_slice_does_not_read() -> None:
    module = parsed_with_target(_model(), "two_convs.mlir", "ethos-u65-256", "Ethos_U65_High_End",
                                "Dedicated_Sram", LIMIT)
    printed = run_pipeline(module, "schedule{optimise=Performance}", remarks=True)
    assert "error" not in printed, printed
    dmas = [op for op in module.walk() if isinstance(op, DmaOp)]
    first, second = dmas
    a_stream, b_stream = first.attr(STREAM_ATTR), second.attr(STREAM_ATTR)
    # the first conv's last (third) slice reads its first buffer again: the second is the free one
    assert a_stream.buffering == "double" and len(a_stream.slices) - 1 == 3
    assert b_stream.buffering == "single" and b_stream.prefetch
    freed, taken = first.attr(SECOND_BUFFER_ATTR), second.attr(ALLOC_ATTR)
    assert freed.offset < taken.offset + taken.size and taken.offset < freed.offset + freed.size
    assert re.search(r"the prefetched weights of '[^']+' \(npu.conv2d\) take bytes of the second buffer", printed)
    used = dict((area, used) for area, used, _ in module.attr(USAGE_ATTR).areas)["Sram"]
    block = next(graph_blocks(module))
    sram = [r for r in live_ranges(block, target_of(module)) if r.area == "Sram"]
    assert max(memory_usage(in_half_steps(sram))) <= used <= LIMIT < max(memory_usage(sram))
    # npu-allocate records why the DMA waits (npu.shares_tail) and npu-order issues it after the
    # first conv, at the times the allocation was planned for: ordering again changes nothing
    assert second.attr(SHARES_TAIL_ATTR) is not None and first.attr(SHARES_TAIL_ATTR) is None
    reader = second.results[0].users()[0]
    conv_a = first.results[0].users()[0]
    assert conv_a.attr(TIME_ATTR).value < second.attr(TIME_ATTR).value < reader.attr(TIME_ATTR).value
    assert taken.first == conv_a.attr(TIME_ATTR).value
    text = print_op(module)
    assert run_pipeline(module, REORDER_DMAS) == "" and print_op(module) == text
    # the checker, written from the rules, accepts the shared bytes
    again = parsed_with_target(text, "scheduled.mlir", "ethos-u65-256")
    assert run_pipeline(again, "npu-check-schedule") == ""
    # allocated again with prefetch overlap, the settling keeps the prefetch in the freed tail too
    # (rather than moving or dropping it): the same mark on the same DMA
    assert run_pipeline(again, "npu-allocate{prefetch-overlap=true}") == ""
    marked = [op for op in again.walk() if op.attr(SHARES_TAIL_ATTR) is not None]
    assert len(marked) == 1 and isinstance(marked[0], DmaOp) and marked[0].results[0].users()[0].attr("name") \
        == reader.attr("name")


def test_half_steps_keep_other_ranges_as_on_whole_time_indices() -> None:
    plain = [SimpleRange(0, 2, 16), SimpleRange(2, 3, 16), SimpleRange(4, 4, 16)]
    halved = in_half_steps(plain)
    for a, b in ((0, 1), (0, 2), (1, 2)):
        whole = plain[a].first <= plain[b].last and plain[b].first <= plain[a].last
        half = halved[a].first <= halved[b].last and halved[b].first <= halved[a].last
        assert whole == half
    assert tail_sharing(plain) == []


def test_a_freed_tail_and_a_late_prefetch_do_not_meet() -> None:
    class Range(SimpleRange):
        pass

    freed = Range(0, 2, 1024)
    object.__setattr__(freed, "early_end", True)
    prefetch = Range(1, 3, 1024)
    object.__setattr__(prefetch, "late_from", 2)
    assert half_steps(freed) == (0, 4) and half_steps(prefetch) == (5, 7)
    assert tail_sharing([freed, prefetch]) == [(0, 1)]
