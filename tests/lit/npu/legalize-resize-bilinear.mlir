// npu-legalize on RESIZE_BILINEAR, as Vela 5.2 runs it on the NPU: with half-pixel centres a
// 1x1 average pool copy (rb_init_avgpool) and four 2x2 depthwise convolutions, one per output
// phase, interleaved by a strided npu.concat; otherwise the x2 nearest-neighbour steps of a
// resize, the last an average pool over the upscale factor. Resizes the NPU cannot do stay on
// the CPU with a remark naming the shapes and the limit.
// RUN: %npu_opt %s --split-input-file --pass=npu-legalize | %filecheck %s
// RUN: %npu_opt %s --split-input-file --pass=npu-legalize --verify-diagnostics

// Half-pixel x2: the phase (row, column) = (0, 1) convolution blends the rows above and the
// columns to the right (padding top and right); weights in sixteenths, rounded away from zero.
// The padding holds the IFM's edge values (Vela's tile padding): padding_mode = "replicate".
// CHECK-LABEL: func.func @half_pixel
// CHECK: %[[COPY:.*]] = "npu.avg_pool"(%[[X:.*]]) <{name = "rb_init_avgpool", {{.*}}kernel = #npu.kernel<1x1, {{.*}}> : ({{.*}}) -> tensor<1x4x4x8x
// CHECK: %[[P0:.*]] = "npu.depthwise_conv2d"(%[[COPY]], %{{.*}}, %{{.*}}) <{name = "depthwise_conv_0", {{.*}}rounding = "away_zero", kernel = #npu.kernel<2x2, {{.*}}padding = [1, 1, 0, 0]>, padding_mode = "replicate"}>
// CHECK: %[[W1:.*]] = "tfl.pseudo_qconst"() <{qtype = tensor<1x2x2x8x!quant.uniform<i8:f32, 0.0625>>, value = dense<{{\[\[\[}}[3, 3, 3, 3, 3, 3, 3, 3], [1, 1, 1, 1, 1, 1, 1, 1]], {{\[\[}}9, 9, 9, 9, 9, 9, 9, 9], [3, 3, 3, 3, 3, 3, 3, 3]]]]>
// CHECK: %[[P1:.*]] = "npu.depthwise_conv2d"(%[[COPY]], %[[W1]], %{{.*}}) <{name = "depthwise_conv_1", {{.*}}padding = [1, 0, 0, 1]>, padding_mode = "replicate"}>
// CHECK: %[[P2:.*]] = "npu.depthwise_conv2d"(%[[COPY]], {{.*}}name = "depthwise_conv_2", {{.*}}padding = [0, 1, 1, 0]>, padding_mode = "replicate"}>
// CHECK: %[[P3:.*]] = "npu.depthwise_conv2d"(%[[COPY]], {{.*}}name = "depthwise_conv_3", {{.*}}padding = [0, 0, 1, 1]>, padding_mode = "replicate"}>
// CHECK: %[[OUT:.*]] = "npu.concat"(%[[P0]], %[[P1]], %[[P2]], %[[P3]]) <{name = "hp", offsets = [#npu.offset<0, 0, 0, 0>, #npu.offset<0, 0, 1, 0>, #npu.offset<0, 1, 0, 0>, #npu.offset<0, 1, 1, 0>], strides = [1 : i64, 2 : i64, 2 : i64, 1 : i64]}>
// CHECK-SAME: -> tensor<1x8x8x8x
// CHECK: return %[[OUT]]
func.func @half_pixel(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x8x8x8x!quant.uniform<i8:f32, 0.5>> {
  %s = "tfl.pseudo_const"() <{value = dense<8> : tensor<2xi32>}> : () -> tensor<2xi32>
  %0 = "tfl.resize_bilinear"(%x, %s) <{align_corners = false, half_pixel_centers = true}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<2xi32>) -> tensor<1x8x8x8x!quant.uniform<i8:f32, 0.5>> loc("hp")
  return %0 : tensor<1x8x8x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// Aligned corners, 4 -> 7: one x2 nearest upscale averaged over 2x2 without padding, named
// after the op.
// CHECK-LABEL: func.func @align_corners
// CHECK: "npu.avg_pool"(%{{.*}}) <{name = "ac", {{.*}}kernel = #npu.kernel<2x2, stride = 1x1, dilation = 1x1, padding = [0, 0, 0, 0]>, resampling = "nearest", resize_size = dense<{{.*}}> : tensor<2xi32>}> : ({{.*}}) -> tensor<1x7x7x8x
func.func @align_corners(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x7x7x8x!quant.uniform<i8:f32, 0.5>> {
  %s = "tfl.pseudo_const"() <{value = dense<7> : tensor<2xi32>}> : () -> tensor<2xi32>
  %0 = "tfl.resize_bilinear"(%x, %s) <{align_corners = true, half_pixel_centers = false}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<2xi32>) -> tensor<1x7x7x8x!quant.uniform<i8:f32, 0.5>> loc("ac")
  return %0 : tensor<1x7x7x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// x4 without either flag: a 1x1 x2 step, then a 4x4 average of the last x2 step padded by 3
// at the bottom and right.
// CHECK-LABEL: func.func @x4
// CHECK: %[[U:.*]] = "npu.avg_pool"(%{{.*}}) <{name = "up", {{.*}}kernel = #npu.kernel<1x1, {{.*}}resampling = "nearest", resize_size = dense<{{.*}}> : tensor<2xi32>}> : ({{.*}}) -> tensor<1x8x8x8x
// CHECK: "npu.avg_pool"(%[[U]]) <{name = "up_1", {{.*}}kernel = #npu.kernel<4x4, stride = 1x1, dilation = 1x1, padding = [0, 0, 3, 3]>, resampling = "nearest"}> : ({{.*}}) -> tensor<1x16x16x8x
func.func @x4(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x16x16x8x!quant.uniform<i8:f32, 0.5>> {
  %s = "tfl.pseudo_const"() <{value = dense<16> : tensor<2xi32>}> : () -> tensor<2xi32>
  %0 = "tfl.resize_bilinear"(%x, %s) <{align_corners = false, half_pixel_centers = false}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<2xi32>) -> tensor<1x16x16x8x!quant.uniform<i8:f32, 0.5>> loc("up")
  return %0 : tensor<1x16x16x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// Half-pixel centres need a x2 resize.
// CHECK-LABEL: func.func @half_pixel_x4
// CHECK: "tfl.resize_bilinear"{{.*}}{npu.placement = "cpu"}
func.func @half_pixel_x4(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x16x16x8x!quant.uniform<i8:f32, 0.5>> {
  %s = "tfl.pseudo_const"() <{value = dense<16> : tensor<2xi32>}> : () -> tensor<2xi32>
  // expected-remark@+1 {{RESIZE_BILINEAR 'hp4' runs on the CPU: with half_pixel_centers the OFM must be twice the IFM's height and width (or the IFM 1x1); IFM [1, 4, 4, 8] and OFM [1, 16, 16, 8] are a 4x4 resize}}
  %0 = "tfl.resize_bilinear"(%x, %s) <{align_corners = false, half_pixel_centers = true}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<2xi32>) -> tensor<1x16x16x8x!quant.uniform<i8:f32, 0.5>> loc("hp4")
  return %0 : tensor<1x16x16x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A x3 resize.
// CHECK-LABEL: func.func @x3
// CHECK: "tfl.resize_bilinear"{{.*}}{npu.placement = "cpu"}
func.func @x3(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x12x12x8x!quant.uniform<i8:f32, 0.5>> {
  %s = "tfl.pseudo_const"() <{value = dense<12> : tensor<2xi32>}> : () -> tensor<2xi32>
  // expected-remark@+1 {{RESIZE_BILINEAR 'x3' runs on the CPU: resizing [1, 4, 4, 8] to [1, 12, 12, 8] is not an upscale by one factor of 1, 2, 4 or 8 on both axes, nor from a 1x1 IFM}}
  %0 = "tfl.resize_bilinear"(%x, %s) <{align_corners = false, half_pixel_centers = false}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<2xi32>) -> tensor<1x12x12x8x!quant.uniform<i8:f32, 0.5>> loc("x3")
  return %0 : tensor<1x12x12x8x!quant.uniform<i8:f32, 0.5>>
}
