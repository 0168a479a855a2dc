"""The ``compile`` pipeline: the schedule, then the read-only layout and the command streams."""
from __future__ import annotations

from npu_opt.ir.pass_registry import register_pipeline
from npu_opt.passes.schedule.pipeline import SCHEDULE_PIPELINE

COMPILE_PIPELINE = f"{SCHEDULE_PIPELINE},npu-flash-layout,npu-lower-commands"

register_pipeline("compile", COMPILE_PIPELINE,
                  "schedule, lay out the read-only data and lower each NPU run to an ethosu.program "
                  "(Vela's command stream)")

__all__ = ["COMPILE_PIPELINE"]
