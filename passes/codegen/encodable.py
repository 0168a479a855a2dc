"""What a lowered operation's addresses must satisfy to be encoded (docs/codegen_design.md, Bad
input): every address inside the accelerator's address space, feature-map bases and strides
aligned as the NPU reads them. A LoweringError at the npu op names the register, the value and
the limit, before any word is written."""
from __future__ import annotations

from npu_opt.dialects.ethosu.attrs import FeatureMapAttr, MemAttr, StreamAttr
from npu_opt.hardware.accelerators import AcceleratorConfig
from npu_opt.ir.core import Operation
from npu_opt.passes.codegen.weight_bytes import LoweringError

BRICK_BYTES = 16
"""NHCWB16 feature maps are read in 16-byte bricks: their bases and outer strides align to it."""


def _element_bytes(dtype: str) -> int:
    return int(dtype.lstrip("u").removeprefix("int")) // 8


def _check_address(op: Operation, name: str, address: int, accel: AcceleratorConfig) -> None:
    limit = accel.max_address_offset
    if not 0 <= address < limit:
        raise LoweringError(op, f"{name} = {address} cannot be encoded: {accel.name} addresses 0..{limit - 1}")


def _check_feature_map(op: Operation, name: str, fm: FeatureMapAttr, accel: AcceleratorConfig) -> None:
    """The bases within the address space and aligned, the strides multiples of what the layout
    reads (NHCWB16: bricks for the channel and row strides; NHWC: elements)."""
    if fm.bases is None:  # (a scalar IFM2 has no tiles)
        return
    size = _element_bytes(fm.dtype)
    align = BRICK_BYTES if fm.layout == "NHCWB16" else size
    for index, base in enumerate(int(b) for b in fm.bases):
        _check_address(op, f"{name} base{index}", base, accel)
        if base % align:
            raise LoweringError(op, f"{name} base{index} = {base} cannot be encoded: a {fm.layout} feature map "
                                    f"starts on a multiple of {align} bytes")
    strides = list(fm.strides or [])
    checked = {"NHCWB16": ((2, "channel"), (1, "row")), "NHWC": ((1, "row"), (0, "column"))}[fm.layout]
    for index, axis in checked:
        if index < len(strides) and int(strides[index]) % align:
            raise LoweringError(op, f"{name} {axis} stride = {strides[index]} cannot be encoded: a {fm.layout} "
                                    f"stride is a multiple of {align} bytes")


def check_encodable(op: Operation, attrs: dict, accel: AcceleratorConfig) -> None:
    """LoweringError at ``op`` for the first address of the ethosu op ``attrs`` describe that the
    NPU cannot be given: outside the address space, or a misaligned feature map."""
    for name, value in attrs.items():
        if isinstance(value, FeatureMapAttr):
            _check_feature_map(op, name, value, accel)
        elif isinstance(value, MemAttr) and not value.internal:
            _check_address(op, f"{name} address", int(value.address), accel)
        elif isinstance(value, StreamAttr):
            _check_address(op, f"{name} base", int(value.base), accel)
            _check_address(op, f"{name} end", int(value.base) + max(int(value.length) - 1, 0), accel)


__all__ = ["check_encodable"]
