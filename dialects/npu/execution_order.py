"""The execution order of a function's ops: Vela's order computed from the graph, the order the IR
records (``npu.time``, which npu-order alone writes) and the NPU runs between CPU ops.

Vela's legacy core does not run a network in file order. It packs passes by walking the graph
backwards from the subgraph outputs: an op is placed once every consumer of each of its results
has been placed (the graph itself counts as one consumer of each output), and after placing an op
the walk descends into its inputs in operand order (a value used twice is descended into twice in
a row). Execution order is that placement order reversed, so of two parallel branches the one
feeding the later operand of the join runs first. Two adjustments follow: CPU ops that read only
graph inputs move to the front (in file order), and a CPU op moves down past NPU ops that do not
read it when that brings it next to the following CPU op or to the end, so the NPU runs in fewer,
longer stretches. The writers of one concatenation that a CPU op separates are pulled together.

Passes read the recorded order through the ``ExecutionOrder`` analysis (cached per function until
a pass changes the IR) or the uncached ``execution_order`` and ``npu_runs``: the DMA slack chain
of npu-estimate follows it and restarts after each CPU op (Vela compiles each stretch of NPU ops
as its own command stream).
"""
from __future__ import annotations

from typing import Iterator, NamedTuple

from npu_opt.dialects.npu.ops_common import NpuOp
from npu_opt.dialects.npu.schedule_attrs import TIME_ATTR
from npu_opt.ir.attributes import IntegerAttr
from npu_opt.ir.core import Block, OpResult, Operation, Value
from npu_opt.ir.analysis import Analysis, AnalysisManager
from npu_opt.ir.pass_manager import PassContext
from npu_opt.ir.traits import ConstantLike, IsTerminator, MemoryOnly, ReturnLike

def graph_blocks(module: Operation) -> Iterator[Block]:
    """Blocks that hold a dataflow graph: those ending in a return-like terminator (function bodies)."""
    for op in module.walk():
        for region in op.regions:
            for block in region.blocks:
                if block.last is not None and block.last.has_trait(ReturnLike):
                    yield block


def is_view(op: Operation) -> bool:
    """A memory-only view (reshape, slice, concat): part of the graph, but nothing executes."""
    return op.has_trait(MemoryOnly)


_NOT_EXECUTED = frozenset({ConstantLike, IsTerminator, MemoryOnly})


def is_executed(op: Operation) -> bool:
    """An op that runs on the NPU or the CPU (not a constant, view or terminator)."""
    return not op.has_any_trait(_NOT_EXECUTED)


def on_cpu(op: Operation) -> bool:
    """An executed op the NPU does not run."""
    return is_executed(op) and not isinstance(op, NpuOp)


def _producer(value: Value) -> Operation | None:
    return value.op if isinstance(value, OpResult) else None


def _descent_order(op: Operation) -> list[Value]:
    """The operands the backward walk descends into after placing ``op``, one entry per use:
    distinct operands in first-use order, repeats adjacent. A concatenation's inputs are visited
    last to first (in Vela each input has its own writer, and the writers are visited in reverse)."""
    operands = list(op.operands)
    if is_view(op) and len(operands) > 1:
        operands.reverse()
    counts: dict[Value, int] = {}
    for value in operands:
        counts[value] = counts.get(value, 0) + 1
    return [value for value, count in counts.items() for _ in range(count)]


def _backward_placement(block: Block) -> list[Operation]:
    """Ops of ``block`` in Vela's placement order (outputs first), as an explicit-stack walk."""
    terminator = block.last
    assert terminator is not None
    pending_uses: dict[Value, int] = {}
    pending_results: dict[Operation, int] = {}
    placed: list[Operation] = []

    def release(value: Value) -> Operation | None:
        """One consumer of ``value`` is placed; the producer, if that made it ready."""
        producer = _producer(value)
        if producer is None or producer.parent is not block or producer.has_trait(ConstantLike):
            return None
        left = pending_uses.get(value, len(value.uses)) - 1
        pending_uses[value] = left
        if left > 0:
            return None
        waiting = pending_results.get(producer)
        if waiting is None:
            waiting = sum(1 for r in producer.results if r.uses)
        waiting -= 1
        pending_results[producer] = waiting
        return producer if waiting == 0 else None

    stack: list[Iterator[Value]] = [iter(_descent_order(terminator))]
    while stack:
        value = next(stack[-1], None)
        if value is None:
            stack.pop()
            continue
        ready = release(value)
        if ready is not None:
            placed.append(ready)
            stack.append(iter(_descent_order(ready)))
    return placed


def read_producers(op: Operation) -> Iterator[Operation]:
    """The ops (not views) whose results ``op`` reads, directly or through memory-only views."""
    work = list(op.operands)
    while work:
        producer = _producer(work.pop())
        if producer is None:
            continue
        if is_view(producer):
            work.extend(producer.operands)
        else:
            yield producer


def _reads(op: Operation, source: Operation) -> bool:
    """True if ``op`` reads a result of ``source`` (not a view), directly or through views."""
    return any(producer is source for producer in read_producers(op))


def _hoist_input_only_cpu_ops(order: list[Operation],
                              position: dict[Operation, int]) -> tuple[list[Operation], list[Operation]]:
    """(CPU ops whose every operand is a graph input, in file order; the other ops): the first
    run before everything else."""
    def reads_only_inputs(op: Operation) -> bool:
        return on_cpu(op) and all(_producer(v) is None for v in op.operands)
    top = sorted((op for op in order if reads_only_inputs(op)), key=lambda op: position[op])
    return top, [op for op in order if not reads_only_inputs(op)]


def concat_user(value: Value) -> Operation | None:
    """The concatenation (a view of several operands) ``value`` is written into, if any."""
    return next((user for user in value.users() if is_view(user) and len(user.operands) > 1), None)


def storage_home(value: Value) -> Value:
    """The value owning ``value``'s storage: through reshape/slice views to their source, and
    from a concatenation part to the concatenation's result."""
    for _ in range(10_000):  # views form no cycles; the bound only guards against malformed IR
        concat = concat_user(value)
        if concat is not None:
            value = concat.results[0]
            continue
        producer = value.op if isinstance(value, OpResult) else None
        if producer is not None and is_view(producer) and len(producer.operands) == 1:
            value = producer.operands[0]
            continue
        break
    return value


def _concat_of(op: Operation) -> Operation | None:
    """The concatenation ``op``'s result is written into, if ``op`` is an NPU concat writer."""
    if not isinstance(op, NpuOp) or is_view(op) or len(op.results) != 1:
        return None
    return concat_user(op.results[0])


def _regroup_concat_writers(order: list[Operation]) -> None:
    """A concat writer followed, after a CPU op, by another writer of the same concat moves to
    just before that writer (so a concat is written within one command stream)."""
    writers = [(op, concat) for op in reversed(order) if (concat := _concat_of(op)) is not None]
    for writer, concat in writers:
        index = order.index(writer)
        crossed_cpu = False
        for later in order[index + 1:]:
            crossed_cpu = crossed_cpu or on_cpu(later)
            if crossed_cpu and _concat_of(later) is concat:
                order.remove(writer)
                order.insert(order.index(later), writer)
                break


def _sink_cpu_ops(order: list[Operation]) -> None:
    """Each CPU op (bottom-up) moves down past NPU ops that do not read it if it reaches the next
    CPU op (it goes just before it) or the end; an op reading its results leaves it in place."""
    for cpu in [op for op in reversed(order) if on_cpu(op)]:
        index = order.index(cpu)
        for later in order[index + 1:]:
            if on_cpu(later):
                order.remove(cpu)
                order.insert(order.index(later), cpu)
                break
            if _reads(later, cpu):
                break
            if later is order[-1]:
                order.remove(cpu)
                order.append(cpu)
                break


def execution_order_of(block: Block) -> list[Operation]:
    """The executed ops of ``block`` in the order Vela runs them (computed, not read from IR).
    Ops no output depends on run last, in file order."""
    position = {op: index for index, op in enumerate(block.ops)}
    order = [op for op in reversed(_backward_placement(block)) if is_executed(op)]
    seen = {op for op in order}
    order += [op for op in block.ops if is_executed(op) and op not in seen]
    top, rest = _hoist_input_only_cpu_ops(order, position)
    _regroup_concat_writers(rest)
    _sink_cpu_ops(rest)
    order = top + rest
    if not respects_dataflow(order):  # e.g. values used inside nested regions: keep file order
        return [op for op in block.ops if is_executed(op)]
    return order


def respects_dataflow(order: list[Operation]) -> bool:
    """True if every op comes after the executed ops whose results it reads (through views)."""
    index = {op: i for i, op in enumerate(order)}
    return all(index.get(producer, -1) <= i for i, op in enumerate(order) for producer in read_producers(op))


def by_time(ops: list[Operation], remedy: str = "run npu-order after the last pass that adds ops") -> list[Operation]:
    """``ops`` in the order their ``npu.time`` records, or as given when none carries one. Raises
    ValueError naming an op without an integer time when others have one (``remedy`` says what to run)."""
    times = [op.attr(TIME_ATTR) for op in ops]
    if all(t is None for t in times):
        return ops
    for op, time in zip(ops, times):
        if not isinstance(time, IntegerAttr):
            raise ValueError(f"'{op.name}' has no integer {TIME_ATTR} while other ops of its function do; {remedy}")
    return [op for _, op in sorted(zip([t.value for t in times], ops), key=lambda pair: pair[0])]  # type: ignore[union-attr]


def execution_order(block: Block) -> list[Operation]:
    """The executed ops of ``block`` in schedule order: by ``npu.time`` when npu-order has run,
    else in IR order. Raises ValueError if only some executed ops carry a time."""
    return by_time([op for op in block.ops if is_executed(op)])


class BlockOrder(NamedTuple):
    """One function body's executed ops in schedule order and its NPU runs; ``error`` instead
    when only some of its ops carry ``npu.time``."""

    order: list[Operation]
    runs: list[list[Operation]]
    error: str | None


class ExecutionOrder(Analysis):
    """The recorded execution order (``execution_order``) and NPU runs (``npu_runs``) of the
    function bodies an op holds, computed once per body until a pass changes the IR."""

    def __init__(self, op: Operation, manager: AnalysisManager) -> None:
        super().__init__(op, manager)
        self._blocks: dict[Block, BlockOrder] = {}

    def of_block(self, block: Block) -> BlockOrder:
        """The order and runs of ``block`` (a body of the anchor op)."""
        found = self._blocks.get(block)
        if found is None:
            try:
                order = execution_order(block)
                found = BlockOrder(order, _runs_of(order), None)
            except ValueError as err:
                found = BlockOrder([], [], str(err))
            self._blocks[block] = found
        return found

    @staticmethod
    def of(block: Block, manager: AnalysisManager) -> BlockOrder:
        """The recorded order of the function body ``block``, from ``manager``'s cache."""
        anchor = block.parent_op()
        assert anchor is not None, "a graph block belongs to a function"
        return manager.get(ExecutionOrder, anchor).of_block(block)


def runs_by_function(module: Operation, ctx: PassContext) -> Iterator[tuple[Block, list[list[Operation]]]]:
    """Each function body of ``module`` with its NPU runs (``npu_runs``); a body whose ops are
    only partly numbered is reported as an error at its function and skipped."""
    for block in list(graph_blocks(module)):
        found = ExecutionOrder.of(block, ctx.analyses)
        if found.error is not None:
            ctx.error(found.error, block.parent_op())
            continue
        yield block, found.runs


def npu_runs(block: Block) -> list[list[Operation]]:
    """The stretches of NPU ops between CPU ops, in schedule order (Vela's NPU subgraphs)."""
    return _runs_of(execution_order(block))


def _runs_of(order: list[Operation]) -> list[list[Operation]]:
    """The NPU runs of ``order`` (a function's executed ops in schedule order)."""
    runs: list[list[Operation]] = [[]]
    for op in order:
        if on_cpu(op):
            if runs[-1]:
                runs.append([])
        else:
            runs[-1].append(op)
    return [run for run in runs if run]


def stream_outputs(module: Operation) -> set[Value]:
    """The values an NPU op produces and an NPU op of a later stretch reads: outputs of an NPU
    command stream, which Vela keeps linear (NHWC) in the arena like graph outputs."""
    crossing: set[Value] = set()
    for block in graph_blocks(module):
        stretch: dict[Operation, int] = {}
        for index, run in enumerate(npu_runs(block)):
            for op in run:
                stretch[op] = index
        for op in block.ops:
            if op not in stretch:
                continue
            for value in op.results:
                for user in readers_through_views(value):
                    if user in stretch and stretch[user] != stretch[op]:
                        crossing.add(value)
    return crossing


def readers_through_views(value: Value) -> list[Operation]:
    """The ops (not views) reading ``value``, directly or through memory-only views; a terminator
    returning it counts as a reader."""
    found: list[Operation] = []
    work = [value]
    while work:
        for user in work.pop().users():
            if is_view(user):
                work.extend(user.results)
            else:
                found.append(user)
    return found


__all__ = ["BlockOrder", "ExecutionOrder", "by_time", "concat_user", "execution_order", "execution_order_of",
           "graph_blocks", "is_executed", "is_view", "npu_runs", "on_cpu", "read_producers", "readers_through_views",
           "respects_dataflow", "runs_by_function", "storage_home", "stream_outputs"]
