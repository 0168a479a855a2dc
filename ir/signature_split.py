"""Splitting an op signature made only of tensor types, ``(tensor<...>, ...) -> tensor<...>``, with
one regex match instead of a bracket-counting scan.

Imported models spell every op's signature this way, and each layer's signature is a new text
(its per-axis scales differ), so ``split_top_level`` ran once per op over a few hundred
characters. Here each spelling is matched as a whole: brackets inside it are balanced by
construction and it holds no string, parenthesis or ``->``, so the pieces are exactly the ones
``split_top_level`` finds. Anything else returns None and the general path takes it.
"""
from __future__ import annotations

import functools
import re

from npu_opt.ir.lexing import chars_except
from npu_opt.ir.regex_cache import compile_shared

_PLAIN = chars_except('<>"(){}[]')  # (the class [^<>"(){}\[\]], spelled as ranges: faster to match)
_GROUP = rf"(?:{_PLAIN}|\{{{_PLAIN}*+\}}|\[{_PLAIN}*+\])"
"""A character of a type, or a flat ``{...}`` (per-axis scales) or ``[...]``."""
_TENSOR = rf"tensor<(?:{_GROUP}|<(?:{_GROUP}|<{_GROUP}*+>)*+>)*+>"
"""A tensor type with angle brackets nested at most three deep (``tensor<..x!quant.uniform<i8<a:b>..>>``)."""


_RUN = rf"{_PLAIN}*+"
_RUNS = rf"{_RUN}(?:(?:\{{{_RUN}\}}|\[{_RUN}\]){_RUN})*+"
"""What ``_GROUP*+`` matches, as runs of plain characters (one step per run, not per character)."""
_ONE_TENSOR = compile_shared(rf"tensor<{_RUNS}(?:<{_RUNS}(?:<{_RUNS}>{_RUNS})*+>{_RUNS})*+>")
"""The language of ``_TENSOR``, matched about five times faster (for split_spaced_signature)."""


PATTERNS: dict[str, str] = {
    "tensor": _TENSOR,
    "tensor_signature": rf"\(\s*+(?:{_TENSOR}\s*+(?:,\s*+{_TENSOR}\s*+)*+)?(?P<close>\))\s*+->\s*+"
                        rf"(?P<result>{_TENSOR})\s*+",
}
"""The two regexes of ``split_tensor_signature`` (one tensor spelling, a whole signature of them):
the parser compiles them through its pattern cache with its own pieces (ir/regex_cache.py), as
compiling them costs about 0.15 s of CPU, most of a short run's parse."""


@functools.lru_cache(maxsize=1)
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """(one tensor spelling, a whole signature of them), compiled on first use (not at start-up)."""
    return compile_shared(PATTERNS["tensor"]), compile_shared(PATTERNS["tensor_signature"])


def split_tensor_signature(body: str, patterns: tuple[re.Pattern[str], re.Pattern[str]] | None = None,
                           ) -> tuple[list[str], str] | None:
    """The input type spellings and the one result type spelling of ``body`` (which starts at
    its ``(``), stripped; None unless every type is a tensor type as described above.
    ``patterns``: ``PATTERNS`` compiled (default: compiled here on first use)."""
    if body.count("->") != 1:
        return None  # a '->' inside a type closes no bracket for split_top_level: leave it to it
    one, whole = patterns or _patterns()
    m = whole.fullmatch(body)
    if m is None:
        return None
    return one.findall(body, 1, m.start("close")), m.group("result")


def split_spaced_signature(body: str, checked: set[str]) -> tuple[list[str], str] | None:
    """``split_tensor_signature`` for the spelling npu-opt and the importer print,
    ``(T, T, T) -> T`` with exactly ``", "`` between the types: cut at each ``", tensor<"`` and at
    ``") -> "`` with str methods, each piece then checked alone against the one-tensor pattern
    (``checked`` remembers the spellings that passed, so a type seen before costs a set lookup).
    Every piece being one balanced tensor type with no parenthesis or arrow in it is what makes
    these cuts the top-level ones; anything else returns None (then split_tensor_signature)."""
    close = body.rfind(") -> ")
    if close < 0 or not body.startswith("(") or body.count("->") != 1:
        return None
    result = body[close + 5:]
    inputs = body[1:close].split(", tensor<") if close > 1 else []
    for index in range(1, len(inputs)):
        inputs[index] = "tensor<" + inputs[index]
    for text in (*inputs, result):
        if text not in checked:
            if _ONE_TENSOR.fullmatch(text) is None:
                return None
            checked.add(text)
    return inputs, result
