"""From a decoded command stream to the cost model's descriptions: each ethosu operation as an
``NpuOpDesc`` with its register block, the stripes and depth slices of one scheduled op put back
together, and the weight DMAs feeding each op. Design notes: docs/command_stream_costing.md."""
from __future__ import annotations

from dataclasses import dataclass, field

from npu_opt.dialects.ethosu.attrs import FeatureMapAttr
from npu_opt.dialects.ethosu.ops_block import BlockOp, ConvOp, DepthwiseOp, ElementwiseOp, PoolOp, UNARY_MODES
from npu_opt.dialects.ethosu.ops_stream import DmaOp
from npu_opt.hardware.accelerators import AcceleratorConfig
from npu_opt.hardware.perf.block_config import BlockConfig, check_block_config
from npu_opt.hardware.perf.op_desc import (
    Kernel, NpuOpDesc, OpKind, Resampling, TensorDesc, TensorFormat, WeightsDesc,
)
from npu_opt.hardware.perf.shape import Shape4, round_up
from npu_opt.hardware.target import Target
from npu_opt.ir.core import Operation
from npu_opt.ir.location import NameLoc

ELEMENT_BITS = {"uint8": 8, "int8": 8, "uint16": 16, "int16": 16, "int32": 32}
TYPE_RANGES = {"uint8": (0, 255), "int8": (-128, 127), "uint16": (0, 65535), "int16": (-32768, 32767),
               "int32": (-(1 << 31), (1 << 31) - 1)}
POOL_KINDS = {"max": OpKind.MAX_POOL, "average": OpKind.AVG_POOL, "reduce_sum": OpKind.REDUCE_SUM}
ELEMENTWISE_NAMES = {"lrelu": "leaky_relu"}
"""Elementwise modes whose cost-model operator is spelt otherwise."""
PRODUCTS = {0: "ethos-u55", 1: "ethos-u65"}
READ_ONLY_REGION, SCRATCH_REGION, FAST_SCRATCH_REGION = 0, 1, 2
"""Vela's base-pointer regions: permanent storage, the tensor arena and the fast scratch."""


def accelerator_name(config_word: int) -> str:
    """The accelerator a driver payload's NPU CONFIG word names (``ethos-u55-128``); ValueError for
    a product or MAC count no Ethos-U has."""
    product, macs = (config_word >> 28) & 0xF, 1 << (config_word & 0xF)
    if product not in PRODUCTS:
        raise ValueError(f"NPU CONFIG word {config_word:#x} names product {product}; only 0 (U55) and 1 (U65) exist")
    return f"{PRODUCTS[product]}-{macs}"


def region_area(region: int, target: Target) -> str:
    """The memory a region's addresses are in on ``target``: permanent storage, the fast storage
    for the fast scratch, the arena for the scratch and the driver's other regions."""
    if region == READ_ONLY_REGION:
        return target.permanent_storage_area
    if region == FAST_SCRATCH_REGION:
        return target.fast_storage_area
    return target.feature_map_storage_area


@dataclass
class Part:
    """One NPU operation of the stream with the DMAs that feed it."""

    op: BlockOp
    weight_dmas: list[DmaOp] = field(default_factory=list)
    """The DMAs writing the weight or scale range this operation reads first."""
    lut_bytes: int = 0
    """Bytes DMA'd into SHRAM just before it (its LUT)."""


@dataclass
class CostedOp:
    """A scheduled op as its parts in the stream: every stripe (rows) and depth slice (channels)."""

    parts: list[Part]
    interleaved: bool = False
    """Its parts alternate with another op's (a cascade's stripes)."""
    sliced: bool = False
    """Its parts are depth slices (each with its weight stream), not stripes of rows."""

    @property
    def first(self) -> BlockOp:
        return self.parts[0].op

    @property
    def weight_dmas(self) -> list[DmaOp]:
        return [dma for part in self.parts for dma in part.weight_dmas]


def _signature(op: BlockOp) -> tuple:
    """What the parts of one scheduled op share: everything but where their boxes are."""
    def fm(attr: FeatureMapAttr | None) -> tuple | None:
        return None if attr is None else (attr.dtype, attr.layout, attr.region, attr.strides)
    ifm2 = op.ifm2 if isinstance(op, ElementwiseOp) else None
    kernel = (op.kernel.size, op.kernel.stride, op.kernel.dilation) if op.attr("kernel") else None
    return (type(op).__name__, getattr(op, "mode", None), kernel, op.activation, op.block, fm(op.ifm), fm(op.ofm),
            fm(ifm2), op.upscale)


def _continues(costed: CostedOp, part: Part, interleaved: bool) -> str | None:
    """Whether ``part`` is the next piece of ``costed``, and which: a "slice" (its own weight DMA,
    the OFM channels after the last part's, a convolution's same IFM or another op's next IFM
    channels) or a "stripe" (the OFM rows below the last part's, reading on; or back where the
    first stripe went, a rolling buffer wrapping, reading on or another IFM window than it did); None.
    docs/command_stream_costing.md says why these rules."""
    a, b = costed.parts[-1].op.ofm, part.op.ofm
    if _beside(a, b) and part.weight_dmas and (b.height, b.width) == (a.height, a.width):
        prev_ifm, ifm = costed.parts[-1].op.ifm, part.op.ifm
        if ifm.bases == prev_ifm.bases if isinstance(part.op, ConvOp) else _beside(prev_ifm, ifm):
            return "slice"
    if (b.width, b.depth) != (a.width, a.depth) or costed.sliced:
        return None
    first = costed.first
    prev = costed.parts[-1].op
    if _reads_output_of(part.op, prev) or _reads_output_of(part.op, part.op):
        return None  # (a stripe never reads what its op wrote, nor works in place: ops of a chain)
    cascaded = interleaved or costed.interleaved  # (a member's stripes may also run back to back)
    if b.bases[0] == a.bases[0] + a.height * a.strides[1]:
        stripe = _reads_on(prev, part.op) or (cascaded and _in_rolling_buffer(costed, part.op))
    elif b.bases[0] == first.ofm.bases[0]:  # a rolling buffer wrapping
        stripe = _reads_on(prev, part.op) or (cascaded and _window(part.op) != _window(first))
    else:
        stripe = False
    return "stripe" if stripe else None


def _reads_output_of(op: BlockOp, prev: BlockOp) -> bool:
    """``op`` reads an input where ``prev`` wrote its OFM."""
    inputs = [op.ifm, op.ifm2 if isinstance(op, ElementwiseOp) else None]
    return any(fm is not None and fm.region == prev.ofm.region and fm.bases is not None
               and fm.bases[0] == prev.ofm.bases[0] for fm in inputs)


def _in_rolling_buffer(costed: CostedOp, op: BlockOp) -> bool:
    """``op`` reads its IFM rows from a rolling buffer the stripes of ``costed`` go round: across
    its end (a third tile, here or in the last stripe) or back at a window an earlier stripe read."""
    prev = costed.parts[-1].op.ifm
    return bool(op.ifm.bases[2] or prev.bases[2]) or op.ifm.bases[0] in {p.op.ifm.bases[0] for p in costed.parts}


def _reads_on(prev: BlockOp, op: BlockOp) -> bool:
    """``op`` reads the IFM rows right after the ones ``prev`` finished with: the next stripe of
    the same op, run back to back (as a cascade's first op fills its buffer)."""
    if op.ifm.region != prev.ifm.region or op.ifm.strides != prev.ifm.strides:
        return False
    stride, top, top_next = 1, 0, 0
    if op.attr("kernel"):
        stride, top, top_next = op.kernel.stride[0], prev.kernel.padding[0], op.kernel.padding[0]
    rows = prev.ofm.height * stride - top + top_next
    up = 1 if op.upscale == "none" else 2
    return rows % up == 0 and op.ifm.bases[0] - prev.ifm.bases[0] == rows // up * prev.ifm.strides[1]


def _window(op: BlockOp) -> tuple:
    """Where an operation reads its IFM: its tiles' bases and sizes and its padding."""
    return (tuple(op.ifm.bases), tuple(op.ifm.tiles), tuple(op.kernel.padding) if op.attr("kernel") else ())


def group_parts(program: Operation) -> list[CostedOp | DmaOp]:
    """The program's scheduled ops in order of their first part, and its feature-map DMAs: each
    operation joins the open op of the same signature and location name (npu-lower-commands names
    each part after its scheduled op) or, in a decoded stream, that it continues; a weight DMA goes with the
    first later operation reading the range it writes (it may be issued operations ahead), a LUT
    DMA with the operation after it, any other DMA is a copy of its own."""
    ops = list(program.regions[0].blocks[0].ops)
    parts = {id(op): Part(op) for op in ops if isinstance(op, BlockOp)}
    copies: dict[int, DmaOp] = {}
    for index, op in enumerate(ops):
        if not isinstance(op, DmaOp):
            continue
        later = [parts[id(o)] for o in ops[index + 1:] if id(o) in parts]
        reader = next((part for part in later if _feeds_weights(op, part.op)), None)
        if reader is not None:
            reader.weight_dmas.append(op)
        elif op.dst.internal and later:
            later[0].lut_bytes += int(op.length)
        else:
            copies[id(op)] = op
    found: list[CostedOp | DmaOp] = []
    open_ops: dict[tuple, list[CostedOp]] = {}  # per signature, the ops a part may continue, latest first
    last: CostedOp | None = None  # the op the previous operation was a part of
    for op in ops:
        if id(op) in copies:
            found.append(op)  # type: ignore[arg-type]
        if id(op) not in parts:
            continue
        part = parts[id(op)]
        if isinstance(op.location, NameLoc):  # the lowering named the scheduled op: its parts share the name
            candidates = open_ops.setdefault((_signature(op), str(op.location)), [])
            current = candidates[0] if candidates else None
            joins = (_continues(current, part, last is not current) or "stripe") if current is not None else None
        else:  # a decoded stream: the parts are told apart by where they read and write
            candidates = open_ops.setdefault(_signature(op), [])
            # two ops of one signature may interleave (a cascade's branch of equal convolutions)
            current, joins = next(((c, j) for c in candidates if (j := _continues(c, part, last is not c)) is not None),
                                  (None, None))
        if current is not None:
            current.interleaved = current.interleaved or last is not current
            current.sliced = joins == "slice"
            current.parts.append(part)
            candidates.remove(current)
        else:
            current = CostedOp([part])
            found.append(current)
        candidates.insert(0, current)
        last = current
    return found


def _feeds_weights(dma: DmaOp, op: BlockOp) -> bool:
    """The DMA writes into the weight or scale range ``op`` reads."""
    for name in ("weights", "scales"):
        stream = op.attr(name) and getattr(op, name)
        if stream is None or stream.region != dma.dst.region:
            continue
        start, end = dma.dst.address, dma.dst.address + int(dma.length)
        if start < stream.base + stream.length and stream.base < end:
            return True
    return False


def _activation(op: BlockOp) -> str:
    """The cost model's activation: a table lookup, a clamp narrower than the OFM's type (a ReLU
    fused by the scheduler) or none."""
    function = op.activation.function
    if function in ("tanh", "sigmoid"):
        return function
    if function.startswith("lut"):
        return "lut"
    low, high = TYPE_RANGES[op.ofm.dtype]
    return "relu" if (op.activation.min, op.activation.max) != (low, high) else "none"


def _kernel(op: BlockOp) -> Kernel:
    if not op.attr("kernel"):
        return Kernel()
    k = op.kernel
    return Kernel(k.size[1], k.size[0], k.stride[1], k.stride[0], k.dilation[1], k.dilation[0])


def _ifm_extent(out: int, stride: int, area: int, before: int, after: int, upscale: int) -> int:
    """The IFM rows (or columns) an OFM extent reads, less the padding, before upscaling."""
    return max(1, -(-((out - 1) * stride + area - before - after) // upscale))


def _whole(fm: FeatureMapAttr, shape: Shape4) -> Shape4 | None:
    """The tensor the strides say ``shape`` is a window of (a channel or column slice, a part of a
    concatenation), at ``shape``'s height; None when it is the whole tensor as far as they tell."""
    element = ELEMENT_BITS[fm.dtype] // 8
    stride_x, stride_y, stride_c = fm.strides
    if fm.layout == "NHCWB16":
        width = stride_c // (16 * element) if stride_c else 0
        depth = stride_y // stride_c * 16 if stride_c else 0
        fits = depth >= shape.depth or depth == round_up(shape.depth, 16)
    else:
        depth = stride_x // element
        width = stride_y // stride_x if stride_x else 0
        fits = depth >= shape.depth
    whole = Shape4(1, shape.height, width, max(depth, shape.depth))
    if not fits or width < shape.width or whole == shape or (
            fm.layout == "NHCWB16" and whole.depth == round_up(shape.depth, 16) and width == shape.width):
        return None
    return whole


def _tensor(fm: FeatureMapAttr, shape: Shape4, target: Target) -> TensorDesc:
    return TensorDesc(shape, ELEMENT_BITS[fm.dtype], TensorFormat(fm.layout), region_area(fm.region, target),
                      _whole(fm, shape))


def _beside(prev: FeatureMapAttr, fm: FeatureMapAttr) -> bool:
    """``fm`` starts at the channel after ``prev``'s last (the next depth slice)."""
    if prev.layout == "NHCWB16":
        return fm.bases[0] == prev.bases[0] + (prev.depth // 16) * prev.strides[2]
    return fm.bases[0] == prev.bases[0] + prev.depth * ELEMENT_BITS[prev.dtype] // 8


def _ofm_extent(costed: CostedOp) -> tuple[int, int]:
    """The OFM height and depth of all parts together: depth slices add channels, stripes rows."""
    parts = [p.op.ofm for p in costed.parts]
    if costed.sliced:
        return parts[0].height, sum(fm.depth for fm in parts)
    return sum(fm.height for fm in parts), parts[0].depth


def describe(costed: CostedOp, target: Target, encoded_bytes: int | None = None,
             weights_area: str | None = None) -> NpuOpDesc:
    """The cost model's description of a scheduled op from its parts' registers: the kind from the
    command (a 1x1 convolution over a 1x1 OFM is a vector product), the OFM of all parts, the
    IFM it reads (from the kernel, strides, padding and upscaling), formats and memories from
    the layouts and regions on ``target``, the weights at ``encoded_bytes`` (default: the
    streams' lengths) read from ``weights_area`` (default: their region's memory)."""
    op = costed.first
    height, depth = _ofm_extent(costed)
    ofm_shape = Shape4(1, height, op.ofm.width, depth)
    kernel = _kernel(op)
    resampling = Resampling(op.upscale)  # (IFM_UPSCALE's names are the model's)
    up = resampling.upscale
    top, left = op.kernel.padding[0:2] if op.attr("kernel") else (0, 0)
    last = costed.parts[-1].op
    bottom, right = last.kernel.padding[2:4] if last.attr("kernel") else (0, 0)
    ifm_h = _ifm_extent(height, kernel.stride_y, kernel.area_height(), top, bottom, up)
    ifm_w = _ifm_extent(op.ofm.width, kernel.stride_x, kernel.area_width(), left, right, up)
    lut_bytes = sum(p.lut_bytes for p in costed.parts)
    common = dict(activation=_activation(op), resampling=resampling, lut_bytes=lut_bytes,
                  lut_memory=target.permanent_storage_area)
    ofm = _tensor(op.ofm, ofm_shape, target)
    if isinstance(op, ElementwiseOp):
        ifm = _tensor(op.ifm, Shape4(1, height, op.ofm.width, depth), target)
        operator = ELEMENTWISE_NAMES.get(op.mode, op.mode)
        if op.mode in UNARY_MODES:
            return NpuOpDesc(OpKind.ELEMENTWISE_UNARY, ifm, ofm, elementwise=operator, **common)
        axes = op.broadcast or ""
        scalar = op.ifm2_scalar is not None
        ifm2_shape = Shape4(1, 1 if scalar or "h" in axes else height, 1 if scalar or "w" in axes else op.ofm.width,
                            1 if scalar or "c" in axes else depth)
        ifm2 = TensorDesc(ifm2_shape, ELEMENT_BITS[op.ifm2.dtype], TensorFormat(op.ifm2.layout),
                          region_area(op.ifm2.region, target) if op.ifm2.region is not None else ofm.memory)
        return NpuOpDesc(OpKind.ELEMENTWISE_BINARY, ifm, ofm, ifm2, elementwise=operator, ifm2_scalar=scalar,
                         **common)
    reduces = isinstance(op, PoolOp) and op.mode == "reduce_sum"  # (sums the IFM's channels)
    ifm_depth = op.ifm.depth if isinstance(op, ConvOp) or reduces else depth
    ifm = _tensor(op.ifm, Shape4(1, ifm_h, ifm_w, ifm_depth), target)
    padding = (top, left, bottom, right)
    if isinstance(op, PoolOp):
        return NpuOpDesc(POOL_KINDS[op.mode], ifm, ofm, kernel=kernel, padding=padding, **common)
    if isinstance(op, DepthwiseOp):
        kind, raw = OpKind.DEPTHWISE_CONV2D, kernel.elements_wh() * depth
    elif resampling is Resampling.TRANSPOSE:
        kind, raw = OpKind.TRANSPOSE_CONV2D, kernel.elements_wh() * ifm_depth * depth
    elif kernel.elements_wh() == 1 and height == 1 and op.ofm.width == 1:
        kind, raw = OpKind.VECTOR_PRODUCT, ifm_depth * depth
    else:
        kind, raw = OpKind.CONV2D, kernel.elements_wh() * ifm_depth * depth
    if encoded_bytes is None:
        # (depth slices read a stream each, stripes all the same one)
        encoded_bytes = sum(_stream_bytes(p.op) for p in costed.parts) if costed.sliced else _stream_bytes(op)
    area = weights_area if weights_area is not None else region_area(op.weights.region, target)
    weights = WeightsDesc(encoded_bytes, raw, area)
    return NpuOpDesc(kind, ifm, ofm, kernel=kernel, weights=weights, padding=padding, **common)


def _stream_bytes(op: BlockOp, names: tuple[str, ...] = ("weights", "scales")) -> int:
    """Weight and scale bytes an operation reads (both cores'; ``names``: which streams)."""
    total = 0
    for name in names:
        stream = getattr(op, name)
        total += stream.length + (stream.length1 or 0)
    return total


def encoded_weight_bytes(costed: CostedOp) -> int:
    """The compressed weights an op reads, without their scale records (Vela's encoded weights)."""
    parts = [p.op for p in costed.parts] if costed.sliced else [costed.first]
    return sum(_stream_bytes(op, ("weights",)) for op in parts if op.weights is not None)


def block_config(op: BlockOp, desc: NpuOpDesc, accel: AcceleratorConfig) -> BlockConfig | None:
    """The OFM block the op's registers chose, fitted to ``desc`` with the traversal the cost
    model picks for it (Vela's model times the traversal its block search picks, which the weight
    encoder may not have used); None when it does not fit the model's SHRAM layout."""
    height, width, depth = op.block.size
    return check_block_config(desc, accel, Shape4(1, height, width, depth))


def dma_desc(dma: DmaOp, target: Target) -> NpuOpDesc:
    """A feature-map DMA as the cost model's copy: its bytes from the source's memory to the
    destination's."""
    size = Shape4(1, 1, 1, max(1, int(dma.length)))
    source = region_area(dma.src.region, target)
    destination = source if dma.dst.internal else region_area(dma.dst.region, target)  # (SHRAM: LUTs, costed apart)
    return NpuOpDesc(OpKind.DMA, TensorDesc(size, memory=source), TensorDesc(size, memory=destination))


__all__ = ["CostedOp", "Part", "accelerator_name", "block_config", "describe", "dma_desc", "encoded_weight_bytes",
           "group_parts", "region_area"]
