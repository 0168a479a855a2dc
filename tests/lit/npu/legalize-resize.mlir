// npu-legalize on RESIZE_NEAREST_NEIGHBOR: x2 upscaling 1x1 average pools with nearest
// resampling (the first keeping the resize's size as resize_size, a range of Vela's read-only
// data), the last a depthwise convolution picking the neighbour when corners are aligned;
// an ADD of zeros broadcasting a 1x1 IFM; nothing for an identity.
// RUN: %npu_opt %s --split-input-file --pass=npu-legalize | %filecheck %s

// x4: two x2 steps, named <name> and <name>_1 (Vela's clone suffixes).
// CHECK-LABEL: func.func @x4
// CHECK: %[[U1:.*]] = "npu.avg_pool"(%[[X:.*]]) <{name = "up", {{.*}}resampling = "nearest", resize_size = dense<{{.*}}> : tensor<2xi32>}> : ({{.*}}) -> tensor<1x8x8x8x
// CHECK: %[[U2:.*]] = "npu.avg_pool"(%[[U1]]) <{name = "up_1", {{.*}}resampling = "nearest"}> : ({{.*}}) -> tensor<1x16x16x8x
// CHECK: return %[[U2]]
func.func @x4(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x16x16x8x!quant.uniform<i8:f32, 0.5>> {
  %s = "tfl.pseudo_const"() <{value = dense<16> : tensor<2xi32>}> : () -> tensor<2xi32>
  %0 = "tfl.resize_nearest_neighbor"(%x, %s) <{align_corners = false, half_pixel_centers = false}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<2xi32>) -> tensor<1x16x16x8x!quant.uniform<i8:f32, 0.5>> loc("up")
  return %0 : tensor<1x16x16x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// One row upscaled x2 in width only: the NPU upscales both axes and writes the first row.
// CHECK-LABEL: func.func @row
// CHECK: "npu.avg_pool"(%[[X:.*]]) <{name = "row", {{.*}}resampling = "nearest", resize_size = dense<{{.*}}> : tensor<2xi32>}> : (tensor<1x1x4x8x{{.*}}) -> tensor<1x1x8x8x
func.func @row(%x: tensor<1x1x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x8x8x!quant.uniform<i8:f32, 0.5>> {
  %s = "tfl.pseudo_const"() <{value = dense<[1, 8]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %0 = "tfl.resize_nearest_neighbor"(%x, %s) <{align_corners = false, half_pixel_centers = false}> : (tensor<1x1x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<2xi32>) -> tensor<1x1x8x8x!quant.uniform<i8:f32, 0.5>> loc("row")
  return %0 : tensor<1x1x8x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// Aligned corners, 4 -> 7: one x2 nearest upscale read by a 2x2 depthwise kernel whose only 1 is
// at (1, 1) (Vela's convert_resizenn_ac_to_depthwise_conv).
// CHECK-LABEL: func.func @align_corners
// CHECK: %[[W:.*]] = "tfl.pseudo_qconst"() <{qtype = tensor<1x2x2x8x!quant.uniform<i8:f32, 1.0>>, value = dense<{{\[\[\[}}[0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0]], {{\[\[}}0, 0, 0, 0, 0, 0, 0, 0], [1, 1, 1, 1, 1, 1, 1, 1]]]]>
// CHECK: "npu.depthwise_conv2d"(%[[X:.*]], %[[W]], %{{.*}}) <{name = "ac", activation = #npu.act<none, min = -128, max = 127>, kernel = #npu.kernel<2x2, stride = 1x1, dilation = 1x1, padding = [0, 0, 0, 0]>, resampling = "nearest"}>
// CHECK-SAME: -> tensor<1x7x7x8x
func.func @align_corners(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x7x7x8x!quant.uniform<i8:f32, 0.5>> {
  %s = "tfl.pseudo_const"() <{value = dense<7> : tensor<2xi32>}> : () -> tensor<2xi32>
  %0 = "tfl.resize_nearest_neighbor"(%x, %s) <{align_corners = true, half_pixel_centers = false}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<2xi32>) -> tensor<1x7x7x8x!quant.uniform<i8:f32, 0.5>> loc("ac")
  return %0 : tensor<1x7x7x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A 1x1 IFM is broadcast by an ADD to zeros of the OFM's shape (<name>_add); an identity resize
// disappears.
// CHECK-LABEL: func.func @broadcast
// CHECK: %[[Z:.*]] = "tfl.pseudo_qconst"() <{qtype = tensor<1x4x4x8x!quant.uniform<i8:f32, 1.0>>, value = dense<0> : tensor<1x4x4x8xi8>}>
// CHECK: %[[ADD:.*]] = "npu.add"(%[[Z]], %[[X:.*]]) <{name = "b_add", activation = #npu.act<none, min = -128, max = 127>}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 1.0>>, tensor<1x1x1x8x!quant.uniform<i8:f32, 0.5>>)
// CHECK: return %[[ADD]], %[[Y:.*]]
func.func @broadcast(%x: tensor<1x1x1x8x!quant.uniform<i8:f32, 0.5>>, %y: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) {
  %s = "tfl.pseudo_const"() <{value = dense<4> : tensor<2xi32>}> : () -> tensor<2xi32>
  %0 = "tfl.resize_nearest_neighbor"(%x, %s) <{align_corners = false, half_pixel_centers = false}> : (tensor<1x1x1x8x!quant.uniform<i8:f32, 0.5>>, tensor<2xi32>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> loc("b")
  %1 = "tfl.resize_nearest_neighbor"(%y, %s) <{align_corners = false, half_pixel_centers = false}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<2xi32>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> loc("same")
  return %0, %1 : tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>
}
