"""Size schedules that differed from Vela 5.2's legacy scheduler on tests/data, now its own.

What Size's stripe growth counts live beside a MIN cascade, as Vela's sub-schedules do: what
the MIN schedule had beside the cascade at its start, for every member, plus the first op's whole
IFM for the later members when another op of the run reads it too. Before, each member kept its
own MIN-schedule neighbours, so a tensor live only because a CPU op still reads it after the
cascade (kernels: k_conv9x9's OFM) counted against growth, the cascade was kept with 1-row stripes
where Vela dissolves it, and kernels' Size schedule on the U55 took 37.7 % more cycles than Vela's.
A concatenation part counts the whole concatenated tensor as its OFM, as Vela's sizes do (fire's
Size schedules stay Vela's to the cycle: tests/unit/passes/schedule/test_concat_part_stripes.py). A cascade
holding a join, a branch point, a fork or a rolling concatenation (knobs beyond Vela's) keeps
each member's own neighbours: the whole residual blocks of tests/unit/passes/schedule/test_cascade_branches.py
would otherwise dissolve, their skip tensor not counted.

An op whose OFM one op reads twice (``x + x``) writes it whole, as Vela counts each read as a
consumer: the OFM enters the minimum memory requirement Size's MIN cascades are built under.
Before, odd_channels' Size schedule on the U65's dedicated SRAM built them under 688 bytes
instead of Vela's 960, so a cascade Vela forms did not fit, and it took 25.6 % more cycles.

A concatenation whose parts NPU ops write competes for a dedicated fast storage as one tensor,
as Vela's OFM of each writer does: before, npu-place-fast-storage never returned it to the arena
(its owner is the memory-only npu.concat), so data_movement's Size schedule on the U65 kept 3 KB
of concatenation in a fast storage its limit gave 1 KB (4,096 bytes used against Vela's 1,024)."""
from __future__ import annotations

import npu_opt.dialects  # noqa: F401
import npu_opt.passes  # noqa: F401
from npu_opt.dialects.npu.perf.ir_attrs import TOTALS_ATTR
from npu_opt.dialects.npu.schedule_attrs import CASCADE_ATTR, USAGE_ATTR
from targeted_import import imported_with_target, run_pipeline

SHARED = ("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram")
DEDICATED = ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram_384KB")


def _size_schedule(model: str, target: tuple[str, str, str]):
    """``model`` scheduled with ``schedule{optimise=Size}`` on ``target``: the module, the
    remarks, and its (total cycles, SRAM bytes used) as Vela's summary reports them."""
    module = imported_with_target(model, *target)
    remarks = run_pipeline(module, "schedule{optimise=Size}", remarks=True)
    assert "error:" not in remarks
    figures = (round(module.attr(TOTALS_ATTR).cycle("total")), module.attr(USAGE_ATTR).used("Sram"))
    return module, remarks, figures

# Vela 5.2.0's legacy core on tests/data/kernels.tflite, Size, config A (vela
# --debug-force-legacy-core --optimise Size --config Arm/vela.ini --accelerator-config
# ethos-u55-128 --system-config Ethos_U55_High_End_Embedded --memory-mode Shared_Sram): no
# cascade, k_conv1x7's and k_depthwise5x5's weights buffered; cycles_total and SRAM used.
VELA_KERNELS_SIZE = (98373, 19200)


def test_kernels_size_schedules_as_vela() -> None:
    module, _, figures = _size_schedule("kernels", SHARED)
    assert [op for op in module.walk() if op.attr(CASCADE_ATTR) is not None] == []
    assert figures == VELA_KERNELS_SIZE


# The same on tests/data/odd_channels.tflite, config C (--accelerator-config ethos-u65-256
# --system-config Ethos_U65_High_End --memory-mode Dedicated_Sram_384KB): its MIN cascades
# odd_depthwise7..odd_conv13 and odd_maxpool13..odd_conv33 kept; cycles_total and SRAM used.
VELA_ODD_CHANNELS_SIZE = (9398, 960)


def test_an_ofm_read_twice_by_one_op_is_whole_as_in_vela() -> None:
    module, remarks, figures = _size_schedule("odd_channels", DEDICATED)
    assert "cascade of 2 ops from 'odd_maxpool13' to 'odd_conv33'" in remarks  # (960 bytes: under the requirement)
    cascades = {op.attr(CASCADE_ATTR).id for op in module.walk() if op.attr(CASCADE_ATTR) is not None}
    assert len(cascades) == 2 and figures == VELA_ODD_CHANNELS_SIZE


# tests/data/data_movement.tflite, config C, Size: the concatenation in DRAM.
VELA_DATA_MOVEMENT_SIZE = (73623, 1024)


def test_a_concatenation_competes_for_fast_storage_whole() -> None:
    module, remarks, figures = _size_schedule("data_movement", DEDICATED)
    assert "the parts of the concatenation 'mv_concat' are written (3072 bytes" in remarks
    assert all("Sram" not in str(part.type) for op in module.walk() if op.name == "npu.concat" for part in op.operands)
    assert figures == VELA_DATA_MOVEMENT_SIZE
