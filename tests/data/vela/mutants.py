"""Check that tests/unit/passes/test_vela_reference.py notices a drift in the cost model's constants.

    python tests/data/vela/mutants.py            # every mutant
    python tests/data/vela/mutants.py bias-fetch # one

Each mutant changes one constant of the cost model *in memory* (an import hook compiles the
module from its source with one text replaced; no file is written), then runs the reference test
in a child process and counts the model x config cases that fail. A mutant no case notices is a
gap in the reports. A mutant whose text is no longer in the source is reported as stale (the
code moved on: update the mutant).
"""
from __future__ import annotations

import importlib.abc
import importlib.machinery
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from types import CodeType

ROOT = Path(__file__).resolve().parents[3]
TEST = ROOT / "tests" / "unit" / "test_vela_reference.py"


@dataclass(frozen=True)
class Mutant:
    """One constant changed in ``module``: the first ``(old, new)`` pair whose ``old`` occurs exactly
    once in the source is applied (alternatives follow the code through rewrites)."""

    label: str
    module: str
    edits: tuple[tuple[str, str], ...]

    def edit(self, source: str) -> tuple[str, str] | None:
        """The applicable ``(old, new)`` pair for ``source``, or None if the mutant is stale."""
        return next(((old, new) for old, new in self.edits if source.count(old) == 1), None)


PERF = "npu_opt.dialects.npu.perf."
MUTANTS: tuple[Mutant, ...] = (
    Mutant("bias-fetch", PERF + "compute", (
        ("10 * ofm_block.depth * perf.read_latency", "12 * ofm_block.depth * perf.read_latency"),
        ("10 * ofm_block.depth * latency / 256", "12 * ofm_block.depth * latency / 256"))),
    # Equal costs: the first candidate wins, never a later small block with a better IFM coverage.
    Mutant("block-config tie-break", PERF + "block_config", (
        ("later_small = ties[1:][small.ravel()[ties[1:]]]", "later_small = ties[1:][:0]"),)),
    Mutant("u55-32 accumulator bubble", PERF + "compute", (
        ("delay = 7 if acc40 else 3", "delay = 6 if acc40 else 3"),
        ('("ethos-u55-32", True): 7', '("ethos-u55-32", True): 6'))),
    Mutant("u55-32 thin-block stall", PERF + "compute", (
        ("bubbles += delay * nz", "bubbles += 0 * nz"),
        ("thin_block_stalls = acc40 and accel.name == _THIN_BLOCK_STALLS", "thin_block_stalls = False"))),
    Mutant("16-bit depthwise factor", PERF + "compute", (
        ("(2 if desc.ifm.bits == 16 else 1)", "1"),
        ("if desc.block_type is BlockType.DEPTHWISE and wide:\n        plane *= 2",
         "if desc.block_type is BlockType.DEPTHWISE and wide:\n        plane *= 1"))),
    # The IFM block-depth cap of depth-first ops on 32-bit data (softmax's ReduceSum) taken as 16.
    Mutant("32-bit IFM block depth", PERF + "block_config", (
        ("cap = 16 if ifm_bits == 16 or is_partkernel else 32",
         "cap = 32 if ifm_bits == 8 and not is_partkernel else 16"),)),
    # The U65-512's ReduceSum reading 8/16-bit data as NHCWB16 (only int32 kept NHWC).
    Mutant("u65-512 ReduceSum NHWC IFM", "npu_opt.passes.npu_place", (
        ("reduce_reads_nhwc = target is not None and target.accelerator.name == _NHWC_REDUCE_SUM_IFM",
         "reduce_reads_nhwc = False"),)),
    Mutant("NHCWB16 write burst core count", PERF + "memory", (
        ("16 * bits * block.width * perf.ncores", "16 * bits * block.width"),
        ("16 * bits * block.width * (1 if is_read else perf.ncores)", "16 * bits * block.width"))),
    # A concatenation or slice keeps its tensor NHCWB16 only at depth offsets on 32 channels, not 16.
    Mutant("view depth offsets on bricks", "npu_opt.passes.npu_place", (
        ("if any(offset % 16 for offset in group.depth_offsets)",
         "if any(offset % 32 for offset in group.depth_offsets)"),)),
    # Block configs searched on the part an op reads or writes, not on the whole tensor.
    Mutant("block config on the whole tensor", PERF + "block_config", (
        ("find_block_config(accel, desc.block_type, desc.ofm.block_shape, desc.ifm.block_shape,",
         "find_block_config(accel, desc.block_type, desc.ofm.shape, desc.ifm.shape,"),)),
    # The slack a concatenation's part leaves costed at the part's depth, not the whole tensor's.
    Mutant("slack at the whole depth", PERF + "op_desc", (
        ("return self.with_ofm_depth(self.ofm.block_shape.depth)", "return self"),)),
)


class _MutatingLoader(importlib.machinery.SourceFileLoader):
    """Loads a module from its source with one replacement, ignoring any cached bytecode."""

    def __init__(self, fullname: str, path: str, mutant: Mutant) -> None:
        super().__init__(fullname, path)
        self.mutant = mutant

    def get_code(self, fullname: str) -> CodeType:
        source = Path(self.path).read_text(encoding="utf-8")
        edit = self.mutant.edit(source)
        if edit is None:
            raise ImportError(f"mutant '{self.mutant.label}' does not apply to {self.path}")
        return compile(source.replace(*edit), self.path, "exec")


class _MutatingFinder(importlib.abc.MetaPathFinder):
    """Hands the mutated module's import to ``_MutatingLoader``."""

    def __init__(self, mutant: Mutant) -> None:
        self.mutant = mutant

    def find_spec(self, fullname, path, target=None):  # type: ignore[no-untyped-def]
        if fullname != self.mutant.module:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.origin is None:
            return None
        spec.loader = _MutatingLoader(fullname, spec.origin, self.mutant)
        return spec


def applies(mutant: Mutant) -> bool:
    """Whether one of the mutant's edits applies to its module's current source."""
    relative = mutant.module.removeprefix("npu_opt.").replace(".", "/") + ".py"
    return mutant.edit((ROOT / relative).read_text(encoding="utf-8")) is not None


def run_child(label: str) -> int:
    """In the child: install the mutant and run the test; pytest's exit status."""
    import pytest

    mutant = next(m for m in MUTANTS if m.label == label)
    sys.meta_path.insert(0, _MutatingFinder(mutant))
    return int(pytest.main([str(TEST), "-q", "-p", "no:cacheprovider", "-k", "every_layer"]))


def main(argv: list[str]) -> int:
    if argv[:1] == ["--child"]:
        return run_child(argv[1])
    wanted = [m for m in MUTANTS if not argv or m.label in argv]
    unknown = set(argv) - {m.label for m in MUTANTS}
    if unknown:
        print(f"error: unknown mutant(s) {', '.join(sorted(unknown))}; known: {', '.join(m.label for m in MUTANTS)}",
              file=sys.stderr)
        return 1
    unnoticed = 0
    for mutant in wanted:
        if not applies(mutant):
            print(f"{mutant.label}: stale, none of its texts occurs exactly once in {mutant.module}")
            unnoticed += 1
            continue
        done = subprocess.run([sys.executable, __file__, "--child", mutant.label], capture_output=True, text=True,
                              cwd=ROOT, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
        summary = re.search(r"(\d+) failed", done.stdout)
        failed = int(summary.group(1)) if summary else 0
        passed = re.search(r"(\d+) passed", done.stdout)
        total = failed + (int(passed.group(1)) if passed else 0)
        print(f"{mutant.label}: {failed} of {total} cases fail" + ("" if failed else "  <-- NOT NOTICED"))
        unnoticed += failed == 0
    return 1 if unnoticed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
