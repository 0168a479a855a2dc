// npu-legalize on MEAN: depthwise convolutions with a ones kernel sum the reduced axes into
// 32 bits (<name><name>_conv_<i>, Vela's clone naming), ADDs combine blocks of at most 64 rows
// (<name>_add_<i>), a MUL by the rescaled 1/N writes the OFM (<name>_mul).
// RUN: %npu_opt %s --split-input-file --pass=npu-legalize | %filecheck %s

// A global average over 7x7: one 7x7 depthwise sum, then a MUL by (0.5/0.25)/49 = 2/49 as
// 701219150 / 2^34 (Vela computes the multiplier as TFLite's reference does: the Q31 scale 2 is
// 2^30 / 2^29, shifted left by floor(log2 49) = 5 and divided by 49).
// CHECK-LABEL: func.func @global
// CHECK: %[[W:.*]] = "tfl.pseudo_qconst"() <{qtype = tensor<1x7x7x16x!quant.uniform<u8:f32, 1.0>>, value = dense<1> : tensor<1x7x7x16xui8>}>
// CHECK: %[[B:.*]] = "tfl.pseudo_const"() <{value = dense<0> : tensor<16xi32>}>
// CHECK: %[[SUM:.*]] = "npu.depthwise_conv2d"(%[[X:.*]], %[[W]], %[[B]]) <{name = "gapgap_conv_0", activation = #npu.act<none, min = -32768, max = 32767>, rescale = #npu.rescale<multiplier = 1, shift = 0>, kernel = #npu.kernel<7x7, stride = 1x1, dilation = 1x1, padding = [0, 0, 0, 0]>}>
// CHECK-SAME: -> tensor<1x1x1x16x!quant.uniform<i32:f32, 0.25>>
// CHECK: %[[K:.*]] = "tfl.pseudo_qconst"() <{qtype = tensor<1x1x1x1x!quant.uniform<i32:f32, 1.0>>, value = dense<701219150> : tensor<1x1x1x1xi32>}>
// CHECK: %[[MUL:.*]] = "npu.mul"(%[[SUM]], %[[K]]) <{name = "gap_mul", activation = #npu.act<none, min = -128, max = 127>, rescale = #npu.rescale<multiplier = 1, shift = 34>, rounding = "tflite"}>
// CHECK: %[[R:.*]] = "npu.reshape"(%[[MUL]]) <{name = "gap"}> : (tensor<1x1x1x16x!quant.uniform<i8:f32, 0.25>>) -> tensor<1x16x!quant.uniform<i8:f32, 0.25>>
// CHECK: return %[[R]]
func.func @global(%x: tensor<1x7x7x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x16x!quant.uniform<i8:f32, 0.25>> {
  %a = "tfl.pseudo_const"() <{value = dense<[1, 2]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %0 = "tfl.mean"(%x, %a) <{keep_dims = false}> : (tensor<1x7x7x16x!quant.uniform<i8:f32, 0.5>>, tensor<2xi32>) -> tensor<1x16x!quant.uniform<i8:f32, 0.25>> loc("gap")
  return %0 : tensor<1x16x!quant.uniform<i8:f32, 0.25>>
}

// -----

// 100 rows of 50: the kernel is at most 64 rows (and 4096 elements), so two convolutions read
// slices of 64 and 36 rows and an ADD sums them.
// CHECK-LABEL: func.func @tall
// CHECK: %[[S0:.*]] = "npu.slice"(%[[X:.*]]) <{name = "m_read_0", offset = #npu.offset<0, 0, 0, 0>}> : ({{.*}}) -> tensor<1x64x50x8x
// CHECK: %[[C0:.*]] = "npu.depthwise_conv2d"(%[[S0]], {{.*}}) <{name = "mm_conv_0", {{.*}}kernel = #npu.kernel<64x50,
// CHECK: %[[S1:.*]] = "npu.slice"(%[[X]]) <{name = "m_read_1", offset = #npu.offset<0, 64, 0, 0>}> : ({{.*}}) -> tensor<1x36x50x8x
// CHECK: %[[C1:.*]] = "npu.depthwise_conv2d"(%[[S1]], {{.*}}) <{name = "mm_conv_1", {{.*}}kernel = #npu.kernel<36x50,
// CHECK: %[[ADD:.*]] = "npu.add"(%[[C1]], %[[C0]]) <{name = "m_add_0", activation = #npu.act<none, min = -32768, max = 32767>, rescale = #npu.rescale<multiplier = 1, shift = 0>}>
// CHECK: "npu.mul"(%[[ADD]], %{{.*}}) <{name = "m_mul"
func.func @tall(%x: tensor<1x100x50x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x1x8x!quant.uniform<i8:f32, 0.25>> {
  %a = "tfl.pseudo_const"() <{value = dense<[1, 2]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %0 = "tfl.mean"(%x, %a) <{keep_dims = true}> : (tensor<1x100x50x8x!quant.uniform<i8:f32, 0.5>>, tensor<2xi32>) -> tensor<1x1x1x8x!quant.uniform<i8:f32, 0.25>> loc("m")
  return %0 : tensor<1x1x1x8x!quant.uniform<i8:f32, 0.25>>
}

// -----

// A mean over the channels of a one-row IFM views the channels as the width: 1x1x6x4 is read
// as 1x6x4x1 and summed by a 1x4 kernel.
// CHECK-LABEL: func.func @channels
// CHECK: %[[V:.*]] = "npu.reshape"(%[[X:.*]]) <{name = "mc"}> : (tensor<1x1x6x4x{{.*}}) -> tensor<1x6x4x1x
// CHECK: "npu.depthwise_conv2d"(%[[V]], {{.*}}) <{name = "mcmc_conv_0", {{.*}}kernel = #npu.kernel<1x4, {{.*}}> : ({{.*}}) -> tensor<1x6x1x1x!quant.uniform<i32:f32, 0.25>>
func.func @channels(%x: tensor<1x1x6x4x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x6x!quant.uniform<i8:f32, 0.25>> {
  %a = "tfl.pseudo_const"() <{value = dense<3> : tensor<1xi32>}> : () -> tensor<1xi32>
  %0 = "tfl.mean"(%x, %a) <{keep_dims = false}> : (tensor<1x1x6x4x!quant.uniform<i8:f32, 0.5>>, tensor<1xi32>) -> tensor<1x1x6x!quant.uniform<i8:f32, 0.25>> loc("mc")
  return %0 : tensor<1x1x6x!quant.uniform<i8:f32, 0.25>>
}

// -----

// Reducing axes of size 1 copies (Vela's Memcpy).
// CHECK-LABEL: func.func @unit_axes
// CHECK: %[[D:.*]] = "npu.dma"(%[[X:.*]]) <{name = "mu"}> : (tensor<1x1x1x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x1x8x!quant.uniform<i8:f32, 0.5>>
// CHECK: "npu.reshape"(%[[D]]) <{name = "mu"}> : ({{.*}}) -> tensor<1x8x!quant.uniform<i8:f32, 0.5>>
func.func @unit_axes(%x: tensor<1x1x1x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x8x!quant.uniform<i8:f32, 0.5>> {
  %a = "tfl.pseudo_const"() <{value = dense<[1, 2]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %0 = "tfl.mean"(%x, %a) <{keep_dims = false}> : (tensor<1x1x1x8x!quant.uniform<i8:f32, 0.5>>, tensor<2xi32>) -> tensor<1x8x!quant.uniform<i8:f32, 0.5>> loc("mu")
  return %0 : tensor<1x8x!quant.uniform<i8:f32, 0.5>>
}
