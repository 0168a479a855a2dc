"""Run an ethosu.program on its memory regions, op by op, reading only the registers each op
holds and the bytes of its regions; every error names the op (index, name) it happened in.

Design notes: docs/simulator_design.md."""
from __future__ import annotations

from typing import Callable

import numpy as np

from npu_opt.dialects.ethosu.attrs import FeatureMapAttr
from npu_opt.dialects.ethosu.decode import WAITS
from npu_opt.dialects.ethosu.encode import encode_program
from npu_opt.dialects.ethosu.ops_block import BlockOp, ConvOp, DepthwiseOp, ElementwiseOp, PoolOp
from npu_opt.dialects.ethosu.ops_stream import DmaOp, ProgramOp, StopOp
from npu_opt.interpreters.ethosu import compute
from npu_opt.interpreters.ethosu.elementwise import elementwise
from npu_opt.interpreters.ethosu.featuremap import ELEMENT_BYTES, SIGNED, read_fm, type_range, write_fm
from npu_opt.interpreters.ethosu.memory import SHRAM, Access, Memory, SimulatorError
from npu_opt.interpreters.ethosu.mlw_decode import WeightStreamError
from npu_opt.interpreters.ethosu.timing import Footprint, Running, Timeline, WaitError
from npu_opt.interpreters.ethosu.weights import RECORD_BYTES, Accelerator, decode_ohwi, scale_records
from npu_opt.hardware.accelerators import MAX_OUTSTANDING_KERNELS
from npu_opt.hardware.accelerators import SHRAM_BANK_SIZE, AcceleratorConfig
from npu_opt.hardware.accelerators import accelerator as accelerator_config
from npu_opt.hardware.commands.words import read_commands
from npu_opt.interpreters.npu.arith import rescale
from npu_opt.ir.core import Operation

Tracer = Callable[[str], None]
LUT_BYTES = 2048
"""The LUT area at the end of each core's SHRAM (the CONFIG word counts all cores'): eight
256-byte slots (an 8-bit table fills one, a 32-bit 256-entry table four, the 16-bit
interpolating table all)."""


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
        if op.src.stride_mode != "d1" or op.dst.stride_mode != "d1":
            raise self.fail(f"DMA stride mode {op.src.stride_mode}/{op.dst.stride_mode} is not modelled (only d1)")
        source = SHRAM if op.src.internal else op.src.region
        target = SHRAM if op.dst.internal else op.dst.region
        data = self.memory.read_bytes(source, op.src.address, op.length, "the DMA source")
        self.memory.write_bytes(target, op.dst.address, data, "the DMA destination")
        self.boxes = (f" {'shram' if op.src.internal else f'r{source}'}@{op.src.address} -> "
                      f"{'shram' if op.dst.internal else f'r{target}'}@{op.dst.address} len={op.length}")

    # ------------------------------------------------------------------ shared parts
    def common_checks(self, op: BlockOp) -> None:
        act = op.activation
        if act.function in ("tanh", "sigmoid") and op.ofm.dtype != "int16":
            raise self.fail(f"the built-in '{act.function}' activation is modelled for 16-bit OFMs only, "
                            f"not {op.ofm.dtype}")
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

    def table(self, op: BlockOp) -> np.ndarray | None:
        """The LUT a ``lutN`` activation reads from SHRAM slot N, by the OFM's width: 256 bytes
        (8-bit), 512 interpolating words (16-bit) or 256 words (32-bit)."""
        function = op.activation.function
        if not function.startswith("lut"):
            return None
        start = self.accelerator.shram_bytes // self.cores - LUT_BYTES + 256 * int(function[3:])
        bits = 8 * ELEMENT_BYTES[op.ofm.dtype]
        entries, width = {8: (256, 1), 16: (512, 4), 32: (256, 4)}[bits]
        words = self.memory.read(SHRAM, start + width * np.arange(entries), width, f"the {function} table")
        if bits == 8 and SIGNED[op.ofm.dtype]:
            words = np.where(words >= 128, words - 256, words)
        if bits == 32:
            words = np.where(words >= 1 << 31, words - (1 << 32), words)
        return words

    def finish(self, op: BlockOp, scaled: np.ndarray) -> None:
        """The output stage after the rescale, then the OFM written."""
        act = op.activation
        if act.function in ("tanh", "sigmoid"):
            scaled = compute.builtin_activation(scaled, act.function)
        low, high = act.min, act.max
        if act.clip != "ofm":  # the range the value is clipped to before the table, whatever the OFM type
            clip_low, clip_high = type_range(act.clip)
            low, high = max(low, clip_low), min(high, clip_high)
        out = compute.output_stage(scaled, op.ofm.zero_point, low, high, 8 * ELEMENT_BYTES[op.ofm.dtype],
                                   SIGNED[op.ofm.dtype], self.table(op))
        write_fm(self.memory, op.ofm, out, "the OFM")
        self.boxes += f" ofm={_box(op.ofm, out.shape)}"

    # ------------------------------------------------------------------ operations
    def convolution(self, op: ConvOp | DepthwiseOp, depthwise: bool) -> None:
        self.common_checks(op)
        depth = op.ofm.depth
        if depthwise and op.ifm.depth != depth:
            raise self.fail(f"a depthwise IFM of depth {op.ifm.depth} for an OFM of depth {depth}")
        padded, _, out_hw = self.windowed_ifm(op, 0.0)
        weights = np.zeros((depth,) + tuple(op.kernel.size) + (1 if depthwise else op.ifm.depth,), dtype=np.int64)
        bias, multiplier, shift = (np.zeros(depth, dtype=np.int64) for _ in range(3))
        for core in range(self.cores):
            # core c computes OFM channels c, c + cores, ... from its own weight and scale streams
            channels = np.arange(core, depth, self.cores)
            if channels.size == 0:
                continue
            weights[channels], records = self.core_streams(op, depthwise, core, channels.size)
            bias[channels], multiplier[channels], shift[channels] = records
        acc = compute.convolve(padded, weights, op.kernel, out_hw, depthwise) + bias
        self.finish(op, rescale(acc, multiplier, shift, compute.rounding_of(op.rounding)))

    def core_streams(self, op: ConvOp | DepthwiseOp, depthwise: bool, core: int, depth: int):
        """One core's OHWI weights and (bias, multiplier, shift) records for its ``depth`` channels."""
        where = {0: (op.weights.base, op.weights.length, op.scales.base, op.scales.length),
                 1: (op.weights.base1, op.weights.length1, op.scales.base1, op.scales.length1)}[core]
        weight_base, weight_length, scale_base, scale_length = where
        if weight_base is None or scale_base is None:
            raise self.fail(f"a {self.cores}-core program's op has no weight or scale stream for core {core}")
        block = (op.block.size[2] + self.cores - 1 - core) // self.cores
        kh, kw = op.kernel.size
        stream = self.memory.read_bytes(op.weights.region, weight_base, weight_length, "the weight stream")
        try:
            weights = decode_ohwi(stream, (depth, kh, kw, 1 if depthwise else op.ifm.depth), self.accelerator,
                                  block, depthwise, op.kernel.part_kernel_first, 8 * ELEMENT_BYTES[op.ifm.dtype],
                                  op.kernel.dilation)
        except WeightStreamError as error:
            raise self.fail(f"the weight stream at region {op.weights.region} address {weight_base} "
                            f"(length {weight_length}): {error}") from None
        if scale_length < depth * RECORD_BYTES:
            raise self.fail(f"the scale stream at region {op.scales.region} address {scale_base} holds "
                            f"{scale_length} bytes; {depth} channel(s) read {depth * RECORD_BYTES}")
        records = self.memory.read_bytes(op.scales.region, scale_base, depth * RECORD_BYTES, "the scale stream")
        return weights, scale_records(records, depth)

    def pool(self, op: PoolOp) -> None:
        self.common_checks(op)
        reduce = op.mode == "reduce_sum"
        if op.ifm.depth != op.ofm.depth and not (reduce and op.ofm.depth == 1):
            raise self.fail(f"a pooling IFM of depth {op.ifm.depth} for an OFM of depth {op.ofm.depth}")
        padded, mask, out_hw = self.windowed_ifm(op, 0.0)
        acc, count = compute.pool(padded, mask, op.kernel, out_hw, "max" if op.mode == "max" else "sum")
        rounding = compute.rounding_of(op.rounding)
        if reduce:
            acc = acc.sum(axis=2, keepdims=True)
        elif op.mode == "average" and (op.ofm_scale is None or any(op.kernel.padding)):
            # the NPU's own division by the IFM positions each window covers (docs: The operations)
            acc = compute.average(acc, np.broadcast_to(count[..., None], acc.shape), rounding)
        scale = op.ofm_scale
        self.finish(op, acc if scale is None else rescale(acc, scale.scale, scale.shift or 0, rounding))

    def elementwise(self, op: ElementwiseOp) -> None:
        self.common_checks(op)
        h, w, d = self.ofm_shape(op)
        if op.ifm.depth != d:
            raise self.fail(f"an elementwise IFM of depth {op.ifm.depth} for an OFM of depth {d}")
        a = read_fm(self.memory, op.ifm, (h, w, d), "the IFM") - op.ifm.zero_point
        self.boxes = f" ifm={_box(op.ifm, (h, w, d))}"
        b = None
        ifm2 = op.ifm2
        if ifm2 is not None and op.ifm2_scalar is not None:
            b = np.full((h, w, d), op.ifm2_scalar - ifm2.zero_point, dtype=np.int64)
            self.boxes += f" ifm2=scalar {op.ifm2_scalar}"
        elif ifm2 is not None:
            axes = op.broadcast or ""
            shape = (1 if "h" in axes else h, 1 if "w" in axes else w, 1 if "c" in axes else d)
            b = np.broadcast_to(read_fm(self.memory, ifm2, shape, "IFM2") - ifm2.zero_point, (h, w, d))
            self.boxes += f" ifm2={_box(ifm2, shape)}"
        if op.reversed_operands:
            a, b = b, a
        wide = any(fm is not None and ELEMENT_BYTES[fm.dtype] == 4 for fm in (op.ifm, ifm2))
        opa = (op.opa_scale.scale, op.opa_scale.shift or 0) if op.opa_scale is not None else (1, 0)
        try:
            scaled = elementwise(op.mode, a, b, scale_mode=op.scale_mode, opa=opa,
                                 opb=op.opb_scale.scale if op.opb_scale is not None else 1,
                                 ofm_scale=(op.ofm_scale.scale, op.ofm_scale.shift or 0),
                                 rounding=compute.rounding_of(op.rounding), ifm_bits=8 * ELEMENT_BYTES[op.ifm.dtype],
                                 wide=wide)
        except ValueError as error:
            raise self.fail(str(error)) from None
        self.finish(op, scaled)


def command_offsets(program: ProgramOp) -> list[int]:
    """The byte offset of each op's NPU_OP_* command in the program's encoding (for Vela's
    streams the same as in the file: the register order differs, the op positions do not)."""
    return [raw.offset for raw in read_commands(encode_program(program))
            if raw.command.is_operation and raw.command.name not in WAITS]


def _racing(program: ProgramOp, error: WaitError) -> SimulatorError:
    """The wait error located: both commands by index, name and byte offset, and the wait missing."""
    offsets = command_offsets(program)
    later, earlier = error.command, error.earlier
    wait = "NPU_OP_DMA_WAIT" if isinstance(earlier.op, DmaOp) else "NPU_OP_KERNEL_WAIT"
    return SimulatorError(f"op {later.index} ({later.op.name}, command at byte offset {offsets[later.index]}) "
                          f"{error.what} op {earlier.index} ({earlier.op.name}, at byte offset "
                          f"{offsets[earlier.index]}) {error.how}: no {wait} before op {later.index} retires it")


def _shram_banks(op: BlockOp, config: AcceleratorConfig, shram_bytes: int, cores: int) -> list[Access]:
    """The SHRAM an NPU operation may fill with IFM data and accumulators, per core: the banks
    from the start of the core's half, all but the LUT's on a configuration without reserved
    end banks when the op uses a table (a LUT DMA there must wait for it)."""
    banks = config.available_shram_banks(op.activation.function.startswith("lut"))
    half = shram_bytes // cores
    return [(SHRAM, True, (core * half, core * half + min(half, banks * SHRAM_BANK_SIZE))) for core in range(cores)]


def run_program(program: ProgramOp, memory: Memory, accelerator: Accelerator, trace: Tracer | None = None,
                check_waits: bool = True) -> None:
    """Execute every op of ``program`` in stream order on ``memory``; with ``check_waits``, an op
    that touches bytes a DMA or NPU operation still in flight uses is an error."""
    run = _Run(memory, accelerator, program.cores, trace)
    config = accelerator_config(accelerator.name)
    timeline = Timeline(config.max_outstanding_dma, MAX_OUTSTANDING_KERNELS) if check_waits else None
    ops = list(program.regions[0].blocks[0].ops)
    for index, op in enumerate(ops):
        if isinstance(op, StopOp):
            break
        if timeline is None:
            run.op(index, op)
            continue
        is_dma = isinstance(op, DmaOp)
        timeline.issue(is_dma, getattr(op, "kernel_wait", None), getattr(op, "dma_wait", None))
        memory.accesses = []
        run.op(index, op)
        if not is_dma:
            memory.accesses += _shram_banks(op, config, accelerator.shram_bytes, program.cores)
        footprint, memory.accesses = Footprint.of(memory.accesses), None
        try:
            timeline.start(Running(index, op, footprint), is_dma)
        except WaitError as error:
            raise _racing(program, error) from None


__all__ = ["Tracer", "command_offsets", "run_program"]
