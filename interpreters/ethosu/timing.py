"""The waits checked: which DMAs and NPU operations may still be running when a command starts,
and an error when a command touches bytes one of them still writes or reads (a missing or too
lenient NPU_OP_DMA_WAIT or NPU_OP_KERNEL_WAIT).

Design notes: docs/simulator_design.md, section Waits."""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np

from npu_opt.interpreters.ethosu.memory import SHRAM, Access, SimulatorError
from npu_opt.ir.core import Operation

Runs = tuple[np.ndarray, np.ndarray]
"""Sorted, disjoint byte runs of one region: their starts and their ends (exclusive)."""


def _merged(starts: np.ndarray, ends: np.ndarray) -> Runs:
    """The union of the [start, end) runs, as sorted disjoint runs."""
    order = np.argsort(starts, kind="stable")
    starts, ends = starts[order], ends[order]
    reach = np.maximum.accumulate(ends)
    opens = np.ones(starts.size, dtype=bool)
    opens[1:] = starts[1:] > reach[:-1]
    first = np.flatnonzero(opens)
    last = np.append(first[1:] - 1, starts.size - 1)
    return starts[first], reach[last]


def _runs_of(addresses: np.ndarray) -> Runs:
    """The runs of a set of byte addresses, found on a mask of their span (faster than sorting)."""
    low = int(addresses.min())
    mask = np.zeros(int(addresses.max()) - low + 3, dtype=np.int8)
    mask[addresses - low + 1] = 1
    steps = np.diff(mask)
    return np.flatnonzero(steps == 1) + low, np.flatnonzero(steps == -1) + low


def _overlap(a: Runs, b: Runs) -> tuple[int, int] | None:
    """The first bytes [start, end) both run lists hold, if any."""
    if a[0].size == 0 or b[0].size == 0:
        return None
    after = np.searchsorted(b[1], a[0], side="right")  # the first run of b ending past each run of a's start
    valid = after < b[0].size
    index = np.minimum(after, b[0].size - 1)
    meets = valid & (b[0][index] < a[1])
    if not meets.any():
        return None
    k = int(np.flatnonzero(meets)[0])
    j = int(index[k])
    return max(int(a[0][k]), int(b[0][j])), min(int(a[1][k]), int(b[1][j]))


@dataclass
class Footprint:
    """The bytes one command read and wrote, per region."""

    reads: dict[int, Runs]
    writes: dict[int, Runs]

    @staticmethod
    def of(accesses: list[Access]) -> "Footprint":
        gathered: dict[bool, dict[int, list[Runs]]] = {False: {}, True: {}}
        for region, writes, where in accesses:
            runs = (np.array([where[0]]), np.array([where[1]])) if isinstance(where, tuple) \
                else _runs_of(np.asarray(where).ravel())
            gathered[writes].setdefault(region, []).append(runs)
        merged = {kind: {region: _merged(np.concatenate([r[0] for r in parts]), np.concatenate([r[1] for r in parts]))
                         for region, parts in by_region.items()} for kind, by_region in gathered.items()}
        return Footprint(merged[False], merged[True])


@dataclass
class Running:
    """A command in flight: its index and op, and the bytes it touches."""

    index: int
    op: Operation
    footprint: Footprint


def _label(region: int) -> str:
    return "SHRAM" if region == SHRAM else f"region {region}"


def _conflict(later: Footprint, earlier: Footprint) -> tuple[str, str, int, int, int] | None:
    """Where the later command's bytes meet the earlier one's: (its verb, the earlier one's verb,
    region, start, end)."""
    pairs = (("reads", later.reads, earlier.writes, "writing"), ("overwrites", later.writes, earlier.reads, "reading"),
             ("overwrites", later.writes, earlier.writes, "writing"))
    for verb, mine, theirs, their_verb in pairs:
        for region, runs in mine.items():
            if region in theirs:
                met = _overlap(runs, theirs[region])
                if met is not None:
                    return verb, their_verb, region, met[0], met[1]
    return None


class Timeline:
    """The DMAs and NPU operations in flight as the stream is issued. Each kind completes in
    order; issuing one more than the hardware keeps in flight waits for the oldest, and
    NPU_OP_KERNEL_WAIT n / NPU_OP_DMA_WAIT n wait until at most n of that kind remain."""

    def __init__(self, max_dmas: int, max_kernels: int) -> None:
        self.limits = {True: max_dmas, False: max_kernels}
        self.running: dict[bool, deque[Running]] = {True: deque(), False: deque()}

    def issue(self, is_dma: bool, kernel_wait: int | None, dma_wait: int | None) -> None:
        """The waits before a command, then the stall for a free slot of its kind."""
        for kind, wait in ((False, kernel_wait), (True, dma_wait)):
            if wait is not None:
                self._retire(kind, wait)
        self._retire(is_dma, self.limits[is_dma] - 1)

    def _retire(self, kind: bool, left: int) -> None:
        queue = self.running[kind]
        while len(queue) > max(left, 0):
            queue.popleft()

    def start(self, command: Running, is_dma: bool) -> None:
        """Check the command against those in flight it could race, then put it in flight: an
        NPU operation races the DMAs, a DMA the NPU operations and the other DMAs."""
        racing = list(self.running[False]) + list(self.running[True]) if is_dma else list(self.running[True])
        for earlier in racing:
            met = _conflict(command.footprint, earlier.footprint)
            if met is not None:
                verb, their_verb, region, first, end = met
                raise WaitError(command, earlier, f"{verb} bytes {first} to {end - 1} of {_label(region)}, which",
                                f"may still be {their_verb}")
        self.running[is_dma].append(command)


class WaitError(SimulatorError):
    """A command that races one still in flight; the caller names where both are in the stream."""

    def __init__(self, command: Running, earlier: Running, what: str, how: str) -> None:
        super().__init__(f"{what} op {earlier.index} ({earlier.op.name}) {how}")
        self.command, self.earlier, self.what, self.how = command, earlier, what, how


__all__ = ["Footprint", "Running", "Timeline", "WaitError"]
