"""The stripes of a scheduled op or cascade in the order Vela 5.2's legacy command generator
issues them: each member's OFM boxes (rows, then columns, then weight depth slices), the input
boxes and padding each reads, and the members interleaved so that a stripe comes right after the
producer stripes that complete the rows it reads (docs/codegen_design.md, Cascades and stripes).
It reads only IR facts: npu.cascade, npu.stripe, npu.kernel, the weight stream's slices."""
from __future__ import annotations

from dataclasses import dataclass

from npu_opt.dialects.npu.execution_order import is_view
from npu_opt.dialects.npu.interfaces import costed
from npu_opt.dialects.npu.perf.weight_dma import is_weight_dma, weight_dma
from npu_opt.dialects.npu.schedule_attrs import CASCADE_ATTR, STREAM_ATTR, STRIPE_ATTR, CascadeAttr, StreamAttr, StripeAttr
from npu_opt.hardware.op_kind import OpKind
from npu_opt.hardware.padding import needed_total_padding
from npu_opt.ir.core import OpResult, Operation, Value

Coord = tuple[int, int, int, int]
"""(batch, y, x, channel)."""

WHOLE_DEPTH_KINDS = (OpKind.CONV2D, OpKind.TRANSPOSE_CONV2D, OpKind.VECTOR_PRODUCT, OpKind.REDUCE_SUM)
"""Kinds whose every output element reads the IFM's whole depth."""


class PlanError(Exception):
    """A schedule whose stripes cannot be planned, located at ``op``."""

    def __init__(self, op: Operation, message: str) -> None:
        super().__init__(message)
        self.op = op


@dataclass(frozen=True)
class Box:
    """The elements from ``start`` up to ``end`` (exclusive) of a 4-D feature map."""

    start: Coord
    end: Coord

    @property
    def shape(self) -> tuple[int, int, int]:
        """(height, width, depth)."""
        return (self.end[1] - self.start[1], self.end[2] - self.start[2], self.end[3] - self.start[3])

    def within(self, end: Coord) -> bool:
        """Whether the box lies inside the box from the origin to ``end``."""
        return all(0 <= a for a in self.start) and all(a <= b for a, b in zip(self.end, end))


@dataclass(frozen=True)
class Window:
    """How an op's input boxes follow its OFM box: strides (y, x), the skirt (the kernel's reach
    above, left of, below and right of the strided position; None for an op without padding),
    the dilated kernel height, the IFM upscaling, whether it reads the whole IFM depth, and
    whether its inputs wrap (a binary elementwise op's broadcast operands)."""

    stride: tuple[int, int] = (1, 1)
    skirt: tuple[int, int, int, int] | None = None
    kernel_height: int = 1
    upscale: int = 1
    whole_depth: bool = False
    wraps: bool = False


def input_box(ofm: Box, window: Window, shape: Coord) -> tuple[Box, int, int]:
    """The box of an input of ``shape`` that the OFM box reads, and the padding above and below
    it (Vela's stripe transform, skirt included)."""
    _, height, width, depth = shape
    up = window.upscale
    start, end = list(ofm.start), list(ofm.end)
    if window.whole_depth:
        start[3], end[3] = 0, depth
    end[3] = min(end[3], depth)
    end[2] = min(end[2], width * up)
    unclipped_end = end[1]
    end[1] = min(end[1], height * up)
    pad_top = pad_bottom = 0
    if window.skirt is not None:
        above, left, below, right = window.skirt
        sy, sx = window.stride
        start[2] = max(start[2] * sx - left, 0)
        end[2] = min(end[2] * sx + right, width)
        remainder = above % up
        reach = sy * (end[1] - start[1] - 1)
        top = start[1] * sy - above + remainder
        pad_top = max(0, -top) + remainder
        top = max(top, 0)
        if end[1] * sy + below > height * up:
            if up != 1 and unclipped_end > height * up:
                pad_bottom = unclipped_end - height * up
            else:
                pad_bottom = max(0, top - pad_top + reach + window.kernel_height - height * up)
        start[1] = max(top // up, 0)
        end[1] = max(min((end[1] * sy + below + below % up) // up, height), 1)
    if window.wraps:
        start = [_wrapped(a, n) for a, n in zip(start, shape)]
        end = [_wrapped(a - 1, n) + 1 for a, n in zip(end, shape)]
    return Box(tuple(start), tuple(end)), pad_top, pad_bottom  # type: ignore[arg-type]


def _wrapped(coordinate: int, size: int) -> int:
    """A coordinate of a broadcast operand: past the operand's extent it wraps around."""
    return coordinate % size if coordinate >= size and size else max(coordinate, 0)


@dataclass(frozen=True)
class Stripe:
    """One NPU operation of a scheduled op: its OFM box, the box of each feature-map operand it
    reads (by operand index), the padding above and below the IFM box, its weight depth slice,
    and whether it is the first or last along the OFM's height."""

    op: Operation
    ofm: Box
    inputs: dict[int, Box]
    pad_top: int
    pad_bottom: int
    depth_index: int
    first_row: bool
    last_row: bool


def shape4(value: Value) -> Coord:
    """A feature map's shape as (batch, height, width, depth)."""
    shape = tuple(int(d) for d in value.type.shape)  # type: ignore[attr-defined]
    return (1,) * (4 - len(shape)) + shape[-4:]  # type: ignore[return-value]


def feature_map_operands(op: Operation) -> list[int]:
    """Indices of the operands ``op`` reads as feature maps (not weights, biases or tables)."""
    names = [d.name for d in getattr(type(op), "_operand_defs", ())]
    return [i for i, name in enumerate(names[:len(op.operands)]) if name in ("ifm", "ifm2")]


def window_of(op: Operation) -> Window:
    """The window of ``op`` from its kernel, kind and resampling."""
    interface = costed(op)
    kind = interface.kind if interface is not None else None
    ifm, ofm = shape4(op.operands[0]), shape4(op.results[0])
    resampling = getattr(op.attr("resampling"), "value", None) or "none"
    upscale = 1
    if kind is OpKind.TRANSPOSE_CONV2D:
        upscale = ofm[1] // ifm[1]
    elif resampling == "nearest":
        upscale = -(-ofm[1] // ifm[1])
    kernel = op.attr("kernel")
    skirt = None
    kernel_height = 1
    stride = (1, 1)
    if kernel is not None and kind is not OpKind.VECTOR_PRODUCT:
        stride = (kernel.stride[0], kernel.stride[1])
        kernel_height = kernel.dilation[0] * (kernel.size[0] - 1) + 1
        kernel_width = kernel.dilation[1] * (kernel.size[1] - 1) + 1
        top, left, bottom, right = kernel.padding
        if kind is OpKind.TRANSPOSE_CONV2D:
            skirt = (top, left, bottom, right)
        else:
            skirt = (top, left, needed_total_padding(ifm[1], stride[0], kernel_height) - top,
                     needed_total_padding(ifm[2], stride[1], kernel_width) - left)
    return Window(stride, skirt, kernel_height, upscale, kind in WHOLE_DEPTH_KINDS,
                  kind is OpKind.ELEMENTWISE_BINARY)


def depth_slices(op: Operation) -> tuple[int, ...]:
    """The OFM depth slices ``op`` runs in: its weight stream's, else the whole depth."""
    dma = weight_dma(op)
    stream = dma.attr(STREAM_ATTR) if dma is not None else None
    if isinstance(stream, StreamAttr):
        return tuple(stream.slices)
    return (0, shape4(op.results[0])[3])


def op_stripes(op: Operation) -> list[Stripe]:
    """``op``'s stripes in issue order: rows of its ``npu.stripe`` (the whole OFM without one),
    columns, then depth slices."""
    ofm = shape4(op.results[0])
    stripe = op.attr(STRIPE_ATTR)
    step_h, step_w = (stripe.shape[0], stripe.shape[1]) if isinstance(stripe, StripeAttr) else (ofm[1], ofm[2])
    if step_h <= 0 or step_w <= 0:
        raise PlanError(op, f"its npu.stripe {step_h}x{step_w} has no rows or columns")
    window = window_of(op)
    operands = {i: shape4(op.operands[i]) for i in feature_map_operands(op)}
    slices = depth_slices(op)
    found = []
    for y in range(0, ofm[1], step_h):
        for x in range(0, ofm[2], step_w):
            for index, (c0, c1) in enumerate(zip(slices, slices[1:])):
                box = Box((0, y, x, c0), (ofm[0], min(y + step_h, ofm[1]), min(x + step_w, ofm[2]), min(c1, ofm[3])))
                inputs, pads = {}, (0, 0)
                for i, shape in operands.items():
                    inputs[i], *padding = input_box(box, window, shape)
                    pads = (padding[0], padding[1])
                found.append(Stripe(op, box, inputs, pads[0], pads[1], index, y == 0, box.end[1] >= ofm[1]))
    return found


def _stored(value: Value) -> Value:
    while isinstance(value, OpResult) and is_view(value.op) and value.op.name != "npu.slice":
        value = value.op.operands[0]
    return value


def cascade_feeds(members: list[Operation]) -> dict[Operation, list[tuple[Operation, int]]]:
    """Per member but the first: each member writing a feature map it reads, with that operand's
    index, in operand order (a join may read two members: a branch point and the branch's end)."""
    feeds = {}
    for member in members[1:]:
        found = []
        for index in feature_map_operands(member):
            value = _stored(member.operands[index])
            producer = value.op if isinstance(value, OpResult) else None
            if producer in members:
                found.append((producer, index))
        if not found:
            raise PlanError(member, "a cascade member reads no feature map another member writes")
        feeds[member] = found
    return feeds


def cascade_stripes(members: list[Operation]) -> list[Stripe]:
    """The stripes of a cascade in issue order: the last member's, each preceded by the producer
    stripes (recursively, producer by producer in operand order, as the scheduled executor pulls
    them) that complete the input boxes it reads. Producer rows no stripe needs are never issued."""
    plans = {member: op_stripes(member) for member in members}
    feeds = cascade_feeds(members)
    issued: list[Stripe] = []
    position = {member: 0 for member in members}
    written: dict[Operation, Coord] = {member: (0, 0, 0, 0) for member in members}

    def issue(member: Operation) -> None:
        stripe = plans[member][position[member]]
        position[member] += 1
        for producer, index in feeds.get(member, []):
            while not stripe.inputs[index].within(written[producer]) and position[producer] < len(plans[producer]):
                issue(producer)
        issued.append(stripe)
        written[member] = stripe.ofm.end

    last = members[-1]
    while position[last] < len(plans[last]):
        issue(last)
    return issued


def cascades_of(run: list[Operation]) -> list[list[Operation]]:
    """``run`` split into lone ops and cascades (the members of one npu.cascade id, with the
    weight DMAs timed among them left to their readers)."""
    groups: list[list[Operation]] = []
    current: int | None = None
    members: list[Operation] = []
    for op in run:
        if is_weight_dma(op):
            groups.append([op])
            continue
        cascade = op.attr(CASCADE_ATTR)
        key = cascade.id if isinstance(cascade, CascadeAttr) else None
        if key is None or key != current:
            members = []
            groups.append(members)
        members.append(op)
        current = key
    return groups


__all__ = ["Box", "PlanError", "Stripe", "Window", "cascade_feeds", "cascade_stripes", "cascades_of",
           "depth_slices", "feature_map_operands", "input_box", "op_stripes", "shape4", "window_of"]
