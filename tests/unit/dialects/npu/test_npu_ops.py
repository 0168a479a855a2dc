"""The npu dialect's ops and attributes: parsing and printing of the #npu.* attributes, op
construction from Python, verification, the accessors later passes read (block type, Vela op,
kernel, activation, feature-map format and area), the reshape canonicalisation, and the rescale
arithmetic of dialects/npu/quant.py."""
from __future__ import annotations

import pytest

import npu_opt.dialects  # noqa: F401  (registers the dialects)
from npu_opt.dialects.npu import ActivationAttr, FmAttr, KernelAttr, OffsetAttr, RescaleAttr, resolve_target
from npu_opt.hardware.accelerators import ActivationCycleCase, BlockType
from npu_opt.dialects.npu.attrs import ATTRIBUTES
from npu_opt.dialects.npu.interfaces import CostedOp
from npu_opt.dialects.npu.ops_common import (
    NpuComputeOp, activation_range, element_bits, encoding_of, feature_map, is_constant, quant_of, with_encoding,
)
from npu_opt.dialects.npu.ops_conv import Conv2DOp, DepthwiseConv2DOp, VectorProductOp
from npu_opt.dialects.npu.ops_elementwise import AddOp, LutOp
from npu_opt.dialects.npu.ops_memory import ReshapeOp
from npu_opt.dialects.npu.ops_pool import AvgPoolOp, ReduceSumOp
from npu_opt.dialects.npu.quant import (
    activation_clamp, add_sub_scale, elementwise_mul_scale, pooling_scale, quantise_float32, quantise_scale,
    round_away_zero,
)
from npu_opt.ir.core import Block
from npu_opt.ir.diagnostics import DiagnosticEngine
from npu_opt.ir.opdef import iter_ops
from npu_opt.ir.parser import parse_module
from npu_opt.ir.printer import print_op
from npu_opt.ir.traits import MemoryOnly
from npu_opt.ir.types import F32, I8, I32, IntegerType, QuantUniformType, RankedTensorType
from npu_opt.ir.verifier import verify


def parse(text: str):
    return parse_module(text)


def verify_messages(text: str) -> list[str]:
    """The verifier's error messages for the module in ``text`` (empty when it is valid)."""
    engine = DiagnosticEngine()
    seen: list[str] = []
    engine.handler = lambda d: seen.append(d.message)
    verify(parse(text), engine)
    return seen


# -- attributes --------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "#npu.fm<NHWC>", "#npu.fm<NHCWB16, Sram>", "#npu.fm<NHWC, OffChipFlash>",
    "#npu.kernel<3x3, stride = 2x2, dilation = 1x1, padding = [0, 0, 1, 1]>",
    "#npu.act<relu6, min = -1, max = 11>", "#npu.act<lut, min = -128, max = 127>",
    "#npu.rescale<multiplier = 1073741824, shift = 30>", "#npu.offset<0, 2, 0, 16>",
])
def test_attributes_print_as_parsed(text: str):
    name, _, body = text[len("#npu."):].partition("<")
    attr = PARSERS[name](body[:-1])
    assert str(attr) == text
    assert PARSERS[name](body[:-1]) is attr  # interned


def test_kernel_defaults_and_geometry():
    kernel = KernelAttr.parse("5x3, dilation = 2x1")
    assert str(kernel) == "#npu.kernel<5x3, stride = 1x1, dilation = 2x1, padding = [0, 0, 0, 0]>"
    assert (kernel.dilated_height, kernel.dilated_width, kernel.elements) == (9, 3, 15)
    padded = KernelAttr.get((3, 3), (2, 2), padding=(0, 0, 1, 1))
    assert padded.output_size(8, 8) == (4, 4)
    assert (padded.pad_top, padded.pad_left, padded.pad_bottom, padded.pad_right) == (0, 0, 1, 1)


def test_activation_cycle_columns():
    assert ActivationAttr("lut", -128, 127).cycle_case is ActivationCycleCase.LUT
    assert ActivationAttr("tanh", -128, 127).cycle_case is ActivationCycleCase.LUT
    assert ActivationAttr("relu6", 0, 12).cycle_case is ActivationCycleCase.RELU
    assert ActivationAttr("clip", -5, 5).cycle_case is ActivationCycleCase.NONE
    assert ActivationAttr("none", -128, 127).cycle_case is ActivationCycleCase.NONE


PARSERS = {cls.NAME.partition(".")[2]: cls.parse for cls in ATTRIBUTES}


@pytest.mark.parametrize("name, body, message", [
    ("fm", "NCHW", "unknown format 'NCHW'"),
    ("fm", "NHWC, Flash", "unknown memory area 'Flash'"),
    ("kernel", "3x3, stride = 0x1", "stride must be 2 positive sizes HxW, not [0, 1]"),
    ("kernel", "3x3, padding = [1, 1]", "padding takes 4 values, not [1, 1]"),
    ("kernel", "stride = 1x1", "missing its size"),
    ("act", "relu, min = 5, max = 1", "min 5 is greater than max 1"),
    ("act", "relu, min = 0", "missing field 'max'"),
    ("rescale", "multiplier = 1", "missing field 'shift'"),
    ("offset", "0, -1, 0, 0", "must not be negative"),
])
def test_attribute_errors(name: str, body: str, message: str):
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace(".", r"\.")):
        PARSERS[name](body)


def test_fm_encoding_round_trips_in_tensor_types():
    text = ('func.func @f(%x: tensor<1x4x4x8xi8, #npu.fm<NHCWB16, Sram>>) -> tensor<1x4x4x8xi8, #npu.fm<NHCWB16, Sram>> {\n'
            '  return %x : tensor<1x4x4x8xi8, #npu.fm<NHCWB16, Sram>>\n}\n')
    module = parse(text)
    printed = print_op(module)
    assert "#npu.fm<NHCWB16, Sram>" in printed and print_op(parse(printed)) == printed


# -- ops -----------------------------------------------------------------------------------------
def _t(shape, elem=I8, enc=None) -> RankedTensorType:
    return RankedTensorType(tuple(shape), elem, enc)


def test_every_op_has_docs_block_type_and_vela_name():
    npu_ops = [cls for cls in iter_ops() if cls.OP_NAME.startswith("npu.")]
    assert len(npu_ops) >= 22
    for cls in npu_ops:
        assert (cls.__doc__ or "").strip(), cls.OP_NAME
        assert cls.MEMORY_ONLY or cls.VELA_OP, cls.OP_NAME
        # a view carries MemoryOnly and no CostedOp interface; every other op is costed
        assert cls.MEMORY_ONLY == (cls.trait(CostedOp) is None) == (cls.trait(MemoryOnly) is not None), cls.OP_NAME
        if not cls.MEMORY_ONLY:
            assert cls.BLOCK_TYPE is cls.trait(CostedOp).block_type, cls.OP_NAME
    assert Conv2DOp.BLOCK_TYPE is BlockType.CONVOLUTION and VectorProductOp.BLOCK_TYPE is BlockType.VECTOR_PRODUCT
    assert ReduceSumOp.BLOCK_TYPE is BlockType.REDUCE_SUM and LutOp.VELA_OP == "Add"


def _conv_module(ofm_shape=(1, 4, 4, 8), kernel="3x3, stride = 2x2, padding = [0, 0, 1, 1]") -> str:
    ofm = "x".join(map(str, ofm_shape))
    return f"""
func.func @f(%x: tensor<1x8x8x4xi8>, %w: tensor<8x3x3x4xi8>, %b: tensor<8xi32>) -> tensor<{ofm}xi8> {{
  %0 = "npu.conv2d"(%x, %w, %b) <{{name = "c", kernel = #npu.kernel<{kernel}>}}> : (tensor<1x8x8x4xi8>, tensor<8x3x3x4xi8>, tensor<8xi32>) -> tensor<{ofm}xi8>
  return %0 : tensor<{ofm}xi8>
}}
"""


def test_conv_accessors_and_defaults():
    module = parse(_conv_module())
    conv = next(op for op in module.walk() if op.name == "npu.conv2d")
    assert isinstance(conv, NpuComputeOp)
    assert conv.tensor_name == "c" and conv.attr("name").value == "c"
    assert conv.kernel_attr.stride == (2, 2)
    assert conv.activation_attr() == ActivationAttr("none", -128, 127)
    assert conv.lut_operand() is None
    assert conv.ifm is conv.operands[0] and conv.weights is conv.operands[1] and conv.bias is conv.operands[2]
    assert element_bits(conv.ofm) == 8


def test_conv_window_is_checked():
    assert verify_messages(_conv_module(ofm_shape=(1, 4, 4, 8))) == []
    messages = verify_messages(_conv_module(ofm_shape=(1, 5, 4, 8)))
    assert len(messages) == 1 and "OFM height 5 needs 11 input rows/columns" in messages[0]


def test_build_ops_from_python_and_verify():
    block = Block([_t((1, 4, 4, 8)), _t((1, 1, 1, 8))])
    x, c = block.args
    add = AddOp.build([x, c], [_t((1, 4, 4, 8))], {"name": "a", "activation": ActivationAttr("relu", 0, 127)})
    pool = AvgPoolOp.build([x], [_t((1, 2, 2, 8))], {"kernel": KernelAttr.get((2, 2), (2, 2))})
    view = ReshapeOp.build([x], [_t((1, 128))])
    for op in (add, pool, view):
        block.append(op)
        op.verify_op()
    assert add.attr("activation").kind == "relu"
    assert str(pool.kernel_attr) == "#npu.kernel<2x2, stride = 2x2, dilation = 1x1, padding = [0, 0, 0, 0]>"


def test_feature_map_defaults_follow_the_target():
    module = parse("""
func.func @f(%x: tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8, #npu.fm<NHCWB16>> {
  %w = "tfl.pseudo_const"() <{value = dense<1> : tensor<8x8xi8>}> : () -> tensor<8x8xi8>
  %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<8xi32>}> : () -> tensor<8xi32>
  %0 = "npu.vector_product"(%x, %w, %b) : (tensor<1x4x4x8xi8>, tensor<8x8xi8>, tensor<8xi32>) -> tensor<1x4x4x8xi8, #npu.fm<NHCWB16>>
  return %0 : tensor<1x4x4x8xi8, #npu.fm<NHCWB16>>
}
""")
    fc = next(op for op in module.walk() if op.name == "npu.vector_product")
    shared = resolve_target("ethos-u55-128")  # Shared_Sram: arena in SRAM, constants in (on-chip) flash
    assert feature_map(fc.ifm, shared).area == "Sram" and feature_map(fc.ifm, shared).format == "NHWC"
    assert is_constant(fc.weights) and feature_map(fc.weights, shared).area == shared.permanent_storage_area
    out = feature_map(fc.ofm, shared)
    assert out.is_nhcwb16 and out.area == "Sram"
    dedicated = resolve_target("ethos-u65-256", memory_mode="Dedicated_Sram")
    assert feature_map(fc.ifm, dedicated).area == "Dram"
    assert encoding_of(fc.ofm) == FmAttr("NHCWB16")
    assert with_encoding(fc.ofm.type, FmAttr("NHWC", "Sram")).encoding == FmAttr("NHWC", "Sram")


def test_activation_range_of_32_bit_ofms_is_16_bit():
    assert activation_range(_t((1, 1, 1, 1), I32)) == (-32768, 32767)
    assert activation_range(_t((1, 1, 1, 1), IntegerType(8, "unsigned"))) == (0, 255)


def test_quant_helpers():
    q = QuantUniformType(I8, F32, [0.5], [-3])
    assert quant_of(_t((1,), q)) is q and quant_of(_t((1,))) is None


def test_reshape_chains_fold_under_canonicalize():
    from npu_opt.ir.pass_manager import PassManager
    from npu_opt.ir.pass_registry import parse_pipeline
    module = parse("""
func.func @f(%x: tensor<1x4x4x8xi8>) -> tensor<1x128xi8> {
  %0 = "npu.reshape"(%x) : (tensor<1x4x4x8xi8>) -> tensor<4x4x8xi8>
  %1 = "npu.reshape"(%0) : (tensor<4x4x8xi8>) -> tensor<1x128xi8>
  %2 = "npu.reshape"(%1) : (tensor<1x128xi8>) -> tensor<1x128xi8>
  return %2 : tensor<1x128xi8>
}
""")
    import npu_opt.passes  # noqa: F401  (registers canonicalize)
    PassManager(parse_pipeline("canonicalize"), DiagnosticEngine()).run(module)
    reshapes = [op for op in module.walk() if op.name == "npu.reshape"]
    assert len(reshapes) == 1 and reshapes[0].operands[0].type == _t((1, 4, 4, 8))


# -- rescale arithmetic -------------------------------------------------------------------------
def test_quantise_scale():
    assert quantise_scale(1.0) == (1 << 30, 30)
    assert quantise_scale(0.5) == (1 << 30, 31)
    multiplier, shift = quantise_scale(0.0123)
    assert abs(multiplier / 2 ** shift - 0.0123) < 1e-9
    assert quantise_scale(1e-30) == (0, 16)  # shift beyond 63: unusable


def test_rounding_and_quantisation():
    assert (round_away_zero(2.5), round_away_zero(-2.5), round_away_zero(-2.4)) == (3, -3, -2)
    assert quantise_float32(6.0, 0.5, -1) == 11
    assert quantise_float32(-0.5, 0.5, -1) == -2


def test_pool_and_elementwise_scales():
    assert pooling_scale(1) == ((1 << 31) + 1, 31)  # frexp(0) has exponent 0: (2^31 + 2^0) // 1
    mult, shift = pooling_scale(9)
    assert abs(mult / 2 ** shift - 1 / 9) < 1e-6
    mult, shift = elementwise_mul_scale(0.5, 0.25, 0.125)
    assert mult / 2 ** shift == pytest.approx(1.0)
    in_mult, in_shift, out_mult, out_shift, scaled = add_sub_scale(0.25, 0.5, 0.5, 8)
    assert scaled == 0 and in_mult / 2 ** in_shift == pytest.approx(0.25 * 2 ** 20 / 1.0)


def test_activation_clamp():
    q = QuantUniformType(I8, F32, [0.5], [-1])
    assert activation_clamp("relu", q, (-128, 127)) == (-1, 127)
    assert activation_clamp("relu6", q, (-128, 127)) == (-1, 11)
    assert activation_clamp("relu_n1_to_1", q, (-128, 127)) == (-3, 1)
    assert activation_clamp("none", q, (-128, 127)) == (-128, 127)
    # Vela's average-pool quirk: the bound 0 is quantised (-1), scaled back (-0.5), quantised again
    assert activation_clamp("relu", q, (-128, 127), avgpool_quirk=True) == (-2, 127)
    assert activation_clamp("none", None, (-(1 << 31), (1 << 31) - 1)) == (-32768, 32767)


def test_rescale_attr_bounds():
    with pytest.raises(ValueError, match="multiplier must be at most 4294967295, not 8589934592"):
        RescaleAttr(1 << 33, 0)
    assert OffsetAttr((0, 1, 2, 3)).values == (0, 1, 2, 3) and list(OffsetAttr((1, 2))) == [1, 2]


def test_depthwise_verifier_message():
    text = """
func.func @f(%x: tensor<1x8x8x4xi8>, %w: tensor<1x3x3x8xi8>, %b: tensor<4xi32>) -> tensor<1x6x6x4xi8> {
  %0 = "npu.depthwise_conv2d"(%x, %w, %b) <{kernel = #npu.kernel<3x3>}> : (tensor<1x8x8x4xi8>, tensor<1x3x3x8xi8>, tensor<4xi32>) -> tensor<1x6x6x4xi8>
  return %0 : tensor<1x6x6x4xi8>
}
"""
    assert any("the weights' depth is 8, expected 4" in m for m in verify_messages(text))
    assert DepthwiseConv2DOp.BLOCK_TYPE is BlockType.DEPTHWISE
