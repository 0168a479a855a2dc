"""Bad command streams and bad ethosu IR: one error naming the command, the field, the value and
its limit, at the byte offset of the word (decoding) or at the op (encoding); never a truncated
word."""
from __future__ import annotations

import contextlib
import io
import re

import pytest

import npu_opt.dialects  # noqa: F401  (registers the dialects)
import vela_streams
from npu_opt.dialects.ethosu.decode import decode_words
from npu_opt.dialects.ethosu.encode import encode_program
from npu_opt.dialects.ethosu.ops_stream import ProgramOp
from npu_opt.hardware.commands.words import encode
from npu_opt.hardware.errors import CommandStreamError
from npu_opt.ir.diagnostics import DiagnosticEngine, UserError
from npu_opt.ir.parser import parse_module
from npu_opt.ir.printer import print_op
from npu_opt.ir.verifier import verify

STOP = encode("NPU_OP_STOP", mask=0xFFFF)


def conv_words() -> list[int]:
    case = next(c for c in vela_streams.cases() if c.name == "conv3x3")
    with contextlib.redirect_stdout(io.StringIO()):
        return case.words("u55-128")


def replaced(words: list[int], opcode: int, new: int) -> list[int]:
    """``words`` with the (cmd0) word of ``opcode`` replaced by ``new``."""
    index = next(i for i, word in enumerate(words) if word & 0xFFFF == opcode)
    return words[:index] + [new] + words[index + 1:]


def offset_of(words: list[int], opcode: int) -> int:
    return 4 * next(i for i, word in enumerate(words) if word & 0xFFFF == opcode)


def decode_error(words: list[int]) -> str:
    with pytest.raises(CommandStreamError) as caught:
        decode_words(words)
    return str(caught.value)


def test_unknown_opcode_names_its_offset():
    assert decode_error([*encode("NPU_SET_IFM_REGION", value=1), 0x0000_0177, *STOP]) == \
        "at byte offset 4: unknown cmd0 opcode 0x177 (word 0x00000177)"


def test_a_stream_without_a_stop():
    assert decode_error(list(encode("NPU_OP_DMA_WAIT", outstanding=0))) == \
        "the stream ends after 4 bytes without NPU_OP_STOP"


def test_words_after_the_stop():
    assert decode_error([*STOP, *encode("NPU_SET_IFM_REGION", value=1)]) == \
        "at byte offset 4: NPU_SET_IFM_REGION follows NPU_OP_STOP (at byte offset 0)"


def test_a_register_no_op_reads_is_an_error_not_a_loss():
    words = conv_words()
    words = words[:-2] + list(encode("NPU_SET_IFM2_SCALAR", value=3)) + words[-2:]
    assert decode_error(words) == (f"at byte offset {4 * (len(words) - 3)}: NPU_SET_IFM2_SCALAR is not read by the "
                                   f"NPU_OP_CONV that follows (at byte offset {4 * (len(words) - 2)})")
    assert decode_error([*encode("NPU_SET_IFM_REGION", value=1), *STOP]) == \
        "at byte offset 0: NPU_SET_IFM_REGION is not read by the NPU_OP_STOP that follows (at byte offset 4)"


def test_a_register_the_op_needs_but_the_stream_never_set():
    assert decode_error([*encode("NPU_OP_DMA_START", mode=0, channel=0), *STOP]) == \
        "at byte offset 0: NPU_OP_DMA_START reads NPU_SET_DMA0_SRC_REGION, which the stream has not set"


def test_a_register_written_twice_before_one_operation():
    region = list(encode("NPU_SET_DMA0_SRC_REGION", region=1))
    assert decode_error([*region, *region, *STOP]) == \
        "at byte offset 4: NPU_SET_DMA0_SRC_REGION is written twice before one operation (first at byte offset 0)"


def test_parallel_mode_only_opens_a_stream():
    words = [*conv_words()[:-1], *encode("NPU_SET_PARALLEL_MODE", value=0), *STOP]
    assert "NPU_SET_PARALLEL_MODE may only open the stream" in decode_error(words)


def test_a_value_the_enumeration_does_not_name():
    words = conv_words()
    offset = offset_of(words, 0x105)
    bad = replaced(words, 0x105, 0x105 | 7 << 16)
    assert decode_error(bad) == (f"at byte offset {offset}: NPU_SET_IFM_PRECISION: precision = 7 is not a known value "
                                 "(expected one of uint8 = 0, int8 = 1, uint16 = 4, int16 = 5, int32 = 9)")


def test_a_kernel_extent_that_is_no_multiple_of_the_dilation():
    words = conv_words()
    stride = next(word for word in words if word & 0xFFFF == 0x122)
    words = replaced(words, 0x122, stride | 1 << (16 + 4))  # dilation_y = 2 over a 3-high (extent 2) kernel ...
    words = replaced(words, 0x121, 0x121 | 3 << 16)  # ... now 3: no multiple of 2
    assert decode_error(words) == (f"at byte offset {offset_of(words, 0x121)}: NPU_SET_KERNEL_HEIGHT_M1 = 3 is not a "
                                   "multiple of the dilation 2")


def test_a_field_no_attribute_holds_must_be_zero():
    words = conv_words()
    words = replaced(words, 0x105, next(w for w in words if w & 0xFFFF == 0x105) | 1 << (16 + 14))
    assert decode_error(words) == (f"at byte offset {offset_of(words, 0x105)}: NPU_SET_IFM_PRECISION.rounding = 1 is "
                                   "not 0, and the NPU_OP_CONV it precedes has no attribute for it")


def test_waits_come_just_before_the_command():
    words = [*encode("NPU_OP_KERNEL_WAIT", outstanding=0), *encode("NPU_SET_DMA0_SRC_REGION", region=0), *STOP]
    assert decode_error(words) == ("at byte offset 4: NPU_SET_DMA0_SRC_REGION follows a wait; an op's waits come just "
                                   "before its command")
    words = [*encode("NPU_OP_DMA_WAIT", outstanding=0), *encode("NPU_OP_KERNEL_WAIT", outstanding=0), *STOP]
    assert "at byte offset 4: NPU_OP_KERNEL_WAIT is out of place" in decode_error(words)


def test_a_command_without_an_op():
    assert decode_error([*encode("NPU_OP_IRQ", mask=1), *STOP]) == "at byte offset 0: NPU_OP_IRQ has no ethosu op"


# -- encoding ------------------------------------------------------------------------------------
def program_text(words: list[int]) -> str:
    program = decode_words(words)
    return print_op(program)


def encode_error(text: str) -> CommandStreamError:
    module = parse_module(text, "bad.mlir")
    (program,) = [op for op in module.walk() if isinstance(op, ProgramOp)]
    with pytest.raises(CommandStreamError) as caught:
        encode_program(program)
    return caught.value


@pytest.mark.parametrize("old, new, message", [
    ("padding = [1, 1, 1, 1]", "padding = [70000, 1, 1, 1]",
     "NPU_SET_IFM_PAD_TOP: value = 70000 does not fit its 16-bit field (0..65535)"),
    ("stride = 1x1", "stride = 5x1", "NPU_SET_KERNEL_STRIDE: stride_y_msb = 2 does not fit its 1-bit field (0..1)"),
    ("dilation = 1x1", "dilation = 3x1", "NPU_SET_KERNEL_STRIDE: dilation_y = 2 does not fit its 1-bit field (0..1)"),
    ("region = 2, base = 0, length = 1024", "region = 70000, base = 0, length = 1024",
     "NPU_SET_WEIGHT_REGION: value = 70000 does not fit its 16-bit field (0..65535)"),
    ("length = 1024", "length = 1024, base1 = 0, length1 = 0",
     "the weight stream has 2 core range(s), but the program runs on 1 core(s)"),
    ("blockdep = 0 : i32", "blockdep = 65536 : i32",
     "NPU_SET_BLOCKDEP: value = 65536 does not fit its 16-bit field (0..65535)"),
])
def test_a_value_past_its_register_is_an_error_at_the_op(old: str, new: str, message: str):
    text = program_text(conv_words())
    assert old in text
    error = encode_error(text.replace(old, new, 1))
    assert str(error) == f"ethosu.conv2d (op #0 of the program): {message}"
    location = error.diagnostic.location.file_line_col()
    assert (location.file, location.line) == ("bad.mlir", 2)


@pytest.mark.parametrize("old, new, message", [
    ("zero_point = -3", "zero_point = 40000", "#ethosu.fm: zero_point must be at most 32767, not 40000"),
    ("bases = [0, 0, 0, 0]", "bases = [281474976710656, 0, 0, 0]",
     "#ethosu.fm: bases must be at most 281474976710655, not 281474976710656"),
    ("tiles = [8, 0, 8]", "tiles = [8, 65536, 8]", "#ethosu.fm: tiles must be at most 65535, not 65536"),
    ("#ethosu.act<none,", "#ethosu.act<lut8,", "unknown activation function 'lut8'"),
])
def test_an_attribute_past_its_register_does_not_parse(old: str, new: str, message: str):
    text = program_text(conv_words())
    assert old in text
    with pytest.raises(UserError, match=re.escape(message)):
        parse_module(text.replace(old, new, 1), "bad.mlir")


# -- IR the encoder could not give back: refused by the verifier -----------------------------------
@pytest.mark.parametrize("old, new, message", [
    ("depth = 16, zero_point = -3>", "height = 8, depth = 16, zero_point = -3>",
     "the ifm has a height, but the NPU holds only its depth for it"),
])
def test_a_size_without_a_register_is_refused(old: str, new: str, message: str):
    text = program_text(conv_words())
    assert old in text
    stream = io.StringIO()
    assert not verify(parse_module(text.replace(old, new, 1), "bad.mlir"), DiagnosticEngine(stream=stream))
    assert message in stream.getvalue()


def elementwise_text(name: str) -> str:
    case = next(c for c in vela_streams.cases() if c.name == name)
    with contextlib.redirect_stdout(io.StringIO()):
        return program_text(case.words("u55-128"))


@pytest.mark.parametrize("case, old, new, message", [
    ("add", "ofm_scale = #ethosu.scale<", "ofm_scale = #ethosu.scale<7>, x = #ethosu.scale<",
     "ofm_scale needs its shift (the register has one)"),
    ("add", "opb_scale = #ethosu.scale<0>", "opb_scale = #ethosu.scale<0, shift = 1>",
     "opb_scale has no shift (OPB_SCALE holds none)"),
    ("sub_broadcast", "strides = [1, 8, 1], zero_point", "strides = [1, 8, 1], depth = 1, zero_point",
     "the ifm2 has a depth, but the NPU holds no size for it"),
    ("abs", "ib_end = 22, ab_start = 22,", "ib_end = 22, ab_start = 22, ib2_start = 4,",
     "is not without an IFM2"),
    ("abs", "scale_mode", "ifm2 = #ethosu.fm<int8, NHWC>, scale_mode", "mode abs takes no ifm2"),
    ("abs", "scale_mode", "broadcast = \"h\", scale_mode",
     "ifm2_scalar, broadcast and reversed_operands describe an ifm2, and there is none"),
])
def test_elementwise_ir_the_encoder_could_not_give_back(case: str, old: str, new: str, message: str):
    text = elementwise_text(case)
    assert old in text
    stream = io.StringIO()
    assert not verify(parse_module(text.replace(old, new, 1), "bad.mlir"), DiagnosticEngine(stream=stream))
    assert message in stream.getvalue()


def test_a_dma_spells_channel_and_mode_zero_by_leaving_them_out():
    case = next(c for c in vela_streams.cases() if c.name == "dma")
    with contextlib.redirect_stdout(io.StringIO()):
        text = program_text(case.words("u55-128"))
    assert "channel" not in text and "mode" not in text
    stream = io.StringIO()
    bad = text.replace("length = 256 : i64", "length = 256 : i64, mode = 0 : i32")
    assert not verify(parse_module(bad, "bad.mlir"), DiagnosticEngine(stream=stream))
    assert "attribute 'mode' failed to satisfy constraint" in stream.getvalue()
