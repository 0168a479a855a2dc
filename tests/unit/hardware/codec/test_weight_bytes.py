"""The weight codec's bytes against Vela 5.2's: ``mlw_codec.encode`` on plain streams,
``api.npu_encode_weights`` on every weighted op of the tests/data models (per depth slice and core,
six accelerators, both block traversals), ``api.npu_encode_bias`` on the scale/bias records
(hardware/codec: weight_encoding.py, mlw_core.c, weight_buffer.py, scale_bias.py)."""
from __future__ import annotations

import numpy as np
import pytest

import npu_opt.passes  # noqa: F401  (registers the passes)
from npu_opt.dialects.npu.perf.ir_adapter import describe_op, is_costed, module_of, op_weights_hwio, target_of
from npu_opt.hardware.accelerators import BlockType, accelerator
from npu_opt.hardware.codec.scale_bias import scale_bias_records
from npu_opt.hardware.codec.weight_buffer import encoded_stream_bytes, stream_ranges, weight_buffer
from npu_opt.hardware.codec.weight_encoding import encode_stream, encoded_size, encoded_sizes
from npu_opt.hardware.codec.weight_size import WeightEncoder
from npu_opt.ir.diagnostics import DiagnosticEngine, SourceManager
from npu_opt.ir.pass_manager import PassManager
from npu_opt.ir.pass_registry import parse_pipeline
from targeted_import import DATA, imported_with_target

vela = pytest.importorskip("ethosu.vela.api", reason="ethos-u-vela is not installed")
from ethosu import mlw_codec  # noqa: E402  (installed with vela)

ACCELERATORS = ("ethos-u55-32", "ethos-u55-64", "ethos-u55-128", "ethos-u55-256", "ethos-u65-256", "ethos-u65-512")


def random_streams(seed: int) -> list[np.ndarray]:
    """Streams of random lengths (0, 1, short, long) and kinds: uniform over the whole range,
    Gaussian, sparse, all-zero, a few distinct values (palettes), and changing statistics."""
    rng = np.random.default_rng(seed)
    out = [np.zeros(0, np.int64), np.array([rng.integers(-255, 256)]), np.array([0])]
    huge = 100_000
    out.append(np.clip(np.round(rng.normal(0, 30, huge)), -255, 255))
    out.append(np.where(rng.random(huge) < 0.9, 0, rng.integers(-255, 256, huge)))
    for n in rng.integers(2, 3000, 6).tolist():
        out.append(rng.integers(-255, 256, n))
        out.append(np.clip(np.round(rng.normal(0, rng.uniform(0.5, 60), n)), -255, 255))
        out.append(np.where(rng.random(n) < rng.uniform(0.5, 0.99), 0, rng.integers(-255, 256, n)))
        out.append(np.zeros(n))
        out.append(rng.choice(rng.integers(-255, 256, rng.integers(1, 40)), n))
        out.append(np.concatenate([rng.choice([1, -1, 2], n // 3), rng.integers(-40, 41, n - n // 3)]))
    return [np.asarray(s, np.int64) for s in out]


@pytest.mark.parametrize("seed", [11, 12])
def test_bytes_equal_the_codec(seed: int) -> None:
    streams = random_streams(seed)
    expected = [mlw_codec.encode(s.tolist()) for s in streams]
    assert [encode_stream(s) for s in streams] == expected
    assert encoded_sizes(streams) == [len(e) for e in expected]


def test_weights_outside_nine_bits_are_refused_as_by_the_codec() -> None:
    for value in (256, -256, 32767, -32768):
        stream = np.array([3, 0, value, 1])
        with pytest.raises(ValueError):
            mlw_codec.encode(stream.tolist())
        with pytest.raises(ValueError, match=f"weight {value} at stream position 2 is outside the codec's range "
                                             "-255..255"):
            encode_stream(stream)
    assert encoded_size(np.full(40, 255)) == len(mlw_codec.encode([255] * 40))


def model_weights() -> list[tuple[str, np.ndarray, BlockType, int, tuple[int, int]]]:
    """Every weighted op of the tests/data models: (name, HWIO weights less the zero point,
    block type, IFM bits, dilation (x, y)), from npu-legalize on a U55-128."""
    found = []
    for path in sorted(DATA.glob("*.tflite")):
        if path.stem == "conv_float":
            continue  # float32: nothing runs on the NPU
        module = imported_with_target(path, "ethos-u55-128")
        PassManager(parse_pipeline("npu-legalize"), DiagnosticEngine(SourceManager())).run(module)
        for op in module.walk():
            hwio = op_weights_hwio(op) if is_costed(op) else None
            if hwio is not None:
                desc = describe_op(op, target_of(module_of(op)))
                found.append((f"{path.stem}:{op.name}", hwio, desc.block_type, desc.ifm.bits,
                              (desc.kernel.dilation_x, desc.kernel.dilation_y)))
    return found


@pytest.fixture(scope="module")
def weights() -> list[tuple[str, np.ndarray, BlockType, int, tuple[int, int]]]:
    return model_weights()


def vela_range(accel_name: str, hwio: np.ndarray, block_type: BlockType, ifm_bits: int, dilation: tuple[int, int],
               block_depth: int, part_kernel: bool, d0: int, d1: int, core: int) -> bytes:
    """Vela's compressed weights of one core's channels of slice [d0, d1)."""
    cores = accelerator(accel_name).cores
    ohwi = np.transpose(hwio, (3, 0, 1, 2))[d0 + core:d1:cores].astype(np.int16)
    core_depth = (block_depth + cores - 1 - core) // cores
    depthwise = block_type is BlockType.DEPTHWISE
    traversal = vela.NpuBlockTraversal.PART_KERNEL_FIRST if part_kernel else vela.NpuBlockTraversal.DEPTH_FIRST
    if dilation[0] in (1, 2) and dilation[1] in (1, 2):
        target = getattr(vela.NpuAccelerator, accel_name.replace("ethos-u", "Ethos_U").replace("-", "_"))
        return bytes(vela.npu_encode_weights(target, ohwi, dilation, ifm_bits, core_depth, depthwise, traversal))
    ublock = accelerator(accel_name)  # the API allows dilation 1 and 2 only: the codec it calls
    return mlw_codec.reorder_encode(ublock.ifm_ublock.depth, ublock.ofm_ublock.depth, ohwi, core_depth, depthwise,
                                    part_kernel, ifm_bits, 8 // dilation[1], 8 // dilation[0])[0]


@pytest.mark.parametrize("accel_name", ACCELERATORS)
def test_model_streams_equal_npu_encode_weights(weights, accel_name: str) -> None:
    accel = accelerator(accel_name)
    compared = 0
    for name, hwio, block_type, ifm_bits, dilation in weights:
        depth = hwio.shape[3]
        slicing = (0, depth) if depth <= 16 else (0, 16, depth)
        for part_kernel in ((False,) if block_type is BlockType.DEPTHWISE else (False, True)):
            block_depth = 16 if part_kernel else 32
            encoder = WeightEncoder(hwio, accel, block_type, ifm_bits, block_depth, dilation, part_kernel=part_kernel)
            ours = encoded_stream_bytes(encoder, slicing)
            ranges = encoder(slicing).ranges
            assert [r.weight_bytes for r in ranges] == [len(b) for b in ours], name
            for (d0, d1, core), stream in zip(encoder.parts(slicing), ours):
                assert stream == vela_range(accel_name, hwio, block_type, ifm_bits, dilation, block_depth,
                                            part_kernel, d0, d1, core), (name, part_kernel, d0, core)
                compared += 1
    assert compared > 100


def test_scale_bias_records_equal_npu_encode_bias() -> None:
    rng = np.random.default_rng(3)
    bias = np.concatenate([[-(1 << 39), (1 << 39) - 1, 0, -1], rng.integers(-(1 << 39), 1 << 39, 60)])
    scale = np.concatenate([[0, (1 << 32) - 1, 1 << 30, 1], rng.integers(0, 1 << 32, 60)])
    shift = np.concatenate([[0, 63, 31, 1], rng.integers(0, 64, 60)])
    expected = b"".join(bytes(vela.npu_encode_bias(np.int64(b), int(m), int(s))) for b, m, s in zip(bias, scale, shift))
    assert scale_bias_records(bias, scale, shift) == expected
    assert scale_bias_records(bias[:3], 1 << 30, 7) == b"".join(
        bytes(vela.npu_encode_bias(np.int64(b), 1 << 30, 7)) for b in bias[:3])
    assert scale_bias_records(np.zeros(0, np.int64), 1, 0) == b""


@pytest.mark.parametrize("bias, scale, shift, message", [
    ([1 << 39], 1, 0, "bias 549755813888 of channel 0 is outside -549755813888..549755813887"),
    ([0, 0], [1, 1 << 32], 0, "multiplier 4294967296 of channel 1 is outside 0..4294967295"),
    ([0], 1, 64, "shift 64 of channel 0 is outside 0..63"),
    ([0, 0, 0], [1, 2], 0, "2 multipliers for 3 channels"),
])
def test_scale_bias_records_name_the_value_out_of_range(bias, scale, shift, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        scale_bias_records(np.asarray(bias), np.asarray(scale), np.asarray(shift))


def test_weight_buffer_is_vela_layout() -> None:
    # Two cores, two slices: per (slice, core) the channels' records padded to 16, then the
    # compressed weights, as Vela's encode_weight_and_scale_tensor lays them out.
    rng = np.random.default_rng(8)
    hwio = rng.integers(-127, 128, (3, 3, 8, 24))
    bias = rng.integers(-(1 << 20), 1 << 20, 24)
    multipliers = rng.integers(1 << 30, 1 << 31, 24)
    shifts = rng.integers(10, 40, 24)
    encoder = WeightEncoder(hwio, accelerator("ethos-u65-512"), BlockType.CONVOLUTION, 8, 16)
    ranges = stream_ranges(encoder, bias, multipliers, shifts, (0, 16, 24))
    expected = b""
    for (d0, d1, core), part in zip(encoder.parts((0, 16, 24)), ranges):
        channels = range(d0 + core, d1, 2)
        records = b"".join(bytes(vela.npu_encode_bias(np.int64(bias[c]), int(multipliers[c]), int(shifts[c])))
                           for c in channels)
        assert (part.core, part.depth_offset, part.scales) == (core, d0, records)
        assert part.weights == vela_range("ethos-u65-512", hwio, BlockType.CONVOLUTION, 8, (1, 1), 16,
                                          encoder.part_kernel, d0, d1, core)
        expected += records + bytes(-len(records) % 16) + part.weights
    assert weight_buffer(ranges) == expected
    assert len(expected) == encoder((0, 16, 24)).total_bytes
    with pytest.raises(ValueError, match="20 biases for an OFM depth of 24"):
        stream_ranges(encoder, bias[:20], multipliers, shifts)


def test_the_extension_refuses_bad_input_by_name() -> None:
    from npu_opt.hardware.codec import mlw_core

    weights = np.array([1, 2, 0, 300], np.int16)
    for entry in (mlw_core.encode_stream, mlw_core.section_starts, mlw_core.one_section):
        with pytest.raises(ValueError, match="weight 300 at stream position 3 is outside the codec's range -255..255"):
            entry(weights)
        with pytest.raises(TypeError, match="the weights must be a contiguous vector of 2-byte signed integers"):
            entry(weights.astype(np.int32))
    with pytest.raises(ValueError, match="no part-kernel-first traversal"):
        WeightEncoder(np.ones((3, 3, 1, 8)), accelerator("ethos-u55-128"), BlockType.DEPTHWISE, 8, 16, part_kernel=True)
