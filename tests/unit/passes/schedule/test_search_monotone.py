"""npu-search-schedule is monotone in its budget by default: a larger budget never answers slower
than a smaller one. The search is directed at the budgets of a grid that Size's and Performance's
SRAM fix (``budget_grid``), never at the budget itself, so a larger budget's search runs every step
of a smaller one's. Swept with the default options on every tests/data model."""
from __future__ import annotations

from pathlib import Path

import pytest

import npu_opt.dialects  # noqa: F401
import npu_opt.passes  # noqa: F401
from npu_opt.dialects.npu.schedule_attrs import SEARCH_ATTR, SearchAttr
from npu_opt.passes.schedule.search import ALIGNMENT, Knobs, Point, budget_grid
from targeted_import import imported_with_target, run_pipeline

SHARED = ("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram", None)
DATA = Path(__file__).resolve().parents[3] / "data"
MODELS = sorted(path.stem for path in DATA.glob("*.tflite"))


def _search(model: str, budget: int) -> SearchAttr | None:
    """The search's record at ``budget`` with the default options (None: nothing fits the budget)."""
    module = imported_with_target(model, *SHARED)
    errors = run_pipeline(module, f"schedule{{sram-budget={budget} jobs=1}}")
    return None if errors else module.attr(SEARCH_ATTR)


def _point(sram: int) -> Point:
    return Point(Knobs("Performance", sram), 1000 - sram, sram)


def test_the_grid_does_not_depend_on_the_budget() -> None:
    size, performance = _point(400), _point(2000)
    whole = budget_grid([size, performance], size, 10 ** 9)
    assert whole == sorted(set(whole)) and whole[-1] <= 1.5 * 2000
    assert {400, 2000, 192, 1488, 1744, 1872} <= set(whole)  # (the ends, half Size, 12, 14, 15 sixteenths)
    for limit in range(0, 3100, 7):  # each budget's grid is the whole grid's up to it
        assert budget_grid([size, performance], size, limit) == [g for g in whole if g <= limit]
    assert all(g % ALIGNMENT == 0 for g in whole)


@pytest.mark.parametrize("model", MODELS)
def test_a_larger_budget_never_answers_slower(model: str) -> None:
    top = _search(model, 10 ** 8)
    assert top is not None and top.performance is not None and top.size is not None, model
    low, high = top.size[1], top.performance[1]
    # below Size's SRAM, Size's, between the grid's budgets, Performance's (and 10 ** 8 above it)
    budgets = sorted({low * 3 // 4, low, (low + high) // 2, (low + 3 * high) // 4 + 8, high})
    answers = [None if (search := _search(model, budget)) is None else search.points[search.chosen].cycles
               for budget in budgets] + [top.points[top.chosen].cycles]
    budgets.append(10 ** 8)
    first = next(i for i, a in enumerate(answers) if a is not None)
    assert None not in answers[first:], list(zip(budgets, answers))  # (a budget that fits, fits above it)
    assert answers[first:] == sorted(answers[first:], reverse=True), list(zip(budgets, answers))
