"""The #npu.target attribute (parse, print, round trip, errors), target_of, and the target options
of npu-opt (--target, --config, --system-config, --memory-mode, --arena-cache-size)."""
from __future__ import annotations

from pathlib import Path

import pytest

import npu_opt.dialects  # noqa: F401  (registers the npu dialect)
from npu_opt.dialects.npu import TargetAttr, target_of
from npu_opt.hardware.errors import TargetError
from npu_opt.dialects.npu.target_attr import parse_target_body
from npu_opt.ir.diagnostics import UserError
from npu_opt.ir.parser import parse_module
from npu_opt.ir.printer import print_op
from npu_opt.tools.npu_opt import main

TEST_INI = Path(__file__).resolve().parents[3] / "lit" / "Inputs" / "npu-target.ini"


def module_text(body: str) -> str:
    return f"module attributes {{npu.target = #npu.target<{body}>}} {{\n}}\n"


def roundtrip(body: str) -> str:
    """Parse a module carrying ``#npu.target<body>`` and print it twice: both prints must agree."""
    printed = print_op(parse_module(module_text(body)))
    assert print_op(parse_module(printed)) == printed
    return printed


# -- attribute -----------------------------------------------------------------------------------
def test_bare_accelerator_round_trips_and_resolves_with_vela_defaults():
    printed = roundtrip('"ethos-u55-128"')
    assert '#npu.target<"ethos-u55-128">' in printed
    target = target_of(parse_module(printed))
    assert target.accelerator.macs_per_cycle == 128
    assert (target.system.name, target.memory_mode.name) == ("Ethos_U55_High_End_Embedded", "Shared_Sram")


def test_full_attribute_round_trips():
    body = ('"ethos-u65-512", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram_512KB", '
            'arena_cache_size = 2097152')
    assert f"#npu.target<{body}>" in roundtrip(body)
    target = target_of(parse_module(module_text(body)))
    assert target.accelerator.cores == 2 and target.core_clock == 1e9
    assert target.arena_cache_size == 2097152 and target.arena_cache_size_source == "override"


def test_inline_definitions_are_canonicalised():
    printed = roundtrip('"Ethos-U55-64", memory_mode = "M" {CACHE_MEM_AREA = Axi0, const_mem_area = "Axi1"}, '
                        'system_config = "S" {sram_clock_scale = 1, axi1_port = Dram, core_clock = 4.0e8}')
    # Lower-case accelerator, keys in canonical spelling and schema order, system before memory mode.
    assert ('#npu.target<"ethos-u55-64", system_config = "S" {core_clock = 400000000, axi1_port = Dram, '
            'Sram_clock_scale = 1.0}, memory_mode = "M" {const_mem_area = Axi1, cache_mem_area = Axi0}>') in printed
    target = target_of(parse_module(printed))
    assert target.port_areas["Axi1"] == "Dram" and target.arena_port == "Axi0"  # unset: Vela's Axi0


def test_attributes_are_interned_and_equal_spellings_are_one_object():
    a = parse_target_body('"ethos-u55-128", memory_mode = "Shared_Sram"')
    b = TargetAttr.get("ETHOS-U55-128", memory_mode="Shared_Sram")
    assert a is b
    assert TargetAttr.get("ethos-u55-128") is not a


@pytest.mark.parametrize("body, message", [
    ('"ethos-u55-12"', r"unknown accelerator 'ethos-u55-12'; did you mean 'ethos-u55-128'\?"),
    ('"ethos-u55-128", sytem_config = "x"', r"unknown field 'sytem_config'; did you mean 'system_config'\?"),
    ('"ethos-u55-128", memory_mode = "SharedSram"', r"unknown memory mode 'SharedSram'; did you mean 'Shared_Sram'\?"),
    ('"ethos-u55-128", system_config = "Mine"', r"unknown system config 'Mine' \(known system configs: "),
    ('"ethos-u55-128", system_config = "S" {core_clok = 1}', r"unknown system config key 'core_clok'"),
    ('"ethos-u55-128", system_config = "S" {core_clock = 1, core_clock = 2}', r"'core_clock' is given twice"),
    ('"ethos-u55-128", memory_mode = "M" {arena_cache_size = 1.5}', r"arena_cache_size = '1.5' is not an integer"),
    ('"ethos-u55-128", arena_cache_size = 4294967297', r"larger than the 32-bit address space"),
    ('"ethos-u55-128", arena_cache_size = "big"', r"expected an integer, found '\"big\"'"),
    ('"ethos-u55-128", memory_mode = "Shared_Sram", memory_mode = "Sram_Only"', r"'memory_mode' is given twice"),
    ('"ethos-u55-128" "x"', r"unexpected '\"x\"' after the string"),
    ('ethos-u55-128', r"expected a string, found 'ethos-u55-128'"),
    ('"ethos-u55-128", system_config = "S" {core_clock = 1', r"expected '{key = value, ...}' after the name, found '{core_clock = 1'"),
    ('"ethos-u55-128", memory_mode = "Dedicated_Sram"', r"arena_mem_area is on Axi1, which is OffChipFlash"),
    ('"ethos-u55-128"; x', r"unexpected '; x' after the string"),
])
def test_attribute_errors(body, message):
    with pytest.raises(TargetError, match=message):
        parse_target_body(body)


def test_attribute_error_is_reported_at_the_attribute():
    with pytest.raises(UserError) as info:
        parse_module(module_text('"ethos-u55-256", memory_mode = "Shared_SRAM"'), "t.mlir")
    diagnostic = info.value.diagnostic
    assert "did you mean 'Shared_Sram'?" in diagnostic.message
    assert (diagnostic.location.line, diagnostic.location.col) == (1, 33)


def test_target_of_without_an_attribute():
    module = parse_module("module {\n}\n")
    assert target_of(module, required=False) is None
    with pytest.raises(TargetError, match="the module has no 'npu.target' attribute; give one with --target="):
        target_of(module)
    with pytest.raises(TargetError, match="must be a #npu.target<...> attribute, not 3"):
        target_of(parse_module("module attributes {npu.target = 3} {\n}\n"))


# -- npu-opt options -----------------------------------------------------------------------------
def run_opt(tmp_path: Path, text: str, *flags: str) -> tuple[int, str]:
    source = tmp_path / "in.mlir"
    source.write_text(text, encoding="utf-8")
    output = tmp_path / "out.mlir"
    code = main([str(source), "-o", str(output), *flags])
    return code, output.read_text(encoding="utf-8") if output.exists() else ""


EMPTY = "module {\n}\n"


def test_target_flag_fills_in_vela_defaults(tmp_path):
    code, out = run_opt(tmp_path, EMPTY, "--target=ethos-u65-256")
    assert code == 0
    assert ('npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_Client_Server", '
            'memory_mode = "Dedicated_Sram_384KB">') in out


def test_flags_override_parts_of_the_module_attribute(tmp_path):
    text = module_text('"ethos-u55-64", system_config = "Ethos_U55_Deep_Embedded", arena_cache_size = 1024')
    code, out = run_opt(tmp_path, text, "--target=ethos-u55-128", "--memory-mode=Sram_Only")
    assert code == 0
    assert ('#npu.target<"ethos-u55-128", system_config = "Ethos_U55_Deep_Embedded", memory_mode = "Sram_Only", '
            'arena_cache_size = 1024>') in out
    code, out = run_opt(tmp_path, text, "--arena-cache-size=0x800")
    assert code == 0 and '"ethos-u55-64"' in out and "arena_cache_size = 2048>" in out


def test_config_file_sections_are_written_into_the_attribute(tmp_path):
    code, out = run_opt(tmp_path, EMPTY, "--target=ethos-u65-256", "--config", str(TEST_INI),
                        "--system-config", "Test_Fast_Dram", "--memory-mode", "Test_Dedicated_1MB")
    assert code == 0
    assert 'system_config = "Test_Fast_Dram" {core_clock = 800000000, axi0_port = Sram, axi1_port = Dram, ' in out
    assert ('memory_mode = "Test_Dedicated_1MB" {const_mem_area = Axi1, arena_mem_area = Axi1, '
            'cache_mem_area = Axi0, arena_cache_size = 1048576}') in out
    # The printed IR no longer needs the file.
    target = target_of(parse_module(out))
    assert target.core_clock == 800e6 and target.arena_cache_size == 1048576
    # A file section identical to the stock one is named, not spelled out.
    code, out = run_opt(tmp_path, EMPTY, "--config", str(TEST_INI), "--system-config", "Ethos_U55_Deep_Embedded")
    assert code == 0 and 'system_config = "Ethos_U55_Deep_Embedded", memory_mode' in out


def test_vela_stock_config_name_is_built_in(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out = run_opt(tmp_path, EMPTY, "--config", "Arm/vela.ini", "--target=ethos-u65-256",
                        "--system-config", "Ethos_U65_Mid_End")
    assert code == 0 and 'system_config = "Ethos_U65_Mid_End"' in out


@pytest.mark.parametrize("flags, message", [
    (["--target=ethos-u55-12"], "unknown accelerator 'ethos-u55-12'; did you mean 'ethos-u55-128'?"),
    (["--system-config=Ethos_U65_ClientServer"], "did you mean 'Ethos_U65_Client_Server'?"),
    (["--memory-mode=Dedicated_Sram_384"], "did you mean 'Dedicated_Sram_384KB'?"),
    (["--config=missing.ini"], "cannot read configuration file 'missing.ini': no such file"),
    (["--target=ethos-u55-32", "--arena-cache-size=8589934592"], "larger than the 32-bit address space"),
])
def test_option_errors_exit_1_with_one_message(tmp_path, capsys, flags, message):
    code, out = run_opt(tmp_path, EMPTY, *flags)
    err = capsys.readouterr().err
    assert code == 1 and out == ""
    assert message in err and "Traceback" not in err
    assert err.count("error:") == 1


def test_bad_arena_cache_size_is_an_argument_error(tmp_path, capsys):
    code, _ = run_opt(tmp_path, EMPTY, "--arena-cache-size=lots")
    assert code == 1
    assert "argument --arena-cache-size: expected a number of bytes, not 'lots'" in capsys.readouterr().err


def test_reproducer_records_the_target_flags():
    from npu_opt.tools.cli_args import parse_args
    from npu_opt.tools.reproducer import configuration

    args = parse_args(["--target=ethos-u55-128", "--config", str(TEST_INI), "--memory-mode=Sram_Only",
                       "--arena-cache-size=4096", "x.mlir"])
    assert configuration(args) == ["--target=ethos-u55-128", f"--config={TEST_INI}", "--memory-mode=Sram_Only",
                                   "--arena-cache-size=4096"]
