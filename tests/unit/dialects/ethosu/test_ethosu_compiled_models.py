"""The command streams inside the .tflite files Vela compiled (tests/data/vela/compiled, as the
container holds them; the tfl importer gives each tfl.ethos_u op its decoded program): the legacy core's decode and encode to the same words; the
default core's, which write the same registers in another order, decode to IR that encodes and
decodes back to itself."""
from __future__ import annotations

from pathlib import Path

import pytest

import npu_opt.dialects  # noqa: F401  (registers the dialects)
from npu_opt.dialects.ethosu.decode import decode_words
from npu_opt.dialects.ethosu.encode import encode_program
from npu_opt.dialects.tfl.ops_ethosu import EthosUOp
from npu_opt.dialects.tfl.tflite.ethosu_reader import read_compiled
from npu_opt.dialects.tfl.tflite.importer import import_tflite
from npu_opt.ir.printer import print_op

COMPILED = Path(__file__).resolve().parents[3] / "data" / "vela" / "compiled"
MODELS = sorted(COMPILED.glob("*.tflite"))


def streams(path: Path) -> list[list[int]]:
    return [npu.command_stream.tolist() for npu in read_compiled(path.read_bytes()).ethos_u()]


@pytest.mark.parametrize("path", MODELS, ids=lambda p: p.stem)
def test_the_importer_gives_each_ethos_u_op_its_decoded_program(path: Path):
    module = import_tflite(path.read_bytes(), path.name)
    ops = [op for op in module.walk() if isinstance(op, EthosUOp)]
    assert [print_op(op.program) for op in ops] == [print_op(decode_words(words)) for words in streams(path)]
    assert all(op.attr("command_stream") is None for op in ops)


def test_there_are_compiled_models_of_both_cores():
    assert {path.name.split(".")[2] for path in MODELS} == {"legacy", "default"}


@pytest.mark.parametrize("path", [p for p in MODELS if ".legacy." in p.name], ids=lambda p: p.stem)
def test_a_legacy_stream_encodes_to_its_own_words(path: Path):
    found = streams(path)
    assert found
    for words in found:
        assert encode_program(decode_words(words)) == words


@pytest.mark.parametrize("path", [p for p in MODELS if ".default." in p.name], ids=lambda p: p.stem)
def test_a_default_core_stream_decodes_to_ir_that_round_trips(path: Path):
    for words in streams(path):
        program = decode_words(words)
        again = encode_program(program)
        assert sorted(again) == sorted(words)  # the same commands and values, in the legacy order
        assert print_op(decode_words(again)) == print_op(program)
