"""The NPU operations: convolution (and the vector product of a fully connected layer, a 1x1
convolution to the NPU), depthwise convolution, pooling and elementwise operations.

Each op holds the full value of every register its command reads, in Vela's register order
(``register_writes``); the encoder drops the writes that repeat the register's value.
"""
from __future__ import annotations

from npu_opt.dialects.ethosu.attrs import FeatureMapAttr, ScaleAttr
from npu_opt.dialects.ethosu.dialect import ETHOSU
from npu_opt.dialects.ethosu.interfaces import IssuesCommand
from npu_opt.dialects.ethosu.ops_common import (
    ActC, BlockC, Count, EthosuOp, FmC, KernelC, ScaleC, StreamC,
)
from npu_opt.dialects.ethosu.registers import (
    RegisterReader, Write, activation_writes, block_writes, feature_map_writes, kernel_writes, padding_writes,
    read_activation, read_block, read_feature_map, read_kernel, read_scale, read_stream, scale_write, stream_writes,
)
from npu_opt.hardware.commands.fields import ELEMENTWISE_MODES, POOLING_MODES, RESAMPLINGS, ROUNDINGS, SCALE_MODES
from npu_opt.hardware.commands.words import RawCommand
from npu_opt.hardware.errors import CommandStreamError
from npu_opt.ir.constraints import IntAttrC, StrAttrC, UnitAttrC
from npu_opt.ir.opdef import AttrDef, VerifyError
from npu_opt.ir.traits import HasParent

IFM_SHAPE, OFM_SHAPE = ("depth",), ("height", "width", "depth")
UNARY_MODES = ("abs", "lrelu", "clz")
"""Elementwise modes with one input (no IFM2 registers)."""
BROADCASTS = ("h", "w", "c", "hw", "hc", "wc", "hwc")


def _only_registers(role: str, fm: FeatureMapAttr, shape: tuple[str, ...]) -> None:
    """A feature map gives no size its role has no register for (it would not be encoded)."""
    extra = [name for name in OFM_SHAPE if name not in shape and getattr(fm, name) is not None]
    if extra:
        held = f"only its {', '.join(shape)}" if shape else "no size"
        raise VerifyError(f"the {role} has a {extra[0]}, but the NPU holds {held} for it")


def _scales_fit(scales: dict[str, ScaleAttr | None]) -> None:
    """OFM_SCALE and OPA_SCALE have a shift, OPB_SCALE none: a scale says exactly what its register holds."""
    for name, scale in scales.items():
        if scale is not None and (scale.shift is None) != (name == "opb_scale"):
            raise VerifyError(f"{name} needs its shift (the register has one)" if scale.shift is None
                              else f"{name} has no shift (OPB_SCALE holds none)")


class BlockOp(EthosuOp):
    """An NPU operation over OFM blocks: IFM, OFM, activation, block and rounding registers."""

    ifm = AttrDef(FmC, doc="the input feature map")
    ofm = AttrDef(FmC, doc="the output feature map")
    activation = AttrDef(ActC, doc="the activation and clamp")
    block = AttrDef(BlockC, doc="the OFM block, SHRAM layout and accumulator")
    rounding = AttrDef(StrAttrC(tuple(ROUNDINGS)), doc="the OFM rescale's rounding (OFM_PRECISION)")
    upscale = AttrDef(StrAttrC(tuple(RESAMPLINGS)), doc="the IFM resampling (IFM_UPSCALE)")
    blockdep = AttrDef(Count, doc="blocks of the previous operation this one may overlap (BLOCKDEP)")

    KERNEL = True
    """Whether the op has a kernel (padding and KERNEL_* registers)."""

    def verify_op(self) -> None:
        for role, fm, shape in (("ifm", self.ifm, IFM_SHAPE), ("ofm", self.ofm, OFM_SHAPE)):
            if not fm.is_addressed or any(getattr(fm, name) is None for name in shape):
                raise VerifyError(f"the {role} needs its region, bases, tiles, strides and {', '.join(shape)}")
        _only_registers("ifm", self.ifm, IFM_SHAPE)
        given = self.block.ib2_start is not None
        if given != self.has_ifm2_buffer() and not (given and self.has_ifm2()):
            raise VerifyError("the block's ib2_start is given when IFM2 is a tensor, may be for a scalar IFM2 (as "
                              "Vela's default core writes it), and is not without an IFM2")

    # hooks of the op kinds
    def prologue_writes(self) -> list[Write]:
        return []

    def epilogue_writes(self) -> list[Write]:
        return []

    def stream_writes(self, cores: int) -> list[Write]:
        return []

    def ifm_scale_mode(self) -> str:
        return "opa16_opb16"

    def uses_global_scale(self) -> bool:
        return False

    def has_ifm2_buffer(self) -> bool:
        return False

    def has_ifm2(self) -> bool:
        """An IFM2 of either kind: a tensor or a scalar."""
        return False

    def register_writes(self, cores: int) -> list[Write]:
        writes = self.prologue_writes()
        writes += feature_map_writes("IFM", self.ifm, IFM_SHAPE)
        writes.append(("NPU_SET_IFM_PRECISION", {"precision": self.ifm.dtype, "format": self.ifm.layout,
                                                 "scale_mode": self.ifm_scale_mode()}))
        writes.append(("NPU_SET_IFM_UPSCALE", {"mode": self.upscale}))
        if self.KERNEL:
            writes += padding_writes(self.kernel)
        writes += feature_map_writes("OFM", self.ofm, OFM_SHAPE)
        writes.append(("NPU_SET_OFM_PRECISION", {"precision": self.ofm.dtype, "format": self.ofm.layout,
                                                 "scaling": "global" if self.uses_global_scale() else "per_channel",
                                                 "rounding": self.rounding}))
        if self.KERNEL:
            writes += kernel_writes(self.kernel)
        writes += self.stream_writes(cores)
        writes += activation_writes(self.activation)
        writes += block_writes(self.block)
        writes += self.epilogue_writes()
        return writes + [("NPU_SET_BLOCKDEP", {"value": self.blockdep})]

    @classmethod
    def attributes_from(cls, reader: RegisterReader, command: RawCommand, cores: int) -> dict:
        ifm, ifm_extra = read_feature_map(reader, "IFM", IFM_SHAPE, precision=("precision", "format", "scale_mode"))
        ofm, ofm_extra = read_feature_map(reader, "OFM", OFM_SHAPE,
                                          precision=("precision", "format", "scaling", "rounding"))
        attrs = {"ifm": ifm, "ofm": ofm, "activation": read_activation(reader),
                 "rounding": ofm_extra["rounding"], "upscale": reader.fields("NPU_SET_IFM_UPSCALE", "mode")["mode"],
                 "blockdep": reader.number("NPU_SET_BLOCKDEP")}
        if cls.KERNEL:
            attrs["kernel"] = read_kernel(reader)
        attrs.update(cls.kind_attributes(reader, command, cores, ifm_extra["scale_mode"], ofm_extra["scaling"]))
        # a scalar IFM2 has no input buffer, yet Vela's default core sets IFM2_IB_START before it too
        scalar = attrs.get("ifm2_scalar") is not None
        attrs["block"] = read_block(reader, attrs.get("ifm2") is not None and (
            not scalar or "NPU_SET_IFM2_IB_START" in reader.fresh))
        return attrs

    @classmethod
    def kind_attributes(cls, reader: RegisterReader, command: RawCommand, cores: int, scale_mode: str,
                        scaling: str) -> dict:
        """The attributes of the op kind beyond the common ones."""
        if scale_mode != "opa16_opb16" or scaling != "per_channel":
            raise CommandStreamError(f"at byte offset {command.offset}: {command.command.name} takes IFM scale mode "
                                     f"opa16_opb16 and per-channel OFM scaling, not {scale_mode} and {scaling}")
        return {}


class _ConvOp(BlockOp):
    """A convolution: a kernel and the weight and scale streams the NPU decodes."""

    kernel = AttrDef(KernelC, doc="kernel, strides, dilation, padding, traversal")
    weights = AttrDef(StreamC, doc="the encoded weights (WEIGHT_*)")
    scales = AttrDef(StreamC, doc="the encoded biases and scales (SCALE_*)")

    def stream_writes(self, cores: int) -> list[Write]:
        return stream_writes("WEIGHT", self.weights, cores) + stream_writes("SCALE", self.scales, cores)

    @classmethod
    def kind_attributes(cls, reader: RegisterReader, command: RawCommand, cores: int, scale_mode: str,
                        scaling: str) -> dict:
        super().kind_attributes(reader, command, cores, scale_mode, scaling)
        return {"weights": read_stream(reader, "WEIGHT", cores), "scales": read_stream(reader, "SCALE", cores)}


@ETHOSU.op
class ConvOp(_ConvOp):
    """A 2-D convolution (NPU_OP_CONV); a fully connected layer's vector product is one with a
    1x1 kernel over a 1x1 OFM."""

    OP_NAME = "ethosu.conv2d"
    traits = (IssuesCommand("NPU_OP_CONV"), HasParent("ethosu.program"))


@ETHOSU.op
class DepthwiseOp(_ConvOp):
    """A depthwise convolution (NPU_OP_DEPTHWISE)."""

    OP_NAME = "ethosu.depthwise"
    traits = (IssuesCommand("NPU_OP_DEPTHWISE"), HasParent("ethosu.program"))


@ETHOSU.op
class PoolOp(BlockOp):
    """Max or average pooling, or a reduce-sum (NPU_OP_POOL); an OFM scale makes the rescale
    global instead of per channel."""

    OP_NAME = "ethosu.pool"
    traits = (IssuesCommand("NPU_OP_POOL"), HasParent("ethosu.program"))
    mode = AttrDef(StrAttrC(tuple(POOLING_MODES)), doc="max, average or reduce_sum")
    kernel = AttrDef(KernelC, doc="kernel, strides, padding")
    ofm_scale = AttrDef(ScaleC, optional=True, doc="the global OFM rescale (OFM_SCALE)")

    def verify_op(self) -> None:
        super().verify_op()
        _scales_fit({"ofm_scale": self.ofm_scale})

    def command_fields(self) -> dict:
        return {"mode": self.mode}

    def uses_global_scale(self) -> bool:
        return self.ofm_scale is not None

    def epilogue_writes(self) -> list[Write]:
        return [scale_write("NPU_SET_OFM_SCALE", self.ofm_scale)] if self.ofm_scale is not None else []

    @classmethod
    def kind_attributes(cls, reader: RegisterReader, command: RawCommand, cores: int, scale_mode: str,
                        scaling: str) -> dict:
        super().kind_attributes(reader, command, cores, scale_mode, "per_channel")
        attrs: dict = {"mode": command.word("mode")}
        if scaling == "global":
            attrs["ofm_scale"] = read_scale(reader, "NPU_SET_OFM_SCALE")
        return attrs


@ETHOSU.op
class ElementwiseOp(BlockOp):
    """An elementwise operation (NPU_OP_ELEMENTWISE): unary (abs, lrelu, clz) or binary with a
    tensor IFM2, broadcast along some axes, or a scalar IFM2."""

    OP_NAME = "ethosu.elementwise"
    traits = (IssuesCommand("NPU_OP_ELEMENTWISE"), HasParent("ethosu.program"))
    KERNEL = False
    mode = AttrDef(StrAttrC(tuple(ELEMENTWISE_MODES)), doc="the operation")
    ifm2 = AttrDef(FmC, optional=True, doc="the second input (a binary operation's)")
    ifm2_scalar = AttrDef(IntAttrC(32), optional=True, doc="the quantised scalar IFM2 (IFM2_SCALAR)")
    broadcast = AttrDef(StrAttrC(BROADCASTS), optional=True, doc="IFM2's broadcast axes (IFM2_BROADCAST)")
    reversed_operands = AttrDef(UnitAttrC(), optional=True, doc="IFM2 is the first operand (IFM2_BROADCAST)")
    scale_mode = AttrDef(StrAttrC(tuple(SCALE_MODES)), doc="which operand the 32-bit scale applies to")
    global_scale = AttrDef(UnitAttrC(), optional=True, doc="OFM_PRECISION's global scaling")
    ofm_scale = AttrDef(ScaleC, doc="the OFM rescale (OFM_SCALE)")
    opa_scale = AttrDef(ScaleC, optional=True, doc="operand A's scale (OPA_SCALE), add and sub only")
    opb_scale = AttrDef(ScaleC, optional=True, doc="operand B's scale (OPB_SCALE), add and sub only")

    def verify_op(self) -> None:
        binary = self.mode not in UNARY_MODES
        if binary != (self.ifm2 is not None):
            raise VerifyError(f"mode {self.mode} {'needs' if binary else 'takes no'} ifm2")
        if self.ifm2 is not None:
            _only_registers("ifm2", self.ifm2, ())
        elif self.ifm2_scalar is not None or self.broadcast is not None or self.reversed_operands:
            raise VerifyError("ifm2_scalar, broadcast and reversed_operands describe an ifm2, and there is none")
        if self.ifm2 is not None and self.ifm2.is_addressed == (self.ifm2_scalar is not None):
            raise VerifyError("ifm2 is located (region, bases, tiles, strides) exactly when there is no ifm2_scalar")
        scaled = self.mode in ("add", "sub")
        if scaled != (self.opa_scale is not None) or scaled != (self.opb_scale is not None):
            raise VerifyError(f"opa_scale and opb_scale are given for add and sub only, not for {self.mode}")
        _scales_fit({"ofm_scale": self.ofm_scale, "opa_scale": self.opa_scale, "opb_scale": self.opb_scale})
        super().verify_op()

    def command_fields(self) -> dict:
        return {"mode": self.mode}

    def ifm_scale_mode(self) -> str:
        return self.scale_mode

    def uses_global_scale(self) -> bool:
        return bool(self.global_scale)

    def has_ifm2_buffer(self) -> bool:
        return self.ifm2 is not None and self.ifm2_scalar is None

    def has_ifm2(self) -> bool:
        return self.ifm2 is not None

    def prologue_writes(self) -> list[Write]:
        writes = []
        if self.opa_scale is not None:
            writes += [scale_write("NPU_SET_OPA_SCALE", self.opa_scale),
                       scale_write("NPU_SET_OPB_SCALE", self.opb_scale)]
        return writes + [scale_write("NPU_SET_OFM_SCALE", self.ofm_scale)]

    def epilogue_writes(self) -> list[Write]:
        if self.ifm2 is None:
            return []
        writes = feature_map_writes("IFM2", self.ifm2, ())
        writes.append(("NPU_SET_IFM2_PRECISION", {"precision": self.ifm2.dtype, "format": self.ifm2.layout}))
        axes = self.broadcast or ""
        writes.append(("NPU_SET_IFM2_BROADCAST", {
            "broadcast_height": int("h" in axes), "broadcast_width": int("w" in axes),
            "broadcast_depth": int("c" in axes), "operand_order": int(bool(self.reversed_operands)),
            "broadcast_scalar": int(self.ifm2_scalar is not None)}))
        if self.ifm2_scalar is not None:
            writes.append(("NPU_SET_IFM2_SCALAR", {"value": self.ifm2_scalar}))
        return writes

    @classmethod
    def kind_attributes(cls, reader: RegisterReader, command: RawCommand, cores: int, scale_mode: str,
                        scaling: str) -> dict:
        mode = command.word("mode")
        attrs: dict = {"mode": mode, "scale_mode": scale_mode, "ofm_scale": read_scale(reader, "NPU_SET_OFM_SCALE")}
        if scaling == "global":
            attrs["global_scale"] = True
        if mode in ("add", "sub"):
            attrs["opa_scale"] = read_scale(reader, "NPU_SET_OPA_SCALE")
            attrs["opb_scale"] = read_scale(reader, "NPU_SET_OPB_SCALE")
        if mode in UNARY_MODES:
            return attrs
        bits = reader.fields("NPU_SET_IFM2_BROADCAST", "broadcast_height", "broadcast_width", "broadcast_depth",
                             "operand_order", "broadcast_scalar")
        scalar = bool(bits["broadcast_scalar"])
        attrs["ifm2"], _ = read_feature_map(reader, "IFM2", (), addressed=not scalar)
        if scalar:
            attrs["ifm2_scalar"] = reader.number("NPU_SET_IFM2_SCALAR")
        axes = "".join(axis for axis, name in (("h", "broadcast_height"), ("w", "broadcast_width"),
                                                ("c", "broadcast_depth")) if bits[name])
        if axes:
            attrs["broadcast"] = axes
        if bits["operand_order"]:
            attrs["reversed_operands"] = True
        return attrs


__all__ = ["BlockOp", "ConvOp", "DepthwiseOp", "ElementwiseOp", "PoolOp"]
