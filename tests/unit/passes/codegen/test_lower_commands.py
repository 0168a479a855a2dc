"""npu-flash-layout + npu-lower-commands against Vela 5.2's legacy streams (tests/data/ethosu):
each NPU run of each tests/data model, on both configs, is lowered after
``schedule{optimise=Performance}`` and its words compared with Vela's; runs the lowering does
not handle yet must fail with an error naming the op, never give a wrong stream silently."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import npu_opt.dialects  # noqa: F401  (registers the dialects)
import npu_opt.passes  # noqa: F401  (registers the passes)
from npu_opt.dialects.ethosu.decode import decode_words
from npu_opt.dialects.ethosu.encode import encode_program
from npu_opt.dialects.npu.execution_order import graph_blocks, npu_runs
from npu_opt.dialects.npu.schedule_attrs import FLASH_ATTR
from npu_opt.dialects.npu.target_attr import target_of
from npu_opt.hardware.commands.words import words_from_bytes
from npu_opt.passes.codegen.compare import first_difference
from npu_opt.passes.codegen.lower_commands import lower_run
from npu_opt.passes.codegen.weight_bytes import LoweringError
from npu_opt.tools import api

DATA = Path(__file__).resolve().parents[3] / "data"
CONFIGS = {
    "u55-128": ("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram"),
    "u65-256": ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram"),
}
IDENTICAL = {(model, config, run) for model, runs in (
    ("conv", 2), ("stride3", 1), ("kernels", 1), ("dilation", 1), ("weight_stream", 1), ("two_outputs", 1),
    ("odd_channels", 1), ("branches", 1), ("cpu_middle", 2), ("wide_batch", 1), ("int16", 1), ("classifier", 1),
    ("elementwise", 1), ("fire", 1), ("data_movement", 1))
    for config in ("u65-256", "u55-128") for run in range(runs)}
"""The (model, config, run) streams the lowering gives byte for byte as Vela (measured): every run
it lowers, scratch addresses included (npu-allocate repeats Vela's allocator search)."""
DIFFERING = {
    **{("int16_elementwise", config, 0): "op 16 ethosu.pool: ifm #ethosu.fm<int16, NHWC, region = 1, bases = [0, 0, 0, 0]"
       for config in CONFIGS},
}
"""Lowered streams whose first difference from Vela's is not the lowering's (measured):
int16_elementwise's two inputs lie in the arena in the other order (npu-allocate); every other
register is Vela's (built-in tanh and sigmoid, leaky ReLU, 16-bit softmax)."""
MODELS = ("conv", "stride3", "kernels", "dilation", "weight_stream", "two_outputs", "odd_channels", "branches",
          "cpu_middle", "elementwise", "wide_batch", "int16", "classifier", "data_movement", "resize_bilinear",
          "int16_elementwise", "fire")


def lowered_runs(model: str, config: str, strategy: str = "Performance") -> list[tuple[int, list[int] | LoweringError]]:
    """Each NPU run's words, or the error lowering it."""
    accelerator, system, memory = CONFIGS[config]
    loaded = api.load(str(DATA / f"{model}.tflite"))
    loaded.set_target(accelerator, system_config=system, memory_mode=memory)
    loaded.run(f"schedule{{optimise={strategy}}},npu-flash-layout")
    target = target_of(loaded.module)
    results: list[tuple[int, list[int] | LoweringError]] = []
    for block in graph_blocks(loaded.module):
        for index, run in enumerate(npu_runs(block)):
            try:
                results.append((index, encode_program(lower_run(run, block.parent_op(), target))))
            except LoweringError as err:
                results.append((index, err))
    return results


@pytest.mark.parametrize("config", list(CONFIGS))
@pytest.mark.parametrize("model", MODELS)
def test_lowered_streams_against_vela(model: str, config: str):
    for index, outcome in lowered_runs(model, config):
        reference = words_from_bytes((DATA / "ethosu" / config / f"{model}_{index}.bin").read_bytes())
        if isinstance(outcome, LoweringError):
            assert (model, config, index) not in IDENTICAL, str(outcome)
            assert "not lowered yet" in str(outcome) or "not computed yet" in str(outcome)
            continue
        difference = first_difference(outcome, reference)
        if (model, config, index) in DIFFERING:
            assert difference is not None and difference.startswith(DIFFERING[(model, config, index)]), difference
            continue
        assert (model, config, index) in IDENTICAL, f"{model} {config} run {index} was lowered: add it"
        assert difference is None, f"{model} {config} run {index}"


def test_kernels_scratch_addresses_are_those_of_vela_s_search():
    """Vela's first placement of kernels on a U65 is 4,816 bytes above the lower bound; its
    search then packs the scratch tensors otherwise, and npu-allocate repeats that search."""
    (index, words), = lowered_runs("kernels", "u65-256")
    reference = words_from_bytes((DATA / "ethosu" / "u65-256" / "kernels_0.bin").read_bytes())
    assert first_difference(words, reference) is None


def test_the_flash_layout_is_vela_s():
    """conv's first buffer follows an 80-byte range for its bias, as in Vela's read-only data."""
    loaded = api.load(str(DATA / "conv.tflite"))
    loaded.set_target("ethos-u65-256", system_config="Ethos_U65_High_End", memory_mode="Dedicated_Sram")
    loaded.run("schedule{optimise=Performance},npu-flash-layout")
    flashes = [op.attr(FLASH_ATTR) for op in loaded.module.walk() if op.attr(FLASH_ATTR) is not None]
    assert [(f.offset, f.size) for f in flashes][0] == (80, 368)


def test_an_op_not_handled_is_an_error_at_the_op():
    loaded = api.load(str(DATA / "resize_bilinear.tflite"))
    loaded.set_target("ethos-u55-128")
    with pytest.raises(api.NpuOptError, match="'npu.depthwise_conv2d': replicated padding .* is not lowered yet"):
        loaded.run("schedule{optimise=Performance},npu-flash-layout,npu-lower-commands")


def test_the_cli_reports_an_op_not_lowered_at_its_location(tmp_path):
    """One located diagnostic naming the op and what is not handled, exit 1, no output file."""
    out = tmp_path / "x.tflite"
    done = subprocess.run([sys.executable, "-m", "npu_opt.tools.npu_opt", str(DATA / "resize_bilinear.tflite"),
                           "--pass=compile", "--target=ethos-u55-128", "-o", str(out)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 1, done.stderr
    lines = [line for line in done.stderr.splitlines() if "error:" in line]
    assert len(lines) == 1 and "'npu.depthwise_conv2d': replicated padding" in lines[0], done.stderr
    assert lines[0].split(": error:")[0].endswith('"rb_half_pixel"') and not out.exists()


def test_a_concatenation_writer_writes_at_its_offset():
    """data_movement's three writers of its 37-channel concatenation (NHCWB16) write their OFMs
    into its buffer at channels 0, 16 and 32, as Vela's streams do."""
    (index, words), = lowered_runs("data_movement", "u55-128")
    pools = [op for op in decode_words(words).regions[0].blocks[0].ops if op.name == "ethosu.pool"][:3]
    reference = words_from_bytes((DATA / "ethosu" / "u55-128" / "data_movement_0.bin").read_bytes())
    theirs = [op for op in decode_words(reference).regions[0].blocks[0].ops if op.name == "ethosu.pool"][:3]
    assert [(op.properties["ofm"].bases[0], op.properties["ofm"].depth) for op in pools] == [
        (op.properties["ofm"].bases[0], op.properties["ofm"].depth) for op in theirs]
    assert [op.properties["ofm"].depth for op in pools] == [16, 16, 5]


SIZE_MODELS = ("kernels", "weight_stream", "two_outputs", "odd_channels", "branches", "int16")
"""tests/data models Vela's Size strategy cascades on at least one config (tests/data/ethosu/<config>/size)."""
SIZE_PLACEMENT_ONLY: set[tuple[str, str, int]] = set()
"""Size streams whose registers are Vela's but for the scratch addresses (measured: none since
npu-allocate repeats Vela's allocator search; every other one is byte-identical)."""


@pytest.mark.parametrize("config", list(CONFIGS))
@pytest.mark.parametrize("model", SIZE_MODELS)
def test_cascaded_streams_against_vela(model: str, config: str):
    """Cascades and stripes: interleaved members, rolling-buffer tiles, per-stripe padding, and
    the waits and BLOCKDEP between stripes, as Vela's legacy core issues them."""
    for index, outcome in lowered_runs(model, config, "Size"):
        reference = words_from_bytes((DATA / "ethosu" / config / "size" / f"{model}_{index}.bin").read_bytes())
        assert not isinstance(outcome, LoweringError), str(outcome)
        difference = first_difference(outcome, reference)
        if (model, config, index) in SIZE_PLACEMENT_ONLY:
            assert difference is not None and equal_but_placement(outcome, reference), difference
        else:
            assert difference is None, f"{model} {config} run {index}: {difference}"
