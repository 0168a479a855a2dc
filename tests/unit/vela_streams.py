"""NPU operations built with Vela's public API (``ethosu.vela.api``) and the command streams Vela
generates for them: the oracle of the ethosu encoder and decoder tests."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

from ethosu.vela import api

ACCELERATORS = {
    "u55-32": api.NpuAccelerator.Ethos_U55_32, "u55-64": api.NpuAccelerator.Ethos_U55_64,
    "u55-128": api.NpuAccelerator.Ethos_U55_128, "u55-256": api.NpuAccelerator.Ethos_U55_256,
    "u65-256": api.NpuAccelerator.Ethos_U65_256, "u65-512": api.NpuAccelerator.Ethos_U65_512,
}


@dataclass
class Case:
    """A list of operations (made fresh per accelerator: block configs depend on it)."""

    name: str
    build: Callable[[api.NpuAccelerator], list]

    def words(self, accelerator: str) -> list[int]:
        npu = ACCELERATORS[accelerator]
        return api.npu_generate_register_command_stream(self.build(npu), npu)


def fm(shape: tuple[int, int, int], dtype: api.NpuDataType = api.NpuDataType.INT8, region: int = 1,
       address: int = 0, layout: api.NpuLayout = api.NpuLayout.NHWC, zero_point: int = 0,
       scale: float = 0.5) -> api.NpuFeatureMap:
    """A feature map of one tile."""
    height, width, depth = shape
    result = api.NpuFeatureMap()
    result.data_type, result.region, result.layout = dtype, region, layout
    result.shape = api.NpuShape3D(height, width, depth)
    result.tiles = api.NpuTileBox(height, 0, width, [address, 0, 0, 0])
    result.quantization = api.NpuQuantization(scale, zero_point)
    return result


def _finish(op, accelerator: api.NpuAccelerator, activation=None, rounding=api.NpuRoundingMode.TFL):
    op.activation = activation
    op.rounding_mode = rounding
    op.block_config = api.npu_find_block_configs(op, accelerator)[-1]
    return op


def _act(kind: api.NpuActivationOp, low: float | None = None, high: float | None = None, table: int = 0):
    result = api.NpuActivation(kind)
    result.min, result.max, result.lookup_table_index = low, high, table
    return result


def conv(ifm_shape, ofm_shape, kernel, depthwise=False, padding=(0, 0, 0, 0), dtype=api.NpuDataType.INT8,
         layout=api.NpuLayout.NHWC, activation=None, rounding=api.NpuRoundingMode.TFL, traversal=None,
         weights=((2, 0, 1024),), scales=((2, 1024, 160),), ofm_address=0x4000):
    """A (depthwise) convolution builder; ``kernel`` is (h, w, stride_y, stride_x, dilation_y, dilation_x)."""
    def build(accelerator: api.NpuAccelerator):
        op = api.NpuConvDepthWiseOperation() if depthwise else api.NpuConv2DOperation()
        if traversal is not None and not depthwise:
            op.block_traversal = traversal
        int8 = dtype == api.NpuDataType.INT8
        op.ifm = fm(ifm_shape, dtype, layout=layout, zero_point=-3 if int8 else 0)
        op.ofm = fm(ofm_shape, dtype, address=ofm_address, layout=layout, zero_point=5 if int8 else 0)
        h, w, sy, sx, dy, dx = kernel
        op.kernel = api.NpuKernel(w, h, sx, sy, dx, dy)
        op.padding = api.NpuPadding(*padding)
        op.weights = [api.NpuAddressRange(*r) for r in weights]
        op.biases = [api.NpuAddressRange(*r) for r in scales]
        return _finish(op, accelerator, activation, rounding)
    return build


def pool(kind, ifm_shape, ofm_shape, kernel=(2, 2, 2, 2), padding=(0, 0, 0, 0), activation=None,
         dtype=api.NpuDataType.INT8):
    def build(accelerator: api.NpuAccelerator):
        op = api.NpuPoolingOperation(kind)
        op.ifm = fm(ifm_shape, dtype)
        op.ofm = fm(ofm_shape, dtype, address=0x8000, scale=0.25)
        h, w, sy, sx = kernel
        op.kernel = api.NpuKernel(w, h, sx, sy)
        op.padding = api.NpuPadding(*padding)
        return _finish(op, accelerator, activation)
    return build


def elementwise(kind, shape, ifm2_shape=None, scalar=None, reversed_operands=False, activation=None,
                dtype=api.NpuDataType.INT8, ifm2_scale=0.5):
    def build(accelerator: api.NpuAccelerator):
        op = api.NpuElementWiseOperation(kind)
        op.ifm = fm(shape, dtype, zero_point=1 if dtype == api.NpuDataType.INT8 else 0)
        if ifm2_shape is not None or scalar is not None:
            op.ifm2 = fm(ifm2_shape or (1, 1, 1), dtype, address=0x2000, scale=ifm2_scale)
            op.ifm2_scalar = scalar
        op.ofm = fm(shape, dtype, address=0x8000, scale=0.75)
        op.reversed_operands = reversed_operands
        return _finish(op, accelerator, activation)
    return build


def tweaked(builder, change):
    """``builder``'s operation with ``change(op)`` applied (tiles, strides, upscaling, accumulator)."""
    def build(accelerator: api.NpuAccelerator):
        op = builder(accelerator)
        change(op)
        op.block_config = api.npu_find_block_configs(op, accelerator)[-1]
        return op
    return build


def _four_tiles(op) -> None:
    """The IFM in four tiles (two rows of tiles, the first 5 rows high and 4 columns wide)."""
    height, width, _ = op.ifm.shape
    op.ifm.tiles = api.NpuTileBox(5, height - 5, 4, [0x0, 0x1000, 0x2000, 0x3000])


def _explicit_strides(op) -> None:
    op.ifm.strides = api.NpuShape3D(height=256, width=32, depth=1)


def _upscaled(op) -> None:
    op.ifm_upscale = api.NpuResamplingMode.NEAREST
    op.ifm.shape = api.NpuShape3D(op.ofm.shape.height // 2, op.ofm.shape.width // 2, op.ifm.shape.depth)
    op.ifm.tiles = api.NpuTileBox(op.ifm.shape.height, 0, op.ifm.shape.width, [0, 0, 0, 0])


def _int40(op) -> None:
    op.accumulator_type = api.NpuAccumulatorType.Int40


def dma(src=(0, 0x100, 256), dst=(1, 0x200, 256)):
    def build(accelerator: api.NpuAccelerator):
        return api.NpuDmaOperation(api.NpuAddressRange(*src), api.NpuAddressRange(*dst))
    return build


def chain(*builders):
    """Several operations in one stream (registers carried over, waits between them)."""
    def build(accelerator: api.NpuAccelerator):
        ops = []
        for builder in builders:
            made = builder(accelerator)
            ops.extend(made if isinstance(made, list) else [made])
        return ops
    return build


def single(builder):
    def build(accelerator: api.NpuAccelerator):
        return [builder(accelerator)]
    return build


I8, U8, I16 = api.NpuDataType.INT8, api.NpuDataType.UINT8, api.NpuDataType.INT16
Act, Pool, Ew = api.NpuActivationOp, api.NpuPoolingOp, api.NpuElementWiseOp


def cases() -> Iterator[Case]:
    """The API-built streams: shapes, data types, layouts, strides, dilation, padding, tiles,
    upscaling, activations and LUTs, rounding, accumulators, broadcasts, scalars and DMAs."""
    yield Case("conv3x3", single(conv((8, 8, 16), (8, 8, 32), (3, 3, 1, 1, 1, 1), padding=(1, 1, 1, 1))))
    yield Case("conv_stride2_relu", single(conv((16, 16, 8), (8, 8, 16), (3, 3, 2, 2, 1, 1), padding=(0, 0, 1, 1),
                                                activation=_act(Act.NONE_OR_RELU, 0.0, 6.0))))
    yield Case("conv_stride3", single(conv((15, 15, 8), (5, 5, 8), (3, 3, 3, 3, 1, 1))))
    yield Case("conv_dilated", single(conv((12, 12, 8), (8, 8, 8), (3, 3, 1, 1, 2, 2))))
    yield Case("conv_nhcwb16_int16", single(conv((8, 8, 16), (8, 8, 16), (1, 1, 1, 1, 1, 1), dtype=I16,
                                                 layout=api.NpuLayout.NHCWB16, rounding=api.NpuRoundingMode.NATURAL)))
    yield Case("conv_uint8_depth_first", single(conv((8, 8, 3), (4, 4, 8), (2, 2, 2, 2, 1, 1), dtype=U8,
                                                     traversal=api.NpuBlockTraversal.DEPTH_FIRST,
                                                     rounding=api.NpuRoundingMode.TRUNCATE)))
    yield Case("fully_connected", single(conv((1, 1, 64), (1, 1, 10), (1, 1, 1, 1, 1, 1))))
    yield Case("depthwise", single(conv((8, 8, 16), (8, 8, 16), (3, 3, 1, 1, 1, 1), depthwise=True,
                                        padding=(1, 1, 1, 1), activation=_act(Act.TANH))))
    yield Case("max_pool", single(pool(Pool.MAX, (8, 8, 16), (4, 4, 16))))
    yield Case("avg_pool_padded", single(pool(Pool.AVERAGE, (8, 8, 16), (8, 8, 16), (3, 3, 1, 1), (1, 1, 1, 1))))
    yield Case("avg_pool_sigmoid", single(pool(Pool.AVERAGE, (8, 8, 16), (4, 4, 16), activation=_act(Act.SIGMOID))))
    yield Case("reduce_sum", single(pool(Pool.REDUCE_SUM, (4, 4, 16), (4, 4, 1), (1, 1, 1, 1))))
    yield Case("add", single(elementwise(Ew.ADD, (8, 8, 16), (8, 8, 16))))
    yield Case("add_same_scale", single(elementwise(Ew.ADD, (8, 8, 16), (8, 8, 16), ifm2_scale=0.5)))
    yield Case("sub_broadcast", single(elementwise(Ew.SUB, (8, 8, 16), (1, 8, 1), reversed_operands=True)))
    yield Case("mul_scalar", single(elementwise(Ew.MUL, (8, 8, 16), scalar=3.0)))
    yield Case("max_int16", single(elementwise(Ew.MAX, (4, 4, 8), (4, 4, 8), dtype=I16)))
    yield Case("abs", single(elementwise(Ew.ABS, (8, 8, 16))))
    yield Case("lrelu_lut", single(elementwise(Ew.LRELU, (8, 8, 16), activation=_act(Act.TABLE_LOOKUP, table=2))))
    yield Case("shl", single(elementwise(Ew.SHL, (4, 4, 4), (4, 4, 4), dtype=api.NpuDataType.INT32)))
    yield Case("four_tiles", single(tweaked(conv((10, 8, 16), (10, 8, 16), (3, 3, 1, 1, 1, 1), padding=(1, 1, 1, 1)),
                                            _four_tiles)))
    yield Case("explicit_strides", single(tweaked(conv((8, 8, 16), (8, 8, 16), (1, 1, 1, 1, 1, 1)), _explicit_strides)))
    yield Case("upscaled_pool", single(tweaked(pool(Pool.AVERAGE, (8, 8, 16), (8, 8, 16), (1, 1, 1, 1)), _upscaled)))
    yield Case("int16_acc40", single(tweaked(conv((4, 4, 16), (4, 4, 16), (1, 1, 1, 1, 1, 1), dtype=I16), _int40)))
    yield Case("uint8_avg_pool", single(pool(Pool.AVERAGE, (8, 8, 16), (4, 4, 16), dtype=U8)))
    yield Case("dma", single(dma()))
    yield Case("lut_dma_then_op", chain(dma((0, 0x300, 256), (0x103, 0, 256)),
                                       elementwise(Ew.ADD, (8, 8, 16), (8, 8, 16),
                                                   activation=_act(Act.TABLE_LOOKUP, table=0))))
    yield Case("chain", chain(dma((0, 0, 1184), (1, 0x10000, 1184)),
                              conv((8, 8, 16), (8, 8, 16), (3, 3, 1, 1, 1, 1), padding=(1, 1, 1, 1),
                                   weights=((1, 0x10000, 1024),), scales=((1, 0x10400, 160),)),
                              conv((8, 8, 16), (8, 8, 16), (1, 1, 1, 1, 1, 1), ofm_address=0x8000),
                              pool(Pool.MAX, (8, 8, 16), (4, 4, 16)),
                              elementwise(Ew.MUL, (4, 4, 16), scalar=2.0)))
