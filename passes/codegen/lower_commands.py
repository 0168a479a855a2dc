"""``npu-lower-commands``: the scheduled npu dialect to one ``ethosu.program`` per NPU run, the
registers of each operation and weight DMA as Vela 5.2's legacy generator sets them
(docs/codegen_design.md)."""
from __future__ import annotations

from npu_opt.dialects.ethosu.attrs import (
    ActivationAttr, BlockAttr as EthosuBlock, FeatureMapAttr, KernelAttr as EthosuKernel, MemAttr,
)
from npu_opt.dialects.ethosu.ops_block import BlockOp, ConvOp, DepthwiseOp, ElementwiseOp, PoolOp
from npu_opt.dialects.ethosu.ops_stream import DmaOp, ProgramOp, StopOp
from npu_opt.dialects.npu.perf.weight_dma import weight_dma
from npu_opt.dialects.npu.execution_order import is_view, runs_by_function
from npu_opt.dialects.npu.interfaces import costed
from npu_opt.dialects.npu.ops_common import encoding_of, quant_of, storage_of
from npu_opt.dialects.npu.ops_memory import ConcatOp, SliceOp
from npu_opt.dialects.npu.quant import quantise_float32, scale_and_zero_point
from npu_opt.dialects.tfl.shapes import constant_array
from npu_opt.dialects.npu.perf.ir_adapter import describe_op
from npu_opt.dialects.npu.perf.ir_attrs import BLOCK_ATTR, BlockAttr
from npu_opt.dialects.npu.schedule_attrs import (
    ALLOC_ATTR, ARG_ALLOC_ATTR, BAND_ATTR, CASCADE_ATTR, FLASH_ATTR, SECOND_BUFFER_ATTR, AllocAttr, CascadeAttr,
    FlashAttr,
)
from npu_opt.dialects.npu.stripe_plan import (
    Box, PlanError, Stripe, cascade_stripes, cascades_of, feature_map_operands,
)
from npu_opt.dialects.npu.target_attr import target_of
from npu_opt.hardware.op_kind import OpKind
from npu_opt.hardware.perf.block_config import check_block_config
from npu_opt.hardware.perf.op_desc import NpuOpDesc, TensorDesc, derived
from npu_opt.hardware.perf.shape import Shape4, round_up
from npu_opt.hardware.target import Target
from npu_opt.interpreters.npu.arith import explicit_rescale, rounding_of, scale, zero_point as zero_point_of
from npu_opt.ir.analysis import AnalysisManager
from npu_opt.ir.attributes import ArrayAttr
from npu_opt.ir.core import Block, BlockArgument, OpResult, Operation, Region, Value
from npu_opt.ir.location import NameLoc
from npu_opt.ir.pass_manager import PassContext
from npu_opt.ir.pass_registry import Pass, register_pass
from npu_opt.ir.traits import ConstantLike
from npu_opt.passes.codegen.dependencies import DependencyError, Inputs, blockdep, waits
from npu_opt.passes.codegen.elementwise import elementwise_registers
from npu_opt.passes.codegen.encodable import check_encodable
from npu_opt.passes.codegen.flash_layout import is_table_lookup_alone
from npu_opt.passes.codegen.lookup_tables import LutPlacer
from npu_opt.passes.codegen.read_only import constant_bytes
from npu_opt.passes.codegen.pooling import BUILT_IN_FUNCTIONS, average_pool_scaling, reduce_sum_scaling
from npu_opt.passes.codegen.stripes import box_tiles, stripe_padding
from npu_opt.passes.codegen.weight_bytes import (
    LoweringError, WeightBuffer, WeightBuffers, core_streams, weight_stream_of,
)

FLASH_REGION = 0
SCRATCH_REGION = 1
FAST_SCRATCH_REGION = 2
CLAMP_ONLY = ("none", "relu", "relu6", "relu_n1_to_1", "relu0_to_1", "relu_0_to_1", "clip")
"""npu activations the NPU applies as the OFM clamp alone."""
ACC_FORMAT = {32: "int32", 40: "int40"}
DTYPE_RANGES = {"int8": (-128, 127), "uint8": (0, 255), "int16": (-(1 << 15), (1 << 15) - 1),
                "int32": (-(1 << 31), (1 << 31) - 1)}
ROUNDINGS = {"tflite": "tfl", "half_up": "natural", "to_zero": "truncate", "away_zero": "natural"}
"""The op's rounding -> OFM_PRECISION's rounding (away from zero: Vela's natural rounding, with
the zero points of ``_away_zero_points``)."""
KIND_OPS = {OpKind.CONV2D: ConvOp, OpKind.TRANSPOSE_CONV2D: ConvOp, OpKind.VECTOR_PRODUCT: ConvOp,
            OpKind.DEPTHWISE_CONV2D: DepthwiseOp, OpKind.MAX_POOL: PoolOp, OpKind.AVG_POOL: PoolOp,
            OpKind.REDUCE_SUM: PoolOp,
            OpKind.ELEMENTWISE_BINARY: ElementwiseOp, OpKind.ELEMENTWISE_UNARY: ElementwiseOp}
"""The npu op kinds lowered so far and the ethosu op each becomes."""


def region_of(area: str, target: Target) -> int:
    """The base-pointer region of a memory area: read-only data, the arena, or the fast storage
    (its own region only when it is not the arena)."""
    if area == target.feature_map_storage_area:
        return SCRATCH_REGION
    if area == target.fast_storage_area:
        return FAST_SCRATCH_REGION if target.is_spilling_enabled else SCRATCH_REGION
    return FLASH_REGION


def _shape4(op: Operation, value: Value) -> tuple[int, int, int, int]:
    shape = tuple(int(d) for d in value.type.shape)  # type: ignore[attr-defined]
    if len(shape) > 4 or (len(shape) == 4 and shape[0] != 1):
        raise LoweringError(op, f"a feature map of shape {'x'.join(map(str, shape))} has a batch other than 1")
    return (1,) * (4 - len(shape)) + shape  # type: ignore[return-value]


def _dtype(op: Operation, value: Value) -> str:
    storage = storage_of(value.type)
    name = None if storage is None else f"{'u' if getattr(storage, 'is_unsigned', False) else ''}int{storage.width}"
    if name not in ("int8", "uint8", "int16", "int32"):
        raise LoweringError(op, f"a feature map of element type {value.type} is not lowered yet")
    return name  # type: ignore[return-value]


def _clamp_without_zero_point(act: object, zero: int, limits: tuple[int, int]) -> tuple[int, int]:
    """An average pool's clamp when its OFM zero point is written as 0: npu-legalize put the zero
    point into the bounds (the NPU adds none), Vela's registers hold them without it; a bound at
    the type's limit (no clamp there) stays."""
    return tuple(value if value == limit else value - zero  # type: ignore[return-value]
                 for value, limit in zip((act.min, act.max), limits))  # type: ignore[attr-defined]


def _unary_zero(op: Operation) -> int | None:
    """0 for the IFM zero point of a shift left or count of leading zeros without an activation
    (Vela drops it there), else None (the quantisation's)."""
    interface = costed(op)
    act = op.attr("activation")
    if interface is not None and interface.elementwise in ("shl", "clz") and (act is None or act.kind == "none"):
        return 0
    return None


def _rolling_rows(stored: Value, height: int) -> int:
    """The rows a feature map's storage holds: its rolling buffer's when a cascade member writes
    it into one (rows wrap round it), else all ``height``."""
    cascade = stored.op.attr(CASCADE_ATTR) if isinstance(stored, OpResult) else None
    if isinstance(cascade, CascadeAttr) and cascade.rolling is not None:
        return int(cascade.rolling[0])
    return height


def _stripe_desc(desc: NpuOpDesc, stripe: Stripe) -> NpuOpDesc:
    """``desc`` with the stripe's OFM box and input boxes as its feature maps' shapes (Vela
    chooses an operation's SHRAM layout on them)."""
    def boxed(tensor: TensorDesc | None, box: Box | None) -> TensorDesc | None:
        if tensor is None or box is None:
            return tensor
        return derived(tensor, shape=Shape4(1, *box.shape), whole=None)
    return derived(desc, ofm=boxed(desc.ofm, stripe.ofm), ifm=boxed(desc.ifm, stripe.inputs.get(0)),
                   ifm2=boxed(desc.ifm2, stripe.inputs.get(1)))


def _own_desc(desc: NpuOpDesc) -> NpuOpDesc:
    """``desc`` with each feature map its own shape rather than the whole tensor it is a window
    or a part of."""
    def own(tensor: TensorDesc | None) -> TensorDesc | None:
        return None if tensor is None else derived(tensor, whole=None)
    return derived(desc, ofm=own(desc.ofm), ifm=own(desc.ifm), ifm2=own(desc.ifm2))


def _away_zero_points(op: Operation, kind: OpKind | None) -> tuple[int | None, int | None]:
    """The IFM and OFM zero points (None: the quantisation's) of an op rounding away from zero,
    as Vela writes them: 0 for an average pool computed as a convolution unless it had SAME
    padding, 0 for the OFM of one computed as a depthwise convolution over a folded PAD."""
    if getattr(op.attr("padding_mode"), "value", None) == "replicate":
        raise LoweringError(op, "replicated padding (a bilinear resize's phases: Vela's tile padding) "
                                "is not lowered yet")
    padding = getattr(op.attr("pool_padding"), "value", None)
    if padding is None:
        raise LoweringError(op, "it rounds away from zero but has no pool_padding (npu-legalize writes it "
                                "on the average pools it computes as convolutions)")
    if kind is OpKind.CONV2D and padding in ("valid", "explicit"):
        return 0, 0
    if kind is OpKind.DEPTHWISE_CONV2D and padding == "explicit":
        return None, 0
    return None, None


def _concat_of(value: Value) -> ConcatOp | None:
    """The concatenation ``value`` is written into (in place, as one of its parts), if any."""
    return next((user for user in value.users() if isinstance(user, ConcatOp)), None)


def _concat_offset(op: Operation, concat: ConcatOp, part: Value) -> tuple[int, int, int]:
    """The (y, x, c) offset at which ``op`` writes its OFM ``part`` into ``concat``'s buffer
    (Vela's write offset); an interleaved (strided) write is refused."""
    steps = concat.steps()
    if steps != (1, 1, 1, 1):
        raise LoweringError(op, f"a write into a concatenation with element strides {list(steps)} "
                                "(the OFM stride multiplier) is not lowered yet")
    index = next(i for i, operand in enumerate(concat.operands) if operand is part)
    offset = tuple(int(v) for v in concat.offsets[index].values)
    if offset[0] != 0:
        raise LoweringError(op, f"a write into a concatenation at batch {offset[0]} is not lowered yet")
    return offset[1], offset[2], offset[3]  # type: ignore[return-value]


def _element_bytes(dtype: str) -> int:
    return int(dtype.lstrip("u").removeprefix("int")) // 8


class _Lowering:
    """The lowering of one function's NPU runs on a target."""

    def __init__(self, func: Operation, target: Target, buffers: WeightBuffers) -> None:
        self.target = target
        self.buffers = buffers
        args = func.attr(ARG_ALLOC_ATTR)
        self.arg_allocs = list(args.elements) if isinstance(args, ArrayAttr) else []
        self.luts = LutPlacer(target.accelerator)

    def alloc_of(self, op: Operation, value: Value) -> AllocAttr:
        """The storage of ``value`` (through reshape views; a concatenation's own)."""
        for _ in range(10_000):  # a chain of views is finite; the bound guards against malformed IR
            if _concat_of(value) is not None:
                raise LoweringError(op, "a concatenation's part is read as a feature map of its own")
            producer = value.op if isinstance(value, OpResult) else None
            if producer is None or not is_view(producer) or isinstance(producer, (SliceOp, ConcatOp)):
                break
            value = producer.operands[0]
        if isinstance(value, BlockArgument):
            alloc = self.arg_allocs[value.index] if value.index < len(self.arg_allocs) else None
        else:
            alloc = value.op.attr(ALLOC_ATTR)
        if not isinstance(alloc, AllocAttr):
            raise LoweringError(op, "an operand has no #npu.alloc (npu-allocate has not run, or a view of a view)")
        return alloc

    def feature_map(self, op: Operation, value: Value, is_ofm: bool, zero_point: int | None = None,
                    box: Box | None = None) -> FeatureMapAttr:
        """The registers of ``value`` as a feature map: the whole tensor in one tile, the box a
        slice view reads (based at its first element, with the strides of the sliced tensor), or
        a stripe's ``box`` (in up to two tiles where it wraps round a rolling buffer)."""
        _, height, width, depth = _shape4(op, value)
        dtype = _dtype(op, value)
        size = _element_bytes(dtype)
        stored, start = value, (0, 0, 0)
        producer = value.op if isinstance(value, OpResult) else None
        concat = _concat_of(value) if is_ofm else None
        if isinstance(producer, SliceOp):
            if box is not None:
                raise LoweringError(op, "a stripe of a slice view is not lowered yet")
            stored = producer.operands[0]
            start = tuple(int(v) for v in producer.offset.values[1:])
        elif isinstance(concat, ConcatOp):  # written in place into the concatenation at its offset
            stored, start = concat.results[0], _concat_offset(op, concat, value)
        _, _, full_width, full_depth = _shape4(op, stored)
        encoding = encoding_of(stored)
        layout = encoding.format if encoding is not None else "NHWC"
        if layout == "NHCWB16":
            strides = [16 * size, full_width * round_up(full_depth, 16) * size, 16 * full_width * size]
            if start[2] % 16:
                raise LoweringError(op, f"a window from channel {start[2]} of an NHCWB16 tensor cannot be encoded: "
                                        "NHCWB16 windows start on a multiple of 16 channels")
        else:
            strides = [full_depth * size, full_width * full_depth * size, size]
        alloc = self.alloc_of(op, stored)
        if zero_point is None and dtype == "int32" and not is_ofm:
            zero_point = 0  # an int32 input's zero point is not applied
        if zero_point is None:
            zero_point = zero_point_of(value)
        if box is None:
            box = Box((0, start[0], start[1], start[2]), (1, start[0] + height, start[1] + width, start[2] + depth))
            rows = _shape4(op, stored)[1]
        else:
            shift = (0, *start)
            box = Box(tuple(a + b for a, b in zip(box.start, shift)), tuple(a + b for a, b in zip(box.end, shift)))
            rows = _rolling_rows(stored, _shape4(op, stored)[1])
        tiles, bases = box_tiles(box, rows, alloc.offset, layout, strides, size)
        box_height, box_width, box_depth = box.shape
        shape = {"height": box_height, "width": box_width} if is_ofm else {}
        return FeatureMapAttr.build(dtype=dtype, layout=layout, region=region_of(alloc.area, self.target),
                                    bases=bases, tiles=tiles, strides=strides, depth=box_depth,
                                    zero_point=zero_point, **shape)

    def weight_slices(self, op: Operation, buffer: WeightBuffer) -> list[tuple[int, int, dict | None]]:
        """Per depth slice of ``op``'s weights: the region and address the op reads the slice's
        ranges from, and the attributes of the DMA copying the slice there (None: read in place)."""
        flash = op.attr(FLASH_ATTR)
        if not isinstance(flash, FlashAttr):
            raise LoweringError(op, "it has no npu.flash (run npu-flash-layout first)")
        starts = [0]
        for ranges in buffer.by_slice:
            starts.append(starts[-1] + sum(WeightBuffer.range_bytes(part) for part in ranges))
        count = len(starts) - 1
        stream = weight_stream_of(op)
        if stream is None:
            return [(FLASH_REGION, flash.offset + starts[i], None) for i in range(count)]
        dma = weight_dma(op)
        assert dma is not None  # (a stream is a weight DMA's fact)
        buffers = [self.alloc_of(dma, dma.results[0])]
        second = dma.attr(SECOND_BUFFER_ATTR)
        if stream.buffering == "double":
            if not isinstance(second, AllocAttr):
                raise LoweringError(dma, "a double-buffered weight stream without npu.second_buffer")
            buffers.append(second)
        slices = []
        for index in range(count):
            home = buffers[index % len(buffers)]
            region = region_of(home.area, self.target)
            copy = {"src": MemAttr.build(region=FLASH_REGION, address=flash.offset + starts[index]),
                    "dst": MemAttr.build(region=region, address=home.offset),
                    "length": starts[index + 1] - starts[index]}
            slices.append((region, home.offset, copy))
        return slices

    def lower(self, op: Operation, stripe: Stripe | None = None) -> list[Lowered]:
        """The ethosu ops of ``op`` (per depth slice: its weight DMA, its table's DMA, its
        operation), or of one ``stripe`` of it (its weight DMA only on the first row of stripes)."""
        if op.name == "npu.dma":
            return []  # a weight DMA: issued with the op reading it
        if op.attr(BAND_ATTR) is not None:
            raise LoweringError(op, "an op in column bands (npu.band) is not lowered yet")
        interface = costed(op)
        kind = interface.kind if interface is not None else None
        cls = KIND_OPS.get(kind)  # type: ignore[arg-type]
        if cls is None:
            raise LoweringError(op, f"ops of kind {kind.value if kind else op.name} are not lowered yet")
        rounding = ROUNDINGS.get(rounding_of(op))
        if rounding is None:
            raise LoweringError(op, f"rounding {rounding_of(op)} is not lowered yet")
        act = op.attr("activation")
        if act is not None and act.kind not in CLAMP_ONLY and act.kind not in ("lut", *BUILT_IN_FUNCTIONS):
            raise LoweringError(op, f"activation {act.kind} is not lowered yet")
        desc = describe_op(op, self.target)
        given = op.attr(BLOCK_ATTR)
        if desc is None or not isinstance(given, BlockAttr):
            raise LoweringError(op, "it has no npu.block (run the schedule first)")
        # the SHRAM layout is chosen for the feature maps the operation reads and writes (the
        # stripe's; a slice read or a concatenation part, not the whole tensor the scheduler sized)
        desc = _stripe_desc(desc, stripe) if stripe is not None else _own_desc(desc)
        if explicit_rescale(op) is not None:
            desc = derived(desc, rescaled=False)  # an explicit rescale stands for Vela's unscaled operand
        buffer = self.buffers.of(op, self.target) if cls is not PoolOp else None  # (once for all its stripes)
        # the NPU is told the traversal the weights were encoded in; only convolutions have a choice
        part_kernel = bool(buffer and buffer.part_kernel and kind in (OpKind.CONV2D, OpKind.TRANSPOSE_CONV2D))
        block = check_block_config(desc, self.target.accelerator, given.ofm_block, part_kernel)
        if block is None:
            raise LoweringError(op, f"its block {given.ofm_block} does not fit SHRAM with "
                                    f"{'part-kernel' if part_kernel else 'depth'}-first traversal")
        if block.acc_bits not in ACC_FORMAT:
            raise LoweringError(op, f"{block.acc_bits}-bit accumulators are not lowered yet")
        ifm_zero = ofm_zero = None
        if rounding_of(op) == "away_zero":
            ifm_zero, ofm_zero = _away_zero_points(op, kind)
        pool_scale = None
        if kind is OpKind.AVG_POOL:
            kernel_attr = op.attr("kernel")
            pool_scale, zero = average_pool_scaling(op, tuple(kernel_attr.padding) if kernel_attr else (0, 0, 0, 0))
            if zero and _concat_of(op.results[0]) is None:  # a concatenation's write keeps them (Vela)
                ifm_zero = ofm_zero = 0
        elif kind is OpKind.REDUCE_SUM:
            pool_scale = reduce_sum_scaling(op)
        if cls is ElementwiseOp and _unary_zero(op) == 0:
            ofm_zero = 0
        if is_table_lookup_alone(op):  # the OFM is written in the IFM's quantisation: the table rescales
            ofm_zero = zero_point_of(op.operands[0])
        boxes = stripe.inputs if stripe is not None else {}
        ofm = self.feature_map(op, op.results[0], True, ofm_zero, stripe.ofm if stripe is not None else None)
        activation, table_copy = self.activation(op, act, ofm.dtype, ofm_zero == 0)
        if cls is ElementwiseOp:  # its operands may be constants, scalars or swapped: see ``elementwise``
            ifm = ofm
        else:  # (a pool may read a constant: a PAD's border fill)
            ifm = self.operand_map(op, op.operands[0], None, ifm_zero, boxes.get(0))
        if kind not in (OpKind.CONV2D, OpKind.TRANSPOSE_CONV2D, OpKind.VECTOR_PRODUCT, OpKind.REDUCE_SUM):
            ifm = ifm.replaced(depth=ofm.depth)  # IFM_DEPTH follows the OFM but for convolutions and sums
        ifm_shape = _shape4(op, op.operands[0])[1:] if cls is not ElementwiseOp else (0, 0, 0)
        if stripe is not None and cls is not ElementwiseOp:
            ifm_shape = (*boxes[0].shape[:2], ifm.depth)
        kernel = op.attr("kernel")
        size, stride, dilation, padding = ((1, 1), (1, 1), (1, 1), (0, 0, 0, 0)) if kernel is None else (
            tuple(kernel.size), tuple(kernel.stride), tuple(kernel.dilation), tuple(kernel.padding))
        if stripe is not None and kernel is not None and kind is not OpKind.VECTOR_PRODUCT:
            padding = stripe_padding(padding, stripe, _shape4(op, op.operands[0])[2])
        resampling = getattr(op.attr("resampling"), "value", None) or "none"
        layout = block.layout
        attrs = {
            "ifm": ifm, "ofm": ofm,
            "activation": activation,
            "block": EthosuBlock.build(size=(block.ofm_block.height, block.ofm_block.width, block.ofm_block.depth),
                                       ib_end=layout.ifm_end, ab_start=layout.acc_start,
                                       acc=ACC_FORMAT[block.acc_bits]),
            "rounding": rounding, "upscale": resampling, "blockdep": 0,
            "kernel": EthosuKernel.build(size=size, stride=stride, dilation=dilation, padding=list(padding),
                                         part_kernel_first=part_kernel),
        }
        lowered_table: list[Lowered] = [(DmaOp, table_copy, None)] if table_copy is not None else []
        if cls is PoolOp:
            attrs["mode"] = {OpKind.MAX_POOL: "max", OpKind.AVG_POOL: "average"}.get(kind, "reduce_sum")
            if pool_scale is not None:
                attrs["ofm_scale"] = pool_scale
            return [*lowered_table, (cls, attrs, (ifm_shape, None))]
        if cls is ElementwiseOp:
            del attrs["kernel"]
            found, inputs = self.elementwise(op, attrs, layout.ifm2_start, boxes)
            return [*lowered_table, (cls, found, inputs)]
        assert buffer is not None
        lowered: list[Lowered] = []
        slices = list(zip(self.weight_slices(op, buffer), buffer.by_slice, zip(buffer.slices, buffer.slices[1:])))
        if stripe is not None:  # one slice, already windowed by the stripe's boxes
            slices = [slices[stripe.depth_index]]
        for (region, address, copy), ranges, (d0, d1) in slices:
            if copy is not None and (stripe is None or stripe.first_row):
                lowered.append((DmaOp, copy, None))
            lowered += lowered_table  # (Vela copies the table after the first slice's weights)
            lowered_table = []
            inputs = (ifm_shape, None)
            sliced = dict(attrs)
            if stripe is None:
                sliced["ofm"] = _depth_window(ofm, d0, d1)
                if kind is OpKind.DEPTHWISE_CONV2D:
                    sliced["ifm"] = _depth_window(ifm, d0, d1)
                    inputs = ((ifm_shape[0], ifm_shape[1], d1 - d0), None)
            sliced.update(core_streams(region, address, ranges, self.target.accelerator.cores))
            lowered.append((cls, sliced, inputs))
        return lowered

    def activation(self, op: Operation, act: object, ofm_dtype: str,
                   zero_dropped: bool = False) -> tuple[ActivationAttr, dict | None]:
        """ACTIVATION and its clamp (within 16 bits and the OFM type; a table lookup into an
        int32 OFM clips to int8), and the DMA copying the op's table into SHRAM if needed.
        ``zero_dropped``: the OFM zero point is written as 0, so the clamp is quantised without it."""
        low, high = DTYPE_RANGES[ofm_dtype]
        low, high = max(low, -(1 << 15)), min(high, (1 << 15) - 1)
        if act is not None:
            bounds = (act.min, act.max)  # type: ignore[attr-defined]
            quant = quant_of(op.results[0])
            if zero_dropped and quant is not None and quant.zero_points[0] != 0:
                bounds = _clamp_without_zero_point(act, int(quant.zero_points[0]), DTYPE_RANGES[ofm_dtype])
            low, high = max(low, bounds[0]), min(high, bounds[1])
        if act is None or act.kind != "lut":  # type: ignore[attr-defined]
            self.luts.op_without_table()
            function = act.kind if act is not None and act.kind in BUILT_IN_FUNCTIONS else "none"  # type: ignore[attr-defined]
            return ActivationAttr.build(function=function, min=low, max=high), None
        table = op.lut_operand()  # type: ignore[attr-defined]
        flash = table.op.attr(FLASH_ATTR) if isinstance(table, OpResult) else None
        if not isinstance(flash, FlashAttr):
            raise LoweringError(op, "its lookup table has no npu.flash (run npu-flash-layout first)")
        data = constant_bytes(table.op)
        address, copied = self.luts.place(data)
        clip = "ofm"
        if ofm_dtype == "int32":
            clip, low, high = "int8", max(low, -128), min(high, 127)
        attr = ActivationAttr.build(function=f"lut{self.luts.slot(address)}", clip=clip, min=low, max=high)
        copy = None
        if copied:
            copy = {"src": MemAttr.build(region=FLASH_REGION, address=flash.offset),
                    "dst": MemAttr.build(region=3, address=address, internal=True),
                    "length": round_up(len(data), 16)}
        return attr, copy

    def elementwise(self, op: Operation, attrs: dict, ifm2_start: int,
                    boxes: dict[int, Box]) -> tuple[dict, Inputs]:
        """A binary elementwise op's attributes and input shapes: the IFM2 (a feature map of the
        IFM's shape or broadcast along axes of size 1, a constant in the read-only data, or a
        scalar), the operands swapped when the first is the broadcast or scalar one, the scaling;
        ``boxes``: the operands' boxes in a stripe (by operand index)."""
        if boxes:
            if is_table_lookup_alone(op) or any(isinstance(v, OpResult) and v.op.has_trait(ConstantLike)
                                                or not len(v.type.shape)  # type: ignore[attr-defined]
                                                for v in op.operands[:2]):
                raise LoweringError(op, "a stripe of an elementwise op with a constant, scalar or table "
                                        "operand is not lowered yet")
        if is_table_lookup_alone(op):  # the add of a scalar zero, rescaled by the IFM's scale only
            found = dict(attrs)
            found["ifm"] = self.operand_map(op, op.operands[0], attrs["ofm"].depth)
            found["ifm2"] = FeatureMapAttr.build(dtype=found["ifm"].dtype, layout="NHWC", zero_point=0)
            found["ifm2_scalar"] = 0
            in_scale = scale(op.operands[0])
            found.update(elementwise_registers(op, 8 * _element_bytes(found["ifm"].dtype),
                                               scales=(in_scale, in_scale, in_scale)))
            return found, (_shape4(op, op.operands[0])[1:], None)
        if costed(op).kind is OpKind.ELEMENTWISE_UNARY:  # type: ignore[union-attr]
            found = dict(attrs)
            found["ifm"] = self.operand_map(op, op.operands[0], attrs["ofm"].depth, _unary_zero(op), boxes.get(0))
            found.update(elementwise_registers(op, 8 * _element_bytes(found["ifm"].dtype)))
            shape = boxes[0].shape if boxes else _shape4(op, op.operands[0])[1:]
            return found, (shape, None)
        first, second = op.operands[0], op.operands[1]
        box1, box2 = boxes.get(0), boxes.get(1)
        rank1, rank2 = len(first.type.shape), len(second.type.shape)  # type: ignore[attr-defined]
        shape1 = _shape4(op, first)[1:] if rank1 else None
        shape2 = _shape4(op, second)[1:] if rank2 else None
        ofm_shape = _shape4(op, op.results[0])[1:]

        def constant(value: Value) -> bool:
            return isinstance(value, OpResult) and value.op.has_trait(ConstantLike)
        # the primary input is a feature map read whole: a constant or scalar first operand yields to it
        swapped = ((constant(first) or shape1 is None)
                   and not (constant(second) or shape2 is None or shape2 != ofm_shape))
        # a scalar or broadcast operand must be the IFM2
        swapped = swapped or shape1 is None or (
            shape2 is not None and any(a == 1 and b > 1 for a, b in zip(shape1, shape2)))
        if swapped:
            first, second, shape1, shape2, box1, box2 = second, first, shape2, shape1, box2, box1
        assert shape1 is not None
        found = dict(attrs)
        found["ifm"] = self.operand_map(op, first, attrs["ofm"].depth, _unary_zero(op), box1)
        if shape2 is None:  # a scalar: its quantised value in IFM2_SCALAR
            scale_, zero = scale_and_zero_point(quant_of(second))
            scale_, zero = float(scale_), int(zero)
            raw = int(constant_array(second).reshape(-1)[0])  # type: ignore[union-attr]
            found["ifm2_scalar"] = quantise_float32((raw - zero) * scale_, scale_, zero)
            found["ifm2"] = FeatureMapAttr.build(dtype=_dtype(op, second), layout="NHWC",
                                                 zero_point=0 if _dtype(op, second) == "int32" else zero)
        else:
            ifm2 = self.operand_map(op, second, None, None, box2)
            found["ifm2"] = FeatureMapAttr.build(dtype=ifm2.dtype, layout=ifm2.layout, region=ifm2.region,
                                                 bases=ifm2.bases, tiles=ifm2.tiles, strides=ifm2.strides,
                                                 zero_point=ifm2.zero_point)
            axes = "".join(axis for axis, a, b in zip("hwc", shape1, shape2) if a != b)
            if axes:
                found["broadcast"] = axes
            found["block"] = attrs["block"].replaced(ib2_start=ifm2_start)
        if swapped:
            found["reversed_operands"] = True
        found.update(elementwise_registers(op, 8 * _element_bytes(found["ifm"].dtype), swapped))
        if box1 is not None and box2 is not None:
            return found, (box1.shape, box2.shape)
        return found, (shape1, shape2)

    def operand_map(self, op: Operation, value: Value, depth: int | None,
                    zero_point: int | None = None, box: Box | None = None) -> FeatureMapAttr:
        """An input operand as a feature map: in the scratch, or a constant in the
        read-only data (``npu.flash`` on the constant); ``depth`` overrides IFM_DEPTH; ``box``:
        the part a stripe reads."""
        if isinstance(value, OpResult) and value.op.has_trait(ConstantLike):
            flash = value.op.attr(FLASH_ATTR)
            if not isinstance(flash, FlashAttr):
                raise LoweringError(op, "a constant operand has no npu.flash (run npu-flash-layout first)")
            _, height, width, channels = _shape4(op, value)
            size = _element_bytes(_dtype(op, value))
            fm = FeatureMapAttr.build(dtype=_dtype(op, value), layout="NHWC", region=FLASH_REGION,
                                      bases=[flash.offset, 0, 0, 0], tiles=[height, height, width],
                                      strides=[channels * size, width * channels * size, size], depth=channels,
                                      zero_point=zero_point_of(value) if _dtype(op, value) != "int32" else 0)
        else:
            fm = self.feature_map(op, value, False, zero_point, box)
        return fm if depth is None else fm.replaced(depth=depth)


def _depth_window(fm: FeatureMapAttr, first: int, end: int) -> FeatureMapAttr:
    """Channels [first, end) of a feature map: the base moved to channel ``first``, the depth
    the window's; a window starts on a 16-channel brick in NHCWB16."""
    size = fm.strides[2] if fm.layout == "NHWC" else 1  # type: ignore[index]
    if fm.layout == "NHCWB16":
        if first % 16:
            raise ValueError(f"an NHCWB16 depth window starting at channel {first}")
        offset = (first // 16) * fm.strides[2]  # type: ignore[index]
    else:
        offset = first * size
    bases = [fm.bases[0] + offset, *fm.bases[1:]]  # type: ignore[index]
    return fm.replaced(bases=bases, depth=end - first)


Lowered = tuple[type, dict, "Inputs | None"]
"""An ethosu op to build: its class, its attributes and a block op's input shapes."""


def _in_stripes(op: Operation) -> bool:
    """Whether ``op`` is lowered through the stripe plan: a cascade member, or an NPU op on
    feature maps of its own (the whole OFM one stripe, its input boxes Vela's; a slice view's
    read or a constant or scalar operand is lowered whole)."""
    if isinstance(op.attr(CASCADE_ATTR), CascadeAttr):
        return True
    if op.name == "npu.dma" or costed(op) is None or is_table_lookup_alone(op):
        return False
    return all(isinstance(value, BlockArgument) or not (value.op.name == "npu.slice" or value.op.has_trait(ConstantLike))
               for value in (op.operands[i] for i in feature_map_operands(op))) \
        and all(len(op.operands[i].type.shape) == 4 for i in feature_map_operands(op))  # type: ignore[attr-defined]


def part_location(op: Operation) -> NameLoc:
    """Where an NPU operation or DMA of ``op`` comes from: the scheduled op's name around its
    location, shared by all its parts (ethosu-estimate groups the parts by it)."""
    name = op.attr("name")
    return NameLoc(str(name.value) if name is not None else op.name, op.location)


def lower_run(run: list[Operation], func: Operation, target: Target, buffers: WeightBuffers | None = None
              ) -> ProgramOp:
    """The ethosu.program of one NPU run of ``func``, with its waits and block dependencies
    (weight buffers from ``buffers`` when given); LoweringError at the first op it cannot lower."""
    module = func.parent_op() or func
    lowering = _Lowering(func, target, buffers if buffers is not None else WeightBuffers(module, AnalysisManager()))
    lowered = []
    for group in cascades_of(run):
        try:
            stripes = cascade_stripes(group) if _in_stripes(group[0]) else None
        except PlanError as err:
            raise LoweringError(err.op, str(err)) from None
        if stripes is None:
            lowered += [(op, item) for op in group for item in lowering.lower(op)]
        else:
            lowered += [(stripe.op, item) for stripe in stripes for item in lowering.lower(stripe.op, stripe)]
    made = [(cls, attrs, op) for op, (cls, attrs, _) in lowered]
    shapes = [inputs for _, (_, _, inputs) in lowered]
    drafts = [cls.build(attrs=attrs) for cls, attrs, _ in made]
    ifm_shapes = {draft: inputs for draft, inputs in zip(drafts, shapes) if inputs is not None}
    block = Block()
    previous: BlockOp | None = None
    current = run[0]
    try:
        found = waits(drafts, ifm_shapes, target.accelerator)
        for draft, (cls, attrs, op), (kernel_wait, dma_wait) in zip(drafts, made, found):
            current = op
            final = dict(attrs)
            if isinstance(draft, BlockOp):
                final["blockdep"] = blockdep(previous, draft, ifm_shapes[draft], target.accelerator)
                previous = draft
            if kernel_wait is not None:
                final["kernel_wait"] = kernel_wait
            if dma_wait is not None:
                final["dma_wait"] = dma_wait
            check_encodable(op, final, target.accelerator)
            block.append(cls.build(attrs=final, location=part_location(op)))  # (a register's error points at the op)
    except DependencyError as err:
        raise LoweringError(current, str(err)) from None
    block.append(StopOp.build(attrs={"mask": 0xFFFF}))
    attrs = {"parallel_mode": target.accelerator.cores - 1} if target.accelerator.is_u65 else {}
    return ProgramOp.build(attrs=attrs, regions=[Region([block])])  # type: ignore[return-value]


@register_pass("npu-lower-commands", statistics={
    "programs": "ethosu.program ops written (one per NPU run)",
    "operations": "NPU operations lowered",
    "dmas": "weight DMAs lowered",
})
class LowerCommands(Pass):
    """Lower each NPU run of a scheduled module to an ``ethosu.program`` appended to the module.

    Handled so far: convolutions, depthwise and transpose convolutions, vector products, max and
    average pooling, reduce-sums, binary elementwise operations (add, sub, mul, min, max, shifts),
    abs, leaky ReLU and leading-zero counts, the built-in tanh and sigmoid, stripe by stripe
    (cascade members interleaved, rolling buffers in tiles) or over slice views, writes into a
    concatenation at their offsets, with weights read in place or streamed by DMAs per depth
    slice, and lookup tables copied into SHRAM. Anything else is an error at the op naming what
    is not handled, and no program is written."""

    PRESERVES = (WeightBuffers,)
    """It appends programs: every weight buffer stays as encoded (npu-outline reads them)."""

    def run(self, module: Operation, ctx: PassContext) -> None:
        target = target_of(module)
        encoded = ctx.analyses.get(WeightBuffers, module)
        programs = []
        try:
            for block, runs in runs_by_function(module, ctx):
                for run in runs:
                    programs.append(lower_run(run, block.parent_op(), target, encoded))
        except LoweringError as err:
            ctx.error(str(err), err.op)
            return
        body = module.regions[0].blocks[0]
        for program in programs:
            ctx.rewriter.append(program, body)
            ctx.stat("programs")
            for op in program.regions[0].blocks[0].ops:
                ctx.stat("dmas" if isinstance(op, DmaOp) else "operations", 0 if isinstance(op, StopOp) else 1)
        ctx.remark(f"{len(programs)} command stream(s) written", module)


__all__ = ["LowerCommands", "lower_run", "region_of"]
