"""The weight-codec size model against Vela's own codec, byte for byte
(hardware/codec: weight_encoding.py, mlw_core.c, palette_sections.py, weight_size.py).

Where ethos-u-vela's ``mlw_codec`` extension is importable it is the oracle: ``encode`` for plain
streams, ``reorder_encode`` for OHWI volumes. The pinned numbers were produced with it (Vela
5.2.0), so those tests also run without it."""
from __future__ import annotations

import numpy as np
import pytest

import npu_opt.dialects  # noqa: F401  (registers the dialects)
import npu_opt.passes  # noqa: F401  (registers the passes)
from npu_opt.hardware.accelerators import BlockType, accelerator
from npu_opt.hardware.codec import weight_size
from npu_opt.hardware.codec.weight_encoding import encode_stream as encoded_bytes, encoded_sizes, encoded_size, \
    one_section, palette_sections
from npu_opt.hardware.codec.weight_size import WeightEncoder, encoder_part_kernel

try:
    from ethosu import mlw_codec
except ImportError:  # pragma: no cover - Vela not installed
    mlw_codec = None

needs_codec = pytest.mark.skipif(mlw_codec is None, reason="ethos-u-vela's mlw_codec is not installed")


def codec_bytes(stream: np.ndarray) -> int:
    return len(mlw_codec.encode(np.asarray(stream, np.int16).tolist()))


def streams(seed: int) -> list[np.ndarray]:
    """Weight-like streams: uniform, Gaussian of several widths, sparse, few-valued, constant,
    all-zero, and mixtures whose statistics change along the stream."""
    rng = np.random.default_rng(seed)
    out = []
    for n in (1, 3, 40, 700, 5000, 30000):
        out.append(rng.integers(-127, 128, n))
        for sigma in (1.5, 6, 25):
            out.append(np.clip(np.round(rng.normal(0, sigma, n)), -255, 255))
        out.append(np.where(rng.random(n) < 0.85, 0, rng.integers(-127, 128, n)))
        out.append(rng.choice(rng.integers(-255, 256, 5), n))
        out.append(np.full(n, 77))
        out.append(np.zeros(n))
        out.append(np.concatenate([rng.integers(-3, 4, n // 2), rng.integers(-120, 121, n - n // 2)]))
    return [np.asarray(s, np.int64) for s in out]


@needs_codec
@pytest.mark.parametrize("seed", [1, 2])
def test_sizes_equal_the_codec(seed: int) -> None:
    batch = streams(seed)
    expected = [codec_bytes(s) for s in batch]
    assert encoded_sizes(batch) == expected
    assert [encoded_size(s) for s in batch[:12]] == expected[:12]


@needs_codec
def test_palette_sections_split_low_entropy_streams_like_the_codec() -> None:
    rng = np.random.default_rng(9)
    cases = [
        # A 7x7 average pool as a depthwise convolution: unit weights, 49 of every 52 (padding).
        np.tile(np.r_[np.ones(49, np.int64), np.zeros(3, np.int64)], 1024),
        np.concatenate([rng.choice([-2, 1, 5], 4000), rng.choice([40, -90, 7, 3, 12, 100], 6000),
                        rng.choice([0, 0, 0, 9], 5000)]),
        np.concatenate([rng.integers(-127, 128, 3000), rng.choice([3, -3], 3000), rng.integers(-127, 128, 3000)]),
    ]
    for values in cases:
        assert not one_section(values)
        assert encoded_size(values) == codec_bytes(values)
    assert [len(palette_sections(values)) for values in cases] == [1, 3, 3]
    assert one_section(rng.integers(-127, 128, 10000))
    assert palette_sections(rng.integers(-127, 128, 10000)) == [0]


def test_pinned_sizes() -> None:
    # Numbers from mlw_codec.encode (Vela 5.2.0).
    assert encoded_size(np.zeros(0, np.int64)) == 16
    assert encoded_size(np.zeros(512, np.int64)) == 32
    assert encoded_size((np.arange(256) % 255 - 127)) == 256
    assert encoded_size(np.arange(1000) % 7 - 3) == 384


@needs_codec
def test_streams_decode_to_themselves() -> None:
    # Vela's decoder reads our bytes back: zero runs, palettes (two values: one-bit raw indices) and
    # direct codes, whatever mode each section takes.
    for values in ([0] * 50 + [3, -3, 3], [5, -7] * 20, list(range(-100, 100)), [0] * 7, [9]):
        assert mlw_codec.decode(bytearray(encoded_bytes(np.array(values)))) == values


def test_a_batch_equals_the_streams_one_by_one() -> None:
    batch = streams(3)[::5]
    assert encoded_sizes(batch) == [encoded_size(s) for s in batch]


def structured_7x7(outputs: int = 32, inputs: int = 16) -> np.ndarray:
    """A smooth radial 7x7 pattern per (output, input) channel pair, OHWI."""
    y, x = np.mgrid[0:7, 0:7]
    radius = np.hypot(y - 3, x - 3)
    ohwi = np.zeros((outputs, 7, 7, inputs), np.int64)
    for o in range(outputs):
        for i in range(inputs):
            ohwi[o, :, :, i] = np.round(60 * np.cos(radius * (o % 5 + 1) / 3 + i))
    return ohwi


@pytest.mark.parametrize("dilation, expected", [((1, 1), 22224), ((2, 2), 22416), ((3, 3), 25712),
                                                ((2, 3), 24848)])
def test_dilated_kernel_sizes(dilation: tuple[int, int], expected: int) -> None:
    # A dilated kernel is cut into smaller sub-kernels (8 // dilation), each padded on its own.
    ohwi = structured_7x7()
    hwio = np.transpose(ohwi, (1, 2, 3, 0))
    encoder = WeightEncoder(hwio, accelerator("ethos-u55-128"), BlockType.CONVOLUTION, 8, 16, dilation)
    assert encoder().ranges[0].weight_bytes == expected
    if mlw_codec is not None:
        part_kernel = encoder_part_kernel(BlockType.CONVOLUTION, hwio.shape, 8)
        decoded = mlw_codec.reorder_encode(8, 8, ohwi.astype(np.int16), 16, False, part_kernel, 8,
                                           8 // dilation[1], 8 // dilation[0])
        assert len(decoded[0]) == expected


@needs_codec
@pytest.mark.parametrize("shape, block_depth, block_type, bits", [
    ((64, 3, 3, 32), 16, BlockType.CONVOLUTION, 8), ((48, 1, 1, 100), 32, BlockType.CONVOLUTION, 8),
    ((30, 10, 3, 2), 16, BlockType.CONVOLUTION, 8), ((48, 3, 3, 1), 16, BlockType.DEPTHWISE, 8),
    ((24, 9, 9, 20), 8, BlockType.CONVOLUTION, 16), ((40, 1, 1, 64), 8, BlockType.VECTOR_PRODUCT, 8),
])
def test_reordered_volumes_equal_the_codec(shape, block_depth: int, block_type: BlockType, bits: int) -> None:
    rng = np.random.default_rng(sum(shape))
    ohwi = np.clip(np.round(rng.normal(0, 20, shape)), -127, 127).astype(np.int64)
    hwio = np.transpose(ohwi, (1, 2, 3, 0))
    encoded = WeightEncoder(hwio, accelerator("ethos-u55-128"), block_type, bits, block_depth)()
    part_kernel = encoder_part_kernel(block_type, hwio.shape, bits)
    reference = mlw_codec.reorder_encode(8, 8, ohwi.astype(np.int16), block_depth,
                                         block_type is BlockType.DEPTHWISE, part_kernel, bits, 8, 8)
    assert encoded.ranges[0].weight_bytes == len(reference[0])


@pytest.fixture
def batches(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The sizes of the codec batches the test runs (the codec itself still encodes them)."""
    seen: list[int] = []
    real = weight_size.encoded_sizes

    def counting(streams_) -> list[int]:
        listed = list(streams_)
        seen.append(len(listed))
        return real(listed)
    monkeypatch.setattr(weight_size, "encoded_sizes", counting)
    return seen


def test_encoder_encodes_each_stream_once(batches: list[int]) -> None:
    hwio = np.transpose(structured_7x7(48, 8), (1, 2, 3, 0))
    encoder = WeightEncoder(hwio, accelerator("ethos-u65-512"), BlockType.CONVOLUTION, 8, 16)
    first = encoder((0, 16, 48))
    again = encoder((0, 16, 48))
    encoder((0, 16, 32, 48))
    assert first == again
    # Two cores x two slices in one batch; then only the two new slices (x two cores).
    assert batches == [4, 4]


def _dilated_conv_module(ohwi: np.ndarray) -> str:
    """A 7x7 convolution with dilation 2 on a 16x16x8 input, weights ``ohwi`` (16 outputs)."""
    import json

    dense = json.dumps(ohwi.tolist()).replace(" ", "")
    act, wq, bq = "!quant.uniform<i8:f32, 0.0625>", "!quant.uniform<i8<-127:127>:f32, 0.01>", \
        "!quant.uniform<i32:f32, 0.000625>"
    weights, bias = f"tensor<16x7x7x8x{wq}>", f"tensor<16x{bq}>"
    ifm, ofm = f"tensor<1x16x16x8x{act}>", f"tensor<1x16x16x16x{act}>"
    return (
        'module attributes {npu.target = #npu.target<"ethos-u55-128", system_config = '
        '"Ethos_U55_High_End_Embedded", memory_mode = "Shared_Sram">} {\n'
        f"  func.func @main(%arg0: {ifm}) -> {ofm} {{\n"
        f'    %0 = "tfl.pseudo_qconst"() <{{qtype = {weights}, value = dense<{dense}> : tensor<16x7x7x8xi8>}}>'
        f" : () -> {weights}\n"
        f'    %1 = "tfl.pseudo_qconst"() <{{qtype = {bias}, value = dense<0> : tensor<16xi32>}}> : () -> {bias}\n'
        '    %2 = "tfl.conv_2d"(%arg0, %0, %1) <{dilation_h_factor = 2 : i32, dilation_w_factor = 2 : i32, '
        'fused_activation_function = "NONE", padding = "SAME", stride_h = 1 : i32, stride_w = 1 : i32}> : '
        f"({ifm}, {weights}, {bias}) -> {ofm}\n"
        f"    return %2 : {ofm}\n  }}\n}}\n")


def test_estimate_encodes_a_dilated_kernel_in_dilated_sub_kernels() -> None:
    # The NPU op keeps dilation 2, so its 7x7 kernel is cut into 4x4 sub-kernels: the weight bytes
    # the estimate reads are the codec's size for that cut (5600 B; 5584 B if cut at 8x8).
    from npu_opt.ir.diagnostics import DiagnosticEngine, SourceManager
    from npu_opt.ir.parser import ParseOptions, parse_module
    from npu_opt.ir.pass_manager import PassManager
    from npu_opt.ir.pass_registry import parse_pipeline

    ohwi = structured_7x7(16, 8)
    module = parse_module(_dilated_conv_module(ohwi), "dilated.mlir", ParseOptions(False))
    pipeline = ("npu-legalize,npu-order,npu-format-nhcwb16,npu-place-tensors,npu-select-block-config,"
                "npu-estimate{weight-buffering=false}")
    PassManager(parse_pipeline(pipeline), DiagnosticEngine(SourceManager())).run(module)
    conv = next(op for op in module.walk() if op.name == "npu.conv2d")
    flash_bytes = conv.attr("npu.cost").read[3]
    dilated, undilated = 5600, 5584
    if mlw_codec is not None:
        part_kernel = encoder_part_kernel(BlockType.CONVOLUTION, (7, 7, 8, 16), 8)
        sizes = [len(mlw_codec.reorder_encode(8, 8, ohwi.astype(np.int16), 16, False, part_kernel, 8, cut, cut)[0])
                 for cut in (4, 8)]
        assert sizes == [dilated, undilated]
    weight_reads = flash_bytes - 160  # the 16 channels' scale records are read once
    assert weight_reads % dilated == 0 and weight_reads % undilated != 0


def test_estimate_encodes_all_full_streams_in_one_batch(batches: list[int]) -> None:
    # Two convolutions: the first weight request of the estimate encodes both ops' full-depth
    # streams together (WeightStreams); slicings, if any, come in one more batch per NPU run.
    from npu_opt.ir.diagnostics import DiagnosticEngine, SourceManager
    from npu_opt.ir.parser import ParseOptions, parse_module
    from npu_opt.ir.pass_manager import PassManager
    from npu_opt.ir.pass_registry import parse_pipeline

    act, wq, bq = "!quant.uniform<i8:f32, 0.0625>", "!quant.uniform<i8<-127:127>:f32, 0.01>", \
        "!quant.uniform<i32:f32, 0.000625>"
    rng = np.random.default_rng(4)
    lines = []
    x, depth = "%arg0", 8
    for n, out in enumerate((16, 24)):
        w = rng.integers(-127, 128, (out, 3, 3, depth)).tolist()
        weights, bias = f"tensor<{out}x3x3x{depth}x{wq}>", f"tensor<{out}x{bq}>"
        ifm, ofm = f"tensor<1x8x8x{depth}x{act}>", f"tensor<1x8x8x{out}x{act}>"
        lines += [
            f'%w{n} = "tfl.pseudo_qconst"() <{{qtype = {weights}, value = dense<{w}> : '
            f'tensor<{out}x3x3x{depth}xi8>}}> : () -> {weights}',
            f'%b{n} = "tfl.pseudo_qconst"() <{{qtype = {bias}, value = dense<0> : tensor<{out}xi32>}}> : () -> {bias}',
            f'%y{n} = "tfl.conv_2d"({x}, %w{n}, %b{n}) <{{dilation_h_factor = 1 : i32, dilation_w_factor = 1 : i32, '
            f'fused_activation_function = "NONE", padding = "SAME", stride_h = 1 : i32, stride_w = 1 : i32}}> : '
            f"({ifm}, {weights}, {bias}) -> {ofm}"]
        x, depth = f"%y{n}", out
    text = ('module attributes {npu.target = #npu.target<"ethos-u55-128", system_config = '
            '"Ethos_U55_High_End_Embedded", memory_mode = "Shared_Sram">} {\n'
            f"  func.func @main(%arg0: tensor<1x8x8x8x{act}>) -> tensor<1x8x8x24x{act}> {{\n    "
            + "\n    ".join(lines) + f"\n    return %y1 : tensor<1x8x8x24x{act}>\n  }}\n}}\n")
    module = parse_module(text, "two_convs.mlir", ParseOptions(False))
    PassManager(parse_pipeline("estimate"), DiagnosticEngine(SourceManager())).run(module)
    assert batches[0] == 2
    assert all(op.attr("npu.cost") is not None for op in module.walk() if op.name == "npu.conv2d")
