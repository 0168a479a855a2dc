"""Weight streams: an op's weights copied slice by slice into the fast-storage buffers of its DMA.

Design notes: docs/interpreter_design.md, section Weight streams in the executor (schedule_exec/weights)."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from npu_opt.dialects.npu.schedule_attrs import AllocAttr, StreamAttr


def output_axis(consumer_name: str) -> int:
    """The weights' output-channel axis: C of a depthwise's 1HWC, else O (OHWI and [O, I])."""
    return -1 if consumer_name == "npu.depthwise_conv2d" else 0


def channel_slice(array: np.ndarray, axis: int, c0: int, c1: int) -> np.ndarray:
    """``array`` cut to channels [c0, c1) on ``axis``."""
    index = [slice(None)] * array.ndim
    index[axis] = slice(c0, c1)
    return np.ascontiguousarray(array[tuple(index)])


@dataclass
class WeightStream:
    """One DMA's weight stream into its buffers in ``memory`` (the area's byte array)."""

    stream: StreamAttr
    alloc: AllocAttr
    weights: np.ndarray
    """The whole weights (the DMA's source, a constant)."""
    bias: np.ndarray | None
    """The consumer's biases (one per output channel), streamed with the weights."""
    axis: int
    memory: np.ndarray
    second: AllocAttr | None = None
    """Where buffer 1 of a double-buffered stream is when it is allocated apart (``npu.second_buffer``)."""
    copies_per_pass: int = field(init=False)
    _written: dict[int, int] = field(default_factory=dict, init=False)
    """Slice copy -> buffer it was written into (the copies made so far)."""
    _spill: dict[int, bytes] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        self.copies_per_pass = len(self.stream.slices) - 1

    @property
    def depth_slices(self) -> list[tuple[int, int]]:
        """The OFM channel range of each slice."""
        s = self.stream.slices
        return list(zip(s[:-1], s[1:]))

    def _buffer(self, copy: int) -> tuple[int, int]:
        """(offset, bytes) of the buffer slice copy ``copy`` goes to."""
        index = copy % len(self.stream.buffers)
        if index == 1 and self.second is not None:
            return self.second.offset, self.stream.buffers[1]
        return self.alloc.offset + sum(self.stream.buffers[:index]), self.stream.buffers[index]

    def _payload(self, copy: int) -> tuple[np.ndarray, np.ndarray | None]:
        c0, c1 = self.depth_slices[copy % self.copies_per_pass]
        w = channel_slice(self.weights, self.axis, c0, c1)
        b = None if self.bias is None else np.ascontiguousarray(self.bias[c0:c1])
        return w, b

    def _bytes(self, copy: int) -> bytes:
        w, b = self._payload(copy)
        raw = w.astype(w.dtype.newbyteorder("<")).tobytes()
        if b is not None:
            raw += b.astype(b.dtype.newbyteorder("<")).tobytes()
        return raw

    def written(self, copy: int) -> bool:
        return copy in self._written

    def fill(self, copy: int) -> None:
        """The DMA copies slice copy ``copy`` into its buffer."""
        offset, size = self._buffer(copy)
        raw = self._bytes(copy)
        inside = min(len(raw), size)
        if offset + inside > self.memory.size:
            raise IndexError(f"weight buffer bytes {offset}..{offset + inside - 1} are outside the memory area "
                             f"of {self.memory.size} bytes")
        self.memory[offset:offset + inside] = np.frombuffer(raw[:inside], dtype=np.uint8)
        self._spill[copy] = raw[inside:]
        self._written[copy] = copy % len(self.stream.buffers)

    def read(self, copy: int) -> tuple[np.ndarray, np.ndarray | None]:
        """(weights, biases) of slice copy ``copy`` as its buffer holds them now (whatever bytes
        it holds if the DMA has not copied that slice yet; zeros for the part kept aside)."""
        offset, size = self._buffer(copy)
        w, b = self._payload(copy)
        total = w.nbytes + (0 if b is None else b.nbytes)
        inside = min(total, size)
        raw = self.memory[offset:offset + inside].tobytes() + self._spill.get(copy, bytes(total - inside))
        weights = np.frombuffer(raw[:w.nbytes], dtype=w.dtype.newbyteorder("<")).reshape(w.shape).astype(w.dtype)
        bias = None
        if b is not None:
            bias = np.frombuffer(raw[w.nbytes:total], dtype=b.dtype.newbyteorder("<")).reshape(b.shape).astype(b.dtype)
        return weights, bias


__all__ = ["WeightStream", "channel_slice", "output_axis"]
