"""The npu dialect: Ethos-U NPU operations and the hardware target they are scheduled for.

Design notes: docs/lowering_design.md, section The npu dialect (npu package)."""
from __future__ import annotations

import inspect
from typing import Callable

from npu_opt.ir.attributes import Attribute

from npu_opt.hardware.accelerators import ACCELERATORS, AcceleratorConfig, accelerator
from npu_opt.dialects.npu.attrs import PARSERS, ActivationAttr, FmAttr, KernelAttr, OffsetAttr, RescaleAttr
from npu_opt.dialects.npu.dialect import NPU
from npu_opt.hardware.errors import TargetError
from npu_opt.dialects.npu.ops_common import NpuComputeOp, NpuOp, feature_map
from npu_opt.dialects.npu.ops_conv import *  # noqa: F401,F403  (registration happens on import)
from npu_opt.dialects.npu.ops_elementwise import *  # noqa: F401,F403
from npu_opt.dialects.npu.ops_memory import *  # noqa: F401,F403
from npu_opt.dialects.npu.ops_pool import *  # noqa: F401,F403
from npu_opt.dialects.npu import schedule_attrs
from npu_opt.dialects.npu.schedule_attrs import PARSERS as SCHEDULE_PARSERS
from npu_opt.hardware.target import Target, resolve_target
from npu_opt.dialects.npu.target_attr import TARGET_ATTR, target_of
from npu_opt.dialects.npu.target_attr import TargetAttr, parse_target_body
from npu_opt.hardware.vela_config import VelaConfig

PERF_ATTRIBUTES = {"block": "BlockAttr", "cost": "CostAttr"}
"""The dialect's attributes defined with the performance model (perf/ir_attrs.py), by name."""


@NPU.attribute("target")
def _parse_target(body: str | None) -> Attribute:
    """``#npu.target<...>``; a TargetError (a ValueError) becomes a parse error at the attribute."""
    return parse_target_body(body)


for _name, _parser in [*PARSERS.items(), *SCHEDULE_PARSERS.items()]:
    NPU.attribute(_name)(_parser)


def _perf_attribute(class_name: str) -> Callable[[str | None], Attribute]:
    """The parser of a performance-model attribute (``#npu.block``, ``#npu.cost``, defined in
    perf/ir_attrs.py): registered with the dialect, importing the model only when one is parsed."""
    def parse(body: str | None) -> Attribute:
        from npu_opt.dialects.npu.perf import ir_attrs
        from npu_opt.ir.type_parser import AttributeSyntaxError
        try:
            return getattr(ir_attrs, class_name).parse(body)
        except ValueError as err:  # ir_attrs reports a malformed body as a ValueError naming it
            raise AttributeSyntaxError(str(err)) from None
    parse.__doc__ = f"Parse the body of a {class_name} (``perf/ir_attrs.py``)."
    return parse


NPU.sections["Scheduled IR"] = inspect.cleandoc(schedule_attrs.__doc__ or "")

for _name, _class in PERF_ATTRIBUTES.items():
    NPU.attribute(_name)(_perf_attribute(_class))

__all__ = [
    "ACCELERATORS", "AcceleratorConfig", "ActivationAttr", "FmAttr", "KernelAttr", "NPU", "NpuComputeOp",
    "NpuOp", "OffsetAttr", "RescaleAttr", "TARGET_ATTR", "Target", "TargetAttr", "TargetError", "VelaConfig",
    "accelerator", "feature_map", "resolve_target", "target_of",
]
