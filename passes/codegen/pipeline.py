"""The ``compile`` pipeline: the schedule, then the read-only layout, the command streams and the
tfl.ethos_u ops holding them (a deployable model)."""
from __future__ import annotations

from npu_opt.ir.pass_registry import register_pipeline
from npu_opt.passes.schedule.pipeline import SCHEDULE_PIPELINE

CODEGEN_PIPELINE = "npu-flash-layout,npu-lower-commands,npu-outline,ethosu-estimate"
"""What follows the schedule: the read-only data's layout, one ethosu.program per NPU run, each
run outlined into a tfl.ethos_u op, and the compiled streams costed (so ``--summary`` and
``--summary-csv`` report the model as written, as Vela's do)."""

COMPILE_PIPELINE = f"{SCHEDULE_PIPELINE},{CODEGEN_PIPELINE}"

register_pipeline("compile", COMPILE_PIPELINE,
                  "schedule, lay out the read-only data, lower each NPU run to an ethosu.program (Vela's "
                  "command stream), outline it into a tfl.ethos_u op (a model TFLite Micro's Ethos-U "
                  "kernel runs) and cost the streams")

__all__ = ["CODEGEN_PIPELINE", "COMPILE_PIPELINE"]
