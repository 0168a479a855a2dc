// The #npu.target module attribute: it parses, prints canonically and round-trips; --target,
// --config, --system-config, --memory-mode and --arena-cache-size set or override it.
// RUN: %npu_opt %s --split-input-file | %filecheck %s
// RUN: %roundtrip
// RUN: %fixedpoint
// RUN: %npu_opt %s --split-input-file --target=ethos-u65-256 | %filecheck %s --check-prefix=U65
// RUN: %npu_opt %s --split-input-file --memory-mode=Sram_Only --arena-cache-size=65536 | %filecheck %s --check-prefix=MODE
// RUN: %npu_opt %s --split-input-file --target=ethos-u65-512 --config %S/../Inputs/npu-target.ini --system-config Test_Fast_Dram --memory-mode Test_Dedicated_1MB | %filecheck %s --check-prefix=INI
// RUN: %npu_opt %s --split-input-file --config Arm/vela.ini --target=ethos-u65-256 --system-config Ethos_U65_Mid_End --memory-mode Dedicated_Sram | %filecheck %s --check-prefix=STOCK

// Only the accelerator: the attribute prints as written (system config and memory mode are
// Vela's defaults for the family). --target replaces the accelerator and names the defaults.
// CHECK-LABEL: module @bare attributes
// CHECK-SAME: {npu.target = #npu.target<"ethos-u55-128">}
// U65-LABEL: module @bare attributes
// U65-SAME: {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_Client_Server", memory_mode = "Dedicated_Sram_384KB">}
// MODE-LABEL: module @bare attributes
// MODE-SAME: {npu.target = #npu.target<"ethos-u55-128", system_config = "Ethos_U55_High_End_Embedded", memory_mode = "Sram_Only", arena_cache_size = 65536>}
// INI-LABEL: module @bare attributes
// INI-SAME: {npu.target = #npu.target<"ethos-u65-512", system_config = "Test_Fast_Dram" {core_clock = 800000000, axi0_port = Sram, axi1_port = Dram, Sram_clock_scale = 1.0, Sram_burst_length = 32, Sram_read_latency = 16, Sram_write_latency = 16, Dram_clock_scale = 0.5, Dram_burst_length = 64, Dram_read_latency = 300, Dram_write_latency = 150}, memory_mode = "Test_Dedicated_1MB" {const_mem_area = Axi1, arena_mem_area = Axi1, cache_mem_area = Axi0, arena_cache_size = 1048576}>}
// STOCK-LABEL: module @bare attributes
// STOCK-SAME: {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_Mid_End", memory_mode = "Dedicated_Sram">}
module @bare attributes {npu.target = #npu.target<"ethos-u55-128">} {
}

// -----

// Every part given; the accelerator name is case-insensitive and prints in lower case.
// CHECK-LABEL: module @full attributes
// CHECK-SAME: {npu.target = #npu.target<"ethos-u65-512", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram_512KB", arena_cache_size = 2097152>}
// U65-LABEL: module @full attributes
// U65-SAME: {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram_512KB", arena_cache_size = 2097152>}
// MODE-LABEL: module @full attributes
// MODE-SAME: {npu.target = #npu.target<"ethos-u65-512", system_config = "Ethos_U65_High_End", memory_mode = "Sram_Only", arena_cache_size = 65536>}
module @full attributes {npu.target = #npu.target<"Ethos-U65-512", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram_512KB", arena_cache_size = 2097152>} {
}

// -----

// A system config and a memory mode defined in the attribute itself, with Vela's .ini keys
// (case-insensitive): keys print in canonical spelling and order, whole clocks as integers.
// CHECK-LABEL: module @inline attributes
// CHECK-SAME: {npu.target = #npu.target<"ethos-u55-256", system_config = "Board" {core_clock = 250000000, axi0_port = Sram, axi1_port = Dram, Sram_burst_length = 16, Dram_clock_scale = 0.25}, memory_mode = "Board_Mode" {const_mem_area = Axi1, arena_mem_area = Axi0, cache_mem_area = Axi0}>}
// The options replace parts they name and keep the rest.
// U65-LABEL: module @inline attributes
// U65-SAME: {npu.target = #npu.target<"ethos-u65-256", system_config = "Board" {core_clock = 250000000, axi0_port = Sram, axi1_port = Dram, Sram_burst_length = 16, Dram_clock_scale = 0.25}, memory_mode = "Board_Mode" {const_mem_area = Axi1, arena_mem_area = Axi0, cache_mem_area = Axi0}>}
module @inline attributes {npu.target = #npu.target<"ethos-u55-256", memory_mode = "Board_Mode" {cache_mem_area = Axi0, const_mem_area = Axi1, arena_mem_area = Axi0}, system_config = "Board" {dram_clock_scale = 0.25, AXI1_PORT = Dram, core_clock = 2.5e8, axi0_port = "Sram", Sram_burst_length = 16}>} {
}

// -----

// No attribute: the options add one; without options the module is left alone.
// CHECK-LABEL: {{^}}module {
// CHECK-NEXT: func.func @no_target
// U65: module attributes {npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_Client_Server", memory_mode = "Dedicated_Sram_384KB">}
// U65-LABEL: func.func @no_target
// MODE: module attributes {npu.target = #npu.target<"ethos-u55-256", system_config = "Ethos_U55_High_End_Embedded", memory_mode = "Sram_Only", arena_cache_size = 65536>}
// MODE-LABEL: func.func @no_target
// INI: module attributes {npu.target = #npu.target<"ethos-u65-512", system_config = "Test_Fast_Dram" {{{.*}}}, memory_mode = "Test_Dedicated_1MB" {{{.*}}}>}
// INI-LABEL: func.func @no_target
func.func @no_target() {
  return
}
