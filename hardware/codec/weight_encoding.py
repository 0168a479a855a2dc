"""The Ethos-U weight codec ("mlw", Vela 5.2's format): reordered weight streams to the exact bytes
Vela's encoder writes. Sizes are the lengths of those bytes, so sizing and writing cannot differ.

Design notes: docs/weight_codec.md."""
from __future__ import annotations

from typing import Iterable, Iterator

import numpy as np

from npu_opt.hardware.codec import mlw_core

WEIGHT_LIMIT = 255
"""The codec codes weights in -255..255 (9-bit sign-magnitude)."""


def codec_weights(stream: np.ndarray) -> np.ndarray:
    """``stream`` as the contiguous int16 vector the codec reads (a wider type is checked against
    the codec's range first, so that nothing wraps)."""
    values = np.asarray(stream).reshape(-1)
    if values.dtype != np.int16 and values.size:
        low, high = int(values.min()), int(values.max())
        if low < -WEIGHT_LIMIT or high > WEIGHT_LIMIT:
            at = int(np.flatnonzero((values < -WEIGHT_LIMIT) | (values > WEIGHT_LIMIT))[0])
            raise ValueError(f"weight {int(values[at])} at stream position {at} is outside the codec's range "
                             f"-{WEIGHT_LIMIT}..{WEIGHT_LIMIT}")
    return np.ascontiguousarray(values, dtype=np.int16)


def encode_stream(stream: np.ndarray) -> bytes:
    """The codec's bytes for one reordered weight stream (a multiple of 16), as
    ``ethosu.mlw_codec.encode`` returns them."""
    return mlw_core.encode_stream(codec_weights(stream))


def encode_streams(streams: Iterable[np.ndarray]) -> Iterator[bytes]:
    """``encode_stream`` of each stream, lazily (a generator of streams is read one at a time)."""
    return (encode_stream(stream) for stream in streams)


def encoded_sizes(streams: Iterable[np.ndarray]) -> list[int]:
    """Bytes the codec produces for each reordered weight stream: the length of its encoding."""
    return [len(encoded) for encoded in encode_streams(streams)]


def palette_sections(stream: np.ndarray) -> list[int]:
    """Where the codec opens each palette section of the stream (the first at 0)."""
    return mlw_core.section_starts(codec_weights(stream))


def one_section(stream: np.ndarray) -> bool:
    """Whether a cheap test proves the codec keeps the stream one palette section (the usual case;
    false does not mean it splits)."""
    return mlw_core.one_section(codec_weights(stream))


def encoded_size(stream: np.ndarray) -> int:
    """Bytes the codec produces for one reordered weight stream (a multiple of 16)."""
    return len(encode_stream(stream))


__all__ = ["WEIGHT_LIMIT", "codec_weights", "encode_stream", "encode_streams", "encoded_size", "encoded_sizes",
           "one_section", "palette_sections"]
