"""A lower bound on the cycles and peak SRAM any schedule of a module can reach (``lower_bound``),
so reports can judge a schedule against what is physically possible, not only against Vela.

Design notes: docs/cost_model_design.md, section The lower bound (lower_bound)."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from npu_opt.hardware.perf.arch import PerfTarget
from npu_opt.hardware.perf.op_desc import NpuOpDesc, OpKind, Resampling, TensorDesc
from npu_opt.hardware.perf.shape import Shape4
from npu_opt.hardware.codec.weight_size import SCALE_RECORD_BYTES
from npu_opt.hardware.target import Target
from npu_opt.ir.analysis import AnalysisManager
from npu_opt.ir.core import Operation, Value


@dataclass(frozen=True)
class OpBound:
    """One op's share of the bound: cycles of its compute and feature-map terms, its weight
    bytes and where they are read from, and its own smallest fast-storage footprint."""

    name: str
    compute: float
    feature_map: float
    weight_bytes: int
    weight_area: str
    sram_bytes: int

    @property
    def cycles(self) -> float:
        """The op's lower bound: the slower of its compute and its feature-map traffic."""
        return max(self.compute, self.feature_map)


@dataclass(frozen=True)
class LowerBound:
    """Cycles and peak fast-storage bytes no schedule of the module can go below (see the
    module docstring); ``ops`` has the per-op terms, ``weight_cycles`` the network-wide weight
    term."""

    cycles: int
    sram_bytes: int
    ops: tuple[OpBound, ...] = ()
    weight_cycles: float = 0.0


def percent_of(value: float, bound: float) -> float | None:
    """``value`` as a percentage of ``bound`` (None when the bound is 0: not defined)."""
    return None if bound <= 0 else 100.0 * value / bound


# --- cycles ------------------------------------------------------------------------------------
def _touched(extent: int, out: int, stride: int, taps: int, dilation: int, before: int) -> int:
    """How many of ``extent`` input rows (or columns) the ``out`` kernel windows touch: window
    ``o`` starts at ``o * stride - before`` and has ``taps`` taps ``dilation`` apart."""
    starts = np.arange(out, dtype=np.int64) * stride - before
    positions = (starts[:, None] + np.arange(taps, dtype=np.int64)[None, :] * dilation).ravel()
    positions = positions[(positions >= 0) & (positions < extent)]
    return int(np.unique(positions).size)


def ifm_elements_read(desc: NpuOpDesc) -> int:
    """IFM elements the op must read at least once: those under some kernel window (a stride
    wider than the kernel skips rows and columns); the whole IFM when it is upscaled on the fly
    (its window arithmetic is in upscaled coordinates) or for elementwise ops."""
    ifm = desc.ifm.shape
    if desc.kind.is_elementwise or desc.resampling is not Resampling.NONE or desc.kind is OpKind.DMA:
        return ifm.elements()
    kernel, ofm = desc.kernel, desc.ofm.shape
    top, left = desc.padding[0], desc.padding[1]
    rows = _touched(ifm.height, ofm.height, kernel.stride_y, kernel.height, kernel.dilation_y, top)
    columns = _touched(ifm.width, ofm.width, kernel.stride_x, kernel.width, kernel.dilation_x, left)
    return ifm.batch * rows * columns * ifm.depth


def _operand_bytes(tensor: TensorDesc | None) -> int:
    """Bytes of a second operand read once; a one-element operand may ride in a register: 0."""
    if tensor is None or tensor.shape.elements() == 1:
        return 0
    return tensor.shape.elements() * tensor.element_bytes


def feature_map_bytes(desc: NpuOpDesc) -> int:
    """Feature-map bytes the op moves at least: IFM elements read, IFM2, OFM written."""
    ifm = 0 if desc.ifm.shape.elements() == 1 and desc.kind.is_elementwise else \
        ifm_elements_read(desc) * desc.ifm.element_bytes
    return ifm + _operand_bytes(desc.ifm2) + desc.ofm.shape.elements() * desc.ofm.element_bytes


def compute_cycles_bound(desc: NpuOpDesc, accel: object) -> float:
    """Cycles the MAC array and the output unit need at their peak rates."""
    from npu_opt.hardware.perf.compute import nn_macs

    macs = nn_macs(desc) / accel.total_macs_per_cycle  # type: ignore[attr-defined]
    output = desc.ofm.shape.elements() * min(accel.output_cycles_per_elem)  # type: ignore[attr-defined]
    return max(macs, output)


# --- SRAM ----------------------------------------------------------------------------------------
def window_rows(stripe_rows: int, stride: int, dilated_kernel: int, resampling: Resampling) -> int:
    """IFM rows an OFM stripe of ``stripe_rows`` rows reads: the rows its windows span in the
    (possibly upscaled) IFM, one more for nearest-neighbour upscaling, back in IFM rows."""
    span = (stripe_rows - 1) * stride + dilated_kernel + (1 if resampling is Resampling.NEAREST else 0)
    return -(-span // resampling.upscale)


def minimal_stripe_rows(resampling: Resampling) -> int:
    """OFM rows of the smallest stripe: one, or a pair for nearest-neighbour upscaling."""
    return 2 if resampling is Resampling.NEAREST else 1


def _bytes(shape: Shape4, element_bytes: int, rows: int | None = None) -> int:
    """Bytes of a feature map, or of ``rows`` of its rows at full width and depth."""
    height = shape.height if rows is None else min(rows, shape.height)
    return shape.batch * height * shape.width * shape.depth * element_bytes


def op_footprint(desc: NpuOpDesc, operands: list[tuple[Shape4, int, bool]], ofm_whole: bool) -> int:
    """The op's smallest fast-storage footprint: a minimal OFM stripe plus the window of every
    feature-map operand it reads (``operands``: shape, element bytes and whether it must be
    held whole)."""
    stripe = minimal_stripe_rows(desc.resampling)
    total = _bytes(desc.ofm.shape, desc.ofm.element_bytes, None if ofm_whole else stripe)
    if desc.kind.is_elementwise:
        rows = stripe
    else:
        rows = window_rows(stripe, desc.kernel.stride_y, desc.kernel.area_height(), desc.resampling)
    for shape, element_bytes, whole in operands:
        total += _bytes(shape, element_bytes, None if whole else rows)
    return total


# --- the module ----------------------------------------------------------------------------------
def _handed_over(module: Operation) -> set[Value]:
    """Values the caller hands over or takes back whole: function arguments and returned values."""
    values: set[Value] = set()
    for op in module.walk():
        if op.name == "func.func" and op.regions:
            for block in op.regions[0].blocks:
                values.update(block.args)
        elif op.name == "func.return":
            values.update(op.operands)
    return values


def _feature_map_operands(op: Operation) -> list[Value]:
    """The operands of ``op`` that are feature maps: not constants (weights, biases, tables,
    scalars), not the weights (possibly a weight DMA's result) or the LUT, not 0-D."""
    from npu_opt.dialects.npu.ops_common import NpuComputeOp, is_constant, shape_of

    skip = {id(getattr(op, "weights", None))}
    if isinstance(op, NpuComputeOp):
        skip.add(id(op.lut_operand()))
    return [v for v in op.operands if id(v) not in skip and not is_constant(v) and shape_of(v)]


def _stream_bytes(op: Operation) -> int | None:
    """Encoded bytes of the stream feeding ``op``'s weights, when a weight DMA records one."""
    from npu_opt.dialects.npu.schedule_attrs import STREAM_ATTR, StreamAttr

    producer = getattr(getattr(op, "weights", None), "op", None)
    stream = producer.attr(STREAM_ATTR) if producer is not None else None
    return int(stream.bytes) if isinstance(stream, StreamAttr) else None


def weight_bytes(op: Operation, desc: NpuOpDesc, perf: PerfTarget, analyses: AnalysisManager) -> int:
    """Bytes of ``op``'s weights that must be read at least once: their whole-depth encoded
    stream for the op's block config (the codec model on the weight values); without the
    values (an elided constant) the stream a weight DMA records, else only the scale records,
    which no encoding shrinks."""
    from npu_opt.dialects.npu.perf.ir_attrs import op_block_config
    from npu_opt.dialects.npu.perf.weight_dma import weight_encoder

    if desc.weights is None:
        return 0
    depth = desc.ofm.shape.depth
    block = op_block_config(op, desc, perf.accel)
    if block is not None:
        encode, raw = weight_encoder(op, desc, perf, block, analyses)
        if not raw:
            return int(encode((0, depth)).total_bytes)
    streamed = _stream_bytes(op)
    return streamed if streamed is not None else SCALE_RECORD_BYTES * depth


def op_bound(op: Operation, desc: NpuOpDesc, target: Target, handed_over: set[Value], weights: int) -> OpBound:
    """The bound terms of one NPU compute op (``desc``: its description on ``target``) that
    reads ``weights`` bytes of weights no earlier op has read."""
    from npu_opt.dialects.npu.ops_common import element_bytes
    from npu_opt.dialects.npu.perf.ir_adapter import report_name

    fm_areas = {target.feature_map_storage_area, target.fast_storage_area}
    fm_bandwidth = sum(target.bandwidth_bytes_per_cycle(area) for area in fm_areas)
    operands = [(_shape(v), element_bytes(v), v in handed_over) for v in _feature_map_operands(op)]
    ofm_whole = any(result in handed_over for result in op.results)
    sram = op_footprint(desc, operands, ofm_whole) if target.fast_storage_area == target.feature_map_storage_area else 0
    return OpBound(report_name(op), compute_cycles_bound(desc, target.accelerator),
                   feature_map_bytes(desc) / fm_bandwidth, weights, target.permanent_storage_area, sram)


def _shape(value: Value) -> Shape4:
    from npu_opt.dialects.npu.ops_common import shape_of

    dims = shape_of(value)
    return Shape4.of(dims) if dims else Shape4(1, 1, 1, 1)


def lower_bound(module: Operation) -> LowerBound:
    """The cycles and peak fast-storage bytes no schedule of ``module`` (legalised, with an
    ``npu.target``) can beat; see the module docstring. Raises ValueError without a target."""
    from npu_opt.hardware.perf.arch import perf_target
    from npu_opt.dialects.npu.perf.ir_adapter import describe_op, is_costed, weights_source
    from npu_opt.dialects.npu.target_attr import target_of

    target = target_of(module, required=False)
    if target is None:
        raise ValueError("the lower bound needs the module's npu.target (run with --target=ACCELERATOR)")
    handed_over = _handed_over(module)
    perf = perf_target(target)
    analyses = AnalysisManager()  # shares one weight encoder per op among the ops' queries
    read: set[int] = set()  # weight tensors counted already: one read is all the bound needs
    ops = []
    for op in module.walk():
        if not is_costed(op):
            continue
        desc = describe_op(op, target)
        if desc is None or desc.kind is OpKind.DMA:
            continue
        source = weights_source(op)
        weights = 0
        if source is not None and id(source) not in read:
            read.add(id(source))
            weights = weight_bytes(op, desc, perf, analyses)
        ops.append(op_bound(op, desc, target, handed_over, weights))
    per_area: dict[str, int] = {}
    for bound in ops:
        per_area[bound.weight_area] = per_area.get(bound.weight_area, 0) + bound.weight_bytes
    weight_cycles = max((nbytes / target.bandwidth_bytes_per_cycle(area) for area, nbytes in per_area.items()),
                        default=0.0)
    cycles = max(sum(bound.cycles for bound in ops), weight_cycles)
    return LowerBound(math.floor(cycles), max((bound.sram_bytes for bound in ops), default=0), tuple(ops),
                      weight_cycles)


__all__ = ["LowerBound", "OpBound", "compute_cycles_bound", "feature_map_bytes", "ifm_elements_read", "lower_bound",
           "op_footprint", "percent_of", "weight_bytes", "window_rows"]
