"""The npu dialect: Ethos-U NPU operations and the hardware target they are scheduled for.

- The target: accelerator constants (accelerators.py), Vela-compatible system configs and memory
  modes (vela_config.py), the resolved ``Target`` (target.py) and the ``#npu.target<...>``
  module attribute (target_attr.py).
- The ops (ops_conv.py, ops_pool.py, ops_elementwise.py, ops_memory.py, shared parts in
  ops_common.py): what the NPU executes, as ``npu-legalize`` produces it from the tfl dialect.
- Their attributes (attrs.py): ``#npu.fm`` (format and memory area, a tensor type encoding),
  ``#npu.kernel``, ``#npu.act``, ``#npu.rescale`` and ``#npu.offset``; ``#npu.block`` and
  ``#npu.cost`` (perf/ir_attrs.py) are registered here too, and import the performance model
  only when one is parsed.
- The schedule's attributes (schedule_attrs.py): ``#npu.alloc``, ``#npu.stream``, ``#npu.stripe``,
  ``#npu.cascade``, ``#npu.schedule`` and ``#npu.usage``, which the scheduling passes write.
- Rescale arithmetic shared by the legalisation and later passes (quant.py).
"""
from __future__ import annotations

import inspect
from typing import Callable

from npu_opt.ir.attributes import Attribute

from npu_opt.dialects.npu.accelerators import ACCELERATORS, AcceleratorConfig, accelerator
from npu_opt.dialects.npu.attrs import ATTRIBUTES, ActivationAttr, FmAttr, KernelAttr, OffsetAttr, RescaleAttr
from npu_opt.dialects.npu.dialect import NPU
from npu_opt.dialects.npu.errors import TargetError
from npu_opt.dialects.npu.ops_common import NpuComputeOp, NpuOp, feature_map
from npu_opt.dialects.npu.ops_conv import *  # noqa: F401,F403  (registration happens on import)
from npu_opt.dialects.npu.ops_elementwise import *  # noqa: F401,F403
from npu_opt.dialects.npu.ops_memory import *  # noqa: F401,F403
from npu_opt.dialects.npu.ops_pool import *  # noqa: F401,F403
from npu_opt.dialects.npu import schedule_attrs
from npu_opt.dialects.npu.target import TARGET_ATTR, Target, resolve_target, target_of
from npu_opt.dialects.npu.target_attr import TargetAttr
from npu_opt.dialects.npu.vela_config import VelaConfig

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
