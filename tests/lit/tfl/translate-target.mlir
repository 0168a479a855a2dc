// npu-translate --import-tflite takes the same target flags as npu-opt and records the target
// on the module; a misspelt accelerator gets "did you mean".
// RUN: npu-translate --import-tflite %S/../../data/conv.tflite --target=ethos-u65-256 --system-config=Ethos_U65_High_End --memory-mode=Dedicated_Sram | %filecheck %s
// RUN: not npu-translate --import-tflite %S/../../data/conv.tflite --target=ethos-u55-12 2>&1 | %filecheck %s --check-prefix=ERR

// CHECK: module attributes {{{.*}}npu.target = #npu.target<"ethos-u65-256", system_config = "Ethos_U65_High_End", memory_mode = "Dedicated_Sram">
// CHECK-LABEL: func.func @main
// ERR: npu-translate: error: unknown accelerator 'ethos-u55-12'; did you mean 'ethos-u55-128'?
