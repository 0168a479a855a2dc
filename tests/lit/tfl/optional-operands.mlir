// Operands TFLite lets a model leave out (the operator simply has fewer inputs) may be absent
// here too: the bias of conv_2d, depthwise_conv_2d, transpose_conv and fully_connected, and
// PADV2's constant_values. Such ops verify, round-trip bit-exactly through a .tflite file, and a
// bias-less transpose_conv is estimated (Vela 5.2.0 legacy, U55-128: 596 NPU cycles).
// RUN: %npu_opt %s | %filecheck %s
// RUN: %npu_translate --export-tflite %s -o %t.tflite
// RUN: %npu_translate --import-tflite %t.tflite -o %t.mlir
// RUN: %npu_translate --export-tflite %t.mlir -o %t.2.tflite
// RUN: cmp %t.tflite %t.2.tflite
// RUN: %npu_opt %t.tflite --pass=estimate --target=ethos-u55-128 --perf-report=%t.csv -o /dev/null
// RUN: %filecheck %s --input-file %t.csv --check-prefix=CSV

// CHECK-LABEL: func.func @main
// CHECK: "tfl.transpose_conv"(%{{.*}}, %{{.*}}, %{{.*}}) <{
// CHECK-SAME: -> tensor<1x4x4x4x!quant.uniform<i8:f32, 0.5:2>>
// CSV: tconv,npu.transpose_conv2d,4x4x8,596,
module {
  func.func @main(%arg0: tensor<1x2x2x16x!quant.uniform<i8:f32, 0.25:-5>>) -> tensor<1x4x4x4x!quant.uniform<i8:f32, 0.5:2>> {
    %s = "tfl.pseudo_const"() <{value = dense<[1, 4, 4, 4]> : tensor<4xi32>}> : () -> tensor<4xi32>
    %w = "tfl.pseudo_qconst"() <{qtype = tensor<4x3x3x16x!quant.uniform<i8<-127:127>:f32:0, {0.0078125,0.0078125,0.0078125,0.0078125}>>, value = dense<3> : tensor<4x3x3x16xi8>}> : () -> tensor<4x3x3x16x!quant.uniform<i8<-127:127>:f32:0, {0.0078125,0.0078125,0.0078125,0.0078125}>>
    %0 = "tfl.transpose_conv"(%s, %w, %arg0) <{fused_activation_function = "NONE", padding = "SAME", stride_h = 2 : i32, stride_w = 2 : i32}> : (tensor<4xi32>, tensor<4x3x3x16x!quant.uniform<i8<-127:127>:f32:0, {0.0078125,0.0078125,0.0078125,0.0078125}>>, tensor<1x2x2x16x!quant.uniform<i8:f32, 0.25:-5>>) -> tensor<1x4x4x4x!quant.uniform<i8:f32, 0.5:2>> loc("tconv")
    return %0 : tensor<1x4x4x4x!quant.uniform<i8:f32, 0.5:2>>
  }

// CHECK-LABEL: func.func @no_bias
// CHECK: "tfl.conv_2d"(%{{.*}}, %{{.*}}) <{
// CHECK: "tfl.depthwise_conv_2d"(%{{.*}}, %{{.*}}) <{
// CHECK: "tfl.fully_connected"(%{{.*}}, %{{.*}}) <{
// CHECK: "tfl.padv2"(%{{.*}}, %{{.*}}) :
  func.func @no_bias(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x6x6x8x!quant.uniform<i8:f32, 0.5>> {
    %w = "tfl.pseudo_qconst"() <{qtype = tensor<8x1x1x8x!quant.uniform<i8:f32, 0.25>>, value = dense<1> : tensor<8x1x1x8xi8>}> : () -> tensor<8x1x1x8x!quant.uniform<i8:f32, 0.25>>
    %c = "tfl.conv_2d"(%x, %w) <{dilation_h_factor = 1 : i32, dilation_w_factor = 1 : i32, fused_activation_function = "NONE", padding = "SAME", stride_h = 1 : i32, stride_w = 1 : i32}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<8x1x1x8x!quant.uniform<i8:f32, 0.25>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>
    %dw = "tfl.pseudo_qconst"() <{qtype = tensor<1x3x3x8x!quant.uniform<i8:f32, 0.25>>, value = dense<1> : tensor<1x3x3x8xi8>}> : () -> tensor<1x3x3x8x!quant.uniform<i8:f32, 0.25>>
    %d = "tfl.depthwise_conv_2d"(%c, %dw) <{depth_multiplier = 1 : i32, dilation_h_factor = 1 : i32, dilation_w_factor = 1 : i32, fused_activation_function = "NONE", padding = "SAME", stride_h = 1 : i32, stride_w = 1 : i32}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<1x3x3x8x!quant.uniform<i8:f32, 0.25>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>
    %fw = "tfl.pseudo_qconst"() <{qtype = tensor<8x8x!quant.uniform<i8:f32, 0.25>>, value = dense<1> : tensor<8x8xi8>}> : () -> tensor<8x8x!quant.uniform<i8:f32, 0.25>>
    %f = "tfl.fully_connected"(%d, %fw) <{fused_activation_function = "NONE", keep_num_dims = true, weights_format = "DEFAULT"}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<8x8x!quant.uniform<i8:f32, 0.25>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>
    %p = "tfl.pseudo_const"() <{value = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi32>}> : () -> tensor<4x2xi32>
    %o = "tfl.padv2"(%f, %p) : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<4x2xi32>) -> tensor<1x6x6x8x!quant.uniform<i8:f32, 0.5>>
    return %o : tensor<1x6x6x8x!quant.uniform<i8:f32, 0.5>>
  }
}
