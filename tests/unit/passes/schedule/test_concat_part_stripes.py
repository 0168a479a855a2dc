"""A striped op writing a part of a concatenation searches its block config on a stripe of the
whole concatenation, as Vela does: its stripe's height, the whole tensor's width and depth. Before,
the search sized blocks on the whole unstriped concatenation, so the 1x1 copies that write a
concatenation's parts kept the unstriped block (6 rows for a 4-row stripe) when Vela cascades them,
and fire's Size schedules were 2-8 % slower than Vela 5.2's legacy scheduler's."""
from __future__ import annotations

import pytest

import npu_opt.dialects  # noqa: F401
import npu_opt.passes  # noqa: F401
from npu_opt.dialects.npu.perf.ir_attrs import TOTALS_ATTR
from npu_opt.hardware.perf.op_desc import NpuOpDesc, OpKind, TensorDesc
from npu_opt.hardware.perf.shape import Shape4
from npu_opt.dialects.npu.schedule_attrs import STRIPE_ATTR
from targeted_import import imported_with_target, run_pipeline


def test_a_concatenation_parts_stripe_stripes_the_whole_tensor_too() -> None:
    part = TensorDesc(Shape4(1, 32, 32, 16), 8, whole=Shape4(1, 32, 32, 32))
    desc = NpuOpDesc(OpKind.AVG_POOL, ifm=TensorDesc(Shape4(1, 32, 32, 16), 8), ofm=part)
    striped = desc.with_ofm_stripe(Shape4(1, 4, 32, 16))
    assert striped.ofm.shape == Shape4(1, 4, 32, 16)
    assert striped.ofm.block_shape == Shape4(1, 4, 32, 32)
    alone = TensorDesc(Shape4(1, 32, 32, 16), 8)
    plain = NpuOpDesc(OpKind.AVG_POOL, ifm=alone, ofm=alone)
    assert plain.with_ofm_stripe(Shape4(1, 4, 32, 16)).ofm.block_shape == Shape4(1, 4, 32, 16)


# Vela 5.2.0's legacy core on tests/data/fire.tflite (vela --debug-force-legacy-core --optimise O
# --config Arm/vela.ini --accelerator-config A --system-config S --memory-mode M): total cycles,
# as its summary CSV reports them (cycles_total).
VELA_LEGACY = {
    ("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram", "Size"): 306996,
    ("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram", "Performance"): 278376,
    ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram_384KB", "Size"): 203054,
    ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram_384KB", "Performance"): 183935,
}


@pytest.mark.parametrize("case", sorted(VELA_LEGACY), ids=lambda c: f"{c[0]}-{c[3]}")
def test_fire_schedules_as_vela(case: tuple[str, str, str, str]) -> None:
    *target, strategy = case
    module = imported_with_target("fire", *target)
    assert run_pipeline(module, f"schedule{{optimise={strategy}}}") == ""
    assert round(module.attr(TOTALS_ATTR).cycle("total")) == VELA_LEGACY[case]
    copies = [op for op in module.walk() if op.name == "npu.avg_pool" and op.attr(STRIPE_ATTR) is not None]
    for op in copies:  # a cascaded copy's block is no taller than its stripe
        assert op.attr("npu.block").ofm[0] <= op.attr(STRIPE_ATTR).shape[0]
