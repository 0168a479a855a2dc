"""How a schedule appears in the IR: the attributes the scheduling passes write.

A scheduled module is described by its text alone, so each scheduling pass can run on a file
holding its predecessors' results and a golden-IR test can check any decision. Every decision
is a discardable attribute (namespaced ``npu.``) written by the pass that owns it:

* ``npu.time = N : i64`` (npu-order): the op's position in the schedule.
* ``npu.block = #npu.block<...>`` (npu-select-block-config): the OFM block configuration.
* ``npu.stream = #npu.stream<slices = [0, 16, 32], buffering = double, buffers = [768, 640],
  bytes = 1408, prefetch>`` on the ``npu.dma`` that copies an op's weights into fast storage
  (npu-insert-dma makes the DMA, npu-buffer-weights decides): the OFM depth slices the encoded
  weights are cut into, whether they stream through one buffer or alternate between two, the
  size of each buffer, the encoded stream's total bytes, and ``prefetch`` when the first buffer
  is filled while the previous op still runs.
* ``npu.unhidden`` (a unit attribute, npu-allocate with ``prefetch-overlap``) on a weight
  ``npu.dma`` whose prefetch was dropped because its buffer shares bytes with one the previous
  op still uses: the DMA waits for that op to end, so npu-estimate hides none of its transfer
  (its ``npu.stream`` keeps the ``prefetch`` npu-buffer-weights chose).
* ``npu.stripe = #npu.stripe<2x56x32>`` (npu-form-cascades): the OFM stripe (height, width,
  depth) the op produces per step; without it the op writes its whole OFM at once.
* ``npu.cascade = #npu.cascade<4, rolling = 6x56x32>`` (npu-form-cascades): membership of the
  function's cascade 4 (cascades are numbered 0, 1, ... in each function in the order they start,
  by npu-form-cascades), and for every member but the last the shape of the
  rolling buffer its OFM lives in. A member writing a part of a concatenation has no rolling
  shape of its own: the ``npu.concat`` carries the cascade's id and the shape of the rolling
  buffer all its parts are written into (``cascade_concats``).
  Cascades are an attribute on their members, not a region op:
  members stay ordinary ops of the function, so every other pass, the verifier and the
  dataflow graph see them unchanged, and a cascade can be formed or dissolved by writing or
  dropping one attribute per op.
* ``npu.alloc = #npu.alloc<Sram, offset = 4096, size = 1024, live = [2, 5]>`` (npu-allocate) on
  the op defining a tensor: its memory area, byte offset, bytes reserved and live range (first
  and last time index, inclusive). A function's arguments get theirs in ``npu.arg_alloc``, an
  array on ``func.func`` with one entry per argument.
* ``npu.second_buffer = #npu.alloc<...>`` (npu-allocate) on a weight ``npu.dma`` whose stream
  alternates between two buffers: the second buffer, which is filled only once its reader runs
  (the first slice computes while the second copies), so it is live from the reader's time and
  placed apart from the first, which ``npu.alloc`` then holds alone (live from the transfer of
  the first slice, under the previous op when prefetched).
* ``npu.band = K : i64`` (npu-width-bands) on each op of a chain's column band K: a copy of a
  chain op on narrower feature maps, its first op reading a slice of the chain's IFM; such a
  first op may start a cascade (Vela never cascades an op reading a slice).
* On the module: ``npu.schedule = #npu.schedule<Performance, arena_cache_size = N,
  sram_target = N>`` (the strategy and the limits the schedule was made for, and
  ``prefetch_overlap`` for npu-allocate; a schedule search may add knobs beyond Vela's, read by the passes that own them: ``stripe_growth = full``
  for npu-form-cascades' stripe scan, ``cascade_joins`` for residual adds joining cascades,
  ``cascade_branches`` for residual blocks cascaded whole, ``cascade_concats`` for
  concatenations cascaded with their parts, ``fastest_blocks`` for
  npu-select-block-config, ``prefetch_overlap`` under Performance, ``width_bands = N`` for
  npu-width-bands' column bands, and under Size a ``buffer_limit``), written by
  npu-search-schedule; ``npu.policy = #npu.schedule<...>`` (npu-form-cascades): those knobs
  resolved with its options, the SRAM target the passes after it work under and
  ``prefetch_overlap`` set under Size (read in place of ``npu.schedule`` once present); and
  ``npu.usage = #npu.usage<Sram = [used, bound], ...>`` (npu-allocate: per memory area the bytes
  the allocation spans and the lower bound, the most bytes live at one time).
* ``npu.search = #npu.search<budget = N, chosen = K, performance = [cycles, sram], size =
  [cycles, sram], points = [[Performance, 98304, 2140000, 96000], ...]>`` on the module
  (npu-search-schedule): the SRAM budget searched for and the (cycles, SRAM) frontier the search
  found, each point the strategy and SRAM target that make it, its total cycles and its SRAM
  bytes, fastest first; ``chosen`` indexes the point the module was scheduled as (the later
  passes read its knobs from ``npu.schedule``); ``performance`` and ``size`` are where the
  Vela-equivalent strategies landed, for comparison.
"""
from __future__ import annotations

import re
from typing import Callable, Iterator, NamedTuple

from npu_opt.hardware.vela_config import MEMORY_AREAS
from npu_opt.ir.attributes import Attribute
from npu_opt.ir.strings import INT64_MAX, brief_number
from npu_opt.ir.type_parser import AttributeSyntaxError, split_top_level

TIME_ATTR = "npu.time"
STREAM_ATTR = "npu.stream"
UNHIDDEN_ATTR = "npu.unhidden"
STRIPE_ATTR = "npu.stripe"
CASCADE_ATTR = "npu.cascade"
ALLOC_ATTR = "npu.alloc"
ARG_ALLOC_ATTR = "npu.arg_alloc"
SECOND_BUFFER_ATTR = "npu.second_buffer"
BAND_ATTR = "npu.band"
SCHEDULE_ATTR = "npu.schedule"
USAGE_ATTR = "npu.usage"
SEARCH_ATTR = "npu.search"

BUFFERINGS: tuple[str, ...] = ("single", "double")
"""How a weight stream uses fast storage: one buffer refilled per slice, or two alternating."""

STRATEGIES: tuple[str, ...] = ("Performance", "Size")
"""The scheduling policies (Vela's ``--optimise``)."""


# --- body parsing ----------------------------------------------------------------------------
def _entries(body: str | None, what: str) -> list[tuple[str | None, str]]:
    """``key = value`` entries and bare values of an attribute body, in order."""
    if body is None or not body.strip():
        raise AttributeSyntaxError(f"#npu.{what} needs a body")
    entries: list[tuple[str | None, str]] = []
    for part in (p.strip() for p in split_top_level(body)):
        if not part:
            raise AttributeSyntaxError(f"#npu.{what}: empty entry in '{body[:80]}'")
        key, eq, value = part.partition("=")
        entries.append((key.strip(), value.strip()) if eq and not key.strip().startswith("[") else (None, part))
    return entries


def _int(text: str, what: str) -> int:
    """A decimal integer of a body that fits in 64 bits."""
    if not re.fullmatch(r"-?\d+", text.strip()):
        raise AttributeSyntaxError(f"#npu.{what}: expected an integer, found '{brief_number(text[:40])}'")
    value = int(text) if len(text.strip()) <= 24 else None
    if value is None or not -INT64_MAX - 1 <= value <= INT64_MAX:
        raise AttributeSyntaxError(f"#npu.{what}: integer {brief_number(text)} does not fit in 64 bits")
    return value


def _ints(text: str, what: str) -> tuple[int, ...]:
    """``[a, b, ...]`` as ints."""
    inner = text.strip()
    if not (inner.startswith("[") and inner.endswith("]")):
        raise AttributeSyntaxError(f"#npu.{what}: expected a list '[a, b, ...]', found '{inner[:40]}'")
    return tuple(_int(part, what) for part in inner[1:-1].split(",") if part.strip())


def _shape3(text: str, what: str) -> tuple[int, int, int]:
    """``HxWxD`` as three positive ints."""
    parts = text.strip().split("x")
    if len(parts) != 3:
        raise AttributeSyntaxError(f"#npu.{what}: expected HxWxD, found '{text[:40]}'")
    return tuple(_int(p, what) for p in parts)  # type: ignore[return-value]


def _build(cls: type[Attribute], *args: object) -> Attribute:
    """``cls(*args)``, the constructor's checks reported as syntax errors of the body."""
    try:
        return cls(*args)
    except ValueError as err:
        raise AttributeSyntaxError(str(err)) from None


def _fields(body: str | None, what: str, known: tuple[str, ...]) -> tuple[list[str], dict[str, str]]:
    """Bare values and ``key = value`` fields of a body; unknown or repeated keys are errors."""
    bare: list[str] = []
    fields: dict[str, str] = {}
    for key, value in _entries(body, what):
        if key is None:
            bare.append(value)
            continue
        if key not in known:
            raise AttributeSyntaxError(f"#npu.{what}: unknown field '{key}' (expected {', '.join(known)})")
        if key in fields:
            raise AttributeSyntaxError(f"#npu.{what}: field '{key}' is given twice")
        fields[key] = value
    return bare, fields


def _require(fields: dict[str, str], key: str, what: str) -> str:
    if key not in fields:
        raise AttributeSyntaxError(f"#npu.{what}: missing field '{key}'")
    return fields[key]


def _hwd(shape: tuple[int, int, int]) -> str:
    return "x".join(str(v) for v in shape)


def _check_shape(shape: tuple[int, ...], what: str) -> tuple[int, int, int]:
    values = tuple(int(v) for v in shape)
    if len(values) != 3 or min(values) < 1:
        raise ValueError(f"#npu.{what}: a shape is three positive sizes HxWxD, not {list(values)}")
    return values  # type: ignore[return-value]


# --- attributes ------------------------------------------------------------------------------
class AllocAttr(Attribute):
    """``#npu.alloc<AREA, offset = N, size = N, live = [first, last]>``: where a tensor lives."""

    __slots__ = ("area", "offset", "size", "first", "last")
    area: str
    offset: int
    size: int
    first: int
    last: int

    def _init(self, area: str, offset: int, size: int, first: int, last: int) -> None:
        if area not in MEMORY_AREAS:
            raise ValueError(f"#npu.alloc: unknown memory area '{area}' (expected one of {', '.join(MEMORY_AREAS)})")
        if offset < 0 or size < 0:
            raise ValueError(f"#npu.alloc: offset ({offset}) and size ({size}) must not be negative")
        if first > last:
            raise ValueError(f"#npu.alloc: the live range [{first}, {last}] ends before it starts")
        for name, value in (("area", area), ("offset", int(offset)), ("size", int(size)),
                            ("first", int(first)), ("last", int(last))):
            self._set(name, value)

    @property
    def end(self) -> int:
        """The first byte after the tensor."""
        return self.offset + self.size

    def overlaps(self, other: "AllocAttr") -> bool:
        """Whether the two share a byte of the same memory while both are live."""
        return (self.area == other.area and self.first <= other.last and other.first <= self.last
                and self.offset < other.end and other.offset < self.end and self.size > 0 and other.size > 0)

    def _render(self) -> str:
        return (f"#npu.alloc<{self.area}, offset = {self.offset}, size = {self.size}, "
                f"live = [{self.first}, {self.last}]>")

    @staticmethod
    def parse(body: str | None) -> "AllocAttr":
        bare, fields = _fields(body, "alloc", ("offset", "size", "live"))
        if len(bare) != 1:
            raise AttributeSyntaxError("#npu.alloc takes one memory area before its fields")
        live = _ints(_require(fields, "live", "alloc"), "alloc")
        if len(live) != 2:
            raise AttributeSyntaxError("#npu.alloc: live is [first, last]")
        return _build(AllocAttr, bare[0], _int(_require(fields, "offset", "alloc"), "alloc"),  # type: ignore[return-value]
                      _int(_require(fields, "size", "alloc"), "alloc"), live[0], live[1])


class StreamAttr(Attribute):
    """``#npu.stream<slices = [0, d1, ..., D], buffering = single|double, buffers = [..],
    bytes = N[, prefetch]>``: how an op's encoded weights stream into fast storage."""

    __slots__ = ("slices", "buffering", "buffers", "bytes", "prefetch")
    slices: tuple[int, ...]
    buffering: str
    buffers: tuple[int, ...]
    bytes: int
    prefetch: bool

    def _init(self, slices: tuple[int, ...], buffering: str, buffers: tuple[int, ...], bytes: int,
              prefetch: bool = False) -> None:
        slices = tuple(int(v) for v in slices)
        if len(slices) < 2 or slices[0] != 0 or any(b <= a for a, b in zip(slices, slices[1:])):
            raise ValueError(f"#npu.stream: slices must start at 0 and increase, not {list(slices)}")
        if buffering not in BUFFERINGS:
            raise ValueError(f"#npu.stream: buffering is {' or '.join(BUFFERINGS)}, not '{buffering}'")
        buffers = tuple(int(v) for v in buffers)
        if len(buffers) != BUFFERINGS.index(buffering) + 1 or min(buffers) < 0:
            raise ValueError(f"#npu.stream: {buffering} buffering takes {BUFFERINGS.index(buffering) + 1} "
                             f"buffer size(s), not {list(buffers)}")
        if bytes < 0:
            raise ValueError(f"#npu.stream: bytes must not be negative, not {bytes}")
        for name, value in (("slices", slices), ("buffering", buffering), ("buffers", buffers),
                            ("bytes", int(bytes)), ("prefetch", bool(prefetch))):
            self._set(name, value)

    @classmethod
    def _key(cls, args: tuple) -> tuple:
        return (tuple(args[0]), args[1], tuple(args[2]), int(args[3]), bool(args[4]) if len(args) > 4 else False)

    @property
    def depth(self) -> int:
        """The OFM depth the slices cover."""
        return self.slices[-1]

    @property
    def buffer_bytes(self) -> int:
        """Fast-storage bytes the stream's buffers take together."""
        return sum(self.buffers)

    def _render(self) -> str:
        return (f"#npu.stream<slices = [{', '.join(map(str, self.slices))}], buffering = {self.buffering}, "
                f"buffers = [{', '.join(map(str, self.buffers))}], bytes = {self.bytes}"
                f"{', prefetch' if self.prefetch else ''}>")

    @staticmethod
    def parse(body: str | None) -> "StreamAttr":
        bare, fields = _fields(body, "stream", ("slices", "buffering", "buffers", "bytes"))
        if bare not in ([], ["prefetch"]):
            raise AttributeSyntaxError(f"#npu.stream: unexpected '{bare[0][:40]}' (the only flag is 'prefetch')")
        return _build(StreamAttr, _ints(_require(fields, "slices", "stream"), "stream"),  # type: ignore[return-value]
                      _require(fields, "buffering", "stream"),
                      _ints(_require(fields, "buffers", "stream"), "stream"),
                      _int(_require(fields, "bytes", "stream"), "stream"), bool(bare))


class StripeAttr(Attribute):
    """``#npu.stripe<HxWxD>``: the OFM stripe an op produces per step."""

    __slots__ = ("shape",)
    shape: tuple[int, int, int]

    def _init(self, shape: tuple[int, ...]) -> None:
        self._set("shape", _check_shape(shape, "stripe"))

    @classmethod
    def _key(cls, args: tuple) -> tuple:
        return (tuple(args[0]),)

    def _render(self) -> str:
        return f"#npu.stripe<{_hwd(self.shape)}>"

    @staticmethod
    def parse(body: str | None) -> "StripeAttr":
        bare, _ = _fields(body, "stripe", ())
        if len(bare) != 1:
            raise AttributeSyntaxError("#npu.stripe takes one shape HxWxD")
        return _build(StripeAttr, _shape3(bare[0], "stripe"))  # type: ignore[return-value]


class CascadeAttr(Attribute):
    """``#npu.cascade<ID[, rolling = HxWxD]>``: cascade membership (ID = the time index of the
    cascade's first op) and the rolling buffer the member's OFM lives in (None for the last)."""

    __slots__ = ("id", "rolling")
    id: int
    rolling: tuple[int, int, int] | None

    def _init(self, id: int, rolling: tuple[int, ...] | None = None) -> None:
        if id < 0:
            raise ValueError(f"#npu.cascade: the id is a time index, not {id}")
        self._set("id", int(id))
        self._set("rolling", None if rolling is None else _check_shape(rolling, "cascade"))

    @classmethod
    def _key(cls, args: tuple) -> tuple:
        rolling = args[1] if len(args) > 1 else None
        return (int(args[0]), None if rolling is None else tuple(rolling))

    def _render(self) -> str:
        return f"#npu.cascade<{self.id}{'' if self.rolling is None else ', rolling = ' + _hwd(self.rolling)}>"

    @staticmethod
    def parse(body: str | None) -> "CascadeAttr":
        bare, fields = _fields(body, "cascade", ("rolling",))
        if len(bare) != 1:
            raise AttributeSyntaxError("#npu.cascade takes one id (a time index) before its fields")
        rolling = _shape3(fields["rolling"], "cascade") if "rolling" in fields else None
        return _build(CascadeAttr, _int(bare[0], "cascade"), rolling)  # type: ignore[return-value]


GROWTHS: tuple[str, ...] = ("vela", "full", "cost")
"""How npu-form-cascades grows a cascade's stripes (see passes/schedule/cascade_builder.py)."""


SCHEDULE_FLAGS: tuple[str, ...] = ("prefetch_overlap", "cascade_joins", "fastest_blocks", "memory_order",
                                   "cascade_branches", "cascade_concats")
"""The bare flags ``#npu.schedule`` takes after its strategy (each at most once)."""


class ScheduleAttr(Attribute):
    """``#npu.schedule<STRATEGY, arena_cache_size = N, sram_target = N[, stripe_growth = full]
    [, buffer_limit = N][, width_bands = N][, prefetch_overlap][, cascade_joins][, fastest_blocks][, memory_order]
    [, cascade_branches][, cascade_concats]>``: the policy and the fast-storage limits a module was
    scheduled for, and nine choices beyond Vela's (all off unless written): chains of windowed ops
    cut into ``width_bands`` column bands (npu-width-bands); under Size, a ``buffer_limit`` the passes
    after the cascades fill up to (weight buffers, feature maps kept in fast storage) instead of
    the cascaded MIN schedule's peak, so the least memory for feature maps meets buffered weights
    (npu-form-cascades writes the larger of the two as the SRAM target);
    stripe growth that tries every stripe height (``full``; Vela stops at the first that does not
    fit); prefetched weight buffers allowed onto bytes the previous op frees, paying for it in
    cycles where they then do (npu-allocate's ``prefetch-overlap``; npu-form-cascades writes it
    under Size); cascades that run through a binary elementwise op of two feature maps whose
    second one is whole and written outside the cascade, such as a residual add
    (npu-form-cascades' ``cascade-joins``); and each op's block config chosen for the fewest
    estimated cycles instead of Vela's traffic score (npu-select-block-config's
    ``choose=cycles``); and the NPU ops between two CPU ops run in the order that keeps the fewest
    bytes live (npu-order's ``order=memory``); and cascades that run through a residual block whole,
    the op whose OFM the block and its join both read rolling in a taller buffer
    (npu-form-cascades' ``cascade-branches``, which implies joins); and cascades through a
    concatenation, its parts' writers and its reader one cascade and the concatenation a rolling
    buffer, an op whose OFM several of them read a member too (``cascade-concats``). The flags (SCHEDULE_FLAGS, one
    field each) are bare words after the strategy or the fields, in any order, each at most once."""

    __slots__ = ("strategy", "arena_cache_size", "sram_target", "stripe_growth", "prefetch_overlap", "cascade_joins",
                 "fastest_blocks", "memory_order", "cascade_branches", "cascade_concats", "buffer_limit", "width_bands")
    strategy: str
    arena_cache_size: int
    sram_target: int
    stripe_growth: str
    prefetch_overlap: bool
    cascade_joins: bool
    fastest_blocks: bool
    memory_order: bool
    cascade_branches: bool
    cascade_concats: bool
    buffer_limit: int
    """Size only (0: none): fast-storage bytes the passes after the cascades (weight buffers,
    feature maps kept in fast storage) may fill when more than the cascaded MIN schedule's peak."""
    width_bands: int
    """Column bands each chain of windowed ops is cut into (npu-width-bands; 1: none)."""

    def _init(self, strategy: str, arena_cache_size: int, sram_target: int, stripe_growth: str = "vela",
              prefetch_overlap: bool = False, cascade_joins: bool = False, fastest_blocks: bool = False,
              memory_order: bool = False, cascade_branches: bool = False, cascade_concats: bool = False,
              buffer_limit: int = 0, width_bands: int = 1) -> None:
        if strategy not in STRATEGIES:
            raise ValueError(f"#npu.schedule: unknown strategy '{strategy}' (expected {' or '.join(STRATEGIES)})")
        if arena_cache_size < 0 or sram_target < 0 or buffer_limit < 0:
            raise ValueError("#npu.schedule: limits must not be negative")
        if width_bands < 1:
            raise ValueError(f"#npu.schedule: width_bands must be at least 1, not {width_bands}")
        if stripe_growth not in GROWTHS:
            raise ValueError(f"#npu.schedule: unknown stripe_growth '{stripe_growth}' (expected {' or '.join(GROWTHS)})")
        self._set("strategy", strategy)
        self._set("arena_cache_size", int(arena_cache_size))
        self._set("sram_target", int(sram_target))
        self._set("stripe_growth", stripe_growth)
        self._set("prefetch_overlap", bool(prefetch_overlap))
        self._set("cascade_joins", bool(cascade_joins))
        self._set("fastest_blocks", bool(fastest_blocks))
        self._set("memory_order", bool(memory_order))
        self._set("cascade_branches", bool(cascade_branches))
        self._set("cascade_concats", bool(cascade_concats))
        self._set("buffer_limit", int(buffer_limit))
        self._set("width_bands", int(width_bands))

    @classmethod
    def _key(cls, args: tuple) -> tuple:
        strategy, arena, target, *rest = args
        flags = [bool(f) for f in rest[1:1 + len(SCHEDULE_FLAGS)]]
        limit = rest[1 + len(SCHEDULE_FLAGS)] if len(rest) > 1 + len(SCHEDULE_FLAGS) else 0
        bands = rest[2 + len(SCHEDULE_FLAGS)] if len(rest) > 2 + len(SCHEDULE_FLAGS) else 1
        return (strategy, int(arena), int(target), rest[0] if rest else "vela",
                *flags, *[False] * (len(SCHEDULE_FLAGS) - len(flags)), int(limit), int(bands))

    @classmethod
    def for_point(cls, strategy: str, arena_cache_size: int, sram_target: int, flags: tuple[str, ...],
                  buffer_limit: int = 0, width_bands: int = 1) -> "ScheduleAttr":
        """The schedule a search point's knobs make: its strategy and target, ``flags`` from
        POINT_FLAGS (``full_growth`` for ``stripe_growth = full``, ``cost_growth`` for
        ``stripe_growth = cost``, the others by their name) and the numbers of the valued ones."""
        growth = "full" if "full_growth" in flags else "cost" if "cost_growth" in flags else "vela"
        return ScheduleAttr(strategy, arena_cache_size, sram_target, growth,
                            *(flag in flags for flag in SCHEDULE_FLAGS), buffer_limit, width_bands)

    def point_flags(self) -> tuple[str, ...]:
        """The POINT_FLAGS this schedule sets (``for_point``'s inverse)."""
        growth = {"full": ("full_growth",), "cost": ("cost_growth",)}.get(self.stripe_growth, ())
        return growth + tuple(
            flag for flag in SCHEDULE_FLAGS if getattr(self, flag)) + (("buffer_limit",) if self.buffer_limit else ()) \
            + (("width_bands",) if self.width_bands > 1 else ())

    def replaced(self, **changes: object) -> "ScheduleAttr":
        """This attribute with the named fields changed."""
        fields = {name: getattr(self, name) for name in self.__slots__}
        fields.update(changes)
        return ScheduleAttr(*(fields[name] for name in self.__slots__))

    def _render(self) -> str:
        extra = "" if self.stripe_growth == "vela" else f", stripe_growth = {self.stripe_growth}"
        extra += f", buffer_limit = {self.buffer_limit}" if self.buffer_limit else ""
        extra += f", width_bands = {self.width_bands}" if self.width_bands > 1 else ""
        extra += "".join(f", {flag}" for flag in SCHEDULE_FLAGS if getattr(self, flag))
        return (f"#npu.schedule<{self.strategy}, arena_cache_size = {self.arena_cache_size}, "
                f"sram_target = {self.sram_target}{extra}>")

    @staticmethod
    def parse(body: str | None) -> "ScheduleAttr":
        bare, fields = _fields(body, "schedule", ("arena_cache_size", "sram_target", "stripe_growth", "buffer_limit",
                                                  "width_bands"))
        if not bare or bare[0] in SCHEDULE_FLAGS:
            raise AttributeSyntaxError("#npu.schedule takes one strategy before its fields")
        flags = bare[1:]
        for index, flag in enumerate(flags):
            if flag not in SCHEDULE_FLAGS or flag in flags[:index]:
                raise AttributeSyntaxError(f"#npu.schedule: unexpected '{flag[:40]}' (the flags after the strategy "
                                           f"are {', '.join(SCHEDULE_FLAGS[:-1])} and {SCHEDULE_FLAGS[-1]}, each once)")
        return _build(ScheduleAttr, bare[0],  # type: ignore[return-value]
                      _int(_require(fields, "arena_cache_size", "schedule"), "schedule"),
                      _int(_require(fields, "sram_target", "schedule"), "schedule"),
                      fields.get("stripe_growth", "vela"), *(flag in flags for flag in SCHEDULE_FLAGS),
                      _int(fields.get("buffer_limit", "0"), "schedule"), _int(fields.get("width_bands", "1"), "schedule"))


class UsageAttr(Attribute):
    """``#npu.usage<Sram = [used, bound], ...>``: per memory area, the bytes the allocation
    spans and the lower bound (the most bytes live at any one time)."""

    __slots__ = ("areas",)
    areas: tuple[tuple[str, int, int], ...]

    def _init(self, areas: tuple[tuple[str, int, int], ...]) -> None:
        checked = []
        for area, used, bound in areas:
            if area not in MEMORY_AREAS:
                raise ValueError(f"#npu.usage: unknown memory area '{area}' (expected one of {', '.join(MEMORY_AREAS)})")
            if min(used, bound) < 0:
                raise ValueError(f"#npu.usage: byte counts of {area} must not be negative")
            checked.append((area, int(used), int(bound)))
        if len({a for a, _, _ in checked}) != len(checked):
            raise ValueError("#npu.usage: a memory area is given twice")
        self._set("areas", tuple(checked))

    @classmethod
    def _key(cls, args: tuple) -> tuple:
        return (tuple(tuple(a) for a in args[0]),)

    def __iter__(self) -> Iterator[tuple[str, int, int]]:
        return iter(self.areas)

    def used(self, area: str) -> int:
        """Bytes the allocation of ``area`` spans (0 when nothing lives there)."""
        return next((u for a, u, _ in self.areas if a == area), 0)

    def _render(self) -> str:
        return "#npu.usage<" + ", ".join(f"{a} = [{u}, {b}]" for a, u, b in self.areas) + ">"

    @staticmethod
    def parse(body: str | None) -> "UsageAttr":
        entries = []
        for key, value in _entries(body, "usage"):
            if key is None:
                raise AttributeSyntaxError(f"#npu.usage: expected AREA = [used, bound], found '{value[:40]}'")
            pair = _ints(value, "usage")
            if len(pair) != 2:
                raise AttributeSyntaxError(f"#npu.usage: {key} takes [used, bound]")
            entries.append((key, pair[0], pair[1]))
        return _build(UsageAttr, tuple(entries))  # type: ignore[return-value]


POINT_FLAGS: tuple[str, ...] = ("full_growth", "cost_growth", "prefetch_overlap", "cascade_joins", "fastest_blocks", "memory_order",
                                "cascade_branches", "cascade_concats", "buffer_limit", "width_bands")
"""The knobs beyond strategy and SRAM target a search point may set (``npu.schedule``'s
``stripe_growth = full`` and its flags, SCHEDULE_FLAGS; ``buffer_limit`` for a nonzero ``buffer_limit``;
``width_bands`` for more than one column band)."""

KNOB_WORDS: dict[str, str] = {"full_growth": "full stripe growth", "cost_growth": "stripe heights by cost",
                              "prefetch_overlap": "prefetch overlap",
                              "cascade_joins": "cascade joins", "fastest_blocks": "fastest block configs",
                              "memory_order": "memory-aware order", "cascade_branches": "cascade branches",
                              "cascade_concats": "cascades through concatenations",
                              "buffer_limit": "buffers filling the budget", "width_bands": "column bands"}
"""Each of POINT_FLAGS in words, for remarks and summaries."""


def knob_phrases(flags: tuple[str, ...], buffer_limit: int = 0, width_bands: int = 1,
                 size: Callable[[int], str] = lambda n: f"{n} bytes") -> tuple[str, ...]:
    """Each of ``flags`` (POINT_FLAGS) in words, the valued ones with their number (``size``
    writes a byte count): what remarks and summaries say of a search point's knobs."""
    return tuple(f"buffers filling {size(buffer_limit)}" if flag == "buffer_limit"
                 else f"{width_bands} column bands" if flag == "width_bands" else KNOB_WORDS[flag] for flag in flags)


VALUED_FLAGS: tuple[str, ...] = ("buffer_limit", "width_bands")
"""The POINT_FLAGS that stand for a number (``npu.schedule``'s field of that name): a frontier
point writes them ``name = N``, so the point says the whole schedule that makes it."""


class SearchPoint(NamedTuple):
    """One frontier point: the knobs that make it (strategy, SRAM target, flags from
    POINT_FLAGS with the numbers of the VALUED_FLAGS) and what it costs (total cycles, SRAM bytes)."""

    strategy: str
    sram_target: int
    cycles: int
    sram: int
    flags: tuple[str, ...] = ()
    buffer_limit: int = 0
    """With the ``buffer_limit`` flag: the bytes Size's later passes filled."""
    width_bands: int = 1
    """With the ``width_bands`` flag: the column bands chains were cut into."""

    def knob_words(self, separator: str = " = ") -> tuple[str, ...]:
        """The flags, each valued one as ``name<separator>N``: how ``#npu.search`` and the
        frontier table write them."""
        return tuple(f"{flag}{separator}{getattr(self, flag)}" if flag in VALUED_FLAGS else flag
                     for flag in self.flags)

    def schedule(self, arena_cache_size: int) -> "ScheduleAttr":
        """The ``npu.schedule`` that makes this point (the passes after the search then build it)."""
        return ScheduleAttr.for_point(self.strategy, arena_cache_size, self.sram_target, self.flags,
                                      self.buffer_limit, self.width_bands)


class SearchAttr(Attribute):
    """``#npu.search<budget = N, chosen = K, performance = [cycles, sram], size = [cycles, sram],
    points = [[STRATEGY, sram_target, cycles, sram(, FLAG)*], ...]>``: the frontier a schedule
    search found, the point it chose, and where the Vela-equivalent Performance and Size schedules
    (the same passes at the arena cache size) landed (see the module docstring). Points are
    non-dominated and ordered by cycles (fastest first); a point's flags (POINT_FLAGS) are the
    knobs it sets beyond its strategy and target, the VALUED_FLAGS with their number
    (``buffer_limit = N``, ``width_bands = N``)."""

    __slots__ = ("budget", "chosen", "performance", "size", "points")
    budget: int
    chosen: int
    performance: tuple[int, int] | None
    size: tuple[int, int] | None
    points: tuple[SearchPoint, ...]

    def _init(self, budget: int, chosen: int, performance: tuple[int, int] | None, size: tuple[int, int] | None,
              points: tuple[tuple, ...]) -> None:
        checked = []
        for point in points:
            strategy, target, cycles, sram, *rest = point
            flags = tuple(rest[0]) if rest else ()
            values = {name: int(value) for name, value in zip(VALUED_FLAGS, rest[1:])}
            if strategy not in STRATEGIES:
                raise ValueError(f"#npu.search: unknown strategy '{strategy}' (expected {' or '.join(STRATEGIES)})")
            if min(target, cycles, sram) < 0:
                raise ValueError("#npu.search: a point's SRAM target, cycles and bytes must not be negative")
            unknown = [f for f in flags if f not in POINT_FLAGS]
            if unknown or len(set(flags)) != len(flags):
                raise ValueError(f"#npu.search: a point's flags are some of {', '.join(POINT_FLAGS)}, once each, "
                                 f"not {', '.join(flags)}")
            limit, bands = values.get("buffer_limit", 0), values.get("width_bands", 1)
            if ("buffer_limit" in flags) != (limit > 0) or ("width_bands" in flags) != (bands > 1):
                raise ValueError(f"#npu.search: a point has buffer_limit = N (N > 0) exactly when it has the "
                                 f"buffer_limit flag and width_bands = N (N > 1) exactly when it has that flag, "
                                 f"not flags {', '.join(flags) or 'none'} with buffer_limit = {limit}, "
                                 f"width_bands = {bands}")
            checked.append(SearchPoint(strategy, int(target), int(cycles), int(sram), flags, limit, bands))
        if budget < 0:
            raise ValueError(f"#npu.search: the budget must not be negative, not {budget}")
        if not checked or not 0 <= chosen < len(checked):
            raise ValueError(f"#npu.search: chosen = {chosen} names none of the {len(checked)} points")
        ends = []
        for name, end in (("performance", performance), ("size", size)):
            if end is not None and (len(end) != 2 or min(end) < 0):
                raise ValueError(f"#npu.search: {name} is [cycles, sram] of two counts, not {list(end)}")
            ends.append(None if end is None else (int(end[0]), int(end[1])))
        self._set("budget", int(budget))
        self._set("chosen", int(chosen))
        self._set("performance", ends[0])
        self._set("size", ends[1])
        self._set("points", tuple(checked))

    @classmethod
    def _key(cls, args: tuple) -> tuple:
        points = tuple((*p[:4], tuple(p[4]) if len(p) > 4 else (), int(p[5]) if len(p) > 5 else 0,
                        int(p[6]) if len(p) > 6 else 1) for p in args[4])
        return (args[0], args[1], None if args[2] is None else tuple(args[2]),
                None if args[3] is None else tuple(args[3]), points)

    def _render(self) -> str:
        fields = [f"budget = {self.budget}", f"chosen = {self.chosen}"]
        for name, end in (("performance", self.performance), ("size", self.size)):
            if end is not None:
                fields.append(f"{name} = [{end[0]}, {end[1]}]")
        points = ", ".join("[" + ", ".join([p.strategy, str(p.sram_target), str(p.cycles), str(p.sram),
                                            *p.knob_words()]) + "]"
                           for p in self.points)
        return f"#npu.search<{', '.join(fields)}, points = [{points}]>"

    @staticmethod
    def parse(body: str | None) -> "SearchAttr":
        bare, fields = _fields(body, "search", ("budget", "chosen", "performance", "size", "points"))
        if bare:
            raise AttributeSyntaxError(f"#npu.search: unexpected '{bare[0][:40]}'")
        text = _require(fields, "points", "search").strip()
        if not (text.startswith("[") and text.endswith("]")):
            raise AttributeSyntaxError(f"#npu.search: points must be a list, found '{text[:40]}'")
        points = []
        for part in (p.strip() for p in split_top_level(text[1:-1])):
            inner = part[1:-1] if part.startswith("[") and part.endswith("]") else None
            values = [f.strip() for f in inner.split(",")] if inner is not None else []
            if len(values) < 4:
                raise AttributeSyntaxError(f"#npu.search: a point is [STRATEGY, sram_target, cycles, sram, FLAG...], "
                                           f"not '{part[:60]}'")
            flags, valued = [], {}
            for word in values[4:]:
                name, equals, number = (w.strip() for w in word.partition("="))
                if equals and name not in VALUED_FLAGS:
                    raise AttributeSyntaxError(f"#npu.search: '{word[:40]}': of a point's flags only "
                                               f"{' and '.join(VALUED_FLAGS)} take a number")
                if not equals and name in VALUED_FLAGS:
                    raise AttributeSyntaxError(f"#npu.search: a point's '{name}' takes its number, as '{name} = N'")
                flags.append(name)
                if equals:
                    valued[name] = _int(number, "search")
            points.append((values[0], *(_int(f, "search") for f in values[1:4]), tuple(flags),
                           *(valued.get(name, default) for name, default in zip(VALUED_FLAGS, (0, 1)))))
        ends = [_ints(fields[name], "search") if name in fields else None for name in ("performance", "size")]
        return _build(SearchAttr, _int(_require(fields, "budget", "search"), "search"),  # type: ignore[return-value]
                      _int(_require(fields, "chosen", "search"), "search"), ends[0], ends[1], tuple(points))


PARSERS = {"alloc": AllocAttr.parse, "stream": StreamAttr.parse, "stripe": StripeAttr.parse,
           "cascade": CascadeAttr.parse, "schedule": ScheduleAttr.parse, "usage": UsageAttr.parse,
           "search": SearchAttr.parse}
"""Attribute name -> parser of its body, registered on the npu dialect."""

__all__ = [
    "ALLOC_ATTR", "ARG_ALLOC_ATTR", "AllocAttr", "BUFFERINGS", "CASCADE_ATTR", "CascadeAttr", "PARSERS",
    "SECOND_BUFFER_ATTR", "GROWTHS", "KNOB_WORDS", "POINT_FLAGS", "VALUED_FLAGS", "knob_phrases", "SCHEDULE_ATTR", "SCHEDULE_FLAGS", "SEARCH_ATTR", "SearchPoint", "STRATEGIES", "SearchAttr", "STREAM_ATTR", "STRIPE_ATTR", "ScheduleAttr", "StreamAttr", "StripeAttr",
    "TIME_ATTR", "UNHIDDEN_ATTR", "USAGE_ATTR", "UsageAttr",
]
