"""The schedule the passes after the cascades follow: ``npu.policy``, npu-form-cascades' own fact.

npu-form-cascades resolves the knobs of ``npu.schedule`` (a search's choice, or none) with its
options into the policy it scheduled for, and the SRAM target the passes after it work under;
it records that as ``npu.policy`` (an ``#npu.schedule``) beside ``npu.schedule``, which stays the
search's own."""
from __future__ import annotations

from npu_opt.dialects.npu.schedule_attrs import SCHEDULE_ATTR, ScheduleAttr
from npu_opt.ir.core import Operation

POLICY_ATTR = "npu.policy"


def schedule_policy(module: Operation) -> ScheduleAttr | None:
    """The module's ``npu.policy`` once npu-form-cascades has run, else its ``npu.schedule`` (or None)."""
    for name in (POLICY_ATTR, SCHEDULE_ATTR):
        found = module.attr(name)
        if isinstance(found, ScheduleAttr):
            return found
    return None


__all__ = ["POLICY_ATTR", "schedule_policy"]
