"""The greedy cascade builder of Vela 5.2's legacy scheduler, on plain records (no IR), so its rules
can be tested on their own.

Design notes: docs/scheduler_design.md, section The cascade builder (cascade_builder)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping

from npu_opt.hardware.perf.op_desc import Kernel, Resampling
from npu_opt.hardware.perf.shape import Shape4
from npu_opt.passes.schedule import cascade_dag
from npu_opt.passes.schedule.cascade_dag import read_window
from npu_opt.passes.schedule.rolling_rows import Member, Window, live_rows, same_rows
from npu_opt.passes.schedule.stripes import brick_bytes, producer_stripe_height, rolling_buffer_shape, stripe_input


@dataclass
class SchedOp:
    """One op of an NPU run as the cascade builder sees it (index = position in the run)."""

    index: int
    name: str
    ifm: Shape4
    ofm: Shape4
    kernel: Kernel
    resampling: Resampling
    ifm_bytes: int
    """The whole IFM in its format (allocation-rounded)."""
    ofm_bytes: int
    ifm2_bytes: int = 0
    """The whole IFM2 of an op that reads a second feature map; 0 for ops without one and for
    binary elementwise ops but joins (without cascade joins their IFM2 is a constant or scalar
    when they can cascade)."""
    ifm_element_bytes: int = 1
    ofm_element_bytes: int = 1
    refusal: str | None = None
    """Why the op can never be in a cascade (a static rule), or None."""
    full_ifm: str | None = None
    """Why the op must read its whole IFM (graph input, linear format), or None."""
    full_ifm2_bytes: int = 0
    """The whole IFM2 (a second feature map) when the op must read it whole, as a graph input or
    stored linear (Vela's ``requires_full_ifm2``), else 0: it counts towards Size's minimum memory
    requirement."""
    full_ofm: str | None = None
    """Why the op must write its whole OFM (graph output, linear format, concat part, several
    consumers), or None."""
    reuses_ifm: bool = False
    """The OFM may overwrite the IFM in place (elementwise): it takes no memory of its own."""
    consumers: tuple[int, ...] = ()
    """Indices of the run's ops reading the OFM."""
    feeds_ifm: bool = True
    """The single consumer (if any) reads this OFM as its IFM (not as IFM2)."""
    ifm2_producer: int | None = None
    """For a join (cascade_ops.is_join, with cascade joins on): the index of the op in this run
    writing its whole IFM2, which must not be a member of the join's cascade unless it is a
    branch point whose ``branch_join`` is this op."""
    pad_top: int | None = None
    """The kernel's top padding in rows (None: not known; windows then assume the widest)."""
    branch_join: int | None = None
    """For a branch point (with cascade branches): the join that reads this OFM as its IFM2, the
    next op reading it as its IFM; None for any other op."""
    ifm_from: tuple[int, ...] = ()
    """Indices of the run's ops writing the IFM: one op, or the writer of each part of the
    concatenation the op reads (empty: a graph input, or written outside this run)."""
    concat_reader: int | None = None
    """With cascade concats, for an op writing a part of a concatenation that may roll: the op
    reading the concatenation (cascade_dag.py)."""
    fork: bool = False
    """With cascade concats: several ops read the OFM, each as its IFM, and may all be members of
    its cascade (cascade_dag.py)."""

    def cascadable(self, stripe: Shape4) -> str | None:
        """None if the op may be cascaded producing ``stripe``, else why not."""
        if self.refusal is not None:
            return self.refusal
        if stripe.height >= self.ofm.height:
            return f"its stripe height {stripe.height} is not below its OFM height {self.ofm.height}"
        return None

    def sram_estimate(self, stripe: Shape4, non_local: int = 0) -> int:
        """Fast-storage bytes the op needs producing ``stripe``: the IFM window (or the whole
        IFM), the OFM stripe (or the whole OFM, or nothing when it overwrites the IFM), a second
        feature map in full, plus what else is live (``non_local``)."""
        window = stripe_input(stripe, self.ifm, self.kernel, self.resampling)
        ifm = self.ifm_bytes if self.full_ifm else brick_bytes(window, self.ifm_element_bytes)
        if self.reuses_ifm:
            ofm = 0
        elif self.full_ofm:
            ofm = self.ofm_bytes
        else:
            ofm = brick_bytes(stripe, self.ofm_element_bytes)
        return ifm + self.ifm2_bytes + ofm + non_local

    def uncascaded_estimate(self, non_local: int = 0) -> int:
        """``sram_estimate`` of the op writing its whole OFM at once."""
        return self.sram_estimate(self.ofm, non_local)

    def window(self, stripe: Shape4) -> Shape4:
        """The IFM area one OFM ``stripe`` reads."""
        return stripe_input(stripe, self.ifm, self.kernel, self.resampling)


@dataclass
class Cascade:
    """A formed cascade: member indices (consecutive), each member's stripe, the rolling buffer
    each member but the last writes its OFM into (but concatenation parts), the rolling buffer
    of each concatenation of members (by the member reading it), and the fast-storage bytes it
    needs (rolling and weight buffers, without other live memory)."""

    members: list[int]
    stripes: dict[int, Shape4]
    rolling: dict[int, Shape4]
    mem_usage: int
    concats: dict[int, Shape4] = field(default_factory=dict)
    staged: dict[int, int] = field(default_factory=dict)
    """Per member, the bytes of the full-depth weight buffer stripe growth staged for it (set
    when a grown proposal replaced the MIN cascade, as Vela's sub-schedule does)."""

    @property
    def start(self) -> int:
        return self.members[0]

    @property
    def end(self) -> int:
        return self.members[-1]

    def rolling_bytes(self, ops: list[SchedOp]) -> int:
        return _buffer_bytes(ops, self.rolling, self.concats)


@dataclass
class Stop:
    """Why a chain ended at op ``index`` (or why the op is in no cascade)."""

    index: int
    reason: str


@dataclass
class BuildResult:
    cascades: list[Cascade] = field(default_factory=list)
    stops: list[Stop] = field(default_factory=list)


def _buffer_bytes(ops: list[SchedOp], own: Mapping[int, Shape4], concats: Mapping[int, Shape4]) -> int:
    """Bytes of members' rolling buffers (``own``) and of concatenations' (``concats``, by reader)."""
    return (sum(shape.elements() * ops[i].ofm_element_bytes for i, shape in own.items())
            + sum(shape.elements() * ops[i].ifm_element_bytes for i, shape in concats.items()))


def _rolling(ops: list[SchedOp], stripes: Mapping[int, Shape4], producer: int, consumer: int) -> tuple[Shape4, int]:
    shape = rolling_buffer_shape(stripes[producer], ops[consumer].window(stripes[consumer]))
    return shape, shape.elements() * ops[producer].ofm_element_bytes


def _branch_rolling(ops: list[SchedOp], stripes: Mapping[int, Shape4], chain: list[int], join: int) -> Shape4:
    """The rolling buffer of the branch point ``ops[join].ifm2_producer``, a member of ``chain``
    (ending before ``join``): the chain's buffer to the next op, made tall enough for the rows
    the join reads later (rolling_rows.live_rows, with windows over-estimated: the padding is
    not known here), plus one row, as Vela's chain buffers have one row more than they need."""
    branch = ops[join].ifm2_producer
    assert branch is not None
    span = chain[chain.index(branch):] + [join]
    members: list[Member] = []
    for position, index in enumerate(span):
        op = ops[index]
        inputs: tuple[tuple[int, Window], ...] = ()
        if position:
            inputs = ((position - 1, same_rows if index == join else read_window(op)),)
        if index == join:
            inputs += ((0, same_rows),)
        members.append(Member(op.ofm.height, stripes[index].height, inputs))
    chained = _rolling(ops, stripes, branch, branch + 1)[0]
    height = max(chained.height, min(live_rows(members)[0] + 1, ops[branch].ofm.height))
    return chained.with_height(height)


def _rolling_shapes(ops: list[SchedOp], stripes: Mapping[int, Shape4], chain: list[int]) -> dict[int, Shape4]:
    """The rolling buffer of every member of ``chain`` but the last: to the next member, or for
    a branch point whose join is in the chain, tall enough for the join too."""
    shapes = {p: _rolling(ops, stripes, p, c)[0] for p, c in zip(chain, chain[1:])}
    for index in chain:
        if ops[index].ifm2_producer in shapes and ops[ops[index].ifm2_producer].branch_join == index:
            shapes[ops[index].ifm2_producer] = _branch_rolling(ops, stripes, chain[:chain.index(index)], index)
    return shapes


def _next_in_chain(ops: list[SchedOp], scope: set[int], done: set[int], stripes: Mapping[int, Shape4],
                   producer: SchedOp) -> tuple[int | None, str]:
    """The op that may extend a chain ending at ``producer``, or None and why the chain ends."""
    if not producer.consumers:
        return None, "its OFM has no consumer in this NPU run"
    if len(producer.consumers) > 1 and producer.branch_join is None:
        return None, f"its OFM branches to {len(producer.consumers)} consumers"
    nxt = producer.consumers[0]
    consumer = ops[nxt]
    if nxt in done or nxt not in scope:
        return None, f"its consumer '{consumer.name}' is outside the ops being cascaded"
    why = consumer.cascadable(stripes[nxt])
    if why is not None:
        return None, f"its consumer '{consumer.name}' cannot be cascaded: {why}"
    if not producer.feeds_ifm or producer.ofm != consumer.ifm:
        return None, f"its consumer '{consumer.name}' reads it with another shape ({consumer.ifm} vs {producer.ofm})"
    if consumer.full_ifm:
        return None, f"its consumer '{consumer.name}' needs its whole IFM ({consumer.full_ifm})"
    if producer.full_ofm:
        return None, f"it must write its whole OFM ({producer.full_ofm})"
    if nxt != producer.index + 1:
        return None, f"its consumer '{consumer.name}' does not run right after it (cascades are not reordered)"
    return nxt, ""


def build_cascades(ops: list[SchedOp], scope: list[int], stripes: Mapping[int, Shape4], limit: int,
                   spilling: bool, non_local: Mapping[int, int] | None = None,
                   weight_buffers: Mapping[int, int] | None = None) -> BuildResult:
    """Form cascades among ``scope`` (indices into ``ops``, in schedule order) for the stripe
    proposal ``stripes`` under the fast-storage ``limit`` (see the module docstring)."""
    non_local = non_local or {}
    weight_buffers = weight_buffers or {}
    in_scope = set(scope)
    done: set[int] = set()
    result = BuildResult()
    peak = limit  # without spilling it rises to what must fit anyway
    dag = cascade_dag.is_dag(ops)  # (forks and concatenations: cascade_dag.py's rules)
    for index in scope:
        if index in done:
            continue
        first = ops[index]
        why = first.cascadable(stripes[index])
        if why is not None:
            done.add(index)
            result.stops.append(Stop(index, f"not cascadable: {why}"))
            if not spilling:
                peak = max(peak, first.uncascaded_estimate(non_local.get(index, 0)))
            continue
        chain = [index]
        best_chain = [index]
        head_ifm = 0 if spilling else first.ifm_bytes
        buffers = weight_buffers.get(index, 0)
        best = first.uncascaded_estimate(non_local.get(index, 0))
        stop = ""
        memory_stop = False  # the chain ended on a memory test (its reason names the op)
        shapes = best_shapes = None  # (with forks or concatenations: the buffers of the chain so far, and of the best)
        pending = {first.branch_join} if first.branch_join is not None else set()
        # (joins of branch points in the chain not reached yet: a cascade may end at a branch
        # point, which then writes its whole OFM, but not between one and its join)
        producer = first
        while True:
            if dag:
                nxt, stop = cascade_dag.next_member(ops, in_scope, done, stripes, chain)
            else:
                nxt, stop = _next_in_chain(ops, in_scope, done, stripes, producer)
            if nxt is None:
                break
            consumer = ops[nxt]
            whole = consumer.uncascaded_estimate(non_local.get(nxt, 0))
            if dag:  # every buffer of the graph so far, and the cascade may end only with no reader left out
                chain.append(nxt)
                shapes = cascade_dag.rolling_shapes(ops, stripes, chain)
                buffers = _buffer_bytes(ops, *shapes) + sum(weight_buffers.get(i, 0) for i in chain)
                closed = not cascade_dag.open_readers(ops, chain)
            else:
                branch = consumer.ifm2_producer
                extra = 0
                if branch in chain:
                    if ops[branch].branch_join != nxt:
                        stop = (f"its consumer '{consumer.name}' also reads the whole OFM of "
                                f"'{ops[branch].name}', a member of this cascade, as its second operand")
                        break
                    # the branch point's buffer grows to hold the rows this join reads later
                    grown = _branch_rolling(ops, stripes, chain, nxt)
                    extra = (grown.elements() - _rolling(ops, stripes, branch, branch + 1)[0].elements()) \
                        * ops[branch].ofm_element_bytes
                    pending.discard(nxt)
                _, rolling = _rolling(ops, stripes, producer.index, nxt)
                chain.append(nxt)
                # the chain may end here unless a branch point before the last member waits for its join
                closed = not pending
                if consumer.branch_join is not None:
                    pending.add(consumer.branch_join)
                buffers += rolling + extra + weight_buffers.get(nxt, 0)
            if spilling:
                if whole < peak:
                    stop = (f"'{consumer.name}' fits uncascaded ({whole} bytes, under the limit of {peak} bytes): "
                            "everything fits")
                    memory_stop = True
                    break
                if buffers > peak:
                    stop = (f"the cascade's buffers would take {buffers} bytes with '{consumer.name}', "
                            f"more than the limit of {peak} bytes")
                    memory_stop = True
                    break
                if closed:
                    best_chain, best, best_shapes = list(chain), buffers, shapes
            else:
                size = head_ifm + buffers + consumer.ofm_bytes + non_local.get(index, 0)
                if whole < peak and best < peak:
                    stop = (f"'{consumer.name}' ({whole} bytes) and the cascade so far ({best} bytes) fit under "
                            f"the limit of {peak} bytes: everything fits")
                    memory_stop = True
                    break
                if head_ifm + buffers > best:
                    stop = (f"adding '{consumer.name}' makes the IFM and buffers {head_ifm + buffers} bytes, "
                            f"more than the uncascaded footprint of {best} bytes")
                    memory_stop = True
                    break
                if closed and (size < best or size < whole):
                    best_chain, best, best_shapes = list(chain), size, shapes
            producer = consumer
        end = best_chain[-1]
        if len(chain) > len(best_chain) and not memory_stop:
            stop = (f"no longer chain up to '{ops[chain[-1]].name}' needs less fast storage than {best} bytes "
                    f"(the chain ends there: {stop})")
        result.stops.append(Stop(end, stop))
        if len(best_chain) > 1:
            own, concats = best_shapes if best_shapes is not None else (_rolling_shapes(ops, stripes, best_chain), {})
            result.cascades.append(Cascade(best_chain, {i: stripes[i] for i in best_chain}, own,
                                           best - non_local.get(index, 0), concats))
            done.update(best_chain)
            if not spilling:
                peak = max(peak, best)
        else:
            done.add(index)
            if not spilling:
                peak = max(peak, first.uncascaded_estimate(non_local.get(index, 0)))
    return result


def schedule_memory(ops: list[SchedOp], scope: list[int], cascades: list[Cascade],
                    non_local: Mapping[int, int] | None = None) -> int:
    """Peak fast-storage bytes of a proposal: a cascade member takes its cascade's buffers, any
    other op its whole IFM and OFM, each plus the memory live besides it."""
    non_local = non_local or {}
    member_of = {i: c for c in cascades for i in c.members}
    peak = 0
    for index in scope:
        cascade = member_of.get(index)
        own = cascade.mem_usage if cascade is not None else ops[index].ifm_bytes + ops[index].ofm_bytes
        peak = max(peak, own + non_local.get(index, 0))
    return peak


def min_stripes(ops: list[SchedOp]) -> dict[int, Shape4]:
    """The MIN proposal: every op's smallest stripe (stripes.min_stripe_height), full width and
    depth."""
    from npu_opt.passes.schedule.stripes import min_stripe_height

    stripes: dict[int, Shape4] = {}
    for position, op in enumerate(ops):
        after = ops[position + 1].kernel.stride_y if position + 1 < len(ops) else None
        stripes[op.index] = op.ofm.with_height(min_stripe_height(after, op.resampling))
    return stripes


def propose_stripes(ops: list[SchedOp], members: list[int], final_height: int) -> dict[int, Shape4]:
    """Stripes for a chain whose last op produces ``final_height`` rows per step: each op before
    produces what the next one's stripe reads (stripes.producer_stripe_height), in even heights
    when the chain holds a nearest-neighbour upscaler."""
    force_even = any(ops[i].resampling is Resampling.NEAREST for i in members)
    stripes: dict[int, Shape4] = {}
    stripe = ops[members[-1]].ofm.with_height(final_height)
    for index in reversed(members):
        op = ops[index]
        stripes[index] = stripe
        height = producer_stripe_height(stripe.height, op.kernel.stride_y, op.resampling.upscale, force_even)
        stripe = op.ifm.with_height(height)
    return stripes


@dataclass
class Growth:
    """The outcome of growing one MIN cascade's stripes: the cascades replacing it (None: keep
    the MIN cascade), the stops of the accepted build, and why the growth ended."""

    cascades: list[Cascade] | None
    stops: list[Stop]
    note: str


def grow_stripes(ops: list[SchedOp], cascade: Cascade, limit: int, spilling: bool,
                 non_local: Mapping[int, int] | None,
                 weight_buffers: Callable[[dict[int, Shape4]], dict[int, int]], growth: str = "vela",
                 cycles: Callable[[dict[int, Shape4]], float] | None = None) -> Growth:
    """Stripe growth for one MIN cascade (``growth``: schedule_attrs.GROWTHS). Vela's: final-stripe heights
    from the MIN height + 1 up to half the last OFM, in order; each proposal is re-cascaded and
    kept while its peak memory fits ``limit`` and it splits the chain into no more cascades than
    the first proposal did; the scan stops at the first proposal that fails, or after one needing
    no cascade at all. ``full`` tries every height below the last OFM's and keeps the tallest
    proposal that passes the same two tests, so it never keeps a shorter stripe than Vela's.
    ``cost`` tries the same heights and keeps, of the MIN stripes and every proposal that passes,
    the one whose members ``cycles`` estimates fastest (ties: the least memory, the shorter)."""
    members = cascade.members
    last = ops[members[-1]]
    first_height = cascade.stripes[members[-1]].height + 1
    best: BuildResult | None = None
    best_height = cascade.stripes[members[-1]].height
    ceiling = 0
    full = growth in ("full", "cost")
    by_cost = growth == "cost" and cycles is not None
    passing: list[tuple[float, int, int, BuildResult | None]] = []  # (cycles, peak, height, build)
    if by_cost:
        passing.append((cycles(dict(cascade.stripes)), schedule_memory(ops, members, [cascade], non_local),
                        best_height, None))
    note = f"no taller final stripe to try (the OFM is {last.ofm.height} rows)"
    propose = cascade_dag.propose_dag_stripes if cascade_dag.is_dag(ops) else propose_stripes
    for height in range(first_height, (last.ofm.height if full else last.ofm.height // 2 + 1)):
        stripes = propose(ops, members, height)
        built = build_cascades(ops, members, stripes, limit, spilling, non_local, weight_buffers(stripes))
        if height == first_height:
            ceiling = len(built.cascades)
        peak = schedule_memory(ops, members, built.cascades, non_local)
        if peak > limit:
            note = f"a final stripe of {height} rows needs {peak} bytes, more than the limit of {limit} bytes"
            if full:
                continue
            break
        if len(built.cascades) > ceiling:
            note = (f"a final stripe of {height} rows splits the chain into {len(built.cascades)} cascades, "
                    f"more than the {ceiling} of the first proposal")
            if full:
                continue
            break
        best, best_height = built, height
        if by_cost:
            stripes = {i: ops[i].ofm for i in members}
            for grown in built.cascades:
                stripes.update(grown.stripes)
            passing.append((cycles(stripes), peak, height, built))  # type: ignore[misc]
        if not built.cascades:
            note = f"a final stripe of {height} rows needs no cascade"
            break
        note = (f"every height below the OFM's {last.ofm.height} rows was tried" if full
                else f"the last proposal ({height} rows) is half the OFM height or more")
    if by_cost and len(passing) > 1:
        fastest, _, best_height, best = min(passing, key=lambda p: p[:3])
        note = f"the fastest of {len(passing)} stripe heights tried, {fastest:.0f} estimated cycles; {note}"
    if best is None:
        return Growth(None, [], f"kept the MIN stripes: {note}")
    return Growth(best.cascades, best.stops, f"final stripe {best_height} rows; stopped: {note}")


__all__ = ["BuildResult", "Cascade", "Growth", "SchedOp", "Stop", "build_cascades", "grow_stripes", "min_stripes",
           "propose_stripes", "schedule_memory"]
