"""Weight encoders shared by every module of a process, by weight values and stream signature, so
that a model loaded again (a budget sweep through the Python API, a test suite) encodes its
weights once. An encoder keeps only stream sizes, which depend on nothing else."""
from __future__ import annotations

import hashlib
from collections import OrderedDict

from npu_opt.hardware.codec.weight_size import WeightEncoder

KEPT_BYTES = 256 * 1024 * 1024
"""Weight bytes (the encoders' 16-bit copies) the pool keeps; the least recently used go first."""


class EncoderPool:
    """Encoders by (digest of their weights, signature), least recently used first out."""

    def __init__(self, kept_bytes: int = KEPT_BYTES) -> None:
        self.kept_bytes = kept_bytes
        self._encoders: OrderedDict[tuple, WeightEncoder] = OrderedDict()
        self._bytes = 0

    def shared(self, encoder: WeightEncoder) -> WeightEncoder:
        """The pool's encoder of the same weights and signature as ``encoder`` (``encoder`` itself
        when it is the first), with every size any module has encoded with it."""
        key = (hashlib.blake2b(encoder.ohwi.tobytes(), digest_size=20).digest(), encoder.signature)
        found = self._encoders.pop(key, None)
        if found is None:
            found = encoder
            self._bytes += encoder.ohwi.nbytes
        self._encoders[key] = found
        while self._bytes > self.kept_bytes and len(self._encoders) > 1:
            _, dropped = self._encoders.popitem(last=False)
            self._bytes -= dropped.ohwi.nbytes
        return found

    def clear(self) -> None:
        """Forget every encoder."""
        self._encoders.clear()
        self._bytes = 0


ENCODERS = EncoderPool()
"""The process's pool."""

__all__ = ["ENCODERS", "EncoderPool", "KEPT_BYTES"]
