"""Declared attributes (ir/attrdef.py): round trip, defaults, constraints with located errors, docs."""
from __future__ import annotations

import pytest

from npu_opt.ir.attr_params import Bool, Dims, Int, List, Map, Record, Word
from npu_opt.ir.attrdef import BODY, ENTRIES, FLAG, POSITIONAL, WORDS, AttrDef, Param
from npu_opt.ir.type_parser import AttributeSyntaxError


class Tile(AttrDef):
    """A test record written ``[...]``."""

    kind = Param(Word(("a", "b")), POSITIONAL)
    speed = Param(Word(("slow", "fast")), WORDS, default="slow", words={"fast": "quick"})


class Sample(AttrDef):
    """A test attribute with every kind of parameter."""

    NAME = "test.sample"
    area = Param(Word(("Sram", "Dram"), "memory area"), POSITIONAL)
    shape = Param(Dims(3), POSITIONAL, default=None)
    size = Param(Int(0))
    limit = Param(Int(1), default=1, doc="at least one")
    pair = Param(List(Int(), 2), default=(0, 0), print_default=True)
    tiles = Param(List(Record(Tile)), default=())
    fast = Param(Bool(), FLAG)

    def verify(self) -> None:
        if self.pair[0] > self.pair[1]:
            raise ValueError(f"pair {list(self.pair)} decreases")


class Usage(AttrDef):
    NAME = "test.usage"
    entries = Param(Map(Word(("Sram", "Dram")), List(Int(0), 2)), ENTRIES)


class Offsets(AttrDef):
    NAME = "test.offsets"
    values = Param(List(Int(0), brackets=False), BODY)


def test_round_trip_and_defaults():
    attr = Sample.parse("Sram, size = 16")
    assert str(attr) == "#test.sample<Sram, size = 16, pair = [0, 0]>"
    assert (attr.limit, attr.shape, attr.fast, attr.tiles) == (1, None, False, ())
    full = Sample.parse("Dram, 2x4x8, fast, size = 3, limit = 4, pair = [1, 2], tiles = [[a], [b, quick]]")
    assert str(full) == ("#test.sample<Dram, 2x4x8, size = 3, limit = 4, pair = [1, 2], tiles = [[a], [b, quick]], "
                         "fast>")
    assert Sample.parse(str(full)[len("#test.sample<"):-1]) is full  # interned: equal is identical
    assert full.tiles[1].speed == "fast"
    assert Sample("Dram", (2, 4, 8), 3, 4, [1, 2], (Tile("a"), Tile("b", "fast")), True) is full
    assert full.replaced(fast=False) is Sample.build(area="Dram", shape=(2, 4, 8), size=3, limit=4, pair=(1, 2),
                                                     tiles=(("a",), ("b", "fast")))
    assert hash(full) == hash(Sample.parse(str(full)[len("#test.sample<"):-1]))


def test_entries_and_whole_body():
    assert str(Usage.parse("Dram = [1, 2], Sram = [3, 4]")) == "#test.usage<Dram = [1, 2], Sram = [3, 4]>"
    assert Offsets.parse("[1, 2, 3]") is Offsets.parse("1, 2, 3") is Offsets((1, 2, 3))
    assert str(Offsets(())) == "#test.offsets<>"


@pytest.mark.parametrize("body, message, offset", [
    ("Sram", "#test.sample: missing field 'size'", 0),
    ("size = 1", "#test.sample: missing its area (one of Sram, Dram) as the first value", 0),
    ("L2, size = 1", "#test.sample: unknown memory area 'L2' (expected Sram or Dram)", 0),
    ("Sram, size = -1", "#test.sample: size must not be negative, not -1", 6),
    ("Sram, size = 1, limit = 0", "#test.sample: limit must be at least 1, not 0", 16),
    ("Sram, size = 1, pair = [2, 1]", "#test.sample: pair [2, 1] decreases", 0),
    ("Sram, size = 1, pair = [1]", "#test.sample: pair takes 2 values, not [1]", 16),
    ("Sram, size = x1", "#test.sample: expected an integer, found 'x1'", 6),
    ("Sram, size = 1, sise = 2", "#test.sample: unknown field 'sise'; did you mean 'size'? (expected size, limit, pair or tiles)", 16),
    ("Sram, size = 1, size = 2", "#test.sample: field 'size' is given twice", 16),
    ("Sram, size = 1, fast = 1", "#test.sample: 'fast' is a flag and takes no value", 16),
    ("Sram, 1x1x1, size = 1, slow", "#test.sample: unexpected 'slow' (the flags are fast, each at most once)", 23),
    ("Sram, size, fast", "#test.sample: 'size' takes a value, as 'size = ...'", 6),
    ("Sram, size = 99999999999999999999999", "#test.sample: integer 99999999999999999999999 does not fit in 64 bits", 6),
    ("Sram, size = 1, tiles = [[c]]", "#test.sample: unknown kind 'c' (expected a or b)", 16),
    ("Sram, 0x1x1, size = 1", "#test.sample: shape must be 3 positive sizes HxWxD, not [0, 1, 1]", 6),
])
def test_constraint_violations_are_one_error_at_the_entry(body, message, offset):
    with pytest.raises(AttributeSyntaxError) as info:
        Sample.parse(body)
    assert str(info.value) == message and info.value.offset == offset


def test_python_construction_checks_the_same_constraints():
    with pytest.raises(ValueError, match="size must not be negative"):
        Sample("Sram", None, -1)
    with pytest.raises(ValueError, match=r"pair \[3, 1\] decreases"):
        Sample("Sram", None, 1, 1, (3, 1))
    assert Sample("Sram", None, 1, 1, (1, 3)).pair == (1, 3)  # (a failed build is not interned)


def test_docs_come_from_the_declaration():
    text = Sample.describe()
    assert text.startswith("### `#test.sample`\n\nA test attribute with every kind of parameter.")
    assert "- `limit` (`limit = ...`; an integer at least 1, default 1): at least one" in text
    assert "- `fast` (flag `fast`; a flag)" in text
    assert "Tile (written `[...]`)" in Tile.describe()
