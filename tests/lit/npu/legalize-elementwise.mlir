// npu-legalize on ADD, SUB, MUL, MINIMUM, MAXIMUM (full, broadcast and scalar operands), the
// stand-alone ReLU family and QUANTIZE.
// RUN: %npu_opt %s --split-input-file --pass=npu-legalize | %filecheck %s

// The second operand of the SUB is 1-D: the NPU reads it as 1x1x1x8 and broadcasts it. The MUL's
// 0-D constant stays a scalar operand.
// CHECK-LABEL: func.func @binary
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, %[[Y:.*]]: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.25>>, %[[C:.*]]: tensor<8x!quant.uniform<i8:f32, 0.5>>)
// CHECK: %[[ADD:.*]] = "npu.add"(%[[X]], %[[Y]]) <{name = "add", activation = #npu.act<relu, min = 0, max = 127>}>
// CHECK: %[[CV:.*]] = "npu.reshape"(%[[C]]) <{name = "sub"}> : (tensor<8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x1x8x!quant.uniform<i8:f32, 0.5>>
// CHECK: %[[SUB:.*]] = "npu.sub"(%[[ADD]], %[[CV]]) <{name = "sub", activation = #npu.act<none, min = -128, max = 127>}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<1x1x1x8x!quant.uniform<i8:f32, 0.5>>)
// CHECK: %[[S:.*]] = "tfl.pseudo_qconst"
// CHECK: %[[MUL:.*]] = "npu.mul"(%[[SUB]], %[[S]]) <{name = "mul", activation = #npu.act<relu_n1_to_1, min = -2, max = 2>}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<!quant.uniform<i8:f32, 0.5>>)
// CHECK: %[[MIN:.*]] = "npu.minimum"(%[[MUL]], %[[X]]) <{name = "min", activation = #npu.act<none, min = -128, max = 127>}>
// CHECK: %[[MAX:.*]] = "npu.maximum"(%[[MIN]], %[[X]]) <{name = "max", activation = #npu.act<none, min = -128, max = 127>}>
// CHECK: return %[[MAX]]
func.func @binary(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, %y: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.25>>, %c: tensor<8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> {
  %0 = "tfl.add"(%x, %y) <{fused_activation_function = "RELU"}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<1x4x4x8x!quant.uniform<i8:f32, 0.25>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> loc("add")
  %1 = "tfl.sub"(%0, %c) <{fused_activation_function = "NONE"}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> loc("sub")
  %s = "tfl.pseudo_qconst"() <{qtype = tensor<!quant.uniform<i8:f32, 0.5>>, value = dense<3> : tensor<i8>}> : () -> tensor<!quant.uniform<i8:f32, 0.5>>
  %2 = "tfl.mul"(%1, %s) <{fused_activation_function = "RELU_N1_TO_1"}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> loc("mul")
  %3 = "tfl.minimum"(%2, %x) : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> loc("min")
  %4 = "tfl.maximum"(%3, %x) : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> loc("max")
  return %4 : tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A stand-alone RELU6 after an NPU op with no activation of its own joins that op (Vela packs
// them into one pass); the RELU's IFM has a second user, so it gets a 1x1 average pool of its own.
// CHECK-LABEL: func.func @relu_fusion
// CHECK: %[[A:.*]] = "npu.add"(%[[X:.*]], %[[X]]) <{name = "sum", activation = #npu.act<relu6, min = 0, max = 12>}>
// CHECK: %[[M:.*]] = "npu.max_pool"(%[[A]])
// CHECK: %[[R:.*]] = "npu.avg_pool"(%[[M]]) <{name = "relu_avgpool", activation = #npu.act<relu, min = 0, max = 127>, kernel = #npu.kernel<1x1, stride = 1x1, dilation = 1x1, padding = [0, 0, 0, 0]>}>
// CHECK: return %[[R]], %[[M]]
func.func @relu_fusion(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) {
  %0 = "tfl.add"(%x, %x) <{fused_activation_function = "NONE"}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> loc("sum")
  %1 = "tfl.relu6"(%0) : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> loc("relu6")
  %2 = "tfl.max_pool_2d"(%1) <{filter_height = 1 : i32, filter_width = 1 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 1 : i32, stride_w = 1 : i32}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> loc("pool")
  %3 = "tfl.relu"(%2) : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> loc("relu")
  return %3, %2 : tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A RELU whose IFM and OFM scales differ is a 1x1 average pool with an explicit rescale 0.5/0.25 =
// 2^30 / 2^29 (fixup_relus_with_differing_ifm_ofm_scaling); QUANTIZE is a 1x1 average pool too.
// CHECK-LABEL: func.func @rescaling
// CHECK: %[[R:.*]] = "npu.avg_pool"(%[[X:.*]]) <{name = "relu_avgpool", activation = #npu.act<relu, min = 0, max = 127>, rescale = #npu.rescale<multiplier = 1073741824, shift = 29>, kernel = #npu.kernel<1x1, stride = 1x1, dilation = 1x1, padding = [0, 0, 0, 0]>}>
// CHECK: %[[Q:.*]] = "npu.avg_pool"(%[[R]]) <{name = "requant", activation = #npu.act<none, min = -32768, max = 32767>, kernel = #npu.kernel<1x1, stride = 1x1, dilation = 1x1, padding = [0, 0, 0, 0]>}>
// CHECK-SAME: -> tensor<1x4x4x8x!quant.uniform<i16:f32, 0.001>>
func.func @rescaling(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i16:f32, 0.001>> {
  %0 = "tfl.relu"(%x) : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.25>> loc("relu")
  %1 = "tfl.quantize"(%0) <{qtype = tensor<1x4x4x8x!quant.uniform<i16:f32, 0.001>>}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.25>>) -> tensor<1x4x4x8x!quant.uniform<i16:f32, 0.001>> loc("requant")
  return %1 : tensor<1x4x4x8x!quant.uniform<i16:f32, 0.001>>
}

// -----

// SQUARED_DIFFERENCE in 32-bit arithmetic as TFLite's reference: widen each input shifted left
// by 7 (a 1x1 depthwise convolution by 1 with the explicit multiplier 2^7), rescale both to
// twice the larger scale (0.25 and 0.5 against 1.0), subtract, square, rescale into the OFM
// (1.0^2 / (2^14 * 0.0625) = 2^-10 as 2^30 / 2^40).
// CHECK-LABEL: func.func @squared_difference
// CHECK: %[[W1:.*]] = "npu.depthwise_conv2d"(%[[X:.*]], {{.*}}) <{name = "sd_ifm_32bit_shifted", {{.*}}rescale = #npu.rescale<multiplier = 128, shift = 0>, kernel = #npu.kernel<1x1,
// CHECK-SAME: -> tensor<1x4x4x8x!quant.uniform<i32:f32, 1.0>>
// CHECK: %[[S1:.*]] = "npu.mul"(%[[W1]], %{{.*}}) <{name = "sd_scaled_input1", {{.*}}rescale = #npu.rescale<multiplier = 1073741824, shift = 32>}>
// CHECK: %[[W2:.*]] = "npu.depthwise_conv2d"(%[[Y:.*]], {{.*}}) <{name = "sd_ifm2_32bit_shifted",
// CHECK: %[[S2:.*]] = "npu.mul"(%[[W2]], %{{.*}}) <{name = "sd_scaled_input2", {{.*}}rescale = #npu.rescale<multiplier = 1073741824, shift = 31>}>
// CHECK: %[[D:.*]] = "npu.sub"(%[[S1]], %[[S2]]) <{name = "sd_raw_diff", {{.*}} -> tensor<1x4x4x8xi32>
// CHECK: %[[SQ:.*]] = "npu.mul"(%[[D]], %[[D]]) <{name = "sd_squared_raw",
// CHECK: "npu.mul"(%[[SQ]], %{{.*}}) <{name = "sd", activation = #npu.act<none, min = -128, max = 127>, rescale = #npu.rescale<multiplier = 1073741824, shift = 40>}>
func.func @squared_difference(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.25>>, %y: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.0625>> {
  %0 = "tfl.squared_difference"(%x, %y) : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.25>>, tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.0625>> loc("sd")
  return %0 : tensor<1x4x4x8x!quant.uniform<i8:f32, 0.0625>>
}
