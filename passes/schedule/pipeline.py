"""The ``schedule`` pipeline: the scheduling passes in the order their decisions build on each other.

Legalisation, ordering, formats and placement come first (their decisions are the schedule's
input), then the block configurations, the weight DMAs and how they stream, the cascades and
their stripes, the block configurations of striped ops again (Vela searches a cascaded op's block
on its stripe), the weight DMAs and their streaming again (Vela re-buffers its cascaded schedule:
a cascade member takes one full-depth buffer, and every buffer must fit beside the rolling
buffers live at its time), which feature maps keep fast storage, the addresses of everything,
and the estimate of the result. After each pass that adds weight DMAs or decides where they
are issued, npu-order places them again (``REORDER_DMAS``). ``schedule{optimise=Size}`` sets the
policy on every pass that has one; ``schedule{sram-budget=N}`` lets npu-search-schedule choose the
knobs instead (without it, that pass does nothing and the pipeline schedules as Vela's legacy
scheduler does).
"""
from __future__ import annotations

from npu_opt.ir.pass_registry import make_pass, option_specs, register_pipeline

REORDER_DMAS = "npu-order{dmas-only=true}"
"""npu-order placing the weight DMAs again (the order of the other ops kept), after each pass
that adds weight DMAs or decides where they are issued: only npu-order writes ``npu.time``."""

SCHEDULE_HEAD = ("npu-legalize,npu-order,npu-format-nhcwb16,npu-place-tensors{check-limit=false},"
                 f"npu-select-block-config,npu-insert-dma,{REORDER_DMAS}")
"""What every schedule starts from: legal NPU ops in order, formatted, placed, with block
configurations and weight DMAs."""

SCHEDULE_TAIL = (f"npu-width-bands,npu-order,npu-buffer-weights,{REORDER_DMAS},npu-form-cascades,"
                 f"npu-select-block-config,npu-insert-dma,{REORDER_DMAS},npu-buffer-weights,{REORDER_DMAS},"
                 f"npu-place-fast-storage,npu-allocate,{REORDER_DMAS},npu-estimate")
"""The passes that turn the knobs of ``npu.schedule`` (strategy, SRAM target) into a schedule
and cost it; npu-search-schedule runs them on copies of the module to compare knobs."""

SCHEDULE_PIPELINE = f"{SCHEDULE_HEAD},npu-search-schedule,{SCHEDULE_TAIL}"

def _tail_options() -> tuple[str, ...]:
    """Every option of the passes after the search, which ``schedule{sram-budget=N}`` refuses
    beside the budget: the search costs its candidates with those passes as they are by default,
    so an option changing them would make the schedule differ from the point the search chose.
    Read from the passes themselves, so a new option is refused without a list to keep."""
    names = dict.fromkeys(element.partition("{")[0].strip() for element in SCHEDULE_TAIL.split(","))
    return tuple(dict.fromkeys(spec[0] for name in names for spec in option_specs(type(make_pass(name, {})))))


register_pipeline("schedule", SCHEDULE_PIPELINE,
                  "legalise, order and place, then schedule: block configs, weight DMAs and their buffering, "
                  "cascades, fast storage for feature maps and addresses; estimate the result",
                  exclusive=tuple((name, "sram-budget", "the search compares candidates scheduled with the "
                                   "passes' defaults, so it would promise a schedule these options change")
                                  for name in _tail_options()))

__all__ = ["REORDER_DMAS", "SCHEDULE_HEAD", "SCHEDULE_PIPELINE", "SCHEDULE_TAIL"]
