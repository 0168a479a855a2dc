"""Execute scheduled IR stripe by stripe in modelled memory, so a schedule's addresses, rolling
buffers and weight streams are checked by running them.

Design notes: docs/interpreter_design.md, section The scheduled executor (schedule_exec)."""
from __future__ import annotations

from npu_opt.dialects.npu.schedule_attrs import SCHEDULE_ATTR
from npu_opt.interpreters.scheduled.executor import ScheduledRun, run_scheduled
from npu_opt.ir.core import Operation


def has_schedule(module: Operation) -> bool:
    """Whether ``module`` carries a schedule (``npu.schedule`` on the module, written by the
    scheduling passes), so a tool should run it with ``run_scheduled``."""
    return module.attr(SCHEDULE_ATTR) is not None


__all__ = ["ScheduledRun", "has_schedule", "run_scheduled"]
