"""``npu-outline``: each NPU run of a lowered module becomes one ``tfl.ethos_u`` op holding the
run's ``ethosu.program``, as TFLite Micro's Ethos-U kernel runs it; CPU ops stay tfl ops and the
module becomes a deployable model (docs/deployable_tflite.md, From a schedule to ethos-u operators)."""
from __future__ import annotations

from dataclasses import dataclass

from npu_opt.dialects.ethosu.ops_stream import ProgramOp
from npu_opt.dialects.npu.execution_order import ExecutionOrder, graph_blocks, on_cpu
from npu_opt.dialects.npu.schedule_attrs import USAGE_ATTR, UsageAttr
from npu_opt.dialects.npu.target_attr import TARGET_ATTR, target_of
from npu_opt.dialects.tfl.ops_ethosu import ARENA_OFFSETS, EthosUOp
from npu_opt.hardware.commands.driver_words import config_word, id_word
from npu_opt.hardware.target import Target
from npu_opt.ir.attributes import (
    ArrayAttr, DenseResourceAttr, DictionaryAttr, IntegerAttr, ResourceBlob, StringAttr,
)
from npu_opt.ir.core import Block, Operation, Region, Value
from npu_opt.ir.location import FusedLoc, Location
from npu_opt.ir.pass_manager import PassContext
from npu_opt.ir.pass_registry import Pass, option, register_pass
from npu_opt.ir.traits import ConstantLike
from npu_opt.ir.types import I64, IntegerType, RankedTensorType
from npu_opt.passes.codegen.read_only import read_only_data
from npu_opt.passes.codegen.run_boundary import OutlineError, RunBoundary, arena_offset, run_boundaries
from npu_opt.passes.codegen.weight_bytes import LoweringError, WeightBuffers

READ_ONLY_KEY = "ethos_u_read_only"
"""The resource key of the read-only data every tfl.ethos_u op of the module shares."""
MEMORY_ROLES = ("command_stream", "flash", "scratch", "scratch_fast")
"""Suffixes of the four memory tensors' names, as Vela names them (``<function>_split_<n>_...``)."""
DESCRIPTION = "Compiled by npu-opt"
"""The model description of a compiled model."""
VELA_VERSION = "5.2.0"
"""The Vela release npu-opt's output is compared with (its description and metadata, if asked)."""
KEPT_MODULE_ATTRS = (TARGET_ATTR, USAGE_ATTR)
"""Module attributes of the schedule a compiled module keeps: the target (the raw export reads it)
and the memory each area's allocation spans (the scratch areas the operators declare)."""
_U8 = IntegerType(8, "unsigned")


@dataclass(eq=False)
class _Plan:
    """One function's outlining, decided before the IR changes: its executed ops in order, each
    run's boundary and program, and the arena offset of every feature map the CPU sees."""

    func: Operation
    block: Block
    order: list[Operation]
    runs: list[tuple[RunBoundary, ProgramOp]]
    offsets: dict[Value, int]


def _offsets(values: list[int]) -> ArrayAttr:
    return ArrayAttr([IntegerAttr(v, I64) for v in values])


def _location(values: list[Value]) -> Location:
    """The location of the output's op (a NameLoc holds its tensor name), or a FusedLoc of one per
    output: the exporter names the operator's output tensors from it."""
    locations = tuple(v.op.location for v in values)  # type: ignore[union-attr]
    return locations[0] if len(locations) == 1 else FusedLoc(locations)


def _scratch_sizes(module: Operation, target: Target) -> tuple[int, int]:
    """(scratch, fast scratch) bytes: the arena's and the fast storage's spans in ``npu.usage``."""
    usage = module.attr(USAGE_ATTR)
    if not isinstance(usage, UsageAttr):
        raise OutlineError(module, "the module has no npu.usage (run npu-allocate first)")
    return usage.used(target.feature_map_storage_area), usage.used(target.fast_storage_area)


def _plans(module: Operation, target: Target, ctx: PassContext) -> list[_Plan]:
    """The outlining of every function; OutlineError (or LoweringError) for what cannot be outlined."""
    programs = [op for op in module.regions[0].blocks[0].ops if isinstance(op, ProgramOp)]
    plans = []
    for block in list(graph_blocks(module)):
        func = block.parent_op()
        assert func is not None
        found = ExecutionOrder.of(block, ctx.analyses)
        if found.error is not None:
            raise OutlineError(func, found.error)
        taken, programs = programs[:len(found.runs)], programs[len(found.runs):]
        if len(taken) < len(found.runs):
            raise OutlineError(func, f"{len(found.runs)} NPU runs but only {len(taken)} ethosu.program ops "
                                     "left (run npu-lower-commands first)")
        boundaries = run_boundaries(block, found.runs)
        shared = [v for run in boundaries for v in run.inputs + run.outputs]
        shared += [r for op in found.order if on_cpu(op) for r in op.results] + list(block.args)
        plans.append(_Plan(func, block, found.order, list(zip(boundaries, taken)),
                           {v: arena_offset(v, func, target) for v in shared}))
    if programs:
        raise OutlineError(programs[0], f"{len(programs)} ethosu.program op(s) more than the NPU runs")
    return plans


@register_pass("npu-outline", statistics={
    "ethos-u": "tfl.ethos_u ops written (one per NPU run)",
    "cpu-ops": "CPU ops kept as tfl ops",
    "inputs": "feature maps read by the tfl.ethos_u ops",
    "outputs": "feature maps written by the tfl.ethos_u ops",
})
class Outline(Pass):
    """Replace each NPU run by a ``tfl.ethos_u`` op holding its ``ethosu.program``: a deployable model.

    The programs are npu-lower-commands', one per run in run order, at the module's end. An op's
    operands are the feature maps its run reads from outside (first read first), its results those
    the run writes that are read outside; its attributes the module's read-only data, the scratch
    and fast-scratch sizes (npu.usage of the arena and of the fast storage), the driver payload's
    CONFIG and ID words and the memory tensors' names (Vela's). Every feature map the CPU sees
    gets its arena offset in ``tfl.arena_offsets``; the ops are put in execution order and the
    schedule's attributes leave the module. Anything a tfl.ethos_u op cannot express is an error
    at the op, and nothing changes."""

    vela_metadata: bool = option(False, "describe the model as Vela 5.2 does (its description and vela_version "
                                        "metadata entry), for tools that look for them; else as npu-opt's")

    def run(self, module: Operation, ctx: PassContext) -> None:
        target = target_of(module)
        try:
            plans = _plans(module, target, ctx)
            has_runs = any(plan.runs for plan in plans)
            read_only = read_only_data(module, target, ctx.analyses.get(WeightBuffers, module)) if has_runs else b""
            scratch = _scratch_sizes(module, target) if has_runs else (0, 0)
        except LoweringError as err:
            ctx.error(str(err), err.op)
            return
        blob = DenseResourceAttr(RankedTensorType((len(read_only),), _U8), READ_ONLY_KEY, ResourceBlob(read_only))
        attrs = {"read_only": blob, "scratch_size": scratch[0], "fast_scratch_size": scratch[1],
                 "scratch_offset": 0, "fast_scratch_offset": 0,
                 "npu_config": config_word(target.accelerator), "npu_id": id_word()}
        for plan in plans:
            self._outline(plan, attrs, ctx)
        self._module_attrs(module, ctx)
        if not has_runs:
            ctx.remark("no NPU run to outline: every op runs on the CPU", module)
            return
        ctx.remark(f"{ctx.stats['ethos-u']} tfl.ethos_u op(s) written, {ctx.stats['cpu-ops']} CPU op(s) kept, "
                   f"{len(read_only)} bytes of read-only data, scratch {scratch[0]} and fast scratch "
                   f"{scratch[1]} bytes", module)

    def _outline(self, plan: _Plan, attrs: dict, ctx: PassContext) -> None:
        """Build the function's tfl.ethos_u ops and move its CPU ops, in execution order, to its
        end; erase what the runs took in and the constants left unused."""
        rewriter = ctx.rewriter
        end = plan.block.last
        assert end is not None
        name = plan.func.attr("sym_name").value  # type: ignore[union-attr]
        first = {run.ops[0]: (number, run, program) for number, (run, program) in enumerate(plan.runs, 1)}
        memory = [f"{name}_split_1_{role}" for role in MEMORY_ROLES[1:]]  # Vela's: the first run's
        replaced: dict[Value, Value] = {}
        for op in plan.order:
            if on_cpu(op):
                rewriter.move_before(op, end)
                self._clean(op, _offsets([plan.offsets[r] for r in op.results]), ctx)
                ctx.stat("cpu-ops")
            if op not in first:
                continue
            number, run, program = first[op]
            names = [f"{name}_split_{number}_{MEMORY_ROLES[0]}", *memory]
            region = Block()
            ethos_u = EthosUOp.build(
                [replaced.get(v, v) for v in run.inputs], [v.type for v in run.outputs],
                attrs={**attrs, "tensor_names": ArrayAttr([StringAttr(n) for n in names])},
                regions=[Region([region])], location=_location(run.outputs),
                discardable={ARENA_OFFSETS: _offsets([plan.offsets[v] for v in run.outputs])})
            rewriter.insert_before(ethos_u, end)
            rewriter.move_to_end(program, region)
            for old, new in zip(run.outputs, ethos_u.results):
                replaced[old] = new
                for user, index in list(old.uses):
                    if user not in run.taken:
                        rewriter.set_operand(user, index, new)
            ctx.stat("ethos-u")
            ctx.stat("inputs", len(run.inputs))
            ctx.stat("outputs", len(run.outputs))
        taken = set().union(*(run.taken for run, _ in plan.runs))
        for op in [o for o in plan.block.ops_reversed() if o in taken]:
            rewriter.erase_op(op)
        for op in [o for o in plan.block.ops_reversed() if o.has_trait(ConstantLike)]:
            if not any(r.uses for r in op.results):
                rewriter.erase_op(op)
        self._clean(plan.func, _offsets([plan.offsets[a] for a in plan.block.args]), ctx)

    @staticmethod
    def _clean(op: Operation, offsets: ArrayAttr, ctx: PassContext) -> None:
        """Drop the schedule's attributes (``npu.*``) from ``op`` and give it its arena offsets."""
        for name in [n for n in op.attributes if n.startswith("npu.")]:
            ctx.rewriter.remove_attr(op, name)
        ctx.rewriter.set_attr(op, ARENA_OFFSETS, offsets)

    def _module_attrs(self, module: Operation, ctx: PassContext) -> None:
        """The schedule's module attributes go (but the target); the description comes, npu-opt's
        or (``vela-metadata``) Vela's with its version entry after the model's own metadata."""
        for name in [n for n in module.attributes if n.startswith("npu.") and n not in KEPT_MODULE_ATTRS]:
            ctx.rewriter.remove_attr(module, name)
        description = f"Vela {VELA_VERSION} Optimised" if self.vela_metadata else DESCRIPTION
        ctx.rewriter.set_attr(module, "tfl.description", StringAttr(description))
        if self.vela_metadata:
            old = module.attr("tfl.metadata")
            entries = dict(old.entries) if isinstance(old, DictionaryAttr) else {}
            entries["vela_version"] = StringAttr(VELA_VERSION)
            ctx.rewriter.set_attr(module, "tfl.metadata", DictionaryAttr(list(entries.items())))


__all__ = ["Outline", "OutlineError"]
