"""The lower bound (dialects/npu/perf/lower_bound.py) is a bound: every model the repo ships,
scheduled with both strategies on a shared-SRAM and a dedicated-SRAM target, estimates at least
the bound's cycles (as a whole and op by op) and allocates at least its SRAM; and its terms match
small cases worked out by hand."""
from __future__ import annotations

import io
from pathlib import Path

import pytest

import npu_opt.dialects  # noqa: F401
import npu_opt.passes  # noqa: F401  (registers the schedule pipeline)
from npu_opt.hardware.accelerators import accelerator
from npu_opt.dialects.npu.perf.ir_adapter import report_name
from npu_opt.dialects.npu.perf.ir_attrs import COST_ATTR, TOTALS_ATTR
from npu_opt.dialects.npu.perf.lower_bound import (
    compute_cycles_bound, feature_map_bytes, ifm_elements_read, lower_bound, op_footprint, percent_of, window_rows,
)
from npu_opt.hardware.perf.op_desc import (
    Kernel, NpuOpDesc, OpKind, Resampling, TensorDesc, WeightsDesc,
)
from npu_opt.hardware.perf.shape import Shape4
from npu_opt.dialects.npu.schedule_attrs import USAGE_ATTR
from npu_opt.ir.diagnostics import DiagnosticEngine
from npu_opt.ir.pass_manager import PassManager
from npu_opt.ir.pass_registry import parse_pipeline
from targeted_import import imported_with_target

DATA = Path(__file__).resolve().parents[4] / "data"
MODELS = sorted(p.stem for p in DATA.glob("*.tflite"))
TARGETS = {
    "shared": ("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram", None),
    "dedicated": ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram", 16384),
}
U55_128 = accelerator("ethos-u55-128")


# The one case whose arena does not fit (tests/unit/passes/schedule/test_schedule_models.py checks its diagnostic).
DOES_NOT_FIT = {("wide_image", "dedicated", "Size")}


def _scheduled(model: str, target: str, strategy: str):
    """``model`` through ``schedule{optimise=strategy}``; a pipeline error fails the test."""
    accel, system, mode, cache = TARGETS[target]
    module = imported_with_target(model, accel, system, mode, cache)
    stream = io.StringIO()
    engine = DiagnosticEngine(stream=stream)
    engine.show_remarks = False
    PassManager(parse_pipeline(f"schedule{{optimise={strategy}}}"), engine).run(module)
    assert not engine.has_errors, stream.getvalue()
    return module


@pytest.mark.parametrize("strategy", ["Performance", "Size"])
@pytest.mark.parametrize("target", sorted(TARGETS))
@pytest.mark.parametrize("model", MODELS)
def test_schedules_never_beat_the_bound(model: str, target: str, strategy: str) -> None:
    if (model, target, strategy) in DOES_NOT_FIT:
        pytest.skip(f"{model} does not fit {target} with {strategy}")
    module = _scheduled(model, target, strategy)
    bound = lower_bound(module)
    assert module.attr(TOTALS_ATTR).cycle("total") >= bound.cycles
    usage = module.attr(USAGE_ATTR)
    used = usage.used("Sram") if usage is not None else 0
    assert used >= bound.sram_bytes
    if target == "dedicated":
        assert bound.sram_bytes == 0  # feature maps may all stay in DRAM
    terms = {op.name: op for op in bound.ops}
    for op in module.walk():
        cost = op.attr(COST_ATTR)
        term = terms.get(report_name(op)) if cost is not None else None
        if term is not None:  # a cascaded stream's hidden first slice comes off the op's cycles
            assert cost.cycle("total") >= term.cycles - cost.cycle("dma"), term


def test_a_model_without_a_target_has_no_bound() -> None:
    from npu_opt.dialects.tfl.tflite import import_tflite

    module = import_tflite((DATA / "conv.tflite").read_bytes(), "conv")
    with pytest.raises(ValueError, match="npu.target"):
        lower_bound(module)


def _conv(ifm: Shape4, ofm: Shape4, kernel: Kernel, padding=(0, 0, 0, 0), resampling=Resampling.NONE) -> NpuOpDesc:
    weights = WeightsDesc(kernel.elements_wh() * ifm.depth * ofm.depth, kernel.elements_wh() * ifm.depth * ofm.depth)
    return NpuOpDesc(OpKind.CONV2D, TensorDesc(ifm), TensorDesc(ofm), kernel=kernel, weights=weights,
                     padding=padding, resampling=resampling)


def test_conv_terms_by_hand() -> None:
    desc = _conv(Shape4(1, 8, 8, 16), Shape4(1, 8, 8, 32), Kernel(3, 3))
    # 3*3*16 MACs for each of 8*8*32 outputs on 128 MACs a cycle; the output unit at its best
    # (0.25 cycles an element) needs only 512 cycles.
    assert compute_cycles_bound(desc, U55_128) == 9 * 16 * 2048 / 128 == 2304
    assert feature_map_bytes(desc) == 8 * 8 * 16 + 8 * 8 * 32
    # One OFM row (8 x 32) and the 3 IFM rows it reads (3 x 8 x 16); the IFM whole: 1024 bytes.
    ifm = (Shape4(1, 8, 8, 16), 1)
    assert op_footprint(desc, [(*ifm, False)], ofm_whole=False) == 256 + 384
    assert op_footprint(desc, [(*ifm, True)], ofm_whole=False) == 256 + 1024
    assert op_footprint(desc, [(*ifm, True)], ofm_whole=True) == 2048 + 1024


def test_a_stride_wider_than_the_kernel_skips_ifm_rows() -> None:
    # 1x1 kernel, stride 3 on 9x9: rows and columns 0, 3, 6 only.
    desc = _conv(Shape4(1, 9, 9, 4), Shape4(1, 3, 3, 4), Kernel(1, 1, 3, 3))
    assert ifm_elements_read(desc) == 3 * 3 * 4
    # 3x3 stride 2, one row of top padding on 4 rows: windows at -1..1 and 1..3 touch all 4.
    padded = _conv(Shape4(1, 4, 4, 1), Shape4(1, 2, 2, 1), Kernel(3, 3, 2, 2), padding=(1, 1, 1, 1))
    assert ifm_elements_read(padded) == 16


def test_elementwise_terms_by_hand() -> None:
    shape = Shape4(1, 4, 4, 8)
    add = NpuOpDesc(OpKind.ELEMENTWISE_BINARY, TensorDesc(shape), TensorDesc(shape), TensorDesc(Shape4(1, 1, 1, 1)),
                    elementwise="add", ifm2_scalar=True)
    assert compute_cycles_bound(add, U55_128) == 128 * 0.25
    assert feature_map_bytes(add) == 128 + 128  # the scalar rides in a register
    # One OFM row and one IFM row (4 x 8 each); a full-size second operand adds its row.
    assert op_footprint(add, [(shape, 1, False)], ofm_whole=False) == 64
    assert op_footprint(add, [(shape, 1, False), (shape, 1, False)], ofm_whole=False) == 96


def test_window_rows_and_upscaling() -> None:
    assert window_rows(1, 1, 3, Resampling.NONE) == 3
    assert window_rows(1, 2, 5, Resampling.NONE) == 5
    assert window_rows(2, 1, 1, Resampling.NEAREST) == 2  # a row pair of 2x upscaled output: ceil(3 / 2)
    desc = _conv(Shape4(1, 4, 4, 8), Shape4(1, 8, 8, 8), Kernel(1, 1), resampling=Resampling.NEAREST)
    assert op_footprint(desc, [(Shape4(1, 4, 4, 8), 1, False)], ofm_whole=False) == 2 * 64 + 2 * 32


def test_percent_of() -> None:
    assert percent_of(137, 100) == pytest.approx(137.0)
    assert percent_of(5, 0) is None
