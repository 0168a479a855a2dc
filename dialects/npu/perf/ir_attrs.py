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
  OffChipFlash; then (npu-estimate writes them) ``fm_read``, ``fm_written``, ``weight_read``,
  ``weight_written``: of those bytes, the feature maps' and the weights' per memory (the rest is
  scale records and LUTs), ``original_weights``: the bytes of its weights before encoding (0 when
  an earlier op reads the same constant), ``encoded_weights``: its compressed weight bytes, and ``stored``:
  the bytes its weight stream and scale records take in permanent storage per memory (the last three
  only when one is not 0).

Both parse back from their printed form. The npu dialect registers their parsers when it loads
(dialects/npu/__init__.py), so they parse whatever else has been imported.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from npu_opt.hardware.perf.block_config import BlockConfig, check_block_config, select_block_config
from npu_opt.hardware.perf.estimate import OpCost
from npu_opt.hardware.perf.shape import Shape4
from npu_opt.dialects.npu.schedule_attrs import STRIPE_ATTR, StripeAttr
from npu_opt.ir.attributes import Attribute
from npu_opt.ir.core import Operation
from npu_opt.ir.type_parser import split_top_level

if TYPE_CHECKING:
    from npu_opt.hardware.accelerators import AcceleratorConfig
    from npu_opt.hardware.perf.op_desc import NpuOpDesc

TRAVERSALS = ("depth_first", "part_kernel")
CYCLE_KEYS = ("total", "npu", "compute", "dma", "sram", "dram", "on_chip_flash", "off_chip_flash")
COUNT_KEYS = ("macs", "hw_macs")
BYTE_KEYS = ("read", "written")
SPLIT_KEYS = ("fm_read", "fm_written", "weight_read", "weight_written")
"""Of the bytes read and written, those of feature maps and those of weights (Vela's summary split)."""
WEIGHT_KEYS = ("original_weights", "encoded_weights", "stored")


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
    on_chip_flash = .., off_chip_flash = .., macs = .., hw_macs = .., read = [4], written = [4]>``,
    optionally followed by what the bytes carry and what the weights take (``SPLIT_KEYS``)."""

    __slots__ = ("cycles", "macs", "hw_macs", "read", "written", "split", "encoded_weights", "stored",
                 "original_weights")
    cycles: tuple[float, ...]
    """In ``CYCLE_KEYS`` order."""
    macs: int
    hw_macs: int
    read: tuple[float, ...]
    written: tuple[float, ...]
    split: tuple[tuple[float, ...], ...] | None
    """Feature-map bytes read and written, weight bytes read and written (``SPLIT_KEYS`` order),
    each per memory; the rest of ``read``/``written`` is scale records and LUTs. None: not
    recorded (text written before the split existed)."""
    encoded_weights: int
    """Bytes of the op's compressed weights (scale records and padding excluded; 0 without)."""
    stored: tuple[int, ...]
    """Bytes the op's constants take in permanent storage, per memory: its encoded weight stream
    and its scale records, each padded to 16 bytes."""
    original_weights: int
    """Bytes of the weights the op computes with, before encoding (a kernel dilated beyond the
    hardware's reach at its dilated size); 0 when an earlier op reads the same constant."""

    def _init(self, cycles: tuple[float, ...], macs: int, hw_macs: int, read: tuple[float, ...],
              written: tuple[float, ...], split: tuple[tuple[float, ...], ...] | None = None,
              encoded_weights: int = 0, stored: tuple[int, ...] = (0, 0, 0, 0), original_weights: int = 0) -> None:
        if len(cycles) != len(CYCLE_KEYS) or len(read) != 4 or len(written) != 4 or len(stored) != 4:
            raise ValueError("#npu.cost: wrong number of values")
        if split is not None and (len(split) != len(SPLIT_KEYS) or any(len(row) != 4 for row in split)):
            raise ValueError("#npu.cost: wrong number of values")
        self._set("cycles", tuple(float(c) for c in cycles))
        self._set("macs", int(macs))
        self._set("hw_macs", int(hw_macs))
        self._set("read", tuple(float(b) for b in read))
        self._set("written", tuple(float(b) for b in written))
        self._set("split", None if split is None else tuple(tuple(float(b) for b in row) for row in split))
        self._set("encoded_weights", int(encoded_weights))
        self._set("stored", tuple(int(b) for b in stored))
        self._set("original_weights", int(original_weights))

    @classmethod
    def _key(cls, args: tuple) -> tuple:
        split = args[5] if len(args) > 5 else None
        return (tuple(float(c) for c in args[0]), int(args[1]), int(args[2]), tuple(float(b) for b in args[3]),
                tuple(float(b) for b in args[4]),
                None if split is None else tuple(tuple(float(b) for b in row) for row in split),
                int(args[6]) if len(args) > 6 else 0, tuple(int(b) for b in args[7]) if len(args) > 7 else (0,) * 4,
                int(args[8]) if len(args) > 8 else 0)

    @classmethod
    def of(cls, cost: OpCost, encoded_weights: int = 0, stored: tuple[int, ...] = (0, 0, 0, 0),
           original_weights: int = 0) -> "CostAttr":
        """``cost`` as an attribute, with the op's weights' encoded, stored and original sizes."""
        cycles = (cost.total_cycles, cost.npu_cycles, cost.compute_cycles, cost.dma_cycles, *cost.access_cycles)
        split = (cost.fm_read, cost.fm_written, cost.weight_read, cost.weight_written)
        return cls(cycles, cost.nn_macs, cost.hw_macs, cost.bytes_read, cost.bytes_written, split,
                   encoded_weights, stored, original_weights)

    @classmethod
    def total(cls, costs: list["CostAttr"]) -> "CostAttr":
        """The sum of several ops' costs (what a network total is in Vela: per-op sums); the
        split only when every op has one."""
        def add(rows: list[tuple[float, ...]], width: int) -> tuple[float, ...]:
            return tuple(sum(row[i] for row in rows) for i in range(width))
        splits = [c.split for c in costs]
        split = None if any(s is None for s in splits) else tuple(
            add([s[k] for s in splits], 4) for k in range(len(SPLIT_KEYS)))  # type: ignore[index]
        return cls(add([c.cycles for c in costs], len(CYCLE_KEYS)), sum(c.macs for c in costs),
                   sum(c.hw_macs for c in costs), add([c.read for c in costs], 4), add([c.written for c in costs], 4),
                   split, sum(c.encoded_weights for c in costs), add([c.stored for c in costs], 4),
                   sum(c.original_weights for c in costs))

    def cycle(self, key: str) -> float:
        return self.cycles[CYCLE_KEYS.index(key)]

    def part(self, key: str) -> tuple[float, ...] | None:
        """Bytes per memory of one of ``SPLIT_KEYS`` (None when the split is not recorded)."""
        return None if self.split is None else self.split[SPLIT_KEYS.index(key)]

    def _render(self) -> str:
        parts = [f"{key} = {format_number(value)}" for key, value in zip(CYCLE_KEYS, self.cycles)]
        parts += [f"macs = {self.macs}", f"hw_macs = {self.hw_macs}"]
        lists = [("read", self.read), ("written", self.written)]
        if self.split is not None:
            lists += list(zip(SPLIT_KEYS, self.split))
        for key, values in lists:
            parts.append(f"{key} = [{', '.join(format_number(v) for v in values)}]")
        if self.encoded_weights or any(self.stored) or self.original_weights:
            parts.append(f"original_weights = {self.original_weights}")
            parts.append(f"encoded_weights = {self.encoded_weights}")
            parts.append(f"stored = [{', '.join(str(v) for v in self.stored)}]")
        return f"#npu.cost<{', '.join(parts)}>"

    @staticmethod
    def parse(body: str | None) -> "CostAttr":
        fields: dict[str, str] = {}
        optional = SPLIT_KEYS + WEIGHT_KEYS
        for key, value in _entries(body, "cost"):
            if key is None or key not in CYCLE_KEYS + COUNT_KEYS + BYTE_KEYS + optional:
                raise ValueError(f"#npu.cost: unexpected entry '{value if key is None else key}'")
            fields[key] = value
        missing = [k for k in CYCLE_KEYS + COUNT_KEYS + BYTE_KEYS if k not in fields]
        if missing:
            raise ValueError(f"#npu.cost: missing {', '.join(missing)}")
        given = [k for k in SPLIT_KEYS if k in fields]
        if given and len(given) != len(SPLIT_KEYS):
            raise ValueError(f"#npu.cost: {', '.join(SPLIT_KEYS)} come together "
                             f"(missing {', '.join(k for k in SPLIT_KEYS if k not in fields)})")
        lists = [_four(fields[key], key) for key in BYTE_KEYS]
        split = tuple(_four(fields[key], key) for key in SPLIT_KEYS) if given else None
        counts = []
        for key in COUNT_KEYS + ("encoded_weights", "original_weights"):
            try:
                counts.append(int(fields.get(key, "0")))
            except ValueError:
                raise ValueError(f"#npu.cost: {key} must be an integer, not '{fields[key]}'") from None
        stored = _four(fields["stored"], "stored") if "stored" in fields else (0.0,) * 4
        if any(not float(v).is_integer() or v < 0 for v in stored):
            raise ValueError("#npu.cost: stored takes four whole, non-negative byte counts")
        return CostAttr(tuple(_number(fields[k], "cost") for k in CYCLE_KEYS), counts[0], counts[1], lists[0],
                        lists[1], split, counts[2], tuple(int(v) for v in stored), counts[3])


def _four(text: str, key: str) -> tuple[float, ...]:
    """A ``[a, b, c, d]`` list of byte counts, one per memory."""
    if not (text.startswith("[") and text.endswith("]")):
        raise ValueError(f"#npu.cost: {key} takes a list of four byte counts")
    values = [_number(v.strip(), "cost") for v in text[1:-1].split(",") if v.strip()]
    if len(values) != 4:
        raise ValueError(f"#npu.cost: {key} takes four byte counts (Sram, Dram, OnChipFlash, OffChipFlash)")
    return tuple(values)


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


__all__ = ["BLOCK_ATTR", "BlockAttr", "COST_ATTR", "CYCLE_KEYS", "CostAttr", "SPLIT_KEYS", "TOTALS_ATTR", "format_number", "op_block_config",
           "striped"]
