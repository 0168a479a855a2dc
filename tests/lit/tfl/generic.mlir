// Operators outside the dialect keep everything needed to write them back: a builtin (GATHER)
// becomes tfl.unsupported with its opcode, version and raw options table; a CUSTOM operator
// becomes tfl.custom with its code, option bytes and version. Several subgraphs become several
// functions, in order. Exporting and importing again gives the same IR.
// RUN: %npu_translate --import-tflite %S/../../data/generic.tflite | %filecheck %s
// RUN: %npu_translate --import-tflite %S/../../data/custom.tflite | %filecheck %s --check-prefix=CUSTOM
// RUN: %npu_translate --import-tflite %S/../../data/generic.tflite --print-debuginfo -o %t.mlir
// RUN: %npu_translate --export-tflite %t.mlir -o %t.tflite
// RUN: %npu_translate --import-tflite %t.tflite --print-debuginfo -o %t.again.mlir
// RUN: diff %t.mlir %t.again.mlir

// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[P:.*]]: tensor<4x6xf32>, %[[I:.*]]: tensor<3xi32>) -> tensor<4x3xf32>
// CHECK: %[[G:.*]] = "tfl.unsupported"(%[[P]], %[[I]]) <{builtin_code = 36 : i32, builtin_options = dense<[8, 0, 12, 0, 4, 0, 8, 0, 8, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]> : tensor<20xui8>, builtin_options_type = 23 : i32, opcode = "GATHER", version = 1 : i32}> : (tensor<4x6xf32>, tensor<3xi32>) -> tensor<4x3xf32>
// CHECK: return %[[G]] : tensor<4x3xf32>
// CHECK-LABEL: func.func @helper(
// CHECK-SAME: %[[H:.*]]: tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK: %[[SUM:.*]] = "tfl.add"(%[[H]], %[[H]]) <{fused_activation_function = "NONE"}>
// CHECK: return %[[SUM]]

// CUSTOM-LABEL: func.func @main(
// CUSTOM-SAME: %[[X:.*]]: tensor<4x3xf32>)
// CUSTOM: %[[C:.*]] = "tfl.custom"(%[[X]]) <{custom_code = "MyCustomOp", custom_option = dense<[1, 2, 3]> : tensor<3xui8>, version = 2 : i32}> : (tensor<4x3xf32>) -> tensor<4x3xf32>
// CUSTOM: return %[[C]]
