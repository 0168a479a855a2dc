"""The weight codec's Golomb-Rice parameter search, run for many symbol streams at once because the
search dominates the cost of sizing weights.

Design notes: docs/cost_model_design.md, section Golomb-Rice parameter search (grc_search)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from npu_opt.hardware.perf.shape import round_up

SWITCH_PRICE = 40
"""Bits the search charges for changing parameters where no slice starts anyway."""
_SHIFT = 4
"""Costs are stored shifted left by this, the set index in the low bits (at most 16 sets)."""
RENORMALISE = 16
"""Steps between subtracting each lane's cheapest cost (keeps 16-bit keys from overflowing)."""
WARM_UP = 64
"""Symbols a piece replays before its own start to forget the unknown start state (pieces of
real weights forget it within 30-400 symbols; the others are run again, which on the corpus
costs less than a longer warm-up for every piece)."""


@dataclass(frozen=True)
class SearchJob:
    """One stream to search: its symbols, the bits of each symbol value under each parameter set
    (``table[value, set]``) and the steps at which switching costs nothing."""

    symbols: np.ndarray
    table: np.ndarray
    free_steps: np.ndarray | None = None


@dataclass(frozen=True)
class Runs:
    """The chosen parameter runs of one stream: set index and end (exclusive) of each run."""

    sets: np.ndarray
    ends: np.ndarray


def _lane_length(total: int) -> int:
    """Symbols per lane: about half the square root of the batch, which balances numpy's per-step
    call overhead (lane + warm-up steps) against the warm-up's extra work (lanes x warm-up); on
    the corpus half the square root searches 4-12% faster than the whole one, a quarter no faster."""
    return int(min(4096, max(32, round(0.5 * total ** 0.5))))


class _LaneBatch:
    """The pieces of all streams laid out as columns: step t of lane k reads one symbol."""

    def __init__(self, jobs: list[SearchJob], lane: int, warm_up: int) -> None:
        self.lane, self.warm_up = lane, warm_up
        sizes = [job.symbols.shape[0] for job in jobs]
        per_job = [-(-n // lane) for n in sizes]
        self.first_lane = np.cumsum([0] + per_job)
        self.sizes = np.asarray(sizes)
        lanes = int(self.first_lane[-1])
        # One cost table for all jobs (row 0: a no-op symbol costing nothing), symbols renumbered;
        # jobs that share a table object (weight_encoding's per raw width) share its rows.
        tables = [np.zeros((1, jobs[0].table.shape[1]), np.int64)]
        slot: dict[int, int] = {}
        job_table = []
        for job in jobs:
            if id(job.table) not in slot:
                slot[id(job.table)] = len(tables)
                tables.append(job.table)
            job_table.append(slot[id(job.table)])
        table_offsets = np.cumsum([0] + [t.shape[0] for t in tables])
        self.max_cost = int(max(int(t.max()) for t in tables)) << _SHIFT
        self.idle_price = (SWITCH_PRICE << _SHIFT) + self.max_cost + (1 << _SHIFT)
        # The cheapest cost grows by at most the price plus the cheapest set's bits per step; with
        # the costs renormalised every RENORMALISE steps, 16-bit keys suffice when that growth,
        # the spread of a state (price + largest cost) and the no-op price fit together.
        growth = (SWITCH_PRICE + max(int(t.min(axis=1).max()) for t in tables)) << _SHIFT
        narrow = RENORMALISE * growth + 2 * self.idle_price
        wide = self.max_cost * (lane + warm_up + 2) + self.idle_price
        self.dtype = np.int16 if narrow < (1 << 15) else np.int32 if wide < (1 << 30) else np.int64
        # Each job becomes a segment: warm_up no-op steps, its symbols, no-op steps up to a whole
        # number of lanes. A no-op step costs nothing and has a price no state exceeds, so it
        # changes nothing. Lane k of a job reads warm_up + lane steps from k * lane in its segment.
        segment = [round_up(warm_up + count * lane, lane) for count in per_job]
        seg_start = np.cumsum([0] + segment)
        symbols = np.zeros(int(seg_start[-1]), np.int32 if table_offsets[-1] < (1 << 31) else np.int64)
        # Without free steps every step may use the plain price: a no-op step before a stream
        # meets a state whose sets all cost the same (nothing switches), and one after it only
        # lowers sets above the switch price (the cheapest set stays; nothing reads those steps).
        self.uniform = not any(job.free_steps is not None and len(job.free_steps) for job in jobs)
        price = None if self.uniform else np.full(int(seg_start[-1]), self.idle_price, self.dtype)
        for index, job in enumerate(jobs):
            first = int(seg_start[index]) + warm_up
            symbols[first:first + sizes[index]] = np.asarray(job.symbols) + table_offsets[job_table[index]]
            if price is not None:
                price[first:first + sizes[index]] = SWITCH_PRICE << _SHIFT
                if job.free_steps is not None and len(job.free_steps):
                    price[first + np.asarray(job.free_steps)] = 0
        rows = np.concatenate([seg_start[i] // lane + np.arange(count) for i, count in enumerate(per_job)])
        window = warm_up + lane
        self.symbols = np.lib.stride_tricks.sliding_window_view(symbols, window)[::lane][rows].T.copy()
        self.price = None if price is None else \
            np.lib.stride_tricks.sliding_window_view(price, window)[::lane][rows].T.copy()
        self.starts_at_zero = np.zeros(lanes, bool)
        self.starts_at_zero[self.first_lane[:-1]] = True
        # Per symbol (row), the cost under each set: a row gather is numpy's cheapest take.
        self.table = (np.concatenate(tables).astype(np.int64) << _SHIFT).astype(self.dtype)
        self.sets = self.table.shape[1]
        self.lanes = lanes

    def step_costs(self, t0: int, t1: int, lanes: np.ndarray | None) -> np.ndarray:
        """Costs of steps t0..t1 for the given lanes (None: all), as (steps, sets, lanes), each
        step's (sets, lanes) contiguous."""
        symbols = self.symbols[t0:t1] if lanes is None else self.symbols[t0:t1][:, lanes]
        return np.take(self.table, symbols, axis=0).transpose(0, 2, 1).copy()


def _relative_capped(state: np.ndarray) -> np.ndarray:
    """Each set's bits above the lane's cheapest, capped at SWITCH_PRICE + 1 (an excess over the
    price switches at the next step whatever it is): everything later steps depend on."""
    bits = state >> _SHIFT
    return np.minimum(bits - bits.min(axis=0), SWITCH_PRICE + 1)


def _advance(batch: _LaneBatch, lanes: np.ndarray | None, state: np.ndarray, t0: int, t1: int,
             switched: np.ndarray | None, best: np.ndarray | None, marks: np.ndarray | None = None,
             follow: bool = False) -> tuple[np.ndarray, np.ndarray | None]:
    """Run steps t0..t1 of ``lanes`` (None: all) from ``state``; return the end state and the lanes
    still running, recording per step, when given, which sets switched and which was cheapest."""
    # ``state`` is sets x lanes keys; ``switched``/``best`` are global arrays indexed from step
    # ``batch.warm_up`` and written at the lanes' own columns; the lanes returned are ``lanes`` less
    # those that rejoined their recorded run.
    # ``marks`` (chunk x sets x all lanes, int8) holds each lane's relative state at every chunk
    # start of the recorded run. Without ``follow`` the run writes them; with it (a rerun from an
    # exact start) a lane whose state at a chunk start equals its mark has rejoined the recorded
    # run, which is then right from there on: it stops, and the others overwrite their marks.
    # Every operand is a whole contiguous (sets x lanes) array or a lanes row and every constant a
    # numpy scalar of the state's type: numpy's broadcasting and Python-int conversions cost more
    # per call than the arithmetic on a step.
    dtype = batch.dtype
    set_bits = dtype((1 << _SHIFT) - 1)
    cost_bits = dtype(~((1 << _SHIFT) - 1))
    cheapest = np.minimum.reduce
    chunk = RENORMALISE

    def operands(count: int) -> tuple:
        index = np.ascontiguousarray(np.broadcast_to(np.arange(batch.sets, dtype=dtype)[:, None], (batch.sets, count)))
        # Prices less the set-index bits: (cheapest | 15) + price - 15 is the cheapest cost, shifted.
        if batch.price is None:
            prices, plain = None, index + dtype((SWITCH_PRICE << _SHIFT) - ((1 << _SHIFT) - 1))
        else:
            prices, plain = (batch.price if lanes is None else batch.price[:, lanes]) - set_bits, None
        return index, np.empty((batch.sets, count), dtype), np.empty(count, dtype), prices, plain

    index, threshold, low, prices, plain = operands(state.shape[1])
    for c0 in range(t0, t1, chunk):
        c1 = min(t1, c0 + chunk)
        cheapest(state, axis=0, out=low)
        np.bitwise_and(low, cost_bits, out=low)
        np.subtract(state, low, out=state)
        if marks is not None and c0 >= batch.warm_up:
            mark = (c0 - batch.warm_up) // chunk
            relative = np.minimum(state >> _SHIFT, SWITCH_PRICE + 1).astype(np.int8)
            if not follow:
                marks[mark] = relative
            else:
                assert lanes is not None
                joined = (relative == marks[mark][:, lanes]).all(axis=0) if c0 > t0 else np.zeros(lanes.size, bool)
                keep = np.flatnonzero(~joined)
                if keep.size < lanes.size:
                    lanes, state, relative = lanes[keep], state[:, keep], relative[:, keep]
                    if lanes.size == 0:
                        return state, lanes
                    index, threshold, low, prices, plain = operands(lanes.size)
                marks[mark][:, lanes] = relative
        costs = batch.step_costs(c0, c1, lanes)
        steps = c1 - c0
        record0 = c0 - batch.warm_up
        # A rerun records a chunk in its own buffers, then writes them at its lanes' columns.
        local = lanes is not None and switched is not None and record0 >= 0
        chunk_switched = np.empty((steps, batch.sets, lanes.size), bool) if local else None
        chunk_best = np.empty((steps, lanes.size), dtype) if local else None
        for t in range(c0, c1):
            record = t - batch.warm_up
            if best is not None and record >= 0:
                row = chunk_best[t - c0] if chunk_best is not None else best[record]
                cheapest(state, axis=0, out=row)
                np.bitwise_or(row, set_bits, out=low)
            else:
                cheapest(state, axis=0, out=low)
                np.bitwise_or(low, set_bits, out=low)
            if prices is None:
                np.add(plain, low, out=threshold)
            else:
                np.add(low, prices[t], out=low)
                np.add(index, low, out=threshold)
            if switched is not None and record >= 0:
                np.greater(state, threshold, out=chunk_switched[t - c0] if chunk_switched is not None
                           else switched[record])
            np.minimum(state, threshold, out=state)
            np.add(state, costs[t - c0], out=state)
        if local:
            switched[record0:record0 + steps, :, lanes] = chunk_switched
            best[record0:record0 + steps, lanes] = chunk_best
    return state, lanes


def _relative(state: np.ndarray) -> np.ndarray:
    """What the search's next decisions depend on, per lane: each set's cost above the cheapest,
    where every excess over the switch price counts the same (such a set switches next anyway)."""
    return _relative_capped(state).T


def search_runs(jobs: list[SearchJob], warm_up: int = WARM_UP) -> list[Runs]:
    """The codec's parameter runs for every job (all jobs must have the same number of sets)."""
    if not jobs:
        return []
    nonempty = [i for i, job in enumerate(jobs) if job.symbols.shape[0]]
    results: list[Runs] = [Runs(np.zeros(0, np.int64), np.zeros(0, np.int64))] * len(jobs)
    if not nonempty:
        return results
    work = [jobs[i] for i in nonempty]
    lane = _lane_length(sum(job.symbols.shape[0] for job in work))
    batch = _LaneBatch(work, lane, warm_up)
    sets, lanes = batch.sets, batch.lanes
    initial = np.broadcast_to(np.arange(sets, dtype=batch.dtype)[:, None], (sets, lanes)).copy()
    switched = np.empty((lane, sets, lanes), bool)
    best = np.empty((lane, lanes), batch.dtype)
    marks = np.empty((-(-lane // RENORMALISE), sets, lanes), np.int8)
    state, _ = _advance(batch, None, initial.copy(), 0, warm_up, None, None)
    entry = _relative(state)
    state, _ = _advance(batch, None, state, warm_up, warm_up + lane, switched, best, marks)
    exit_ = _relative(state)
    final_keys = state
    # Every lane that did not start where the lane before it ended is run again from there, until
    # it rejoins its recorded run (then its exit is unchanged); when none is left, each lane
    # continues its predecessor exactly, back to a stream start.
    while True:
        differs = np.zeros(lanes, bool)
        differs[1:] = (entry[1:] != exit_[:-1]).any(axis=1)
        redo = np.flatnonzero(differs & ~batch.starts_at_zero)
        if redo.size == 0:
            break
        start = final_keys[:, redo - 1].copy()
        entry[redo] = _relative(start)
        state, changed = _advance(batch, redo, start, warm_up, warm_up + lane, switched, best, marks, True)
        assert changed is not None
        if changed.size:
            exit_[changed] = _relative(state)
            final_keys[:, changed] = state
    for slot, job_index in enumerate(nonempty):
        results[job_index] = _trace_back(batch, slot, switched, best, final_keys)
    return results


def _trace_back(batch: _LaneBatch, job: int, switched: np.ndarray, best: np.ndarray,
                final_keys: np.ndarray) -> Runs:
    """Read the chosen runs of one job back from its last symbol."""
    lane = batch.lane
    k0, k1 = int(batch.first_lane[job]), int(batch.first_lane[job + 1])
    n = int(batch.sizes[job])
    switch_steps: dict[int, np.ndarray] = {}

    def steps_of(index: int) -> np.ndarray:
        if index not in switch_steps:
            column = switched[:, index, k0:k1].T.reshape(-1)[:n]
            switch_steps[index] = np.flatnonzero(column)
        return switch_steps[index]

    current = int(final_keys[:, k1 - 1].min()) & ((1 << _SHIFT) - 1)
    sets, ends = [current], [n]
    end = n
    while True:
        steps = steps_of(current)
        at = int(np.searchsorted(steps, end)) - 1
        if at < 0:
            break
        step = int(steps[at])
        current = int(best[step % lane, k0 + step // lane]) & ((1 << _SHIFT) - 1)
        sets.append(current)
        ends.append(step)
        end = step
    return Runs(np.asarray(sets[::-1], np.int64), np.asarray(ends[::-1], np.int64))


__all__ = ["Runs", "SWITCH_PRICE", "SearchJob", "search_runs"]
