// npu-opt reads a .tflite model directly (recognised by 'TFL3' at bytes 4..8), runs passes on
// it and prints IR; npu-translate --export-tflite writes hand-written IR as a model, whose tensor
// names come from the op locations and the function's tf.entry_function.
// RUN: %npu_opt %S/../../data/elementwise.tflite -p cse,canonicalize --print-debuginfo | %filecheck %s --check-prefix=OPT
// RUN: %npu_translate --export-tflite %s -o %t.tflite
// RUN: %npu_opt %t.tflite --print-debuginfo | %filecheck %s

// OPT-LABEL: func.func @main(
// OPT: "tfl.add"(%arg0, %arg1) <{fused_activation_function = "NONE"}> {{.*}} loc("add")
// OPT: "tfl.dequantize"(%arg0) {{.*}} loc("dequantize")

// CHECK-LABEL: module attributes {tfl.description = "hand written", tfl.schema_version = 3 : i32}
// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[X:.*]]: tensor<1x4xf32>) -> tensor<1x2xf32>
// CHECK-SAME: attributes {tf.entry_function = {inputs = "x", outputs = "y"}}
// CHECK: %[[W:.*]] = "tfl.pseudo_const"() <{value = dense<{{\[\[}}1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<2x4xf32>}> : () -> tensor<2x4xf32> loc("weights")
// CHECK: %[[NONE:.*]] = "tfl.no_value"() <{value}> : () -> none
// CHECK: %[[Y:.*]] = "tfl.fully_connected"(%[[X]], %[[W]], %[[NONE]]) <{fused_activation_function = "RELU", keep_num_dims = false, weights_format = "DEFAULT"}> : (tensor<1x4xf32>, tensor<2x4xf32>, none) -> tensor<1x2xf32> loc("y")
// CHECK: return %[[Y]] : tensor<1x2xf32>
module attributes {tfl.description = "hand written", tfl.schema_version = 3 : i32} {
  func.func @main(%arg0: tensor<1x4xf32>) -> tensor<1x2xf32> attributes {tf.entry_function = {inputs = "x", outputs = "y"}} {
    %0 = "tfl.pseudo_const"() <{value = dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<2x4xf32>}> : () -> tensor<2x4xf32> loc("weights")
    %1 = "tfl.no_value"() <{value}> : () -> none
    %2 = "tfl.fully_connected"(%arg0, %0, %1) <{fused_activation_function = "RELU", keep_num_dims = false, weights_format = "DEFAULT"}> : (tensor<1x4xf32>, tensor<2x4xf32>, none) -> tensor<1x2xf32>
    return %2 : tensor<1x2xf32>
  }
}
