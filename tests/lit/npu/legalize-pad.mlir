// npu-legalize on PAD: hardware padding of the following convolution or average pool when it
// fits (replace_pad_by_hw_pad), else a copy into the middle of the OFM plus border fills
// assembled by npu.concat (convert_pad).
// RUN: %npu_opt %s --split-input-file --pass=npu-legalize --pass-statistics -o %t.out 2> %t.stats
// RUN: %filecheck %s --input-file %t.out
// RUN: %filecheck %s --check-prefix=STATS --input-file %t.stats

// STATS: (S) 1 pads-absorbed
// STATS: (S) 1 pads-absorbed
// STATS: (S) 0 pads-absorbed
// STATS: (S) 1 pads-absorbed
// STATS: (S) 0 pads-absorbed

// A 1-pixel PAD before a VALID 3x3 convolution is the convolution's padding; the PAD is gone.
// CHECK-LABEL: func.func @into_conv
// CHECK-SAME: (%[[X:.*]]: tensor<1x8x8x4x
// CHECK-NOT: tfl.pad
// CHECK: "npu.conv2d"(%[[X]], {{.*}}) <{name = "conv", {{.*}}kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [1, 1, 1, 1]>}>
// CHECK-SAME: -> tensor<1x8x8x4x
func.func @into_conv(%x: tensor<1x8x8x4x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x8x8x4x!quant.uniform<i8:f32, 0.5>> {
  %p = "tfl.pseudo_const"() <{value = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi32>}> : () -> tensor<4x2xi32>
  %0 = "tfl.pad"(%x, %p) : (tensor<1x8x8x4x!quant.uniform<i8:f32, 0.5>>, tensor<4x2xi32>) -> tensor<1x10x10x4x!quant.uniform<i8:f32, 0.5>> loc("pad")
  %w = "tfl.pseudo_qconst"() <{qtype = tensor<4x3x3x4x!quant.uniform<i8:f32, 0.1>>, value = dense<1> : tensor<4x3x3x4xi8>}> : () -> tensor<4x3x3x4x!quant.uniform<i8:f32, 0.1>>
  %n = "tfl.no_value"() <{value}> : () -> none
  %1 = "tfl.conv_2d"(%0, %w, %n) <{dilation_h_factor = 1 : i32, dilation_w_factor = 1 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 1 : i32, stride_w = 1 : i32}> : (tensor<1x10x10x4x!quant.uniform<i8:f32, 0.5>>, tensor<4x3x3x4x!quant.uniform<i8:f32, 0.1>>, none) -> tensor<1x8x8x4x!quant.uniform<i8:f32, 0.5>> loc("conv")
  return %1 : tensor<1x8x8x4x!quant.uniform<i8:f32, 0.5>>
}

// -----

// Before a VALID 3x3 average pool the PAD makes the pool a depthwise convolution with a 1/9
// kernel (the NPU's padded average pool would not count the padding), rounding away from zero
// with the IFM zero point 2 times 9 as bias.
// CHECK-LABEL: func.func @into_avg_pool
// CHECK-DAG: %[[W:.*]] = "tfl.pseudo_qconst"() <{qtype = tensor<1x3x3x4x!quant.uniform<i8:f32, 0.1111111111111111>>
// CHECK-DAG: %[[B:.*]] = "tfl.pseudo_const"() <{value = dense<18> : tensor<4xi32>}>
// CHECK: "npu.depthwise_conv2d"(%[[X:.*]], %[[W]], %[[B]]) <{name = "pool", activation = #npu.act<none, min = -128, max = 127>, rounding = "away_zero", kernel = #npu.kernel<3x3, stride = 1x1, dilation = 1x1, padding = [1, 1, 1, 1]>, pool_padding = "explicit"}>
func.func @into_avg_pool(%x: tensor<1x8x8x4x!quant.uniform<i8:f32, 0.5:2>>) -> tensor<1x8x8x4x!quant.uniform<i8:f32, 0.5:2>> {
  %p = "tfl.pseudo_const"() <{value = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi32>}> : () -> tensor<4x2xi32>
  %0 = "tfl.pad"(%x, %p) : (tensor<1x8x8x4x!quant.uniform<i8:f32, 0.5:2>>, tensor<4x2xi32>) -> tensor<1x10x10x4x!quant.uniform<i8:f32, 0.5:2>> loc("pad")
  %1 = "tfl.average_pool_2d"(%0) <{filter_height = 3 : i32, filter_width = 3 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 1 : i32, stride_w = 1 : i32}> : (tensor<1x10x10x4x!quant.uniform<i8:f32, 0.5:2>>) -> tensor<1x8x8x4x!quant.uniform<i8:f32, 0.5:2>> loc("pool")
  return %1 : tensor<1x8x8x4x!quant.uniform<i8:f32, 0.5:2>>
}

// -----

// 2 columns on the left exceed a 3x3 kernel's reach (3 // 2 = 1): the PAD is a copy of the IFM
// to offset (0, 1, 2, 0) plus fills of the zero point -1 above, below, left and right. The
// convolution reads the assembled tensor.
// CHECK-LABEL: func.func @copy_and_fill
// CHECK: %[[MAIN:.*]] = "npu.avg_pool"(%[[X:.*]]) <{name = "pad_main", {{.*}}kernel = #npu.kernel<1x1, {{.*}}> : ({{.*}}) -> tensor<1x8x8x4x
// CHECK: %[[TOPC:.*]] = "tfl.pseudo_qconst"() <{qtype = tensor<1x1x8x4x!quant.uniform<i8:f32, 0.5:-1>>, value = dense<-1> : tensor<1x1x8x4xi8>}>
// CHECK: %[[TOP:.*]] = "npu.avg_pool"(%[[TOPC]]) <{name = "pad_top",
// CHECK: %[[BOTTOM:.*]] = "npu.avg_pool"(%{{.*}}) <{name = "pad_bottom", {{.*}} -> tensor<1x1x8x4x
// CHECK: %[[LEFT:.*]] = "npu.avg_pool"(%{{.*}}) <{name = "pad_left", {{.*}} -> tensor<1x10x2x4x
// CHECK: %[[RIGHT:.*]] = "npu.avg_pool"(%{{.*}}) <{name = "pad_right", {{.*}} -> tensor<1x10x1x4x
// CHECK: %[[PAD:.*]] = "npu.concat"(%[[MAIN]], %[[TOP]], %[[BOTTOM]], %[[LEFT]], %[[RIGHT]]) <{name = "pad", offsets = [#npu.offset<0, 1, 2, 0>, #npu.offset<0, 0, 2, 0>, #npu.offset<0, 9, 2, 0>, #npu.offset<0, 0, 0, 0>, #npu.offset<0, 0, 10, 0>]}>
// CHECK-SAME: -> tensor<1x10x11x4x
// CHECK: "npu.conv2d"(%[[PAD]],
func.func @copy_and_fill(%x: tensor<1x8x8x4x!quant.uniform<i8:f32, 0.5:-1>>) -> tensor<1x8x9x4x!quant.uniform<i8:f32, 0.5:-1>> {
  %p = "tfl.pseudo_const"() <{value = dense<[[0, 0], [1, 1], [2, 1], [0, 0]]> : tensor<4x2xi32>}> : () -> tensor<4x2xi32>
  %0 = "tfl.pad"(%x, %p) : (tensor<1x8x8x4x!quant.uniform<i8:f32, 0.5:-1>>, tensor<4x2xi32>) -> tensor<1x10x11x4x!quant.uniform<i8:f32, 0.5:-1>> loc("pad")
  %w = "tfl.pseudo_qconst"() <{qtype = tensor<4x3x3x4x!quant.uniform<i8:f32, 0.1>>, value = dense<1> : tensor<4x3x3x4xi8>}> : () -> tensor<4x3x3x4x!quant.uniform<i8:f32, 0.1>>
  %n = "tfl.no_value"() <{value}> : () -> none
  %1 = "tfl.conv_2d"(%0, %w, %n) <{dilation_h_factor = 1 : i32, dilation_w_factor = 1 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 1 : i32, stride_w = 1 : i32}> : (tensor<1x10x11x4x!quant.uniform<i8:f32, 0.5:-1>>, tensor<4x3x3x4x!quant.uniform<i8:f32, 0.1>>, none) -> tensor<1x8x9x4x!quant.uniform<i8:f32, 0.5:-1>> loc("conv")
  return %1 : tensor<1x8x9x4x!quant.uniform<i8:f32, 0.5:-1>>
}

// -----

// With two users, the convolution absorbs the padding and the graph output gets the copy.
// CHECK-LABEL: func.func @two_users
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x4x4x
// CHECK: "npu.avg_pool"(%[[X]]) <{name = "pad_main",
// CHECK: %[[PAD:.*]] = "npu.concat"({{.*}}) <{name = "pad",
// CHECK: %[[C:.*]] = "npu.conv2d"(%[[X]], {{.*}}) <{name = "conv3x3", {{.*}}padding = [1, 1, 1, 1]>}>
// CHECK: return %[[C]], %[[PAD]]
func.func @two_users(%x: tensor<1x4x4x4x!quant.uniform<i8:f32, 0.5>>) -> (tensor<1x4x4x4x!quant.uniform<i8:f32, 0.5>>, tensor<1x6x6x4x!quant.uniform<i8:f32, 0.5>>) {
  %p = "tfl.pseudo_const"() <{value = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi32>}> : () -> tensor<4x2xi32>
  %0 = "tfl.pad"(%x, %p) : (tensor<1x4x4x4x!quant.uniform<i8:f32, 0.5>>, tensor<4x2xi32>) -> tensor<1x6x6x4x!quant.uniform<i8:f32, 0.5>> loc("pad")
  %w = "tfl.pseudo_qconst"() <{qtype = tensor<4x3x3x4x!quant.uniform<i8:f32, 0.1>>, value = dense<1> : tensor<4x3x3x4xi8>}> : () -> tensor<4x3x3x4x!quant.uniform<i8:f32, 0.1>>
  %n = "tfl.no_value"() <{value}> : () -> none
  %1 = "tfl.conv_2d"(%0, %w, %n) <{dilation_h_factor = 1 : i32, dilation_w_factor = 1 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 1 : i32, stride_w = 1 : i32}> : (tensor<1x6x6x4x!quant.uniform<i8:f32, 0.5>>, tensor<4x3x3x4x!quant.uniform<i8:f32, 0.1>>, none) -> tensor<1x4x4x4x!quant.uniform<i8:f32, 0.5>> loc("conv3x3")
  return %1, %0 : tensor<1x4x4x4x!quant.uniform<i8:f32, 0.5>>, tensor<1x6x6x4x!quant.uniform<i8:f32, 0.5>>
}

// -----

// Channel padding (near 1, far 2) fills whole depth slices.
// CHECK-LABEL: func.func @channels
// CHECK: "npu.avg_pool"({{.*}}) <{name = "padc_main",
// CHECK: "npu.avg_pool"({{.*}}) <{name = "padc_near", {{.*}} -> tensor<1x4x4x1x
// CHECK: "npu.avg_pool"({{.*}}) <{name = "padc_far", {{.*}} -> tensor<1x4x4x2x
// CHECK: "npu.concat"({{.*}}) <{name = "padc", offsets = [#npu.offset<0, 0, 0, 1>, #npu.offset<0, 0, 0, 0>, #npu.offset<0, 0, 0, 5>]}>
func.func @channels(%x: tensor<1x4x4x4x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x7x!quant.uniform<i8:f32, 0.5>> {
  %p = "tfl.pseudo_const"() <{value = dense<[[0, 0], [0, 0], [0, 0], [1, 2]]> : tensor<4x2xi32>}> : () -> tensor<4x2xi32>
  %0 = "tfl.pad"(%x, %p) : (tensor<1x4x4x4x!quant.uniform<i8:f32, 0.5>>, tensor<4x2xi32>) -> tensor<1x4x4x7x!quant.uniform<i8:f32, 0.5>> loc("padc")
  return %0 : tensor<1x4x4x7x!quant.uniform<i8:f32, 0.5>>
}
