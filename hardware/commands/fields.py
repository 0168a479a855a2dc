"""Fields of an Ethos-U command and the named values some of them take.

A command's value is one integer: a cmd0 command's 16-bit parameter, or for a cmd1 command its
32-bit payload word in bits 0-31 and its 16-bit parameter in bits 32-47 (an address then reads as
one 48-bit number). A field is a bit range of that value.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from npu_opt.hardware.errors import CommandStreamError


@dataclass(frozen=True)
class Field:
    """Bits ``low`` .. ``low + width - 1`` of a command's value; ``names`` maps the value's words
    to their codes when the field is an enumeration; ``signed`` fields hold two's complement."""

    name: str
    low: int
    width: int
    names: dict[str, int] = field(default_factory=dict)
    signed: bool = False

    @property
    def mask(self) -> int:
        return ((1 << self.width) - 1) << self.low

    @property
    def limits(self) -> tuple[int, int]:
        """The smallest and largest number the field holds."""
        if self.signed:
            return -(1 << (self.width - 1)), (1 << (self.width - 1)) - 1
        return 0, (1 << self.width) - 1

    def pack(self, value: int | str, command: str) -> int:
        """``value`` (a number, or one of ``names``) in place; CommandStreamError past the limits."""
        if isinstance(value, str):
            if value not in self.names:
                raise CommandStreamError(f"{command}: {self.name} has no value '{value}' "
                                         f"(expected one of {', '.join(self.names)})")
            value = self.names[value]
        low, high = self.limits
        if not low <= value <= high:
            raise CommandStreamError(f"{command}: {self.name} = {value} does not fit its {self.width}-bit field "
                                     f"({low}..{high})")
        return (value & ((1 << self.width) - 1)) << self.low

    def unpack(self, value: int) -> int:
        """The field's number within a command's value (sign-extended when signed)."""
        bits = (value >> self.low) & ((1 << self.width) - 1)
        if self.signed and bits >> (self.width - 1):
            bits -= 1 << self.width
        return bits

    def word(self, code: int, command: str, where: str = "") -> str:
        """The name of code ``code``; CommandStreamError when the enumeration has none."""
        for name, known in self.names.items():
            if known == code:
                return name
        raise CommandStreamError(f"{where}{command}: {self.name} = {code} is not a known value "
                                 f"(expected one of {', '.join(f'{k} = {v}' for k, v in self.names.items())})")


# -- named values (Vela's ethos_u55_regs enumerations and the codes its generator writes) ----------
IFM_DATA_TYPES = {"uint8": 0, "int8": 1, "uint16": 4, "int16": 5, "int32": 9}
"""IFM/IFM2 precision: bit 0 signedness, bits 2-3 the element size (0: 8, 1: 16, 2: 32 bits)."""
OFM_DATA_TYPES = {"uint8": 0, "int8": 1, "uint16": 2, "int16": 3, "int32": 5}
"""OFM precision: bit 0 signedness, bits 1-2 the element size."""
LAYOUTS = {"NHWC": 0, "NHCWB16": 1}
ROUNDINGS = {"tfl": 0, "truncate": 1, "natural": 2}
SCALE_MODES = {"opa16_opb16": 0, "opa32": 1, "opb32": 2}
"""Which elementwise operand gets the 32-bit scale (IFM precision's scale mode)."""
OFM_SCALINGS = {"per_channel": 0, "global": 1}
ACTIVATION_FUNCTIONS = {"none": 0, "tanh": 3, "sigmoid": 4, **{f"lut{i}": 16 + i for i in range(8)}}
"""The activation: none (clamp only), the built-in tanh or sigmoid, or a lookup in LUT slot 0-7."""
CLIP_RANGES = {"ofm": 0, "uint8": 2, "int8": 3, "int16": 5}
ACC_FORMATS = {"int32": 0, "int40": 1, "fp_s5_10": 2}
RESAMPLINGS = {"none": 0, "nearest": 1, "transpose": 2}
ELEMENTWISE_MODES = {"mul": 0, "add": 1, "sub": 2, "min": 3, "max": 4, "lrelu": 5, "abs": 6, "clz": 7, "shr": 8,
                     "shl": 9}
POOLING_MODES = {"max": 0, "average": 1, "reduce_sum": 2}
DMA_STRIDE_MODES = {"d1": 0, "d2": 1, "d3": 2}

__all__ = ["ACC_FORMATS", "ACTIVATION_FUNCTIONS", "CLIP_RANGES", "DMA_STRIDE_MODES", "ELEMENTWISE_MODES", "Field",
           "IFM_DATA_TYPES", "LAYOUTS", "OFM_DATA_TYPES", "OFM_SCALINGS", "POOLING_MODES", "RESAMPLINGS", "ROUNDINGS",
           "SCALE_MODES"]
