"""The npu dialect: Ethos-U NPU operations and the hardware target they are scheduled for.

Design notes: docs/lowering_design.md, section The npu dialect (npu package)."""
from __future__ import annotations

import inspect
from typing import Callable

from npu_opt.hardware.accelerators import ACCELERATORS, AcceleratorConfig, accelerator
from npu_opt.dialects.npu.attrs import ATTRIBUTES, ActivationAttr, FmAttr, KernelAttr, OffsetAttr, RescaleAttr
from npu_opt.dialects.npu.dialect import NPU
from npu_opt.hardware.errors import TargetError
from npu_opt.dialects.npu.ops_common import NpuComputeOp, NpuOp, feature_map
from npu_opt.dialects.npu.ops_conv import *  # noqa: F401,F403  (registration happens on import)
from npu_opt.dialects.npu.ops_elementwise import *  # noqa: F401,F403
from npu_opt.dialects.npu.ops_memory import *  # noqa: F401,F403
from npu_opt.dialects.npu.ops_pool import *  # noqa: F401,F403
from npu_opt.dialects.npu import schedule_attrs
from npu_opt.hardware.target import Target, resolve_target
from npu_opt.dialects.npu.target_attr import TARGET_ATTR, TargetAttr, target_of
from npu_opt.hardware.vela_config import VelaConfig

PERF_ATTRIBUTES = {"block": "BlockAttr", "cost": "CostAttr"}
"""The dialect's attributes defined with the performance model (perf/ir_attrs.py), by name."""


for _class in (*ATTRIBUTES, *schedule_attrs.ATTRIBUTES, TargetAttr):
    NPU.declared_attribute(_class)


def _perf_attribute(class_name: str) -> Callable[[], type]:
    """The loader of a performance-model attribute (``#npu.block``, ``#npu.cost``, defined in
    perf/ir_attrs.py), which imports the model only when one is first parsed."""
    def load() -> type:
        from npu_opt.dialects.npu.perf import ir_attrs
        return getattr(ir_attrs, class_name)
    return load


NPU.sections["Scheduled IR"] = inspect.cleandoc(schedule_attrs.__doc__ or "")

for _name, _class_name in PERF_ATTRIBUTES.items():
    NPU.declared_attribute(_name, _perf_attribute(_class_name))  # type: ignore[arg-type]

__all__ = [
    "ACCELERATORS", "AcceleratorConfig", "ActivationAttr", "FmAttr", "KernelAttr", "NPU", "NpuComputeOp",
    "NpuOp", "OffsetAttr", "RescaleAttr", "TARGET_ATTR", "Target", "TargetAttr", "TargetError", "VelaConfig",
    "accelerator", "feature_map", "resolve_target", "target_of",
]
