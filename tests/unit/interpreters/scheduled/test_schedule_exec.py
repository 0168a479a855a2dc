"""The stripe-by-stripe executor of scheduled IR (interpreters/scheduled): byte layouts,
rolling-buffer slots, weight-stream buffers, and whole scheduled models against the plain
interpreter, including hand-broken schedules that must give wrong outputs."""
from __future__ import annotations

import io
import re

import numpy as np
import pytest

import npu_opt.dialects  # noqa: F401
import npu_opt.passes  # noqa: F401
from npu_opt.dialects.npu.schedule_attrs import (
    ALLOC_ATTR, CASCADE_ATTR, SECOND_BUFFER_ATTR, STREAM_ATTR, TIME_ATTR, AllocAttr, CascadeAttr, StreamAttr,
)
from npu_opt.interpreters.scheduled import run_scheduled
from npu_opt.interpreters.scheduled.placement import Placements
from npu_opt.ir.attributes import IntegerAttr
from npu_opt.ir.core import OpResult
from npu_opt.ir.diagnostics import DiagnosticEngine
from npu_opt.ir.parser import parse_module
from npu_opt.ir.pass_manager import PassFailure, PassManager
from npu_opt.ir.pass_registry import parse_pipeline
from targeted_import import seeded_inputs
from scheduled_models import (TARGETS, function_of as _function, printed as _printed,
                              reference_run as _reference, same_bytes as _same, scheduled_module as _module)
from npu_opt.interpreters.scheduled.layout import address_map, footprint, gather, scatter
from npu_opt.interpreters.scheduled.weights import WeightStream


# --- layouts -----------------------------------------------------------------------------------
def test_nhwc_map_is_c_order_bytes():
    shape = (1, 3, 4, 5)
    addresses = address_map(shape, 2, "NHWC", base=100)
    expected = 100 + 2 * np.arange(np.prod(shape)).reshape(shape)
    assert np.array_equal(addresses, expected)
    assert footprint(shape, 2, "NHWC") == 120


def test_nhcwb16_map_puts_16_channel_bricks_row_by_row():
    # 2 rows x 3 columns x 20 channels: a row holds brick 0 (channels 0..15 of all 3 columns),
    # then brick 1 (channels 16..19, padded to 16) -> 3 * 32 = 96 bytes per row.
    addresses = address_map((1, 2, 3, 20), 1, "NHCWB16")
    assert footprint((1, 2, 3, 20), 1, "NHCWB16") == 2 * 3 * 32
    assert addresses[0, 0, 0, 0] == 0 and addresses[0, 0, 0, 15] == 15
    assert addresses[0, 0, 1, 0] == 16            # the next column of the same brick
    assert addresses[0, 0, 0, 16] == 3 * 16       # brick 1 starts after the 3 columns of brick 0
    assert addresses[0, 0, 2, 19] == 3 * 16 + 2 * 16 + 3
    assert addresses[0, 1, 0, 0] == 96            # the next row
    assert len(np.unique(addresses)) == addresses.size


def test_rolling_buffer_keeps_row_r_in_slot_r_mod_rows():
    addresses = address_map((1, 7, 2, 3), 1, "NHWC", base=10, rows=3)
    assert np.array_equal(addresses[0, 5], addresses[0, 2])
    assert np.array_equal(addresses[0, 3], addresses[0, 0])
    assert addresses.max() == 10 + 3 * 2 * 3 - 1
    assert footprint((1, 7, 2, 3), 1, "NHWC", rows=3) == 18


def test_gather_scatter_round_trip_little_endian():
    memory = np.zeros(64, dtype=np.uint8)
    addresses = address_map((1, 2, 2, 3), 2, "NHWC", base=4)
    values = np.arange(-6, 6, dtype=np.int16).reshape(1, 2, 2, 3) * 1000
    scatter(memory, addresses, values)
    assert memory[4:6].tolist() == list((-6000).to_bytes(2, "little", signed=True))
    assert np.array_equal(gather(memory, addresses, np.int16), values)
    with pytest.raises(IndexError, match="outside the memory area of 64 bytes"):
        gather(memory, addresses + 60, np.int16)


def test_overlapping_rolling_rows_lose_the_older_row():
    memory = np.zeros(32, dtype=np.uint8)
    addresses = address_map((1, 4, 1, 2), 1, "NHWC", rows=2)
    for row in range(4):
        scatter(memory, addresses[:, row:row + 1], np.full((1, 1, 1, 2), row + 1, np.int8))
    got = gather(memory, addresses, np.int8)
    assert got[0, :, 0, 0].tolist() == [3, 4, 3, 4]   # rows 0 and 1 were overwritten by 2 and 3


# --- weight streams ----------------------------------------------------------------------------
def _stream(buffering: str, buffers: list[int], memory: np.ndarray) -> WeightStream:
    weights = np.arange(32 * 2, dtype=np.int8).reshape(32, 1, 1, 2)
    bias = np.arange(32, dtype=np.int32) * 7
    stream = StreamAttr((0, 16, 32), buffering, tuple(buffers), 200)
    alloc = AllocAttr("Sram", 8, sum(buffers), (0, 1))
    return WeightStream(stream, alloc, weights, bias, 0, memory)


def test_double_buffered_slices_alternate_buffers_and_read_back():
    memory = np.zeros(256, dtype=np.uint8)
    ws = _stream("double", [100, 100], memory)
    ws.fill(0)
    ws.fill(1)
    w0, b0 = ws.read(0)
    w1, b1 = ws.read(1)
    assert np.array_equal(w0, ws.weights[:16]) and np.array_equal(b0, ws.bias[:16])
    assert np.array_equal(w1, ws.weights[16:]) and np.array_equal(b1, ws.bias[16:])
    assert memory[8] == 0 and memory[8 + 100] == 32      # slice 1 starts at buffer 1's offset


def test_a_second_buffer_allocated_apart_takes_the_odd_slices():
    memory = np.zeros(256, dtype=np.uint8)
    ws = _stream("double", [100, 100], memory)
    ws.second = AllocAttr("Sram", 150, 100, (1, 1))
    ws.fill(0)
    ws.fill(1)
    assert np.array_equal(ws.read(1)[0], ws.weights[16:])
    assert memory[8] == 0 and memory[150] == 32 and memory[108] == 0  # slice 1 at the second buffer's offset


def test_a_slice_refilled_into_the_same_buffer_before_it_is_read_is_lost():
    memory = np.zeros(256, dtype=np.uint8)
    ws = _stream("single", [100], memory)
    ws.fill(0)
    ws.fill(1)                                            # single buffer: overwrites slice 0
    w0, _ = ws.read(0)
    assert not np.array_equal(w0, ws.weights[:16])


def test_bytes_past_a_small_buffer_are_kept_aside():
    memory = np.zeros(256, dtype=np.uint8)
    ws = _stream("double", [20, 20], memory)             # a slice is 16 * 2 + 16 * 4 = 96 bytes
    ws.fill(0)
    ws.fill(1)
    w0, b0 = ws.read(0)
    assert np.array_equal(w0, ws.weights[:16]) and np.array_equal(b0, ws.bias[:16])
    memory[8:28] = 0                                       # the modelled part is still memory
    assert not np.array_equal(ws.read(0)[0], ws.weights[:16])


# --- scheduled modules ---------------------------------------------------------------------------
@pytest.mark.parametrize("target", sorted(TARGETS))
@pytest.mark.parametrize("strategy", ["Performance", "Size"])
@pytest.mark.parametrize("model", ["data_movement", "kernels", "shape", "weight_stream", "odd_channels"])
def test_every_stored_tensor_lies_inside_its_allocation(model: str, strategy: str, target: str):
    # The layouts written here (NHCWB16 bricks, rolling rows) agree with the sizes npu-allocate
    # reserved: no tensor's bytes reach outside its #npu.alloc.
    func = _function(_module(model, f"schedule{{optimise={strategy}}}", target))
    places = Placements(func)
    owners = [v for v in places.owners()
              if not (isinstance(v, OpResult) and v.op.attr(STREAM_ATTR) is not None)]
    assert owners
    for owner in owners:
        alloc, place = places.alloc_of(owner), places.place(owner)
        if place.addresses.size:
            assert place.addresses.min() >= alloc.offset
            assert place.addresses.max() + place.dtype.itemsize <= alloc.end, (owner, alloc)


def test_views_and_concatenation_parts_read_their_owners_bytes():
    func = _function(_module("data_movement", "schedule"))
    places = Placements(func)
    ops = list(func.regions[0].entry.ops)
    concat = next(op for op in ops if op.name == "npu.concat")
    whole = places.place(concat.results[0]).addresses
    for part, offset in zip(concat.operands, concat.offsets):
        n, h, w, c = offset.values
        shape = part.type.shape
        assert np.array_equal(places.place(part).addresses,
                              whole[n:n + shape[0], h:h + shape[1], w:w + shape[2], c:c + shape[3]])
    box = next(op for op in ops if op.name == "npu.slice" and any(op.offset.values))
    n, h, w, c = box.offset.values
    source = places.place(box.operands[0]).addresses
    shape = box.results[0].type.shape
    assert np.array_equal(places.place(box.results[0]).addresses,
                          source[n:n + shape[0], h:h + shape[1], w:w + shape[2], c:c + shape[3]])


MODELS = ["branches", "conv", "data_movement", "int16", "kernels", "odd_channels", "shape", "two_outputs",
          "weight_stream"]


@pytest.mark.parametrize("target", sorted(TARGETS))
@pytest.mark.parametrize("strategy", ["Performance", "Size"])
@pytest.mark.parametrize("model", MODELS)
def test_scheduled_run_matches_the_legalised_run(model: str, strategy: str, target: str):
    inputs, expected = _reference(model, target)
    got = run_scheduled(_module(model, f"schedule{{optimise={strategy}}}", target), inputs)
    assert len(got) == len(expected)
    for index, (a, b) in enumerate(zip(got, expected)):
        assert _same(a, b), f"output #{index}: {np.count_nonzero(a != b)} of {a.size} elements differ"


def test_observer_sees_every_executed_op_once_in_time_order():
    module = _module("kernels", "schedule{optimise=Size}")
    seen: list[tuple[int, tuple[int, ...]]] = []
    run_scheduled(module, seeded_inputs(_function(module)),
                  observer=lambda op, results: seen.append((op.attr(TIME_ATTR).value, results[0].shape)))
    timed = sorted((op.attr(TIME_ATTR).value, op.results[0].type.shape) for op in module.walk()
                   if isinstance(op.attr(TIME_ATTR), IntegerAttr))
    assert seen == timed


def test_a_striped_op_streams_its_weight_slices_again_for_every_stripe():
    # No schedule the passes make stripes an op whose weights stream in slices (Vela does not),
    # but the IR can say so: give the consumer of a double-buffered 3-slice stream 2-row
    # stripes, so its 15 slice copies alternate between the two buffers across stripes.
    text = _printed("weight_stream", "schedule", "shared")
    module = parse_module(text, "weight_stream.mlir")
    dma = next(op for op in module.walk() if op.attr(STREAM_ATTR) is not None
               and op.attr(STREAM_ATTR).buffering == "double" and len(op.attr(STREAM_ATTR).slices) > 3)
    consumer = dma.results[0].users()[0]
    _, height, width, depth = consumer.results[0].type.shape
    time = f"npu.time = {consumer.attr(TIME_ATTR).value} : i64, "
    striped = _edit(text, consumer.attr("name").value, time, f"{time}npu.stripe = #npu.stripe<2x{width}x{depth}>, ")
    assert striped.count("npu.stripe<") == text.count("npu.stripe<") + 1 and height > 2
    assert _check_schedule(striped) == ""
    assert not _differs(striped, "weight_stream")


# --- hand-broken schedules: wrong outputs here, and npu-check-schedule rejects them too -------------
def _check_schedule(text: str) -> str:
    """npu-check-schedule's errors on ``text`` ("" when it passes: then it prints only its verdict)."""
    stream = io.StringIO()
    engine = DiagnosticEngine(stream=stream)
    engine.show_remarks = False
    try:
        PassManager(parse_pipeline("npu-check-schedule"), engine).run(parse_module(text, "broken.mlir"))
    except PassFailure:
        pass
    return stream.getvalue() if engine.has_errors else ""


def _edit(text: str, op_name: str, old: str, new: str) -> str:
    """``text`` with ``old`` replaced by ``new`` on the one line defining the op named ``op_name``."""
    lines = text.split("\n")
    hits = [i for i, line in enumerate(lines) if f'name = "{op_name}"' in line and old in line]
    assert len(hits) == 1, (op_name, old, len(hits))
    lines[hits[0]] = lines[hits[0]].replace(old, new, 1)
    return "\n".join(lines)


def _edit_result(text: str, value: str, old: str, new: str) -> str:
    """``text`` with ``old`` replaced by ``new`` on the line defining SSA value ``value``."""
    lines = text.split("\n")
    hits = [i for i, line in enumerate(lines) if line.lstrip().startswith(f"{value} = ") and old in line]
    assert len(hits) == 1, (value, old, len(hits))
    lines[hits[0]] = lines[hits[0]].replace(old, new, 1)
    return "\n".join(lines)


def _differs(text: str, model: str, target: str = "shared") -> bool:
    inputs, expected = _reference(model, target)
    got = run_scheduled(parse_module(text, "broken.mlir"), inputs)
    return any(not _same(a, b) for a, b in zip(got, expected))


def _owners(text: str) -> list[tuple[str, AllocAttr, list[int]]]:
    """(SSA name, alloc, times it is read at) of each op result with an #npu.alloc, in IR order."""
    module = parse_module(text, "scheduled.mlir")
    names = {}
    for line in text.split("\n"):
        head = line.strip().split(" = ", 1)
        if len(head) == 2 and head[0].startswith("%"):
            names[len(names)] = head[0]
    found = []
    results = [op for op in _function(module).regions[0].entry.ops if op.results]
    for index, op in enumerate(results):
        alloc = op.attr(ALLOC_ATTR)
        if isinstance(alloc, AllocAttr):
            reads = [u.attr(TIME_ATTR).value for u in op.results[0].users()
                     if isinstance(u.attr(TIME_ATTR), IntegerAttr)]
            found.append((names[index], alloc, reads))
    return found


def test_a_rolling_buffer_too_small_gives_wrong_outputs_and_is_rejected():
    text = _printed("kernels", "schedule", "shared-12k")
    assert _differs(text, "kernels", "shared-12k") is False
    # (the schedule spans 17,360 bytes of a shared SRAM whose arena cache size, 12,288, is a target)
    assert _check_schedule(text) == ""
    # k_conv7x1's OFM rolls through 14 rows for the 5x5 depthwise that reads it; keep 2.
    module = parse_module(text, "kernels.mlir")
    producer = next(op for op in module.walk() if op.attr("name") is not None
                    and op.attr("name").value == "k_conv7x1")
    cascade = producer.attr(CASCADE_ATTR)
    broken = _edit(text, "k_conv7x1", str(cascade), str(CascadeAttr(cascade.id, (2,) + cascade.rolling[1:])))
    assert "schedule rule 5" in _check_schedule(broken)
    assert _differs(broken, "kernels", "shared-12k")


def test_overlapping_live_buffers_give_wrong_outputs_and_are_rejected():
    text = _printed("kernels", "schedule{optimise=Size}", "shared")
    owners = _owners(text)
    # a tensor still to be read later, and another one written while it is live: put the second
    # at the first's address.
    kept, moved = next((a, b) for a in owners for b in owners
                       if a[1].area == b[1].area and a[1].first < b[1].first and max(a[2], default=-1) > b[1].first)
    broken = _edit_result(text, moved[0], f"offset = {moved[1].offset},", f"offset = {kept[1].offset},")
    assert "schedule rule 3" in _check_schedule(broken)
    assert _differs(broken, "kernels")


def test_a_weight_buffer_over_a_live_tensor_gives_wrong_outputs_and_is_rejected():
    text = _printed("weight_stream", "schedule", "shared")
    owners = _owners(text)
    module = parse_module(text, "weight_stream.mlir")
    buffers = {op.attr(ALLOC_ATTR) for op in _function(module).regions[0].entry.ops
               if op.attr(STREAM_ATTR) is not None}
    assert buffers
    # a weight DMA's transfer writes its first slice over a feature map that is read afterwards
    victim, dma = next((f, d) for f in owners for d in owners if d[1] in buffers and f[1] not in buffers
                       and f[1].first <= d[1].first < max(f[2], default=-1))
    broken = _edit_result(text, dma[0], f"offset = {dma[1].offset},", f"offset = {victim[1].offset},")
    assert "schedule rule 3" in _check_schedule(broken)
    assert _differs(broken, "weight_stream")


def _second_buffers(text: str) -> list[tuple[str, AllocAttr, AllocAttr, int]]:
    """(SSA name, npu.alloc, npu.second_buffer, reader time) of each DMA with a second buffer."""
    names = {op_line.split(" = ", 1)[0].strip(): op_line for op_line in text.split("\n") if "npu.second_buffer" in op_line}
    module = parse_module(text, "scheduled.mlir")
    found = []
    dmas = [op for op in _function(module).regions[0].entry.ops if op.attr(SECOND_BUFFER_ATTR) is not None]
    for name, op in zip(names, dmas):
        reader = min(u.attr(TIME_ATTR).value for u in op.results[0].users())
        found.append((name, op.attr(ALLOC_ATTR), op.attr(SECOND_BUFFER_ATTR), reader))
    return found


def test_a_second_buffer_lives_from_its_reader_apart_from_the_first():
    # weight_stream's double-buffered streams: the second buffer is live only while the reader
    # runs (the first slice computes while the second copies), the first from its transfer.
    text = _printed("weight_stream", "schedule", "shared")
    seconds = _second_buffers(text)
    assert len(seconds) == 3
    for _, first, second, reader in seconds:
        assert second.first == reader and first.first < reader and second.last == first.last
    assert _check_schedule(text) == "" and not _differs(text, "weight_stream")


def test_a_second_buffer_over_a_live_tensor_gives_wrong_outputs_and_is_rejected():
    text = _printed("weight_stream", "schedule", "shared")
    owners = _owners(text)
    name, first, second, reader = _second_buffers(text)[1]
    # the reader's IFM is live while the reader runs: put the second buffer on it
    victim = next(o for o in owners if o[1].first < reader <= max(o[2], default=-1) and o[0] != name)
    broken = _edit_result(text, name, f"npu.second_buffer = #npu.alloc<Sram, offset = {second.offset},",
                          f"npu.second_buffer = #npu.alloc<Sram, offset = {victim[1].offset},")
    assert "schedule rule 3" in _check_schedule(broken)
    assert _differs(broken, "weight_stream")


def test_a_second_buffer_too_small_or_too_late_is_rejected():
    text = _printed("weight_stream", "schedule", "shared")
    name, _, second, reader = _second_buffers(text)[0]
    old = str(second)
    small = _edit_result(text, name, old, str(AllocAttr(second.area, second.offset, second.size - 16,
                                                        (second.first, second.last))))
    assert "needs" in _check_schedule(small) and "second buffer" in _check_schedule(small)
    late = _edit_result(text, name, old, str(AllocAttr(second.area, second.offset, second.size, (reader + 1,
                                                       max(second.last, reader + 1)))))
    assert f"after its reader starts at time {reader}" in _check_schedule(late)


def test_both_buffers_in_one_allocation_are_still_a_valid_schedule():
    # A module written before the buffers were allocated apart: npu.alloc holds both buffers
    # from the transfer's start; npu-check-schedule accepts it and it runs bit-exact.
    text = _printed("weight_stream", "schedule", "shared")
    joined = text
    top = max(alloc.end for _, alloc, _ in _owners(text))  # (each stream moves above everything, apart)
    for name, first, second, _ in _second_buffers(text):
        joined = _edit_result(joined, name, f", npu.second_buffer = {second}", "")
        joined = _edit_result(joined, name, str(first), str(AllocAttr(first.area, top, first.size + second.size,
                                                                      (first.first, first.last))))
        top += first.size + second.size
    assert "npu.second_buffer" not in joined
    joined = re.sub(r"npu\.usage = #npu\.usage<[^>]*>, ", "", joined)  # (the span and bound changed)
    assert _check_schedule(joined) == "" and not _differs(joined, "weight_stream")


def test_a_weight_dma_after_its_reader_gives_wrong_outputs_and_is_rejected():
    text = _printed("weight_stream", "schedule", "shared")
    module = parse_module(text, "weight_stream.mlir")
    dma = next(op for op in _function(module).regions[0].entry.ops
               if op.attr(STREAM_ATTR) is not None and not op.attr(STREAM_ATTR).prefetch)
    reader = dma.results[0].users()[0]
    first, second = dma.attr(TIME_ATTR).value, reader.attr(TIME_ATTR).value
    # swap the two times: the conv runs first, on whatever its weight buffer held
    marker = "npu.time = {} : i64"
    swapped = _edit(text, reader.attr("name").value, marker.format(second), marker.format(-1))
    lines = swapped.split("\n")
    index = next(i for i, line in enumerate(lines) if '"npu.dma"' in line and marker.format(first) in line
                 and f"offset = {dma.attr(ALLOC_ATTR).offset}," in line)
    lines[index] = lines[index].replace(marker.format(first), marker.format(second))
    swapped = "\n".join(lines).replace(marker.format(-1), marker.format(first))
    assert "schedule rule 2" in _check_schedule(swapped)
    assert _differs(swapped, "weight_stream")


@pytest.mark.parametrize("pipeline", ["schedule{sram-budget=6000}", "schedule{sram-budget=20000}",
                                      "schedule{stripe-growth=full}", "schedule{optimise=Size stripe-growth=full}",
                                      "schedule{optimise=Size stripe-growth=cost}"])
@pytest.mark.parametrize("model", ["branches", "kernels", "weight_stream"])
def test_searched_and_full_growth_schedules_run_as_the_legalised_module(model: str, pipeline: str):
    """Schedules the search picks (its knobs beyond Vela's included), full stripe growth and
    stripe heights chosen by cost compute what the legalised module computes, bit for bit."""
    inputs, expected = _reference(model, "dedicated")
    got = run_scheduled(_module(model, pipeline, "dedicated"), inputs)
    assert len(got) == len(expected)
    for index, (a, b) in enumerate(zip(got, expected)):
        assert _same(a, b), f"output #{index}: {np.count_nonzero(a != b)} of {a.size} elements differ"
