// Import of the convolution family (tests/data/conv.tflite, conv_float.tflite): conv_2d,
// depthwise_conv_2d, max/average pooling, transpose_conv with an absent bias, fully_connected;
// per-channel int8 weights get the symmetric storage range, int32 biases per-axis scales, large
// constants dense_resource blobs, small ones dense literals, tensor names locations.
// RUN: %npu_translate --import-tflite %S/../../data/conv.tflite --print-debuginfo | %filecheck %s
// RUN: %npu_translate --import-tflite %S/../../data/conv_float.tflite --print-debuginfo | %filecheck %s --check-prefix=FLOAT

// CHECK-LABEL: module attributes {tfl.schema_version = 3 : i32}
// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[IN:.*]]: tensor<1x8x8x3x!quant.uniform<i8:f32, 0.0625:-1>>) -> tensor<1x10x!quant.uniform<i8:f32, 0.25>>
// CHECK-SAME: attributes {tf.entry_function = {inputs = "input", outputs = "logits"}}
// CHECK: %[[W:.*]] = "tfl.pseudo_qconst"() <{qtype = tensor<8x3x3x3x!quant.uniform<i8<-127:127>:f32:0, {0.015625,0.03125,0.046875,{{.*}}}>>, value = dense_resource<[[W_BLOB:.*]]> : tensor<8x3x3x3xi8>}>
// CHECK: %[[B:.*]] = "tfl.pseudo_qconst"() <{qtype = tensor<8x!quant.uniform<i32:f32:0, {0.0009765625,{{.*}}}>>, value = dense<[621, 930, {{.*}}]> : tensor<8xi32>}>
// CHECK: %[[CONV:.*]] = "tfl.conv_2d"(%[[IN]], %[[W]], %[[B]]) <{dilation_h_factor = 1 : i32, dilation_w_factor = 1 : i32, fused_activation_function = "RELU", padding = "SAME", stride_h = 2 : i32, stride_w = 2 : i32}>
// CHECK-SAME: -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.125:3>> loc("conv")
// CHECK: %[[DW_W:.*]] = "tfl.pseudo_qconst"() <{qtype = tensor<1x3x3x16x!quant.uniform<i8<-127:127>:f32:3, {{.*}}
// CHECK: %[[DW_B:.*]] = "tfl.pseudo_qconst"()
// CHECK: %[[DW:.*]] = "tfl.depthwise_conv_2d"(%[[CONV]], %[[DW_W]], %[[DW_B]]) <{depth_multiplier = 2 : i32, dilation_h_factor = 2 : i32, dilation_w_factor = 2 : i32, fused_activation_function = "RELU6", padding = "SAME", stride_h = 1 : i32, stride_w = 1 : i32}>
// CHECK-SAME: -> tensor<1x4x4x16x!quant.uniform<i8:f32, 0.25:-5>> loc("depthwise")
// CHECK: %[[MAX:.*]] = "tfl.max_pool_2d"(%[[DW]]) <{filter_height = 2 : i32, filter_width = 2 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 2 : i32, stride_w = 2 : i32}>
// CHECK-SAME: -> tensor<1x2x2x16x!quant.uniform<i8:f32, 0.25:-5>> loc("maxpool")
// CHECK: %[[AVG:.*]] = "tfl.average_pool_2d"(%[[MAX]]) <{filter_height = 2 : i32, filter_width = 2 : i32, fused_activation_function = "NONE", padding = "SAME", stride_h = 1 : i32, stride_w = 1 : i32}>
// CHECK: %[[SHAPE:.*]] = "tfl.pseudo_const"() <{value = dense<[1, 4, 4, 4]> : tensor<4xi32>}> : () -> tensor<4xi32>
// CHECK: %[[TW:.*]] = "tfl.pseudo_qconst"() <{qtype = tensor<4x3x3x16x!quant.uniform<i8<-127:127>:f32:0, {0.0078125,0.0078125,0.0078125,0.0078125}>>
// CHECK: %[[NONE:.*]] = "tfl.no_value"() <{value}> : () -> none
// CHECK: %[[UP:.*]] = "tfl.transpose_conv"(%[[SHAPE]], %[[TW]], %[[AVG]], %[[NONE]]) <{fused_activation_function = "NONE", padding = "SAME", stride_h = 2 : i32, stride_w = 2 : i32}>
// CHECK-SAME: none) -> tensor<1x4x4x4x!quant.uniform<i8:f32, 0.5:2>> loc("transpose_conv")
// CHECK: %[[FLAT:.*]] = "tfl.reshape"(%[[UP]], %{{.*}}) : (tensor<1x4x4x4x!quant.uniform<i8:f32, 0.5:2>>, tensor<2xi32>) -> tensor<1x64x!quant.uniform<i8:f32, 0.5:2>> loc("flatten")
// CHECK: %[[FC:.*]] = "tfl.fully_connected"(%[[FLAT]], %{{.*}}, %{{.*}}) <{fused_activation_function = "NONE", keep_num_dims = false, weights_format = "DEFAULT"}>
// CHECK-SAME: -> tensor<1x10x!quant.uniform<i8:f32, 0.25>> loc("logits")
// CHECK: return %[[FC]] : tensor<1x10x!quant.uniform<i8:f32, 0.25>>
// CHECK: dialect_resources: {
// CHECK: [[W_BLOB]]: "0x10000000E5DF8853

// FLOAT-LABEL: func.func @main(
// FLOAT-SAME: %[[IN:.*]]: tensor<1x6x6x2xf32>) -> tensor<1x4x4x3xf32>
// FLOAT: %[[W:.*]] = "tfl.pseudo_const"() <{value = dense_resource<{{.*}}> : tensor<4x3x3x2xf32>}>
// FLOAT: %[[B:.*]] = "tfl.pseudo_const"() <{value = dense<[0.5, -0.25, 0.125, 1.0]> : tensor<4xf32>}>
// FLOAT: %[[CONV:.*]] = "tfl.conv_2d"(%[[IN]], %[[W]], %[[B]]) <{{.*}}fused_activation_function = "TANH", padding = "VALID"{{.*}} -> tensor<1x4x4x4xf32> loc("conv")
// FLOAT: %[[FW:.*]] = "tfl.pseudo_const"() <{value = dense<{{\[\[}}-0.40634915{{[0-9]*}}, {{.*}}> : tensor<3x4xf32>}>
// FLOAT: %[[NONE:.*]] = "tfl.no_value"()
// FLOAT: "tfl.fully_connected"(%[[CONV]], %[[FW]], %[[NONE]]) <{fused_activation_function = "RELU", keep_num_dims = true, weights_format = "DEFAULT"}> : (tensor<1x4x4x4xf32>, tensor<3x4xf32>, none) -> tensor<1x4x4x3xf32>
