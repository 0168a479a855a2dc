"""The npu dialect: Ethos-U NPU operations and the hardware target they are scheduled for.

- The target: accelerator constants (accelerators.py), Vela-compatible system configs and memory
  modes (vela_config.py), the resolved ``Target`` (target.py) and the ``#npu.target<...>``
  module attribute (target_attr.py).
- The ops (ops_conv.py, ops_pool.py, ops_elementwise.py, ops_memory.py, shared parts in
  ops_common.py): what the NPU executes, as ``npu-legalize`` produces it from the tfl dialect.
- Their attributes (attrs.py): ``#npu.fm`` (format and memory area, a tensor type encoding),
  ``#npu.kernel``, ``#npu.act``, ``#npu.rescale`` and ``#npu.offset``.
- Rescale arithmetic shared by the legalisation and later passes (quant.py).
"""
from __future__ import annotations

from npu_opt.ir.attributes import Attribute

from npu_opt.dialects.npu.accelerators import ACCELERATORS, AcceleratorConfig, accelerator
from npu_opt.dialects.npu.attrs import PARSERS, ActivationAttr, FmAttr, KernelAttr, OffsetAttr, RescaleAttr
from npu_opt.dialects.npu.dialect import NPU
from npu_opt.dialects.npu.errors import TargetError
from npu_opt.dialects.npu.ops_common import NpuComputeOp, NpuOp, feature_map
from npu_opt.dialects.npu.ops_conv import *  # noqa: F401,F403  (registration happens on import)
from npu_opt.dialects.npu.ops_elementwise import *  # noqa: F401,F403
from npu_opt.dialects.npu.ops_memory import *  # noqa: F401,F403
from npu_opt.dialects.npu.ops_pool import *  # noqa: F401,F403
from npu_opt.dialects.npu.target import TARGET_ATTR, Target, resolve_target, target_of
from npu_opt.dialects.npu.target_attr import TargetAttr, parse_target_body
from npu_opt.dialects.npu.vela_config import VelaConfig


@NPU.attribute("target")
def _parse_target(body: str | None) -> Attribute:
    """``#npu.target<...>``; a TargetError (a ValueError) becomes a parse error at the attribute."""
    return parse_target_body(body)


for _name, _parser in PARSERS.items():
    NPU.attribute(_name)(_parser)

__all__ = [
    "ACCELERATORS", "AcceleratorConfig", "ActivationAttr", "FmAttr", "KernelAttr", "NPU", "NpuComputeOp",
    "NpuOp", "OffsetAttr", "RescaleAttr", "TARGET_ATTR", "Target", "TargetAttr", "TargetError", "VelaConfig",
    "accelerator", "feature_map", "resolve_target", "target_of",
]
