"""``compile`` (the schedule, npu-flash-layout, npu-lower-commands, npu-outline) writes a
deployable .tflite: byte for byte Vela 5.2's legacy output where the command streams and arena
offsets are Vela's, Vela's container everywhere; and every compiled tests/data model (Performance,
Size, the search at a budget) runs in the Ethos-U simulator bit for bit as the reference
interpreter runs the same scheduled IR, and as LiteRT runs the source model. A command broken by
hand is caught."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

import npu_opt.dialects  # noqa: F401  (registers the dialects)
import npu_opt.passes  # noqa: F401  (registers the passes)
from npu_opt.dialects.tfl.ops_ethosu import holds_ethos_u
from npu_opt.dialects.tfl.tflite import export_tflite, import_tflite
from npu_opt.dialects.tfl.tflite.ethosu_reader import read_compiled
from npu_opt.dialects.tfl.tflite.ethosu_writer import write_compiled
from npu_opt.interpreters.ethosu.memory import SimulatorError
from npu_opt.ir.interpreter import InterpretError, run_function
from npu_opt.ir.parser import parse_module
from npu_opt.ir.printer import PrintOptions, print_op
from npu_opt.passes.codegen.pipeline import CODEGEN_PIPELINE
from npu_opt.tools import api

DATA = Path(__file__).resolve().parents[3] / "data"
CONFIGS = {
    "u55-128": ("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram"),
    "u65-256": ("ethos-u65-256", "Ethos_U65_High_End", "Dedicated_Sram"),
}
MODELS = sorted(p.stem for p in DATA.glob("*.tflite"))
VELA = [*(DATA / "vela" / "compiled").glob("*.legacy.tflite"), *(DATA / "vela" / "deployable").glob("*.tflite")]
REFERENCES = {(p.name.split(".")[0], p.name.split(".")[1]): p for p in VELA}
"""(model, config) -> Vela's legacy .tflite (tests/data/vela/compiled and tests/data/vela/deployable)."""
IDENTICAL = {(m, c) for m in ("classifier", "conv", "dilation", "odd_channels", "stride3", "wide_image",
                              "conv_float", "custom", "math", "elementwise", "fire", "data_movement")
                              for c in CONFIGS} | {
    ("branches", "u65-256"), ("int16", "u65-256"), ("two_outputs", "u65-256"), ("weight_stream", "u65-256")}
"""The runs whose .tflite is Vela's byte for byte (measured; vela-metadata on)."""
PLACED_OTHERWISE = {("branches", "u55-128"), ("cpu_middle", "u55-128"), ("cpu_middle", "u65-256"),
                    ("int16", "u55-128"), ("kernels", "u55-128"), ("kernels", "u65-256"), ("two_outputs", "u55-128"),
                    ("weight_stream", "u55-128"), ("wide_batch", "u55-128"), ("wide_batch", "u65-256"),
                    ("generic", "u55-128"), ("generic", "u65-256")}
"""The runs whose feature maps npu-allocate places elsewhere than Vela's allocator (its
randomised search found another packing; docs/codegen_design.md), measured: the arena offsets and
the stream's scratch addresses differ, the container is Vela's (checked by giving ours Vela's)."""
OPTIONS_REWRITTEN = {("generic", "u55-128"), ("generic", "u65-256")}
"""Vela writes GATHER's options anew without the batch_dims field its table predates; npu-opt
keeps the options of an operator outside the tfl dialect as the model stored them."""
LITERT_BOUNDS = {"conv": 1, "int16_elementwise": 1}
"""conv ends in a FULLY_CONNECTED that LiteRT's reference kernel rounds once where the NPU rounds
as a convolution does (docs/npu_arithmetic.md); the reference interpreter computes the NPU's.
int16_elementwise's 16-bit tanh and sigmoid are the NPU's built-in functions, which LiteRT
interpolates from its own table (docs/npu_arithmetic.md: at most 1 apart)."""


@lru_cache(maxsize=None)
def scheduled(model: str, config: str, options: str = "optimise=Performance") -> str | None:
    """The IR ``schedule{options}`` gives ``model`` on ``config`` (None when no schedule fits)."""
    accelerator, system, mode = CONFIGS[config]
    found = api.load(DATA / f"{model}.tflite").set_target(accelerator, system_config=system, memory_mode=mode)
    try:
        found.run(f"schedule{{{options}}}")
    except api.NpuOptError:
        return None
    return found.text(debuginfo=True)


@lru_cache(maxsize=None)
def compiled(model: str, config: str, options: str = "optimise=Performance",
             vela_metadata: bool = False) -> bytes | str:
    """The .tflite ``compile{options}`` writes for ``model`` on ``config`` (the code generation
    run on ``scheduled``'s IR), or the error it reports."""
    text = scheduled(model, config, options)
    if text is None:
        return "error: no schedule fits"
    found = api.parse(text, f"{model}.mlir")
    try:
        found.run(CODEGEN_PIPELINE.replace("npu-outline", "npu-outline{vela-metadata}") if vela_metadata
                  else CODEGEN_PIPELINE)
    except api.NpuOptError as err:
        return str(err)
    return export_tflite(found.module)


def test_the_references_cover_every_model_vela_compiles():
    """Every tests/data model but shape.tflite, which Vela 5.2 fails on (an assertion in its
    command-stream generator), on both configs."""
    assert len(REFERENCES) == 2 * (len(MODELS) - 1) and set(IDENTICAL) | PLACED_OTHERWISE <= set(REFERENCES)


@pytest.mark.parametrize("model, config", sorted(REFERENCES))
def test_compile_writes_vela_s_tflite(model, config):
    """Byte for byte Vela's where the streams and the arena offsets are (at least the IDENTICAL
    runs); else Vela's once given Vela's streams and offsets (so only the placement, or what the
    lowering does otherwise, differs). A model not lowered yet fails with an error naming what."""
    ours = compiled(model, config, vela_metadata=True)
    vela = REFERENCES[(model, config)].read_bytes()
    if isinstance(ours, str):
        assert (model, config) not in IDENTICAL | PLACED_OTHERWISE, ours
        assert "not lowered yet" in ours and "error:" in ours
        return
    if (model, config) in IDENTICAL or ours == vela:
        assert ours == vela
        return
    mine, theirs = read_compiled(ours), read_compiled(vela)
    for graph, reference in zip(mine.subgraphs, theirs.subgraphs):
        for op, other in zip(graph.ethos_u(), reference.ethos_u()):
            op.command_stream = other.command_stream
        assert [t.name for t in graph.tensors] == [t.name for t in reference.tensors]
        for tensor, other in zip(graph.tensors, reference.tensors):
            tensor.arena_offset = other.arena_offset
        if (model, config) in OPTIONS_REWRITTEN:
            for op, other in zip(graph.operators, reference.operators):
                op.options = getattr(other, "options", None)
    assert write_compiled(mine) == vela


def test_npu_opt_s_own_description_by_default():
    """Without vela-metadata the model says who compiled it, and has no vela_version entry."""
    ours = read_compiled(compiled("conv", "u55-128"))  # type: ignore[arg-type]
    assert ours.description == "Compiled by npu-opt"
    assert [name for name, _ in ours.metadata] == ["OfflineMemoryAllocation"]


def _run_compiled(data: bytes, inputs: list[np.ndarray]) -> list[np.ndarray]:
    return run_function(import_tflite(data, "compiled.tflite"), inputs)


def _scheduled_reference(model: str, config: str, options: str, inputs: list[np.ndarray]) -> list[np.ndarray]:
    """The reference interpreter's run of the scheduled IR ``compile`` lowered."""
    from npu_opt.interpreters.scheduled import run_scheduled
    text = scheduled(model, config, options)
    assert text is not None
    return run_scheduled(parse_module(text, f"{model}.mlir"), inputs)


SIMULATED = {
    ("u55-128", "optimise=Performance"): (tuple(MODELS), 13), ("u65-256", "optimise=Performance"): (tuple(MODELS), 13),
    ("u55-128", "optimise=Size"): (tuple(MODELS), 8), ("u65-256", "optimise=Size"): (tuple(MODELS), 8),
    ("u55-128", "sram-budget=8000"): (("conv", "stride3", "two_outputs"), 3),
    ("u65-256", "sram-budget=8000"): (("conv", "stride3", "two_outputs"), 3),
}
"""(config, schedule options) -> the models compiled and how many of them hold an ethos-u operator
at least (measured: the Size and budget schedules with cascades do not lower yet)."""


def _simulated(model: str, config: str, options: str) -> bool:
    """Whether ``model`` compiles to an ethos-u operator; if so, it runs in the simulator (the
    exported file imported again) as the reference interpreter runs its scheduled IR, bit for bit,
    and as LiteRT runs the source model (within LITERT_BOUNDS), for two seeds. One that does not
    compile names what is not lowered (or that no schedule fits the budget)."""
    from npu_opt.ir.interpreter import Interpreter
    from npu_opt.tools.litert_compare import run_litert_here
    from npu_opt.tools.run_inputs import function_ports, gather_inputs

    data = compiled(model, config, options)
    if isinstance(data, str):
        assert any(why in data for why in ("not lowered yet", "not outlined yet", "no schedule fits")), data
        return False
    module = import_tflite(data, f"{model}.tflite")
    if not holds_ethos_u(module):
        return False  # every op on the CPU: nothing for the simulator
    arguments, _ = function_ports(Interpreter(module).function())
    source = DATA / f"{model}.tflite"
    for seed in (0, 1):
        inputs = gather_inputs(arguments, [], seed).arrays
        ours = run_function(module, inputs)
        expected = _scheduled_reference(model, config, options, inputs)
        assert [a.tobytes() for a in ours] == [b.tobytes() for b in expected], seed
        theirs = [array for _, array in run_litert_here(source.read_bytes(), str(source), inputs).outputs]
        for mine, reference in zip(ours, theirs):
            difference = np.abs(mine.astype(np.int64).ravel() - reference.astype(np.int64).ravel())
            assert difference.max() <= LITERT_BOUNDS.get(model, 0), seed
    return True


@pytest.mark.parametrize("config, options", sorted(SIMULATED))
def test_compiled_models_simulate_bit_exact(config, options):
    """Every model that compiles (Performance, Size, the search at a budget) simulates bit-exact."""
    pytest.importorskip("ai_edge_litert")
    models, at_least = SIMULATED[(config, options)]
    simulated = [model for model in models if _simulated(model, config, options)]
    assert len(simulated) >= at_least, simulated


CONV_OFM = "ofm = #ethosu.fm<int8, NHWC, region = 1, bases = [192, 0, 0, 0]"
"""conv.tflite's first run on a U55-128: the convolution's OFM, the tensor the CPU reads next."""
CONV_DMA = "src = #ethosu.mem<region = 0, address = 80>"
"""That run's weight DMA, copying the convolution's scales and weights from the read-only data."""


def _edited(old: str, new: str) -> list[np.ndarray]:
    text = print_op(import_tflite(compiled("conv", "u55-128"), "conv.tflite"),  # type: ignore[arg-type]
                    PrintOptions(debuginfo=True))
    assert text.count(old) == 1, old
    inputs = [np.random.default_rng(0).integers(-128, 128, (1, 8, 8, 3)).astype(np.int8)]
    return run_function(parse_module(text.replace(old, new), "conv.mlir"), inputs)


def test_a_moved_ofm_is_caught_by_the_simulator():
    """The convolution writing its OFM 64 bytes on: the output the CPU's depthwise reads was never
    written, which the simulator's checks catch (the unbroken run is the reference's)."""
    inputs = [np.random.default_rng(0).integers(-128, 128, (1, 8, 8, 3)).astype(np.int8)]
    expected = _scheduled_reference("conv", "u55-128", "optimise=Performance", inputs)
    assert [a.tobytes() for a in _edited(CONV_OFM, CONV_OFM)] == [b.tobytes() for b in expected]
    try:
        broken = _edited(CONV_OFM, CONV_OFM.replace("[192,", "[256,"))
    except (InterpretError, SimulatorError) as err:  # (reading the outputs raises the latter)
        assert "nothing wrote" in str(err) or "outside region" in str(err)
        return
    assert [a.tobytes() for a in broken] != [b.tobytes() for b in expected]


def test_a_weight_dma_from_the_wrong_address_is_caught():
    """The weight DMA reading 16 bytes further into the read-only data: the scales and weights the
    convolution decodes are not its own; the simulator's checks or the comparison catch it."""
    inputs = [np.random.default_rng(0).integers(-128, 128, (1, 8, 8, 3)).astype(np.int8)]
    expected = _scheduled_reference("conv", "u55-128", "optimise=Performance", inputs)
    try:
        broken = _edited(CONV_DMA, CONV_DMA.replace("80>", "96>"))
    except InterpretError as err:
        assert "ethosu" in str(err)
        return
    assert [a.tobytes() for a in broken] != [b.tobytes() for b in expected]
