// npu-legalize on SOFTMAX: Vela's decomposition into a channel max pool, an exp table, a sum and a
// Newton-Raphson reciprocal in 32-bit arithmetic; 31 ops for 8-bit data, 14 for int16, named
// <name>_<op><n> as in Vela's per-layer reports.
// RUN: %npu_opt %s --split-input-file --pass=npu-legalize | %filecheck %s

// CHECK-LABEL: func.func @softmax8
// CHECK-SAME: (%[[X:.*]]: tensor<1x10x!quant.uniform<i8:f32, 0.125:3>>)
// CHECK: %[[V:.*]] = "npu.reshape"(%[[X]]) <{name = "sm"}> : (tensor<1x10x!quant.uniform<i8:f32, 0.125:3>>) -> tensor<1x1x1x10x!quant.uniform<i8:f32, 0.125:3>>
// CHECK: %[[LANES:.*]] = "npu.reshape"(%[[X]]) <{name = "sm"}> : ({{.*}}) -> tensor<1x1x10x1x!quant.uniform<i8:f32, 0.125:3>>
// CHECK: %[[MAX:.*]] = "npu.max_pool"(%[[LANES]]) <{name = "sm_maxpool0", activation = #npu.act<none, min = -128, max = 127>, rescale = #npu.rescale<multiplier = 1, shift = 0>, kernel = #npu.kernel<1x10, {{.*}}}> : ({{.*}}) -> tensor<1x1x1x1x!quant.uniform<i8:f32, 1.0:3>>
// CHECK: %[[EXP_LUT:.*]] = "tfl.pseudo_const"() <{value = dense<"0x{{[0-9A-F]+}}"> : tensor<256xi32>}>
// CHECK: %[[EXP:.*]] = "npu.sub"(%[[V]], %[[MAX]], %[[EXP_LUT]]) <{name = "sm_sub1", activation = #npu.act<lut, min = -128, max = 127>, rescale = #npu.rescale<multiplier = 1, shift = 0>}> : ({{.*}}) -> tensor<1x1x1x10x!quant.uniform<i32:f32, 1.0:127>>
// CHECK: "npu.shr"(%[[EXP]], %{{.*}}) <{name = "sm_shr2", activation = #npu.act<clip, min = -125, max = 130>, rescale = #npu.rescale<multiplier = 1, shift = 0>, rounding = "half_up"}>
// CHECK: "npu.reduce_sum"({{.*}}) <{name = "sm_reduce_sum3"
// CHECK: "npu.clz"({{.*}}) <{name = "sm_clz4"
// CHECK: "npu.sub"({{.*}}) <{name = "sm_sub5"
// CHECK: "npu.sub"({{.*}}) <{name = "sm_sub6"
// CHECK: "npu.shl"({{.*}}) <{name = "sm_shl7"
// CHECK: "npu.sub"({{.*}}) <{name = "sm_sub8"
// CHECK: "npu.shl"({{.*}}) <{name = "sm_shl9"
// CHECK: "npu.add"({{.*}}) <{name = "sm_add10", activation = #npu.act<clip, min = -128, max = 127>, rescale = #npu.rescale<multiplier = 1, shift = 1>}>
// CHECK: "npu.mul"({{.*}}) <{name = "sm_mul11", activation = #npu.act<clip, min = -128, max = 127>, rescale = #npu.rescale<multiplier = 1073741824, shift = 31>}> : ({{.*}}) -> tensor<1x1x1x1x!quant.uniform<i32:f32, 2.0>>
// CHECK: "npu.add"({{.*}}) <{name = "sm_add12", activation = #npu.act<clip, min = -128, max = 127>, rescale = #npu.rescale<multiplier = 1, shift = 0>}>
// CHECK: "npu.mul"({{.*}}) <{name = "sm_mul13"
// CHECK: "npu.sub"({{.*}}) <{name = "sm_sub14", activation = #npu.act<clip, min = -128, max = 127>, rescale = #npu.rescale<multiplier = 1, shift = 0>}>
// CHECK: "npu.mul"({{.*}}) <{name = "sm_mul15"
// CHECK: "npu.mul"({{.*}}) <{name = "sm_mul16"
// CHECK: "npu.add"({{.*}}) <{name = "sm_add17"
// CHECK: "npu.add"({{.*}}) <{name = "sm_add22"
// CHECK: "npu.add"({{.*}}) <{name = "sm_add27"
// CHECK: "npu.mul"({{.*}}) <{name = "sm_mul28", activation = #npu.act<clip, min = -128, max = 127>, rescale = #npu.rescale<multiplier = 1, shift = 0>}>
// CHECK: %[[SCALED:.*]] = "npu.mul"(%[[EXP]], %{{.*}}) <{name = "sm_mul29", activation = #npu.act<clip, min = -128, max = 127>, rescale = #npu.rescale<multiplier = 1073741824, shift = 31>}>
// CHECK: %[[OUT:.*]] = "npu.shr"(%[[SCALED]], %{{.*}}) <{name = "sm_shr30", activation = #npu.act<none, min = -128, max = 127>, rounding = "half_up"}> : ({{.*}}) -> tensor<1x1x1x10x!quant.uniform<i8:f32, 0.00390625:-128>>
// CHECK: %[[R:.*]] = "npu.reshape"(%[[OUT]]) <{name = "sm"}>
// CHECK: return %[[R]]
func.func @softmax8(%x: tensor<1x10x!quant.uniform<i8:f32, 0.125:3>>) -> tensor<1x10x!quant.uniform<i8:f32, 0.00390625:-128>> {
  %0 = "tfl.softmax"(%x) <{beta = 1.0 : f32}> : (tensor<1x10x!quant.uniform<i8:f32, 0.125:3>>) -> tensor<1x10x!quant.uniform<i8:f32, 0.00390625:-128>> loc("sm")
  return %0 : tensor<1x10x!quant.uniform<i8:f32, 0.00390625:-128>>
}

// -----

// A batch of 2 is stacked in height: 2x1x4x5 is viewed as 1x2x4x5.
// CHECK-LABEL: func.func @softmax_batch
// CHECK: "npu.reshape"(%[[X:.*]]) <{name = "smb"}> : (tensor<2x1x4x5x!quant.uniform<i8:f32, 0.125>>) -> tensor<1x2x4x5x!quant.uniform<i8:f32, 0.125>>
// CHECK: "npu.max_pool"({{.*}}) <{name = "smb_maxpool0", {{.*}}kernel = #npu.kernel<1x5, {{.*}}}> : (tensor<1x8x5x1x{{.*}}) -> tensor<1x8x1x1x
// CHECK: "npu.shr"({{.*}}) <{name = "smb_shr30"
func.func @softmax_batch(%x: tensor<2x1x4x5x!quant.uniform<i8:f32, 0.125>>) -> tensor<2x1x4x5x!quant.uniform<i8:f32, 0.00390625:-128>> {
  %0 = "tfl.softmax"(%x) <{beta = 1.0 : f32}> : (tensor<2x1x4x5x!quant.uniform<i8:f32, 0.125>>) -> tensor<2x1x4x5x!quant.uniform<i8:f32, 0.00390625:-128>> loc("smb")
  return %0 : tensor<2x1x4x5x!quant.uniform<i8:f32, 0.00390625:-128>>
}

// -----

// CHECK-LABEL: func.func @softmax16
// CHECK: "npu.max_pool"({{.*}}) <{name = "sm_maxpool0"
// CHECK: "npu.sub"({{.*}}) <{name = "sm_sub1"
// CHECK: "npu.mul"({{.*}}) <{name = "sm_mul2"
// CHECK: %[[EXP_LUT:.*]] = "tfl.pseudo_const"() <{value = dense<"0x{{[0-9A-F]+}}"> : tensor<512xi32>}>
// CHECK: "npu.add"({{.*}}, %[[EXP_LUT]]) <{name = "sm_add3", activation = #npu.act<lut, min = -32768, max = 32767>, rescale = #npu.rescale<multiplier = 1, shift = 0>}>
// CHECK: "npu.reduce_sum"({{.*}}) <{name = "sm_reduce_sum4"
// CHECK: "npu.clz"({{.*}}) <{name = "sm_clz5"
// CHECK: "npu.sub"({{.*}}) <{name = "sm_sub6"
// CHECK: "npu.shl"({{.*}}) <{name = "sm_shl7"
// CHECK: "npu.sub"({{.*}}) <{name = "sm_sub8"
// CHECK: "npu.shl"({{.*}}) <{name = "sm_shl9"
// CHECK: "npu.shr"({{.*}}) <{name = "sm_shr10"
// CHECK: "npu.sub"({{.*}}) <{name = "sm_sub11", activation = #npu.act<lut
// CHECK: "npu.mul"({{.*}}) <{name = "sm_mul12"
// CHECK: "npu.shr"({{.*}}) <{name = "sm_shr13"
func.func @softmax16(%x: tensor<1x10x!quant.uniform<i16:f32, 0.001>>) -> tensor<1x10x!quant.uniform<i16:f32, 3.0517578125E-5>> {
  %0 = "tfl.softmax"(%x) <{beta = 1.0 : f32}> : (tensor<1x10x!quant.uniform<i16:f32, 0.001>>) -> tensor<1x10x!quant.uniform<i16:f32, 3.0517578125E-5>> loc("sm")
  return %0 : tensor<1x10x!quant.uniform<i16:f32, 3.0517578125E-5>>
}
