"""Op roles as traits and interfaces: CostedOp kinds, MemoryOnly views, the DMA's memory effects,
constants by ConstantLike, and the op descriptions computed once per pipeline as an analysis."""
from __future__ import annotations

import pytest

import npu_opt.dialects  # noqa: F401  (registers the dialects)
import npu_opt.passes  # noqa: F401  (registers the passes)
from npu_opt.hardware.accelerators import BlockType
from npu_opt.dialects.npu.interfaces import CostedOp, costed
from npu_opt.hardware.op_kind import OpKind
from npu_opt.dialects.npu.ops_common import is_constant
from npu_opt.dialects.npu.perf.ir_adapter import OpDescription, describe_op, is_costed
from npu_opt.dialects.npu.target_attr import target_of
from npu_opt.ir.analysis import AnalysisManager
from npu_opt.ir.diagnostics import DiagnosticEngine, SourceManager
from npu_opt.ir.opdef import Op, iter_ops
from npu_opt.ir.parser import ParseOptions, parse_module
from npu_opt.ir.pass_manager import PassManager
from npu_opt.ir.pass_registry import parse_pipeline
from npu_opt.ir.patterns import is_trivially_dead
from npu_opt.ir.traits import MemoryEffects, MemoryOnly, Pure

MODULE = '''module attributes {npu.target = #npu.target<"ethos-u55-128", system_config =
    "Ethos_U55_High_End_Embedded", memory_mode = "Shared_Sram">} {
  func.func @f(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> {
    %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<16x1x1x16xi8>}> : () -> tensor<16x1x1x16xi8>
    %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}> : () -> tensor<16xi32>
    %0 = "npu.conv2d"(%x, %w, %b) <{kernel = #npu.kernel<1x1>}> : (tensor<1x8x8x16xi8>, tensor<16x1x1x16xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
    %1 = "npu.add"(%0, %x) : (tensor<1x8x8x16xi8>, tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
    %2 = "npu.reshape"(%1) : (tensor<1x8x8x16xi8>) -> tensor<1x64x16xi8>
    %3 = "npu.reshape"(%2) : (tensor<1x64x16xi8>) -> tensor<1x8x8x16xi8>
    %4 = "npu.dma"(%3) : (tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
    return %4 : tensor<1x8x8x16xi8>
  }
}
'''


def parse():
    return parse_module(MODULE, "t.mlir", ParseOptions(False))


def npu_op_classes() -> list[type[Op]]:
    return [cls for cls in iter_ops() if cls.OP_NAME.startswith("npu.")]


def test_every_npu_op_is_either_costed_or_a_view():
    for cls in npu_op_classes():
        interface = cls.trait(CostedOp)
        view = cls.trait(MemoryOnly) is not None
        assert (interface is None) == view, cls.OP_NAME
        if interface is not None:
            assert interface.block_type is interface.kind.block_type
            assert bool(interface.elementwise) == interface.kind.is_elementwise, cls.OP_NAME


def test_kinds_carry_their_block_type_and_look_up_by_name():
    assert OpKind("conv2d") is OpKind.CONV2D and OpKind.CONV2D == "conv2d"
    assert OpKind.DEPTHWISE_CONV2D.block_type is BlockType.DEPTHWISE
    assert OpKind.DMA.block_type is None and OpKind.LUT.block_type is BlockType.POOLING
    assert OpKind.ELEMENTWISE_UNARY.is_elementwise and not OpKind.MAX_POOL.is_elementwise
    with pytest.raises(TypeError, match="elementwise operator"):
        CostedOp(OpKind.ELEMENTWISE_BINARY)
    with pytest.raises(TypeError, match="not 'pow'"):
        CostedOp(OpKind.ELEMENTWISE_BINARY, "pow")
    with pytest.raises(TypeError, match="has no elementwise operator"):
        CostedOp(OpKind.CONV2D, "add")


def test_the_adapter_reads_the_interface():
    module = parse()
    target = target_of(module)
    ops = {op.name: op for op in module.walk()}
    for name in ("npu.conv2d", "npu.add", "npu.dma"):
        desc = describe_op(ops[name], target)
        assert desc is not None and desc.kind is costed(ops[name]).kind, name
    assert describe_op(ops["npu.add"], target).elementwise == "add"
    assert not is_costed(ops["npu.reshape"]) and describe_op(ops["npu.reshape"], target) is None
    assert costed(ops["func.return"]) is None


def test_dma_has_effects_and_is_never_trivially_dead():
    dma = next(cls for cls in npu_op_classes() if cls.OP_NAME == "npu.dma")
    effects = dma.trait(MemoryEffects)
    assert effects is not None and effects.read and effects.write and dma.trait(Pure) is None
    module = parse_module('''func.func @g(%x: tensor<1x8x8x16xi8>) {
  %d = "npu.dma"(%x) : (tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
  %r = "npu.reshape"(%x) : (tensor<1x8x8x16xi8>) -> tensor<1x64x16xi8>
  return
}''', "g.mlir", ParseOptions(False))
    ops = {op.name: op for op in module.walk()}
    assert not is_trivially_dead(ops["npu.dma"])  # unused, but it writes memory
    assert is_trivially_dead(ops["npu.reshape"])  # unused and pure


def test_pure_and_memory_effects_contradict():
    with pytest.raises(TypeError, match="cannot be Pure"):
        type(Op)("_Both", (Op,), {"OP_NAME": "x.both", "traits": (Pure(), MemoryEffects(write=True))})
    with pytest.raises(TypeError, match="read or a write"):
        MemoryEffects()


def test_constants_are_found_by_their_trait():
    module = parse()
    ops = {op.name: op for op in module.walk()}
    conv = ops["npu.conv2d"]
    assert is_constant(conv.operands[1]) and is_constant(conv.operands[2])
    assert not is_constant(conv.operands[0]) and not is_constant(conv.results[0])


def test_op_descriptions_are_computed_once_per_pipeline():
    module = parse()
    manager = AnalysisManager()
    PassManager(parse_pipeline("npu-select-block-config,npu-estimate"), DiagnosticEngine(SourceManager()),
                analyses=manager).run(module)
    costed_ops = [op for op in module.walk() if is_costed(op)]
    assert len(costed_ops) == 3
    # select-block-config described each op and preserves the descriptions; npu-estimate reused them
    assert manager.computed["OpDescription"] == len(costed_ops)
    assert all(op.attr("npu.cost") is not None for op in costed_ops)
    # npu-estimate changed IR (npu.cost) without preserving them: they are gone now
    assert all(manager.cached(OpDescription, op) is None for op in costed_ops)


def test_effects_decide_what_is_trivially_dead():
    from npu_opt.ir.types import I32

    def op_with(traits):
        cls = type(Op)("_Probe", (Op,), {"OP_NAME": "x.probe", "traits": traits})
        return cls.build([], [I32])

    assert is_trivially_dead(op_with((Pure(),)))
    assert is_trivially_dead(op_with((MemoryEffects(read=True),)))  # an unused read can go
    assert not is_trivially_dead(op_with((MemoryEffects(read=True, write=True),)))
    assert not is_trivially_dead(op_with(()))  # unknown effects: kept
