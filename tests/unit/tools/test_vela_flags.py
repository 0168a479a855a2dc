"""Vela's spellings: --accelerator-config is --target, --optimise sets the schedule pipeline's
option, --list-configs lists system configs (with their NPU) and memory modes."""
from __future__ import annotations

import argparse

import pytest

import npu_opt.passes  # noqa: F401 - registers passes
from npu_opt.ir.pass_registry import PipelineError, parse_pipeline, with_option
from npu_opt.tools.cli_args import parse_args
from npu_opt.tools.vela_flags import apply_optimise, list_configs_text


def test_accelerator_config_is_target():
    assert parse_args(["--accelerator-config", "ethos-u55-64", "x.mlir"]).target == "ethos-u55-64"


def test_optimise_reaches_every_pass_that_takes_it():
    args = parse_args(["--pass=schedule", "--optimise", "Size"])
    apply_optimise(args)
    assert args.pipeline == ["schedule{optimise=Size}"]
    strategies = {p.NAME: p.optimise for p in parse_pipeline(args.pipeline[0]) if hasattr(p, "optimise")}
    assert strategies == {"npu-buffer-weights": "Size", "npu-form-cascades": "Size"}


def test_optimise_keeps_other_options_and_anchors():
    text, count = with_option("builtin.module(cse,npu-buffer-weights{buffer-limit=64})", "optimise", "Size")
    assert (text, count) == ("builtin.module(cse,npu-buffer-weights{buffer-limit=64 optimise=Size})", 1)


@pytest.mark.parametrize("pipeline, message", [
    ([], "no pass pipeline is given: add --pass=schedule"),
    (["cse,dce"], "no pass of 'cse,dce' takes it: add --pass=schedule"),
    (["schedule{optimise=Performance}"], "--optimise Size and schedule{optimise=Performance} disagree"),
])
def test_optimise_without_a_taker_is_an_error(pipeline, message):
    args = argparse.Namespace(optimise="Size", pipeline=pipeline)
    with pytest.raises(PipelineError) as err:
        apply_optimise(args)
    assert message in str(err.value)


def test_list_configs_names_each_system_configs_npu(tmp_path):
    ini = tmp_path / "board.ini"
    ini.write_text("[System_Config.Board]\ninherit=System_Config.Ethos_U65_High_End\ncore_clock=4e8\n")
    text = list_configs_text(argparse.Namespace(config=[str(ini)]))
    lines = {line.split()[0]: line for line in text.splitlines() if line.startswith("  ")}
    assert "Ethos-U55, 200 MHz" in lines["Ethos_U55_Deep_Embedded"]
    assert "Ethos-U85 (no npu-opt target)" in lines["Ethos_U85_SYS_DRAM_High"]
    assert "Ethos-U65, 400 MHz" in lines["Board"] and str(ini) in lines["Board"]
    assert "arena cache size 393,216 B (the default for the Ethos-U65)" in lines["Dedicated_Sram_384KB"]
