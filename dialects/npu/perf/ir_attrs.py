"""How block configs and costs appear in the IR: ``#npu.block<...>`` and ``#npu.cost<...>``.

``npu-select-block-config`` puts an ``npu.block`` attribute on every NPU compute op and
``npu-estimate`` an ``npu.cost`` attribute (and the module's sums as ``npu.cost_totals``):

* ``#npu.block<13x6x16, ifm = 32x8x8, acc = 32, traversal = part_kernel>``: the OFM block
  (height x width x depth), the IFM block feeding it, the accumulator width and the weight
  traversal (``depth_first`` or ``part_kernel``);
* ``#npu.cost<total = 21994, npu = 21994, compute = 20810, dma = 4496, sram = 3560, dram = 0,
  on_chip_flash = 0, off_chip_flash = 0, macs = 480000, hw_macs = 512000,
  read = [..], written = [..]>``: cycles (the op's total, the NPU column with unhidden DMA, the
  compute pipeline alone, its DMA transfers), access cycles per memory, network and hardware MAC
  counts, and bytes read and written per memory in the order Sram, Dram, OnChipFlash,
  OffChipFlash.

Both parse back from their printed form. The npu dialect registers their parsers when it loads
(dialects/npu/__init__.py), so they parse whatever else has been imported.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from npu_opt.dialects.npu.perf.block_config import BlockConfig, check_block_config, select_block_config
from npu_opt.dialects.npu.perf.estimate import OpCost
from npu_opt.dialects.npu.perf.shape import Shape4
from npu_opt.dialects.npu.schedule_attrs import STRIPE_ATTR, StripeAttr
from npu_opt.ir.attributes import Attribute
from npu_opt.ir.core import Operation
from npu_opt.ir.type_parser import split_top_level

if TYPE_CHECKING:
    from npu_opt.dialects.npu.accelerators import AcceleratorConfig
    from npu_opt.dialects.npu.perf.op_desc import NpuOpDesc

TRAVERSALS = ("depth_first", "part_kernel")
CYCLE_KEYS = ("total", "npu", "compute", "dma", "sram", "dram", "on_chip_flash", "off_chip_flash")
COUNT_KEYS = ("macs", "hw_macs")
BYTE_KEYS = ("read", "written")


def _split(body: str) -> list[str]:
    """Split ``body`` at commas outside brackets and strings."""
    return [part.strip() for part in split_top_level(body)]


def _entries(body: str | None, what: str) -> Iterator[tuple[str | None, str]]:
    if not body:
        raise ValueError(f"#npu.{what} needs a body")
    for part in _split(body):
        if not part:
            raise ValueError(f"#npu.{what}: empty entry in '{body}'")
        key, eq, value = part.partition("=")
        yield (key.strip(), value.strip()) if eq else (None, part)


def _hwd(text: str, what: str) -> tuple[int, int, int]:
    parts = text.split("x")
    try:
        values = tuple(int(p) for p in parts)
    except ValueError:
        values = ()
    if len(values) != 3 or min(values) < 1:
        raise ValueError(f"#npu.{what}: expected HxWxD with positive sizes, not '{text}'")
    return values  # type: ignore[return-value]


def _number(text: str, what: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"#npu.{what}: '{text}' is not a number") from None


def format_number(value: float) -> str:
    """Integers without a decimal point, other values to 3 decimals (trailing zeros dropped)."""
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.3f}".rstrip("0").rstrip(".")


class BlockAttr(Attribute):
    """``#npu.block<HxWxD, ifm = HxWxD, acc = 32|40, traversal = depth_first|part_kernel>``."""

    __slots__ = ("ofm", "ifm", "acc_bits", "traversal")
    ofm: tuple[int, int, int]
    ifm: tuple[int, int, int]
    acc_bits: int
    traversal: str

    def _init(self, ofm: tuple[int, int, int], ifm: tuple[int, int, int], acc_bits: int, traversal: str) -> None:
        if acc_bits not in (16, 32, 40):
            raise ValueError(f"#npu.block: accumulators are 16, 32 or 40 bits, not {acc_bits}")
        if traversal not in TRAVERSALS:
            raise ValueError(f"#npu.block: traversal is {' or '.join(TRAVERSALS)}, not '{traversal}'")
        self._set("ofm", tuple(int(v) for v in ofm))
        self._set("ifm", tuple(int(v) for v in ifm))
        self._set("acc_bits", int(acc_bits))
        self._set("traversal", traversal)

    @classmethod
    def _key(cls, args: tuple) -> tuple:
        return (tuple(args[0]), tuple(args[1]), int(args[2]), args[3])

    @classmethod
    def of(cls, block: BlockConfig) -> "BlockAttr":
        o, i = block.ofm_block, block.ifm_block
        return cls((o.height, o.width, o.depth), (i.height, i.width, i.depth), block.acc_bits, block.traversal)

    @property
    def ofm_block(self) -> Shape4:
        return Shape4(1, *self.ofm)

    @property
    def is_partkernel(self) -> bool:
        return self.traversal == "part_kernel"

    def _render(self) -> str:
        o, i = self.ofm, self.ifm
        return (f"#npu.block<{o[0]}x{o[1]}x{o[2]}, ifm = {i[0]}x{i[1]}x{i[2]}, acc = {self.acc_bits}, "
                f"traversal = {self.traversal}>")

    @staticmethod
    def parse(body: str | None) -> "BlockAttr":
        ofm = None
        fields: dict[str, str] = {}
        for key, value in _entries(body, "block"):
            if key is None:
                if ofm is not None:
                    raise ValueError("#npu.block: the OFM block is given twice")
                ofm = _hwd(value, "block")
            elif key in ("ifm", "acc", "traversal"):
                fields[key] = value
            else:
                raise ValueError(f"#npu.block: unknown key '{key}' (expected ifm, acc or traversal)")
        if ofm is None or set(fields) != {"ifm", "acc", "traversal"}:
            raise ValueError("#npu.block takes the OFM block HxWxD, ifm = HxWxD, acc = BITS and traversal = ...")
        try:
            acc = int(fields["acc"])
        except ValueError:
            raise ValueError(f"#npu.block: acc must be an integer, not '{fields['acc']}'") from None
        return BlockAttr(ofm, _hwd(fields["ifm"], "block"), acc, fields["traversal"])


class CostAttr(Attribute):
    """``#npu.cost<total = .., npu = .., compute = .., dma = .., sram = .., dram = ..,
    on_chip_flash = .., off_chip_flash = .., macs = .., hw_macs = .., read = [4], written = [4]>``."""

    __slots__ = ("cycles", "macs", "hw_macs", "read", "written")
    cycles: tuple[float, ...]
    """In ``CYCLE_KEYS`` order."""
    macs: int
    hw_macs: int
    read: tuple[float, ...]
    written: tuple[float, ...]

    def _init(self, cycles: tuple[float, ...], macs: int, hw_macs: int, read: tuple[float, ...],
              written: tuple[float, ...]) -> None:
        if len(cycles) != len(CYCLE_KEYS) or len(read) != 4 or len(written) != 4:
            raise ValueError("#npu.cost: wrong number of values")
        self._set("cycles", tuple(float(c) for c in cycles))
        self._set("macs", int(macs))
        self._set("hw_macs", int(hw_macs))
        self._set("read", tuple(float(b) for b in read))
        self._set("written", tuple(float(b) for b in written))

    @classmethod
    def _key(cls, args: tuple) -> tuple:
        return (tuple(float(c) for c in args[0]), int(args[1]), int(args[2]), tuple(float(b) for b in args[3]),
                tuple(float(b) for b in args[4]))

    @classmethod
    def of(cls, cost: OpCost) -> "CostAttr":
        cycles = (cost.total_cycles, cost.npu_cycles, cost.compute_cycles, cost.dma_cycles, *cost.access_cycles)
        return cls(cycles, cost.nn_macs, cost.hw_macs, cost.bytes_read, cost.bytes_written)

    @classmethod
    def total(cls, costs: list["CostAttr"]) -> "CostAttr":
        """The sum of several ops' costs (what a network total is in Vela: per-op sums)."""
        def add(rows: list[tuple[float, ...]], width: int) -> tuple[float, ...]:
            return tuple(sum(row[i] for row in rows) for i in range(width))
        return cls(add([c.cycles for c in costs], len(CYCLE_KEYS)), sum(c.macs for c in costs),
                   sum(c.hw_macs for c in costs), add([c.read for c in costs], 4), add([c.written for c in costs], 4))

    def cycle(self, key: str) -> float:
        return self.cycles[CYCLE_KEYS.index(key)]

    def _render(self) -> str:
        parts = [f"{key} = {format_number(value)}" for key, value in zip(CYCLE_KEYS, self.cycles)]
        parts += [f"macs = {self.macs}", f"hw_macs = {self.hw_macs}"]
        for key, values in (("read", self.read), ("written", self.written)):
            parts.append(f"{key} = [{', '.join(format_number(v) for v in values)}]")
        return f"#npu.cost<{', '.join(parts)}>"

    @staticmethod
    def parse(body: str | None) -> "CostAttr":
        fields: dict[str, str] = {}
        for key, value in _entries(body, "cost"):
            if key is None or key not in CYCLE_KEYS + COUNT_KEYS + BYTE_KEYS:
                raise ValueError(f"#npu.cost: unexpected entry '{value if key is None else key}'")
            fields[key] = value
        missing = [k for k in CYCLE_KEYS + COUNT_KEYS + BYTE_KEYS if k not in fields]
        if missing:
            raise ValueError(f"#npu.cost: missing {', '.join(missing)}")
        lists = []
        for key in BYTE_KEYS:
            text = fields[key]
            if not (text.startswith("[") and text.endswith("]")):
                raise ValueError(f"#npu.cost: {key} takes a list of four byte counts")
            values = [_number(v.strip(), "cost") for v in text[1:-1].split(",") if v.strip()]
            if len(values) != 4:
                raise ValueError(f"#npu.cost: {key} takes four byte counts (Sram, Dram, OnChipFlash, OffChipFlash)")
            lists.append(tuple(values))
        counts = []
        for key in COUNT_KEYS:
            try:
                counts.append(int(fields[key]))
            except ValueError:
                raise ValueError(f"#npu.cost: {key} must be an integer, not '{fields[key]}'") from None
        return CostAttr(tuple(_number(fields[k], "cost") for k in CYCLE_KEYS), counts[0], counts[1], lists[0],
                        lists[1])


BLOCK_ATTR = "npu.block"
"""Op attribute holding the chosen block config."""
COST_ATTR = "npu.cost"
"""Op attribute holding the op's estimate."""
TOTALS_ATTR = "npu.cost_totals"
"""Module attribute holding the sums over the module's ops."""

def striped(op: Operation, desc: "NpuOpDesc") -> "NpuOpDesc":
    """``desc`` producing the OFM stripe the op's ``npu.stripe`` names (``desc`` itself without one)."""
    stripe = op.attr(STRIPE_ATTR)
    if not isinstance(stripe, StripeAttr):
        return desc
    height, width, depth = stripe.shape
    return desc.with_ofm_stripe(Shape4(1, height, width, depth))


def op_block_config(op: Operation, desc: "NpuOpDesc", accel: "AcceleratorConfig") -> BlockConfig | None:
    """``op``'s block configuration for ``desc`` on ``accel``: its ``npu.block`` when one is set
    (None when that block does not fit), else the block-config search's choice. A striped op's
    block was searched on its stripe (npu-select-block-config), and a block fitted to a few OFM
    rows may not fit SHRAM against the whole OFM: the NPU runs it stripe by stripe, so the block
    is checked against the stripe when it does not fit the whole OFM."""
    given = op.attr(BLOCK_ATTR)
    if not isinstance(given, BlockAttr):
        return select_block_config(desc, accel)
    block = check_block_config(desc, accel, given.ofm_block, given.is_partkernel)
    if block is None and isinstance(op.attr(STRIPE_ATTR), StripeAttr):
        block = check_block_config(striped(op, desc), accel, given.ofm_block, given.is_partkernel)
    return block


__all__ = ["BLOCK_ATTR", "BlockAttr", "COST_ATTR", "CYCLE_KEYS", "CostAttr", "TOTALS_ATTR", "format_number", "op_block_config", "striped"]
