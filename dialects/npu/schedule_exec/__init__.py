"""Execute scheduled IR stripe by stripe in modelled memory.

``run_scheduled(module, inputs, observer=None)`` runs a module that carries a schedule (the
output of ``--pass=schedule``): every tensor lives at its ``#npu.alloc`` offset in one byte array
per memory area, in its ``#npu.fm`` byte layout; ops run in ``npu.time`` order, each computing
only its stripes (cascade members interleaved as the cascade runs them, reading rolling
buffers slot ``row mod rows``) and reading its weights from the depth slices its DMA copied into
single or double buffers. So a schedule that is wrong about memory (buffers overlapping while
live, a rolling buffer too small, a weight buffer refilled too early) gives wrong outputs, which
the comparison with the plain interpreter (``npu_opt.ir.interpreter.run_function``) shows.

Modules: layout.py (NHWC / NHCWB16 address maps), placement.py (where each value lives),
weights.py (weight streams), executor.py (the timeline).
"""
from __future__ import annotations

from npu_opt.dialects.npu.schedule_attrs import SCHEDULE_ATTR
from npu_opt.dialects.npu.schedule_exec.executor import ScheduledRun, run_scheduled
from npu_opt.ir.core import Operation


def has_schedule(module: Operation) -> bool:
    """Whether ``module`` carries a schedule (``npu.schedule`` on the module, written by the
    scheduling passes), so a tool should run it with ``run_scheduled``."""
    return module.attr(SCHEDULE_ATTR) is not None


__all__ = ["ScheduledRun", "has_schedule", "run_scheduled"]
