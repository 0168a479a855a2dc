"""The weight encoders of a module's weighted ops for one compile, as an analysis of the module.

The estimate asks each op for its full-depth weight stream, then perhaps for one slicing. The
first request encodes the full-depth streams of every weighted op of the module in one batch.
Slicings are encoded when asked, or ahead in one batch: a dry run of the estimate asks through
``speculative`` encoders, which queue the slicings not encoded yet and answer with stand-in
sizes, and ``encode_queued`` then encodes the queue. The encoders keep their stream sizes, so
nothing is encoded twice while the analysis lives (until a pass changes the IR).
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from npu_opt.hardware.perf.arch import PerfTarget
from npu_opt.hardware.perf.block_config import BlockConfig
from npu_opt.dialects.npu.perf.ir_adapter import OpDescription, is_costed, module_of, op_weights_hwio, weights_source
from npu_opt.dialects.npu.perf.ir_attrs import op_block_config
from npu_opt.hardware.perf.op_desc import NpuOpDesc
from npu_opt.hardware.codec.encoder_pool import ENCODERS
from npu_opt.hardware.codec.weight_size import EncodedWeights, WeightEncoder, encode_together
from npu_opt.ir.analysis import Analysis, AnalysisManager
from npu_opt.ir.clone import Clone
from npu_opt.ir.core import Operation


def _encoder_for(hwio: np.ndarray, perf: PerfTarget, desc: NpuOpDesc, block: BlockConfig) -> WeightEncoder:
    """An encoder of ``hwio`` as the op ``desc`` run with ``block`` reads it (the process's, when
    another module has the same weights: what it encoded is not encoded again)."""
    assert desc.block_type is not None
    dilation = (desc.kernel.dilation_x, desc.kernel.dilation_y)
    return ENCODERS.shared(WeightEncoder(hwio, perf.accel, desc.block_type, desc.ifm.bits, block.ofm_block.depth,
                                         dilation))


def _request(op: Operation, perf: PerfTarget, desc: NpuOpDesc, block: BlockConfig) -> tuple:
    """What an encoder of ``op`` for ``desc`` and ``block`` is made from besides the values: the
    weight constant (through a weight DMA) and everything its signature depends on."""
    return (weights_source(op), perf.accel.name, desc.block_type, desc.ifm.bits, block.ofm_block.depth,
            desc.kernel.dilation_x, desc.kernel.dilation_y)


class WeightStreams(Analysis):
    """Weight encoders of the weighted ops of the anchor module, created and batch-encoded at
    full depth on the first request."""

    def __init__(self, module: Operation, manager: AnalysisManager) -> None:
        super().__init__(module, manager)
        self._manager = manager
        self._encoders: dict[Operation, WeightEncoder] | None = None
        self._requests: dict[Operation, tuple] = {}
        """Per op, what its encoder was made for (``_request``): a request alike is answered
        without reading the weight values again."""
        self._queue: list[tuple[WeightEncoder, tuple[int, ...]]] = []
        self._origin: dict[Operation, Operation] = {}
        """For the analysis of a copied module (``copied_to``): each copied op's original."""
        self._pool: dict[tuple[Operation, tuple], WeightEncoder] = {}
        """Every encoder made, by original op and signature; shared with the analyses of
        copies, so an encoding made while costing one copy serves every other and the original."""

    @staticmethod
    def of(op: Operation, manager: AnalysisManager) -> "WeightStreams":
        """The analysis of the module enclosing ``op``."""
        return manager.get(WeightStreams, module_of(op))

    def encoder(self, op: Operation, hwio: np.ndarray, perf: PerfTarget, desc: NpuOpDesc,
                block: BlockConfig) -> WeightEncoder:
        """The encoder of ``op``'s weights ``hwio`` for ``desc`` and ``block``."""
        if self._encoders is None:
            self._encoders = self._encode_all(perf)
        wanted = _encoder_for(hwio, perf, desc, block)
        found = self._encoders.get(op)
        if found is None or found.signature != wanted.signature:
            found = self._pool.setdefault((self._origin.get(op, op), wanted.signature), wanted)
            self._encoders[op] = found
        self._requests[op] = _request(op, perf, desc, block)
        return found

    def prepare(self, perf: PerfTarget) -> None:
        """Make and batch-encode the full-depth encoders now (else on the first request)."""
        if self._encoders is None:
            self._encoders = self._encode_all(perf)

    def cached_encoder(self, op: Operation, perf: PerfTarget, desc: NpuOpDesc,
                       block: BlockConfig) -> WeightEncoder | None:
        """The encoder ``encoder`` would give for this request when the op's encoder was made for
        the same weight constant, accelerator, block type, IFM bits, OFM block depth and
        dilation (so with the same signature); None when that takes the weight values."""
        if self._encoders is None or self._requests.get(op) != _request(op, perf, desc, block):
            return None
        return self._encoders.get(op)

    def speculative(self, encoder: WeightEncoder) -> Callable[[tuple[int, ...] | None], EncodedWeights]:
        """``encoder`` for a dry run: a slicing encoded already comes back as it is; any other
        is queued for ``encode_queued`` and answered with zero sizes, so the dry run must take
        nothing from it but its depth slices."""
        def ask(depth_slices: tuple[int, ...] | None = None) -> EncodedWeights:
            slices = encoder.checked(depth_slices)
            if not encoder.missing(slices):
                return encoder(slices)
            self._queue.append((encoder, slices))
            return EncodedWeights(slices, (), 0, (0, 0))
        return ask

    def queued(self) -> int:
        """How many slicings the speculative encoders have queued so far."""
        return len(self._queue)

    def encode_queued(self) -> None:
        """Encode the slicings the speculative encoders queued, all in one batch."""
        queue, self._queue = self._queue, []
        encode_together(queue)

    def copied_to(self, copy: "Clone", manager: AnalysisManager) -> "WeightStreams":
        """This analysis for the copy ``copy.root`` of its module, sharing the encoders (and so
        every stream they have encoded) op for op: a search trying schedules on copies encodes
        each weight stream once. Queued slicings stay with the original."""
        moved = WeightStreams(copy.root, manager)
        moved._pool = self._pool
        moved._origin = {new: self._origin.get(old, old) for old, new in copy.ops.items()}
        if self._encoders is not None:
            moved._encoders = {copy.ops[op]: encoder for op, encoder in self._encoders.items() if op in copy.ops}
        for op, request in self._requests.items():
            new = copy.ops.get(op)
            if new is not None:
                moved._requests[new] = (weights_source(new), *request[1:])
        return moved

    def same_weights(self, new: Operation, old: Operation) -> None:
        """``new`` reads ``old``'s weight constant (a rewrite's copy of ``old``, such as one of its
        column bands): ``new`` shares ``old``'s encoders, so those weights are encoded once."""
        self._origin[new] = self._origin.get(old, old)

    def _encode_all(self, perf: PerfTarget) -> dict[Operation, WeightEncoder]:
        """An encoder per weighted op (block as npu.block says, else as the search picks), their
        full-depth streams encoded together."""
        encoders: dict[Operation, WeightEncoder] = {}
        for op in self.anchor.walk():
            if not is_costed(op):
                continue
            desc = self._manager.get(OpDescription, op).desc
            if desc is None or desc.weights is None or desc.block_type is None:
                continue
            block = op_block_config(op, desc, perf.accel)
            hwio = op_weights_hwio(op) if block is not None else None
            if hwio is not None and block is not None:
                made = _encoder_for(hwio, perf, desc, block)
                encoders[op] = self._pool.setdefault((self._origin.get(op, op), made.signature), made)
                self._requests[op] = _request(op, perf, desc, block)
        encode_together([(encoder, None) for encoder in encoders.values() if encoder.missing(encoder.checked(None))])
        return encoders


__all__ = ["WeightStreams"]
