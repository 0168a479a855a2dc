"""npu-order{order=memory}: a dependency-respecting order (the scheduled model computes what the
legalised one does and passes npu-check-schedule), Vela's order on chains, fewer bytes live where
branches can interleave."""
from __future__ import annotations

import pytest

import npu_opt.dialects  # noqa: F401
import npu_opt.passes  # noqa: F401
from npu_opt.dialects.npu.schedule_attrs import SCHEDULE_ATTR, SEARCH_ATTR, TIME_ATTR, USAGE_ATTR
from npu_opt.ir.parser import parse_module
from npu_opt.ir.printer import print_op
from targeted_import import MODELS, check_scheduled, imported_with_target, run_pipeline

SHARED = ("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram")
def _times(module) -> list[str]:
    return [op.name for op in sorted((op for op in module.walk() if op.attr(TIME_ATTR) is not None),
                                     key=lambda op: op.attr(TIME_ATTR).value)]


def _compute_order(module) -> list[str]:
    """The names of the ops other than DMAs in schedule order (the strategies place DMAs differently)."""
    return [str(op.attr("name")) for op in sorted((op for op in module.walk() if op.attr(TIME_ATTR) is not None
                                                   and op.name != "npu.dma"), key=lambda op: op.attr(TIME_ATTR).value)]


@pytest.mark.parametrize("model", MODELS)
def test_the_memory_order_computes_what_the_model_computes(model: str):
    check_scheduled(model, SHARED, "schedule{order=memory}")


@pytest.mark.parametrize("model", ["conv", "kernels", "weight_stream"])
def test_a_chain_keeps_velas_order(model: str):
    orders = []
    for order in ("vela", "memory"):
        module = imported_with_target(model, *SHARED)
        assert run_pipeline(module, f"npu-legalize,npu-order{{order={order}}}") == ""
        orders.append(print_op(module))
    assert orders[0] == orders[1]


def test_interleaved_branches_keep_fewer_bytes_live():
    used = {}
    for order in ("vela", "memory"):
        module = imported_with_target("two_outputs", *SHARED)
        assert run_pipeline(module, f"schedule{{order={order}}}") == ""
        used[order] = (module.attr(USAGE_ATTR).used("Sram"), _times(module))
    assert used["memory"][0] < used["vela"][0]
    assert used["memory"][1] != used["vela"][1]


def test_the_search_chooses_the_memory_order_where_it_pays():
    """On two_outputs the memory-aware order is part of the fastest schedule within 20,000
    bytes: npu.schedule says so, the ops run in that order, and the model still computes what
    it did (byte-exact against the legalised model)."""
    module = parse_module(check_scheduled("two_outputs", SHARED, "schedule{sram-budget=20000}"), "two_outputs.mlir")
    assert module.attr(SCHEDULE_ATTR).memory_order
    memory = imported_with_target("two_outputs", *SHARED)
    assert run_pipeline(memory, "schedule{order=memory}") == ""
    vela = imported_with_target("two_outputs", *SHARED)
    assert run_pipeline(vela, "schedule") == ""
    assert _compute_order(module) == _compute_order(memory) != _compute_order(vela)


def test_a_chain_gets_no_memory_order_candidate():
    """Where the memory-aware order is Vela's (a chain), the search spends no candidate on it."""
    module = imported_with_target("weight_stream", *SHARED)
    assert run_pipeline(module, "schedule{sram-budget=100000}") == ""
    assert all("memory_order" not in point.flags for point in module.attr(SEARCH_ATTR).points)
