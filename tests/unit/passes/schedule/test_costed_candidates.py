"""A search takes the answers of candidates an earlier search of the same module costed in this
process, and its result is the one it gets alone (passes/schedule/costed_candidates.py)."""
from __future__ import annotations

import io
import re

import npu_opt.dialects  # noqa: F401
import npu_opt.passes  # noqa: F401
from npu_opt.ir.diagnostics import DiagnosticEngine
from npu_opt.ir.pass_manager import PassManager, Statistics
from npu_opt.ir.pass_registry import parse_pipeline
from npu_opt.ir.parser import parse_module
from npu_opt.ir.printer import print_op
from npu_opt.passes.schedule.costed_candidates import COSTED, CostedCandidates, module_key
from targeted_import import imported_with_target

TARGET = ("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram")


def _searched(model: str, budget: int) -> tuple[str, dict[str, int]]:
    """The IR ``model`` has after the search at ``budget``, and the search's statistics."""
    module = imported_with_target(model, *TARGET)
    statistics = Statistics()
    PassManager(parse_pipeline(f"schedule{{sram-budget={budget} jobs=1}}"),
                DiagnosticEngine(stream=io.StringIO()), verify_each=True, instrumentations=[statistics]).run(module)
    search = next(counts for pass_, counts, _ in statistics.runs if pass_.NAME == "npu-search-schedule")
    return print_op(module), dict(search)


def test_a_second_search_of_the_model_reuses_candidates_and_answers_as_alone() -> None:
    COSTED.clear()
    alone, first = _searched("branches", 15000)
    assert first["reused"] == 0 and first["candidates"] > 0
    _, larger = _searched("branches", 19000)  # (costs what 15000 does, and more)
    assert larger["reused"] > 0
    again, second = _searched("branches", 15000)
    assert second["reused"] == second["candidates"] == first["candidates"]
    assert again == alone  # (the schedule, the frontier and every recorded fact)


def test_another_model_or_other_weights_share_nothing() -> None:
    def key(model: str) -> str:
        return module_key(imported_with_target(model, *TARGET))

    assert key("branches") == key("branches")
    assert len({key("branches"), key("conv"), key("kernels")}) == 3
    text = print_op(imported_with_target("conv", *TARGET))
    blob = re.search(r'tfl_const_0: "0x([0-9A-F]+)"', text)
    assert blob is not None
    last = blob.group(1)[-2:]
    changed = text[:blob.end(1) - 2] + ("00" if last != "00" else "01") + text[blob.end(1):]
    assert module_key(parse_module(text, "a.mlir")) != module_key(parse_module(changed, "b.mlir"))  # (weights count)


def test_the_table_forgets_the_least_recently_searched_module() -> None:
    table = CostedCandidates(modules=2)
    table.table("a")["k"] = 1
    table.table("b")["k"] = 2
    assert table.table("a") == {"k": 1}  # (a searched again: b is now the oldest)
    table.table("c")
    assert table.table("b") == {} and table.table("a") == {}  # (b was forgotten, then a)
