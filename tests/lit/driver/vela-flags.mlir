// Vela's spellings of what npu-opt has: --accelerator-config is --target, --optimise sets the
// schedule pipeline's optimise option, --list-configs lists the system configs (with the NPU each
// is for) and memory modes. A system config for another NPU than the target's is refused.
// RUN: %npu_opt %s --accelerator-config ethos-u65-256 | %filecheck %s --check-prefix=ACCEL
// ACCEL: npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_Client_Server", memory_mode = "Dedicated_Sram_384KB">

// --optimise Size is schedule{optimise=Size}: every pass of the pipeline that takes it gets it.
// RUN: %npu_opt %s --pass=schedule --optimise Size --target=ethos-u55-128 --dump-pass-pipeline -o /dev/null 2>&1 | %filecheck %s --check-prefix=SIZE
// SIZE: npu-buffer-weights{optimise=Size
// SIZE-SAME: npu-form-cascades{sram-target=-1 optimise=Size
// RUN: %npu_opt %s --pass='builtin.module(npu-legalize,npu-buffer-weights)' --optimise Performance --target=ethos-u55-128 --dump-pass-pipeline -o /dev/null 2>&1 | %filecheck %s --check-prefix=PASS
// PASS: npu-buffer-weights{optimise=Performance
// Without a pass that takes it, or disagreeing with the pipeline's own, it is one error.
// RUN: not %npu_opt %s --optimise Size 2>&1 | %filecheck %s --check-prefix=NOPIPE
// NOPIPE: npu-opt: error: --optimise Size sets the strategy of the schedule pipeline, but no pass pipeline is given: add --pass=schedule
// RUN: not %npu_opt %s --optimise Size --pass=cse 2>&1 | %filecheck %s --check-prefix=NOTAKER
// NOTAKER: npu-opt: error: --optimise Size sets the 'optimise' option of the schedule pipeline, but no pass of 'cse' takes it: add --pass=schedule
// RUN: not %npu_opt %s --optimise Size --pass='schedule{optimise=Performance}' 2>&1 | %filecheck %s --check-prefix=DISAGREE
// DISAGREE: npu-opt: error: --optimise Size and schedule{optimise=Performance} disagree: give one of them
// RUN: not %npu_opt %s --optimise Fast --pass=schedule 2>&1 | %filecheck %s --check-prefix=CHOICE
// CHOICE: npu-opt: error: argument --optimise: invalid choice: 'Fast' (choose from 'Performance', 'Size')

// RUN: %npu_opt --list-configs | %filecheck %s --check-prefix=LIST
// LIST: Targets (--target, Vela's --accelerator-config): ethos-u55-32, ethos-u55-64, ethos-u55-128, ethos-u55-256, ethos-u65-256, ethos-u65-512
// LIST: System configs (--system-config), with the NPU each is for:
// LIST-NEXT: Ethos_U55_Deep_Embedded Ethos-U55, 200 MHz, AXI0 Sram, AXI1 OffChipFlash
// LIST-NEXT: Ethos_U55_High_End_Embedded Ethos-U55, 500 MHz, AXI0 Sram, AXI1 OffChipFlash (the default for the Ethos-U55)
// LIST: Ethos_U65_Client_Server Ethos-U65, 1000 MHz, AXI0 Sram, AXI1 Dram (the default for the Ethos-U65)
// LIST-NEXT: Ethos_U85_SYS_Flash_Low Ethos-U85 (no npu-opt target), 200 MHz, AXI0 Sram, AXI1 OffChipFlash
// LIST: Memory modes (--memory-mode):
// LIST-NEXT: Sram_Only constants Axi0, arena Axi0, cache Axi0
// LIST-NEXT: Shared_Sram constants Axi1, arena Axi0, cache Axi0 (the default for the Ethos-U55)
// LIST: Dedicated_Sram_384KB constants Axi1, arena Axi1, cache Axi0, arena cache size 393,216 B (the default for the Ethos-U65)
// A configuration file's sections are listed with the file, an inherited NPU with them.
// RUN: %npu_opt --list-configs --config %S/../Inputs/npu-target.ini | %filecheck %s --check-prefix=FILE
// FILE: Test_Fast_Dram any NPU (its name names none), 800 MHz, AXI0 Sram, AXI1 Dram [{{.*}}npu-target.ini]
// FILE: Test_Dedicated_1MB constants Axi1, arena Axi1, cache Axi0, arena cache size 1,048,576 B [{{.*}}npu-target.ini]

// RUN: not %npu_opt %s --target=ethos-u55-128 --system-config=Ethos_U85_SYS_DRAM_Low 2>&1 | %filecheck %s --check-prefix=U85
// U85: npu-opt: error: system config 'Ethos_U85_SYS_DRAM_Low' is for the Ethos-U85, but the target ethos-u55-128 is an Ethos-U55: choose a system config for the Ethos-U55 (Ethos_U55_Deep_Embedded, Ethos_U55_High_End_Embedded) or a target for the Ethos-U85 (npu-opt has none: it targets the Ethos-U55 and Ethos-U65)
// RUN: not %npu_opt %s --target=ethos-u65-256 --system-config=Ethos_U55_High_End_Embedded 2>&1 | %filecheck %s --check-prefix=U55
// U55: npu-opt: error: system config 'Ethos_U55_High_End_Embedded' is for the Ethos-U55, but the target ethos-u65-256 is an Ethos-U65
// The target the module names counts too.
// RUN: not %npu_opt %s --split-input-file --system-config=Ethos_U55_Deep_Embedded 2>&1 | %filecheck %s --check-prefix=MODULE
// MODULE: error: system config 'Ethos_U55_Deep_Embedded' is for the Ethos-U55, but the target ethos-u65-512 is an Ethos-U65

module {
}

// -----

module @u65 attributes {npu.target = #npu.target<"ethos-u65-512">} {
}
