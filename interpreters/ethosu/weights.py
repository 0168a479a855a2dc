"""What a convolution reads from its weight and scale streams: the 10-byte bias/scale records of
its output channels and its weights decoded and put back in OHWI order from the order the NPU
consumes them (OFM blocks, IFM blocks, sub-kernels, micro-blocks).

Design notes: docs/simulator_design.md, section Weights and scales."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from npu_opt.hardware.codec.weight_reorder import stream_cells
from npu_opt.interpreters.ethosu.mlw_decode import WeightStreamError, decode_weights

RECORD_BYTES = 10
SUB_KERNEL = 8
"""The largest kernel extent the NPU walks at once; bigger kernels are cut into 8x8 sub-kernels
(at dilation 2, 4 taps of the undilated kernel). The walk is the encoder's
(hardware/codec/weight_reorder.stream_cells), run backwards."""


@dataclass(frozen=True)
class Accelerator:
    """The facts of an NPU configuration the weight order depends on."""

    name: str
    ofm_ublock_depth: int
    ifm_ublock_depth: int
    shram_bytes: int = 0


def accelerator_of(npu_config: int) -> Accelerator:
    """The accelerator the driver payload's CONFIG word names (product and MACs per cycle)."""
    product, macs = (npu_config >> 28) & 0xF, 1 << (npu_config & 0xF)
    names = {0: "ethos-u55", 1: "ethos-u65"}
    if product not in names or macs not in (32, 64, 128, 256, 512):
        raise ValueError(f"NPU CONFIG word {npu_config:#x} names product {product} with {macs} MACs, which the "
                         f"simulator does not know")
    return Accelerator(f"{names[product]}-{macs}", 4 if macs == 32 else 8, 8, ((npu_config >> 8) & 0xFF) * 1024)


def scale_records(data: bytes, channels: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(bias, multiplier, shift) per channel: the bias in 40-bit two's complement, the unsigned
    32-bit multiplier and a 6-bit shift, little-endian."""
    raw = np.frombuffer(bytes(data[:channels * RECORD_BYTES]), dtype=np.uint8).reshape(channels, RECORD_BYTES)
    raw = raw.astype(np.int64)
    bias = sum(raw[:, k] << (8 * k) for k in range(5))
    bias = np.where(bias >= 1 << 39, bias - (1 << 40), bias)
    multiplier = sum(raw[:, 5 + k] << (8 * k) for k in range(4))
    return bias, multiplier, raw[:, 9] & 0x3F


def decode_ohwi(stream: bytes, shape: tuple[int, int, int, int], accelerator: Accelerator, ofm_block_depth: int,
                depthwise: bool, part_kernel_first: bool, ifm_bits: int, dilation: tuple[int, int]) -> np.ndarray:
    """The OHWI weights (I = 1 for a depthwise kernel) a stream holds; ValueError when the stream
    holds fewer weights than the walk consumes."""
    values = decode_weights(stream)
    ohwi = (shape[0], shape[1], shape[2], 1 if depthwise else shape[3])
    cells = _cells(ohwi, accelerator, ofm_block_depth, depthwise, part_kernel_first, ifm_bits, dilation)
    if values.size < cells.size:
        covered = _depth_it_holds(values.size, ohwi, accelerator, ofm_block_depth, depthwise, part_kernel_first,
                                  ifm_bits, dilation)
        raise WeightStreamError(f"the weight stream holds {values.size} weight(s), but the operation consumes "
                                f"{cells.size}{covered}")
    weights = np.zeros(int(np.prod(ohwi)) + 1, dtype=np.int64)  # (the last cell takes the padding)
    weights[cells] = values[:cells.size]
    return weights[:-1].reshape(ohwi)


def _cells(ohwi: tuple[int, int, int, int], accelerator: Accelerator, ofm_block_depth: int, depthwise: bool,
           part_kernel_first: bool, ifm_bits: int, dilation: tuple[int, int]) -> np.ndarray:
    """The OHWI cell of each weight the NPU consumes, in stream order (the encoder's walk)."""
    return stream_cells(ohwi, accelerator.ifm_ublock_depth, accelerator.ofm_ublock_depth, ofm_block_depth,
                        depthwise, part_kernel_first, ifm_bits, SUB_KERNEL // dilation[0], SUB_KERNEL // dilation[1])


def _depth_it_holds(count: int, ohwi: tuple[int, int, int, int], accelerator: Accelerator, ofm_block_depth: int,
                    depthwise: bool, part_kernel_first: bool, ifm_bits: int, dilation: tuple[int, int]) -> str:
    """For a convolution whose stream is short: the IFM depth its ``count`` weights would cover."""
    if depthwise:
        return ""
    low, high = 0, ohwi[3]  # the largest depth whose walk fits lies in [low, high)
    while high - low > 1:
        middle = (low + high) // 2
        fits = _cells(ohwi[:3] + (middle,), accelerator, ofm_block_depth, False, part_kernel_first, ifm_bits,
                      dilation).size <= count
        low, high = (middle, high) if fits else (low, middle)
    return f" (weights for an IFM depth of {low} where the IFM is {ohwi[3]} deep)" if low else ""


__all__ = ["Accelerator", "accelerator_of", "decode_ohwi", "scale_records"]
