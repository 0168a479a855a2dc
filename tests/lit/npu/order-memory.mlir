// npu-order{order=memory}: the NPU ops between two CPU ops list-scheduled for the fewest live
// bytes (passes/memory_order.py), parallel branches interleaved; schedule{order=memory} passes
// the option on. tests/data/two_outputs.tflite (a stem feeding two branches, two results) in a
// shared SRAM: Vela's order peaks at 14,960 bytes, the memory-aware one at 13,216 and is no
// slower; its schedule passes npu-check-schedule. A chain keeps Vela's order.
// RUN: %npu_opt %S/../../data/two_outputs.tflite --target ethos-u55-128 --system-config Ethos_U55_High_End_Embedded --memory-mode Shared_Sram --pass=schedule --summary -o /dev/null | %filecheck %s --check-prefix=VELA
// RUN: %npu_opt %S/../../data/two_outputs.tflite --target ethos-u55-128 --system-config Ethos_U55_High_End_Embedded --memory-mode Shared_Sram --pass='schedule{order=memory}' --summary -o %t.mlir | %filecheck %s --check-prefix=MEMORY
// RUN: %npu_opt %t.mlir --pass=npu-check-schedule -o /dev/null
// RUN: %npu_opt %S/../../data/conv.tflite --target ethos-u55-128 --pass='npu-legalize,npu-order' -o %t.vela.mlir
// RUN: %npu_opt %S/../../data/conv.tflite --target ethos-u55-128 --pass='npu-legalize,npu-order{order=memory}' | diff - %t.vela.mlir
// RUN: not %npu_opt %S/../../data/conv.tflite --pass='npu-order{order=smallest}' -o /dev/null 2>&1 | %filecheck %s --check-prefix=BAD

// VELA: Total cycles: 17,595
// VELA: Sram: 14,960 B
// MEMORY: Total cycles: 17,347
// MEMORY: Sram: 13,216 B
// BAD: error: {{.*}}'order'{{.*}}smallest
