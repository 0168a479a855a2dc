// npu-legalize leaves an op the NPU cannot run as a tfl op marked npu.placement = "cpu", with a
// remark on the first constraint it violates, naming the offending value and the limit: one case
// per reason (the statistic cpu-<key> counts them). Reasons the tfl verifiers pre-empt (grouped
// convolution depth, keep_num_dims ranks, bias rank and type, broadcast shapes, resize sizes,
// paddings type, softmax types) cannot be reached from valid IR and have no case.
// RUN: %npu_opt %s --split-input-file --pass=npu-legalize --verify-diagnostics
// RUN: %npu_opt %s --split-input-file --pass=npu-legalize --pass-statistics -o %t.out 2> %t.stats
// RUN: %filecheck %s --input-file %t.out
// RUN: %filecheck %s --check-prefix=STATS --input-file %t.stats

// A non-constant scalar operand (a dynamic tensor). (dynamic-tensor)
// CHECK-LABEL: func.func @dynamic_scalar
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-dynamic-tensor
func.func @dynamic_scalar(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, %s: tensor<!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> {
  // expected-remark@+1 {{ADD 'add' runs on the CPU: IFM2 is a scalar computed at run time; an NPU operand without a shape has to be a constant}}
  %0 = "tfl.add"(%x, %s) <{fused_activation_function = "NONE"}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> loc("add")
  return %0 : tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// Dynamic dimensions. (undefined-shape)
// CHECK-LABEL: func.func @dynamic_shape
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-undefined-shape
func.func @dynamic_shape(%x: tensor<1x?x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x?x4x8x!quant.uniform<i8:f32, 0.5>> {
  // expected-remark@+1 {{RELU 'relu' runs on the CPU: IFM has shape [1, ?, 4, 8]; every dimension of an NPU tensor must be known at compile time}}
  %0 = "tfl.relu"(%x) : (tensor<1x?x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x?x4x8x!quant.uniform<i8:f32, 0.5>> loc("relu")
  return %0 : tensor<1x?x4x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// Scalar inputs are only for elementwise arithmetic and a few others. (scalar-input)
// CHECK-LABEL: func.func @scalar_input
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-scalar-input
func.func @scalar_input() -> tensor<1x!quant.uniform<i8:f32, 0.5>> {
  %c = "tfl.pseudo_qconst"() <{qtype = tensor<!quant.uniform<i8:f32, 0.5>>, value = dense<1> : tensor<i8>}> : () -> tensor<!quant.uniform<i8:f32, 0.5>>
  %s = "tfl.pseudo_const"() <{value = dense<1> : tensor<1xi32>}> : () -> tensor<1xi32>
  // expected-remark@+1 {{RESHAPE 'r' runs on the CPU: IFM is a scalar; on the NPU only ADD, ARG_MAX, EXPAND_DIMS, MAXIMUM, MEAN, MINIMUM, MUL, QUANTIZE, SPLIT, SPLIT_V, SUB accept scalar operands}}
  %0 = "tfl.reshape"(%c, %s) : (tensor<!quant.uniform<i8:f32, 0.5>>, tensor<1xi32>) -> tensor<1x!quant.uniform<i8:f32, 0.5>> loc("r")
  return %0 : tensor<1x!quant.uniform<i8:f32, 0.5>>
}

// -----

// More than 4 dimensions. (rank)
// CHECK-LABEL: func.func @rank5
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-rank
func.func @rank5(%x: tensor<1x2x3x4x5x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x2x3x4x5x!quant.uniform<i8:f32, 0.5>> {
  // expected-remark@+1 {{ADD 'add' runs on the CPU: IFM has 5 dimensions [1, 2, 3, 4, 5]; the NPU handles at most 4}}
  %0 = "tfl.add"(%x, %x) <{fused_activation_function = "NONE"}> : (tensor<1x2x3x4x5x!quant.uniform<i8:f32, 0.5>>, tensor<1x2x3x4x5x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x2x3x4x5x!quant.uniform<i8:f32, 0.5>> loc("add")
  return %0 : tensor<1x2x3x4x5x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A float model. (no-quantization)
// CHECK-LABEL: func.func @float
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-no-quantization
func.func @float(%x: tensor<1x4x4x2xf32>, %w: tensor<2x1x1x2xf32>) -> tensor<1x4x4x2xf32> {
  %n = "tfl.no_value"() <{value}> : () -> none
  // expected-remark@+1 {{CONV_2D 'conv' runs on the CPU: IFM is float32 without quantisation parameters; the NPU computes on quantised integers only}}
  %0 = "tfl.conv_2d"(%x, %w, %n) <{dilation_h_factor = 1 : i32, dilation_w_factor = 1 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 1 : i32, stride_w = 1 : i32}> : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, none) -> tensor<1x4x4x2xf32> loc("conv")
  return %0 : tensor<1x4x4x2xf32>
}

// -----

// An OFM scale below float32's smallest normal. (quant-scale)
// CHECK-LABEL: func.func @tiny_scale
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-quant-scale
func.func @tiny_scale(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 1.0E-39>> {
  // expected-remark@+1 {{RELU 'relu' runs on the CPU: OFM scale 1e-39 is below 1.17549e-38, the smallest normal float32 the NPU's rescaling can use}}
  %0 = "tfl.relu"(%x) : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 1.0E-39>> loc("relu")
  return %0 : tensor<1x4x4x8x!quant.uniform<i8:f32, 1.0E-39>>
}

// -----

// A grouped convolution whose filters do not split into the groups. (conv-groups)
// CHECK-LABEL: func.func @conv_groups
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-conv-groups
func.func @conv_groups(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, %w: tensor<3x1x1x4x!quant.uniform<i8:f32, 0.1>>) -> tensor<1x4x4x3x!quant.uniform<i8:f32, 0.5>> {
  %n = "tfl.no_value"() <{value}> : () -> none
  // expected-remark@+1 {{CONV_2D 'conv' runs on the CPU: 3 filters do not divide evenly among 2 convolution groups}}
  %0 = "tfl.conv_2d"(%x, %w, %n) <{dilation_h_factor = 1 : i32, dilation_w_factor = 1 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 1 : i32, stride_w = 1 : i32}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<3x1x1x4x!quant.uniform<i8:f32, 0.1>>, none) -> tensor<1x4x4x3x!quant.uniform<i8:f32, 0.5>> loc("conv")
  return %0 : tensor<1x4x4x3x!quant.uniform<i8:f32, 0.5>>
}

// -----

// Both operands broadcast. (broadcast)
// CHECK-LABEL: func.func @broadcast_both
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-broadcast
func.func @broadcast_both(%x: tensor<1x4x1x8x!quant.uniform<i8:f32, 0.5>>, %y: tensor<1x1x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> {
  // expected-remark@+1 {{ADD 'add' runs on the CPU: neither IFM [1, 4, 1, 8] nor IFM2 [1, 1, 4, 8] has the OFM's shape [1, 4, 4, 8]; the NPU broadcasts one input at most}}
  %0 = "tfl.add"(%x, %y) <{fused_activation_function = "NONE"}> : (tensor<1x4x1x8x!quant.uniform<i8:f32, 0.5>>, tensor<1x1x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> loc("add")
  return %0 : tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A reshape that would requantise. (quant-mismatch)
// CHECK-LABEL: func.func @reshape_requant
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-quant-mismatch
func.func @reshape_requant(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x128x!quant.uniform<i8:f32, 0.25>> {
  %s = "tfl.pseudo_const"() <{value = dense<[1, 128]> : tensor<2xi32>}> : () -> tensor<2xi32>
  // expected-remark@+1 {{RESHAPE 'flat' runs on the CPU: IFM (scale 0.5, zero point 0) and OFM (scale 0.25, zero point 0) are quantised differently; a reshape moves bytes and cannot requantise}}
  %0 = "tfl.reshape"(%x, %s) : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<2xi32>) -> tensor<1x128x!quant.uniform<i8:f32, 0.25>> loc("flat")
  return %0 : tensor<1x128x!quant.uniform<i8:f32, 0.25>>
}

// -----

// A negative softmax beta. (softmax-beta)
// CHECK-LABEL: func.func @softmax_beta
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-softmax-beta
func.func @softmax_beta(%x: tensor<1x10x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x10x!quant.uniform<i8:f32, 0.5>> {
  // expected-remark@+1 {{SOFTMAX 'sm' runs on the CPU: beta = -1 is negative; the NPU's softmax needs beta >= 0}}
  %0 = "tfl.softmax"(%x) <{beta = -1.0 : f32}> : (tensor<1x10x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x10x!quant.uniform<i8:f32, 0.5>> loc("sm")
  return %0 : tensor<1x10x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A fully connected layer over a 1-D input. (fc-shape)
// CHECK-LABEL: func.func @fc_1d
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-fc-shape
func.func @fc_1d(%x: tensor<16x!quant.uniform<i8:f32, 0.5>>, %w: tensor<4x16x!quant.uniform<i8:f32, 0.1>>) -> tensor<1x4x!quant.uniform<i8:f32, 0.5>> {
  %n = "tfl.no_value"() <{value}> : () -> none
  // expected-remark@+1 {{FULLY_CONNECTED 'fc' runs on the CPU: IFM [16] does not split into rows of 16 (the weights' input depth), so the OFM cannot be 2D}}
  %0 = "tfl.fully_connected"(%x, %w, %n) <{fused_activation_function = "NONE", keep_num_dims = false, weights_format = "DEFAULT"}> : (tensor<16x!quant.uniform<i8:f32, 0.5>>, tensor<4x16x!quant.uniform<i8:f32, 0.1>>, none) -> tensor<1x4x!quant.uniform<i8:f32, 0.5>> loc("fc")
  return %0 : tensor<1x4x!quant.uniform<i8:f32, 0.5>>
}

// -----

// Paddings computed at run time. (non-constant)
// CHECK-LABEL: func.func @pad_dynamic
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-non-constant
func.func @pad_dynamic(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, %p: tensor<4x2xi32>) -> tensor<1x6x6x8x!quant.uniform<i8:f32, 0.5>> {
  // expected-remark@+1 {{PAD 'pad' runs on the CPU: the paddings operand is computed at run time; the NPU needs the padding amounts at compile time}}
  %0 = "tfl.pad"(%x, %p) : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<4x2xi32>) -> tensor<1x6x6x8x!quant.uniform<i8:f32, 0.5>> loc("pad")
  return %0 : tensor<1x6x6x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A 16-bit hard-swish. (dtype)
// CHECK-LABEL: func.func @hard_swish16
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-dtype
func.func @hard_swish16(%x: tensor<1x4x4x8x!quant.uniform<i16:f32, 0.001>>) -> tensor<1x4x4x8x!quant.uniform<i16:f32, 0.001>> {
  // expected-remark@+1 {{HARD_SWISH 'hs' runs on the CPU: IFM is int16; the NPU evaluates HARD_SWISH as a table for int8 and uint8 inputs only}}
  %0 = "tfl.hard_swish"(%x) : (tensor<1x4x4x8x!quant.uniform<i16:f32, 0.001>>) -> tensor<1x4x4x8x!quant.uniform<i16:f32, 0.001>> loc("hs")
  return %0 : tensor<1x4x4x8x!quant.uniform<i16:f32, 0.001>>
}

// -----

// A mean over the channels of a feature map without a unit axis. (mean-axis)
// CHECK-LABEL: func.func @mean_depth
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-mean-axis
func.func @mean_depth(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x1x!quant.uniform<i8:f32, 0.5>> {
  %a = "tfl.pseudo_const"() <{value = dense<3> : tensor<1xi32>}> : () -> tensor<1xi32>
  // expected-remark@+1 {{MEAN 'mean' runs on the CPU: averaging the channels of [1, 4, 4, 8] needs one of its last three dimensions to be 1}}
  %0 = "tfl.mean"(%x, %a) <{keep_dims = true}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<1xi32>) -> tensor<1x4x4x1x!quant.uniform<i8:f32, 0.5>> loc("mean")
  return %0 : tensor<1x4x4x1x!quant.uniform<i8:f32, 0.5>>
}

// -----

// 4-bit weights. (dtype)
// CHECK-LABEL: func.func @int4_weights
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-dtype
func.func @int4_weights(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, %w: tensor<8x1x1x8x!quant.uniform<i4:f32, 0.1>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> {
  %n = "tfl.no_value"() <{value}> : () -> none
  // expected-remark@+1 {{CONV_2D 'conv' runs on the CPU: weights has type int4; NPU tensors are int16, int32, int8 or uint8}}
  %0 = "tfl.conv_2d"(%x, %w, %n) <{dilation_h_factor = 1 : i32, dilation_w_factor = 1 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 1 : i32, stride_w = 1 : i32}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<8x1x1x8x!quant.uniform<i4:f32, 0.1>>, none) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> loc("conv")
  return %0 : tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A 32-bit minimum. (int32)
// CHECK-LABEL: func.func @int32_minimum
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-int32
func.func @int32_minimum(%x: tensor<1x4x4x8x!quant.uniform<i32:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i32:f32, 0.5>> {
  // expected-remark@+1 {{MINIMUM 'min' runs on the CPU: IFM is int32, which MINIMUM does not take on the NPU (int32 tensors are for ADD, ARG_MAX, MIRROR_PAD, MUL, SHAPE, SUB, TRANSPOSE)}}
  %0 = "tfl.minimum"(%x, %x) : (tensor<1x4x4x8x!quant.uniform<i32:f32, 0.5>>, tensor<1x4x4x8x!quant.uniform<i32:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i32:f32, 0.5>> loc("min")
  return %0 : tensor<1x4x4x8x!quant.uniform<i32:f32, 0.5>>
}

// -----

// A dimension above 65535. (dimension)
// CHECK-LABEL: func.func @wide
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-dimension
func.func @wide(%x: tensor<1x1x70000x1x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x70000x1x!quant.uniform<i8:f32, 0.5>> {
  // expected-remark@+1 {{ADD 'add' runs on the CPU: IFM [1, 1, 70000, 1] has dimension 2 = 70000, outside the NPU's 1 to 65535}}
  %0 = "tfl.add"(%x, %x) <{fused_activation_function = "NONE"}> : (tensor<1x1x70000x1x!quant.uniform<i8:f32, 0.5>>, tensor<1x1x70000x1x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x70000x1x!quant.uniform<i8:f32, 0.5>> loc("add")
  return %0 : tensor<1x1x70000x1x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A feature map quantised per channel. (per-axis-quantization)
// CHECK-LABEL: func.func @per_axis
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-per-axis-quantization
func.func @per_axis(%x: tensor<1x4x4x2x!quant.uniform<i8:f32:3, {0.5,0.25}>>) -> tensor<1x4x4x2x!quant.uniform<i8:f32:3, {0.5,0.25}>> {
  // expected-remark@+1 {{RELU 'relu' runs on the CPU: IFM has per-axis scales; on the NPU only CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, TRANSPOSE_CONV take them}}
  %0 = "tfl.relu"(%x) : (tensor<1x4x4x2x!quant.uniform<i8:f32:3, {0.5,0.25}>>) -> tensor<1x4x4x2x!quant.uniform<i8:f32:3, {0.5,0.25}>> loc("relu")
  return %0 : tensor<1x4x4x2x!quant.uniform<i8:f32:3, {0.5,0.25}>>
}

// -----

// A batch of 2. (batch)
// CHECK-LABEL: func.func @batch
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-batch
func.func @batch(%x: tensor<2x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<2x2x2x8x!quant.uniform<i8:f32, 0.5>> {
  // expected-remark@+1 {{MAX_POOL_2D 'pool' runs on the CPU: IFM [2, 4, 4, 8] has a batch of 2; the NPU runs MAX_POOL_2D on a batch of 1}}
  %0 = "tfl.max_pool_2d"(%x) <{filter_height = 2 : i32, filter_width = 2 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 2 : i32, stride_w = 2 : i32}> : (tensor<2x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<2x2x2x8x!quant.uniform<i8:f32, 0.5>> loc("pool")
  return %0 : tensor<2x2x2x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// An unsupported fused activation. (fused-activation)
// CHECK-LABEL: func.func @sign_bit
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-fused-activation
func.func @sign_bit(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> {
  // expected-remark@+1 {{ADD 'add' runs on the CPU: fused activation SIGN_BIT has no NPU equivalent (the NPU fuses LOGISTIC, RELU, RELU6, RELU_0_TO_1, RELU_N1_TO_1, TANH)}}
  %0 = "tfl.add"(%x, %x) <{fused_activation_function = "SIGN_BIT"}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> loc("add")
  return %0 : tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A height stride of 4. (stride)
// CHECK-LABEL: func.func @conv_stride
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-stride
func.func @conv_stride(%x: tensor<1x16x16x8x!quant.uniform<i8:f32, 0.5>>, %w: tensor<8x1x1x8x!quant.uniform<i8:f32, 0.1>>) -> tensor<1x4x16x8x!quant.uniform<i8:f32, 0.5>> {
  %n = "tfl.no_value"() <{value}> : () -> none
  // expected-remark@+1 {{CONV_2D 'conv' runs on the CPU: stride_h = 4 exceeds the NPU limit of 3 (the OFM is 4 rows high; only a 1-row OFM may use any stride)}}
  %0 = "tfl.conv_2d"(%x, %w, %n) <{dilation_h_factor = 1 : i32, dilation_w_factor = 1 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 4 : i32, stride_w = 1 : i32}> : (tensor<1x16x16x8x!quant.uniform<i8:f32, 0.5>>, tensor<8x1x1x8x!quant.uniform<i8:f32, 0.1>>, none) -> tensor<1x4x16x8x!quant.uniform<i8:f32, 0.5>> loc("conv")
  return %0 : tensor<1x4x16x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A dilated kernel taller than 64. (kernel)
// CHECK-LABEL: func.func @dilated_kernel
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-kernel
func.func @dilated_kernel(%x: tensor<1x100x4x8x!quant.uniform<i8:f32, 0.5>>, %w: tensor<8x3x1x8x!quant.uniform<i8:f32, 0.1>>) -> tensor<1x20x4x8x!quant.uniform<i8:f32, 0.5>> {
  %n = "tfl.no_value"() <{value}> : () -> none
  // expected-remark@+1 {{CONV_2D 'conv' runs on the CPU: kernel height 3 with dilation 40 spans 81 rows, over the NPU limit of 64}}
  %0 = "tfl.conv_2d"(%x, %w, %n) <{dilation_h_factor = 40 : i32, dilation_w_factor = 1 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 1 : i32, stride_w = 1 : i32}> : (tensor<1x100x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<8x3x1x8x!quant.uniform<i8:f32, 0.1>>, none) -> tensor<1x20x4x8x!quant.uniform<i8:f32, 0.5>> loc("conv")
  return %0 : tensor<1x20x4x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// Weights computed at run time. (weights)
// CHECK-LABEL: func.func @dynamic_weights
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-weights
func.func @dynamic_weights(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, %w: tensor<8x1x1x8x!quant.uniform<i8:f32, 0.1>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> {
  %n = "tfl.no_value"() <{value}> : () -> none
  // expected-remark@+1 {{CONV_2D 'conv' runs on the CPU: the weights are computed at run time; the NPU needs them as a constant to encode at compile time}}
  %0 = "tfl.conv_2d"(%x, %w, %n) <{dilation_h_factor = 1 : i32, dilation_w_factor = 1 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 1 : i32, stride_w = 1 : i32}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<8x1x1x8x!quant.uniform<i8:f32, 0.1>>, none) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> loc("conv")
  return %0 : tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A 64-bit bias beyond 40 bits (2^41). (bias)
// CHECK-LABEL: func.func @bias_41bit
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-bias
func.func @bias_41bit(%x: tensor<1x4x4x8x!quant.uniform<i16:f32, 0.001>>) -> tensor<1x4x4x2x!quant.uniform<i16:f32, 0.001>> {
  %w = "tfl.pseudo_qconst"() <{qtype = tensor<2x1x1x8x!quant.uniform<i8:f32, 0.1>>, value = dense<1> : tensor<2x1x1x8xi8>}> : () -> tensor<2x1x1x8x!quant.uniform<i8:f32, 0.1>>
  %b = "tfl.pseudo_const"() <{value = dense<2199023255552> : tensor<2xi64>}> : () -> tensor<2xi64>
  // expected-remark@+1 {{CONV_2D 'conv' runs on the CPU: bias value 2199023255552 needs 42 bits; the NPU's bias is at most 40 bits}}
  %0 = "tfl.conv_2d"(%x, %w, %b) <{dilation_h_factor = 1 : i32, dilation_w_factor = 1 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 1 : i32, stride_w = 1 : i32}> : (tensor<1x4x4x8x!quant.uniform<i16:f32, 0.001>>, tensor<2x1x1x8x!quant.uniform<i8:f32, 0.1>>, tensor<2xi64>) -> tensor<1x4x4x2x!quant.uniform<i16:f32, 0.001>> loc("conv")
  return %0 : tensor<1x4x4x2x!quant.uniform<i16:f32, 0.001>>
}

// -----

// Weights with zero point 3. (asymmetric-weights)
// CHECK-LABEL: func.func @asymmetric
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-asymmetric-weights
func.func @asymmetric(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>> {
  %w = "tfl.pseudo_qconst"() <{qtype = tensor<2x1x1x8x!quant.uniform<i8:f32, 0.1:3>>, value = dense<1> : tensor<2x1x1x8xi8>}> : () -> tensor<2x1x1x8x!quant.uniform<i8:f32, 0.1:3>>
  %n = "tfl.no_value"() <{value}> : () -> none
  // expected-remark@+1 {{CONV_2D 'conv' runs on the CPU: weights have zero point 3 and the IFM is int8; the NPU needs zero point 0 here (--force-symmetric-int-weights makes it so, at some accuracy cost)}}
  %0 = "tfl.conv_2d"(%x, %w, %n) <{dilation_h_factor = 1 : i32, dilation_w_factor = 1 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 1 : i32, stride_w = 1 : i32}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<2x1x1x8x!quant.uniform<i8:f32, 0.1:3>>, none) -> tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>> loc("conv")
  return %0 : tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A depth multiplier over several channels. (depth-multiplier)
// CHECK-LABEL: func.func @multiplier
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-depth-multiplier
func.func @multiplier(%x: tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x4x!quant.uniform<i8:f32, 0.5>> {
  %w = "tfl.pseudo_qconst"() <{qtype = tensor<1x1x1x4x!quant.uniform<i8:f32, 0.1>>, value = dense<1> : tensor<1x1x1x4xi8>}> : () -> tensor<1x1x1x4x!quant.uniform<i8:f32, 0.1>>
  %n = "tfl.no_value"() <{value}> : () -> none
  // expected-remark@+1 {{DEPTHWISE_CONV_2D 'dw' runs on the CPU: depth_multiplier = 2 needs a 1-channel IFM and a 2-channel OFM; they have 2 and 4 channels}}
  %0 = "tfl.depthwise_conv_2d"(%x, %w, %n) <{depth_multiplier = 2 : i32, dilation_h_factor = 1 : i32, dilation_w_factor = 1 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 1 : i32, stride_w = 1 : i32}> : (tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>, tensor<1x1x1x4x!quant.uniform<i8:f32, 0.1>>, none) -> tensor<1x4x4x4x!quant.uniform<i8:f32, 0.5>> loc("dw")
  return %0 : tensor<1x4x4x4x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A transpose convolution whose OFM is not the IFM times the stride. (shape)
// CHECK-LABEL: func.func @tconv_shape
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-shape
func.func @tconv_shape(%x: tensor<1x4x4x4x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x7x7x4x!quant.uniform<i8:f32, 0.5>> {
  %s = "tfl.pseudo_const"() <{value = dense<[1, 7, 7, 4]> : tensor<4xi32>}> : () -> tensor<4xi32>
  %w = "tfl.pseudo_qconst"() <{qtype = tensor<4x3x3x4x!quant.uniform<i8:f32, 0.1>>, value = dense<1> : tensor<4x3x3x4xi8>}> : () -> tensor<4x3x3x4x!quant.uniform<i8:f32, 0.1>>
  %n = "tfl.no_value"() <{value}> : () -> none
  // expected-remark@+1 {{TRANSPOSE_CONV 'tconv' runs on the CPU: with SAME padding the OFM must be the IFM 4x4 times the stride, 8x8; it is 7x7}}
  %0 = "tfl.transpose_conv"(%s, %w, %x, %n) <{fused_activation_function = "NONE", padding = "SAME", stride_h = 2 : i32, stride_w = 2 : i32}> : (tensor<4xi32>, tensor<4x3x3x4x!quant.uniform<i8:f32, 0.1>>, tensor<1x4x4x4x!quant.uniform<i8:f32, 0.5>>, none) -> tensor<1x7x7x4x!quant.uniform<i8:f32, 0.5>> loc("tconv")
  return %0 : tensor<1x7x7x4x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A x3 resize. (resize)
// CHECK-LABEL: func.func @resize_x3
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-resize
func.func @resize_x3(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x12x12x8x!quant.uniform<i8:f32, 0.5>> {
  %s = "tfl.pseudo_const"() <{value = dense<12> : tensor<2xi32>}> : () -> tensor<2xi32>
  // expected-remark@+1 {{RESIZE_NEAREST_NEIGHBOR 'resize' runs on the CPU: resizing [1, 4, 4, 8] to [1, 12, 12, 8] is not an upscale by one factor of 1, 2, 4 or 8 on both axes, nor from a 1x1 IFM}}
  %0 = "tfl.resize_nearest_neighbor"(%x, %s) <{align_corners = false, half_pixel_centers = false}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<2xi32>) -> tensor<1x12x12x8x!quant.uniform<i8:f32, 0.5>> loc("resize")
  return %0 : tensor<1x12x12x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A maximum of differently scaled operands. (quant-mismatch)
// CHECK-LABEL: func.func @max_scales
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-quant-mismatch
func.func @max_scales(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, %y: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.25>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> {
  // expected-remark@+1 {{MAXIMUM 'max' runs on the CPU: IFM (scale 0.5, zero point 0), IFM2 (scale 0.25, zero point 0) and OFM (scale 0.5, zero point 0) are not all quantised alike; the NPU's MINIMUM and MAXIMUM do not rescale}}
  %0 = "tfl.maximum"(%x, %y) : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<1x4x4x8x!quant.uniform<i8:f32, 0.25>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> loc("max")
  return %0 : tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A PAD of a 2-D tensor. (pad)
// CHECK-LABEL: func.func @pad_rank2
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-pad
func.func @pad_rank2(%x: tensor<4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<6x8x!quant.uniform<i8:f32, 0.5>> {
  %p = "tfl.pseudo_const"() <{value = dense<[[1, 1], [0, 0]]> : tensor<2x2xi32>}> : () -> tensor<2x2xi32>
  // expected-remark@+1 {{PAD 'pad' runs on the CPU: the paddings operand has shape [2, 2]; the NPU pads 3D or 4D tensors ([3, 2] or [4, 2] paddings)}}
  %0 = "tfl.pad"(%x, %p) : (tensor<4x8x!quant.uniform<i8:f32, 0.5>>, tensor<2x2xi32>) -> tensor<6x8x!quant.uniform<i8:f32, 0.5>> loc("pad")
  return %0 : tensor<6x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A mean over a row wider than 4096. (mean-size)
// CHECK-LABEL: func.func @mean_wide
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-mean-size
func.func @mean_wide(%x: tensor<1x1x5000x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x1x8x!quant.uniform<i8:f32, 0.5>> {
  %a = "tfl.pseudo_const"() <{value = dense<[1, 2]> : tensor<2xi32>}> : () -> tensor<2xi32>
  // expected-remark@+1 {{MEAN 'mean' runs on the CPU: width 5000 exceeds 4096, the widest kernel the NPU's MEAN sums with}}
  %0 = "tfl.mean"(%x, %a) <{keep_dims = true}> : (tensor<1x1x5000x8x!quant.uniform<i8:f32, 0.5>>, tensor<2xi32>) -> tensor<1x1x1x8x!quant.uniform<i8:f32, 0.5>> loc("mean")
  return %0 : tensor<1x1x1x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A reshape to a shape computed at run time. (non-constant)
// CHECK-LABEL: func.func @reshape_dynamic
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-non-constant
func.func @reshape_dynamic(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, %s: tensor<2xi32>) -> tensor<1x128x!quant.uniform<i8:f32, 0.5>> {
  // expected-remark@+1 {{RESHAPE 'flat' runs on the CPU: the new shape is computed at run time; the NPU needs it at compile time}}
  %0 = "tfl.reshape"(%x, %s) : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<2xi32>) -> tensor<1x128x!quant.uniform<i8:f32, 0.5>> loc("flat")
  return %0 : tensor<1x128x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A softmax over more than 65535 pixels. (softmax-size)
// CHECK-LABEL: func.func @softmax_big
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-softmax-size
func.func @softmax_big(%x: tensor<1x300x300x2x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x300x300x2x!quant.uniform<i8:f32, 0.5>> {
  // expected-remark@+1 {{SOFTMAX 'sm' runs on the CPU: IFM 300x300 has 90000 positions to normalise, over the NPU limit of 65535}}
  %0 = "tfl.softmax"(%x) <{beta = 1.0 : f32}> : (tensor<1x300x300x2x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x300x300x2x!quant.uniform<i8:f32, 0.5>> loc("sm")
  return %0 : tensor<1x300x300x2x!quant.uniform<i8:f32, 0.5>>
}

// -----

// An empty strided slice. (slice)
// CHECK-LABEL: func.func @empty_slice
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-slice
func.func @empty_slice(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x0x4x8x!quant.uniform<i8:f32, 0.5>> {
  %b = "tfl.pseudo_const"() <{value = dense<[0, 2, 0, 0]> : tensor<4xi32>}> : () -> tensor<4xi32>
  %e = "tfl.pseudo_const"() <{value = dense<[1, 2, 4, 8]> : tensor<4xi32>}> : () -> tensor<4xi32>
  %s = "tfl.pseudo_const"() <{value = dense<1> : tensor<4xi32>}> : () -> tensor<4xi32>
  // expected-remark@+1 {{STRIDED_SLICE 'ss' runs on the CPU: axis 1 selects nothing: end 2 is not after begin 2 (begin [0, 2, 0, 0], end [1, 2, 4, 8])}}
  %0 = "tfl.strided_slice"(%x, %b, %e, %s) <{begin_mask = 0 : i32, ellipsis_mask = 0 : i32, end_mask = 0 : i32, new_axis_mask = 0 : i32, offset = false, shrink_axis_mask = 0 : i32}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) -> tensor<1x0x4x8x!quant.uniform<i8:f32, 0.5>> loc("ss")
  return %0 : tensor<1x0x4x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A reshape of a CPU op's result that only the graph output uses. (neighbours)
// CHECK-LABEL: func.func @neighbours
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-neighbours
func.func @neighbours(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x128x!quant.uniform<i8:f32, 0.5>> {
  %p = "tfl.pseudo_const"() <{value = dense<[0, 2, 1, 3]> : tensor<4xi32>}> : () -> tensor<4xi32>
  // expected-remark@+1 {{TRANSPOSE 't' runs on the CPU}}
  %0 = "tfl.transpose"(%x, %p) : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<4xi32>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> loc("t")
  %s = "tfl.pseudo_const"() <{value = dense<[1, 128]> : tensor<2xi32>}> : () -> tensor<2xi32>
  // expected-remark@+1 {{RESHAPE 'flat' runs on the CPU: A memory-only op stays on the CPU unless its producer or a consumer runs on the NPU}}
  %1 = "tfl.reshape"(%0, %s) : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<2xi32>) -> tensor<1x128x!quant.uniform<i8:f32, 0.5>> loc("flat")
  return %1 : tensor<1x128x!quant.uniform<i8:f32, 0.5>>
}

// -----

// An operator Vela supports that npu-legalize does not lower yet. (unimplemented)
// CHECK-LABEL: func.func @transpose
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-unimplemented
func.func @transpose(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> {
  %p = "tfl.pseudo_const"() <{value = dense<[0, 2, 1, 3]> : tensor<4xi32>}> : () -> tensor<4xi32>
  // expected-remark@+1 {{TRANSPOSE 't' runs on the CPU: Vela runs TRANSPOSE on the NPU, but npu-legalize does not lower it yet}}
  %0 = "tfl.transpose"(%x, %p) : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<4xi32>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> loc("t")
  return %0 : tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// An operator the NPU never runs. (operator)
// CHECK-LABEL: func.func @dequantize
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-operator
func.func @dequantize(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8xf32> {
  // expected-remark@+1 {{DEQUANTIZE 'deq' runs on the CPU: the NPU has no DEQUANTIZE operation}}
  %0 = "tfl.dequantize"(%x) : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8xf32> loc("deq")
  return %0 : tensor<1x4x4x8xf32>
}

// -----

// IFM scale / OFM scale overflows float32. (quant-scale)
// CHECK-LABEL: func.func @scale_overflow
// CHECK: {npu.placement = "cpu"}
func.func @scale_overflow(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 3.0e+38>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 1.0e-02>> {
  // expected-remark@+1 {{RELU 'relu' runs on the CPU: IFM scale 3e+38 / OFM scale 0.01 overflows float32, so no rescale can express it}}
  %0 = "tfl.relu"(%x) : (tensor<1x4x4x8x!quant.uniform<i8:f32, 3.0e+38>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 1.0e-02>> loc("relu")
  return %0 : tensor<1x4x4x8x!quant.uniform<i8:f32, 1.0e-02>>
}

// -----

// Slice bounds computed at run time. (non-constant)
// CHECK-LABEL: func.func @slice_dynamic
// CHECK: {npu.placement = "cpu"}
func.func @slice_dynamic(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, %b: tensor<4xi32>) -> tensor<1x2x4x8x!quant.uniform<i8:f32, 0.5>> {
  %s = "tfl.pseudo_const"() <{value = dense<[1, 2, 4, 8]> : tensor<4xi32>}> : () -> tensor<4xi32>
  // expected-remark@+1 {{SLICE 'slice' runs on the CPU: begin is computed at run time; the NPU needs slice bounds at compile time}}
  %0 = "tfl.slice"(%x, %b, %s) : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<4xi32>, tensor<4xi32>) -> tensor<1x2x4x8x!quant.uniform<i8:f32, 0.5>> loc("slice")
  return %0 : tensor<1x2x4x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// EXP of a uint8 tensor. (dtype)
// CHECK-LABEL: func.func @exp_uint8
// CHECK: {npu.placement = "cpu"}
func.func @exp_uint8(%x: tensor<1x4x4x8x!quant.uniform<u8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<u8:f32, 0.5>> {
  // expected-remark@+1 {{EXP 'exp' runs on the CPU: IFM is uint8; the NPU evaluates EXP as a table for int8 and int16 inputs only}}
  %0 = "tfl.exp"(%x) : (tensor<1x4x4x8x!quant.uniform<u8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<u8:f32, 0.5>> loc("exp")
  return %0 : tensor<1x4x4x8x!quant.uniform<u8:f32, 0.5>>
}

// -----

// An ellipsis mask. (slice)
// CHECK-LABEL: func.func @slice_ellipsis
// CHECK: {npu.placement = "cpu"}
func.func @slice_ellipsis(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x2x4x8x!quant.uniform<i8:f32, 0.5>> {
  %b = "tfl.pseudo_const"() <{value = dense<[0, 0, 0, 0]> : tensor<4xi32>}> : () -> tensor<4xi32>
  %e = "tfl.pseudo_const"() <{value = dense<[1, 2, 4, 8]> : tensor<4xi32>}> : () -> tensor<4xi32>
  %s = "tfl.pseudo_const"() <{value = dense<1> : tensor<4xi32>}> : () -> tensor<4xi32>
  // expected-remark@+1 {{STRIDED_SLICE 'ss' runs on the CPU: ellipsis_mask = 1; the NPU slices without ellipsis (mask 0) only}}
  %0 = "tfl.strided_slice"(%x, %b, %e, %s) <{begin_mask = 0 : i32, ellipsis_mask = 1 : i32, end_mask = 0 : i32, new_axis_mask = 0 : i32, offset = false, shrink_axis_mask = 0 : i32}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) -> tensor<1x2x4x8x!quant.uniform<i8:f32, 0.5>> loc("ss")
  return %0 : tensor<1x2x4x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// New-axis and shrink-axis masks together. (slice)
// CHECK-LABEL: func.func @slice_new_and_shrink
// CHECK: {npu.placement = "cpu"}
func.func @slice_new_and_shrink(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x2x4x8x!quant.uniform<i8:f32, 0.5>> {
  %b = "tfl.pseudo_const"() <{value = dense<[0, 0, 0, 0]> : tensor<4xi32>}> : () -> tensor<4xi32>
  %e = "tfl.pseudo_const"() <{value = dense<[1, 2, 4, 8]> : tensor<4xi32>}> : () -> tensor<4xi32>
  %s = "tfl.pseudo_const"() <{value = dense<1> : tensor<4xi32>}> : () -> tensor<4xi32>
  // expected-remark@+1 {{STRIDED_SLICE 'ss' runs on the CPU: new_axis_mask = 1 and shrink_axis_mask = 2: at most one of them may be non-zero}}
  %0 = "tfl.strided_slice"(%x, %b, %e, %s) <{begin_mask = 0 : i32, ellipsis_mask = 0 : i32, end_mask = 0 : i32, new_axis_mask = 1 : i32, offset = false, shrink_axis_mask = 2 : i32}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) -> tensor<1x2x4x8x!quant.uniform<i8:f32, 0.5>> loc("ss")
  return %0 : tensor<1x2x4x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A channel stride of 2. (slice)
// CHECK-LABEL: func.func @slice_channel_stride
// CHECK: {npu.placement = "cpu"}
func.func @slice_channel_stride(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x2x4x4x!quant.uniform<i8:f32, 0.5>> {
  %b = "tfl.pseudo_const"() <{value = dense<[0, 0, 0, 0]> : tensor<4xi32>}> : () -> tensor<4xi32>
  %e = "tfl.pseudo_const"() <{value = dense<[1, 2, 4, 8]> : tensor<4xi32>}> : () -> tensor<4xi32>
  %s = "tfl.pseudo_const"() <{value = dense<[1, 1, 1, 2]> : tensor<4xi32>}> : () -> tensor<4xi32>
  // expected-remark@+1 {{STRIDED_SLICE 'ss' runs on the CPU: channel stride 2 (strides [1, 1, 1, 2]): the NPU steps through the batch and the channels one at a time}}
  %0 = "tfl.strided_slice"(%x, %b, %e, %s) <{begin_mask = 0 : i32, ellipsis_mask = 0 : i32, end_mask = 0 : i32, new_axis_mask = 0 : i32, offset = false, shrink_axis_mask = 0 : i32}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) -> tensor<1x2x4x4x!quant.uniform<i8:f32, 0.5>> loc("ss")
  return %0 : tensor<1x2x4x4x!quant.uniform<i8:f32, 0.5>>
}

// -----

// Offset mode. (slice)
// CHECK-LABEL: func.func @slice_offset
// CHECK: {npu.placement = "cpu"}
func.func @slice_offset(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x2x4x8x!quant.uniform<i8:f32, 0.5>> {
  %b = "tfl.pseudo_const"() <{value = dense<[0, 0, 0, 0]> : tensor<4xi32>}> : () -> tensor<4xi32>
  %e = "tfl.pseudo_const"() <{value = dense<[1, 2, 4, 8]> : tensor<4xi32>}> : () -> tensor<4xi32>
  %s = "tfl.pseudo_const"() <{value = dense<1> : tensor<4xi32>}> : () -> tensor<4xi32>
  // expected-remark@+1 {{STRIDED_SLICE 'ss' runs on the CPU: offset = true (begin and end relative to each other) is not supported on the NPU}}
  %0 = "tfl.strided_slice"(%x, %b, %e, %s) <{begin_mask = 0 : i32, ellipsis_mask = 0 : i32, end_mask = 0 : i32, new_axis_mask = 0 : i32, offset = true, shrink_axis_mask = 0 : i32}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) -> tensor<1x2x4x8x!quant.uniform<i8:f32, 0.5>> loc("ss")
  return %0 : tensor<1x2x4x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// MEAN of a 1-D tensor. (mean-axis)
// CHECK-LABEL: func.func @mean_1d
// CHECK: {npu.placement = "cpu"}
func.func @mean_1d(%x: tensor<8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x!quant.uniform<i8:f32, 0.5>> {
  %a = "tfl.pseudo_const"() <{value = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  // expected-remark@+1 {{MEAN 'mean' runs on the CPU: the input is 1D [8]; the NPU averages 2D to 4D inputs}}
  %0 = "tfl.mean"(%x, %a) <{keep_dims = true}> : (tensor<8x!quant.uniform<i8:f32, 0.5>>, tensor<1xi32>) -> tensor<1x!quant.uniform<i8:f32, 0.5>> loc("mean")
  return %0 : tensor<1x!quant.uniform<i8:f32, 0.5>>
}

// -----

// MEAN over axes computed at run time. (non-constant)
// CHECK-LABEL: func.func @mean_dynamic_axis
// CHECK: {npu.placement = "cpu"}
func.func @mean_dynamic_axis(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, %a: tensor<2xi32>) -> tensor<1x1x1x8x!quant.uniform<i8:f32, 0.5>> {
  // expected-remark@+1 {{MEAN 'mean' runs on the CPU: the axis operand is computed at run time; the NPU needs the reduced axes at compile time}}
  %0 = "tfl.mean"(%x, %a) <{keep_dims = true}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<2xi32>) -> tensor<1x1x1x8x!quant.uniform<i8:f32, 0.5>> loc("mean")
  return %0 : tensor<1x1x1x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// MEAN over a batch of 2. (mean-axis)
// CHECK-LABEL: func.func @mean_batch
// CHECK: {npu.placement = "cpu"}
func.func @mean_batch(%x: tensor<2x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> {
  %a = "tfl.pseudo_const"() <{value = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  // expected-remark@+1 {{MEAN 'mean' runs on the CPU: axis 0 averages a batch of 2; the NPU can reduce the batch only when it is 1}}
  %0 = "tfl.mean"(%x, %a) <{keep_dims = true}> : (tensor<2x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<1xi32>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> loc("mean")
  return %0 : tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A fused ReLU on an int32 OFM. (fused-activation)
// CHECK-LABEL: func.func @faf_int32
// CHECK: {npu.placement = "cpu"}
func.func @faf_int32(%x: tensor<1x4x4x8x!quant.uniform<i32:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i32:f32, 0.5>> {
  // expected-remark@+1 {{ADD 'add' runs on the CPU: fused activation RELU with an OFM of type int32; the NPU fuses activations into int8, uint8 and int16 outputs only}}
  %0 = "tfl.add"(%x, %x) <{fused_activation_function = "RELU"}> : (tensor<1x4x4x8x!quant.uniform<i32:f32, 0.5>>, tensor<1x4x4x8x!quant.uniform<i32:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i32:f32, 0.5>> loc("add")
  return %0 : tensor<1x4x4x8x!quant.uniform<i32:f32, 0.5>>
}

// -----

// A width stride of 5 that no fold reduces (IFM width 52 is not a multiple of 5, 5/2 or 5/3). (stride)
// CHECK-LABEL: func.func @conv_stride_w
// CHECK: {npu.placement = "cpu"}
func.func @conv_stride_w(%x: tensor<1x16x52x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x16x11x8x!quant.uniform<i8:f32, 0.5>> {
  %w = "tfl.pseudo_qconst"() <{qtype = tensor<8x1x1x8x!quant.uniform<i8:f32, 0.1>>, value = dense<1> : tensor<8x1x1x8xi8>}> : () -> tensor<8x1x1x8x!quant.uniform<i8:f32, 0.1>>
  %n = "tfl.no_value"() <{value}> : () -> none
  // expected-remark@+1 {{CONV_2D 'conv' runs on the CPU: stride_w = 5 exceeds the NPU limit of 3, and folding the IFM width 52 into depth leaves a stride of 5 (the OFM is 11 columns wide)}}
  %0 = "tfl.conv_2d"(%x, %w, %n) <{dilation_h_factor = 1 : i32, dilation_w_factor = 1 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 1 : i32, stride_w = 5 : i32}> : (tensor<1x16x52x8x!quant.uniform<i8:f32, 0.5>>, tensor<8x1x1x8x!quant.uniform<i8:f32, 0.1>>, none) -> tensor<1x16x11x8x!quant.uniform<i8:f32, 0.5>> loc("conv")
  return %0 : tensor<1x16x11x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A kernel over 4096 positions. (kernel)
// CHECK-LABEL: func.func @kernel_area
// CHECK: {npu.placement = "cpu"}
func.func @kernel_area(%x: tensor<1x70x80x8x!quant.uniform<i8:f32, 0.5>>, %w: tensor<8x60x70x8x!quant.uniform<i8:f32, 0.1>>) -> tensor<1x11x11x8x!quant.uniform<i8:f32, 0.5>> {
  %n = "tfl.no_value"() <{value}> : () -> none
  // expected-remark@+1 {{CONV_2D 'conv' runs on the CPU: the dilated kernel spans 60x70 = 4200 positions, over the NPU limit of 4096}}
  %0 = "tfl.conv_2d"(%x, %w, %n) <{dilation_h_factor = 1 : i32, dilation_w_factor = 1 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 1 : i32, stride_w = 1 : i32}> : (tensor<1x70x80x8x!quant.uniform<i8:f32, 0.5>>, tensor<8x60x70x8x!quant.uniform<i8:f32, 0.1>>, none) -> tensor<1x11x11x8x!quant.uniform<i8:f32, 0.5>> loc("conv")
  return %0 : tensor<1x11x11x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// 16-bit weights. (weights)
// CHECK-LABEL: func.func @weights_16bit
// CHECK: {npu.placement = "cpu"}
func.func @weights_16bit(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> {
  %w = "tfl.pseudo_qconst"() <{qtype = tensor<8x1x1x8x!quant.uniform<i16:f32, 0.1>>, value = dense<1> : tensor<8x1x1x8xi16>}> : () -> tensor<8x1x1x8x!quant.uniform<i16:f32, 0.1>>
  %n = "tfl.no_value"() <{value}> : () -> none
  // expected-remark@+1 {{CONV_2D 'conv' runs on the CPU: weights are int16; the NPU's weight decoder takes 8-bit weights}}
  %0 = "tfl.conv_2d"(%x, %w, %n) <{dilation_h_factor = 1 : i32, dilation_w_factor = 1 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 1 : i32, stride_w = 1 : i32}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<8x1x1x8x!quant.uniform<i16:f32, 0.1>>, none) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> loc("conv")
  return %0 : tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// Weights whose magnitudes add up past 127 x 65536 in one channel. (weights)
// CHECK-LABEL: func.func @weight_sum
// CHECK: {npu.placement = "cpu"}
func.func @weight_sum(%x: tensor<1x9x9x1024x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x1x1x!quant.uniform<i8:f32, 0.5>> {
  %w = "tfl.pseudo_qconst"() <{qtype = tensor<1x9x9x1024x!quant.uniform<i8:f32, 0.1>>, value = dense<127> : tensor<1x9x9x1024xi8>}> : () -> tensor<1x9x9x1024x!quant.uniform<i8:f32, 0.1>>
  %n = "tfl.no_value"() <{value}> : () -> none
  // expected-remark@+1 {{CONV_2D 'conv' runs on the CPU: one output channel's weights add up to 10533888 (absolute, less the zero point), over the NPU's accumulator-safe limit of 8323072 = 127 x 65536}}
  %0 = "tfl.conv_2d"(%x, %w, %n) <{dilation_h_factor = 1 : i32, dilation_w_factor = 1 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 1 : i32, stride_w = 1 : i32}> : (tensor<1x9x9x1024x!quant.uniform<i8:f32, 0.5>>, tensor<1x9x9x1024x!quant.uniform<i8:f32, 0.1>>, none) -> tensor<1x1x1x1x!quant.uniform<i8:f32, 0.5>> loc("conv")
  return %0 : tensor<1x1x1x1x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A transpose convolution with stride 3. (stride)
// CHECK-LABEL: func.func @tconv_stride
// CHECK: {npu.placement = "cpu"}
func.func @tconv_stride(%x: tensor<1x4x4x4x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x12x12x4x!quant.uniform<i8:f32, 0.5>> {
  %s = "tfl.pseudo_const"() <{value = dense<[1, 12, 12, 4]> : tensor<4xi32>}> : () -> tensor<4xi32>
  %w = "tfl.pseudo_qconst"() <{qtype = tensor<4x3x3x4x!quant.uniform<i8:f32, 0.1>>, value = dense<1> : tensor<4x3x3x4xi8>}> : () -> tensor<4x3x3x4x!quant.uniform<i8:f32, 0.1>>
  %n = "tfl.no_value"() <{value}> : () -> none
  // expected-remark@+1 {{TRANSPOSE_CONV 'tconv' runs on the CPU: stride 3x3 (WxH): the NPU upsamples by 1x1 or 2x2, or by 2x1 when the IFM and kernel are 1 row high (here 4 and 3)}}
  %0 = "tfl.transpose_conv"(%s, %w, %x, %n) <{fused_activation_function = "NONE", padding = "SAME", stride_h = 3 : i32, stride_w = 3 : i32}> : (tensor<4xi32>, tensor<4x3x3x4x!quant.uniform<i8:f32, 0.1>>, tensor<1x4x4x4x!quant.uniform<i8:f32, 0.5>>, none) -> tensor<1x12x12x4x!quant.uniform<i8:f32, 0.5>> loc("tconv")
  return %0 : tensor<1x12x12x4x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A VALID transpose convolution of the wrong size. (shape)
// CHECK-LABEL: func.func @tconv_valid_shape
// CHECK: {npu.placement = "cpu"}
func.func @tconv_valid_shape(%x: tensor<1x4x4x4x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x8x8x4x!quant.uniform<i8:f32, 0.5>> {
  %s = "tfl.pseudo_const"() <{value = dense<[1, 8, 8, 4]> : tensor<4xi32>}> : () -> tensor<4xi32>
  %w = "tfl.pseudo_qconst"() <{qtype = tensor<4x3x3x4x!quant.uniform<i8:f32, 0.1>>, value = dense<1> : tensor<4x3x3x4xi8>}> : () -> tensor<4x3x3x4x!quant.uniform<i8:f32, 0.1>>
  %n = "tfl.no_value"() <{value}> : () -> none
  // expected-remark@+1 {{TRANSPOSE_CONV 'tconv' runs on the CPU: with VALID padding the OFM must be 9x9 (the IFM 4x4 upsampled, plus the kernel's overhang); it is 8x8}}
  %0 = "tfl.transpose_conv"(%s, %w, %x, %n) <{fused_activation_function = "NONE", padding = "VALID", stride_h = 2 : i32, stride_w = 2 : i32}> : (tensor<4xi32>, tensor<4x3x3x4x!quant.uniform<i8:f32, 0.1>>, tensor<1x4x4x4x!quant.uniform<i8:f32, 0.5>>, none) -> tensor<1x8x8x4x!quant.uniform<i8:f32, 0.5>> loc("tconv")
  return %0 : tensor<1x8x8x4x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A depthwise stride of 4. (stride)
// CHECK-LABEL: func.func @depthwise_stride
// CHECK: {npu.placement = "cpu"}
func.func @depthwise_stride(%x: tensor<1x8x8x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x2x2x8x!quant.uniform<i8:f32, 0.5>> {
  %w = "tfl.pseudo_qconst"() <{qtype = tensor<1x1x1x8x!quant.uniform<i8:f32, 0.1>>, value = dense<1> : tensor<1x1x1x8xi8>}> : () -> tensor<1x1x1x8x!quant.uniform<i8:f32, 0.1>>
  %n = "tfl.no_value"() <{value}> : () -> none
  // expected-remark@+1 {{DEPTHWISE_CONV_2D 'dw' runs on the CPU: stride 4x4 (WxH) exceeds the NPU limit of 3 for depthwise convolutions}}
  %0 = "tfl.depthwise_conv_2d"(%x, %w, %n) <{depth_multiplier = 1 : i32, dilation_h_factor = 1 : i32, dilation_w_factor = 1 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 4 : i32, stride_w = 4 : i32}> : (tensor<1x8x8x8x!quant.uniform<i8:f32, 0.5>>, tensor<1x1x1x8x!quant.uniform<i8:f32, 0.1>>, none) -> tensor<1x2x2x8x!quant.uniform<i8:f32, 0.5>> loc("dw")
  return %0 : tensor<1x2x2x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A max pool with stride 4. (stride)
// CHECK-LABEL: func.func @maxpool_stride
// CHECK: {npu.placement = "cpu"}
func.func @maxpool_stride(%x: tensor<1x16x16x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> {
  // expected-remark@+1 {{MAX_POOL_2D 'pool' runs on the CPU: stride 4x4 (WxH) exceeds the NPU limit of 3 for max pooling}}
  %0 = "tfl.max_pool_2d"(%x) <{filter_height = 2 : i32, filter_width = 2 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 4 : i32, stride_w = 4 : i32}> : (tensor<1x16x16x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> loc("pool")
  return %0 : tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A max pool 300 rows high. (kernel)
// CHECK-LABEL: func.func @maxpool_height
// CHECK: {npu.placement = "cpu"}
func.func @maxpool_height(%x: tensor<1x300x2x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x2x8x!quant.uniform<i8:f32, 0.5>> {
  // expected-remark@+1 {{MAX_POOL_2D 'pool' runs on the CPU: pool height 300 exceeds the NPU limit of 256}}
  %0 = "tfl.max_pool_2d"(%x) <{filter_height = 300 : i32, filter_width = 1 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 1 : i32, stride_w = 1 : i32}> : (tensor<1x300x2x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x2x8x!quant.uniform<i8:f32, 0.5>> loc("pool")
  return %0 : tensor<1x1x2x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A max pool over 300x300 positions. (kernel)
// CHECK-LABEL: func.func @maxpool_area
// CHECK: {npu.placement = "cpu"}
func.func @maxpool_area(%x: tensor<1x250x301x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x2x8x!quant.uniform<i8:f32, 0.5>> {
  // expected-remark@+1 {{MAX_POOL_2D 'pool' runs on the CPU: pool 300x250 (WxH) covers 75000 positions, over the NPU limit of 65536}}
  %0 = "tfl.max_pool_2d"(%x) <{filter_height = 250 : i32, filter_width = 300 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 1 : i32, stride_w = 1 : i32}> : (tensor<1x250x301x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x2x8x!quant.uniform<i8:f32, 0.5>> loc("pool")
  return %0 : tensor<1x1x2x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// An average pool with width stride 4 and SAME padding. (stride)
// CHECK-LABEL: func.func @avgpool_stride_same
// CHECK: {npu.placement = "cpu"}
func.func @avgpool_stride_same(%x: tensor<1x16x16x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x16x4x8x!quant.uniform<i8:f32, 0.5>> {
  // expected-remark@+1 {{AVERAGE_POOL_2D 'pool' runs on the CPU: stride_w = 4 with SAME padding: a width stride over 3 runs on the NPU with VALID padding only}}
  %0 = "tfl.average_pool_2d"(%x) <{filter_height = 2 : i32, filter_width = 2 : i32, fused_activation_function = "NONE", padding = "SAME", stride_h = 1 : i32, stride_w = 4 : i32}> : (tensor<1x16x16x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x16x4x8x!quant.uniform<i8:f32, 0.5>> loc("pool")
  return %0 : tensor<1x16x4x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A 9x9 average pool with SAME padding. (kernel)
// CHECK-LABEL: func.func @avgpool_same_kernel
// CHECK: {npu.placement = "cpu"}
func.func @avgpool_same_kernel(%x: tensor<1x16x16x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x16x16x8x!quant.uniform<i8:f32, 0.5>> {
  // expected-remark@+1 {{AVERAGE_POOL_2D 'pool' runs on the CPU: pool 9x9 (WxH) with SAME padding: the NPU pads pools of at most 8x8 (or as wide as the stride)}}
  %0 = "tfl.average_pool_2d"(%x) <{filter_height = 9 : i32, filter_width = 9 : i32, fused_activation_function = "NONE", padding = "SAME", stride_h = 1 : i32, stride_w = 1 : i32}> : (tensor<1x16x16x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x16x16x8x!quant.uniform<i8:f32, 0.5>> loc("pool")
  return %0 : tensor<1x16x16x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// An average pool 300 rows high. (kernel)
// CHECK-LABEL: func.func @avgpool_height
// CHECK: {npu.placement = "cpu"}
func.func @avgpool_height(%x: tensor<1x300x2x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x2x8x!quant.uniform<i8:f32, 0.5>> {
  // expected-remark@+1 {{AVERAGE_POOL_2D 'pool' runs on the CPU: pool height 300 exceeds the NPU limit of 256}}
  %0 = "tfl.average_pool_2d"(%x) <{filter_height = 300 : i32, filter_width = 1 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 1 : i32, stride_w = 1 : i32}> : (tensor<1x300x2x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x2x8x!quant.uniform<i8:f32, 0.5>> loc("pool")
  return %0 : tensor<1x1x2x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// An average pool over 250x300 positions. (kernel)
// CHECK-LABEL: func.func @avgpool_area
// CHECK: {npu.placement = "cpu"}
func.func @avgpool_area(%x: tensor<1x250x301x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x2x8x!quant.uniform<i8:f32, 0.5>> {
  // expected-remark@+1 {{AVERAGE_POOL_2D 'pool' runs on the CPU: pool 300x250 (WxH) covers 75000 positions, over the NPU limit of 65536}}
  %0 = "tfl.average_pool_2d"(%x) <{filter_height = 250 : i32, filter_width = 300 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 1 : i32, stride_w = 1 : i32}> : (tensor<1x250x301x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x2x8x!quant.uniform<i8:f32, 0.5>> loc("pool")
  return %0 : tensor<1x1x2x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// Padding the batch. (pad)
// CHECK-LABEL: func.func @pad_batch
// CHECK: {npu.placement = "cpu"}
func.func @pad_batch(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<2x4x4x8x!quant.uniform<i8:f32, 0.5>> {
  %p = "tfl.pseudo_const"() <{value = dense<[[1, 0], [0, 0], [0, 0], [0, 0]]> : tensor<4x2xi32>}> : () -> tensor<4x2xi32>
  // expected-remark@+1 {{PAD 'pad' runs on the CPU: batch padding [1, 0]: the NPU pads height, width and channels only}}
  %0 = "tfl.pad"(%x, %p) : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<4x2xi32>) -> tensor<2x4x4x8x!quant.uniform<i8:f32, 0.5>> loc("pad")
  return %0 : tensor<2x4x4x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A 16-bit MEAN over more than 65536 elements. (mean-size)
// CHECK-LABEL: func.func @mean_int16_count
// CHECK: {npu.placement = "cpu"}
func.func @mean_int16_count(%x: tensor<1x300x300x2x!quant.uniform<i16:f32, 0.5>>) -> tensor<1x1x1x2x!quant.uniform<i16:f32, 0.5>> {
  %a = "tfl.pseudo_const"() <{value = dense<[1, 2]> : tensor<2xi32>}> : () -> tensor<2xi32>
  // expected-remark@+1 {{MEAN 'mean' runs on the CPU: the reduced axes hold 90000 elements, over the NPU limit of 65536 for int16 inputs (the 32-bit sum could overflow)}}
  %0 = "tfl.mean"(%x, %a) <{keep_dims = true}> : (tensor<1x300x300x2x!quant.uniform<i16:f32, 0.5>>, tensor<2xi32>) -> tensor<1x1x1x2x!quant.uniform<i16:f32, 0.5>> loc("mean")
  return %0 : tensor<1x1x1x2x!quant.uniform<i16:f32, 0.5>>
}

// -----

// A MEAN over 5000 channels. (mean-size)
// CHECK-LABEL: func.func @mean_deep
// CHECK: {npu.placement = "cpu"}
func.func @mean_deep(%x: tensor<1x1x2x5000x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x2x1x!quant.uniform<i8:f32, 0.5>> {
  %a = "tfl.pseudo_const"() <{value = dense<3> : tensor<1xi32>}> : () -> tensor<1xi32>
  // expected-remark@+1 {{MEAN 'mean' runs on the CPU: averaging 5000 channels exceeds the NPU limit of 4096}}
  %0 = "tfl.mean"(%x, %a) <{keep_dims = true}> : (tensor<1x1x2x5000x!quant.uniform<i8:f32, 0.5>>, tensor<1xi32>) -> tensor<1x1x2x1x!quant.uniform<i8:f32, 0.5>> loc("mean")
  return %0 : tensor<1x1x2x1x!quant.uniform<i8:f32, 0.5>>
}

// -----

// RSQRT of an int16 tensor. (dtype)
// CHECK-LABEL: func.func @rsqrt_int16
// CHECK: {npu.placement = "cpu"}
func.func @rsqrt_int16(%x: tensor<1x4x4x8x!quant.uniform<i16:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i16:f32, 0.5>> {
  // expected-remark@+1 {{RSQRT 'rsqrt' runs on the CPU: IFM is int16; the NPU evaluates RSQRT as a table for int8 inputs only}}
  %0 = "tfl.rsqrt"(%x) : (tensor<1x4x4x8x!quant.uniform<i16:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i16:f32, 0.5>> loc("rsqrt")
  return %0 : tensor<1x4x4x8x!quant.uniform<i16:f32, 0.5>>
}

// -----

// A strided slice with step 2 on an inner axis: Vela runs it, npu-legalize does not lower it yet. (unimplemented)
// CHECK-LABEL: func.func @slice_step
// CHECK: {npu.placement = "cpu"}
func.func @slice_step(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x2x4x8x!quant.uniform<i8:f32, 0.5>> {
  %b = "tfl.pseudo_const"() <{value = dense<[0, 0, 0, 0]> : tensor<4xi32>}> : () -> tensor<4xi32>
  %e = "tfl.pseudo_const"() <{value = dense<[1, 4, 4, 8]> : tensor<4xi32>}> : () -> tensor<4xi32>
  %s = "tfl.pseudo_const"() <{value = dense<[1, 2, 1, 1]> : tensor<4xi32>}> : () -> tensor<4xi32>
  // expected-remark@+1 {{STRIDED_SLICE 'ss' runs on the CPU: npu-legalize lowers strided slices with unit strides and no new axes only}}
  %0 = "tfl.strided_slice"(%x, %b, %e, %s) <{begin_mask = 0 : i32, ellipsis_mask = 0 : i32, end_mask = 0 : i32, new_axis_mask = 0 : i32, offset = false, shrink_axis_mask = 0 : i32}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) -> tensor<1x2x4x8x!quant.uniform<i8:f32, 0.5>> loc("ss")
  return %0 : tensor<1x2x4x8x!quant.uniform<i8:f32, 0.5>>
}
