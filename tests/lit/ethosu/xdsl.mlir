// xdsl-opt reads the ethosu IR npu-opt prints (generic form, the dialect unregistered there) and
// npu-opt reads back what it prints, unchanged.
// REQUIRES: xdsl
// RUN: %npu_translate --decode-command-stream %S/../../data/ethosu/u55-128/elementwise_0.bin -o %t.mlir
// RUN: xdsl-opt %t.mlir --allow-unregistered-dialect --print-op-generic -o %t.xdsl.mlir
// RUN: %npu_opt %t.xdsl.mlir -o %t.back.mlir
// RUN: diff %t.mlir %t.back.mlir
// RUN: %filecheck %s --input-file %t.back.mlir

// CHECK-LABEL: "ethosu.program"() ({
// CHECK:         "ethosu.elementwise"() <{{{.*}}mode = "add", ifm2 = #ethosu.fm<
// CHECK:         "ethosu.stop"() <{mask = 65535 : i32}>
