"""How many rows of a cascade member's OFM are live at once when more than one member reads it.

Design notes: docs/scheduler_design.md, section Rolling rows of branches (rolling_rows)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

Window = Callable[[int, int], tuple[int, int]]
"""Rows [lo, hi) of an input that OFM rows [first, last) of the reader read."""


@dataclass(frozen=True)
class Member:
    """One member of a cascade, in cascade order: its OFM height, the OFM rows it computes per
    stripe, and each input it reads from an earlier member (that member's position, the window)."""

    height: int
    stripe: int
    inputs: tuple[tuple[int, Window], ...] = ()


def window(stride: int, extent: int, in_height: int, upscale: int = 1, top: tuple[int, int] = (0, 0)) -> Window:
    """The rows OFM rows [first, last) of a kernel op read: OFM row ``o`` reads upscaled rows
    ``o * stride - pad_top`` to ``+ extent - 1`` (``extent``: the dilated kernel height, one more
    for nearest-neighbour upscaling); an upscaled row ``u`` is input row ``u // upscale``.
    ``top`` is the top padding as a range (low, high): the low edge takes the high padding and
    the high edge the low one, so an unknown padding (0 to extent - 1) over-estimates."""
    def rows(first: int, last: int) -> tuple[int, int]:
        if last <= first:
            return first, first
        low = max(first * stride - top[1], 0) // upscale
        high = min((last - 1) * stride - top[0] + extent - 1, in_height * upscale - 1) // upscale
        return low, max(high + 1, low)
    return rows


def same_rows(first: int, last: int) -> tuple[int, int]:
    """The window of an elementwise op: the rows it writes."""
    return first, last


def live_rows(members: list[Member], every_sink: bool = False) -> list[int]:
    """For each member, the most rows of its OFM written and not yet read by every reader in
    the cascade at any time (0 for the last member, which no member reads). The last member
    pulls the others, as the executor runs a cascade; with ``every_sink``, every member no
    member reads takes its turn (a cascade still growing, see the module docstring)."""
    produced = [0] * len(members)
    readers: list[list[tuple[int, Window]]] = [[] for _ in members]
    for position, member in enumerate(members):
        for source, rows in member.inputs:
            if not 0 <= source < position:
                raise ValueError(f"member {position} reads member {source}, which does not run before it")
            readers[source].append((position, rows))
    most = [0] * len(members)

    def finished(position: int) -> bool:
        return produced[position] >= members[position].height

    def next_rows(position: int) -> tuple[int, int]:
        first = produced[position]
        return first, min(first + members[position].stripe, members[position].height)

    def stripe(position: int) -> None:
        produced[position] = next_rows(position)[1]
        still = [rows(*next_rows(reader))[0] for reader, rows in readers[position] if not finished(reader)]
        if still:
            most[position] = max(most[position], produced[position] - min(still))

    def pull(position: int) -> None:
        first, last = next_rows(position)
        for source, rows in members[position].inputs:
            needed = min(rows(first, last)[1], members[source].height)
            while produced[source] < needed and not finished(source):
                pull(source)
        stripe(position)

    # the members no member reads: the last, and in a cascade still growing (cascade_dag.py)
    # members whose reader joins later, which will pull each of them in turn
    sinks = [p for p in range(len(members)) if not readers[p]] if every_sink else [len(members) - 1]
    while members and not all(finished(p) for p in sinks):
        for position in sinks:
            if not finished(position):
                pull(position)
    return most


__all__ = ["Member", "Window", "live_rows", "same_rows", "window"]
