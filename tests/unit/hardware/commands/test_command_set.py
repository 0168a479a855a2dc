"""The Ethos-U command set as data: opcodes and enumerations agree with Vela 5.2's register
definitions, fields pack within their widths, and bad words are errors naming their offset."""
from __future__ import annotations

import pytest

from ethosu.vela.ethos_u55_regs import ethos_u55_regs as regs
from npu_opt.hardware.commands import fields
from npu_opt.hardware.commands.command_set import BY_OPCODE, COMMANDS
from npu_opt.hardware.commands.words import (
    bytes_from_words, encode, read_commands, words_from_bytes,
)
from npu_opt.hardware.errors import CommandStreamError


def test_every_opcode_is_velas():
    ours = {(command.payload, command.opcode): name for name, command in COMMANDS.items()}
    vela = {(False, item.value): item.name for item in regs.cmd0}
    vela |= {(True, item.value): item.name for item in regs.cmd1}
    assert ours == vela


@pytest.mark.parametrize("ours, theirs", [
    (fields.IFM_DATA_TYPES, {"uint8": regs.ifm_precision.U8, "int8": regs.ifm_precision.S8,
                             "uint16": regs.ifm_precision.U16, "int16": regs.ifm_precision.S16,
                             "int32": regs.ifm_precision.S32}),
    (fields.OFM_DATA_TYPES, {"uint8": regs.ofm_precision.U8, "int8": regs.ofm_precision.S8,
                             "uint16": regs.ofm_precision.U16, "int16": regs.ofm_precision.S16,
                             "int32": regs.ofm_precision.S32}),
    (fields.ROUNDINGS, {name.lower(): item for name, item in regs.rounding.__members__.items()}),
    (fields.POOLING_MODES, {name.lower(): item for name, item in regs.pooling_mode.__members__.items()}),
    (fields.ELEMENTWISE_MODES, {name.lower(): item for name, item in regs.elementwise_mode.__members__.items()}),
    (fields.ACC_FORMATS, {"int32": regs.acc_format.INT_32BIT, "int40": regs.acc_format.INT_40BIT,
                          "fp_s5_10": regs.acc_format.FP_S5_10}),
    (fields.CLIP_RANGES, {"ofm": regs.clip_range.OFM_PRECISION, "uint8": regs.clip_range.FORCE_UINT8,
                          "int8": regs.clip_range.FORCE_INT8, "int16": regs.clip_range.FORCE_INT16}),
    (fields.RESAMPLINGS, {name.lower(): item for name, item in regs.resampling_mode.__members__.items()}),
])
def test_enumerations_are_velas(ours, theirs):
    assert ours == {name: item.value for name, item in theirs.items()}


def test_fields_sit_where_velas_register_structures_put_them():
    """Every named field of Vela's ``npu_*_t`` structures, at the same bits of our command value
    (a structure's parameter starts at bit 16 of the first word, its payload at bit 32)."""
    renamed = {"round_mode": "rounding", "type": "function", "act_clip_range": "clip_range"}
    skipped = {"cmd_code", "must_be_zero", "must_be_zero0", "payload_size", "data", "param", "channel_mode"}
    checked = 0
    for name, command in COMMANDS.items():
        position = 0
        for field_name, _, width in getattr(regs, name.lower() + "_t")._fields_:
            start, position = position, position + width
            if field_name in skipped or field_name.startswith("reserved"):
                continue
            low = start - 16 + (32 if command.payload else 0)
            item = command.field(renamed.get(field_name, field_name))
            assert (item.low, item.width) == (low, width), (name, field_name)
            checked += 1
    assert checked == 30


def test_pack_and_read_back():
    words = encode("NPU_SET_IFM_PRECISION", precision="int16", format="NHCWB16", scale_mode="opb32")
    (raw,) = read_commands(list(words))
    assert raw.command.name == "NPU_SET_IFM_PRECISION"
    assert (raw.word("precision"), raw.word("format"), raw.word("scale_mode")) == ("int16", "NHCWB16", "opb32")
    scale = encode("NPU_SET_OFM_SCALE", scale=0x7FFF_FFFF, shift=31)
    assert scale == (0x4000 | 0x24 | 31 << 16, 0x7FFF_FFFF)
    address = encode("NPU_SET_DMA0_SRC", address=0x12_3456_789A)
    assert address == (0x4030 | 0x12 << 16, 0x3456_789A)
    assert encode("NPU_SET_ACTIVATION_MIN", value=-128) == (0x126 | 0xFF80 << 16,)
    assert next(read_commands([0x126 | 0xFF80 << 16])).field("value") == -128


@pytest.mark.parametrize("name, values, message", [
    ("NPU_SET_IFM_PAD_TOP", {"value": 70000},
     "NPU_SET_IFM_PAD_TOP: value = 70000 does not fit its 16-bit field (0..65535)"),
    ("NPU_SET_ACTIVATION_MAX", {"value": 40000}, "value = 40000 does not fit its 16-bit field (-32768..32767)"),
    ("NPU_SET_IFM_REGION", {"value": -1}, "value = -1 does not fit its 16-bit field (0..65535)"),
    ("NPU_SET_KERNEL_STRIDE", {"dilation_x": 2}, "dilation_x = 2 does not fit its 1-bit field (0..1)"),
    ("NPU_SET_OFM_SCALE", {"scale": 1 << 32}, "scale = 4294967296 does not fit its 32-bit field (0..4294967295)"),
    ("NPU_SET_IFM_PRECISION", {"precision": "int4"}, "precision has no value 'int4'"),
    ("NPU_SET_IFM_PRECISION", {"colour": 1}, "NPU_SET_IFM_PRECISION has no field colour"),
])
def test_values_past_a_field_are_errors(name, values, message):
    with pytest.raises(CommandStreamError, match=message.replace("(", r"\(").replace(")", r"\)")):
        encode(name, **values)


@pytest.mark.parametrize("words, message", [
    ([0x0000_0000, 0x0000_03FF], "at byte offset 4: unknown cmd0 opcode 0x3ff"),
    ([0x0000_4077, 0], "at byte offset 0: unknown cmd1 opcode 0x077"),
    ([0x0000_8000], "at byte offset 0: word 0x00008000 has bits 10-15 = 0x20"),
    ([0x0000_0400], "at byte offset 0: word 0x00000400 has bits 10-15 = 0x1"),
    ([0x0000_4000], "at byte offset 0: NPU_SET_IFM_BASE0 lacks its payload word"),
    ([0x0001_0002], "at byte offset 0: NPU_OP_CONV sets reserved bits 0x1"),
    ([0x0100_4026, 0], "NPU_SET_OPB_SCALE sets reserved bits 0x1000000000"),
])
def test_bad_words_are_located(words, message):
    with pytest.raises(CommandStreamError, match=message.replace("(", r"\(")):
        list(read_commands(words))


def test_bytes_are_whole_little_endian_words():
    assert words_from_bytes(bytes_from_words([0x1234_5678, 1])) == [0x1234_5678, 1]
    assert bytes_from_words([0x0102_0304]) == b"\x04\x03\x02\x01"
    with pytest.raises(CommandStreamError, match="has 6 bytes \\(2 past the last whole word\\)"):
        words_from_bytes(b"\0" * 6)


def test_opcodes_are_unique_and_complete():
    assert len(BY_OPCODE) == len(COMMANDS) == 97
    assert {c.accelerators for c in COMMANDS.values()} == {("u55", "u65"), ("u65",)}
    assert sorted(n for n, c in COMMANDS.items() if c.accelerators == ("u65",)) == [
        "NPU_SET_PARALLEL_MODE", "NPU_SET_SCALE1_BASE", "NPU_SET_SCALE1_LENGTH", "NPU_SET_WEIGHT1_BASE",
        "NPU_SET_WEIGHT1_LENGTH"]
