// npu-legalize on the stand-alone activations TANH, LOGISTIC, HARD_SWISH and LEAKY_RELU: 8-bit
// ones as lookup tables (npu.lut), moved into the producing op where Vela fuses them (not on
// U55-32/64, whose SHRAM has no banks reserved for the table); 16-bit ones with the NPU's
// built-in functions or as elementwise arithmetic.
// RUN: %npu_opt %s --split-input-file --pass=npu-legalize | %filecheck %s
// RUN: %npu_opt %s --split-input-file --pass=npu-legalize --target=ethos-u55-64 | %filecheck %s --check-prefix=U64

// A sigmoid after a convolution becomes the convolution's table activation: the convolution
// writes the sigmoid's OFM type and rescales to its own first (output_quant).
// CHECK-LABEL: func.func @fused_table
// CHECK: %[[T:.*]] = "tfl.pseudo_const"() <{value = dense<"0x{{[0-9A-F]+}}"> : tensor<256xi8>}>
// CHECK: %[[C:.*]] = "npu.conv2d"(%[[X:.*]], %[[W:.*]], %[[B:.*]], %[[T]]) <{name = "conv", activation = #npu.act<lut, min = -128, max = 127>, kernel = #npu.kernel<1x1, stride = 1x1, dilation = 1x1, padding = [0, 0, 0, 0]>, output_quant = !quant.uniform<i8:f32, 0.5>}>
// CHECK-SAME: -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.00390625:-128>>
// CHECK-NOT: npu.lut
// CHECK: return %[[C]]
// U64-LABEL: func.func @fused_table
// U64: %[[C:.*]] = "npu.conv2d"(%[[X:.*]], %[[W:.*]], %[[B:.*]]) <{name = "conv", activation = #npu.act<none, min = -128, max = 127>
// U64: %[[T:.*]] = "tfl.pseudo_const"
// U64: %[[L:.*]] = "npu.lut"(%[[C]], %[[T]]) <{name = "sigmoid_lut_sigmoid", activation = #npu.act<lut, min = -128, max = 127>, output_quant = !quant.uniform<i8:f32, 0.5>, function = "sigmoid"}>
// U64: return %[[L]]
func.func @fused_table(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.00390625:-128>> {
  %w = "tfl.pseudo_qconst"() <{qtype = tensor<8x1x1x8x!quant.uniform<i8:f32, 0.1>>, value = dense<1> : tensor<8x1x1x8xi8>}> : () -> tensor<8x1x1x8x!quant.uniform<i8:f32, 0.1>>
  %b = "tfl.pseudo_const"() <{value = dense<0> : tensor<8xi32>}> : () -> tensor<8xi32>
  %0 = "tfl.conv_2d"(%x, %w, %b) <{dilation_h_factor = 1 : i32, dilation_w_factor = 1 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 1 : i32, stride_w = 1 : i32}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<8x1x1x8x!quant.uniform<i8:f32, 0.1>>, tensor<8xi32>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> loc("conv")
  %1 = "tfl.logistic"(%0) : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.00390625:-128>> loc("sigmoid")
  return %1 : tensor<1x4x4x8x!quant.uniform<i8:f32, 0.00390625:-128>>
}

// -----

// Tables whose IFM comes from outside the NPU (or from another table) stay stand-alone. The
// tanh table of a 0.5-scaled IFM into a 1/128-scaled OFM saturates to -128 for the lowest inputs
// and to 127 for the highest.
// CHECK-LABEL: func.func @tables
// CHECK: %[[T1:.*]] = "tfl.pseudo_const"() <{value = dense<"0x808080
// CHECK-SAME: 7F7F7F7F"> : tensor<256xi8>}>
// CHECK: %[[TANH:.*]] = "npu.lut"(%[[X:.*]], %[[T1]]) <{name = "tanh_lut_tanh", activation = #npu.act<lut, min = -128, max = 127>, output_quant = !quant.uniform<i8:f32, 0.5>, function = "tanh"}>
// CHECK: %[[HS:.*]] = "npu.lut"(%[[TANH]], %{{.*}}) <{name = "hswish_lut_hardswish", {{.*}}function = "hardswish"}>
// CHECK: %[[LR:.*]] = "npu.lut"(%[[HS]], %{{.*}}) <{name = "lrelu_lut_lrelu", {{.*}}function = "lrelu"}>
// CHECK: return %[[LR]]
func.func @tables(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.0078125>> {
  %0 = "tfl.tanh"(%x) : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.0078125>> loc("tanh")
  %1 = "tfl.hard_swish"(%0) : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.0078125>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.0078125>> loc("hswish")
  %2 = "tfl.leaky_relu"(%1) <{alpha = 0.2 : f32}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.0078125>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.0078125>> loc("lrelu")
  return %2 : tensor<1x4x4x8x!quant.uniform<i8:f32, 0.0078125>>
}

// -----

// A leaky ReLU with alpha 0 is a ReLU (Vela renames the op: LeakyRelu -> Relu).
// CHECK-LABEL: func.func @alpha_zero
// CHECK: "npu.avg_pool"(%[[X:.*]]) <{name = "block/Relu_avgpool", activation = #npu.act<relu, min = 0, max = 127>
func.func @alpha_zero(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> {
  %0 = "tfl.leaky_relu"(%x) <{alpha = 0.0 : f32}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> loc("block/LeakyRelu")
  return %0 : tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// 16-bit: tanh and sigmoid are the NPU's built-in functions on a 1x1 average pool; a leaky ReLU
// with equal scales is the NPU's LRELU, else max(alpha * x, x) with x rescaled by a MUL by 1.
// CHECK-LABEL: func.func @int16
// CHECK: %[[T:.*]] = "npu.avg_pool"(%[[X:.*]]) <{name = "tanh_avgpool", activation = #npu.act<tanh, min = -1000, max = 1000>
// CHECK: %[[S:.*]] = "npu.avg_pool"(%[[T]]) <{name = "sig_avgpool", activation = #npu.act<sigmoid, min = 0, max = 1000>
// CHECK: %[[L:.*]] = "npu.leaky_relu"(%[[S]]) <{name = "lrelu", activation = #npu.act<none, min = -32768, max = 32767>, alpha = 0.1 : f32}>
// CHECK: %[[A:.*]] = "tfl.pseudo_qconst"() <{qtype = tensor<1x1x1x1x!quant.uniform<i16:f32, 0.10000000149011612>>
// CHECK: %[[MA:.*]] = "npu.mul"(%[[L]], %[[A]]) <{name = "block/LeakyRelu_mul_alpha"
// CHECK: %[[ONE:.*]] = "tfl.pseudo_qconst"() <{qtype = tensor<!quant.uniform<i16:f32, 1.0>>
// CHECK: %[[MI:.*]] = "npu.mul"(%[[L]], %[[ONE]]) <{name = "block/LeakyRelu_mul_identity"
// CHECK: "npu.maximum"(%[[MA]], %[[MI]]) <{name = "block/Maximum"
func.func @int16(%x: tensor<1x4x4x8x!quant.uniform<i16:f32, 0.001>>) -> tensor<1x4x4x8x!quant.uniform<i16:f32, 0.002>> {
  %0 = "tfl.tanh"(%x) : (tensor<1x4x4x8x!quant.uniform<i16:f32, 0.001>>) -> tensor<1x4x4x8x!quant.uniform<i16:f32, 0.001>> loc("tanh")
  %1 = "tfl.logistic"(%0) : (tensor<1x4x4x8x!quant.uniform<i16:f32, 0.001>>) -> tensor<1x4x4x8x!quant.uniform<i16:f32, 0.001>> loc("sig")
  %2 = "tfl.leaky_relu"(%1) <{alpha = 0.1 : f32}> : (tensor<1x4x4x8x!quant.uniform<i16:f32, 0.001>>) -> tensor<1x4x4x8x!quant.uniform<i16:f32, 0.001>> loc("lrelu")
  %3 = "tfl.leaky_relu"(%2) <{alpha = 0.1 : f32}> : (tensor<1x4x4x8x!quant.uniform<i16:f32, 0.001>>) -> tensor<1x4x4x8x!quant.uniform<i16:f32, 0.002>> loc("block/LeakyRelu")
  return %3 : tensor<1x4x4x8x!quant.uniform<i16:f32, 0.002>>
}

// -----

// EXP is an 8-bit table, or for int16 a 512-entry interpolated table (base and slope per entry);
// RSQRT an 8-bit table (Vela's convert_ops_to_lut).
// CHECK-LABEL: func.func @exp_rsqrt
// CHECK: %[[T8:.*]] = "tfl.pseudo_const"() <{value = dense<"0x{{[0-9A-F]+}}"> : tensor<256xi8>}>
// CHECK: %[[E8:.*]] = "npu.lut"(%[[X:.*]], %[[T8]]) <{name = "e8_lut_exp", activation = #npu.act<lut, min = -128, max = 127>, output_quant = !quant.uniform<i8:f32, 0.0625>, function = "exp"}>
// CHECK: %[[R:.*]] = "npu.lut"(%[[E8]], %{{.*}}) <{name = "r_lut_rsqrt", {{.*}}function = "rsqrt"}>
// CHECK: %[[T16:.*]] = "tfl.pseudo_const"() <{value = dense<"0x{{[0-9A-F]+}}"> : tensor<512xi32>}>
// CHECK: %[[E16:.*]] = "npu.lut"(%[[Y:.*]], %[[T16]]) <{name = "e16_lut_exp", activation = #npu.act<lut, min = -32768, max = 32767>
// CHECK: return %[[R]], %[[E16]]
func.func @exp_rsqrt(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.0625>>, %y: tensor<1x4x4x8x!quant.uniform<i16:f32, 0.0001>>) -> (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.125:-128>>, tensor<1x4x4x8x!quant.uniform<i16:f32, 0.0001>>) {
  %0 = "tfl.exp"(%x) : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.0625>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.125:-128>> loc("e8")
  %1 = "tfl.rsqrt"(%0) : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.125:-128>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.125:-128>> loc("r")
  %2 = "tfl.exp"(%y) : (tensor<1x4x4x8x!quant.uniform<i16:f32, 0.0001>>) -> tensor<1x4x4x8x!quant.uniform<i16:f32, 0.0001>> loc("e16")
  return %1, %2 : tensor<1x4x4x8x!quant.uniform<i8:f32, 0.125:-128>>, tensor<1x4x4x8x!quant.uniform<i16:f32, 0.0001>>
}

// -----

// A 16-bit leaky ReLU with a negative alpha: alpha * min(x, 0) in 32 bits with alpha folded into
// an int32 multiplier (a quantisation cannot carry a negative scale), plus relu(x) from a 1x1
// average pool.
// CHECK-LABEL: func.func @negative_alpha16
// CHECK: %[[Z:.*]] = "tfl.pseudo_const"() <{value = dense<0> : tensor<i16>}>
// CHECK: %[[MIN:.*]] = "npu.minimum"(%[[X:.*]], %[[Z]]) <{name = "LeakyRelu_min", {{.*}}}> : ({{.*}}) -> tensor<1x4x4x8xi32>
// CHECK: %[[A:.*]] = "tfl.pseudo_const"() <{value = dense<-1288490240> : tensor<1x1x1x1xi32>}>
// CHECK: %[[NEG:.*]] = "npu.mul"(%[[MIN]], %[[A]]) <{name = "LeakyRelu_mul_alpha"
// CHECK: %[[POS:.*]] = "npu.avg_pool"(%[[X]]) <{name = "LeakyRelu_relu_avgpool", activation = #npu.act<relu, min = 0, max = 32767>
// CHECK: %[[SUM:.*]] = "npu.add"(%[[NEG]], %[[POS]]) <{name = "Add", {{.*}}rescale = #npu.rescale<multiplier = 1, shift = 0>}>
// CHECK: return %[[SUM]]
func.func @negative_alpha16(%x: tensor<1x4x4x8x!quant.uniform<i16:f32, 0.01>>) -> tensor<1x4x4x8x!quant.uniform<i16:f32, 0.01>> {
  %0 = "tfl.leaky_relu"(%x) <{alpha = -0.3 : f32}> : (tensor<1x4x4x8x!quant.uniform<i16:f32, 0.01>>) -> tensor<1x4x4x8x!quant.uniform<i16:f32, 0.01>> loc("LeakyRelu")
  return %0 : tensor<1x4x4x8x!quant.uniform<i16:f32, 0.01>>
}
