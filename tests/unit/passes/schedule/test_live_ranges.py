"""passes/schedule/live_ranges.py: storage live ranges of hand-written scheduled functions."""
from __future__ import annotations

import npu_opt.dialects  # noqa: F401
import npu_opt.passes  # noqa: F401
from npu_opt.dialects.npu.target_attr import target_of
from npu_opt.ir.parser import parse_module
from npu_opt.dialects.npu.execution_order import graph_blocks
from npu_opt.passes.schedule.live_ranges import (LiveRange, SimpleRange, live_at, live_ranges, lower_bound,
                                                 memory_usage)

TARGET = ('module attributes {npu.target = #npu.target<"ethos-u55-128", system_config = '
          '"Ethos_U55_High_End_Embedded", memory_mode = "Shared_Sram">} {\n')
FM = "tensor<1x8x8x16xi8>"
POOL = '<{kernel = #npu.kernel<1x1>}>'


def _ranges(body: str, args: str = f"%x: {FM}", results: str = FM, fuse: bool = True) -> list[LiveRange]:
    module = parse_module(TARGET + f"func.func @f({args}) -> {results} {{\n{body}\n}}\n}}\n", "t.mlir")
    block = next(graph_blocks(module))
    return live_ranges(block, target_of(module), fuse_in_place=fuse)


def _summary(ranges: list[LiveRange]) -> list[tuple]:
    return [(r.kind, r.area, r.size, r.first, r.last, len(r.values)) for r in ranges]


def test_chain_ranges_from_writer_to_last_reader() -> None:
    ranges = _ranges(f"""
  %a = "npu.avg_pool"(%x) {POOL} {{npu.time = 0 : i64}} : ({FM}) -> {FM}
  %b = "npu.avg_pool"(%a) {POOL} {{npu.time = 1 : i64}} : ({FM}) -> {FM}
  %c = "npu.avg_pool"(%b) {POOL} {{npu.time = 2 : i64}} : ({FM}) -> {FM}
  return %c : {FM}""")
    assert _summary(ranges) == [("input", "Sram", 1024, 0, 0, 1), ("feature_map", "Sram", 1024, 0, 1, 1),
                                ("feature_map", "Sram", 1024, 1, 2, 1), ("output", "Sram", 1024, 2, 2, 1)]
    assert memory_usage(ranges, "Sram") == [2048, 2048, 2048]
    assert lower_bound(ranges, "Sram") == 2048 and lower_bound(ranges, "Dram") == 0
    assert [r.kind for r in live_at(ranges, 1)] == ["feature_map", "feature_map"]


def test_graph_input_lives_from_start_and_output_to_end() -> None:
    ranges = _ranges(f"""
  %a = "npu.avg_pool"(%x) {POOL} {{npu.time = 0 : i64}} : ({FM}) -> {FM}
  %b = "npu.avg_pool"(%y) {POOL} {{npu.time = 1 : i64}} : ({FM}) -> {FM}
  %c = "npu.avg_pool"(%b) {POOL} {{npu.time = 2 : i64}} : ({FM}) -> {FM}
  return %a, %c : {FM}, {FM}""", args=f"%x: {FM}, %y: {FM}", results=f"({FM}, {FM})")
    outputs = sorted((r.first, r.last) for r in ranges if r.kind == "output")
    assert outputs == [(0, 2), (2, 2)]
    inputs = sorted((r.first, r.last) for r in ranges if r.kind == "input")
    assert inputs == [(0, 0), (0, 1)]


def test_nhcwb16_rounds_depth() -> None:
    ranges = _ranges("""
  %a = "npu.avg_pool"(%x) <{kernel = #npu.kernel<1x1>}> {npu.time = 0 : i64} : (tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8, #npu.fm<NHCWB16>>
  %b = "npu.avg_pool"(%a) <{kernel = #npu.kernel<1x1>}> {npu.time = 1 : i64} : (tensor<1x4x4x8xi8, #npu.fm<NHCWB16>>) -> tensor<1x4x4x8xi8>
  return %b : tensor<1x4x4x8xi8>""", args="%x: tensor<1x4x4x8xi8>", results="tensor<1x4x4x8xi8>")
    assert [r.size for r in ranges] == [128, 256, 128]


def test_views_and_concat_parts_share_the_base() -> None:
    ranges = _ranges("""
  %r = "npu.reshape"(%x) : (tensor<1x64xi8>) -> tensor<1x4x4x4xi8>
  %s = "npu.slice"(%r) <{offset = #npu.offset<0, 2, 0, 0>}> : (tensor<1x4x4x4xi8>) -> tensor<1x2x4x4xi8>
  %a = "npu.avg_pool"(%r) <{kernel = #npu.kernel<1x1>}> {npu.time = 0 : i64} : (tensor<1x4x4x4xi8>) -> tensor<1x4x4x4xi8>
  %b = "npu.avg_pool"(%s) <{kernel = #npu.kernel<1x1, padding = [1, 0, 1, 0]>}> {npu.time = 1 : i64} : (tensor<1x2x4x4xi8>) -> tensor<1x4x4x4xi8>
  %cat = "npu.concat"(%a, %b) <{offsets = [#npu.offset<0, 0, 0, 0>, #npu.offset<0, 0, 0, 4>]}> : (tensor<1x4x4x4xi8>, tensor<1x4x4x4xi8>) -> tensor<1x4x4x8xi8>
  %d = "npu.avg_pool"(%cat) <{kernel = #npu.kernel<1x1>}> {npu.time = 2 : i64} : (tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8>
  return %d : tensor<1x4x4x8xi8>""", args="%x: tensor<1x64xi8>", results="tensor<1x4x4x8xi8>")
    assert _summary(ranges) == [("input", "Sram", 64, 0, 1, 3), ("feature_map", "Sram", 128, 0, 2, 3),
                                ("output", "Sram", 128, 2, 2, 1)]
    concat = ranges[1]
    assert concat.owner.op.name == "npu.concat"  # type: ignore[attr-defined]


ADD = '<{name = "add"}>'


def test_in_place_elementwise_shares_the_ifm_range() -> None:
    ranges = _ranges(f"""
  %a = "npu.avg_pool"(%x) {POOL} {{npu.time = 0 : i64}} : ({FM}) -> {FM}
  %b = "npu.add"(%a, %y) {ADD} {{npu.time = 1 : i64}} : ({FM}, {FM}) -> {FM}
  %c = "npu.avg_pool"(%b) {POOL} {{npu.time = 2 : i64}} : ({FM}) -> {FM}
  return %c : {FM}""", args=f"%x: {FM}, %y: {FM}")
    fused = [r for r in ranges if len(r.values) == 2]
    assert len(fused) == 1 and (fused[0].first, fused[0].last) == (0, 2)
    assert [v.op.name for v in fused[0].values] == ["npu.avg_pool", "npu.add"]  # type: ignore[attr-defined]
    plain = _ranges(f"""
  %a = "npu.avg_pool"(%x) {POOL} {{npu.time = 0 : i64}} : ({FM}) -> {FM}
  %b = "npu.add"(%a, %y) {ADD} {{npu.time = 1 : i64}} : ({FM}, {FM}) -> {FM}
  %c = "npu.avg_pool"(%b) {POOL} {{npu.time = 2 : i64}} : ({FM}) -> {FM}
  return %c : {FM}""", args=f"%x: {FM}, %y: {FM}", fuse=False)
    assert len(plain) == len(ranges) + 1


def test_no_in_place_when_the_ifm_is_read_again() -> None:
    ranges = _ranges(f"""
  %a = "npu.avg_pool"(%x) {POOL} {{npu.time = 0 : i64}} : ({FM}) -> {FM}
  %b = "npu.add"(%a, %a) {ADD} {{npu.time = 1 : i64}} : ({FM}, {FM}) -> {FM}
  %c = "npu.add"(%b, %a) {ADD} {{npu.time = 2 : i64}} : ({FM}, {FM}) -> {FM}
  return %c : {FM}""")
    # %a is read twice: nothing overwrites it; %c overwrites %b (read once).
    assert [len(r.values) for r in ranges] == [1, 1, 2]


def test_cascade_rolling_buffer_lives_for_the_whole_cascade() -> None:
    ranges = _ranges(f"""
  %a = "npu.avg_pool"(%x) {POOL} {{npu.time = 0 : i64, npu.cascade = #npu.cascade<0, rolling = 2x8x8>}} : ({FM}) -> {FM}
  %b = "npu.avg_pool"(%a) {POOL} {{npu.time = 1 : i64, npu.cascade = #npu.cascade<0, rolling = 2x8x16>}} : ({FM}) -> {FM}
  %c = "npu.avg_pool"(%b) {POOL} {{npu.time = 2 : i64, npu.cascade = #npu.cascade<0>}} : ({FM}) -> {FM}
  return %c : {FM}""")
    # The cascade's IFM is read until the cascade ends, its OFM written from its start.
    assert _summary(ranges) == [("input", "Sram", 1024, 0, 2, 1), ("rolling", "Sram", 256, 0, 2, 1),
                                ("rolling", "Sram", 256, 0, 2, 1), ("output", "Sram", 1024, 0, 2, 1)]


WEIGHTS = "tensor<16x3x3x16xi8>"
SRAM_W = "tensor<16x3x3x16xi8, #npu.fm<NHWC, Sram>>"


def _streamed(stream: str) -> list:
    """The ranges of a conv at time 2 whose weights stream in by a DMA at time 1 (``stream``)."""
    return _ranges(f"""
  %w = "tfl.pseudo_const"() <{{value = dense<1> : {WEIGHTS}}}> : () -> {WEIGHTS}
  %bias = "tfl.pseudo_const"() <{{value = dense<0> : tensor<16xi32>}}> : () -> tensor<16xi32>
  %a = "npu.avg_pool"(%x) {POOL} {{npu.time = 0 : i64}} : ({FM}) -> {FM}
  %wd = "npu.dma"(%w) {{npu.time = 1 : i64, npu.stream = {stream}}} : ({WEIGHTS}) -> {SRAM_W}
  %c = "npu.conv2d"(%a, %wd, %bias) <{{kernel = #npu.kernel<3x3, padding = [1, 1, 1, 1]>}}> {{npu.time = 2 : i64}} : ({FM}, {SRAM_W}, tensor<16xi32>) -> {FM}
  return %c : {FM}""")


def test_weight_stream_buffer_and_prefetch() -> None:
    stream = "#npu.stream<slices = [0, 8, 16], buffering = double, buffers = [640, 512], bytes = 1152, prefetch>"
    ranges = _streamed(stream)
    # The first buffer from its transfer (prefetched under the op at time 0) to its reader; the
    # second, filled while the first slice computes, only while the reader runs.
    weights = [(r.size, r.first, r.last, r.second) for r in ranges if r.kind == "weights"]
    assert weights == [(640, 0, 2, False), (512, 2, 2, True)]
    assert all(r.content is None for r in ranges if r.kind == "weights")  # refilled slice by slice: not shareable
    assert all(r.kind != "weights" or r.area == "Sram" for r in ranges)
    # A single-buffered stream keeps one range of its one buffer.
    single = stream.replace("double, buffers = [640, 512]", "single, buffers = [640]")
    ranges = _streamed(single)
    assert [(r.size, r.first, r.last, r.second) for r in ranges if r.kind == "weights"] == [(640, 0, 2, False)]


def test_memory_usage_of_plain_intervals() -> None:
    ranges = [SimpleRange(0, 2, 10), SimpleRange(1, 1, 5), SimpleRange(3, 4, 20)]
    assert memory_usage(ranges) == [10, 15, 10, 20, 20]
    assert memory_usage(ranges, alignment=16) == [16, 32, 16, 32, 32]
    assert lower_bound(ranges) == 20 and lower_bound([]) == 0
    assert memory_usage(ranges, length=2) == [10, 15]
