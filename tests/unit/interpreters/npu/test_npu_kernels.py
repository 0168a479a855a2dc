"""The npu ops' interpreter kernels (interpreters/npu): the NPU's rounding modes, MAC, pooling,
elementwise, table and memory kernels on small cases worked out by hand or by direct loops, the
stripe keywords the scheduled executor uses, and legalised tests/data models against
ai-edge-litert within the per-op bounds docs/npu_arithmetic.md records."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

import npu_opt.dialects  # noqa: F401 - registers the dialects
from npu_opt.interpreters.npu.arith import rescale
from npu_opt.interpreters.npu.windows import ifm_rows_needed
from npu_opt.ir.interpreter import InterpretError, kernel_for, run_function
from npu_opt.ir.parser import parse_module
from tflite_arith import tflite_rescale


def _module(signature: str, body: str, results: str):
    text = f"func.func @main({signature}) -> ({results}) {{\n{body}\n}}\n"
    return parse_module(text, "case.mlir")


def _op(module, name: str):
    return next(op for op in module.walk() if op.name == name)


# ---------------------------------------------------------------------------------------------
# Rounding
def test_rounding_modes_on_ties_and_the_double_rounding_of_tflite():
    ties = np.array([5, -5])  # x 2^30 / 2^31 = +-2.5
    assert rescale(ties, 1 << 30, 31, "tflite").tolist() == [3, -2]
    assert rescale(ties, 1 << 30, 31, "half_up").tolist() == [3, -2]
    assert rescale(ties, 1 << 30, 31, "to_zero").tolist() == [2, -2]
    assert rescale(ties, 1 << 30, 31, "away_zero").tolist() == [3, -3]
    # 5 / 4 = 1.25: TFLite first rounds 5 x 2^30 / 2^31 = 2.5 to 3, then 3 / 2 = 1.5 away to 2
    assert rescale(np.array([5]), 1 << 30, 32, "tflite").tolist() == [2]
    assert rescale(np.array([5]), 1 << 30, 32, "half_up").tolist() == [1]
    # a left shift (negative shift) and an exact product beyond 64 bits
    assert rescale(np.array([3]), 1, -4, "tflite").tolist() == [48]
    assert rescale(np.array([1 << 40]), (1 << 31) - 1, 40, "half_up").tolist() == [(1 << 31) - 1]


# ---------------------------------------------------------------------------------------------
# MAC operations against direct loops
def test_conv2d_with_zero_points_padding_stride_and_per_channel_scales_matches_loops():
    rng = np.random.default_rng(3)
    x = rng.integers(-128, 128, (1, 5, 6, 3))
    w = rng.integers(-127, 128, (2, 3, 3, 3))
    b = np.array([100, -250])
    module = _module(
        "%x: tensor<1x5x6x3x!quant.uniform<i8:f32, 0.5:-3>>, "
        "%w: tensor<2x3x3x3x!quant.uniform<i8:f32:0, {0.01,0.03}>>, %b: tensor<2xi32>",
        '  %0 = "npu.conv2d"(%x, %w, %b) <{kernel = #npu.kernel<3x3, stride = 2x2, dilation = 1x1, '
        'padding = [1, 1, 1, 1]>}> : (tensor<1x5x6x3x!quant.uniform<i8:f32, 0.5:-3>>, '
        'tensor<2x3x3x3x!quant.uniform<i8:f32:0, {0.01,0.03}>>, tensor<2xi32>) -> '
        'tensor<1x3x3x2x!quant.uniform<i8:f32, 0.25:5>>\n'
        '  func.return %0 : tensor<1x3x3x2x!quant.uniform<i8:f32, 0.25:5>>',
        "tensor<1x3x3x2x!quant.uniform<i8:f32, 0.25:5>>")
    ours = run_function(module, [x, w, b])[0]
    from npu_opt.dialects.npu.quant import quantise_scale
    expected = np.zeros((1, 3, 3, 2), dtype=np.int64)
    for oy, ox, o in itertools.product(range(3), range(3), range(2)):
        acc = int(b[o])
        for ky, kx, c in itertools.product(range(3), range(3), range(3)):
            iy, ix = oy * 2 + ky - 1, ox * 2 + kx - 1
            if 0 <= iy < 5 and 0 <= ix < 6:
                acc += (int(x[0, iy, ix, c]) + 3) * int(w[o, ky, kx, c])
        multiplier, shift = quantise_scale(0.5 * (0.01, 0.03)[o] / 0.25)
        expected[0, oy, ox, o] = min(max(tflite_rescale(acc, multiplier, shift) + 5, -128), 127)
    assert ours.dtype == np.int8
    assert ours.tolist() == expected.tolist()


def test_transpose_conv2d_equals_the_scatter_form():
    rng = np.random.default_rng(5)
    x = rng.integers(-20, 20, (1, 2, 3, 2))
    w = rng.integers(-20, 20, (1, 3, 3, 2))
    module = _module(
        "%x: tensor<1x2x3x2xi8>, %w: tensor<1x3x3x2xi8>, %b: tensor<1xi32>",
        '  %0 = "npu.transpose_conv2d"(%x, %w, %b) <{kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, '
        'padding = [2, 2, 0, 0]>, resampling = "transpose", rescale = #npu.rescale<multiplier = 1, shift = 0>}> : '
        '(tensor<1x2x3x2xi8>, tensor<1x3x3x2xi8>, tensor<1xi32>) -> tensor<1x4x6x1xi32>\n'
        '  func.return %0 : tensor<1x4x6x1xi32>', "tensor<1x4x6x1xi32>")
    ours = run_function(module, [x, w, [0]])[0]
    # TFLite's transpose convolution: each input pixel scatters the kernel at (2i, 2j), SAME padding
    # of an OFM twice the IFM removes nothing at the top/left
    full = np.zeros((1, 5, 7, 1), dtype=np.int64)
    for i, j in itertools.product(range(2), range(3)):
        for ky, kx in itertools.product(range(3), range(3)):
            full[0, 2 * i + ky, 2 * j + kx, 0] += int(np.dot(x[0, i, j], w[0, ky, kx]))
    assert ours[..., 0].tolist() == full[:, :4, :6, 0].tolist()


def test_depthwise_and_vector_product():
    x = np.arange(1, 10).reshape(1, 3, 3, 1) * np.array([1, -1])  # 2 channels
    module = _module(
        "%x: tensor<1x3x3x2xi8>, %w: tensor<1x2x2x2xi8>, %b: tensor<2xi32>",
        '  %0 = "npu.depthwise_conv2d"(%x, %w, %b) <{kernel = #npu.kernel<2x2, stride = 1x1, dilation = 1x1, '
        'padding = [0, 0, 0, 0]>, rescale = #npu.rescale<multiplier = 1, shift = 0>}> : '
        '(tensor<1x3x3x2xi8>, tensor<1x2x2x2xi8>, tensor<2xi32>) -> tensor<1x2x2x2xi32>\n'
        '  func.return %0 : tensor<1x2x2x2xi32>', "tensor<1x2x2x2xi32>")
    w = np.array([[1, 1], [0, 2], [0, 0], [1, 0]]).reshape(1, 2, 2, 2)
    ours = run_function(module, [x, w, [10, 0]])[0]
    # channel 0: top-left + bottom-right + 10 ; channel 1: -(top-left + 2 * top-right)
    assert ours[0, :, :, 0].tolist() == [[1 + 5 + 10, 2 + 6 + 10], [4 + 8 + 10, 5 + 9 + 10]]
    assert ours[0, :, :, 1].tolist() == [[-(1 + 4), -(2 + 6)], [-(4 + 10), -(5 + 12)]]
    fc = _module(
        "%x: tensor<1x1x2x3xi8>, %w: tensor<2x3xi8>, %b: tensor<2xi32>",
        '  %0 = "npu.vector_product"(%x, %w, %b) <{rescale = #npu.rescale<multiplier = 1, shift = 1>, '
        'rounding = "to_zero"}> : (tensor<1x1x2x3xi8>, tensor<2x3xi8>, tensor<2xi32>) -> tensor<1x1x2x2xi8>\n'
        '  func.return %0 : tensor<1x1x2x2xi8>', "tensor<1x1x2x2xi8>")
    out = run_function(fc, [[[[1, 2, 3], [-1, 0, 4]]], [[1, 1, 1], [2, 0, -1]], [1, 0]])[0]
    assert out[0, 0].tolist() == [[3, 0], [2, -3]]  # (7, -1) / 2 and (4, -6) / 2, truncated


# ---------------------------------------------------------------------------------------------
# Pooling
def test_average_pool_counts_only_positions_inside_and_rounds_half_away():
    x = np.array([[1, 2, 3], [4, 6, 7], [-9, -8, -2]]).reshape(1, 3, 3, 1)
    module = _module(
        "%x: tensor<1x3x3x1x!quant.uniform<i8:f32, 0.5:0>>",
        '  %0 = "npu.avg_pool"(%x) <{kernel = #npu.kernel<2x2, stride = 1x1, dilation = 1x1, '
        'padding = [0, 0, 1, 1]>}> : (tensor<1x3x3x1x!quant.uniform<i8:f32, 0.5:0>>) -> '
        'tensor<1x3x3x1x!quant.uniform<i8:f32, 0.5:0>>\n'
        '  func.return %0 : tensor<1x3x3x1x!quant.uniform<i8:f32, 0.5:0>>',
        "tensor<1x3x3x1x!quant.uniform<i8:f32, 0.5:0>>")
    ours = run_function(module, [x])[0][0, :, :, 0]
    # sums / counts: 13/4, 18/4, 10/2 ; -7/4, 3/4, 5/2 ; -17/2, -10/2, -2/1
    assert ours.tolist() == [[3, 5, 5], [-2, 1, 3], [-9, -5, -2]]


def test_max_pool_ignores_padding():
    x = np.array([[-5, -7], [-6, -8]]).reshape(1, 2, 2, 1)
    module = _module(
        "%x: tensor<1x2x2x1xi8>",
        '  %0 = "npu.max_pool"(%x) <{kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, '
        'padding = [1, 1, 1, 1]>}> : (tensor<1x2x2x1xi8>) -> tensor<1x2x2x1xi8>\n'
        '  func.return %0 : tensor<1x2x2x1xi8>', "tensor<1x2x2x1xi8>")
    assert run_function(module, [x])[0].reshape(-1).tolist() == [-5, -5, -5, -5]


# ---------------------------------------------------------------------------------------------
# Stripes: the keywords the scheduled executor passes
def _stripe_case(op_text: str, ifm: str, ofm: str, extra: str = "", extra_types: str = ""):
    return _module(f"%x: {ifm}{extra}", f'  %0 = {op_text} : ({ifm}{extra_types}) -> {ofm}\n'
                   f'  func.return %0 : {ofm}', ofm)


@pytest.mark.parametrize("case", ["conv", "avg", "max"])
def test_row_and_channel_stripes_stitch_to_the_whole_result(case):
    rng = np.random.default_rng(11)
    ifm, ofm = "tensor<1x7x5x4x!quant.uniform<i8:f32, 0.5:-2>>", "tensor<1x4x3x{c}x!quant.uniform<i8:f32, 0.75:1>>"
    kernel = "#npu.kernel<3x2, stride = 2x2, dilation = 1x1, padding = [1, 0, 1, 1]>"
    if case == "conv":
        wt = "tensor<6x3x2x4x!quant.uniform<i8:f32, 0.02>>"
        module = _stripe_case(f'"npu.conv2d"(%x, %w, %b) <{{kernel = {kernel}}}>', ifm, ofm.format(c=6),
                              f", %w: {wt}, %b: tensor<6xi32>", f", {wt}, tensor<6xi32>")
        args = [rng.integers(-128, 128, (1, 7, 5, 4)), rng.integers(-127, 128, (6, 3, 2, 4)),
                rng.integers(-300, 300, 6)]
    else:
        name = "npu.avg_pool" if case == "avg" else "npu.max_pool"
        module = _stripe_case(f'"{name}"(%x) <{{kernel = {kernel}}}>', ifm, ofm.format(c=4))
        args = [rng.integers(-128, 128, (1, 7, 5, 4))]
    op = next(o for o in module.walk() if o.name.startswith("npu."))
    whole = run_function(module, args)[0]
    kernel_fn = kernel_for(op)
    parts = []
    for first, last in ((0, 1), (1, 3), (3, 4)):
        lo, hi = ifm_rows_needed(op, first, last)
        parts.append(kernel_fn(op, [args[0][:, lo:hi], *args[1:]], ofm_rows=(first, last))[0])
    assert np.array_equal(np.concatenate(parts, axis=1), whole)
    c0, c1 = 1, 3  # a depth slice: weights and bias hold only those output channels
    sliced = [args[1][c0:c1], args[2][c0:c1]] if case == "conv" else []
    lo, hi = ifm_rows_needed(op, 1, 3)
    block = kernel_fn(op, [args[0][:, lo:hi], *sliced], ofm_rows=(1, 3), ofm_channels=(c0, c1))[0]
    assert np.array_equal(block, whole[:, 1:3, :, c0:c1])


def test_replicate_padding_reads_the_nearest_edge_value_whole_and_in_stripes():
    """A depthwise convolution with ``padding_mode = "replicate"``: every tap outside the IFM
    reads the IFM value at its coordinate clamped to the image (direct loops), and row stripes
    stitch to the whole result as the scheduled executor runs them."""
    rng = np.random.default_rng(5)
    t_x, t_o = "tensor<1x4x5x2x!quant.uniform<i8:f32, 0.5:3>>", "tensor<1x4x5x2x!quant.uniform<i8:f32, 0.5:3>>"
    t_w = "tensor<1x3x3x2x!quant.uniform<i8:f32, 0.0625>>"
    kernel = "#npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [1, 1, 1, 1]>"
    module = _stripe_case(f'"npu.depthwise_conv2d"(%x, %w, %b) <{{kernel = {kernel}, rounding = "away_zero", '
                          f'padding_mode = "replicate"}}>', t_x, t_o, f", %w: {t_w}, %b: tensor<2xi32>",
                          f", {t_w}, tensor<2xi32>")
    x, w, b = rng.integers(-128, 128, (1, 4, 5, 2)), rng.integers(-127, 128, (1, 3, 3, 2)), np.zeros(2, np.int64)
    whole = run_function(module, [x, w, b])[0]
    expected = np.zeros((1, 4, 5, 2), dtype=np.int64)
    for oy, ox, c in itertools.product(range(4), range(5), range(2)):
        acc = 0
        for ky, kx in itertools.product(range(3), range(3)):
            iy, ix = min(max(oy + ky - 1, 0), 3), min(max(ox + kx - 1, 0), 4)
            acc += int(x[0, iy, ix, c]) * int(w[0, ky, kx, c])  # away_zero, no bias: no IFM zero point
        quotient, remainder = divmod(abs(acc), 16)  # scale 0.5 x 1/16 / 0.5, ties away from zero
        magnitude = quotient + (2 * remainder >= 16)
        expected[0, oy, ox, c] = min(max(magnitude if acc >= 0 else -magnitude, -128), 127)
    assert whole.tolist() == expected.tolist()
    op = _op(module, "npu.depthwise_conv2d")
    parts = []
    for first, last in ((0, 1), (1, 3), (3, 4)):
        lo, hi = ifm_rows_needed(op, first, last)
        parts.append(kernel_for(op)(op, [x[:, lo:hi], w, b], ofm_rows=(first, last))[0])
    assert np.array_equal(np.concatenate(parts, axis=1), whole)


def test_rows_needed_for_resampling_and_elementwise_ops():
    module = _stripe_case('"npu.avg_pool"(%x) <{kernel = #npu.kernel<2x2, stride = 1x1, dilation = 1x1, '
                          'padding = [0, 0, 1, 1]>, resampling = "nearest"}>',
                          "tensor<1x3x3x1xi8>", "tensor<1x6x6x1xi8>")
    op = _op(module, "npu.avg_pool")
    assert ifm_rows_needed(op, 0, 1) == (0, 1)
    assert ifm_rows_needed(op, 1, 3) == (0, 2)
    assert ifm_rows_needed(op, 5, 6) == (2, 3)
    x = np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]]).reshape(1, 3, 3, 1)
    whole = run_function(module, [x])[0]
    stripe = kernel_for(op)(op, [x[:, 0:2]], ofm_rows=(1, 3))[0]
    assert np.array_equal(stripe, whole[:, 1:3])


# ---------------------------------------------------------------------------------------------
# Elementwise
def _binary(name: str, a: str, b: str, out: str, attrs: str = ""):
    return _module(f"%a: {a}, %b: {b}", f'  %0 = "{name}"(%a, %b) <{{{attrs}}}> : ({a}, {b}) -> {out}\n'
                   f'  func.return %0 : {out}', out)


def test_add_of_differently_scaled_operands_and_broadcast():
    a_t, b_t = "tensor<1x1x1x3x!quant.uniform<i8:f32, 0.5:1>>", "tensor<1x2x1x3x!quant.uniform<i8:f32, 0.25:-2>>"
    out_t = "tensor<1x2x1x3x!quant.uniform<i8:f32, 0.125:3>>"
    module = _binary("npu.add", a_t, b_t, out_t)
    a = np.array([3, -1, 1]).reshape(1, 1, 1, 3)
    b = np.array([[2, 6, -2], [-10, 0, 30]]).reshape(1, 2, 1, 3)
    ours = run_function(module, [a, b])[0].reshape(2, 3)
    real = (a.reshape(1, 3) - 1) * 0.5 + (b.reshape(2, 3) + 2) * 0.25
    assert ours.tolist() == np.clip(real / 0.125 + 3, -128, 127).astype(int).tolist()  # all exact


def test_32_bit_multiply_only_shifts_and_8_bit_multiply_scales():
    wide = _binary("npu.mul", "tensor<1x1x1x2xi32>", "tensor<1x1x1x2xi32>", "tensor<1x1x1x2xi32>",
                   "rescale = #npu.rescale<multiplier = 12345, shift = 31>")
    out = run_function(wide, [[3 << 20, -(3 << 20)], [1 << 11, 1 << 11]])[0]
    assert out.reshape(-1).tolist() == [3, -3]
    q = "tensor<1x1x1x2x!quant.uniform<i8:f32, 0.5:0>>"
    narrow = _binary("npu.mul", q, q, "tensor<1x1x1x2x!quant.uniform<i8:f32, 0.125:0>>")
    assert run_function(narrow, [[3, -5], [7, 2]])[0].reshape(-1).tolist() == [42, -20]  # x 0.25 / 0.125


def test_shifts_min_max_abs_and_count_leading_zeros():
    t = "tensor<1x1x1x4xi32>"
    values = [5, -5, 6, -7]
    for rounding, expected in (("tflite", [3, -3, 3, -4]), ("half_up", [3, -2, 3, -3]), ("to_zero", [2, -2, 3, -3])):
        module = _binary("npu.shr", t, t, t, f'rounding = "{rounding}"')
        assert run_function(module, [values, [1, 1, 1, 1]])[0].reshape(-1).tolist() == expected, rounding
    shl = _binary("npu.shl", t, t, t)
    assert run_function(shl, [[1, 3, -1, 1 << 30], [4, 30, 2, 1]])[0].reshape(-1).tolist() == \
        [16, -(1 << 30), -4, -(1 << 31)]
    q = "tensor<1x1x1x4x!quant.uniform<i8:f32, 0.5:-1>>"
    assert run_function(_binary("npu.minimum", q, q, q), [[1, 5, -3, 0], [2, 4, -4, 0]])[0].reshape(-1).tolist() == \
        [1, 4, -4, 0]
    abs_module = _module(f"%a: {q}", f'  %0 = "npu.abs"(%a) : ({q}) -> {q}\n  func.return %0 : {q}', q)
    assert run_function(abs_module, [[-5, -1, 3, -128]])[0].reshape(-1).tolist() == [3, -1, 3, 126]
    clz = _module(f"%a: {t}", f'  %0 = "npu.clz"(%a) : ({t}) -> {t}\n  func.return %0 : {t}', t)
    assert run_function(clz, [[0, 1, -1, 256]])[0].reshape(-1).tolist() == [32, 31, 0, 23]


def test_a_negative_shift_amount_is_a_located_error():
    t = "tensor<1x1x1x2xi32>"
    with pytest.raises(InterpretError, match=r"shift amounts must lie in \[0, 63\], not \[-1, 2\]"):
        run_function(_binary("npu.shr", t, t, t), [[1, 2], [-1, 2]])


# ---------------------------------------------------------------------------------------------
# Tables
def test_8_bit_and_interpolated_16_bit_tables():
    q = "tensor<1x1x1x3x!quant.uniform<i8:f32, 0.5:0>>"
    module = _module(f"%a: {q}, %t: tensor<256xi8>",
                     f'  %0 = "npu.lut"(%a, %t) <{{activation = #npu.act<lut, min = -128, max = 127>}}> : '
                     f'({q}, tensor<256xi8>) -> {q}\n  func.return %0 : {q}', q)
    table = (np.arange(256) - 128)[::-1].astype(np.int8)  # t[i] = 127 - i: the lookup negates and subtracts 1
    assert run_function(module, [[-128, 0, 127], table])[0].reshape(-1).tolist() == [127, -1, -128]
    t16 = "tensor<1x1x1x3xi16>"
    module = _module(f"%a: {t16}, %b: {t16}, %t: tensor<512xi32>",
                     f'  %0 = "npu.add"(%a, %b, %t) <{{activation = #npu.act<lut, min = -32768, max = 32767>}}> : '
                     f'({t16}, {t16}, tensor<512xi32>) -> {t16}\n  func.return %0 : {t16}', t16)
    base = np.arange(512) * 10 - 2560
    words = ((10 & 0xFFFF) << 16) | (base & 0xFFFF)  # every entry: slope 10
    signed_words = words.astype(np.int64) - (1 << 32) * (words >= (1 << 31))
    out = run_function(module, [[-32768, 64, 32767], [0, 0, 0], signed_words])
    # position 0 -> base[0]; 32832 = entry 256, fraction 64 -> 0 + 5; 65535 = entry 511, fraction 127
    assert out[0].reshape(-1).tolist() == [-2560, 5, 2550 + (10 * 127 + 64) // 128]


# ---------------------------------------------------------------------------------------------
# Memory ops
def test_strided_concat_slice_reshape_and_dma():
    t = "tensor<1x1x2x1xi8>"
    text = (f'  %0 = "npu.dma"(%a) : ({t}) -> {t}\n  %1 = "npu.dma"(%b) : ({t}) -> {t}\n'
            f'  %2 = "npu.concat"(%0, %1) <{{offsets = [#npu.offset<0, 0, 0, 0>, #npu.offset<0, 0, 1, 0>], '
            f'strides = [1, 1, 2, 1]}}> : ({t}, {t}) -> tensor<1x1x4x1xi8>\n'
            f'  %3 = "npu.slice"(%2) <{{offset = #npu.offset<0, 0, 1, 0>}}> : '
            f'(tensor<1x1x4x1xi8>) -> tensor<1x1x2x1xi8>\n'
            f'  %4 = "npu.reshape"(%3) : (tensor<1x1x2x1xi8>) -> tensor<2xi8>\n'
            f'  func.return %2, %4 : tensor<1x1x4x1xi8>, tensor<2xi8>')
    module = _module(f"%a: {t}, %b: {t}", text, "tensor<1x1x4x1xi8>, tensor<2xi8>")
    whole, part = run_function(module, [[1, 2], [3, 4]])
    assert whole.reshape(-1).tolist() == [1, 3, 2, 4]
    assert part.tolist() == [3, 2]


# ---------------------------------------------------------------------------------------------
# Legalised models against ai-edge-litert
MODEL_BOUNDS = {
    "conv": {"logits": 1},  # vector product: litert's reference FC rounds once
    "classifier": {},  # 8-bit softmax decomposition: bit-exact
    "elementwise": {"relu": 1, "relu6": 1, "relu_n1_to_1": 1},  # Vela's twice-quantised ReLU bound
    "int16_elementwise": {"tanh16": 1, "logistic16": 1},  # int16 softmax: TFLite's tables, bit-exact
    "resize_bilinear": {},  # half-pixel phases pad by replicating the edges (padding_mode), bit-exact
    "wide_batch": {},
}


@pytest.mark.parametrize("model", sorted(MODEL_BOUNDS))
def test_legalised_model_matches_litert_within_the_documented_bounds(model):
    pytest.importorskip("ai_edge_litert")
    import npu_opt.passes  # noqa: F401 - registers the passes
    from npu_opt.dialects.tfl.tflite import import_tflite
    from npu_opt.ir.diagnostics import DiagnosticEngine, SourceManager
    from npu_opt.ir.interpreter import Interpreter
    from npu_opt.tools.litert_compare import run_litert_here as run_litert  # (in-process: many small runs)
    from npu_opt.tools.npu_run import transform
    from npu_opt.tools.run_inputs import function_ports, gather_inputs
    from npu_opt.tools.api import set_target

    path = f"tests/data/{model}.tflite"
    data = open(path, "rb").read()
    module = set_target(import_tflite(data, path), "ethos-u55-128")
    assert transform(module, ["estimate"], DiagnosticEngine(SourceManager()))
    arguments, results = function_ports(Interpreter(module).function())
    inputs = gather_inputs(arguments, [], 1).arrays
    ours = run_function(module, inputs)
    theirs = run_litert(data, path, inputs).outputs
    bounds = MODEL_BOUNDS[model]
    for port, mine, (_, reference) in zip(results, ours, theirs):
        difference = np.abs(mine.astype(np.int64).reshape(-1) - reference.astype(np.int64).reshape(-1))
        assert difference.max() <= bounds.get(port.name, 0), (port.name, int(difference.max()))
