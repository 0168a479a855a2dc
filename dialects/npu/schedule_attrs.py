"""The attributes the scheduling passes write, declared once (ir/attrdef.py); docs/attributes.md
says which pass writes each and why they are attributes on ordinary ops."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterator

from npu_opt.hardware.vela_config import MEMORY_AREAS
from npu_opt.ir.attr_params import Bool, Dims, Int, List, Map, Record, Word
from npu_opt.ir.attrdef import ENTRIES, FLAG, KEYED, POSITIONAL, WORDS, AttrDef, AttrDefMeta, Param

TIME_ATTR = "npu.time"
STREAM_ATTR = "npu.stream"
UNHIDDEN_ATTR = "npu.unhidden"
SHARES_TAIL_ATTR = "npu.shares_tail"
STRIPE_ATTR = "npu.stripe"
CASCADE_ATTR = "npu.cascade"
ALLOC_ATTR = "npu.alloc"
ARG_ALLOC_ATTR = "npu.arg_alloc"
SECOND_BUFFER_ATTR = "npu.second_buffer"
BAND_ATTR = "npu.band"
SCHEDULE_ATTR = "npu.schedule"
USAGE_ATTR = "npu.usage"
SEARCH_ATTR = "npu.search"
FLASH_ATTR = "npu.flash"

BUFFERINGS: tuple[str, ...] = ("single", "double")
"""How a weight stream uses fast storage: one buffer refilled per slice, or two alternating."""

STRATEGIES: tuple[str, ...] = ("Performance", "Size")
"""The scheduling policies (Vela's ``--optimise``)."""

GROWTHS: tuple[str, ...] = ("vela", "full", "cost")
"""How npu-form-cascades grows a cascade's stripes (see passes/schedule/cascade_builder.py)."""

AREA = Word(MEMORY_AREAS, "memory area")
COUNT = Int(0)
SHAPE = Dims(3)


class AllocAttr(AttrDef):
    """Where a tensor lives: its memory area, byte offset, bytes reserved and live range (first
    and last time index, inclusive)."""

    NAME = "npu.alloc"
    area = Param(AREA, POSITIONAL, doc="the memory area")
    offset = Param(COUNT, doc="the first byte")
    size = Param(COUNT, doc="the bytes reserved")
    live = Param(List(Int(), 2), doc="[first, last] time index, inclusive")

    def verify(self) -> None:
        if self.first > self.last:
            raise ValueError(f"the live range [{self.first}, {self.last}] ends before it starts")

    @property
    def first(self) -> int:
        return self.live[0]

    @property
    def last(self) -> int:
        return self.live[1]

    @property
    def end(self) -> int:
        """The first byte after the tensor."""
        return self.offset + self.size

    def overlaps(self, other: "AllocAttr") -> bool:
        """Whether the two share a byte of the same memory while both are live."""
        return (self.area == other.area and self.first <= other.last and other.first <= self.last
                and self.offset < other.end and other.offset < self.end and self.size > 0 and other.size > 0)


class StreamAttr(AttrDef):
    """How an op's encoded weights stream into fast storage (on its weight ``npu.dma``)."""

    NAME = "npu.stream"
    slices = Param(List(Int(), least=2), doc="the OFM depth slices, from 0 up to the depth")
    buffering = Param(Word(BUFFERINGS), doc="one buffer refilled per slice, or two alternating")
    buffers = Param(List(COUNT), doc="the bytes of each buffer")
    bytes = Param(COUNT, doc="the encoded stream's total bytes")
    prefetch = Param(Bool(), FLAG, doc="the first buffer is filled while the previous op runs")

    def verify(self) -> None:
        slices = self.slices
        if slices[0] != 0 or any(b <= a for a, b in zip(slices, slices[1:])):
            raise ValueError(f"slices must start at 0 and increase, not {list(slices)}")
        count = BUFFERINGS.index(self.buffering) + 1
        if len(self.buffers) != count:
            raise ValueError(f"{self.buffering} buffering takes {count} buffer size(s), not {list(self.buffers)}")

    @property
    def depth(self) -> int:
        """The OFM depth the slices cover."""
        return self.slices[-1]

    @property
    def buffer_bytes(self) -> int:
        """Fast-storage bytes the stream's buffers take together."""
        return sum(self.buffers)


class StripeAttr(AttrDef):
    """The OFM stripe (height, width, depth) an op produces per step."""

    NAME = "npu.stripe"
    shape = Param(SHAPE, POSITIONAL, doc="HxWxD")


class CascadeAttr(AttrDef):
    """Cascade membership (the id is the time index of the cascade's first op) and the rolling
    buffer the member's OFM lives in (none for the last member)."""

    NAME = "npu.cascade"
    id = Param(COUNT, POSITIONAL, doc="the time index of the cascade's first op")
    rolling = Param(SHAPE, default=None, doc="the rolling buffer HxWxD")
    staged = Param(COUNT, default=0, doc="bytes of the member's full-depth weight buffer that stripe growth "
                                         "staged (Vela's sub-schedule buffering): they count in the cascade's "
                                         "memory, and the member keeps that buffer (0: none staged)")


def _knob(type: Any, syntax: str, default: Any, phrase: Any, reader: str, doc: str, **more: Any) -> Param:
    """A knob of ``npu.schedule``: a choice beyond Vela's, off by default, read by pass ``reader``;
    ``phrase`` says it in remarks and summaries (a dict per value for a word, a format with
    ``{value}``/``{size}`` for a number)."""
    return Param(type, syntax, default=default, doc=f"{doc} (read by {reader})", knob=True, phrase=phrase,
                 reader=reader, **more)


class ScheduleAttr(AttrDef):
    """The policy and the fast-storage limits a module was scheduled for, and the knobs beyond
    Vela's a schedule search may set (all off unless written), each read by the pass named."""

    NAME = "npu.schedule"
    strategy = Param(Word(STRATEGIES), POSITIONAL, doc="Vela's --optimise")
    arena_cache_size = Param(COUNT, doc="the fast-storage size")
    sram_target = Param(COUNT, doc="the SRAM the cascades and buffers must fit")
    stripe_growth = _knob(Word(GROWTHS), KEYED, "vela", {"full": "full stripe growth", "cost": "stripe heights by cost"},
                          "npu-form-cascades", "vela: Vela's scan; full: every height; cost: the fewest cycles",
                          point_words={"full": "full_growth", "cost": "cost_growth"})
    buffer_limit = _knob(COUNT, KEYED, 0, "buffers filling {size}", "npu-buffer-weights",
                         "Size only (0: none): bytes the passes after the cascades may fill", label="buffers filling the budget")
    width_bands = _knob(Int(1), KEYED, 1, "{value} column bands", "npu-width-bands",
                        "column bands each chain of windowed ops is cut into (1: none)", label="column bands")
    prefetch_overlap = _knob(Bool(), FLAG, False, "prefetch overlap", "npu-allocate",
                             "prefetched weight buffers may take bytes the previous op frees (set under Size)")
    cascade_joins = _knob(Bool(), FLAG, False, "cascade joins", "npu-form-cascades",
                          "cascades run through a residual add whose other input is whole")
    fastest_blocks = _knob(Bool(), FLAG, False, "fastest block configs", "npu-select-block-config",
                           "block configs chosen for the fewest estimated cycles")
    memory_order = _knob(Bool(), FLAG, False, "memory-aware order", "npu-order",
                         "ops between CPU ops run in the order keeping the fewest bytes live")
    cascade_branches = _knob(Bool(), FLAG, False, "cascade branches", "npu-form-cascades",
                             "residual blocks cascaded whole (implies joins)")
    cascade_concats = _knob(Bool(), FLAG, False, "cascades through concatenations", "npu-form-cascades",
                            "a concatenation, its parts' writers and its reader one cascade")

    @classmethod
    def for_point(cls, strategy: str, arena_cache_size: int, sram_target: int, flags: tuple[str, ...],
                  **values: int) -> "ScheduleAttr":
        """The schedule a search point's knobs make: ``flags`` (POINT_FLAGS) and the numbers of
        the valued ones (``buffer_limit = N``)."""
        given: dict[str, Any] = {}
        for param in KNOBS:
            if param.syntax == FLAG:
                given[param.name] = param.name in flags
            elif param.syntax == KEYED and "point_words" in param.meta:
                given[param.name] = next((value for value, word in param.meta["point_words"].items() if word in flags),
                                         param.default)
            else:
                given[param.name] = values.get(param.name, param.default)
        return cls.build(strategy=strategy, arena_cache_size=arena_cache_size, sram_target=sram_target, **given)

    def point_flags(self) -> tuple[str, ...]:
        """The POINT_FLAGS this schedule sets (``for_point``'s inverse)."""
        return tuple(word for param in POINT_KNOBS if (word := point_word_of(param, getattr(self, param.name))))


KNOBS: tuple[Param, ...] = tuple(p for p in ScheduleAttr.params if p.meta.get("knob"))
"""``npu.schedule``'s knobs beyond strategy and SRAM target, as declared."""

POINT_KNOBS: tuple[Param, ...] = tuple(sorted(KNOBS, key=lambda p: (p.syntax == FLAG and 1) or
                                              (p.syntax == KEYED and "point_words" not in p.meta and 2) or 0))
"""The knobs in the order a search point writes them: words, flags, then numbers."""


def point_word(name: str, value: Any) -> str:
    """How a search point names npu.schedule's knob ``name`` set to ``value`` ('' at its default)."""
    return point_word_of(next(p for p in KNOBS if p.name == name), value)


def point_word_of(param: Param, value: Any) -> str:
    """How a search point names ``param`` set to ``value`` ('' when at its default)."""
    if value == param.default:
        return ""
    return param.meta["point_words"][value] if "point_words" in param.meta else param.name


SCHEDULE_FLAGS: tuple[str, ...] = tuple(p.name for p in KNOBS if p.syntax == FLAG)
"""The bare flags ``#npu.schedule`` takes after its strategy (each at most once)."""

VALUED_FLAGS: tuple[str, ...] = tuple(p.name for p in POINT_KNOBS if p.syntax == KEYED and "point_words" not in p.meta)
"""The knobs that stand for a number (a frontier point writes them ``name = N``)."""

POINT_FLAGS: tuple[str, ...] = tuple(word for p in POINT_KNOBS
                                     for word in (p.meta["point_words"].values() if "point_words" in p.meta else (p.name,)))
"""The knobs beyond strategy and SRAM target a search point may set, by the word it writes."""

KNOB_WORDS: dict[str, str] = {
    word: phrase for p in POINT_KNOBS for word, phrase in (
        ((w, p.meta["phrase"][v]) for v, w in p.meta["point_words"].items()) if "point_words" in p.meta
        else [(p.name, p.meta.get("label", p.meta["phrase"]))])}
"""Each of POINT_FLAGS in words, for remarks and summaries."""


def knob_phrases(flags: tuple[str, ...], buffer_limit: int = 0, width_bands: int = 1,
                 size: Callable[[int], str] = lambda n: f"{n} bytes") -> tuple[str, ...]:
    """Each of ``flags`` (POINT_FLAGS) in words, the valued ones with their number (``size``
    writes a byte count): what remarks and summaries say of a search point's knobs."""
    values = {"buffer_limit": buffer_limit, "width_bands": width_bands}
    by_name = {p.name: p for p in KNOBS}
    return tuple(by_name[flag].meta["phrase"].format(value=values[flag], size=size(values[flag]))
                 if flag in VALUED_FLAGS else KNOB_WORDS[flag] for flag in flags)


@dataclass(frozen=True)
class SearchKnob:
    """A knob of ``npu.schedule`` as the pass that reads it declares it (``Pass.KNOBS``) for the
    schedule search: its name, the values the search tries besides the default, and what it buys."""

    name: str
    values: tuple[Any, ...]
    help: str

    def __post_init__(self) -> None:
        param = next((p for p in KNOBS if p.name == self.name), None)
        if param is None:
            raise TypeError(f"'{self.name}' is not a knob of npu.schedule")
        for value in self.values:
            param.normalize(value, "#npu.schedule")


class UsageAttr(AttrDef):
    """Per memory area, the bytes the allocation spans and the lower bound (the most bytes live
    at any one time)."""

    NAME = "npu.usage"
    entries = Param(Map(AREA, List(COUNT, 2)), ENTRIES, doc="AREA = [used, bound]")

    @property
    def areas(self) -> tuple[tuple[str, int, int], ...]:
        """(area, used, bound) of each area."""
        return tuple((area, used, bound) for area, (used, bound) in self.entries)

    def __iter__(self) -> Iterator[tuple[str, int, int]]:
        return iter(self.areas)

    def used(self, area: str) -> int:
        """Bytes the allocation of ``area`` spans (0 when nothing lives there)."""
        return next((u for a, (u, _) in self.entries if a == area), 0)


class _PointBase(AttrDef):
    """Behaviour of SearchPoint, whose knob parameters are those of ``npu.schedule``."""

    @property
    def flags(self) -> tuple[str, ...]:
        """The POINT_FLAGS this point sets."""
        return tuple(word for param in POINT_KNOBS if (word := point_word_of(param, getattr(self, param.name))))

    def knob_words(self, separator: str = " = ") -> tuple[str, ...]:
        """The flags, each valued one as ``name<separator>N``: how the frontier table writes them."""
        return tuple(f"{flag}{separator}{getattr(self, flag)}" if flag in VALUED_FLAGS else flag for flag in self.flags)

    def schedule(self, arena_cache_size: int) -> ScheduleAttr:
        """The ``npu.schedule`` that makes this point (the passes after the search then build it)."""
        return ScheduleAttr.for_point(self.strategy, arena_cache_size, self.sram_target, self.flags,
                                      **{name: getattr(self, name) for name in VALUED_FLAGS})


def _point_param(param: Param) -> Param:
    """``param`` of ``npu.schedule`` as a search point writes it (a word per value, a flag, ``name = N``)."""
    if "point_words" in param.meta:
        return Param(param.type, WORDS, default=param.default, words=param.meta["point_words"], doc=param.doc)
    return Param(param.type, param.syntax, default=param.default, doc=param.doc)


SearchPoint = AttrDefMeta("SearchPoint", (_PointBase,), {
    "__doc__": "One frontier point: the strategy, SRAM target and knobs that make it, and what it costs.",
    "__module__": __name__,
    "strategy": Param(Word(STRATEGIES), POSITIONAL, doc="the strategy"),
    "sram_target": Param(COUNT, POSITIONAL, doc="the SRAM target"),
    "cycles": Param(COUNT, POSITIONAL, doc="total cycles"),
    "sram": Param(COUNT, POSITIONAL, doc="SRAM bytes used"),
    **{param.name: _point_param(param) for param in POINT_KNOBS}})


def search_point(strategy: str, sram_target: int, cycles: int, sram: int, flags: tuple[str, ...] = (),
                 **values: int) -> Any:
    """The SearchPoint of these figures and knobs (``flags`` from POINT_FLAGS)."""
    knobs = ScheduleAttr.for_point(strategy, 0, sram_target, flags, **values)
    return SearchPoint.build(strategy=strategy, sram_target=sram_target, cycles=cycles, sram=sram,
                           **{p.name: getattr(knobs, p.name) for p in POINT_KNOBS})


class SearchAttr(AttrDef):
    """The frontier a schedule search found (non-dominated, fastest first), the point it chose,
    and where the Vela-equivalent Performance and Size schedules landed."""

    NAME = "npu.search"
    budget = Param(COUNT, doc="the SRAM budget searched for")
    chosen = Param(Int(), doc="the index of the point the module was scheduled as")
    performance = Param(List(COUNT, 2), default=None, doc="[cycles, sram] of the Performance schedule")
    size = Param(List(COUNT, 2), default=None, doc="[cycles, sram] of the Size schedule")
    points = Param(List(Record(SearchPoint), least=1), doc="the frontier")

    def verify(self) -> None:
        if not 0 <= self.chosen < len(self.points):
            raise ValueError(f"chosen = {self.chosen} names none of the {len(self.points)} points")


class FlashAttr(AttrDef):
    """Where bytes lie in the read-only data: on a weighted op, its encoded weight buffer (scale
    records and weights of every depth slice, Vela's layout); on a constant an NPU op reads as a
    feature map (an elementwise operand, a lookup table), its values."""

    NAME = "npu.flash"
    offset = Param(COUNT, doc="the first byte in the read-only data")
    size = Param(COUNT, doc="the bytes")


ATTRIBUTES = (AllocAttr, StreamAttr, StripeAttr, CascadeAttr, ScheduleAttr, UsageAttr, SearchAttr, FlashAttr)
"""The schedule's attributes, registered on the npu dialect."""

__all__ = [
    "ALLOC_ATTR", "ARG_ALLOC_ATTR", "FLASH_ATTR", "FlashAttr", "ATTRIBUTES", "AllocAttr", "BUFFERINGS", "CASCADE_ATTR", "CascadeAttr",
    "GROWTHS", "KNOBS", "KNOB_WORDS", "POINT_FLAGS", "SCHEDULE_ATTR", "SCHEDULE_FLAGS", "SEARCH_ATTR",
    "SECOND_BUFFER_ATTR", "SHARES_TAIL_ATTR", "STRATEGIES", "SearchKnob", "STREAM_ATTR", "STRIPE_ATTR", "ScheduleAttr",
    "SearchAttr", "SearchPoint",
    "StreamAttr", "StripeAttr", "TIME_ATTR", "UNHIDDEN_ATTR", "USAGE_ATTR", "UsageAttr", "VALUED_FLAGS",
    "knob_phrases", "point_word", "search_point",
]
