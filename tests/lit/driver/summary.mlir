// --summary prints a short network summary on stdout, after the IR when that goes to stdout too
// (-o FILE for the summary alone): cycles, time and rate at the target's clock, memory used and
// the most bytes live at once per area (npu.usage; not the model's lower bound), cascades and weight streams, and the model's lower bound
// (tools/summary-bound.mlir). Lines whose attribute is missing
// say so. It needs the ops costed.
// RUN: %npu_opt %S/../Inputs/scheduled-two-convs.mlir --summary -o /dev/null | %filecheck %s --check-prefix=SCHED
// RUN: %npu_opt %S/../Inputs/scheduled-two-convs.mlir --summary | %filecheck %s --check-prefix=AFTER
// RUN: %npu_opt %s --pass=estimate --summary -o /dev/null | %filecheck %s --check-prefix=EST
// RUN: not %npu_opt %s --summary 2>&1 | %filecheck %s --check-prefix=NOCOST
// RUN: %npu_opt %S/../../data/conv_float.tflite --pass=estimate --target=ethos-u55-128 --summary -o /dev/null | %filecheck %s --check-prefix=CPU

// SCHED-LABEL: Network summary for scheduled-two-convs
// SCHED-NEXT: Target: Ethos_U55_128, Ethos_U55_High_End_Embedded, Shared_Sram, 500 MHz
// SCHED-NEXT: Schedule: Performance (arena cache size 393,216 B, SRAM target 393,216 B)
// SCHED-NEXT: Total cycles: [[CYCLES:7,248]] (NPU 7,248)
// SCHED-NEXT: Inference time: 0.0145 ms, 68984.55 inferences/s at 500 MHz
// SCHED-NEXT: Memory used / live at the peak:
// SCHED-NEXT: Sram: 7,072 B (6.91 KiB) / 4,000 B (3.91 KiB)
// SCHED-NEXT: Cascades: 1 (2 cascaded ops)
// SCHED-NEXT: Weight streams: 2 (1 double-buffered, 1 prefetched, 4,928 bytes, 4,928 buffer bytes)
// SCHED-NEXT: Lower bound (no schedule goes below it):
// SCHED-NEXT: cycles: 2,304 (ours: 315 % of bound)
// SCHED-NEXT: Sram: 1,408 B (1.38 KiB) (ours: 502 % of bound)
// SCHED-NOT: {{.}}

// AFTER-LABEL: module attributes
// AFTER: return
// AFTER: Network summary for scheduled-two-convs

// EST-LABEL: Network summary for summary
// EST: Memory used: not allocated (no npu.usage: npu-allocate has not run)
// EST-NEXT: Cascades: 0 (0 cascaded ops)
// EST-NEXT: Weight streams: 0

// A model whose every op runs on the CPU has no NPU time to show, and says why.
// CPU: Total cycles: 0 (NPU 0)
// CPU-NEXT: Inference time: not estimated: no op runs on the NPU (2 ops on the CPU, which npu-opt does not estimate)

// NOCOST: error: --summary needs the ops costed
// NOCOST-NOT: Network summary
module attributes {npu.target = #npu.target<"ethos-u55-128">} {
  func.func @f(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> {
    %0 = "tfl.relu"(%x) : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> loc("relu")
    return %0 : tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>
  }
}
