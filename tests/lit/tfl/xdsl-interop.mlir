// xdsl-opt reads the IR of every imported test model (quant types, dense_resource blobs, the
// generic tfl ops), and what it prints exports back to the same model.
// REQUIRES: xdsl
// RUN: %npu_translate --import-tflite %S/../../data/conv.tflite -o %t.conv.mlir
// RUN: xdsl-opt --allow-unregistered-dialect --print-debuginfo %t.conv.mlir -o %t.conv.xdsl.mlir
// RUN: %npu_translate --export-tflite %t.conv.xdsl.mlir -o %t.conv.tflite
// RUN: %npu_translate --import-tflite %t.conv.tflite | diff %t.conv.mlir -
// RUN: %npu_translate --import-tflite %S/../../data/shape.tflite -o %t.shape.mlir
// RUN: xdsl-opt --allow-unregistered-dialect --print-debuginfo %t.shape.mlir -o %t.shape.xdsl.mlir
// RUN: %npu_translate --export-tflite %t.shape.xdsl.mlir -o %t.shape.tflite
// RUN: %npu_translate --import-tflite %t.shape.tflite | diff %t.shape.mlir -
// RUN: %npu_translate --import-tflite %S/../../data/generic.tflite -o %t.generic.mlir
// RUN: xdsl-opt --allow-unregistered-dialect --print-debuginfo %t.generic.mlir | %filecheck %s

// CHECK: "tfl.unsupported"(%{{.*}}, %{{.*}}) <{builtin_code = 36 : i32, builtin_options = dense<[8, 0, 12, 0, 4, 0, 8, 0, 8, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]> : tensor<20xui8>, builtin_options_type = 23 : i32, opcode = "GATHER", version = 1 : i32}>
