"""npu-search-schedule's ``monotone`` option: a larger budget never answers slower than a smaller
one. The search is then directed at the budgets of a grid that the ladder's points fix
(``budget_grid``), never at the budget itself, so a larger budget's search tries every candidate a
smaller one's does. Swept on every tests/data model that schedules, at a few budgets each."""
from __future__ import annotations

from pathlib import Path

import pytest

import npu_opt.dialects  # noqa: F401
import npu_opt.passes  # noqa: F401
from npu_opt.dialects.npu.schedule_attrs import SEARCH_ATTR, SearchAttr
from npu_opt.passes.schedule.search import ALIGNMENT, Knobs, Point, budget_grid
from targeted_import import imported_with_target, run_pipeline

SHARED = ("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram", None)
DATA = Path(__file__).resolve().parents[1] / "data"
MODELS = sorted(path.stem for path in DATA.glob("*.tflite"))


def _search(model: str, budget: int) -> SearchAttr | None:
    """The search's record at ``budget`` (None: the model does not schedule, or nothing fits)."""
    try:
        module = imported_with_target(model, *SHARED)
    except Exception:  # noqa: BLE001 - (float and other models the importer refuses)
        return None
    errors = run_pipeline(module, f"schedule{{sram-budget={budget} monotone=true jobs=1}}")
    return None if errors else module.attr(SEARCH_ATTR)


def _point(sram: int) -> Point:
    return Point(Knobs("Performance", sram), 1000 - sram, sram)


def test_the_grid_does_not_depend_on_the_budget() -> None:
    base = [_point(s) for s in (0, 400, 1000, 2000)]
    ends = [base[1], base[3]]
    whole = budget_grid(base, ends, base[1], 10 ** 9)
    assert whole == sorted(set(whole)) and whole[-1] <= 1.5 * 2000
    for limit in range(0, 3100, 7):  # each budget's grid is the whole grid's up to it
        assert budget_grid(base, ends, base[1], limit) == [g for g in whole if g <= limit]
    assert all(g % ALIGNMENT == 0 or g in (0, 400, 1000, 2000) for g in whole)


@pytest.mark.parametrize("model", MODELS)
def test_a_larger_budget_never_answers_slower(model: str) -> None:
    top = _search(model, 10 ** 8)
    if top is None or top.performance is None or top.size is None:
        pytest.skip(f"{model} has no schedule search in a shared SRAM")
    low, high = top.size[1], top.performance[1]
    budgets = sorted({low, (low + high) // 2})  # (and the largest, 10 ** 8, above Performance's SRAM)
    answers = []
    for budget in budgets:
        search = _search(model, budget)
        answers.append(None if search is None else search.points[search.chosen].cycles)
    answers.append(top.points[top.chosen].cycles)
    found = [a for a in answers if a is not None]
    assert found == sorted(found, reverse=True), list(zip(budgets + [10 ** 8], answers))
