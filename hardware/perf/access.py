"""Memory traffic of one operation (element accesses, bytes per memory area, access cycles),
modelled on Vela 5.2's access counts.

Design notes: docs/cost_model_design.md, section Memory traffic (access)."""
from __future__ import annotations

from dataclasses import dataclass

from npu_opt.hardware.accelerators import SUB_KERNEL_LIMITS, BlockType
from npu_opt.hardware.perf.arch import PerfTarget
from npu_opt.hardware.perf.block_config import BlockConfig
from npu_opt.hardware.perf.memory import burst_adjusted_bytes
from npu_opt.hardware.perf.op_desc import MEMORY_AREAS, NpuOpDesc, TensorDesc
from npu_opt.hardware.perf.shape import div_up

_CONV_LIKE = (BlockType.CONVOLUTION, BlockType.DEPTHWISE, BlockType.POOLING, BlockType.REDUCE_SUM,
              BlockType.VECTOR_PRODUCT)


@dataclass(frozen=True)
class ElementAccess:
    """Element counts an op moves (multiply by the element size for bytes)."""

    ifm_read: int = 0
    ifm2_read: int = 0
    ofm_write: int = 0
    weight_read: int = 0
    """Raw weight elements fetched (before compression)."""
    scale_read: int = 0
    """Bias/scale entries fetched (one per OFM channel)."""


def _conv_like_access(desc: NpuOpDesc, block: BlockConfig, ofm_write: int) -> ElementAccess:
    """A conv-like op walks the OFM block by block: each block fetches its IFM block (the whole
    IFM depth) once per sub-kernel and, when the op has weights, the weights of its depth slice.
    Depthwise and pooling blocks span the whole depth, so they count one block in depth."""
    kind = desc.block_type
    ifm, ofm = desc.ifm.shape, desc.ofm.shape
    per_channel = kind in (BlockType.DEPTHWISE, BlockType.POOLING)
    ofm_block = ofm.min(block.ofm_block)
    grid = ofm.div_round_up(ofm_block)
    blocks = grid.with_depth(1).elements() if per_channel else grid.elements()
    slice_depth = ifm.depth if per_channel else ofm_block.depth
    rounding = desc.ifm.format.rounding
    ifm_block_plane = ifm.min(block.ifm_block).round_up(rounding).elements_wh()
    ifm_per_block = ifm_block_plane * ifm.round_up(rounding).depth
    limit_h, limit_w = SUB_KERNEL_LIMITS[kind]  # type: ignore[index]
    # Vela pairs the width with the first (height) limit; both are equal on every block type.
    sub_kernels = div_up(desc.kernel.width, limit_h) * div_up(desc.kernel.height, limit_w)
    ifm_read = ifm_per_block * sub_kernels * blocks
    if kind in (BlockType.POOLING, BlockType.REDUCE_SUM):
        return ElementAccess(ifm_read, 0, ofm_write)
    taps = desc.kernel.elements_wh() * (1 if per_channel else ifm.depth)
    return ElementAccess(ifm_read, 0, ofm_write, taps * slice_depth * blocks, ofm.depth)


def _elementwise_access(desc: NpuOpDesc, ofm_write: int) -> ElementAccess:
    """Each operand is read once per OFM element (counted in the IFM's storage rounding), except
    one broadcast scalar: IFM1 if it is a scalar, otherwise a scalar IFM2. A broadcast scalar of
    8 bits rides in the command stream (no reads); a wider one is read once."""
    rounding = desc.ifm.format.rounding
    per_element = desc.ofm.shape.round_up(rounding).elements()

    def scalar_reads(tensor: TensorDesc) -> int:
        return tensor.shape.round_up(rounding).elements() if tensor.bits > 8 else 0

    ifm2 = desc.ifm2
    ifm_is_scalar = desc.ifm.shape.elements() == 1
    ifm_read = scalar_reads(desc.ifm) if ifm_is_scalar else per_element
    ifm2_read = 0
    if ifm2 is not None:
        ifm2_is_scalar = not ifm_is_scalar and ifm2.shape.elements() == 1
        ifm2_read = scalar_reads(ifm2) if ifm2_is_scalar else per_element
    return ElementAccess(ifm_read, ifm2_read, ofm_write)


def element_access(desc: NpuOpDesc, block: BlockConfig | None) -> ElementAccess:
    """How many elements of each operand the op reads and writes (nothing for a DMA)."""
    if desc.block_type is None or block is None:
        return ElementAccess()
    ofm_write = desc.ofm.shape.round_up(desc.ofm.format.rounding).elements()
    if desc.block_type in _CONV_LIKE:
        return _conv_like_access(desc, block, ofm_write)
    return _elementwise_access(desc, ofm_write)


PURPOSES: tuple[str, ...] = ("fm", "weights", "other")
"""What a byte moved carries, as Vela's summary splits traffic: feature maps (IFMs, OFMs and
their copies), weights (compressed weights read, and whole weight streams DMA'd with their scale
records), and the rest (scale records read by the NPU, LUTs), counted only in the totals."""


@dataclass(frozen=True)
class Traffic:
    """Bytes read and written per memory area, the same split by purpose, and the burst-adjusted
    bytes that set each memory's access cycles (areas in ``MEMORY_AREAS`` order)."""

    read: tuple[float, ...]
    written: tuple[float, ...]
    charged: tuple[float, ...]
    by_purpose: tuple[tuple[tuple[float, ...], tuple[float, ...]], ...] = ()
    """Per ``PURPOSES`` entry, (bytes read, bytes written) per memory area."""

    def access_cycles(self, perf: PerfTarget) -> tuple[float, ...]:
        """Cycles each memory is busy: charged bytes / its bytes per cycle."""
        return tuple(c / perf.bytes_per_cycle(area) for area, c in zip(MEMORY_AREAS, self.charged))

    def purpose(self, purpose: str) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """(bytes read, bytes written) per memory area of one of ``PURPOSES``."""
        return self.by_purpose[PURPOSES.index(purpose)]


class TrafficTally:
    """Accumulates bytes per memory area (and per purpose) while an estimate is put together."""

    def __init__(self) -> None:
        self.read = dict.fromkeys(MEMORY_AREAS, 0.0)
        self.written = dict.fromkeys(MEMORY_AREAS, 0.0)
        self.charged = dict.fromkeys(MEMORY_AREAS, 0.0)
        self.split = {(purpose, write): dict.fromkeys(MEMORY_AREAS, 0.0)
                      for purpose in PURPOSES for write in (False, True)}

    def add(self, area: str, nbytes: float, write: bool = False, charged: float | None = None,
            purpose: str = "fm") -> None:
        """Count ``nbytes`` of ``purpose`` (one of ``PURPOSES``) moved in ``area`` (SHRAM is not
        tallied); ``charged`` (default: none) is what counts towards the area's access cycles."""
        if area not in self.read:
            return
        (self.written if write else self.read)[area] += nbytes
        self.split[(purpose, write)][area] += nbytes
        if charged:
            self.charged[area] += charged

    def freeze(self) -> Traffic:
        def row(values: dict[str, float]) -> tuple[float, ...]:
            return tuple(values[a] for a in MEMORY_AREAS)
        return Traffic(row(self.read), row(self.written), row(self.charged),
                       tuple((row(self.split[(p, False)]), row(self.split[(p, True)])) for p in PURPOSES))


def operand_traffic(perf: PerfTarget, desc: NpuOpDesc, block: BlockConfig | None, tally: TrafficTally) -> None:
    """Add the feature-map, weight and scale traffic of ``desc`` run with ``block`` to ``tally``."""
    access = element_access(desc, block)
    if block is None:
        return
    ofm = desc.ofm
    nbytes = access.ofm_write * ofm.element_bytes
    tally.add(ofm.memory, nbytes, write=True, charged=burst_adjusted_bytes(
        perf, False, ofm.memory, ofm.format, ofm.bits, block.ofm_block, ofm.shape, nbytes))
    ifm = desc.ifm
    nbytes = access.ifm_read * ifm.element_bytes
    tally.add(ifm.memory, nbytes, charged=burst_adjusted_bytes(
        perf, True, ifm.memory, ifm.format, ifm.bits, block.ifm_block, ifm.shape, nbytes))
    if desc.ifm2 is not None:
        ifm2 = desc.ifm2
        nbytes = access.ifm2_read * ifm2.element_bytes
        tally.add(ifm2.memory, nbytes, charged=burst_adjusted_bytes(
            perf, True, ifm2.memory, ifm2.format, ifm2.bits, block.ifm_block, ifm2.shape, nbytes))
    weights = desc.weights
    if weights is None:
        return
    if access.weight_read > 0:
        # Bandwidth per raw weight element, from the encoded stream less one scale record per
        # OFM channel of this (possibly depth-sliced) op, as Vela approximates it.
        ratio = (weights.encoded_bytes - access.scale_read * weights.scale_bytes) / weights.raw_elements
        nbytes = access.weight_read * ratio
        tally.add(weights.memory, nbytes, charged=None if weights.buffered else nbytes, purpose="weights")
    if access.scale_read > 0:
        nbytes = access.scale_read * weights.scale_bytes
        tally.add(weights.memory, nbytes, charged=None if weights.buffered else nbytes, purpose="other")


__all__ = ["ElementAccess", "PURPOSES", "Traffic", "TrafficTally", "element_access", "operand_traffic"]
