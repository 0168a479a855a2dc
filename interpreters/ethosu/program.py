"""Run an ethosu.program on its memory regions, op by op, reading only the registers each op
holds and the bytes of its regions; every error names the op (index, name) it happened in.

Design notes: docs/simulator_design.md."""
from __future__ import annotations

from typing import Callable

import numpy as np

from npu_opt.dialects.ethosu.attrs import FeatureMapAttr
from npu_opt.dialects.ethosu.ops_block import BlockOp, ConvOp, DepthwiseOp, ElementwiseOp, PoolOp
from npu_opt.dialects.ethosu.ops_stream import DmaOp, ProgramOp, StopOp
from npu_opt.interpreters.ethosu import compute
from npu_opt.interpreters.ethosu.featuremap import ELEMENT_BYTES, read_fm, type_range, write_fm
from npu_opt.interpreters.ethosu.memory import Memory, SimulatorError
from npu_opt.interpreters.ethosu.mlw_decode import WeightStreamError
from npu_opt.interpreters.ethosu.weights import RECORD_BYTES, Accelerator, decode_ohwi, scale_records
from npu_opt.ir.core import Operation

Tracer = Callable[[str], None]


def _box(fm: FeatureMapAttr, shape: tuple[int, ...]) -> str:
    return f"{'x'.join(str(n) for n in shape)} {fm.dtype} {fm.layout} r{fm.region}@{fm.bases[0]}"


class _Run:
    """One program's execution state: its memory, the accelerator and the op being run."""

    def __init__(self, memory: Memory, accelerator: Accelerator, cores: int, trace: Tracer | None) -> None:
        self.memory = memory
        self.accelerator = accelerator
        self.cores = cores
        self.trace = trace
        self.boxes = ""

    # ------------------------------------------------------------------ dispatch
    def op(self, index: int, op: Operation) -> None:
        self.memory.where = f"op {index} ({op.name})"
        self.memory.moved = 0
        self.boxes = ""
        if isinstance(op, DmaOp):
            self.dma(op)
        elif isinstance(op, (ConvOp, DepthwiseOp)):
            self.convolution(op, isinstance(op, DepthwiseOp))
        elif isinstance(op, PoolOp):
            self.pool(op)
        elif isinstance(op, ElementwiseOp):
            self.elementwise(op)
        else:
            raise SimulatorError(f"{self.memory.where}: the simulator has no model of this operation")
        if self.trace is not None:
            self.trace(f"{index} {op.name}{self.boxes} bytes={self.memory.moved}")

    def fail(self, what: str) -> SimulatorError:
        return SimulatorError(f"{self.memory.where}: {what}")

    # ------------------------------------------------------------------ DMA
    def dma(self, op: DmaOp) -> None:
        if op.src.internal or op.dst.internal:
            raise self.fail("a DMA to or from the NPU's internal memory (a LUT into SHRAM) is not modelled")
        if op.src.stride_mode != "d1" or op.dst.stride_mode != "d1":
            raise self.fail(f"DMA stride mode {op.src.stride_mode}/{op.dst.stride_mode} is not modelled (only d1)")
        data = self.memory.read_bytes(op.src.region, op.src.address, op.length, "the DMA source")
        self.memory.write_bytes(op.dst.region, op.dst.address, data, "the DMA destination")
        self.boxes = f" r{op.src.region}@{op.src.address} -> r{op.dst.region}@{op.dst.address} len={op.length}"

    # ------------------------------------------------------------------ shared parts
    def common_checks(self, op: BlockOp) -> None:
        act = op.activation
        if act.function != "none":
            raise self.fail(f"activation '{act.function}' is not modelled (only 'none': the clamp)")
        if act.clip != "ofm":
            raise self.fail(f"activation clip range '{act.clip}' is not modelled (only 'ofm')")
        for name, fm in (("ifm", op.ifm), ("ofm", op.ofm)):
            if fm.dtype not in ELEMENT_BYTES:
                raise self.fail(f"{name} data type '{fm.dtype}' is not modelled")

    def ofm_shape(self, op: BlockOp) -> tuple[int, int, int]:
        return op.ofm.height, op.ofm.width, op.ofm.depth

    def windowed_ifm(self, op: BlockOp, fill: float) -> tuple[np.ndarray, np.ndarray, tuple[int, int]]:
        """The IFM the kernel walks (zero point removed, upscaled, padded), its mask and the OFM size."""
        kernel = op.kernel
        h, w, _ = self.ofm_shape(op)
        factor = compute.UPSCALE[op.upscale]
        (kh, kw), (sy, sx), (dy, dx) = kernel.size, kernel.stride, kernel.dilation
        top, left, bottom, right = kernel.padding
        ifm_h, up_h = compute.ifm_extent(h, sy, (kh - 1) * dy + 1, top, bottom, factor)
        ifm_w, up_w = compute.ifm_extent(w, sx, (kw - 1) * dx + 1, left, right, factor)
        if ifm_h <= 0 or ifm_w <= 0:
            raise self.fail(f"the padding {list(kernel.padding)} leaves no IFM for a {h}x{w} OFM")
        shape = (ifm_h, ifm_w, op.ifm.depth)
        values = read_fm(self.memory, op.ifm, shape, "the IFM") - op.ifm.zero_point
        self.boxes = f" ifm={_box(op.ifm, shape)}"
        padded, mask = compute.window_input(values.astype(np.float64), kernel, op.upscale, (up_h, up_w), fill)
        return padded, mask, (h, w)

    def finish(self, op: BlockOp, acc: np.ndarray, multiplier, shift) -> None:
        low, high = type_range(op.ofm.dtype)
        out = compute.output_stage(acc, multiplier, shift, compute.rounding_of(op.rounding), op.ofm.zero_point,
                                   op.activation.min, op.activation.max, low, high)
        write_fm(self.memory, op.ofm, out, "the OFM")
        self.boxes += f" ofm={_box(op.ofm, out.shape)}"

    # ------------------------------------------------------------------ operations
    def convolution(self, op: ConvOp | DepthwiseOp, depthwise: bool) -> None:
        self.common_checks(op)
        if op.weights.base1 is not None or op.scales.base1 is not None:
            raise self.fail("weight and scale streams of a second core are not modelled")
        depth = op.ofm.depth
        if depthwise and op.ifm.depth != depth:
            raise self.fail(f"a depthwise IFM of depth {op.ifm.depth} for an OFM of depth {depth}")
        padded, _, out_hw = self.windowed_ifm(op, 0.0)
        kh, kw = op.kernel.size
        stream = self.memory.read_bytes(op.weights.region, op.weights.base, op.weights.length, "the weight stream")
        try:
            weights = decode_ohwi(stream, (depth, kh, kw, 1 if depthwise else op.ifm.depth), self.accelerator,
                                  op.block.size[2], depthwise, op.kernel.part_kernel_first,
                                  8 * ELEMENT_BYTES[op.ifm.dtype], op.kernel.dilation)
        except WeightStreamError as error:
            raise self.fail(f"the weight stream at region {op.weights.region} address {op.weights.base} "
                            f"(length {op.weights.length}): {error}") from None
        if op.scales.length < depth * RECORD_BYTES:
            raise self.fail(f"the scale stream at region {op.scales.region} address {op.scales.base} holds "
                            f"{op.scales.length} bytes; {depth} channel(s) read {depth * RECORD_BYTES}")
        records = self.memory.read_bytes(op.scales.region, op.scales.base, depth * RECORD_BYTES, "the scale stream")
        bias, multiplier, shift = scale_records(records, depth)
        acc = compute.convolve(padded, weights, op.kernel, out_hw, depthwise) + bias
        self.finish(op, acc, multiplier, shift)

    def pool(self, op: PoolOp) -> None:
        self.common_checks(op)
        if op.mode == "reduce_sum":
            raise self.fail("pooling mode 'reduce_sum' is not modelled")
        if op.ifm.depth != op.ofm.depth:
            raise self.fail(f"a pooling IFM of depth {op.ifm.depth} for an OFM of depth {op.ofm.depth}")
        padded, mask, out_hw = self.windowed_ifm(op, 0.0)
        acc, count = compute.pool(padded, mask, op.kernel, out_hw, op.mode)
        if op.mode == "average" and (op.ofm_scale is None or any(op.kernel.padding)):
            # the NPU's own division by the IFM positions each window covers (docs: The operations)
            acc = compute.average(acc, np.broadcast_to(count[..., None], acc.shape), compute.rounding_of(op.rounding))
        scale = op.ofm_scale
        self.finish(op, acc, scale.scale if scale is not None else 1, (scale.shift or 0) if scale is not None else 0)

    def elementwise(self, op: ElementwiseOp) -> None:
        self.common_checks(op)
        if op.mode not in ("add", "sub"):
            raise self.fail(f"elementwise mode '{op.mode}' is not modelled (add and sub are)")
        h, w, d = self.ofm_shape(op)
        if op.ifm.depth != d:
            raise self.fail(f"an elementwise IFM of depth {op.ifm.depth} for an OFM of depth {d}")
        a = read_fm(self.memory, op.ifm, (h, w, d), "the IFM") - op.ifm.zero_point
        self.boxes = f" ifm={_box(op.ifm, (h, w, d))}"
        ifm2 = op.ifm2
        assert ifm2 is not None
        if op.ifm2_scalar is not None:
            b = np.full((1, 1, 1), op.ifm2_scalar - ifm2.zero_point, dtype=np.int64)
        else:
            axes = op.broadcast or ""
            shape = (1 if "h" in axes else h, 1 if "w" in axes else w, 1 if "c" in axes else d)
            b = read_fm(self.memory, ifm2, shape, "IFM2") - ifm2.zero_point
            self.boxes += f" ifm2={_box(ifm2, shape)}"
        b = np.broadcast_to(b, (h, w, d))
        if op.reversed_operands:
            a, b = b, a
        opb = op.opb_scale.scale if op.opb_scale is not None else 0
        opa = (op.opa_scale.scale, op.opa_scale.shift or 0) if op.opa_scale is not None else (1, 0)
        acc = compute.add_sub(a, b, op.mode, op.scale_mode, opa, opb, 8 * ELEMENT_BYTES[op.ifm.dtype])
        self.finish(op, acc, op.ofm_scale.scale, op.ofm_scale.shift)


def run_program(program: ProgramOp, memory: Memory, accelerator: Accelerator, trace: Tracer | None = None) -> None:
    """Execute every op of ``program`` in stream order on ``memory``."""
    run = _Run(memory, accelerator, program.cores, trace)
    if program.cores != 1:
        raise SimulatorError(f"a program for {program.cores} cores is not modelled (one core is)")
    ops = list(program.regions[0].blocks[0].ops)
    for index, op in enumerate(ops):
        if isinstance(op, StopOp):
            break
        run.op(index, op)


__all__ = ["Tracer", "run_program"]
