"""``npu-width-bands``: split chains of windowed ops into column bands, so stripes and their rolling
buffers get narrower where width makes the SRAM peak.

Design notes: docs/scheduler_design.md, section npu-width-bands (width_bands)."""
from __future__ import annotations

from dataclasses import dataclass

from npu_opt.dialects.npu.attrs import KernelAttr, OffsetAttr
from npu_opt.dialects.npu.ops_common import NpuComputeOp, is_constant
from npu_opt.dialects.npu.ops_memory import ConcatOp, DmaOp, SliceOp
from npu_opt.dialects.npu.perf.ir_adapter import report_name
from npu_opt.dialects.npu.perf.weight_dma import weight_dma
from npu_opt.dialects.npu.perf.weight_streams import WeightStreams
from npu_opt.dialects.npu.schedule_attrs import BAND_ATTR, SCHEDULE_ATTR, ScheduleAttr, SearchKnob
from npu_opt.ir.attributes import ArrayAttr, IntegerAttr, StringAttr
from npu_opt.ir.core import Operation, Value
from npu_opt.ir.pass_manager import PassContext
from npu_opt.ir.pass_registry import Pass, option, register_pass
from npu_opt.ir.types import RankedTensorType
from npu_opt.dialects.npu.execution_order import graph_blocks, npu_runs

BANDED = ("npu.conv2d", "npu.depthwise_conv2d", "npu.max_pool", "npu.avg_pool")
"""Ops a chain may hold: their OFM columns read a window of IFM columns, by their kernel."""

MAX_OPS = 32
"""The most ops one cut chain holds (the halo check of a longer one is quadratic in its length;
a chain of 1x1 convolutions has no halo to stop it)."""


def _shape(value: Value) -> tuple[int, ...] | None:
    t = value.type
    return tuple(t.shape) if isinstance(t, RankedTensorType) and len(t.shape) == 4 else None


def bandable(op: Operation) -> bool:
    """Whether ``op`` can be cut into column bands: a windowed op without upscaling or width
    folding, on 4-D feature maps of one batch."""
    if not isinstance(op, NpuComputeOp) or op.name not in BANDED or op.attr("width_fold") is not None:
        return False
    mode = op.attr("resampling")
    if mode is not None and str(getattr(mode, "value", mode)) != "none":
        return False
    ifm, ofm = _shape(op.operands[0]), _shape(op.results[0])
    return ifm is not None and ofm is not None and ifm[0] == ofm[0] == 1 and isinstance(op.attr("kernel"), KernelAttr)


def chains(run: list[Operation]) -> list[list[Operation]]:
    """The maximal chains of ``run`` (ops in schedule order): consecutive bandable ops, each OFM
    read only by the next op, as its IFM."""
    found: list[list[Operation]] = []
    current: list[Operation] = []
    for op in run:
        if isinstance(op, DmaOp):
            continue
        if current and bandable(op) and _feeds_only(current[-1], op):
            current.append(op)
            continue
        if current:
            found.append(current)
        current = [op] if bandable(op) and not is_constant(op.operands[0]) else []
    if current:
        found.append(current)
    return found


def overhead(chain: list[Operation], edges: list[tuple[int, int]]) -> float:
    """The largest share of extra OFM columns any op of ``chain`` computes when its last OFM is
    cut at ``edges``: the halo neighbouring bands both compute, over the op's OFM width."""
    computed = [0] * len(chain)
    for first, last in edges:
        for index, band in enumerate(plan_band(chain, first, last)):
            computed[index] += band.last - band.first
    widths = [_shape(op.results[0])[2] for op in chain]  # type: ignore[index]
    return max(c / w - 1 for c, w in zip(computed, widths))


def segments(chain: list[Operation], bands: int, min_width: int, max_overhead: float) -> list[list[Operation]]:
    """``chain`` cut, from its first op on, into the longest runs of two to ``MAX_OPS`` ops whose
    last OFM takes ``bands`` bands of ``min_width`` columns and whose halo recompute stays within
    ``max_overhead`` (a share of each op's OFM columns): the halo grows with every windowed op
    up a band, so a long chain in narrow bands would compute most columns twice."""
    found: list[list[Operation]] = []
    start = 0
    while start < len(chain) - 1:
        end = start + 1
        best = None
        while end < min(len(chain), start + MAX_OPS):
            part = chain[start:end + 1]
            if not _within(part, bands, min_width, max_overhead):
                break
            if _may_end(part[-1]):
                best = end
            end += 1
        if best is None:
            start += 1
            continue
        found.append(chain[start:best + 1])
        start = best + 1
    return found


def _within(part: list[Operation], bands: int, min_width: int, max_overhead: float) -> bool:
    """Whether ``part``'s last OFM takes two bands or more of ``min_width`` columns and its halo
    recompute stays within ``max_overhead``."""
    edges = band_edges(_shape(part[-1].results[0])[2], bands, min_width)  # type: ignore[index]
    return len(edges) > 1 and overhead(part, edges) <= max_overhead


def _may_end(op: Operation) -> bool:
    """Whether ``op`` may be the last op of a cut chain, whose bands write their columns of one
    concatenation: not when its OFM is a part of a concatenation already (a part is an op's own
    OFM), nor an average pool, which is scaled another way when it writes a concatenation (as
    Vela programs such a pool: the whole window's divisor, the zero points kept;
    interpreters/npu/pool.py), so that cutting it would change its values."""
    return op.name != "npu.avg_pool" and not any(isinstance(user, ConcatOp) for user, _ in op.results[0].uses)


def _feeds_only(producer: Operation, consumer: Operation) -> bool:
    uses = producer.results[0].uses
    return len(uses) == 1 and uses[0] == (consumer, 0)


@dataclass(frozen=True)
class BandedOp:
    """One op of a band: the OFM columns [first, last) it produces, the IFM columns [lo, hi) it
    reads, and the padding its kernel keeps (the true edges' only)."""

    first: int
    last: int
    lo: int
    hi: int
    kernel: KernelAttr


def band_window(kernel: KernelAttr, ifm_width: int, first: int, last: int) -> BandedOp:
    """What OFM columns [first, last) of an op with ``kernel`` read of an IFM ``ifm_width`` wide,
    and the padding left at its edges: only where the window reaches past the true image edge."""
    top, left, bottom, right = kernel.padding
    start = first * kernel.stride_w - left
    end = (last - 1) * kernel.stride_w - left + kernel.dilated_width
    lo, hi = max(start, 0), min(end, ifm_width)
    padding = (top, lo - start, bottom, end - hi)
    banded = KernelAttr(kernel.size, kernel.stride, kernel.dilation, padding)
    return BandedOp(first, last, lo, hi, banded)


def band_edges(width: int, bands: int, min_width: int) -> list[tuple[int, int]]:
    """``width`` columns cut into at most ``bands`` ranges of (nearly) equal width, each at
    least ``min_width`` columns wide (one range when that leaves no room for two)."""
    count = max(1, min(bands, width // max(min_width, 1)))
    cuts = [round(k * width / count) for k in range(count + 1)]
    return [(a, b) for a, b in zip(cuts, cuts[1:])]


def plan_band(chain: list[Operation], first: int, last: int) -> list[BandedOp]:
    """Each op of ``chain`` for the band producing its last OFM's columns [first, last), in
    chain order: the columns every op produces are those the next op's window reads."""
    planned: list[BandedOp] = []
    for op in reversed(chain):
        ifm = _shape(op.operands[0])
        assert ifm is not None
        band = band_window(op.attr("kernel"), ifm[2], first, last)  # type: ignore[arg-type]
        planned.append(band)
        first, last = band.lo, band.hi
    return planned[::-1]


@register_pass("npu-width-bands", statistics={
    "chains": "chains of windowed ops cut into column bands",
    "bands": "bands made (each a copy of its chain on narrower feature maps)",
})
class WidthBands(Pass):
    """Cut each chain of windowed NPU ops into column bands: a copy of the chain per band on
    narrower feature maps, reading a slice of the chain's IFM and writing its columns of a
    concatenation standing for the chain's OFM (see the module docstring)."""

    KNOBS = (SearchKnob("width_bands", (2, 4), "narrower feature maps below Size's SRAM, paid in halo columns"),)
    """The npu.schedule knob this pass reads, as the schedule search tries it (on Size, and the
    first count on the best point)."""

    PRESERVES = (WeightStreams,)
    """A band's op reads its chain op's weight constant and shares its encoders (same_weights)."""

    bands: int = option(0, "column bands per chain (0: the module's npu.schedule, 1: none)")
    min_width: int = option(8, "columns a band's last op produces at least (fewer bands where the OFM is narrower)")
    max_overhead: int = option(25, "percent of each op's OFM columns a chain's bands may recompute as halo "
                                   "(longer chains are cut)")

    def run(self, module: Operation, ctx: PassContext) -> None:
        bands = self.bands
        if bands == 0:
            schedule = module.attr(SCHEDULE_ATTR)
            bands = schedule.width_bands if isinstance(schedule, ScheduleAttr) else 1
        if bands < 0 or self.min_width < 1 or self.max_overhead < 0:
            ctx.error(f"bands and max-overhead must not be negative and min-width must be at least 1 (bands = "
                      f"{self.bands}, min-width = {self.min_width}, max-overhead = {self.max_overhead})")
            return
        if bands == 1:
            return
        streams = ctx.analyses.cached(WeightStreams, module)
        for block in list(graph_blocks(module)):
            try:
                runs = npu_runs(block)
            except ValueError as err:  # an incomplete npu.time numbering (as the other passes report it)
                ctx.error(f"cannot split into column bands: {err}", block.parent_op())
                return
            for run in runs:
                for chain in chains(run):
                    for part in segments(chain, bands, self.min_width, self.max_overhead / 100):
                        self._split(part, bands, streams, ctx)

    def _split(self, chain: list[Operation], bands: int, streams: WeightStreams | None, ctx: PassContext) -> None:
        last_op = chain[-1]
        ofm = last_op.results[0]
        shape = _shape(ofm)
        assert shape is not None
        edges = band_edges(shape[2], bands, self.min_width)
        source = chain[0].operands[0]
        parts: list[Value] = []
        reads: list[str] = []  # the IFM columns each band's first op reads
        for index, (first, last) in enumerate(edges):
            planned = plan_band(chain, first, last)
            reads.append(f"{planned[0].lo}..{planned[0].hi}")
            value = self._slice(source, planned[0], last_op, ctx)
            for op, band in zip(chain, planned):  # (each band's ops together, where every operand is defined)
                value = self._copy(op, value, band, index, last_op, streams, ctx)
            parts.append(value)
        concat = ConcatOp.build(parts, [ofm.type], {"offsets": ArrayAttr(tuple(
            OffsetAttr((0, 0, first, 0)) for first, _ in edges))}, location=last_op.location)
        ctx.rewriter.insert_before(concat, last_op)
        ctx.rewriter.replace_all_uses(ofm, concat.results[0])
        for op in reversed(chain):
            dma = weight_dma(op)
            ctx.rewriter.erase_op(op)
            if dma is not None and not dma.results[0].uses:
                ctx.rewriter.erase_op(dma)
        widths = ", ".join(str(last - first) for first, last in edges)
        ctx.remark(f"the chain of {len(chain)} ops from '{report_name(chain[0])}' to '{report_name(last_op)}' runs in "
                   f"{len(edges)} column bands of {widths} OFM columns; the first op reads IFM columns "
                   + ", ".join(reads), last_op)
        ctx.stat("chains")
        ctx.stat("bands", len(edges))

    @staticmethod
    def _slice(source: Value, band: BandedOp, anchor: Operation, ctx: PassContext) -> Value:
        """The band's view of the chain's IFM (the IFM itself when the band reads all of it)."""
        shape = _shape(source)
        assert shape is not None and isinstance(source.type, RankedTensorType)
        if (band.lo, band.hi) == (0, shape[2]):
            return source
        box = RankedTensorType((shape[0], shape[1], band.hi - band.lo, shape[3]), source.type.element_type,
                               source.type.encoding)
        view = SliceOp.build([source], [box], {"offset": OffsetAttr((0, 0, band.lo, 0))}, location=anchor.location)
        ctx.rewriter.insert_before(view, anchor)
        return view.results[0]

    @staticmethod
    def _copy(op: Operation, ifm: Value, band: BandedOp, index: int, anchor: Operation, streams: WeightStreams | None,
              ctx: PassContext) -> Value:
        """``op`` for one band: reading ``ifm``, producing its band's columns, with the band's
        padding and a weight copy of its own."""
        result = op.results[0]
        t = result.type
        assert isinstance(t, RankedTensorType)
        narrow = RankedTensorType((t.shape[0], t.shape[1], band.last - band.first, t.shape[3]), t.element_type,
                                  t.encoding)
        operands = [ifm, *op.operands[1:]]
        dma = weight_dma(op)
        if dma is not None:
            copy = DmaOp(dma.name, list(dma.operands), [dma.results[0].type], _unscheduled(dma.attributes),
                         dict(dma.properties), (), location=dma.location)
            ctx.rewriter.insert_before(copy, anchor)
            operands = [copy.results[0] if v is dma.results[0] else v for v in operands]
        attributes = _unscheduled(op.attributes)
        attributes[BAND_ATTR] = IntegerAttr(index)  # (its first op may start a cascade: cascade_ops.py)
        properties = dict(op.properties)
        properties["kernel"] = band.kernel
        for table in (attributes, properties):
            if isinstance(table.get("name"), StringAttr):
                table["name"] = StringAttr(f"{table['name'].value}_band{index}")
        banded = type(op)(op.name, operands, [narrow], attributes, properties, (), location=op.location)
        ctx.rewriter.insert_before(banded, anchor)
        if streams is not None:
            streams.same_weights(banded, op)
        return banded.results[0]


def has_chain(module: Operation, bands: int = 2, min_width: int = 8, max_overhead: float = 0.25) -> bool:
    """Whether npu-width-bands with these options would cut some chain of ``module``: only then
    are column bands a knob worth a search candidate."""
    # every segment ends in a pair of ops that is one itself (a pair's halo is its segment's)
    return any(_within(chain[index:index + 2], bands, min_width, max_overhead) and _may_end(chain[index + 1])
               for block in graph_blocks(module) for run in npu_runs(block) for chain in chains(run)
               for index in range(len(chain) - 1))


def _unscheduled(attributes: dict) -> dict:
    """An op's discardable attributes without the schedule's (``npu.time``, ``npu.block`` ...):
    a band's op gets its own from the passes after this one."""
    return {k: v for k, v in attributes.items() if not k.startswith("npu.")}


__all__ = ["BandedOp", "WidthBands", "band_edges", "band_window", "bandable", "chains", "has_chain", "overhead",
           "plan_band", "segments"]
