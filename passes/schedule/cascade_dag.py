"""Cascades that are not chains: concatenations rolling with their parts, and forks.

Design notes: docs/scheduler_design.md, section Cascades that are not chains (cascade_dag)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

from npu_opt.hardware.perf.op_desc import Resampling
from npu_opt.hardware.perf.shape import Shape4, round_up
from npu_opt.passes.schedule.rolling_rows import Member, Window, live_rows, same_rows, window
from npu_opt.passes.schedule.stripes import BRICK_DEPTH, producer_stripe_height, rolling_buffer_shape

if TYPE_CHECKING:
    from npu_opt.passes.schedule.cascade_builder import SchedOp


def read_window(op: "SchedOp") -> Window:
    """The IFM rows OFM rows of ``op`` read, from its record: the exact window when its top
    padding is known, else the widest (padding anywhere from 0 to the kernel's extent less one)."""
    k = op.kernel
    extent = k.area_height() + (1 if op.resampling is Resampling.NEAREST else 0)
    top = (0, extent - 1) if op.pad_top is None else (op.pad_top, op.pad_top)
    return window(k.stride_y, extent, op.ifm.height, op.resampling.upscale, top)


def is_dag(ops: list["SchedOp"]) -> bool:
    """Whether some record lets a cascade grow beyond a chain (a fork or a concatenation part)."""
    return any(op.fork or op.concat_reader is not None for op in ops)


def ifm_readers(ops: list["SchedOp"], members: list[int], index: int) -> list[int]:
    """The members reading ``index``'s OFM as (part of) their IFM."""
    return [m for m in members if index in ops[m].ifm_from]


def next_member(ops: list["SchedOp"], scope: set[int], done: set[int], stripes: Mapping[int, Shape4],
                chain: list[int]) -> tuple[int | None, str]:
    """The op that may join ``chain`` next (the op after its last member), or None and why not."""
    last = ops[chain[-1]]
    if last.full_ofm:  # (a member before the last writes into the cascade only)
        return None, f"it must write its whole OFM ({last.full_ofm})"
    if not last.consumers:
        return None, "its OFM has no consumer in this NPU run"
    nxt = last.index + 1
    if nxt >= len(ops) or nxt in done or nxt not in scope:
        return None, "the op after it is outside the ops being cascaded"
    consumer = ops[nxt]
    why = consumer.cascadable(stripes[nxt])
    if why is not None:
        return None, f"the op after it, '{consumer.name}', cannot be cascaded: {why}"
    members = set(chain)
    sources = consumer.ifm_from
    if not sources or not set(sources) <= members:
        return None, f"the op after it, '{consumer.name}', does not read the cascade's OFMs as its IFM"
    for source in sources:
        if ops[source].full_ofm:
            return None, f"'{ops[source].name}' must write its whole OFM ({ops[source].full_ofm})"
    if len(sources) == 1 and ops[sources[0]].ofm != consumer.ifm:
        return None, (f"'{consumer.name}' reads '{ops[sources[0]].name}' with another shape "
                      f"({consumer.ifm} vs {ops[sources[0]].ofm})")
    if consumer.full_ifm:
        return None, f"'{consumer.name}' needs its whole IFM ({consumer.full_ifm})"
    branch = consumer.ifm2_producer
    if branch in members and ops[branch].branch_join != nxt:
        return None, (f"'{consumer.name}' also reads the whole OFM of '{ops[branch].name}', a member of this "
                      "cascade, as its second operand")
    return nxt, ""


def open_readers(ops: list["SchedOp"], chain: list[int]) -> set[int]:
    """Readers of the OFMs of ``chain``'s members but the last that are not members yet: the
    cascade may end only when there are none."""
    members = set(chain)
    return {c for m in chain[:-1] for c in ops[m].consumers if c not in members}


def _members(ops: list["SchedOp"], stripes: Mapping[int, Shape4], chain: list[int]) -> list[Member]:
    """``chain`` as rolling_rows members: each reads its IFM writers and a branch point's join
    its IFM2 writer, where those are members."""
    position = {index: p for p, index in enumerate(chain)}
    members = []
    for index in chain:
        op = ops[index]
        inputs: list[tuple[int, Window]] = [(position[s], read_window(op)) for s in op.ifm_from if s in position]
        if op.ifm2_producer in position and ops[op.ifm2_producer].branch_join == index:
            inputs.append((position[op.ifm2_producer], same_rows))
        members.append(Member(op.ofm.height, stripes[index].height, tuple(inputs)))
    return members


def rolling_shapes(ops: list["SchedOp"], stripes: Mapping[int, Shape4],
                   chain: list[int]) -> tuple[dict[int, Shape4], dict[int, Shape4]]:
    """The rolling buffers of a cascade that may hold forks and concatenations: per member but
    the last and not a concatenation part, the buffer its OFM rolls in; per member reading a
    concatenation of members, the concatenation's buffer (its full width and depth)."""
    members = set(chain)
    shared = any(op.branch_join in members or op.concat_reader in members
                 or len(ifm_readers(ops, chain, op.index)) > 1 for op in (ops[i] for i in chain))
    live = live_rows(_members(ops, stripes, chain), every_sink=True) if shared else [0] * len(chain)
    position = {index: p for p, index in enumerate(chain)}
    own: dict[int, Shape4] = {}
    concats: dict[int, Shape4] = {}
    for index in chain[:-1]:
        op = ops[index]
        readers = ifm_readers(ops, chain, index)
        if not readers or op.concat_reader is not None:
            continue
        shapes = [rolling_buffer_shape(stripes[index], ops[r].window(stripes[r])) for r in readers]
        height = max(s.height for s in shapes)
        if len(readers) > 1 or op.branch_join in members:
            height = max(height, min(live[position[index]] + 1, op.ofm.height))
        own[index] = Shape4(1, height, max(s.width for s in shapes), shapes[0].depth)
    for reader in chain:
        parts = [p for p in ops[reader].ifm_from if ops[p].concat_reader == reader]
        if len(parts) < 2 or not set(parts) <= members:
            continue
        op = ops[reader]
        window_rows = op.window(stripes[reader])
        height = max(rolling_buffer_shape(stripes[p], window_rows).height for p in parts)
        height = max(height, max(live[position[p]] for p in parts) + 1)
        concats[reader] = Shape4(1, min(height, op.ifm.height), max(op.ifm.width, window_rows.width),
                                 round_up(op.ifm.depth, BRICK_DEPTH))
    return own, concats


def propose_dag_stripes(ops: list["SchedOp"], members: list[int], final_height: int) -> dict[int, Shape4]:
    """Stripes for a cascade whose last member produces ``final_height`` rows per step: each
    member before produces per step what its tallest-reading member's stripe reads (for a chain,
    what cascade_builder.propose_stripes gives)."""
    force_even = any(ops[i].resampling is Resampling.NEAREST for i in members)
    stripes: dict[int, Shape4] = {members[-1]: ops[members[-1]].ofm.with_height(final_height)}
    for position in range(len(members) - 2, -1, -1):
        index = members[position]
        readers = ifm_readers(ops, members, index) or [members[position + 1]]
        height = max(producer_stripe_height(stripes[r].height, ops[r].kernel.stride_y, ops[r].resampling.upscale,
                                            force_even) for r in readers)
        stripes[index] = ops[index].ofm.with_height(height)
    return stripes


__all__ = ["is_dag", "ifm_readers", "next_member", "open_readers", "propose_dag_stripes", "read_window",
           "rolling_shapes"]
