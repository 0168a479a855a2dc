"""IR -> words -> IR is the identity for programs whose register values are drawn at random
within their registers' ranges (starting from the ops of API-built streams)."""
from __future__ import annotations

import contextlib
import io
import random

import pytest

import npu_opt.dialects  # noqa: F401  (registers the dialects)
import vela_streams
from npu_opt.dialects.ethosu.attrs import ActivationAttr, BlockAttr, FeatureMapAttr, KernelAttr
from npu_opt.dialects.ethosu.decode import decode_words
from npu_opt.dialects.ethosu.encode import encode_program
from npu_opt.dialects.ethosu.ops_common import EthosuOp
from npu_opt.hardware.commands.fields import ACTIVATION_FUNCTIONS, CLIP_RANGES
from npu_opt.ir.attributes import IntegerAttr
from npu_opt.ir.diagnostics import DiagnosticEngine
from npu_opt.ir.printer import print_op
from npu_opt.ir.types import IntegerType
from npu_opt.ir.verifier import verify

U16 = 0xFFFF


def _fm(rng: random.Random, fm: FeatureMapAttr) -> FeatureMapAttr:
    changes: dict = {"zero_point": rng.randint(-(1 << 15), U16 >> 1)}
    if fm.is_addressed:
        changes.update(region=rng.randint(0, 7), bases=[rng.randrange(1 << 48) for _ in range(4)],
                       tiles=[rng.randint(0, U16) for _ in range(3)],
                       strides=[rng.randrange(1 << 40) for _ in range(3)])
    changes.update({name: rng.randint(1, 1 << 16) for name in ("height", "width", "depth")
                    if getattr(fm, name) is not None})
    return fm.replaced(**changes)


def _kernel(rng: random.Random, kernel: KernelAttr) -> KernelAttr:
    dilation = (rng.randint(1, 2), rng.randint(1, 2))
    return KernelAttr((rng.randint(1, 64), rng.randint(1, 64)), (rng.randint(1, 4), rng.randint(1, 4)), dilation,
                      [rng.randint(0, U16) for _ in range(4)], rng.random() < 0.5)


def _block(rng: random.Random, block: BlockAttr) -> BlockAttr:
    return block.replaced(size=tuple(rng.randint(1, 1 << 16) for _ in range(3)), ib_end=rng.randint(0, U16),
                          ab_start=rng.randint(0, U16), acc=rng.choice(["int32", "int40", "fp_s5_10"]),
                          ib2_start=None if block.ib2_start is None else rng.randint(0, U16))


def _activation(rng: random.Random, act: ActivationAttr) -> ActivationAttr:
    return ActivationAttr(rng.choice(list(ACTIVATION_FUNCTIONS)), rng.choice(list(CLIP_RANGES)),
                          rng.randint(-(1 << 15), U16 >> 1), rng.randint(-(1 << 15), U16 >> 1))


def _count(rng: random.Random) -> IntegerAttr:
    return IntegerAttr(rng.randint(0, U16), IntegerType(32))


def randomised(program, rng: random.Random) -> None:
    """Draw new values for the feature maps, kernels, blocks, activations, BLOCKDEP and waits."""
    for op in program.regions[0].blocks[0].ops:
        if not isinstance(op, EthosuOp):
            continue
        props = op.properties
        for name in ("ifm", "ifm2", "ofm"):
            if name in props:
                props[name] = _fm(rng, props[name])
        for name, draw in (("kernel", _kernel), ("block", _block), ("activation", _activation)):
            if name in props:
                props[name] = draw(rng, props[name])
        if "blockdep" in props:
            props["blockdep"] = _count(rng)
        for name in ("kernel_wait", "dma_wait"):
            props.pop(name, None)
            if rng.random() < 0.5:
                props[name] = _count(rng)


CASES = [case for case in vela_streams.cases() if case.name in ("chain", "sub_broadcast", "four_tiles", "lrelu_lut")]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_random_register_values_survive_encoding_and_decoding(case: vela_streams.Case):
    with contextlib.redirect_stdout(io.StringIO()):
        words = case.words("u65-512")
    rng = random.Random(case.name)
    for _ in range(25):
        program = decode_words(words)
        randomised(program, rng)
        stream = io.StringIO()
        assert verify(program, DiagnosticEngine(stream=stream)), stream.getvalue()
        again = decode_words(encode_program(program))
        assert print_op(again) == print_op(program)
