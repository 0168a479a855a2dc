"""The IR's object model: values, operations, blocks and regions.

Operations live in a block's doubly linked list, so insertion and erasure are O(1).
Values keep use lists, so replacing all uses is O(uses). Mutate through ir.rewriter.Rewriter,
which keeps use lists, dataflow graphs and change statistics consistent.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Iterable, Iterator, Sequence

from npu_opt.ir.location import UNKNOWN_LOC, FileLineColLoc, Location
from npu_opt.ir.types import Type

if TYPE_CHECKING:
    from npu_opt.ir.attributes import Attribute


class Value:
    """An SSA value: an operation result or a block argument."""

    __slots__ = ("type", "uses")
    type: Type
    uses: list[tuple["Operation", int]]

    @property
    def owner(self) -> "Operation | Block":  # pragma: no cover - overridden
        raise NotImplementedError

    def users(self) -> list["Operation"]:
        """The distinct operations using this value, in use order."""
        uses = self.uses
        if len(uses) < 2:  # (the common case, without building a table)
            return [op for op, _ in uses]
        return list({id(op): op for op, _ in uses}.values())

    def has_uses(self) -> bool:
        return bool(self.uses)


class OpResult(Value):
    __slots__ = ("op", "index")

    def __init__(self, type: Type, op: "Operation", index: int) -> None:
        self.type = type
        self.uses = []
        self.op = op
        self.index = index

    @property
    def owner(self) -> "Operation":
        return self.op

    def __repr__(self) -> str:
        return f"<result #{self.index} of {self.op.name}: {self.type}>"


class BlockArgument(Value):
    """A block's argument; ``location`` is where it came from, if known (printed with debuginfo)."""

    __slots__ = ("block", "index", "location")

    def __init__(self, type: Type, block: "Block", index: int, location: Location | None = None) -> None:
        self.type = type
        self.uses = []
        self.block = block
        self.index = index
        self.location = location

    @property
    def owner(self) -> "Block":
        return self.block

    def __repr__(self) -> str:
        return f"<block argument #{self.index}: {self.type}>"


class Operation:
    """A generic operation. Registered ops are subclasses (see ir.opdef) with accessors and verifiers.

    ``attributes`` are discardable attributes (``{...}``), ``properties`` the inherent ones (``<{...}>``).
    ``location`` is the op's semantic location; ``pos`` the place it was parsed from, if any.
    """

    __slots__ = ("name", "operands", "results", "attributes", "properties", "regions", "successors",
                 "location", "pos", "parent", "prev", "next", "__weakref__")

    OP_NAME: ClassVar[str] = ""
    registered: ClassVar[bool] = False

    name: str
    operands: list[Value]
    results: list[OpResult]
    attributes: dict[str, "Attribute"]
    properties: dict[str, "Attribute"]
    regions: list["Region"]
    successors: list["Block"]
    location: Location
    pos: FileLineColLoc | None
    parent: "Block | None"
    prev: "Operation | None"
    next: "Operation | None"

    def __init__(
        self,
        name: str,
        operands: Sequence[Value] = (),
        result_types: Sequence[Type] = (),
        attributes: dict[str, "Attribute"] | None = None,
        properties: dict[str, "Attribute"] | None = None,
        regions: Sequence["Region"] = (),
        successors: Sequence["Block"] = (),
        location: Location = UNKNOWN_LOC,
        pos: FileLineColLoc | None = None,
    ) -> None:
        self.name = name
        self.operands = list(operands)
        for index, value in enumerate(self.operands):
            value.uses.append((self, index))
        self.results = [OpResult(t, self, i) for i, t in enumerate(result_types)]
        self.attributes = attributes if attributes is not None else {}
        self.properties = properties if properties is not None else {}
        self.regions = list(regions)
        for region in self.regions:
            region.parent = self
        self.successors = list(successors)
        self.location = location
        self.pos = pos
        self.parent = None
        self.prev = None
        self.next = None

    # -- convenience -------------------------------------------------------------------------
    @property
    def dialect(self) -> str:
        return self.name.split(".", 1)[0]

    @property
    def result(self) -> OpResult:
        """The single result; ValueError when the op has none or several."""
        if len(self.results) != 1:
            raise ValueError(f"'{self.name}' has {len(self.results)} results, not one")
        return self.results[0]

    def attr(self, key: str, default: Any = None) -> Any:
        """An inherent (property) or discardable attribute by name, properties first."""
        found = self.properties.get(key)
        if found is None:
            found = self.attributes.get(key, default)
        return found

    def parent_op(self) -> "Operation | None":
        block = self.parent
        if block is None or block.parent is None:
            return None
        return block.parent.parent

    def ancestors(self) -> Iterator["Operation"]:
        op = self.parent_op()
        while op is not None:
            yield op
            op = op.parent_op()

    def walk(self) -> Iterator["Operation"]:
        """This op and every op nested in its regions, in pre-order."""
        yield self
        for region in self.regions:
            for block in region.blocks:
                op = block.first
                while op is not None:
                    nxt = op.next
                    if op.regions:
                        yield from op.walk()
                    else:
                        yield op
                    op = nxt

    def users(self) -> list["Operation"]:
        seen: dict[int, Operation] = {}
        for result in self.results:
            for user, _ in result.uses:
                seen.setdefault(id(user), user)
        return list(seen.values())

    def has_trait(self, trait: type) -> bool:
        return False

    def has_any_trait(self, traits: frozenset[type]) -> bool:
        """Whether the op has one of ``traits`` (one set test where passes ask several in a row)."""
        return False

    def trait(self, kind: type) -> Any:
        """The op's trait of class ``kind``, or None (an unregistered op declares none)."""
        return None

    def is_before_in_block(self, other: "Operation") -> bool:
        """True if this op comes before ``other`` in the same block (linear scan)."""
        op = self.next
        while op is not None:
            if op is other:
                return True
            op = op.next
        return False

    def diag_location(self) -> Location:
        """Where diagnostics about this op point: the parse position if known."""
        return self.pos if self.pos is not None else self.location

    # -- low-level mutation (use ir.rewriter.Rewriter in passes) -------------------------------
    def _set_operand(self, index: int, value: Value) -> None:
        old = self.operands[index]
        old.uses.remove((self, index))
        self.operands[index] = value
        value.uses.append((self, index))

    def _drop_operand_uses(self) -> None:
        for index, value in enumerate(self.operands):
            try:
                value.uses.remove((self, index))
            except ValueError:
                pass

    def _set_operands(self, values: Sequence[Value]) -> None:
        self._drop_operand_uses()
        self.operands = list(values)
        for index, value in enumerate(self.operands):
            value.uses.append((self, index))

    def detach(self) -> None:
        """Unlink from the parent block without touching uses."""
        block = self.parent
        if block is None:
            return
        if self.prev is None:
            block.first = self.next
        else:
            self.prev.next = self.next
        if self.next is None:
            block.last = self.prev
        else:
            self.next.prev = self.prev
        block.count -= 1
        self.parent = self.prev = self.next = None

    def __repr__(self) -> str:
        return f"<{self.name} at {self.diag_location()}>"


class Block:
    """A list of operations with typed arguments. Ops are linked through ``prev``/``next``."""

    __slots__ = ("args", "first", "last", "count", "parent", "__weakref__")

    def __init__(self, arg_types: Iterable[Type] = ()) -> None:
        self.args: list[BlockArgument] = [BlockArgument(t, self, i) for i, t in enumerate(arg_types)]
        self.first: Operation | None = None
        self.last: Operation | None = None
        self.count = 0
        self.parent: Region | None = None

    @property
    def ops(self) -> Iterator[Operation]:
        """Iterate over the block's ops; safe against erasing the op just yielded."""
        op = self.first
        while op is not None:
            nxt = op.next
            yield op
            op = nxt

    def ops_reversed(self) -> Iterator[Operation]:
        op = self.last
        while op is not None:
            prv = op.prev
            yield op
            op = prv

    def __len__(self) -> int:
        return self.count

    def add_arg(self, type: Type) -> BlockArgument:
        arg = BlockArgument(type, self, len(self.args))
        self.args.append(arg)
        return arg

    def append(self, op: Operation) -> Operation:
        """Link ``op`` at the end (low level; the rewriter's insert methods also notify)."""
        if op.parent is not None:
            raise ValueError(f"{op.name} is already in a block")
        op.parent = self
        op.prev = self.last
        op.next = None
        if self.last is None:
            self.first = op
        else:
            self.last.next = op
        self.last = op
        self.count += 1
        return op

    def insert_before(self, op: Operation, anchor: Operation) -> Operation:
        if op.parent is not None:
            raise ValueError(f"{op.name} is already in a block")
        op.parent = self
        op.next = anchor
        op.prev = anchor.prev
        if anchor.prev is None:
            self.first = op
        else:
            anchor.prev.next = op
        anchor.prev = op
        self.count += 1
        return op

    def terminator(self) -> Operation | None:
        return self.last

    def parent_op(self) -> Operation | None:
        return self.parent.parent if self.parent is not None else None

    def index_in_region(self) -> int:
        assert self.parent is not None
        return self.parent.blocks.index(self)


class Region:
    """A list of blocks owned by an operation."""

    __slots__ = ("blocks", "parent", "graph_cache", "__weakref__")

    def __init__(self, blocks: Iterable[Block] = ()) -> None:
        self.blocks: list[Block] = []
        self.parent: Operation | None = None
        self.graph_cache: Any = None
        for block in blocks:
            self.add_block(block)

    def add_block(self, block: Block) -> Block:
        block.parent = self
        self.blocks.append(block)
        return block

    @property
    def entry(self) -> Block | None:
        return self.blocks[0] if self.blocks else None

    def ops(self) -> Iterator[Operation]:
        """Top-level ops of every block, in order."""
        for block in self.blocks:
            yield from block.ops
