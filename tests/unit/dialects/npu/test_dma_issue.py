"""dma_issue: where each weight DMA is issued, from the facts of the passes that decide it, whatever
its place in the order given, and the order npu.time records without the weight DMAs."""
from __future__ import annotations

import pytest

import npu_opt.dialects  # noqa: F401
from npu_opt.dialects.npu.dma_issue import dma_free_order, place_weight_dmas, waits_for_previous
from npu_opt.dialects.npu.execution_order import graph_blocks, is_executed
from npu_opt.ir.core import Operation
from npu_opt.ir.parser import parse_module

W = "tensor<16x1x1x16xi8>"
WS = "tensor<16x1x1x16xi8, #npu.fm<NHWC, Sram>>"
FM = "tensor<1x8x8x16xi8>"
PREFETCH = "npu.stream = #npu.stream<slices = [0, 16], buffering = single, buffers = [512], bytes = 512, prefetch>"


def _dma(name: str, facts: str = "") -> str:
    attrs = ", ".join(part for part in (facts,) if part)
    return f'    %{name} = "npu.dma"(%w) <{{name = "{name}"}}> {{{attrs}}} : ({W}) -> {WS}\n'


def _conv(name: str, x: str, weights: str, time: int | None = None) -> str:
    timed = f" {{npu.time = {time} : i64}}" if time is not None else ""
    w_type = WS if weights != "w" else W
    return (f'    %{name} = "npu.conv2d"(%{x}, %{weights}, %b) <{{kernel = #npu.kernel<1x1>, name = "{name}"}}>'
            f'{timed} : ({FM}, {w_type}, tensor<16xi32>) -> {FM}\n')


def _function(body: str, result: str) -> list[Operation]:
    text = (f'module {{\n  func.func @f(%x: {FM}) -> {FM} {{\n'
            f'    %w = "tfl.pseudo_const"() <{{value = dense<1> : {W}}}> : () -> {W}\n'
            f'    %b = "tfl.pseudo_const"() <{{value = dense<0> : tensor<16xi32>}}> : () -> tensor<16xi32>\n'
            f'{body}    return %{result} : {FM}\n  }}\n}}\n')
    block = next(graph_blocks(parse_module(text, "f.mlir")))
    return [op for op in block.ops if is_executed(op)]


def _names(ops: list[Operation]) -> list[str]:
    return [op.attr("name").value for op in ops]  # type: ignore[union-attr]


def test_each_dma_goes_where_its_facts_say_whatever_its_place() -> None:
    body = (_dma("d1") + _dma("d2", PREFETCH) + _dma("d3", PREFETCH + ", npu.unhidden")
            + _dma("d4", PREFETCH + ", npu.shares_tail") + _dma("d5", PREFETCH)
            + _conv("c1", "x", "d1") + _conv("c2", "c1", "d2") + _conv("c3", "c2", "d3")
            + _conv("c4", "c3", "d4") + _conv("c5", "c4", "d5"))
    ops = _function(body, "c5")
    expected = ["d1", "d2", "c1", "c2", "d3", "c3", "d5", "d4", "c4", "c5"]
    assert _names(place_weight_dmas(ops)) == expected
    assert _names(place_weight_dmas(list(reversed(ops[:5])) + ops[5:])) == expected
    assert _names(place_weight_dmas(ops[5:])) == expected  # (DMAs not in the order are found from their readers)
    assert [waits_for_previous(op) for op in ops[:5]] == [False, False, True, True, False]


def test_a_prefetch_after_a_cpu_op_or_first_stays_before_its_reader() -> None:
    body = (_dma("d1", PREFETCH) + _dma("d2", PREFETCH) + _conv("c1", "x", "d1")
            + f'    %r = "tfl.relu"(%c1) : ({FM}) -> {FM}\n' + _conv("c2", "r", "d2"))
    ops = _function(body, "c2")
    placed = place_weight_dmas(ops)
    assert [getattr(op.attr("name"), "value", op.name) for op in placed] == ["d1", "c1", "tfl.relu", "d2", "c2"]


def test_the_recorded_order_without_weight_dmas() -> None:
    timed = _function(_dma("d1") + _conv("c1", "x", "d1", 1) + _conv("c2", "c1", "w", 0), "c2")
    assert _names(dma_free_order(timed[0].parent)) == ["c2", "c1"]  # (untimed DMAs left out)
    untimed = _function(_conv("c1", "x", "w") + _conv("c2", "c1", "w"), "c2")
    assert _names(dma_free_order(untimed[0].parent)) == ["c1", "c2"]  # IR order
    partly = _function(_conv("c1", "x", "w", 0) + _conv("c2", "c1", "w"), "c2")
    with pytest.raises(ValueError, match="'npu.conv2d' has no integer npu.time while other ops"):
        dma_free_order(partly[0].parent)
