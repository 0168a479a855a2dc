"""Record test vectors from the installed Vela 5.2 (run once; the JSON is committed).

The unit tests of the rewritten perf and lowering helpers compare npu-opt against Vela's behaviour:
this script calls Vela's own functions on a spread of inputs (odd channel counts, 16-bit, every
accelerator from U55-32 to U65-512) and stores only their inputs and results, so the tests need
neither Vela nor its source. Usage: ``python tests/data/provenance/make_vela_vectors.py``.
"""
from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from types import SimpleNamespace

import numpy as np
from ethosu.vela import architecture_allocator as alloc
from ethosu.vela import softmax, tflite_graph_optimiser, utils
from ethosu.vela.architecture_features import Accelerator, ArchitectureFeatures, Block
from ethosu.vela.data_type import DataType
from ethosu.vela.ethos_u55_regs.ethos_u55_regs import resampling_mode
from ethosu.vela.operation import Kernel, NpuBlockType, Op
from ethosu.vela.shape4d import Shape4D

OUT = Path(__file__).with_name("vela_vectors.json")
ACCELERATORS = ("ethos-u55-32", "ethos-u55-64", "ethos-u55-128", "ethos-u55-256", "ethos-u65-256",
                "ethos-u65-512")
BLOCK_TYPES = {"convolution": NpuBlockType.ConvolutionMxN, "depthwise": NpuBlockType.ConvolutionDepthWise,
               "pooling": NpuBlockType.Pooling, "elementwise": NpuBlockType.ElementWise,
               "vector-product": NpuBlockType.VectorProduct, "reduce-sum": NpuBlockType.ReduceSum}
RESAMPLING = {"none": resampling_mode.NONE, "nearest": resampling_mode.NEAREST,
              "transpose": resampling_mode.TRANSPOSE}


def arch_for(name: str) -> ArchitectureFeatures:
    """Vela's architecture with its built-in default system config and memory mode."""
    return ArchitectureFeatures(vela_config_files=None, accelerator_config=name,
                                system_config=ArchitectureFeatures.DEFAULT_CONFIG,
                                memory_mode=ArchitectureFeatures.DEFAULT_CONFIG, max_blockdep=3,
                                verbose_config=False, arena_cache_size=None)


def part_kernel_vectors() -> list[dict]:
    """Vela's traversal choice for IFM depths 1..80 (and a few wide ones), 8 and 16 bit, kernels up to 9x9."""
    cases = []
    for depth in list(range(1, 81)) + [95, 127, 128, 200, 513]:
        for bits in (8, 16):
            for kw, kh in ((1, 1), (3, 3), (1, 7), (5, 2), (9, 9), (2, 2), (3, 1)):
                chosen = alloc._choose_kernel_method(Shape4D(1, 7, 7, depth), bits, Kernel(kw, kh))
                cases.append({"depth": depth, "bits": bits, "kernel": [kw, kh], "part_kernel": bool(chosen)})
    return cases


def layout_vectors(rng: random.Random) -> list[dict]:
    """Vela's SHRAM bank layout (or no fit) for random IFM/OFM blocks on every accelerator."""
    cases = []
    for name in ACCELERATORS:
        arch = arch_for(name)
        for _ in range(150):
            usage = rng.choice(["", "full", "scalar"])
            bits = rng.choice([8, 16, 32]) if usage else rng.choice([8, 16])
            acc_bits = rng.choice([32, 40])
            ofm = [rng.randrange(1, 33), rng.randrange(1, 33), rng.randrange(1, 129)]  # h, w, d
            ifm = [rng.randrange(1, 40), rng.randrange(1, 40), rng.randrange(1, 129)]
            granule = arch.ifm_ew_bank_granules[bits] if usage else arch.ifm_bank_granules[bits]
            acc_granule = arch.accumulator_granules[alloc.SHRAMElements.Acc40 if acc_bits == 40
                                                    else alloc.SHRAMElements.Acc32]
            lut_banks = max(rng.choice([0, 2]), arch.shram.reserved_end_banks)
            ew = {"": alloc.ElementwiseUsage.No, "full": alloc.ElementwiseUsage.Full,
                  "scalar": alloc.ElementwiseUsage.Scalar}[usage]
            layout = alloc._try_block_config(arch.shram, ew, Block(ofm[1], ofm[0], ofm[2]), Block(ifm[1], ifm[0], ifm[2]),
                                             bits, granule, acc_bits, acc_granule, lut_banks)
            result = None if layout is None else [layout.ib_start, layout.ib_end, layout.ib_start2, layout.ab_start,
                                                  layout.lut_start]
            cases.append({"accelerator": name, "elementwise": usage, "ofm_block": ofm, "ifm_block": ifm,
                          "ifm_bits": bits, "ifm_granule": granule, "acc_bits": acc_bits, "acc_granule": acc_granule,
                          "lut_banks": lut_banks, "layout": result})
    return cases


def block_config_vectors(rng: random.Random) -> list[dict]:
    """Vela's block-config search on a spread of ops per accelerator."""
    kernels = [(1, 1, 1, 1, 1, 1), (3, 3, 1, 1, 1, 1), (3, 3, 2, 2, 1, 1), (5, 5, 1, 1, 2, 2), (9, 9, 1, 1, 1, 1),
               (1, 7, 1, 1, 1, 1), (7, 1, 2, 1, 1, 1), (2, 2, 2, 2, 1, 1), (3, 3, 3, 1, 1, 1)]
    cases = []
    for name in ACCELERATORS:
        arch = arch_for(name)
        for _ in range(60):
            block_type = rng.choice(list(BLOCK_TYPES))
            h, w = rng.choice([1, 2, 3, 5, 7, 8, 14, 15, 28, 33, 56, 112]), rng.choice([1, 2, 3, 5, 7, 9, 16, 28, 49, 112])
            ofm_depth = rng.choice([1, 3, 7, 8, 15, 16, 17, 24, 33, 64, 96, 100, 128, 255, 512])
            kernel = rng.choice(kernels) if block_type not in ("elementwise", "vector-product") else (1, 1, 1, 1, 1, 1)
            resampling = "none"
            if block_type == "convolution" and rng.random() < 0.15:
                resampling = "transpose"
            if block_type == "pooling" and rng.random() < 0.15:
                resampling = "nearest"
            ifm_depth = ofm_depth if block_type in ("depthwise", "pooling", "elementwise") else rng.choice(
                [1, 3, 5, 8, 13, 16, 31, 32, 48, 77, 160])
            ifm_h = max(1, (h - 1) * kernel[3] + (kernel[1] - 1) * kernel[5] + 1)
            ifm_w = max(1, (w - 1) * kernel[2] + (kernel[0] - 1) * kernel[4] + 1)
            if resampling != "none":
                ifm_h, ifm_w = max(1, h // 2), max(1, w // 2)
            if block_type == "vector-product":
                h = w = ifm_h = ifm_w = 1
            ofm, ifm = [1, h, w, ofm_depth], [1, ifm_h, ifm_w, ifm_depth]
            ifm2 = None
            scalar = False
            if block_type == "elementwise":
                scalar = rng.random() < 0.3
                ifm2 = [1, 1, 1, 1] if scalar else rng.choice([ifm, [1, 1, 1, ofm_depth], [1, h, w, ofm_depth]])
            bits = rng.choice([8, 8, 16]) if block_type != "elementwise" else rng.choice([8, 16, 32])
            uses_lut = rng.random() < 0.2
            scaled = rng.random() < 0.8
            config = alloc.find_block_config(arch, BLOCK_TYPES[block_type], Shape4D(ofm), Shape4D(ifm),
                                             Shape4D(ifm2) if ifm2 is not None else None, scalar, bits,
                                             Kernel(*kernel), 2 if uses_lut else 0, scaled, RESAMPLING[resampling])
            result = None
            if config is not None:
                lay = config.layout
                result = {"ofm_block": config.ofm_block.as_list(), "ifm_block": config.ifm_block.as_list(),
                          "part_kernel": bool(config.is_partkernel), "acc_bits": alloc._AccumulatorBits[config.acc_type],
                          "layout": [lay.ib_start, lay.ib_end, lay.ib_start2, lay.ab_start, lay.lut_start]}
            cases.append({"accelerator": name, "block_type": block_type, "ofm": ofm, "ifm": ifm, "ifm2": ifm2,
                          "scalar": scalar, "bits": bits, "kernel": list(kernel), "uses_lut": uses_lut,
                          "scaled": scaled, "resampling": resampling, "config": result})
    return cases


def softmax_vectors() -> list[dict]:
    """Vela's softmax exp table for several beta x input-scale products."""
    sm = softmax.SoftMax(None)
    cases = []
    for beta, scale in ((1.0, 0.00390625), (1.0, 0.1), (0.5, 0.05), (2.0, 1 / 255), (1.0, 0.5), (1.0, 2.0),
                        (0.25, 0.0117), (1.0, 1e-4), (3.7, 0.0625)):
        cases.append({"beta": beta, "scale": scale, "table": [int(v) for v in sm.generate_exp_table(beta, scale)]})
    return cases


def hardswish_vectors() -> list[dict]:
    """Vela's hard-swish table, captured where it hands the values to its LUT builder."""
    captured: list[list[int]] = []
    original = tflite_graph_optimiser.convert_to_lut
    tflite_graph_optimiser.convert_to_lut = lambda op, values, name: captured.append([int(v) for v in values])
    cases = []
    try:
        for in_scale, in_zp, out_scale, out_zp, unsigned in (
                (0.1, 0, 0.05, 0, False), (0.0235, -3, 0.0117, -128, False), (0.5, 10, 0.25, -20, False),
                (0.02, 128, 0.03, 100, True), (0.0078125, 0, 0.0078125, 0, False), (1.7, -60, 0.9, 5, False),
                (0.003, 5, 0.2, -1, True), (3.0, 0, 0.01, 0, False)):
            dtype = DataType.uint8 if unsigned else DataType.int8
            ifm = SimpleNamespace(quantization=SimpleNamespace(scale_f32=in_scale, zero_point=in_zp), dtype=dtype)
            ofm = SimpleNamespace(quantization=SimpleNamespace(scale_f32=out_scale, zero_point=out_zp), dtype=dtype)
            op = SimpleNamespace(type=Op.HardSwish, get_ifm_ofm=lambda ifm=ifm, ofm=ofm: (ifm, ofm))
            tflite_graph_optimiser.convert_hardswish_to_lut(op, None, None)
            cases.append({"ifm": [in_scale, in_zp], "ofm": [out_scale, out_zp], "unsigned": unsigned,
                          "table": captured.pop()})
    finally:
        tflite_graph_optimiser.convert_to_lut = original
    return cases


def resize_factor_vectors() -> list[dict]:
    """Vela's IFM-width fold factor for strided convolutions."""
    return [{"width": w, "stride": s, "result": list(utils.calc_resize_factor(w, s))}
            for w, s in itertools.product(range(1, 50), range(1, 13))]


def main() -> None:
    rng = random.Random(5_2_0)
    np.random.seed(0)
    vectors = {"vela_version": "5.2.0", "part_kernel": part_kernel_vectors(), "layout": layout_vectors(rng),
               "block_config": block_config_vectors(rng), "softmax_exp": softmax_vectors(),
               "hardswish": hardswish_vectors(), "resize_factor": resize_factor_vectors()}
    OUT.write_text(json.dumps(vectors, separators=(",", ":")) + "\n")
    print(f"wrote {OUT} ({', '.join(f'{k}: {len(v)}' for k, v in vectors.items() if isinstance(v, list))})")


if __name__ == "__main__":
    main()
