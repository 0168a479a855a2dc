"""Tensor format and memory-placement passes: the graph decisions Vela makes before it costs.

* ``npu-format-nhcwb16``: NHCWB16 (brick) format for the NPU-internal feature maps Vela stores
  that way, written as ``#npu.fm<NHCWB16>`` on the value's type.
* ``npu-place-tensors``: with a separate fast storage (Dedicated_Sram: arena in DRAM, SRAM as an
  unlimited cache), the NPU-internal feature maps move to SRAM (``#npu.fm<FORMAT, Sram>``);
  graph inputs and outputs (and every view aliasing them) stay in the arena.

Constants (weights, biases, LUTs) are left in permanent storage: whether weights are streamed
into fast storage is npu-estimate's weight-buffering decision. Both passes read the module's
``npu.target`` and run in the ``estimate`` pipeline before npu-select-block-config.
"""
from __future__ import annotations

from npu_opt.dialects.npu.attrs import FmAttr
from npu_opt.dialects.npu.interfaces import costed
from npu_opt.hardware.op_kind import OpKind
from npu_opt.dialects.npu.ops_common import NpuComputeOp, NpuOp, element_bits, encoding_of, is_constant, shape_of, with_encoding
from npu_opt.dialects.npu.ops_memory import slice_root
from npu_opt.dialects.npu.target_attr import target_of
from npu_opt.ir.core import OpResult, Operation, Value
from npu_opt.ir.pass_manager import PassContext
from npu_opt.ir.pass_registry import Pass, option, register_pass
from npu_opt.ir.traits import MemoryOnly, ReturnLike
from npu_opt.ir.types import RankedTensorType
from npu_opt.passes.npu_shared_tensors import SharedTensor, shared_tensors


def _kind(op: Operation | None) -> OpKind | None:
    """The hardware operation an NPU op declares (its CostedOp interface); None for views and
    non-NPU ops."""
    interface = costed(op) if op is not None else None
    return interface.kind if interface is not None else None


def _producer(value: Value) -> Operation | None:
    return value.op if isinstance(value, OpResult) else None


def _is_npu(op: Operation | None) -> bool:
    return isinstance(op, NpuOp)


def _retype(value: Value, fmt: str | None, area: str | None, ctx: PassContext) -> None:
    """Set ``value``'s ``#npu.fm`` encoding (keeping the part not given) through the rewriter."""
    t = value.type
    assert isinstance(t, RankedTensorType)
    old = encoding_of(value)
    new_fmt = fmt if fmt is not None else (old.format if old is not None else "NHWC")
    new_area = area if area is not None else (old.area if old is not None else None)
    encoding = None if (new_fmt == "NHWC" and new_area is None) else FmAttr(new_fmt, new_area)
    if encoding == old:
        return
    producer = _producer(value)
    assert producer is not None
    with ctx.rewriter.modify(producer):
        value.type = with_encoding(t, encoding)


def _shape4(value: Value) -> tuple[int, ...]:
    """Vela's Shape4D of the value: its shape left-padded with ones (constants included)."""
    shape = tuple(shape_of(value))
    return (1,) * (4 - len(shape)) + shape if len(shape) <= 4 else shape


def _function_results(module: Operation) -> set[Value]:
    """ids of values a function returns (graph outputs) and of values an NPU op hands to an NPU op
    after a CPU op (outputs of one NPU command stream, inputs of the next)."""
    from npu_opt.dialects.npu.execution_order import stream_outputs

    returned = {v for op in module.walk() if op.has_trait(ReturnLike) for v in op.operands}
    try:
        return returned | stream_outputs(module)
    except ValueError:  # an incomplete npu.time numbering: npu-estimate reports it
        return returned


_NHWC_REDUCE_SUM_IFM = "ethos-u65-512"
"""The accelerator whose ReduceSum reads an NHWC IFM whatever its element width (8- and 16-bit too)."""


@register_pass("npu-format-nhcwb16", statistics={
    "nhcwb16": "feature maps given the NHCWB16 format",
    "kept-linear": "NPU op outputs kept NHWC",
})
class FormatNhcwb16(Pass):
    """Give NHCWB16 format to the feature maps Vela stores as 16-channel bricks.

    Values that share one tensor are decided as a group.

    Design notes: docs/scheduler_design.md, section npu-format-nhcwb16 (npu_place.FormatNhcwb16)."""

    enabled: bool = option(True, "set formats (false: leave every feature map NHWC)")

    def run(self, module: Operation, ctx: PassContext) -> None:
        if not self.enabled:
            return
        outputs = _function_results(module)
        target = target_of(module, required=False)
        reduce_reads_nhwc = target is not None and target.accelerator.name == _NHWC_REDUCE_SUM_IFM
        shared = shared_tensors(module)
        decided: dict[Value, bool] = {}  # first member of a tensor -> NHCWB16
        for op in list(module.walk()):
            if not isinstance(op, NpuComputeOp) or op.has_trait(MemoryOnly) or _kind(op) is OpKind.DMA:
                continue
            value = op.results[0]
            group = shared.get(value) or SharedTensor(members=[value])
            key = group.members[0]
            if key not in decided:
                decided[key] = self._may_use_nhcwb16(group, outputs, reduce_reads_nhwc) and not self._avoid_for_ofm(op)
                if decided[key]:
                    for member in group.members:
                        _retype(member, "NHCWB16", None, ctx)
            ctx.stat("nhcwb16" if decided[key] else "kept-linear")

    @staticmethod
    def _may_use_nhcwb16(group: SharedTensor, outputs: set[Value], reduce_reads_nhwc: bool = False) -> bool:
        """Whether Vela's format checks allow NHCWB16 for the tensor ``group``."""
        if any(offset % 16 for offset in group.depth_offsets) or group.strided:
            return False
        for value in group.members:
            if value in outputs or not isinstance(value.type, RankedTensorType) or is_constant(value):
                return False
            producer = _producer(value)
            if producer is None or not _is_npu(producer) or _kind(producer) is OpKind.DMA:
                return False
            if producer.has_trait(MemoryOnly) and not group.is_view_of_it(producer):
                return False
            for user in value.users():
                if group.is_view_of_it(user):
                    continue
                if not _is_npu(user) or user.has_trait(MemoryOnly) or _kind(user) is OpKind.DMA:
                    return False
                if _kind(user) is OpKind.REDUCE_SUM and (element_bits(value) == 32 or reduce_reads_nhwc):
                    return False
        return True

    @staticmethod
    def _avoid_for_ofm(op: Operation) -> bool:
        """Vela's ``avoid_nhcwb16_for_ofm``: an elementwise OFM that may overwrite an NHWC input.
        An input read through a slice is seen with its whole buffer's shape."""
        ofm = op.results[0]
        shape = _shape4(ofm)
        kind = _kind(op)
        if kind is None or not kind.is_elementwise or shape[-1] % 16 == 0:
            return False
        for value in op.operands[:2]:
            if _shape4(slice_root(value)) != shape or element_bits(value) != element_bits(ofm):
                continue
            enc = encoding_of(value)
            if enc is None or enc.format == "NHWC":
                return True
        return False


@register_pass("npu-place-tensors", statistics={
    "fast": "feature maps placed in fast storage",
    "arena": "feature maps left in place (graph inputs and outputs, their views, explicit areas)",
    "over-limit": "NPU ops whose live fast-storage feature maps exceed the arena cache size",
})
class PlaceTensors(Pass):
    """Place feature maps in memory areas as Vela's scheduler does for the module's memory mode.

    When the fast storage is separate from the arena (``Dedicated_Sram``: arena in DRAM, an
    unlimited SRAM cache), every feature map an NPU op produces moves to the fast storage,
    except graph inputs and outputs (values crossing a CPU op included): a value in the same alias class (connected by memory-only
    views, which must stay in their source's area) as a function argument, a returned value or a
    value a non-NPU op reads stays in the arena; so does a class where some value already has an
    explicit area (e.g. a DMA's destination). With a shared arena (Shared_Sram, Sram_Only)
    nothing changes: the arena is the fast storage. Placement ignores the arena cache size
    (npu-form-cascades and npu-place-fast-storage make the schedule fit it later), but unless
    ``check-limit=false`` a warning names the op with the most live fast-storage feature maps when
    they exceed it (passes/npu_liveness.py): the estimate pipeline does not cascade."""

    enabled: bool = option(True, "place feature maps (false: leave them all in the arena)")
    check_limit: bool = option(True, "warn when live fast-storage feature maps exceed the arena cache size "
                                     "(the schedule pipeline turns it off)")

    def run(self, module: Operation, ctx: PassContext) -> None:
        target = target_of(module)
        if self.enabled and target.is_spilling_enabled:
            self._place(module, target, ctx)
        if self.check_limit:
            self._check_limit(module, target, ctx)

    @staticmethod
    def _check_limit(module: Operation, target, ctx: PassContext) -> None:
        """Warn, once per function, when the feature maps live in fast storage during some NPU op
        exceed the arena cache size (Vela would cascade those ops; the estimate does not)."""
        from npu_opt.passes.npu_liveness import memory_peak
        from npu_opt.dialects.npu.execution_order import graph_blocks

        area, limit = target.fast_storage_area, target.arena_cache_size
        for block in list(graph_blocks(module)):
            try:
                peak = memory_peak(block, target, area, limit)
            except ValueError:  # an incomplete npu.time numbering: npu-estimate reports it
                continue
            if peak is None or peak.live_bytes <= limit:
                continue
            ctx.stat("over-limit", peak.over_limit_ops)
            name = getattr(peak.op.attr("name"), "value", None) or peak.op.name
            ctx.warning(f"feature maps live in {area} while '{name}' runs take {peak.live_bytes} bytes, more than "
                        f"the arena cache size of {limit} bytes ({peak.over_limit_ops} NPU op(s) over it); Vela "
                        "would cascade these ops or keep feature maps in slower memory, which the estimate pipeline does not "
                        "do (run --pass=schedule to cascade and place them), so their estimates may be far off", peak.op)

    def _place(self, module: Operation, target, ctx: PassContext) -> None:
        """Move the NPU-internal feature maps to the fast storage (see the class docstring)."""
        fast = target.fast_storage_area
        outputs = _function_results(module)
        parent: dict[Value, Value] = {}
        values: dict[Value, None] = {}  # every feature map seen, in walk order

        def find(key: Value) -> Value:
            while parent.setdefault(key, key) != key:
                parent[key] = parent[parent[key]]
                key = parent[key]
            return key

        def union(a: Value, b: Value) -> None:
            values[a] = values[b] = None
            parent[find(a)] = find(b)

        pinned: set[Value] = set()
        for op in module.walk():
            if not isinstance(op, NpuOp):
                continue
            for value in op.results:
                values[value] = None
                find(value)
                enc = encoding_of(value)
                if (value in outputs or any(not _is_npu(u) for u in value.users())
                        or (enc is not None and enc.area is not None)):
                    pinned.add(value)  # a graph output, read by the CPU, or already placed
            for value in op.operands:
                if is_constant(value):
                    continue
                values[value] = None
                if _producer(value) is None or not _is_npu(_producer(value)):
                    pinned.add(value)  # a graph input (or a CPU op's output)
                if op.has_trait(MemoryOnly):
                    union(value, op.results[0])
        pinned_roots = {find(key) for key in pinned}
        for value in values:
            if _producer(value) is None or not _is_npu(_producer(value)) or is_constant(value):
                continue
            if find(value) in pinned_roots:
                ctx.stat("arena")
                continue
            _retype(value, None, fast, ctx)
            ctx.stat("fast")


__all__ = ["FormatNhcwb16", "PlaceTensors"]
