"""Every command of the Ethos-U55 and U65 command streams: opcode, payload and fields.

The facts (opcodes, field positions, enumerations) are those of Vela 5.2's ``ethos_u55_regs`` and
of the values its command-stream generator writes; ``Command.accelerators`` says which NPUs take
a command (the second core's weight and scale registers and the parallel mode are U65 only).
"""
from __future__ import annotations

from dataclasses import dataclass

from npu_opt.hardware.commands.fields import (
    ACC_FORMATS, ACTIVATION_FUNCTIONS, CLIP_RANGES, DMA_STRIDE_MODES, ELEMENTWISE_MODES, IFM_DATA_TYPES, LAYOUTS,
    OFM_DATA_TYPES, OFM_SCALINGS, POOLING_MODES, RESAMPLINGS, ROUNDINGS, SCALE_MODES, Field,
)

BOTH = ("u55", "u65")
U65 = ("u65",)
PAYLOAD_FLAG = 0x4000
"""Bits 14-15 of a command's first word: 0 for cmd0, 1 (one payload word) for cmd1."""
OPCODE_BITS = 10


@dataclass(frozen=True)
class Command:
    """One command: cmd0 (one word, a 16-bit parameter) or cmd1 (a second, 32-bit payload word)."""

    name: str
    opcode: int
    payload: bool
    fields: tuple[Field, ...]
    accelerators: tuple[str, ...] = BOTH

    @property
    def is_operation(self) -> bool:
        """True for NPU_OP_* commands (they act), False for NPU_SET_* (they set a register)."""
        return self.name.startswith("NPU_OP_")

    @property
    def reserved_mask(self) -> int:
        """The bits of the command's value no field covers (they must be zero)."""
        used = 0
        for item in self.fields:
            used |= item.mask
        whole = (1 << 48) - 1 if self.payload else 0xFFFF
        return whole & ~used

    def field(self, name: str) -> Field:
        for item in self.fields:
            if item.name == name:
                return item
        raise KeyError(f"{self.name} has no field {name}")


def _op(name: str, code: int, *fields: Field) -> Command:
    return Command(name, code, False, fields)


def _set(name: str, code: int, *fields: Field, accelerators: tuple[str, ...] = BOTH) -> Command:
    """A cmd0 register; without fields its whole parameter is one unsigned number."""
    return Command(name, code, False, fields or (Field("value", 0, 16),), accelerators)


def _signed(name: str, code: int) -> Command:
    return Command(name, code, False, (Field("value", 0, 16, signed=True),))


def _address(name: str, code: int, accelerators: tuple[str, ...] = BOTH) -> Command:
    """A cmd1 register holding a 48-bit number: the payload word and the parameter above it."""
    return Command(name, code, True, (Field("address", 0, 48),), accelerators)


def _length(name: str, code: int, accelerators: tuple[str, ...] = BOTH) -> Command:
    return Command(name, code, True, (Field("length", 0, 32),), accelerators)


def _scale(name: str, code: int, shift: bool = True) -> Command:
    """A scale register: a 32-bit multiplier in the payload, its shift in the parameter."""
    fields = (Field("scale", 0, 32), Field("shift", 32, 16)) if shift else (Field("scale", 0, 32),)
    return Command(name, code, True, fields)


def _ifm_precision(name: str, code: int, *extra: Field) -> Command:
    """IFM or IFM2 PRECISION: the element type and layout (and IFM's scale mode and rounding)."""
    return _set(name, code, Field("precision", 0, 4, IFM_DATA_TYPES), Field("format", 6, 2, LAYOUTS), *extra)


def _dma_region(name: str, code: int) -> Command:
    return _set(name, code, Field("region", 0, 8), Field("internal", 8, 1),
                Field("stride_mode", 9, 2, DMA_STRIDE_MODES))


def _feature_map(prefix: str, cmd0_base: int, cmd1_base: int, zero_point: int) -> list[Command]:
    """The registers of one feature map, at the offsets IFM, IFM2 and OFM share (but the zero point's)."""
    regs = [_set(f"NPU_SET_{prefix}_REGION", cmd0_base + 0xF),
            _set(f"NPU_SET_{prefix}_WIDTH0_M1", cmd0_base + 0xA), _set(f"NPU_SET_{prefix}_HEIGHT0_M1", cmd0_base + 0xB),
            _set(f"NPU_SET_{prefix}_HEIGHT1_M1", cmd0_base + 0xC), _signed(f"NPU_SET_{prefix}_ZERO_POINT", zero_point)]
    regs += [_address(f"NPU_SET_{prefix}_BASE{i}", cmd1_base + i) for i in range(4)]
    regs += [_address(f"NPU_SET_{prefix}_STRIDE_{axis}", cmd1_base + 4 + i) for i, axis in enumerate("XYC")]
    return regs


_COMMANDS: list[Command] = [
    _op("NPU_OP_STOP", 0x000, Field("mask", 0, 16)),
    _op("NPU_OP_IRQ", 0x001, Field("mask", 0, 16)),
    _op("NPU_OP_CONV", 0x002),
    _op("NPU_OP_DEPTHWISE", 0x003),
    _op("NPU_OP_POOL", 0x005, Field("mode", 0, 16, POOLING_MODES)),
    _op("NPU_OP_ELEMENTWISE", 0x006, Field("mode", 0, 16, ELEMENTWISE_MODES)),
    _op("NPU_OP_DMA_START", 0x010, Field("mode", 0, 4), Field("channel", 4, 12)),
    _op("NPU_OP_DMA_WAIT", 0x011, Field("outstanding", 0, 16)),
    _op("NPU_OP_KERNEL_WAIT", 0x012, Field("outstanding", 0, 16)),
    _op("NPU_OP_PMU_MASK", 0x013, Field("value", 0, 16)),
    _set("NPU_SET_IFM_PAD_TOP", 0x100), _set("NPU_SET_IFM_PAD_LEFT", 0x101),
    _set("NPU_SET_IFM_PAD_RIGHT", 0x102), _set("NPU_SET_IFM_PAD_BOTTOM", 0x103),
    _set("NPU_SET_IFM_DEPTH_M1", 0x104),
    _ifm_precision("NPU_SET_IFM_PRECISION", 0x105, Field("scale_mode", 8, 2, SCALE_MODES),
                   Field("rounding", 14, 2, ROUNDINGS)),
    _set("NPU_SET_IFM_UPSCALE", 0x107, Field("mode", 0, 2, RESAMPLINGS)),
    _set("NPU_SET_IFM_IB_END", 0x10D),
    *_feature_map("IFM", 0x100, 0x000, 0x109),
    _set("NPU_SET_OFM_WIDTH_M1", 0x111), _set("NPU_SET_OFM_HEIGHT_M1", 0x112), _set("NPU_SET_OFM_DEPTH_M1", 0x113),
    _set("NPU_SET_OFM_PRECISION", 0x114, Field("precision", 0, 3, OFM_DATA_TYPES), Field("format", 6, 2, LAYOUTS),
         Field("scaling", 8, 1, OFM_SCALINGS), Field("rounding", 14, 2, ROUNDINGS)),
    _set("NPU_SET_OFM_BLK_WIDTH_M1", 0x115), _set("NPU_SET_OFM_BLK_HEIGHT_M1", 0x116),
    _set("NPU_SET_OFM_BLK_DEPTH_M1", 0x117),
    *_feature_map("OFM", 0x110, 0x010, 0x118),
    _set("NPU_SET_KERNEL_WIDTH_M1", 0x120), _set("NPU_SET_KERNEL_HEIGHT_M1", 0x121),
    _set("NPU_SET_KERNEL_STRIDE", 0x122, Field("stride_x_lsb", 0, 1), Field("stride_y_lsb", 1, 1),
         Field("part_kernel_first", 2, 1), Field("dilation_x", 3, 1), Field("dilation_y", 4, 1),
         Field("stride_x_msb", 6, 1), Field("stride_y_msb", 9, 1)),
    _set("NPU_SET_PARALLEL_MODE", 0x123, accelerators=U65),
    _set("NPU_SET_ACC_FORMAT", 0x124, Field("format", 0, 2, ACC_FORMATS)),
    _set("NPU_SET_ACTIVATION", 0x125, Field("function", 0, 12, ACTIVATION_FUNCTIONS),
         Field("clip_range", 12, 4, CLIP_RANGES)),
    _signed("NPU_SET_ACTIVATION_MIN", 0x126), _signed("NPU_SET_ACTIVATION_MAX", 0x127),
    _set("NPU_SET_WEIGHT_REGION", 0x128), _set("NPU_SET_SCALE_REGION", 0x129),
    _set("NPU_SET_AB_START", 0x12D), _set("NPU_SET_BLOCKDEP", 0x12F),
    _dma_region("NPU_SET_DMA0_SRC_REGION", 0x130), _dma_region("NPU_SET_DMA0_DST_REGION", 0x131),
    _set("NPU_SET_DMA0_SIZE0", 0x132), _set("NPU_SET_DMA0_SIZE1", 0x133),
    _set("NPU_SET_IFM2_BROADCAST", 0x180, Field("broadcast_height", 0, 1), Field("broadcast_width", 1, 1),
         Field("broadcast_depth", 2, 1), Field("operand_order", 6, 1), Field("broadcast_scalar", 7, 1)),
    _signed("NPU_SET_IFM2_SCALAR", 0x181),
    _ifm_precision("NPU_SET_IFM2_PRECISION", 0x185),
    _set("NPU_SET_IFM2_IB_START", 0x18D),
    *_feature_map("IFM2", 0x180, 0x080, 0x189),
    _address("NPU_SET_WEIGHT_BASE", 0x020), _length("NPU_SET_WEIGHT_LENGTH", 0x021),
    _address("NPU_SET_SCALE_BASE", 0x022), _length("NPU_SET_SCALE_LENGTH", 0x023),
    _scale("NPU_SET_OFM_SCALE", 0x024), _scale("NPU_SET_OPA_SCALE", 0x025),
    _scale("NPU_SET_OPB_SCALE", 0x026, shift=False),
    _address("NPU_SET_DMA0_SRC", 0x030), _address("NPU_SET_DMA0_DST", 0x031), _address("NPU_SET_DMA0_LEN", 0x032),
    _address("NPU_SET_DMA0_SKIP0", 0x033), _address("NPU_SET_DMA0_SKIP1", 0x034),
    _address("NPU_SET_WEIGHT1_BASE", 0x090, U65), _length("NPU_SET_WEIGHT1_LENGTH", 0x091, U65),
    _address("NPU_SET_SCALE1_BASE", 0x092, U65), _length("NPU_SET_SCALE1_LENGTH", 0x093, U65),
]

COMMANDS: dict[str, Command] = {command.name: command for command in _COMMANDS}
"""Every command by name."""
BY_OPCODE: dict[tuple[bool, int], Command] = {(command.payload, command.opcode): command for command in _COMMANDS}
"""Every command by (has a payload word, opcode): cmd0 and cmd1 opcodes overlap."""

assert len(COMMANDS) == len(_COMMANDS) == len(BY_OPCODE), "a command name or opcode is declared twice"

__all__ = ["BOTH", "BY_OPCODE", "COMMANDS", "Command", "OPCODE_BITS", "PAYLOAD_FLAG", "U65"]
