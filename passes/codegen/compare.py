"""The first difference between two command streams, op by op and register group by group, in
words a reader can act on ("op 1 ethosu.conv2d: ifm ... vs ..."); for the tests and bench that
hold the lowering against Vela's streams."""
from __future__ import annotations

from npu_opt.dialects.ethosu.decode import decode_words


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


__all__ = ["first_difference"]
