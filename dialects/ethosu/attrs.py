"""Attributes of the ethosu ops, declared (ir/attrdef.py): one per group of registers an NPU
operation sets; their parameters hold register values in the units a reader thinks in (sizes,
not sizes minus one; enumerations by name). docs/command_stream.md lists which register each
parameter becomes."""
from __future__ import annotations

from npu_opt.hardware.commands.fields import (
    ACC_FORMATS, ACTIVATION_FUNCTIONS, CLIP_RANGES, DMA_STRIDE_MODES, IFM_DATA_TYPES, LAYOUTS, OFM_DATA_TYPES,
)
from npu_opt.ir.attr_params import Bool, Dims, Int, List, Word
from npu_opt.ir.attrdef import FLAG, POSITIONAL, AttrDef, Param

DATA_TYPES = tuple(name for name in IFM_DATA_TYPES if name in OFM_DATA_TYPES)
"""Element types of a feature map (the precision registers' codes differ between IFM and OFM)."""
INT16 = Int(-(1 << 15), (1 << 15) - 1)
ADDRESS = Int(0, (1 << 48) - 1)
WORD = Int(0, (1 << 32) - 1)


class FeatureMapAttr(AttrDef):
    """A feature map as the NPU addresses it: its element type and layout, the region holding it,
    the four tile bases, the tiles' heights and first width, the byte strides and the zero point.
    An IFM has only its depth as shape registers, an OFM height, width and depth; a scalar IFM2
    only its type, layout and zero point."""

    NAME = "ethosu.fm"
    dtype = Param(Word(DATA_TYPES, "data type"), POSITIONAL, doc="the element type (PRECISION)")
    layout = Param(Word(tuple(LAYOUTS), "layout"), POSITIONAL, doc="NHWC or NHCWB16 (PRECISION's format)")
    region = Param(Int(0), default=None, doc="the base-pointer region of the addresses (REGION)")
    bases = Param(List(ADDRESS, 4), default=None, doc="byte offsets of tiles 0-3 in the region (BASE0-3)")
    tiles = Param(List(Int(0, 0xFFFF), 3), default=None,
                  doc="[height0, height1, width0]: tile 0's height, tile 1's height (0: unused), tile 0's width")
    strides = Param(List(ADDRESS, 3), default=None, doc="bytes between neighbours along x, y and c (STRIDE_X/Y/C)")
    height = Param(Int(1), default=None, doc="an OFM's height (HEIGHT_M1 + 1)")
    width = Param(Int(1), default=None, doc="an OFM's width (WIDTH_M1 + 1)")
    depth = Param(Int(1), default=None, doc="an IFM's or OFM's depth (DEPTH_M1 + 1)")
    zero_point = Param(INT16, default=0, print_default=True, doc="the zero point (ZERO_POINT)")

    @property
    def is_addressed(self) -> bool:
        """True when the registers locating the feature map (region, bases, tiles, strides) are set."""
        return self.region is not None

    def verify(self) -> None:
        located = [self.region is not None, self.bases is not None, self.tiles is not None, self.strides is not None]
        if any(located) and not all(located):
            raise ValueError("region, bases, tiles and strides are given together or not at all")


class KernelAttr(AttrDef):
    """The kernel's height x width, strides, dilation, the IFM padding (top, left, bottom, right)
    and the weight traversal (part-kernel-first or depth-first)."""

    NAME = "ethosu.kernel"
    size = Param(Dims(2, "HxW"), POSITIONAL, doc="height x width (KERNEL_HEIGHT_M1/WIDTH_M1, undilated)")
    stride = Param(Dims(2, "HxW"), default=(1, 1), print_default=True, doc="the strides (KERNEL_STRIDE)")
    dilation = Param(Dims(2, "HxW"), default=(1, 1), print_default=True, doc="the dilation (KERNEL_STRIDE)")
    padding = Param(List(Int(0), 4), default=(0, 0, 0, 0), print_default=True,
                    doc="[top, left, bottom, right] (IFM_PAD_*)")
    part_kernel_first = Param(Bool(), FLAG, doc="part-kernel-first weight traversal (KERNEL_STRIDE)")


class BlockAttr(AttrDef):
    """The OFM block and the shared-buffer layout and accumulator format chosen for it."""

    NAME = "ethosu.block"
    size = Param(Dims(3, "HxWxD"), POSITIONAL, doc="the OFM block (OFM_BLK_HEIGHT/WIDTH/DEPTH_M1 + 1)")
    ib_end = Param(Int(0), doc="end of the IFM input buffer in SHRAM banks (IFM_IB_END)")
    ab_start = Param(Int(0), doc="start of the accumulator buffer (AB_START)")
    ib2_start = Param(Int(0), default=None, doc="start of the IFM2 input buffer (IFM2_IB_START): with a tensor "
                                                "IFM2, and where Vela's default core sets it, a scalar one")
    acc = Param(Word(tuple(ACC_FORMATS), "accumulator format"), default="int32", print_default=True,
                doc="the accumulator format (ACC_FORMAT)")


class ActivationAttr(AttrDef):
    """The activation function (none, tanh, sigmoid or a lookup in LUT slot 0-7), the range it
    clips to and the clamp in OFM units."""

    NAME = "ethosu.act"
    function = Param(Word(tuple(ACTIVATION_FUNCTIONS), "activation function"), POSITIONAL,
                     doc="the function (ACTIVATION)")
    clip = Param(Word(tuple(CLIP_RANGES), "clip range"), default="ofm", doc="the range clipped to (ACTIVATION)")
    min = Param(INT16, doc="the clamp's lower end (ACTIVATION_MIN)")
    max = Param(INT16, doc="the clamp's upper end (ACTIVATION_MAX)")


class ScaleAttr(AttrDef):
    """A 32-bit rescale multiplier and its right shift (OFM_SCALE, OPA_SCALE; OPB_SCALE has no shift)."""

    NAME = "ethosu.scale"
    scale = Param(WORD, POSITIONAL, doc="the multiplier")
    shift = Param(Int(0, (1 << 16) - 1), default=None, doc="the right shift")


class StreamAttr(AttrDef):
    """An encoded weight or scale stream: its region, and per core the byte offset and length
    (the second core's only on a two-core U65)."""

    NAME = "ethosu.stream"
    region = Param(Int(0), doc="the base-pointer region (WEIGHT_REGION or SCALE_REGION)")
    base = Param(ADDRESS, doc="byte offset of core 0's stream (WEIGHT_BASE or SCALE_BASE)")
    length = Param(WORD, doc="bytes of core 0's stream (WEIGHT_LENGTH or SCALE_LENGTH)")
    base1 = Param(ADDRESS, default=None, group="core1", doc="core 1's offset (WEIGHT1_BASE or SCALE1_BASE)")
    length1 = Param(WORD, default=None, group="core1", doc="core 1's length (WEIGHT1_LENGTH or SCALE1_LENGTH)")

    def verify(self) -> None:
        if (self.base1 is None) != (self.length1 is None):
            raise ValueError("base1 and length1 are given together or not at all")


class MemAttr(AttrDef):
    """One end of a DMA transfer: region and byte address, whether the region is the NPU's
    internal memory (the LUT in SHRAM), and the stride mode."""

    NAME = "ethosu.mem"
    region = Param(Int(0), doc="the base-pointer region (DMA0_SRC/DST_REGION)")
    address = Param(ADDRESS, doc="the byte address in the region (DMA0_SRC/DST)")
    internal = Param(Bool(), FLAG, doc="the region is internal memory (SHRAM)")
    stride_mode = Param(Word(tuple(DMA_STRIDE_MODES), "stride mode"), default="d1", doc="1-D, 2-D or 3-D transfer")


ATTRIBUTES = (FeatureMapAttr, KernelAttr, BlockAttr, ActivationAttr, ScaleAttr, StreamAttr, MemAttr)
"""The declared attributes of the ethosu dialect."""

__all__ = ["ATTRIBUTES", "ActivationAttr", "BlockAttr", "DATA_TYPES", "FeatureMapAttr", "KernelAttr", "MemAttr",
           "ScaleAttr", "StreamAttr"]
