// npu-order{order=memory}: the NPU ops between two CPU ops list-scheduled for the fewest live
// bytes (passes/memory_order.py), parallel branches interleaved; schedule{order=memory} passes
// the option on. tests/data/two_outputs.tflite (a stem feeding two branches, two results) in a
// shared SRAM: Vela's order peaks at 13,424 bytes (as Vela's own schedule), the memory-aware one
// at 13,216 and is no slower; its schedule passes npu-check-schedule. A chain keeps Vela's order.
// RUN: %npu_opt %S/../../data/two_outputs.tflite --target ethos-u55-128 --system-config Ethos_U55_High_End_Embedded --memory-mode Shared_Sram --pass=schedule --summary -o /dev/null | %filecheck %s --check-prefix=VELA
// RUN: %npu_opt %S/../../data/two_outputs.tflite --target ethos-u55-128 --system-config Ethos_U55_High_End_Embedded --memory-mode Shared_Sram --pass='schedule{order=memory}' --summary -o %t.mlir | %filecheck %s --check-prefix=MEMORY
// RUN: %npu_opt %t.mlir --pass=npu-check-schedule -o /dev/null
// RUN: %npu_opt %S/../../data/conv.tflite --target ethos-u55-128 --pass='npu-legalize,npu-order' -o %t.vela.mlir
// RUN: %npu_opt %S/../../data/conv.tflite --target ethos-u55-128 --pass='npu-legalize,npu-order{order=memory}' | diff - %t.vela.mlir
// RUN: not %npu_opt %S/../../data/conv.tflite --pass='npu-order{order=smallest}' -o /dev/null 2>&1 | %filecheck %s --check-prefix=BAD

// VELA: Total cycles: 17,595
// VELA: Sram: 13,424 B
// MEMORY: Total cycles: 17,347
// MEMORY: Sram: 13,216 B
// BAD: error: {{.*}}'order'{{.*}}smallest

// Ordering again after npu-insert-dma: each weight DMA runs just before the op reading it, so
// Vela's order comes back unchanged, and the memory-aware order is the one it is before the
// DMAs exist.
// RUN: %npu_opt %S/../../data/two_outputs.tflite --target ethos-u55-128 --pass='npu-legalize,npu-order,npu-format-nhcwb16,npu-place-tensors{check-limit=false},npu-select-block-config,npu-insert-dma,npu-order{dmas-only=true}' -o %t.dma.mlir
// RUN: %npu_opt %t.dma.mlir --pass=npu-order | diff - %t.dma.mlir
// RUN: %npu_opt %S/../../data/two_outputs.tflite --target ethos-u55-128 --pass='npu-legalize,npu-order{order=memory},npu-format-nhcwb16,npu-place-tensors{check-limit=false},npu-select-block-config,npu-insert-dma,npu-order{dmas-only=true}' -o %t.dma-memory.mlir
// RUN: %npu_opt %t.dma.mlir --pass='npu-order{order=memory}' | diff - %t.dma-memory.mlir

// The order as a search knob: npu-order's default follows npu.schedule's memory_order, which
// npu-search-schedule sets where that schedule is the fastest within the budget. On
// two_outputs, Size in the memory-aware order takes 14,527 cycles in 4,800 bytes where Size in
// Vela's takes 16,872 in 5,008; with the fastest block configs too, 12,959 cycles. Forcing the
// order beside a budget is refused: the search tries it itself.
// RUN: %npu_opt %S/../../data/two_outputs.tflite --target ethos-u55-128 --system-config Ethos_U55_High_End_Embedded --memory-mode Shared_Sram --pass='schedule{sram-budget=20000}' --pass-remarks --summary -o %t.search.mlir 2>&1 | %filecheck %s --check-prefix=SEARCH
// RUN: %npu_opt %t.search.mlir --pass=npu-check-schedule -o /dev/null
// RUN: not %npu_opt %S/../../data/two_outputs.tflite --target ethos-u55-128 --pass='schedule{sram-budget=20000 order=memory}' -o /dev/null 2>&1 | %filecheck %s --check-prefix=FORCED

// SEARCH-DAG: remark: candidate Size with an SRAM target of {{[0-9]+}} bytes, prefetch overlap: 16872 cycles, 5008 bytes of SRAM (dominated)
// SEARCH-DAG: remark: candidate Size with an SRAM target of {{[0-9]+}} bytes, prefetch overlap, memory-aware order: 14527 cycles, 4800 bytes of SRAM (dominated)
// SEARCH: remark: chose Size with an SRAM target of {{[0-9]+}} bytes, prefetch overlap, fastest block configs, memory-aware order: the fastest of {{[0-9]+}} schedules
// SEARCH: Schedule: Size ({{.*}}; prefetch overlap, fastest block configs, memory-aware order)
// SEARCH: Total cycles: 12,959
// SEARCH: Sram: 4,800 B
// FORCED: error: options 'order' and 'sram-budget' of pipeline 'schedule' cannot be given together
