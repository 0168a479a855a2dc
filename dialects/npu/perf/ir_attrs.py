"""How block configs and costs appear in the IR: ``#npu.block`` (npu-select-block-config) and
``#npu.cost`` (npu-estimate, the module's sums as ``npu.cost_totals``), declared (ir/attrdef.py).

The npu dialect registers them by name and imports this module (and the performance model) only
when one is first parsed.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from npu_opt.hardware.perf.block_config import BlockConfig, check_block_config, select_block_config
from npu_opt.hardware.perf.estimate import OpCost
from npu_opt.hardware.perf.shape import Shape4
from npu_opt.dialects.npu.schedule_attrs import STRIPE_ATTR, StripeAttr
from npu_opt.ir.attr_params import Dims, Int, List, Number, Word, format_number
from npu_opt.ir.attrdef import POSITIONAL, AttrDef, AttrDefMeta, Param
from npu_opt.ir.core import Operation

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
PER_MEMORY = List(Number(), 4)
"""Bytes per memory, in the order Sram, Dram, OnChipFlash, OffChipFlash."""


class BlockAttr(AttrDef):
    """An op's block configuration: the OFM block, the IFM block feeding it, the accumulator
    width and the weight traversal."""

    NAME = "npu.block"
    ofm = Param(Dims(3), POSITIONAL, doc="the OFM block HxWxD")
    ifm = Param(Dims(3), doc="the IFM block HxWxD")
    acc_bits = Param(Int(), key="acc", doc="accumulator bits: 16, 32 or 40")
    traversal = Param(Word(TRAVERSALS), doc="the weight traversal")

    def verify(self) -> None:
        if self.acc_bits not in (16, 32, 40):
            raise ValueError(f"accumulators are 16, 32 or 40 bits, not {self.acc_bits}")

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


COSTS_KEPT = 1 << 16
"""Op costs ``CostAttr.of`` remembers (all are forgotten when the table is full)."""
_COSTS_MADE: dict[tuple, Any] = {}


class _CostBase(AttrDef):
    """Behaviour of CostAttr, whose parameters are declared from the key lists above."""

    @classmethod
    def from_parts(cls, cycles: tuple[float, ...], macs: int, hw_macs: int, read: tuple[float, ...],
                   written: tuple[float, ...], split: tuple[tuple[float, ...], ...] | None = None,
                   encoded_weights: int = 0, stored: tuple[int, ...] = (0, 0, 0, 0), original_weights: int = 0) -> Any:
        """The cost of cycles in ``CYCLE_KEYS`` order, counts, bytes per memory, and the split
        (``SPLIT_KEYS`` order, None: not recorded)."""
        if len(cycles) != len(CYCLE_KEYS) or (split is not None and len(split) != len(SPLIT_KEYS)):
            raise ValueError("#npu.cost: wrong number of values")
        return cls.build(**dict(zip(CYCLE_KEYS, cycles)), macs=macs, hw_macs=hw_macs, read=read, written=written,
                         **dict(zip(SPLIT_KEYS, split if split is not None else (None,) * len(SPLIT_KEYS))),
                         original_weights=original_weights, encoded_weights=encoded_weights, stored=stored)

    def verify(self) -> None:
        given = [key for key in SPLIT_KEYS if getattr(self, key) is not None]
        if given and len(given) != len(SPLIT_KEYS):
            raise ValueError(f"{', '.join(SPLIT_KEYS)} come together "
                             f"(missing {', '.join(k for k in SPLIT_KEYS if k not in given)})")

    @property
    def cycles(self) -> tuple[float, ...]:
        """In ``CYCLE_KEYS`` order."""
        return tuple(getattr(self, key) for key in CYCLE_KEYS)

    @property
    def split(self) -> tuple[tuple[float, ...], ...] | None:
        """Feature-map bytes read and written, weight bytes read and written (``SPLIT_KEYS``
        order), each per memory; the rest of ``read``/``written`` is scale records and LUTs. None:
        not recorded (text written before the split existed)."""
        return None if self.fm_read is None else tuple(getattr(self, key) for key in SPLIT_KEYS)

    @classmethod
    def of(cls, cost: OpCost, encoded_weights: int = 0, stored: tuple[int, ...] = (0, 0, 0, 0),
           original_weights: int = 0) -> Any:
        """``cost`` as an attribute, with the op's weights' encoded, stored and original sizes
        (remembered per class and arguments: a search costs the same op alike in many candidates,
        and an attribute is an interned value, so the one built first is the one built again)."""
        key = (cls, cost, encoded_weights, stored, original_weights)
        found = _COSTS_MADE.get(key)
        if found is not None:
            return found
        if len(_COSTS_MADE) >= COSTS_KEPT:
            _COSTS_MADE.clear()
        found = _COSTS_MADE[key] = cls._of(cost, encoded_weights, stored, original_weights)
        return found

    @classmethod
    def _of(cls, cost: OpCost, encoded_weights: int, stored: tuple[int, ...], original_weights: int) -> Any:
        cycles = (cost.total_cycles, cost.npu_cycles, cost.compute_cycles, cost.dma_cycles, *cost.access_cycles)
        split = (cost.fm_read, cost.fm_written, cost.weight_read, cost.weight_written)
        return cls.from_parts(cycles, cost.nn_macs, cost.hw_macs, cost.bytes_read, cost.bytes_written, split,
                              encoded_weights, stored, original_weights)

    @classmethod
    def summed(cls, costs: list[Any]) -> Any:
        """The sum of several ops' costs (what a network total is in Vela: per-op sums); the
        split only when every op has one."""
        def add(rows: list[tuple[float, ...]], width: int) -> tuple[float, ...]:
            return tuple(sum(row[i] for row in rows) for i in range(width))
        splits = [c.split for c in costs]
        split = None if any(s is None for s in splits) else tuple(
            add([s[k] for s in splits], 4) for k in range(len(SPLIT_KEYS)))  # type: ignore[index]
        return cls.from_parts(add([c.cycles for c in costs], len(CYCLE_KEYS)), sum(c.macs for c in costs),
                              sum(c.hw_macs for c in costs), add([c.read for c in costs], 4),
                              add([c.written for c in costs], 4), split, sum(c.encoded_weights for c in costs),
                              add([c.stored for c in costs], 4), sum(c.original_weights for c in costs))

    def cycle(self, key: str) -> float:
        return getattr(self, key)

    def part(self, key: str) -> tuple[float, ...] | None:
        """Bytes per memory of one of ``SPLIT_KEYS`` (None when the split is not recorded)."""
        return getattr(self, key)


CostAttr = AttrDefMeta("CostAttr", (_CostBase,), {
    "__doc__": "An op's estimate: cycles (the op's total, the NPU column with unhidden DMA, the compute "
               "pipeline alone, its DMA transfers, access cycles per memory), network and hardware MACs, "
               "bytes read and written per memory, their feature-map and weight parts, and its weights' "
               "original, encoded and stored bytes.",
    "__module__": __name__, "NAME": "npu.cost",
    **{key: Param(Number(), doc="cycles") for key in CYCLE_KEYS},
    **{key: Param(Int(0), doc="MACs") for key in COUNT_KEYS},
    **{key: Param(PER_MEMORY, doc="bytes per memory") for key in BYTE_KEYS},
    **{key: Param(PER_MEMORY, default=None, group="split", doc="bytes per memory") for key in SPLIT_KEYS},
    "original_weights": Param(Int(0), default=0, group="weights", doc="weight bytes before encoding"),
    "encoded_weights": Param(Int(0), default=0, group="weights", doc="compressed weight bytes"),
    "stored": Param(List(Int(0), 4), default=(0, 0, 0, 0), group="weights",
                    doc="bytes of the weight stream and scale records in permanent storage, per memory")})


BLOCK_ATTR = "npu.block"
"""Op attribute holding the chosen block config."""
COST_ATTR = "npu.cost"
"""Op attribute holding the op's estimate."""
TOTALS_ATTR = "npu.cost_totals"
"""Module attribute holding the sums over the module's ops."""
ATTRIBUTES = (BlockAttr, CostAttr)
"""Registered on the npu dialect, which imports this module when one is first parsed."""


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


__all__ = ["ATTRIBUTES", "BLOCK_ATTR", "BlockAttr", "COST_ATTR", "CYCLE_KEYS", "CostAttr", "SPLIT_KEYS", "TOTALS_ATTR", "format_number", "op_block_config",
           "striped"]
