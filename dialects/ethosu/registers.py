"""The register writes of each attribute group, in the order Vela's generator makes them, and
the reading of the same registers back from the state a decoder keeps.

A write is ``(command name, {field: value})``; the encoder packs it and drops it when the
register already holds that value. A ``RegisterReader`` answers for one NPU_OP_* command.
"""
from __future__ import annotations

from typing import Iterable

from npu_opt.dialects.ethosu.attrs import (
    ActivationAttr, BlockAttr, FeatureMapAttr, KernelAttr, MemAttr, ScaleAttr, StreamAttr,
)
from npu_opt.hardware.commands.words import RawCommand
from npu_opt.hardware.errors import CommandStreamError

Write = tuple[str, dict]
"""One register write: the command's name and its field values."""

SHAPE_REGISTERS = {"height": "HEIGHT_M1", "width": "WIDTH_M1", "depth": "DEPTH_M1"}


class RegisterReader:
    """The register state as an NPU_OP_* command finds it; remembers which registers were read."""

    def __init__(self, state: dict[str, RawCommand], op: RawCommand, fresh: frozenset[str] = frozenset()) -> None:
        self.state, self.op = state, op
        self.fresh = fresh
        """The registers written since the previous operation."""
        self.read: set[str] = set()

    def raw(self, name: str) -> RawCommand:
        found = self.state.get(name)
        if found is None:
            raise CommandStreamError(f"at byte offset {self.op.offset}: {self.op.command.name} reads {name}, "
                                     f"which the stream has not set")
        self.read.add(name)
        return found

    def fields(self, name: str, *kept: str) -> dict[str, int | str]:
        """The ``kept`` fields of register ``name`` (enumerations by name); the others must be zero,
        since the op has no attribute to hold them."""
        raw = self.raw(name)
        for item in raw.command.fields:
            if item.name not in kept and item.unpack(raw.value):
                raise CommandStreamError(f"at byte offset {raw.offset}: {name}.{item.name} = {item.unpack(raw.value)} "
                                         f"is not 0, and the {self.op.command.name} it precedes has no attribute "
                                         f"for it")
        return {item.name: raw.word(item.name) if item.names else item.unpack(raw.value)
                for item in raw.command.fields if item.name in kept}

    def number(self, name: str, field: str = "value") -> int:
        return self.raw(name).field(field)


# -- feature maps ---------------------------------------------------------------------------------
def _tile_minus_one(size: int) -> int:
    """A tile size as its _M1 register holds it: an unused tile (size 0) is all ones, as Vela
    writes it (-1 in 16 bits)."""
    return size - 1 if size else 0xFFFF


def feature_map_writes(prefix: str, fm: FeatureMapAttr, shape: Iterable[str]) -> list[Write]:
    """REGION, BASE0-3, HEIGHT0/HEIGHT1/WIDTH0, the shape registers, STRIDE_C/Y/X, ZERO_POINT."""
    writes: list[Write] = []
    if fm.is_addressed:
        writes.append((f"NPU_SET_{prefix}_REGION", {"value": fm.region}))
        writes += [(f"NPU_SET_{prefix}_BASE{i}", {"address": base}) for i, base in enumerate(fm.bases)]
        height0, height1, width0 = fm.tiles
        writes += [(f"NPU_SET_{prefix}_HEIGHT0_M1", {"value": _tile_minus_one(height0)}),
                   (f"NPU_SET_{prefix}_HEIGHT1_M1", {"value": _tile_minus_one(height1)}),
                   (f"NPU_SET_{prefix}_WIDTH0_M1", {"value": _tile_minus_one(width0)})]
    for name in shape:
        size = getattr(fm, name)
        if size is None:
            raise CommandStreamError(f"the {prefix} needs its {name} (the {prefix}_{SHAPE_REGISTERS[name]} register)")
        writes.append((f"NPU_SET_{prefix}_{SHAPE_REGISTERS[name]}", {"value": size - 1}))
    if fm.is_addressed:
        x, y, c = fm.strides
        writes += [(f"NPU_SET_{prefix}_STRIDE_C", {"address": c}), (f"NPU_SET_{prefix}_STRIDE_Y", {"address": y}),
                   (f"NPU_SET_{prefix}_STRIDE_X", {"address": x})]
    writes.append((f"NPU_SET_{prefix}_ZERO_POINT", {"value": fm.zero_point}))
    return writes


def read_feature_map(reader: RegisterReader, prefix: str, shape: Iterable[str], addressed: bool = True,
                     precision: tuple[str, ...] = ("precision", "format")) -> tuple[FeatureMapAttr, dict]:
    """The feature map in the state, and the other fields of its PRECISION register."""
    fields = reader.fields(f"NPU_SET_{prefix}_PRECISION", *precision)
    params: dict = {"dtype": fields.pop("precision"), "layout": fields.pop("format"),
                    "zero_point": reader.number(f"NPU_SET_{prefix}_ZERO_POINT")}
    if addressed:
        params["region"] = reader.number(f"NPU_SET_{prefix}_REGION")
        params["bases"] = [reader.number(f"NPU_SET_{prefix}_BASE{i}", "address") for i in range(4)]
        params["tiles"] = [(reader.number(f"NPU_SET_{prefix}_{name}") + 1) & 0xFFFF
                           for name in ("HEIGHT0_M1", "HEIGHT1_M1", "WIDTH0_M1")]
        params["strides"] = [reader.number(f"NPU_SET_{prefix}_STRIDE_{axis}", "address") for axis in "XYC"]
    for name in shape:
        params[name] = reader.number(f"NPU_SET_{prefix}_{SHAPE_REGISTERS[name]}") + 1
    return FeatureMapAttr.build(**params), fields


# -- kernel, padding ------------------------------------------------------------------------------
def padding_writes(kernel: KernelAttr) -> list[Write]:
    top, left, bottom, right = kernel.padding
    return [("NPU_SET_IFM_PAD_TOP", {"value": top}), ("NPU_SET_IFM_PAD_LEFT", {"value": left}),
            ("NPU_SET_IFM_PAD_BOTTOM", {"value": bottom}), ("NPU_SET_IFM_PAD_RIGHT", {"value": right})]


def kernel_writes(kernel: KernelAttr) -> list[Write]:
    """KERNEL_HEIGHT_M1/WIDTH_M1 (the dilated extent minus one) and KERNEL_STRIDE."""
    (height, width), (stride_y, stride_x), (dilation_y, dilation_x) = kernel.size, kernel.stride, kernel.dilation
    stride = {"stride_x_lsb": (stride_x - 1) & 1, "stride_y_lsb": (stride_y - 1) & 1,
              "stride_x_msb": (stride_x - 1) >> 1, "stride_y_msb": (stride_y - 1) >> 1,
              "dilation_x": dilation_x - 1, "dilation_y": dilation_y - 1,
              "part_kernel_first": int(kernel.part_kernel_first)}
    return [("NPU_SET_KERNEL_HEIGHT_M1", {"value": dilation_y * (height - 1)}),
            ("NPU_SET_KERNEL_WIDTH_M1", {"value": dilation_x * (width - 1)}),
            ("NPU_SET_KERNEL_STRIDE", stride)]


def read_kernel(reader: RegisterReader) -> KernelAttr:
    bits = reader.fields("NPU_SET_KERNEL_STRIDE", "stride_x_lsb", "stride_y_lsb", "stride_x_msb", "stride_y_msb",
                         "dilation_x", "dilation_y", "part_kernel_first")
    dilation = (bits["dilation_y"] + 1, bits["dilation_x"] + 1)
    size = []
    for name, step in (("NPU_SET_KERNEL_HEIGHT_M1", dilation[0]), ("NPU_SET_KERNEL_WIDTH_M1", dilation[1])):
        extent = reader.number(name)
        if extent % step:
            raise CommandStreamError(f"at byte offset {reader.raw(name).offset}: {name} = {extent} is not a "
                                     f"multiple of the dilation {step}")
        size.append(extent // step + 1)
    stride = tuple((bits[f"stride_{axis}_msb"] << 1 | bits[f"stride_{axis}_lsb"]) + 1 for axis in "yx")
    padding = [reader.number(f"NPU_SET_IFM_PAD_{side}") for side in ("TOP", "LEFT", "BOTTOM", "RIGHT")]
    return KernelAttr(tuple(size), stride, dilation, padding, bool(bits["part_kernel_first"]))


# -- weights and scales, activation, block --------------------------------------------------------
def stream_writes(kind: str, stream: StreamAttr, cores: int) -> list[Write]:
    """WEIGHT_REGION/BASE/LENGTH (or SCALE_...), and the second core's on a two-core NPU."""
    if (stream.base1 is not None) != (cores == 2):
        raise CommandStreamError(f"the {kind.lower()} stream has {2 if stream.base1 is not None else 1} core "
                                 f"range(s), but the program runs on {cores} core(s)")
    writes: list[Write] = [(f"NPU_SET_{kind}_REGION", {"value": stream.region}),
                           (f"NPU_SET_{kind}_BASE", {"address": stream.base}),
                           (f"NPU_SET_{kind}_LENGTH", {"length": stream.length})]
    if stream.base1 is not None:
        writes += [(f"NPU_SET_{kind}1_BASE", {"address": stream.base1}),
                   (f"NPU_SET_{kind}1_LENGTH", {"length": stream.length1})]
    return writes


def read_stream(reader: RegisterReader, kind: str, cores: int) -> StreamAttr:
    params = {"region": reader.number(f"NPU_SET_{kind}_REGION"),
              "base": reader.number(f"NPU_SET_{kind}_BASE", "address"),
              "length": reader.number(f"NPU_SET_{kind}_LENGTH", "length")}
    if cores == 2:
        params["base1"] = reader.number(f"NPU_SET_{kind}1_BASE", "address")
        params["length1"] = reader.number(f"NPU_SET_{kind}1_LENGTH", "length")
    return StreamAttr.build(**params)


def activation_writes(act: ActivationAttr) -> list[Write]:
    return [("NPU_SET_ACTIVATION", {"function": act.function, "clip_range": act.clip}),
            ("NPU_SET_ACTIVATION_MIN", {"value": act.min}), ("NPU_SET_ACTIVATION_MAX", {"value": act.max})]


def read_activation(reader: RegisterReader) -> ActivationAttr:
    fields = reader.fields("NPU_SET_ACTIVATION", "function", "clip_range")
    return ActivationAttr(fields["function"], fields["clip_range"], reader.number("NPU_SET_ACTIVATION_MIN"),
                          reader.number("NPU_SET_ACTIVATION_MAX"))


def block_writes(block: BlockAttr) -> list[Write]:
    """OFM_BLK_HEIGHT/WIDTH/DEPTH_M1, then IFM_IB_END, AB_START, IFM2_IB_START and ACC_FORMAT."""
    height, width, depth = block.size
    writes: list[Write] = [("NPU_SET_OFM_BLK_HEIGHT_M1", {"value": height - 1}),
                           ("NPU_SET_OFM_BLK_WIDTH_M1", {"value": width - 1}),
                           ("NPU_SET_OFM_BLK_DEPTH_M1", {"value": depth - 1}),
                           ("NPU_SET_IFM_IB_END", {"value": block.ib_end}),
                           ("NPU_SET_AB_START", {"value": block.ab_start})]
    if block.ib2_start is not None:
        writes.append(("NPU_SET_IFM2_IB_START", {"value": block.ib2_start}))
    return writes + [("NPU_SET_ACC_FORMAT", {"format": block.acc})]


def read_block(reader: RegisterReader, with_ifm2: bool) -> BlockAttr:
    size = tuple(reader.number(f"NPU_SET_OFM_BLK_{axis}_M1") + 1 for axis in ("HEIGHT", "WIDTH", "DEPTH"))
    return BlockAttr(size, reader.number("NPU_SET_IFM_IB_END"), reader.number("NPU_SET_AB_START"),
                     reader.number("NPU_SET_IFM2_IB_START") if with_ifm2 else None,
                     reader.fields("NPU_SET_ACC_FORMAT", "format")["format"])


def scale_write(name: str, scale: ScaleAttr) -> Write:
    fields: dict = {"scale": scale.scale}
    if scale.shift is not None:
        fields["shift"] = scale.shift
    return name, fields


def read_scale(reader: RegisterReader, name: str) -> ScaleAttr:
    raw = reader.raw(name)
    has_shift = any(item.name == "shift" for item in raw.command.fields)
    return ScaleAttr(raw.field("scale"), raw.field("shift") if has_shift else None)


# -- DMA ------------------------------------------------------------------------------------------
def mem_writes(end: str, mem: MemAttr) -> list[Write]:
    """DMA0_SRC_REGION and DMA0_SRC (or DST)."""
    return [(f"NPU_SET_DMA0_{end}_REGION", {"region": mem.region, "internal": int(mem.internal),
                                             "stride_mode": mem.stride_mode}),
            (f"NPU_SET_DMA0_{end}", {"address": mem.address})]


def read_mem(reader: RegisterReader, end: str) -> MemAttr:
    fields = reader.fields(f"NPU_SET_DMA0_{end}_REGION", "region", "internal", "stride_mode")
    return MemAttr(fields["region"], reader.number(f"NPU_SET_DMA0_{end}", "address"), bool(fields["internal"]),
                   fields["stride_mode"])


__all__ = ["RegisterReader", "SHAPE_REGISTERS", "Write", "activation_writes", "block_writes", "feature_map_writes",
           "kernel_writes", "mem_writes", "padding_writes", "read_activation", "read_block", "read_feature_map",
           "read_kernel", "read_mem", "read_scale", "read_stream", "scale_write", "stream_writes"]
