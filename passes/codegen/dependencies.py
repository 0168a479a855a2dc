"""The waits and BLOCKDEP of an ethosu program, from the memory each op reads and writes (Vela
5.2's dependency rules; docs/codegen_design.md, Waits and block dependencies)."""
from __future__ import annotations

from dataclasses import dataclass

from npu_opt.dialects.ethosu.attrs import FeatureMapAttr, StreamAttr
from npu_opt.dialects.ethosu.ops_block import BlockOp, ConvOp
from npu_opt.dialects.ethosu.ops_stream import DmaOp
from npu_opt.hardware.accelerators import SHRAM_BANK_SIZE, AcceleratorConfig
from npu_opt.ir.core import Operation
from npu_opt.passes.codegen.lookup_tables import LUT_BYTES

MAX_BLOCKDEP = 3
"""The largest BLOCKDEP: blocks of the previous operation the next one may overlap."""

MAX_OUTSTANDING_KERNELS = 2
"""NPU operations the hardware keeps in flight."""

ELEMENT_BYTES = {"int8": 1, "uint8": 1, "int16": 2, "uint16": 2, "int32": 4}

Span = tuple[int, int, int]
"""(region, first byte, end byte)."""


class DependencyError(Exception):
    """A dependency the rules here do not compute yet."""


@dataclass
class Accesses:
    """The byte spans an op reads and writes."""

    reads: list[Span]
    writes: list[Span]

    def conflicts(self, other: "Accesses") -> bool:
        """A true, anti or output dependency between the two."""
        return (_meet(self.writes, other.reads) or _meet(self.reads, other.writes)
                or _meet(self.writes, other.writes))


def _meet(first: list[Span], second: list[Span]) -> bool:
    return any(a[0] == b[0] and a[1] < b[2] and b[1] < a[2] for a in first for b in second)


def _address(fm: FeatureMapAttr, y: int, x: int, c: int) -> int:
    """The byte of element (y, x, c) of a feature map in up to four tiles (tile 1 right of
    width0, tiles 2 and 3 below height0 and height1)."""
    assert fm.bases is not None and fm.strides is not None and fm.tiles is not None
    size = ELEMENT_BYTES[fm.dtype]
    height0, height1, width0 = fm.tiles
    tile = 0
    if x >= width0:
        x, tile = x - width0, 1
        if y >= height1:
            y, tile = y - height1, 3
    elif y >= height0:
        y, tile = y - height0, 2
    x_stride = 16 * size if fm.layout == "NHCWB16" else fm.strides[0]
    brick_stride = fm.strides[2] if fm.layout == "NHCWB16" else 16 * size
    return fm.bases[tile] + y * fm.strides[1] + x * x_stride + (c // 16) * brick_stride + (c % 16) * size


def _span(fm: FeatureMapAttr, first: tuple[int, int, int], last: tuple[int, int, int]) -> Span:
    """The bytes from element ``first`` to element ``last`` (inclusive; one tile)."""
    assert fm.region is not None
    return (fm.region, _address(fm, *first), _address(fm, *last) + ELEMENT_BYTES[fm.dtype])


def feature_map_spans(fm: FeatureMapAttr, height: int, width: int, depth: int) -> list[Span]:
    """The bytes of a feature map of that shape, per tile in use from its first element to its
    last."""
    assert fm.tiles is not None
    height0, height1, width0 = fm.tiles
    c = depth - 1
    spans = [_span(fm, (0, 0, 0), (min(height, height0) - 1, min(width, width0) - 1, c))]
    right = width > width0
    below = height > height0
    if right:
        spans.append(_span(fm, (0, width0, 0), (min(height, height1) - 1, width - 1, c)))
    if below:
        spans.append(_span(fm, (height0, 0, 0), (height - 1, min(width, width0) - 1, c)))
    if right and below:
        spans.append(_span(fm, (height1, width0, 0), (height - 1, width - 1, c)))
    return spans


def _stream_spans(stream: StreamAttr) -> list[Span]:
    spans = [(stream.region, stream.base, stream.base + stream.length)]
    if stream.base1 is not None and stream.length1:
        spans.append((stream.region, stream.base1, stream.base1 + stream.length1))
    return spans


def _ofm_shape(op: BlockOp) -> tuple[int, int, int]:
    return op.ofm.height, op.ofm.width, op.ofm.depth  # type: ignore[return-value]


Shape = tuple[int, int, int]
Inputs = tuple[Shape, "Shape | None"]
"""A block op's IFM and IFM2 (height, width, depth): the registers hold no IFM height or width."""


SHRAM = 0x103
"""The region key of SHRAM (a DMA's internal destination), as Vela's memory accesses name it."""


def _region(mem: object) -> int:
    return SHRAM if getattr(mem, "internal", False) else mem.region  # type: ignore[attr-defined]


def uses_lut(op: Operation) -> bool:
    """Whether a block op's activation is a table lookup."""
    act = op.properties.get("activation")
    return act is not None and op.activation.function.startswith("lut")  # type: ignore[attr-defined]


def accesses_of(op: Operation, inputs: Inputs | None, accel: AcceleratorConfig) -> Accesses:
    """What ``op`` reads and writes (``inputs``: a block op's input shapes), SHRAM included: an
    operation writes the banks it may use, a table lookup reads the tables."""
    if isinstance(op, DmaOp):
        return Accesses([(_region(op.src), op.src.address, op.src.address + op.length)],
                        [(_region(op.dst), op.dst.address, op.dst.address + op.length)])
    assert isinstance(op, BlockOp) and inputs is not None
    reads = feature_map_spans(op.ifm, *inputs[0])
    ifm2 = op.properties.get("ifm2")
    if ifm2 is not None and inputs[1] is not None and getattr(op, "ifm2_scalar", None) is None:
        reads += feature_map_spans(op.ifm2, *inputs[1])  # type: ignore[attr-defined]
    for name in ("weights", "scales"):
        stream = op.properties.get(name)
        if stream is not None:
            reads += _stream_spans(getattr(op, name))
    lut = uses_lut(op)
    if lut:
        reads.append((SHRAM, accel.shram_lut_address, accel.shram_lut_address + LUT_BYTES))
    written = [(SHRAM, 0, SHRAM_BANK_SIZE * accel.available_shram_banks(lut))]
    return Accesses(reads, feature_map_spans(op.ofm, *_ofm_shape(op)) + written)


def _row_spans(fm: FeatureMapAttr, shape: tuple[int, int, int], start: tuple[int, int, int],
               end: tuple[int, int, int]) -> list[Span]:
    """The bytes of the box from ``start`` to ``end`` (y, x, c; inclusive, clipped to the
    shape) of a feature map, one span per row of each tile it meets."""
    assert fm.tiles is not None
    height0, height1, width0 = fm.tiles
    y0, x0, c0 = start
    y1, x1, c1 = (min(end[i], shape[i] - 1) for i in range(3))
    parts = []  # (rows, first x, last x) per tile met
    if x0 < width0 and y0 < height0:
        parts.append((range(y0, min(y1, height0 - 1) + 1), x0, min(x1, width0 - 1)))
    if x1 >= width0 and y0 < height1:
        parts.append((range(y0, min(y1, height1 - 1) + 1), max(x0, width0), x1))
    if x0 < width0 and y1 >= height0:
        parts.append((range(max(y0, height0), y1 + 1), x0, min(x1, width0 - 1)))
    if x1 >= width0 and y1 >= height1:
        parts.append((range(max(y0, height1), y1 + 1), max(x0, width0), x1))
    return [_span(fm, (y, first, c0), (y, last, c1)) for rows, first, last in parts for y in rows]


def _block_at(shape: tuple[int, int, int], block: tuple[int, int, int], index: int) -> tuple[int, int, int] | None:
    """(y, x, c) of block ``index`` of a feature map walked depth first, then along x, then y
    (negative: counted from the last), or None past the end."""
    counts = [-(-shape[i] // block[i]) for i in range(3)]
    total = counts[0] * counts[1] * counts[2]
    index = total + index if index < 0 else index
    if index >= total:
        return None
    return (block[0] * (index // (counts[2] * counts[1])), block[1] * ((index // counts[2]) % counts[1]),
            block[2] * (index % counts[2]))


def _boxes_meet(a0: tuple[int, int, int], a1: tuple[int, int, int], b0: tuple[int, int, int],
                b1: tuple[int, int, int]) -> bool:
    return all(min(a1[i], b1[i]) - max(a0[i], b0[i]) > 0 for i in range(3))


def blockdep(previous: BlockOp | None, op: BlockOp, inputs: Inputs, accel: AcceleratorConfig) -> int:
    """BLOCKDEP of ``op`` after the block op ``previous``: how many of ``op``'s first jobs may
    start before ``previous`` has written the OFM blocks they read (0 for a program's first op,
    the maximum when ``op`` reads nothing ``previous`` wrote). ``inputs`` are ``op``'s IFM and
    IFM2 shapes (y, x, c)."""
    if previous is None:
        return 0
    if uses_lut(previous) and accel.shram_reserved_end_banks == 0 and not uses_lut(op):
        return 0  # the op may overwrite the banks of the table the previous one reads
    ublock = accel.ifm_ublock
    ifm_ublock = (ublock.height, ublock.width, ublock.depth)
    ifm_shape, ifm2_shape = inputs
    prev_shape = _ofm_shape(previous)
    written = feature_map_spans(previous.ofm, *prev_shape)
    reads_ifm = _meet(written, feature_map_spans(op.ifm, *ifm_shape))
    ifm2 = op.properties.get("ifm2")
    reads_ifm2 = (ifm2 is not None and ifm2_shape is not None and getattr(op, "ifm2_scalar", None) is None
                  and _meet(written, feature_map_spans(op.ifm2, *ifm2_shape)))  # type: ignore[attr-defined]
    if reads_ifm and reads_ifm2:
        return 0
    if not reads_ifm and not reads_ifm2:
        return MAX_BLOCKDEP
    if reads_ifm2 and ifm2_shape[0] * ifm2_shape[1] * ifm2_shape[2] < ifm_shape[0] * ifm_shape[1] * ifm_shape[2]:
        return 0  # a broadcast IFM2 written by the previous op
    read_fm, read_shape = (op.ifm, ifm_shape) if reads_ifm else (op.ifm2, ifm2_shape)  # type: ignore[attr-defined]
    ofm_shape = _ofm_shape(op)
    bits = 8 * ELEMENT_BYTES[op.ifm.dtype]
    if isinstance(op, ConvOp):
        ifm_block_depth = min(256 // bits, -(-ifm_shape[2] // ifm_ublock[2]) * ifm_ublock[2])
    else:
        ifm_block_depth = ofm_shape[2]
    kernel = op.properties.get("kernel") and op.kernel  # type: ignore[attr-defined]
    (kh, kw), (sy, sx), (dy, dx) = (kernel.size, kernel.stride, kernel.dilation) if kernel else ((1, 1),) * 3
    pad_left, pad_right = (kernel.padding[1], kernel.padding[3]) if kernel else (0, 0)
    ifm_block = (-(-((op.block.size[0] - 1) * sy + min(32, (kh - 1) * dy + 1)) // ifm_ublock[0]) * ifm_ublock[0],
                 -(-((op.block.size[1] - 1) * sx + min(64, (kw - 1) * dx + 1)) // ifm_ublock[1]) * ifm_ublock[1],
                 ifm_block_depth)
    depth_jobs = -(-ifm_shape[2] // ifm_block_depth)
    # the same tensor read as written (shape, tiles and their bases): compare coordinates, else bytes
    same_layout = (read_shape == prev_shape and read_fm.tiles == previous.ofm.tiles
                   and read_fm.bases == previous.ofm.bases)
    # the previous op's last OFM blocks, newest first, as (start, end) boxes
    written_blocks = []
    for back in range(MAX_BLOCKDEP):
        out_at = _block_at(prev_shape, previous.block.size, -1 - back)
        if out_at is None:
            break
        written_blocks.append((out_at, tuple(out_at[i] + previous.block.size[i] for i in range(3))))

    def untouched(start: tuple[int, int, int], end: tuple[int, int, int]) -> int:
        """How many of those blocks, newest first, the IFM box [start, end) reads nothing of."""
        for count, (out_at, out_end) in enumerate(written_blocks):
            if same_layout:
                meets = _boxes_meet(start, end, out_at, out_end)  # type: ignore[arg-type]
            else:
                meets = _meet(_row_spans(read_fm, read_shape, start, end),
                              _row_spans(previous.ofm, prev_shape, out_at, out_end))  # type: ignore[arg-type]
            if meets:
                return count
        return len(written_blocks)

    # job j of this op may start while the previous op still has untouched(j's box) blocks to
    # write; BLOCKDEP is the fewest jobs ahead over the first jobs
    result = MAX_BLOCKDEP
    for job in range(MAX_BLOCKDEP):
        ofm_at = _block_at(ofm_shape, op.block.size, job // depth_jobs)
        if ofm_at is None:
            break
        # the row start takes the right padding, as Vela's generator does
        start = (max(0, ofm_at[0] * sy - pad_right), max(0, ofm_at[1] * sx - pad_left),
                 (job % depth_jobs) * ifm_block[2])
        end = (start[0] + ifm_block[0], start[1] + ifm_block[1], start[2] + ifm_block[2])
        result = min(result, job + untouched(start, end))
    return result


def waits(ops: list[Operation], inputs: dict[Operation, Inputs], accel: AcceleratorConfig) \
        -> list[tuple[int | None, int | None]]:
    """(kernel_wait, dma_wait) of each op: a DMA waits for the NPU operations it conflicts with,
    an NPU operation for the DMAs, counting how many later ones may stay in flight."""
    accesses = {op: accesses_of(op, inputs.get(op), accel) for op in ops}
    limit = {True: accel.max_outstanding_dma, False: MAX_OUTSTANDING_KERNELS}
    issued: dict[bool, list[Operation]] = {True: [], False: []}  # DMAs and NPU operations, in stream order
    finished = {True: 0, False: 0}  # how many of each, from the first, a wait has seen finish
    result = []
    for op in ops:
        is_dma = isinstance(op, DmaOp)
        issued[is_dma].append(op)
        others = issued[not is_dma]
        in_flight = others[max(finished[not is_dma], len(others) - limit[not is_dma]):]
        wait = next((later for later, other in enumerate(reversed(in_flight))
                     if accesses[other].conflicts(accesses[op])), None)
        if wait is not None:  # the conflicting one and all before it have finished after this wait
            finished[not is_dma] = len(others) - wait
        result.append((wait, None) if is_dma else (None, wait))
    return result


__all__ = ["DependencyError", "MAX_BLOCKDEP", "accesses_of", "blockdep", "feature_map_spans", "waits"]
