"""npu-width-bands: the column arithmetic of a band, where chains are cut, and banded schedules
that compute what the legalised module computes, bit for bit, and pass npu-check-schedule."""
from __future__ import annotations

import io

import pytest

import npu_opt.dialects  # noqa: F401
import npu_opt.passes  # noqa: F401
from npu_opt.dialects.npu.attrs import KernelAttr
from npu_opt.dialects.npu.schedule_attrs import ScheduleAttr
from npu_opt.interpreters.scheduled import run_scheduled
from npu_opt.ir.diagnostics import DiagnosticEngine
from npu_opt.ir.pass_manager import PassManager
from npu_opt.ir.pass_registry import parse_pipeline
from npu_opt.passes.schedule.width_bands import band_edges, band_window, chains, has_chain, overhead, segments
from scheduled_models import (function_of as _function, reference_run as _reference, same_bytes as _same,
                              scheduled_module as _module)

CONV3 = KernelAttr.get((3, 3), padding=(1, 1, 1, 1))


def test_a_band_keeps_the_padding_of_the_true_edge_it_meets_only():
    left = band_window(CONV3, 20, 0, 10)
    assert (left.lo, left.hi, left.kernel.padding) == (0, 11, (1, 1, 1, 0))
    right = band_window(CONV3, 20, 10, 20)
    assert (right.lo, right.hi, right.kernel.padding) == (9, 20, (1, 0, 1, 1))
    middle = band_window(CONV3, 20, 5, 15)
    assert (middle.lo, middle.hi, middle.kernel.padding) == (4, 16, (1, 0, 1, 0))


def test_a_strided_band_reads_the_columns_under_its_windows():
    strided = KernelAttr.get((3, 3), (2, 2), padding=(0, 0, 1, 1))  # 'same' on an even width: padding right only
    band = band_window(strided, 16, 4, 8)  # OFM columns 4..7 read IFM columns 8..16 (9 wide, the last padded)
    assert (band.lo, band.hi, band.kernel.padding) == (8, 16, (0, 0, 1, 1))
    # the band's own output width follows from its IFM and padding, as the whole op's did
    assert (band.hi - band.lo + band.kernel.padding[1] + band.kernel.padding[3] - 3) // 2 + 1 == 4


def test_band_edges_are_even_and_never_narrower_than_asked():
    assert band_edges(20, 2, 8) == [(0, 10), (10, 20)]
    assert band_edges(10, 4, 3) == [(0, 3), (3, 7), (7, 10)]  # only three bands of 3 columns fit
    assert band_edges(12, 2, 8) == [(0, 12)]  # not two bands of 8


def _head(model: str, target: str = "dedicated"):
    return _module(model, "npu-legalize,npu-order,npu-format-nhcwb16,npu-place-tensors{check-limit=false},"
                          "npu-select-block-config,npu-insert-dma,npu-order{dmas-only=true}", target)


def test_chains_stop_where_an_ofm_has_another_reader_and_segments_bound_the_halo():
    module = _head("kernels")
    block = _function(module).regions[0].entry
    from npu_opt.dialects.npu.execution_order import npu_runs
    found = [chain for run in npu_runs(block) for chain in chains(run)]
    names = [[op.attr("name").value for op in chain] for chain in found]
    # k_conv9x9's OFM is read by a CPU op too: a chain of its own
    assert names == [["k_conv9x9"], ["k_conv1x7", "k_conv7x1", "k_depthwise5x5", "k_maxpool3"]]
    chain = found[1]
    # the maxpool's 5 OFM columns in two bands of 2 and 3: the halo up the chain is a quarter of
    # the 20-column maps at most; with bands of 8 columns only the two 20-column ops can be cut
    assert overhead(chain, band_edges(5, 2, 2)) == 0.25
    assert segments(chain, 2, 2, 0.25) == [chain]
    assert segments(chain, 2, 2, 0.2) == [chain[:3]]
    assert segments(chain, 2, 8, 0.25) == [chain[:2]]
    assert has_chain(module, 2, 2) and not has_chain(module, 2, 64)


def _run(module, pipeline: str):
    engine = DiagnosticEngine(stream=io.StringIO())
    engine.show_remarks = False
    PassManager(parse_pipeline(pipeline), engine).run(module)
    return module, engine


@pytest.mark.parametrize("target", ["shared", "dedicated"])
@pytest.mark.parametrize("strategy", ["Performance", "Size"])
@pytest.mark.parametrize("bands", [2, 3])
@pytest.mark.parametrize("model", ["kernels", "branches", "weight_stream", "wide_image"])
def test_banded_schedules_run_as_the_legalised_module_and_pass_the_checker(model: str, bands: int, strategy: str,
                                                                          target: str):
    inputs, expected = _reference(model, target)
    module = _module(model, f"schedule{{optimise={strategy} bands={bands} min-width=2}}", target)
    ops = [op.name for op in module.walk()]
    assert "npu.slice" in ops and "npu.concat" in ops  # something was cut
    got = run_scheduled(module, inputs)
    assert all(_same(a, b) for a, b in zip(got, expected))
    _, engine = _run(module, "npu-check-schedule")
    assert engine.error_count == 0


def test_the_module_schedule_asks_for_the_bands_and_one_band_changes_nothing():
    module = _head("kernels")
    before = sum(1 for _ in module.walk())
    _run(module, "npu-width-bands")  # no npu.schedule: one band
    assert sum(1 for _ in module.walk()) == before
    module.attributes["npu.schedule"] = ScheduleAttr("Size", 393216, 0).replaced(width_bands=2)
    _run(module, "npu-width-bands{min-width=2}")
    assert any(op.name == "npu.concat" for op in module.walk())


def test_width_bands_print_and_parse_in_the_schedule_attribute():
    attr = ScheduleAttr("Size", 1024, 512).replaced(width_bands=4)
    assert "width_bands = 4" in str(attr)
    assert ScheduleAttr.parse(str(attr)[len("#npu.schedule<"):-1]) == attr
    assert "width_bands" not in str(ScheduleAttr("Size", 1024, 512))
    assert attr.point_flags() == ("width_bands",)


def _candidates(pipeline: str) -> list[str]:
    """The search's candidate remarks on kernels in a dedicated SRAM."""
    module = _head("kernels")
    engine = DiagnosticEngine(stream=io.StringIO())
    seen: list[str] = []
    engine.handler = lambda diag: seen.append(diag.message)
    PassManager(parse_pipeline(pipeline), engine).run(module)
    return [message for message in seen if message.startswith("candidate ")]


def test_the_search_tries_bands_only_where_size_does_not_fit_the_budget():
    # kernels' Size schedule takes 5,120 bytes of this SRAM: a budget of 3,000 tries bands, one
    # of 6,000 directed at itself alone does not (bands cost cycles, so they pay only below Size's
    # SRAM; the default, monotone search tries them at half Size's SRAM under every larger budget
    # too, so that a larger budget never answers slower); max-bands=1 never
    banded = [m for m in _candidates("npu-search-schedule{sram-budget=3000}") if "column bands" in m]
    assert any("Size with an SRAM target of 393216 bytes, prefetch overlap, 2 column bands" in m for m in banded)
    assert any("4 column bands" in m for m in banded)
    assert not any("column bands" in m for m in _candidates("npu-search-schedule{sram-budget=6000 monotone=false}"))
    assert not any("column bands" in m for m in _candidates("npu-search-schedule{sram-budget=3000 max-bands=1}"))
    assert not has_chain(_head("conv"))  # (a model without two windowed ops in a row: never)


def test_a_band_first_op_reading_a_slice_starts_a_cascade():
    # Vela cascades no op reading a slice; a band's first op (npu.band) may start one, so each
    # band of wide_image rolls its feature maps: Size's SRAM falls with the band count
    module = _module("wide_image", "schedule{optimise=Size bands=4}", "shared")
    firsts = [op for op in module.walk() if op.attr("npu.band") is not None and op.operands[0].op is not None
              and op.operands[0].op.name == "npu.slice"]
    assert len(firsts) == 4 and sum(op.attr("npu.cascade") is not None for op in firsts) == 3  # (band 0 fits whole)
    used = [_module("wide_image", f"schedule{{optimise=Size bands={bands}}}", "shared").attr("npu.usage").used("Sram")
            for bands in (1, 2, 4)]
    assert used[0] > used[1] > used[2]


def _pool_chain(count: int) -> str:
    """A function of ``count`` 1x1 max pools in a row on a 32-column map: no halo at all."""
    shape = "tensor<1x4x32x16xi8>"
    lines = [f'    %{i + 1} = "npu.max_pool"(%{i}) <{{kernel = #npu.kernel<1x1>, name = "p{i}"}}> : ({shape}) -> {shape}'
             for i in range(count)]
    return ('module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", '
            'memory_mode = "Dedicated_Sram_384KB">} {\n'
            f'  func.func @pools(%0: {shape}) -> {shape} {{\n' + "\n".join(lines)
            + f"\n    return %{count} : {shape}\n  }}\n}}\n")


def test_a_chain_without_halo_is_cut_in_segments_of_at_most_max_ops():
    from npu_opt.ir.parser import parse_module
    from npu_opt.dialects.npu.execution_order import npu_runs
    from npu_opt.passes.schedule.width_bands import MAX_OPS
    module = parse_module(_pool_chain(70), "pools.mlir")
    (chain,) = [c for run in npu_runs(_function(module).regions[0].entry) for c in chains(run)]
    assert [len(part) for part in segments(chain, 2, 8, 0.25)] == [MAX_OPS, MAX_OPS, 70 - 2 * MAX_OPS]
    assert has_chain(module)
    _, engine = _run(module, "npu-width-bands{bands=2}")
    assert engine.error_count == 0
    assert sum(op.name == "npu.concat" for op in module.walk()) == 3


@pytest.mark.parametrize("min_width", [2, 8, 16])
def test_has_chain_agrees_with_the_cuts_the_pass_makes(min_width: int):
    for model in ("kernels", "branches", "weight_stream", "wide_image", "conv", "fire"):
        module = _head(model)
        from npu_opt.dialects.npu.execution_order import npu_runs
        cut = any(segments(chain, 2, min_width, 0.25) for run in npu_runs(_function(module).regions[0].entry)
                  for chain in chains(run))
        assert has_chain(module, 2, min_width) == cut, model


def _pooled_chain_text() -> str:
    """A 12x64 image through a 3x3 conv, a 2x2 max pool and a 2x2 average pool (stride 1, SAME:
    padded on the bottom and the right): the chain a random network found cut wrongly."""
    import sys
    from pathlib import Path

    import numpy as np
    sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "data"))
    import make_models as mm

    f = mm.Func("main", [("image", mm.t((1, 12, 64, 8), mm.q8(mm.A, 0)))], np.random.default_rng(63))
    x = ("%arg0", mm.t((1, 12, 64, 8), mm.q8(mm.A, 0)))
    y = mm._conv(f, x, mm.t((1, 12, 64, 16), mm.q8(0.125, 0)), (3, 3), (8, 16), mm.A, "conv", act="RELU")
    y = mm._pool(f, "max", y, mm.t((1, 12, 64, 16), mm.q8(0.125, 0)), 2, 1, "SAME", "max")
    y = mm._pool(f, "average", y, mm.t((1, 12, 64, 16), mm.q8(0.125, 0)), 2, 1, "SAME", "average")
    return mm.module(f.text([y]))


def test_a_cut_chain_never_ends_in_an_average_pool():
    # the band outputs are written into one concatenation, and an average pool writing a
    # concatenation is scaled as Vela programs such a pool (interpreters/npu/pool.py): cut,
    # it computed other values (a random network's schedule differed from its model in 4 % of
    # its elements). The chain is cut before it; the average pool runs whole after the bands.
    from npu_opt.ir.interpreter import run_function
    from npu_opt.ir.parser import parse_module
    from npu_opt.ir.printer import print_op
    from targeted_import import parsed_with_target, run_pipeline, seeded_inputs

    def imported():
        return parsed_with_target(_pooled_chain_text(), "pooled.mlir", "ethos-u65-256", "Ethos_U65_High_End",
                                  "Dedicated_Sram", 16384)

    reference = imported()
    assert run_pipeline(reference, "npu-legalize") == ""
    inputs = seeded_inputs(next(op for op in reference.walk() if op.name == "func.func"))
    expected = run_function(reference, inputs)
    module = imported()
    assert run_pipeline(module, "schedule{bands=2}") == ""
    banded = {op.attr("name").value for op in module.walk() if op.attr("npu.band") is not None}
    assert banded == {"conv_band0", "conv_band1", "max_band0", "max_band1"}
    text = print_op(module)
    assert run_pipeline(parse_module(text, "pooled.mlir"), "npu-check-schedule") == ""
    got = run_scheduled(parse_module(text, "pooled.mlir"), inputs)
    assert [a.tobytes() for a in got] == [b.tobytes() for b in expected]
