"""The waits and BLOCKDEP of an ethosu program, from the memory each op reads and writes (Vela
5.2's dependency rules; docs/codegen_design.md, Waits and block dependencies)."""
from __future__ import annotations

from dataclasses import dataclass

from npu_opt.dialects.ethosu.attrs import FeatureMapAttr, StreamAttr
from npu_opt.dialects.ethosu.ops_block import BlockOp
from npu_opt.dialects.ethosu.ops_stream import DmaOp
from npu_opt.ir.core import Operation

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


def feature_map_spans(fm: FeatureMapAttr, height: int, width: int, depth: int) -> list[Span]:
    """The bytes of a one-tile feature map of that shape, from its first element to its last."""
    assert fm.region is not None and fm.bases is not None and fm.strides is not None and fm.tiles is not None
    if fm.tiles[1] != fm.tiles[0] or fm.tiles[0] < height or fm.tiles[2] < width:
        raise DependencyError("the dependencies of a feature map in several tiles are not computed yet")
    size = ELEMENT_BYTES[fm.dtype]
    x_stride = 16 * size if fm.layout == "NHCWB16" else fm.strides[0]
    brick_stride = fm.strides[2] if fm.layout == "NHCWB16" else 16 * size
    c = depth - 1
    last = (fm.bases[0] + (height - 1) * fm.strides[1] + (width - 1) * x_stride + (c // 16) * brick_stride
            + (c % 16) * size)
    return [(fm.region, fm.bases[0], last + size)]


def _stream_spans(stream: StreamAttr) -> list[Span]:
    spans = [(stream.region, stream.base, stream.base + stream.length)]
    if stream.base1 is not None and stream.length1:
        spans.append((stream.region, stream.base1, stream.base1 + stream.length1))
    return spans


def _ofm_shape(op: BlockOp) -> tuple[int, int, int]:
    return op.ofm.height, op.ofm.width, op.ofm.depth  # type: ignore[return-value]


def _ifm_shape(op: BlockOp, ifm_hw: tuple[int, int]) -> tuple[int, int, int]:
    return ifm_hw[0], ifm_hw[1], op.ifm.depth  # type: ignore[return-value]


def accesses_of(op: Operation, ifm_hw: tuple[int, int] | None) -> Accesses:
    """What ``op`` reads and writes; ``ifm_hw`` is a block op's IFM height and width (the
    registers hold only its depth)."""
    if isinstance(op, DmaOp):
        return Accesses([(op.src.region, op.src.address, op.src.address + op.length)],
                        [(op.dst.region, op.dst.address, op.dst.address + op.length)])
    assert isinstance(op, BlockOp) and ifm_hw is not None
    reads = feature_map_spans(op.ifm, *_ifm_shape(op, ifm_hw))
    for name in ("weights", "scales"):
        stream = op.properties.get(name)
        if stream is not None:
            reads += _stream_spans(getattr(op, name))
    return Accesses(reads, feature_map_spans(op.ofm, *_ofm_shape(op)))


def blockdep(previous: BlockOp | None, op: BlockOp, ifm_hw: tuple[int, int]) -> int:
    """BLOCKDEP of ``op`` after the block op ``previous``: 0 for the first, the maximum when
    ``op`` reads nothing ``previous`` wrote."""
    if previous is None:
        return 0
    written = feature_map_spans(previous.ofm, *_ofm_shape(previous))
    if not _meet(written, feature_map_spans(op.ifm, *_ifm_shape(op, ifm_hw))):
        return MAX_BLOCKDEP
    raise DependencyError("BLOCKDEP of an op reading the OFM of the op before it is not computed yet")


def waits(ops: list[Operation], ifm_hw: dict[Operation, tuple[int, int]], max_outstanding_dma: int) \
        -> list[tuple[int | None, int | None]]:
    """(kernel_wait, dma_wait) of each op: a DMA waits for the NPU operations it conflicts with,
    an NPU operation for the DMAs, counting how many later ones may stay in flight."""
    accesses = {op: accesses_of(op, ifm_hw.get(op)) for op in ops}
    dmas: list[Operation] = []
    kernels: list[Operation] = []
    result = []
    for op in ops:
        is_dma = isinstance(op, DmaOp)
        own, limit = (dmas, max_outstanding_dma) if is_dma else (kernels, MAX_OUTSTANDING_KERNELS)
        others = kernels if is_dma else dmas
        own.append(op)
        if len(own) > limit:
            own.pop(0)
        wait = None
        for back, other in enumerate(reversed(others)):
            if accesses[other].conflicts(accesses[op]):
                wait = back
                del others[:len(others) - back]
                break
        result.append((wait, None) if is_dma else (None, wait))
    return result


__all__ = ["DependencyError", "MAX_BLOCKDEP", "accesses_of", "blockdep", "feature_map_spans", "waits"]
