// ethosu-estimate costs compiled command streams (here Vela legacy's) with our performance model:
// npu.cost on the first operation of each scheduled op and npu.cost_totals on the module, on the
// accelerator the CONFIG word names; --summary on a compiled model runs it when no pass is named.
// RUN: %npu_opt %S/../../data/vela/compiled/conv.u55-128.legacy.tflite --pass=ethosu-estimate --elide-large-constants=16 | %filecheck %s
// RUN: %npu_opt %S/../../data/vela/compiled/conv.u55-128.legacy.tflite --pass=ethosu-estimate --pass-remarks -o /dev/null 2>&1 | %filecheck %s --check-prefix=REMARK
// RUN: %npu_opt %S/../../data/vela/cascaded/wide_image.u55-128.tflite --pass=ethosu-estimate --pass-remarks -o /dev/null 2>&1 | %filecheck %s --check-prefix=CASCADE
// RUN: %npu_opt %S/../../data/vela/compiled/conv.u55-128.legacy.tflite --summary -o /dev/null | %filecheck %s --check-prefix=SUMMARY
// RUN: not %npu_opt %S/../../data/vela/compiled/conv.u55-128.legacy.tflite --target=ethos-u65-256 --summary -o /dev/null 2>&1 | %filecheck %s --check-prefix=MISMATCH

// CHECK-LABEL: module attributes {tfl.description = "Vela 5.2.0 Optimised"
// CHECK-SAME: npu.target = #npu.target<"ethos-u55-128">, npu.cost_totals = #npu.cost<total = 2742, npu = 2029
// CHECK: "ethosu.dma"() <{{.*}}length = 368 : i64}> : () -> ()
// CHECK: "ethosu.conv2d"() <{{.*}}}> {npu.cost = #npu.cost<total = 608,
// CHECK: "ethosu.pool"() <{{.*}}mode = "max"{{.*}}}> {npu.cost = #npu.cost<total = 84,
// CHECK: "ethosu.pool"() <{{.*}}mode = "average"{{.*}}}> {npu.cost = #npu.cost<total = 64,
// CHECK: "ethosu.conv2d"() <{{.*}}upscale = "transpose"{{.*}}}> {npu.cost = #npu.cost<total = 1090,
// CHECK: "ethosu.conv2d"() <{{.*}}}> {npu.cost = #npu.cost<total = 896,

// REMARK-LABEL: remark: 1 NPU operation costed as 1 scheduled op on ethos-u55-128: 608 cycles
// REMARK: remark: 4 NPU operations costed as 4 scheduled ops on ethos-u55-128: 2,134 cycles

// CASCADE-LABEL: remark: 84 NPU operations costed as 10 scheduled ops on ethos-u55-128: 365,344 cycles

// SUMMARY-LABEL: Network summary for conv.u55-128.legacy
// SUMMARY: Target: Ethos_U55_128, Ethos_U55_High_End_Embedded, Shared_Sram, 500 MHz
// SUMMARY: Total cycles: 2,742 (NPU 2,029)

// MISMATCH-LABEL: error: the operator's CONFIG word names ethos-u55-128, but the target is ethos-u65-256: cost it on ethos-u55-128 (--target=ethos-u55-128)
