"""SOFTMAX (int8) as Vela 5.2.0 runs it on the NPU: 31 operations (``softmax.py``,
``get_graph_8bit``), re-derived so the benchmark can cost each one.

The decomposition: a max over each row (a max pool across the channels), ``x - max`` through an
exp LUT into int32, a shift, a sum over the channels, a count of leading zeros, then a
fixed-point reciprocal of the sum by three Newton-Raphson steps on scalars, and the final scale
and shift back to int8. All operations but the first and the sum are elementwise; the scalar
operands are int32 constants. Each is named ``<softmax>_<kind><n>`` as in Vela's report.
"""
from __future__ import annotations

from dialects.npu.perf import OpKind, Shape4

from bench.vela_graph import Tensor, VelaOp, connect

EXP_LUT_BYTES = 256 * 4
"""The int8 exp LUT: 256 uint32 entries."""


def lower_softmax(name: str, ifm: Tensor, ofm: Tensor, ifm_shape: Shape4, index: int) -> list[VelaOp]:
    """The operations of an int8 softmax over the last axis of ``ifm`` (seen as ``ifm_shape``)."""
    ops: list[VelaOp] = []
    rows = Shape4(1, ifm_shape.height, ifm_shape.width, 1)

    def tensor(suffix: str, shape: Shape4, bits: int = 32) -> Tensor:
        return Tensor(f"{name}_{suffix}", shape, bits)

    def const(label: str) -> Tensor:
        return Tensor(label, Shape4(1, 1, 1, 1), 32, const=True)

    def add(op: VelaOp) -> Tensor:
        ops.append(connect(op))
        return op.ofm

    def binary(kind: str, a: Tensor, a_shape: Shape4, b: Tensor, b_shape: Shape4, bits: int = 32,
               out: Tensor | None = None, activation: str = "clip", lut: int = 0) -> Tensor:
        n = len(ops)
        shape = a_shape if _correct_order(a_shape, b_shape) else b_shape
        result = out if out is not None else tensor(f"{kind}{n}_tens0", shape, bits)
        op = VelaOp(f"{name}_{kind}{n}", "SOFTMAX", OpKind.ELEMENTWISE_BINARY, a, result, a_shape, shape, b, b_shape,
                    elementwise=kind, activation=activation, lut_bytes=lut, tflite_index=index)
        return add(op)

    # 0: max over the channels, the row seen as height x (channels) x 1
    pool_in = Shape4(1, ifm_shape.height * ifm_shape.width, ifm_shape.depth, 1)
    pool_out = tensor("maxpool0_tens0", Shape4(1, ifm_shape.height * ifm_shape.width, 1, 1), ifm.bits)
    row_max = add(VelaOp(f"{name}_maxpool0", "SOFTMAX", OpKind.MAX_POOL, ifm, pool_out, pool_in, pool_out.shape,
                         kernel=_kernel(ifm_shape.depth), tflite_index=index))
    # 1: x - max, through the exp LUT, to int32
    exp = binary("sub", ifm, ifm_shape, row_max, rows, activation="lut", lut=EXP_LUT_BYTES)
    # 2: shift, 3: sum over the channels, 4: count leading zeros
    shifted = binary("shr", exp, ifm_shape, const("shr2_const"), Shape4(1, 1, 1, 1))
    n = len(ops)
    total = add(VelaOp(f"{name}_reduce_sum{n}", "SOFTMAX", OpKind.REDUCE_SUM, shifted,
                       tensor(f"reduce_sum{n}_tens0", rows), ifm_shape, rows, activation="clip", tflite_index=index))
    n = len(ops)
    headroom_plus_one = add(VelaOp(f"{name}_clz{n}", "SOFTMAX", OpKind.ELEMENTWISE_UNARY, total,
                                   tensor(f"clz{n}_tens0", rows), rows, rows, elementwise="clz", activation="clip",
                                   tflite_index=index))
    one = Shape4(1, 1, 1, 1)
    right_shift = binary("sub", const("headroom_offset_const"), one, headroom_plus_one, rows)
    one_const = const("one_const")
    headroom = binary("sub", headroom_plus_one, rows, one_const, one)
    shifted_sum = binary("shl", total, rows, headroom, rows)
    minus_one = binary("sub", shifted_sum, rows, const("shifted_one_const"), one)
    minus_one = binary("shl", minus_one, rows, one_const, one)
    half_denominator = binary("add", minus_one, rows, const("F0_one_const"), one)
    rescaled = binary("mul", half_denominator, rows, const("neg_32_over_17_const"), one)
    nr_x = binary("add", rescaled, rows, const("48_over_17_const"), one)
    f2_one, four = const("F2_one_const"), const("four_const")
    for _ in range(3):
        product = binary("mul", nr_x, rows, half_denominator, rows)
        difference = binary("sub", f2_one, one, product, rows)
        to_rescale = binary("mul", nr_x, rows, difference, rows)
        to_add = binary("mul", to_rescale, rows, four, one)
        nr_x = binary("add", nr_x, rows, to_add, rows)
    scale = binary("mul", nr_x, rows, const("two_const"), one)
    scaled = binary("mul", exp, ifm_shape, scale, rows)
    binary("shr", scaled, ifm_shape, right_shift, rows, bits=ofm.bits, out=ofm, activation="none")
    return ops


def _kernel(width: int):
    from dialects.npu.perf import Kernel

    return Kernel(width=width, height=1)


def _correct_order(a: Shape4, b: Shape4) -> bool:
    """The OFM takes the first operand's shape unless that one is broadcast (Vela's
    ``ifm_ifm2_correct_order``)."""
    return not any(x != y and x == 1 for x, y in zip(a, b))


__all__ = ["EXP_LUT_BYTES", "lower_softmax"]
