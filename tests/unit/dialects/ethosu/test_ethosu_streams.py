"""Command streams Vela 5.2 made decode to ethosu IR and encode back to the same bytes: the
committed streams of the tests/data models, and streams of operations built with Vela's API
for every accelerator. The decoded IR prints, parses and prints again identically."""
from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

import npu_opt.dialects  # noqa: F401  (registers the dialects)
import vela_streams
from npu_opt.dialects.builtin import ModuleOp
from npu_opt.dialects.ethosu.decode import decode_words
from npu_opt.dialects.ethosu.encode import encode_program
from npu_opt.dialects.ethosu.ops_block import ConvOp, ElementwiseOp, PoolOp
from npu_opt.dialects.ethosu.ops_stream import DmaOp, ProgramOp, StopOp
from npu_opt.hardware.commands.words import words_from_bytes
from npu_opt.ir.core import Block, Region
from npu_opt.ir.diagnostics import DiagnosticEngine
from npu_opt.ir.parser import parse_module
from npu_opt.ir.printer import print_op
from npu_opt.ir.verifier import verify

STREAMS = Path(__file__).resolve().parents[3] / "data" / "ethosu"
COMMITTED = sorted(STREAMS.glob("*/*.bin"))


def printed(program: ProgramOp) -> str:
    block = Block()
    block.append(program)
    return print_op(ModuleOp.build(regions=[Region([block])]))


def check_round_trips(words: list[int]) -> ProgramOp:
    """words -> IR -> words is the identity, and so is IR -> text -> IR -> words -> IR."""
    program = decode_words(words)
    assert encode_program(program) == words
    text = printed(program)
    module = parse_module(text)
    stream = io.StringIO()
    assert verify(module, DiagnosticEngine(stream=stream)), stream.getvalue()
    assert print_op(module) == text
    (parsed,) = [op for op in module.walk() if isinstance(op, ProgramOp)]
    again = encode_program(parsed)
    assert again == words
    assert printed(decode_words(again)) == text
    return program


def test_the_committed_streams_are_all_there():
    assert len(COMMITTED) == 57
    assert {path.parent.name for path in COMMITTED} == {"u55-128", "u65-256", "u65-512"}


@pytest.mark.parametrize("path", COMMITTED, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_vela_model_stream_round_trips(path: Path):
    program = check_round_trips(words_from_bytes(path.read_bytes()))
    ops = list(program.regions[0].blocks[0].ops)
    assert isinstance(ops[-1], StopOp)
    assert (program.parallel_mode is not None) == path.parent.name.startswith("u65")


def _vela_words(case: vela_streams.Case, accelerator: str) -> list[int]:
    with contextlib.redirect_stdout(io.StringIO()):  # (Vela warns of its default config on stdout)
        return case.words(accelerator)


@pytest.mark.parametrize("accelerator", list(vela_streams.ACCELERATORS))
@pytest.mark.parametrize("case", list(vela_streams.cases()), ids=lambda c: c.name)
def test_an_api_built_stream_round_trips(case: vela_streams.Case, accelerator: str):
    check_round_trips(_vela_words(case, accelerator))


def test_decoded_ops_carry_the_registers_meaning():
    case = next(c for c in vela_streams.cases() if c.name == "chain")
    program = decode_words(_vela_words(case, "u65-512"))
    assert program.parallel_mode == 1
    dma, conv, conv1x1, pool, mul, stop = program.regions[0].blocks[0].ops
    assert isinstance(dma, DmaOp) and dma.length == 1184 and dma.dst.region == 1 and dma.dst.address == 0x10000
    assert isinstance(conv, ConvOp)
    assert conv.dma_wait == 0  # its weights come by the DMA
    assert conv.kernel.size == (3, 3) and conv.kernel.padding == (1, 1, 1, 1)
    assert conv.weights.region == 1 and conv.weights.base == 0x10000 and conv.weights.length == 1024
    assert conv.weights.base1 == 0x10000 and conv.weights.length1 == 0  # the second core's, unused
    assert conv.ifm.depth == 16 and (conv.ofm.height, conv.ofm.width, conv.ofm.depth) == (8, 8, 16)
    assert conv.ifm.zero_point == -3 and conv.ofm.zero_point == 5
    assert conv.ofm.strides == (16, 128, 1) and conv.ofm.tiles == (8, 0, 8)
    assert isinstance(pool, PoolOp) and pool.mode == "max" and pool.ofm_scale is None
    assert isinstance(mul, ElementwiseOp) and mul.mode == "mul" and mul.ifm2_scalar is not None
    assert not mul.ifm2.is_addressed and mul.global_scale
    assert isinstance(stop, StopOp) and stop.mask == 0xFFFF


def test_the_encoder_leaves_out_registers_that_keep_their_value():
    """Two identical convolutions: the second one's registers are all elided but BLOCKDEP."""
    case = vela_streams.Case("twice", vela_streams.chain(
        vela_streams.conv((8, 8, 16), (8, 8, 16), (1, 1, 1, 1, 1, 1)),
        vela_streams.conv((8, 8, 16), (8, 8, 16), (1, 1, 1, 1, 1, 1))))
    words = _vela_words(case, "u55-128")
    program = decode_words(words)
    first, second, _ = program.regions[0].blocks[0].ops
    varying = ("blockdep", "kernel_wait")
    assert {k: v for k, v in first.properties.items() if k not in varying} == {
        k: v for k, v in second.properties.items() if k not in varying}
    conv = 0x0002
    op_words = [index for index, word in enumerate(words) if word == conv]
    assert len(op_words) == 2
    between = words[op_words[0] + 1:op_words[1]]
    assert all(word & 0x3FF in (0x12F, 0x012) for word in between)  # BLOCKDEP, KERNEL_WAIT only


def test_the_default_core_sets_the_ifm2_buffer_before_a_scalar_ifm2():
    """Vela's default (C++) core writes IFM2_IB_START before an elementwise op with a scalar IFM2
    (the legacy core does not): the decoder keeps it on that op. The encoder writes registers in
    the legacy core's order, so the stream encodes back to other words that decode the same."""
    from npu_opt.dialects.tfl.tflite.ethosu_reader import read_compiled
    path = STREAMS.parent / "vela" / "simulator" / "wide_batch.u55-128.default.tflite"
    words = [int(w) for w in read_compiled(path.read_bytes()).ethos_u()[0].command_stream]
    program = decode_words(words)
    assert encode_program(program) != words
    assert printed(decode_words(encode_program(program))) == printed(program)
    scalar = [op for op in program.regions[0].blocks[0].ops
              if isinstance(op, ElementwiseOp) and op.ifm2_scalar is not None]
    assert scalar and all(op.block.ib2_start is not None for op in scalar)
