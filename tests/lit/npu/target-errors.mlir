// Bad target options and bad #npu.target attributes: one clear error each, with "did you mean"
// and the known names, exit 1, no traceback and no output file.
// RUN: not %npu_opt %s --target=ethos-u55-12 -o %t.out 2>&1 | %filecheck %s --check-prefix=ACCEL
// RUN: not %exists %t.out
// RUN: not %npu_opt %s --system-config=Ethos_U55_High_End 2>&1 | %filecheck %s --check-prefix=SYSTEM
// RUN: not %npu_opt %s --memory-mode=shared_sram 2>&1 | %filecheck %s --check-prefix=MODE
// RUN: not %npu_opt %s --config %S/../Inputs/npu-target.ini --system-config=Test_Fast 2>&1 | %filecheck %s --check-prefix=INI-NAME
// RUN: not %npu_opt %s --config %S/../Inputs/npu-target-bad-key.ini 2>&1 | %filecheck %s --check-prefix=BAD-KEY
// RUN: not %npu_opt %s --config %S/../Inputs/npu-target-bad-value.ini 2>&1 | %filecheck %s --check-prefix=BAD-VALUE
// RUN: not %npu_opt %s --config %S/../Inputs/npu-target-cycle.ini 2>&1 | %filecheck %s --check-prefix=CYCLE
// RUN: not %npu_opt %s --config %S/../Inputs/npu-target-malformed.ini 2>&1 | %filecheck %s --check-prefix=MALFORMED
// RUN: not %npu_opt %s --config %S/../Inputs/no-such-file.ini 2>&1 | %filecheck %s --check-prefix=MISSING
// RUN: not %npu_opt %s --arena-cache-size=-4 2>&1 | %filecheck %s --check-prefix=NEGATIVE
// RUN: %npu_opt %s --split-input-file --verify-diagnostics

// ACCEL: npu-opt: error: unknown accelerator 'ethos-u55-12'; did you mean 'ethos-u55-128'? (known accelerators: ethos-u55-32, ethos-u55-64, ethos-u55-128, ethos-u55-256, ethos-u65-256, ethos-u65-512)
// ACCEL-NOT: Traceback
// SYSTEM: npu-opt: error: unknown system config 'Ethos_U55_High_End'; did you mean 'Ethos_U55_High_End_Embedded'? (known system configs: Ethos_U55_Deep_Embedded, Ethos_U55_High_End_Embedded, Ethos_U65_Embedded, Ethos_U65_Mid_End, Ethos_U65_High_End, Ethos_U65_Client_Server, Ethos_U85_SYS_Flash_Low, Ethos_U85_SYS_Flash_High, Ethos_U85_SYS_DRAM_Low, Ethos_U85_SYS_DRAM_Mid, Ethos_U85_SYS_DRAM_High)
// MODE: npu-opt: error: unknown memory mode 'shared_sram'; did you mean 'Shared_Sram'? (known memory modes: Sram_Only, Shared_Sram, Dedicated_Sram, Dedicated_Sram_256KB, Dedicated_Sram_384KB, Dedicated_Sram_512KB)
// INI-NAME: npu-opt: error: unknown system config 'Test_Fast'; did you mean 'Test_Fast_Dram'? (known system configs: {{.*}}, Test_Base, Test_Fast_Dram); searched {{.*}}npu-target.ini and the built-in system configs
// BAD-KEY: npu-opt: error: [System_Config.Typo] in {{.*}}npu-target-bad-key.ini: unknown system config key 'Sram_clok_scale'; did you mean 'Sram_clock_scale'?
// BAD-VALUE: npu-opt: error: [System_Config.Bad_Port] in {{.*}}npu-target-bad-value.ini: axi0_port = 'Axi0' is not a known memory area (expected one of: Sram, Dram, OnChipFlash, OffChipFlash)
// CYCLE: npu-opt: error: [Memory_Mode.A] in {{.*}}npu-target-cycle.ini: inheritance cycle: Memory_Mode.A -> Memory_Mode.B -> Memory_Mode.C -> Memory_Mode.A
// MALFORMED: npu-opt: error: malformed configuration file '{{.*}}npu-target-malformed.ini': line 2: a key outside any [SECTION] ('core_clock=500e6')
// MISSING: npu-opt: error: cannot read configuration file '{{.*}}no-such-file.ini': no such file
// NEGATIVE: npu-opt: error: argument --arena-cache-size: must not be negative, not -4

// expected-error@+1 {{unknown accelerator 'ethos-u56-128'; did you mean 'ethos-u55-128'?}}
module attributes {npu.target = #npu.target<"ethos-u56-128">} {
}

// -----

// expected-error@+1 {{unknown memory mode 'Dedicated_SRAM'; did you mean 'Dedicated_Sram'? (known memory modes: Sram_Only, Shared_Sram, Dedicated_Sram, Dedicated_Sram_256KB, Dedicated_Sram_384KB, Dedicated_Sram_512KB)}}
module attributes {npu.target = #npu.target<"ethos-u65-256", memory_mode = "Dedicated_SRAM">} {
}

// -----

// expected-error@+1 {{#npu.target: unknown field 'arena_size'; did you mean 'arena_cache_size'? (expected system_config, memory_mode or arena_cache_size)}}
module attributes {npu.target = #npu.target<"ethos-u55-128", arena_size = 1024>} {
}

// -----

// expected-error@+1 {{system config 'S' in #npu.target: unknown system config key 'Sram_latency'}}
module attributes {npu.target = #npu.target<"ethos-u55-128", system_config = "S" {Sram_latency = 3}>} {
}

// -----

// expected-error@+1 {{memory mode 'Dedicated_Sram' with system config 'Ethos_U55_High_End_Embedded': arena_mem_area is on Axi1, which is OffChipFlash; it must be Sram or Dram}}
module attributes {npu.target = #npu.target<"ethos-u55-128", memory_mode = "Dedicated_Sram">} {
}

// -----

// expected-error@+1 {{arena_cache_size 4294967297 is larger than the 32-bit address space of ethos-u55-256 (at most 4294967296)}}
module attributes {npu.target = #npu.target<"ethos-u55-256", arena_cache_size = 4294967297>} {
}

// -----

// expected-error@+1 {{#npu.target: missing its accelerator (a string) as the first value}}
module attributes {npu.target = #npu.target<system_config = "Shared_Sram">} {
}
