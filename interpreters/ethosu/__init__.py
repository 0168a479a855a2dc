"""A functional simulator of the Ethos-U command stream: runs an ``ethosu.program`` on byte
arrays of its memory regions, as Vela compiled it, and checks the memory it touches and the
waits between DMAs and NPU operations; the kernel of ``tfl.ethos_u``, so a compiled .tflite
runs in the interpreter.

Design notes: docs/simulator_design.md."""
from __future__ import annotations

from npu_opt.interpreters.ethosu import tfl_kernel  # noqa: F401  (registers the tfl.ethos_u kernel)
from npu_opt.interpreters.ethosu.memory import Memory, Region, SimulatorError
from npu_opt.interpreters.ethosu.program import run_program

__all__ = ["Memory", "Region", "SimulatorError", "run_program"]
