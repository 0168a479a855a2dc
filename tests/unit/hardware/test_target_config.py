"""System configs and memory modes: the built-in stock sections, .ini files with inherit, errors,
and the resolved Target (Vela's defaults, the Sram_Only adjustment, arena cache size, bandwidth).

Stock values are those of Vela 5.2.0 ``config_files/Arm/vela.ini``; defaults and the derivation
rules are those of ``architecture_features.py`` (``_get_vela_config``, ``_set_default_sys_config``,
``_set_default_mem_mode``, ``is_spilling_enabled``, ``mem_type_size``).
"""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from npu_opt.hardware.errors import TargetError
from npu_opt.hardware.target import MemoryTiming, SystemConfig, resolve_target
from npu_opt.hardware.vela_config import MEMORY_MODE, SYSTEM_CONFIG, VelaConfig, builtin_config
from npu_opt.ir.diagnostics import UserError

INPUTS = Path(__file__).resolve().parents[2] / "lit" / "Inputs"
TEST_INI = INPUTS / "npu-target.ini"


def write_ini(tmp_path: Path, text: str, name: str = "test.ini") -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return str(path)


# -- built-in stock sections ---------------------------------------------------------------------
def test_builtin_names_are_vela_stock_names():
    config = builtin_config()
    assert config.names(SYSTEM_CONFIG) == [
        "Ethos_U55_Deep_Embedded", "Ethos_U55_High_End_Embedded", "Ethos_U65_Embedded", "Ethos_U65_Mid_End",
        "Ethos_U65_High_End", "Ethos_U65_Client_Server", "Ethos_U85_SYS_Flash_Low", "Ethos_U85_SYS_Flash_High",
        "Ethos_U85_SYS_DRAM_Low", "Ethos_U85_SYS_DRAM_Mid", "Ethos_U85_SYS_DRAM_High"]
    assert config.names(MEMORY_MODE) == ["Sram_Only", "Shared_Sram", "Dedicated_Sram", "Dedicated_Sram_256KB",
                                         "Dedicated_Sram_384KB", "Dedicated_Sram_512KB"]


@pytest.mark.parametrize("name, clock, slow, slow_scale, slow_latency, sram_reads", [
    # vela.ini [System_Config.*]: core_clock, axi1_port, <axi1>_clock_scale,
    # <axi1>_read_latency/_write_latency, Sram_max_reads. All have Sram on axi0 with clock scale
    # 1.0, burst 32, latency 32/32, and a burst of 128 on axi1.
    ("Ethos_U55_Deep_Embedded", 200e6, "OffChipFlash", 0.0625, (64, 0), 8),
    ("Ethos_U55_High_End_Embedded", 500e6, "OffChipFlash", 0.125, (64, 0), 4),
    ("Ethos_U65_Embedded", 500e6, "OffChipFlash", 0.0625, (64, 0), 8),
    ("Ethos_U65_Mid_End", 500e6, "Dram", 0.46875, (500, 250), 8),
    ("Ethos_U65_High_End", 1e9, "Dram", 0.234375, (500, 250), 16),
    ("Ethos_U65_Client_Server", 1e9, "Dram", 0.75, (500, 250), 16),
])
def test_stock_u55_u65_system_configs(name, clock, slow, slow_scale, slow_latency, sram_reads):
    target = resolve_target("ethos-u65-256" if "U65" in name else "ethos-u55-128", name, "Shared_Sram")
    system = target.system
    assert (system.core_clock, system.axi0_port, system.axi1_port) == (clock, "Sram", slow)
    assert system.timings["Sram"] == MemoryTiming(1.0, 1, 32, 32, 32, sram_reads, sram_reads)
    flash = system.timings[slow]
    assert (flash.clock_scale, flash.burst_length, flash.read_latency, flash.write_latency) == (
        slow_scale, 128, *slow_latency)


def test_stock_u85_system_config_uses_several_ports():
    # [System_Config.Ethos_U85_SYS_DRAM_High]: Sram_ports_used=4, Dram_ports_used=2, SRAM burst 64.
    system = SystemConfig.from_resolved(builtin_config().resolve(SYSTEM_CONFIG, "Ethos_U85_SYS_DRAM_High"))
    assert system.timings["Sram"].ports_used == 4 and system.timings["Sram"].burst_length == 64
    assert system.timings["Dram"].ports_used == 2 and system.timings["Dram"].max_reads == 64


@pytest.mark.parametrize("mode, ports, cache_size", [
    # vela.ini [Memory_Mode.*]: const/arena/cache_mem_area and arena_cache_size.
    ("Sram_Only", ("Axi0", "Axi0", "Axi0"), None),
    ("Shared_Sram", ("Axi1", "Axi0", "Axi0"), None),
    ("Dedicated_Sram", ("Axi1", "Axi1", "Axi0"), None),
    ("Dedicated_Sram_256KB", ("Axi1", "Axi1", "Axi0"), 262144),
    ("Dedicated_Sram_384KB", ("Axi1", "Axi1", "Axi0"), 393216),
    ("Dedicated_Sram_512KB", ("Axi1", "Axi1", "Axi0"), 524288),
])
def test_stock_memory_modes(mode, ports, cache_size):
    memory_mode = resolve_target("ethos-u65-256", "Ethos_U65_High_End", mode).memory_mode
    assert (memory_mode.const_mem_area, memory_mode.arena_mem_area, memory_mode.cache_mem_area) == ports
    assert memory_mode.arena_cache_size == cache_size


def test_vela_defaults_without_names():
    # _set_default_sys_config / _set_default_mem_mode.
    u55 = resolve_target("ethos-u55-64")
    assert (u55.system.name, u55.memory_mode.name) == ("Ethos_U55_High_End_Embedded", "Shared_Sram")
    u65 = resolve_target("ethos-u65-512")
    assert (u65.system.name, u65.memory_mode.name) == ("Ethos_U65_Client_Server", "Dedicated_Sram_384KB")
    assert u65.arena_cache_size == 393216 and u65.arena_cache_size_source == "memory mode"


# -- the resolved Target -------------------------------------------------------------------------
def test_shared_sram_target():
    target = resolve_target("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram")
    assert target.permanent_storage_area == "OffChipFlash"
    assert target.feature_map_storage_area == "Sram" and target.fast_storage_area == "Sram"
    assert not target.is_spilling_enabled and not target.const_moved_to_on_chip_flash
    # No arena_cache_size anywhere: the address space, 4 GiB on U55 (max_address_offset).
    assert target.arena_cache_size == 1 << 32 and target.arena_cache_size_source == "default"
    # Bandwidth = 8 bytes (U55 AXI) x ports used x clock scale; per second x core clock.
    assert target.bandwidth_bytes_per_cycle("Sram") == 8.0
    assert target.bandwidth_bytes_per_cycle("OffChipFlash") == 1.0
    assert target.bandwidth_bytes_per_second("Sram") == 4e9
    assert target.scratch_size_limit(fast=True) == 1 << 32


def test_dedicated_sram_target_spills_and_limits_the_cache():
    target = resolve_target("ethos-u65-256", "Ethos_U65_Client_Server", "Dedicated_Sram_384KB")
    assert target.feature_map_storage_area == "Dram" and target.fast_storage_area == "Sram"
    assert target.is_spilling_enabled
    assert target.scratch_size_limit(fast=True) == 393216
    assert target.scratch_size_limit(fast=False) == 1 << 40
    assert target.bandwidth_bytes_per_cycle("Dram") == 12.0  # 16 x 0.75


def test_sram_only_moves_constants_to_an_on_chip_flash_with_sram_timing():
    target = resolve_target("ethos-u55-256", "Ethos_U55_High_End_Embedded", "Sram_Only")
    assert target.const_moved_to_on_chip_flash
    assert target.const_port == "Axi1" and target.port_areas["Axi1"] == "OnChipFlash"
    assert target.permanent_storage_area == "OnChipFlash"
    assert target.timing("OnChipFlash") == target.timing("Sram")
    assert target.system.axi1_port == "OffChipFlash"  # the configured system is unchanged
    text = target.describe()
    assert "axi1_port = OnChipFlash" in text and "OffChipFlash:" not in text
    assert "arena_cache_size = 4294967296 (default)" in text


def test_arena_cache_size_override_wins():
    target = resolve_target("ethos-u65-256", None, "Dedicated_Sram_384KB", arena_cache_size=2097152)
    assert target.arena_cache_size == 2097152 and target.arena_cache_size_source == "override"
    with pytest.raises(TargetError, match="larger than the 32-bit address space of ethos-u55-128"):
        resolve_target("ethos-u55-128", arena_cache_size=(1 << 32) + 1)
    assert resolve_target("ethos-u65-256", arena_cache_size=1 << 40).arena_cache_size == 1 << 40


def test_unknown_names_suggest_and_list():
    with pytest.raises(TargetError) as info:
        resolve_target("ethos-u55-128", "Ethos_U55_High_End")
    message = str(info.value)
    assert "unknown system config 'Ethos_U55_High_End'; did you mean 'Ethos_U55_High_End_Embedded'?" in message
    assert "(known system configs: Ethos_U55_Deep_Embedded, " in message
    with pytest.raises(TargetError, match="did you mean 'Dedicated_Sram_384KB'"):
        resolve_target("ethos-u55-128", None, "dedicated_sram_384kb")


def test_target_errors_are_user_errors_and_value_errors():
    with pytest.raises(UserError):
        resolve_target("ethos-u55-1")
    with pytest.raises(ValueError):
        resolve_target("ethos-u55-1")


# -- .ini files ----------------------------------------------------------------------------------
def test_test_ini_inherits_and_overrides():
    config = VelaConfig.load([str(TEST_INI)])
    fast = config.resolve(SYSTEM_CONFIG, "Test_Fast_Dram")
    # Own keys win over inherited ones; a lower-case key is the same key.
    assert fast.get("core_clock") == 800e6 and fast.get("Dram_clock_scale") == 0.5
    assert fast.get("Dram_read_latency") == 300 and fast.get("axi1_port") == "Dram"
    assert fast.get("Sram_max_reads") is None  # set nowhere in the chain
    mode = config.resolve(MEMORY_MODE, "Test_Dedicated_1MB")  # inherits a built-in through a chain
    assert dict(mode.values) == {"const_mem_area": "Axi1", "arena_mem_area": "Axi1", "cache_mem_area": "Axi0",
                                 "arena_cache_size": 1048576}
    target = resolve_target("ethos-u65-256", "Test_Fast_Dram", "Test_Dedicated_1MB", config=config)
    assert target.bandwidth_bytes_per_cycle("Dram") == 8.0  # 16 x 0.5
    assert target.timing("Sram") == MemoryTiming(1.0, 1, 32, 16, 16)
    assert target.arena_cache_size == 1048576
    # Built-ins stay available next to the file's sections; the file's copy replaces a built-in.
    assert "Shared_Sram" in config.names(MEMORY_MODE)
    assert not config.is_builtin(SYSTEM_CONFIG, "Ethos_U55_Deep_Embedded")
    assert config.is_builtin(SYSTEM_CONFIG, "Ethos_U65_High_End")


def test_unset_keys_take_vela_internal_defaults(tmp_path):
    path = write_ini(tmp_path, """
        [System_Config.Bare]
        axi1_port=Dram
        [Memory_Mode.Bare]
        const_mem_area=Axi1
        arena_mem_area=Axi1
    """)
    target = resolve_target("ethos-u55-128", "Bare", "Bare", config=VelaConfig.load([path]))
    # core_clock 1, axi0_port Sram, clock scale 1, 1 port, burst 1, latencies 0; cache on Axi0.
    assert target.core_clock == 1.0 and target.port_areas["Axi0"] == "Sram"
    assert target.timing("Dram") == MemoryTiming()
    assert target.cache_port == "Axi0"


def test_later_files_override_earlier_ones_key_by_key(tmp_path):
    first = write_ini(tmp_path, """
        [System_Config.S]
        core_clock=100e6
        axi1_port=Dram
    """, "a.ini")
    second = write_ini(tmp_path, """
        [System_Config.S]
        CORE_CLOCK=300e6
    """, "b.ini")
    resolved = VelaConfig.load([first, second]).resolve(SYSTEM_CONFIG, "S")
    assert dict(resolved.values) == {"core_clock": 300e6, "axi1_port": "Dram"}


@pytest.mark.parametrize("text, message", [
    ("[System_Config.X]\ncore_clok=1\n",
     r"\[System_Config.X\] in .*: unknown system config key 'core_clok'; did you mean 'core_clock'\?"),
    ("[Memory_Mode.X]\nconst_mem_area=Axi2\n",
     r"const_mem_area = 'Axi2' is not a known AXI port; did you mean 'Axi1'\? \(expected one of: Axi0, Axi1\)"),
    ("[System_Config.X]\naxi0_port=sram\n", r"axi0_port = 'sram' is not a known memory area; did you mean 'Sram'\?"),
    ("[System_Config.X]\ncore_clock=fast\n", r"core_clock = 'fast' is not a number"),
    ("[System_Config.X]\ncore_clock=0\n", r"core_clock must be positive"),
    ("[System_Config.X]\nSram_burst_length=32.5\n", r"Sram_burst_length = '32.5' is not an integer"),
    ("[Memory_Mode.X]\narena_cache_size=-1\n", r"arena_cache_size = -1 must not be negative"),
    ("[Memory_Mode.X]\nCONST_MEM_AREA=Axi1\nconst_mem_area=Axi0\n",
     r"key 'const_mem_area' is set twice \('CONST_MEM_AREA' and 'const_mem_area'\)"),
    ("[Memory_Mode.X]\ninherit=Memory_Mode.X\n", r"inheritance cycle: Memory_Mode.X -> Memory_Mode.X"),
    ("[Memory_Mode.A]\ninherit=Memory_Mode.B\n[Memory_Mode.B]\ninherit=Memory_Mode.A\n",
     r"inheritance cycle: Memory_Mode.A -> Memory_Mode.B -> Memory_Mode.A"),
    ("[Memory_Mode.X]\ninherit=Memory_Mode.Shared_SRAM\n",
     r"inherit = Memory_Mode.Shared_SRAM: unknown section .*did you mean 'Memory_Mode.Shared_Sram'\?"),
    ("[System_Config.X]\ninherit=Memory_Mode.Shared_Sram\n",
     r"\[Memory_Mode.Shared_Sram\] in built-in: unknown system config key 'const_mem_area'"),
    ("core_clock=1\n", r"malformed configuration file '.*': line 1: a key outside any \[SECTION\]"),
    ("[System_Config.X]\n[System_Config.X]\n", r"line 2: section \[System_Config.X\] is defined twice"),
    ("[System_Config.X]\ncore_clock=1\ncore_clock=2\n", r"line 3: key 'core_clock' is set twice"),
    ("[System_Config.X]\nnot a key value line\n", r"cannot parse line 2"),
    ("[DEFAULT]\ncore_clock=1\n", r"a DEFAULT section is not supported"),
])
def test_ini_errors(tmp_path, text, message):
    path = write_ini(tmp_path, text)
    with pytest.raises(TargetError, match=message):
        VelaConfig.load([path])


def test_file_errors(tmp_path):
    with pytest.raises(TargetError, match="cannot read configuration file '.*missing.ini': no such file"):
        VelaConfig.load([str(tmp_path / "missing.ini")])
    with pytest.raises(TargetError, match="it is a directory"):
        VelaConfig.load([str(tmp_path)])
    binary = tmp_path / "binary.ini"
    binary.write_bytes(b"\xff\xfe\x00[")
    with pytest.raises(TargetError, match="is not UTF-8 text"):
        VelaConfig.load([str(binary)])


def test_unknown_name_in_a_file_says_where_it_looked():
    config = VelaConfig.load([str(TEST_INI)])
    with pytest.raises(TargetError, match=r"unknown system config 'Test_Fast'; did you mean 'Test_Fast_Dram'\?.*"
                                          r"searched .*npu-target.ini and the built-in system configs"):
        config.resolve(SYSTEM_CONFIG, "Test_Fast")


def test_inconsistent_memory_mode_is_rejected(tmp_path):
    # Dedicated SRAM puts the arena on Axi1, which these systems connect to a flash (Vela's
    # ConfigOptionError: arena_mem_area must be Sram or Dram).
    with pytest.raises(TargetError, match="arena_mem_area is on Axi1, which is OffChipFlash; it must be Sram or Dram"):
        resolve_target("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Dedicated_Sram")
    path = write_ini(tmp_path, """
        [Memory_Mode.Cache_In_Flash]
        const_mem_area=Axi1
        arena_mem_area=Axi0
        cache_mem_area=Axi1
    """)
    with pytest.raises(TargetError, match="cache_mem_area is on Axi1, which is OffChipFlash; it must be Sram"):
        resolve_target("ethos-u55-128", None, "Cache_In_Flash", config=VelaConfig.load([path]))


@pytest.mark.parametrize("accel, system, npu", [
    ("ethos-u55-128", "Ethos_U85_SYS_DRAM_Low", "Ethos-U85"),
    ("ethos-u55-256", "Ethos_U65_High_End", "Ethos-U65"),
    ("ethos-u65-256", "Ethos_U55_High_End_Embedded", "Ethos-U55"),
])
def test_a_system_config_for_another_npu_is_refused(accel, system, npu):
    with pytest.raises(TargetError) as err:
        resolve_target(accel, system)
    mine = "Ethos-U55" if "u55" in accel else "Ethos-U65"
    assert str(err.value).startswith(f"system config '{system}' is for the {npu}, but the target {accel} is an {mine}")


def test_the_npu_of_a_system_config_is_its_names_or_inherited(tmp_path):
    config_file = tmp_path / "board.ini"
    config_file.write_text("[System_Config.Board]\ninherit=System_Config.Ethos_U85_SYS_DRAM_Low\n"
                           "[System_Config.Plain]\ninherit=System_Config.Board\n[System_Config.Own]\ncore_clock=1e8\n")
    config = VelaConfig.load([str(config_file)])
    assert [config.npu_of(n) for n in ("Board", "Plain", "Own", "Ethos_U55_Deep_Embedded", "Ethos_U65_Mid_End")] == [
        "Ethos-U85", "Ethos-U85", None, "Ethos-U55", "Ethos-U65"]
