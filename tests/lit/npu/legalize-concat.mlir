// npu-legalize on CONCATENATION: a 1x1 average pool per input writes (and requantises) it into
// its slice of the result (<name><i>_avgpool), npu.concat assembles the slices; a fused
// activation follows as a stand-alone one (Vela's unfuse_activation_function).
// RUN: %npu_opt %s --split-input-file --pass=npu-legalize | %filecheck %s

// CHECK-LABEL: func.func @channels
// CHECK-SAME: (%[[A:.*]]: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, %[[B:.*]]: tensor<1x4x4x16x!quant.uniform<i8:f32, 0.25>>)
// CHECK: %[[W0:.*]] = "npu.avg_pool"(%[[A]]) <{name = "cat0_avgpool", {{.*}}kernel = #npu.kernel<1x1, {{.*}}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>
// CHECK: %[[W1:.*]] = "npu.avg_pool"(%[[B]]) <{name = "cat1_avgpool", {{.*}} : (tensor<1x4x4x16x!quant.uniform<i8:f32, 0.25>>) -> tensor<1x4x4x16x!quant.uniform<i8:f32, 0.5>>
// CHECK: %[[CAT:.*]] = "npu.concat"(%[[W0]], %[[W1]]) <{name = "cat", offsets = [#npu.offset<0, 0, 0, 0>, #npu.offset<0, 0, 0, 8>]}>
// CHECK-SAME: -> tensor<1x4x4x24x!quant.uniform<i8:f32, 0.5>>
// CHECK: %[[R:.*]] = "npu.avg_pool"(%[[CAT]]) <{name = "catRelu_avgpool", activation = #npu.act<relu, min = 0, max = 127>
// CHECK: return %[[R]]
func.func @channels(%a: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, %b: tensor<1x4x4x16x!quant.uniform<i8:f32, 0.25>>) -> tensor<1x4x4x24x!quant.uniform<i8:f32, 0.5>> {
  %0 = "tfl.concatenation"(%a, %b) <{axis = 3 : i32, fused_activation_function = "RELU"}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<1x4x4x16x!quant.uniform<i8:f32, 0.25>>) -> tensor<1x4x4x24x!quant.uniform<i8:f32, 0.5>> loc("cat")
  return %0 : tensor<1x4x4x24x!quant.uniform<i8:f32, 0.5>>
}

// -----

// Rank-3 inputs along axis 1 (the width in 4-D) with a negative axis.
// CHECK-LABEL: func.func @width
// CHECK: %[[V0:.*]] = "npu.reshape"(%[[A:.*]]) <{name = "catw"}> : (tensor<4x3x8x{{.*}}) -> tensor<1x4x3x8x
// CHECK: %[[W0:.*]] = "npu.avg_pool"(%[[V0]]) <{name = "catw0_avgpool"
// CHECK: %[[V1:.*]] = "npu.reshape"(%[[B:.*]]) <{name = "catw"}> : (tensor<4x5x8x{{.*}}) -> tensor<1x4x5x8x
// CHECK: %[[W1:.*]] = "npu.avg_pool"(%[[V1]]) <{name = "catw1_avgpool"
// CHECK: %[[CAT:.*]] = "npu.concat"(%[[W0]], %[[W1]]) <{name = "catw", offsets = [#npu.offset<0, 0, 0, 0>, #npu.offset<0, 0, 3, 0>]}> : ({{.*}}) -> tensor<1x4x8x8x
// CHECK: "npu.reshape"(%[[CAT]]) <{name = "catw"}> : ({{.*}}) -> tensor<4x8x8x
func.func @width(%a: tensor<4x3x8x!quant.uniform<i8:f32, 0.5>>, %b: tensor<4x5x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<4x8x8x!quant.uniform<i8:f32, 0.5>> {
  %0 = "tfl.concatenation"(%a, %b) <{axis = -2 : i32, fused_activation_function = "NONE"}> : (tensor<4x3x8x!quant.uniform<i8:f32, 0.5>>, tensor<4x5x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<4x8x8x!quant.uniform<i8:f32, 0.5>> loc("catw")
  return %0 : tensor<4x8x8x!quant.uniform<i8:f32, 0.5>>
}
