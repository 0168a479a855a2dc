// npu-legalize on AVERAGE_POOL_2D and MAX_POOL_2D: padding, Vela's stride fix-up, the clamp of
// an activation fused into an average pool, and strided average pools as convolutions.
// RUN: %npu_opt %s --split-input-file --pass=npu-legalize | %filecheck %s

// CHECK-LABEL: func.func @max_pool
// CHECK: %[[M:.*]] = "npu.max_pool"(%[[X:.*]]) <{name = "max", activation = #npu.act<relu6, min = 0, max = 12>, kernel = #npu.kernel<3x3, stride = 2x2, dilation = 1x1, padding = [0, 0, 1, 1]>}>
// CHECK-SAME: -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>
func.func @max_pool(%x: tensor<1x8x8x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> {
  %0 = "tfl.max_pool_2d"(%x) <{filter_height = 3 : i32, filter_width = 3 : i32, fused_activation_function = "RELU6", padding = "SAME", stride_h = 2 : i32, stride_w = 2 : i32}> : (tensor<1x8x8x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> loc("max")
  return %0 : tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A ReLU fused into an average pool whose OFM zero point is -3 gets Vela's clamp: the bound 0 is
// quantised to -3, scaled back to -1.5 and quantised again, to -6.
// CHECK-LABEL: func.func @avg_pool
// CHECK: "npu.avg_pool"(%[[X:.*]]) <{name = "avg", activation = #npu.act<relu, min = -6, max = 127>, kernel = #npu.kernel<2x2, stride = 1x1, dilation = 1x1, padding = [0, 0, 1, 1]>}>
func.func @avg_pool(%x: tensor<1x8x8x8x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<1x8x8x8x!quant.uniform<i8:f32, 0.5:-3>> {
  %0 = "tfl.average_pool_2d"(%x) <{filter_height = 2 : i32, filter_width = 2 : i32, fused_activation_function = "RELU", padding = "SAME", stride_h = 1 : i32, stride_w = 1 : i32}> : (tensor<1x8x8x8x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<1x8x8x8x!quant.uniform<i8:f32, 0.5:-3>> loc("avg")
  return %0 : tensor<1x8x8x8x!quant.uniform<i8:f32, 0.5:-3>>
}

// -----

// A window as large as the IFM, stepping by itself, is a stride-1 VALID pool (fixup_pool_strides).
// CHECK-LABEL: func.func @global_pool
// CHECK: "npu.avg_pool"(%[[X:.*]]) <{name = "gap", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<8x8, stride = 1x1, dilation = 1x1, padding = [0, 0, 0, 0]>}>
func.func @global_pool(%x: tensor<1x8x8x64x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x1x64x!quant.uniform<i8:f32, 0.5>> {
  %0 = "tfl.average_pool_2d"(%x) <{filter_height = 8 : i32, filter_width = 8 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 8 : i32, stride_w = 8 : i32}> : (tensor<1x8x8x64x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x1x64x!quant.uniform<i8:f32, 0.5>> loc("gap")
  return %0 : tensor<1x1x1x64x!quant.uniform<i8:f32, 0.5>>
}

// -----

// An average pool with a width stride above 3 is a convolution with a ones kernel scaled by
// 1/(24*5), named <name>_conv2d and rounding away from zero (convert_avg_pool_to_conv2d). The
// convolution's width stride 5 then folds into the depth: the 25x5x64 IFM is viewed as
// 25x1x320, the kernel 24x5x1 as 24x1x5; the OFM is 1x1, so both strides are 1. The kernel
// keeps one input per group (64 groups of 5 folded inputs); width_fold = 5 says the folded IFM
// interleaves the columns' channels, so output c reads channels 64j + c (not 5c .. 5c + 4).
// CHECK-LABEL: func.func @strided_avg_pool
// CHECK: %[[V:.*]] = "npu.reshape"(%[[X:.*]]) <{name = "pool"}> : (tensor<1x25x5x64x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x25x1x320x!quant.uniform<i8:f32, 0.5>>
// CHECK: %[[W:.*]] = "tfl.pseudo_qconst"() <{qtype = tensor<64x24x1x5x!quant.uniform<i8:f32, 0.008333333333333333>>, value = dense<1> : tensor<64x24x1x5xi8>}>
// CHECK: %[[B:.*]] = "tfl.pseudo_const"() <{value = dense<0> : tensor<64xi32>}>
// CHECK: %[[C:.*]] = "npu.conv2d"(%[[V]], %[[W]], %[[B]]) <{name = "pool_conv2d", activation = #npu.act<none, min = -128, max = 127>, rounding = "away_zero", kernel = #npu.kernel<24x1, stride = 1x1, dilation = 1x1, padding = [0, 0, 0, 0]>, pool_padding = "valid", width_fold = 5 : i64}>
// CHECK-SAME: -> tensor<1x1x1x64x!quant.uniform<i8:f32, 0.5>>
func.func @strided_avg_pool(%x: tensor<1x25x5x64x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x1x64x!quant.uniform<i8:f32, 0.5>> {
  %0 = "tfl.average_pool_2d"(%x) <{filter_height = 24 : i32, filter_width = 5 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 24 : i32, stride_w = 5 : i32}> : (tensor<1x25x5x64x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x1x64x!quant.uniform<i8:f32, 0.5>> loc("pool")
  return %0 : tensor<1x1x1x64x!quant.uniform<i8:f32, 0.5>>
}
