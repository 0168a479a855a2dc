"""The first difference between two command streams, op by op and register group by group, in
words a reader can act on ("op 1 ethosu.conv2d: ifm ... vs ..."); for the tests and bench that
hold the lowering against Vela's streams."""
from __future__ import annotations

from npu_opt.dialects.ethosu.attrs import FeatureMapAttr, MemAttr, StreamAttr
from npu_opt.dialects.ethosu.decode import decode_words
from npu_opt.ir.core import Operation

PLACEMENT_DEPENDENT = ("kernel_wait", "dma_wait", "blockdep")
"""Registers that follow from where the scratch tensors are (which ops' bytes overlap)."""


def first_difference(ours: list[int], reference: list[int]) -> str | None:
    """None when the words are equal, else where the decoded programs first differ."""
    if ours == reference:
        return None
    mine, theirs = (list(decode_words(words).regions[0].blocks[0].ops) for words in (ours, reference))
    for index, (a, b) in enumerate(zip(mine, theirs)):
        if a.name != b.name:
            return f"op {index}: {a.name} vs the reference's {b.name}"
        for key in sorted(set(a.properties) | set(b.properties)):
            x, y = a.properties.get(key), b.properties.get(key)
            if x != y:
                return f"op {index} {a.name}: {key} {x} vs the reference's {y}"
    if len(mine) != len(theirs):
        return f"{len(mine)} ops vs the reference's {len(theirs)}"
    return "the same ops in other words (register write order)"


def _unplaced(op: Operation) -> dict:
    """``op``'s properties with scratch addresses (regions other than 0) and the registers
    they decide left out."""
    kept = {}
    for key, value in op.properties.items():
        if key in PLACEMENT_DEPENDENT:
            continue
        if isinstance(value, FeatureMapAttr) and value.region:
            value = value.replaced(bases=[0, 0, 0, 0])
        elif isinstance(value, MemAttr) and value.region:
            value = value.replaced(address=0)
        elif isinstance(value, StreamAttr) and value.region:
            value = value.replaced(base=0, base1=None if value.base1 is None else 0)
        kept[key] = value
    return kept


def equal_but_placement(ours: list[int], reference: list[int]) -> bool:
    """Whether the two streams have the same ops with the same registers but for the scratch
    addresses and the waits and BLOCKDEP that follow from them, the first difference being an
    address (a wait or BLOCKDEP differing first is not put down to the placement)."""
    mine, theirs = (list(decode_words(words).regions[0].blocks[0].ops) for words in (ours, reference))
    if len(mine) != len(theirs) or not all(a.name == b.name and _unplaced(a) == _unplaced(b)
                                           for a, b in zip(mine, theirs)):
        return False
    for a, b in zip(mine, theirs):
        differing = [key for key in sorted(set(a.properties) | set(b.properties))
                     if a.properties.get(key) != b.properties.get(key)]
        if differing:
            return any(key not in PLACEMENT_DEPENDENT for key in differing)
    return True


__all__ = ["PLACEMENT_DEPENDENT", "equal_but_placement", "first_difference"]
