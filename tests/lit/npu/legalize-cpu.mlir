// npu-legalize leaves an op the NPU cannot run as a tfl op marked npu.placement = "cpu", with a
// remark naming the first of Vela's constraints it violates: one case per reason (the
// statistic cpu-<key> counts them).
// RUN: %npu_opt %s --split-input-file --pass=npu-legalize --verify-diagnostics
// RUN: %npu_opt %s --split-input-file --pass=npu-legalize | %filecheck %s
// RUN: %npu_opt %s --split-input-file --pass=npu-legalize --pass-statistics -o %t 2>&1 | %filecheck %s --check-prefix=STATS

// A non-constant scalar operand is a dynamic tensor to Vela. (dynamic-tensor)
// CHECK-LABEL: func.func @dynamic_scalar
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-dynamic-tensor
func.func @dynamic_scalar(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, %s: tensor<!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> {
  // expected-remark@+1 {{ADD 'add' runs on the CPU: Input(s) and Output tensors must not be dynamic (IFM2 is a non-constant scalar)}}
  %0 = "tfl.add"(%x, %s) <{fused_activation_function = "NONE"}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> loc("add")
  return %0 : tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// Dynamic dimensions. (undefined-shape)
// CHECK-LABEL: func.func @dynamic_shape
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-undefined-shape
func.func @dynamic_shape(%x: tensor<1x?x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x?x4x8x!quant.uniform<i8:f32, 0.5>> {
  // expected-remark@+1 {{Input(s) and Output tensors must have a defined shape (IFM has shape [1, ?, 4, 8]}}
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
  // expected-remark@+1 {{RESHAPE 'r' runs on the CPU: Scalar Input tensors are only valid for op type: ADD, ARG_MAX, EXPAND_DIMS, MAXIMUM, MEAN, MINIMUM, MUL, QUANTIZE, SPLIT, SPLIT_V, SUB (IFM is scalar)}}
  %0 = "tfl.reshape"(%c, %s) : (tensor<!quant.uniform<i8:f32, 0.5>>, tensor<1xi32>) -> tensor<1x!quant.uniform<i8:f32, 0.5>> loc("r")
  return %0 : tensor<1x!quant.uniform<i8:f32, 0.5>>
}

// -----

// More than 4 dimensions. (rank)
// CHECK-LABEL: func.func @rank5
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-rank
func.func @rank5(%x: tensor<1x2x3x4x5x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x2x3x4x5x!quant.uniform<i8:f32, 0.5>> {
  // expected-remark@+1 {{Input(s) and Output tensors must not be greater than 4D (IFM has shape [1, 2, 3, 4, 5])}}
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
  // expected-remark@+1 {{CONV_2D 'conv' runs on the CPU: Input(s), Output and Weight tensors must have quantization parameters (IFM has type float32 without quantization)}}
  %0 = "tfl.conv_2d"(%x, %w, %n) <{dilation_h_factor = 1 : i32, dilation_w_factor = 1 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 1 : i32, stride_w = 1 : i32}> : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, none) -> tensor<1x4x4x2xf32> loc("conv")
  return %0 : tensor<1x4x4x2xf32>
}

// -----

// An OFM scale below float32's smallest normal. (quant-scale)
// CHECK-LABEL: func.func @tiny_scale
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-quant-scale
func.func @tiny_scale(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 1.0E-39>> {
  // expected-remark@+1 {{Input and Output tensors must have quantization scales that fit within float32 precision (OFM scale 1e-39}}
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
  // expected-remark@+1 {{Number of filter kernels must be equally divisible by the number of convolution groups (3 filter kernels, 2 groups)}}
  %0 = "tfl.conv_2d"(%x, %w, %n) <{dilation_h_factor = 1 : i32, dilation_w_factor = 1 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 1 : i32, stride_w = 1 : i32}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<3x1x1x4x!quant.uniform<i8:f32, 0.1>>, none) -> tensor<1x4x4x3x!quant.uniform<i8:f32, 0.5>> loc("conv")
  return %0 : tensor<1x4x4x3x!quant.uniform<i8:f32, 0.5>>
}

// -----

// Both operands broadcast. (broadcast)
// CHECK-LABEL: func.func @broadcast_both
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-broadcast
func.func @broadcast_both(%x: tensor<1x4x1x8x!quant.uniform<i8:f32, 0.5>>, %y: tensor<1x1x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> {
  // expected-remark@+1 {{At least one Input's shape must match the OFM's shape (IFM [1, 4, 1, 8], IFM2 [1, 1, 4, 8], OFM [1, 4, 4, 8])}}
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
  // expected-remark@+1 {{RESHAPE 'flat' runs on the CPU: Input and output quantisation must match.}}
  %0 = "tfl.reshape"(%x, %s) : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<2xi32>) -> tensor<1x128x!quant.uniform<i8:f32, 0.25>> loc("flat")
  return %0 : tensor<1x128x!quant.uniform<i8:f32, 0.25>>
}

// -----

// A negative softmax beta. (softmax-beta)
// CHECK-LABEL: func.func @softmax_beta
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-softmax-beta
func.func @softmax_beta(%x: tensor<1x10x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x10x!quant.uniform<i8:f32, 0.5>> {
  // expected-remark@+1 {{Beta value needs to be positive (beta -1.0)}}
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
  // expected-remark@+1 {{The output tensor(s) must have 2D shape (IFM [16] cannot be reshaped to rows of 16)}}
  %0 = "tfl.fully_connected"(%x, %w, %n) <{fused_activation_function = "NONE", keep_num_dims = false, weights_format = "DEFAULT"}> : (tensor<16x!quant.uniform<i8:f32, 0.5>>, tensor<4x16x!quant.uniform<i8:f32, 0.1>>, none) -> tensor<1x4x!quant.uniform<i8:f32, 0.5>> loc("fc")
  return %0 : tensor<1x4x!quant.uniform<i8:f32, 0.5>>
}

// -----

// Paddings computed at run time. (non-constant)
// CHECK-LABEL: func.func @pad_dynamic
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-non-constant
func.func @pad_dynamic(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, %p: tensor<4x2xi32>) -> tensor<1x6x6x8x!quant.uniform<i8:f32, 0.5>> {
  // expected-remark@+1 {{PAD 'pad' runs on the CPU: The padding tensor must be constant}}
  %0 = "tfl.pad"(%x, %p) : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<4x2xi32>) -> tensor<1x6x6x8x!quant.uniform<i8:f32, 0.5>> loc("pad")
  return %0 : tensor<1x6x6x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A 16-bit hard-swish. (dtype)
// CHECK-LABEL: func.func @hard_swish16
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-dtype
func.func @hard_swish16(%x: tensor<1x4x4x8x!quant.uniform<i16:f32, 0.001>>) -> tensor<1x4x4x8x!quant.uniform<i16:f32, 0.001>> {
  // expected-remark@+1 {{HARD_SWISH 'hs' runs on the CPU: IFM must be int8 or uint8 (IFM int16)}}
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
  // expected-remark@+1 {{Reduction in Depth axis is supported if at least one of H,W,C are of size 1 (shape [1, 4, 4, 8])}}
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
  // expected-remark@+1 {{Tensors must be of type: int16, int32, int8, uint8 (weights is int4)}}
  %0 = "tfl.conv_2d"(%x, %w, %n) <{dilation_h_factor = 1 : i32, dilation_w_factor = 1 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 1 : i32, stride_w = 1 : i32}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<8x1x1x8x!quant.uniform<i4:f32, 0.1>>, none) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> loc("conv")
  return %0 : tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A 32-bit minimum. (int32)
// CHECK-LABEL: func.func @int32_minimum
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-int32
func.func @int32_minimum(%x: tensor<1x4x4x8x!quant.uniform<i32:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i32:f32, 0.5>> {
  // expected-remark@+1 {{Tensors which are int32 are only valid when op type is: ADD, ARG_MAX, MIRROR_PAD, MUL, SHAPE, SUB, TRANSPOSE (IFM is int32)}}
  %0 = "tfl.minimum"(%x, %x) : (tensor<1x4x4x8x!quant.uniform<i32:f32, 0.5>>, tensor<1x4x4x8x!quant.uniform<i32:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i32:f32, 0.5>> loc("min")
  return %0 : tensor<1x4x4x8x!quant.uniform<i32:f32, 0.5>>
}

// -----

// A dimension above 65535. (dimension)
// CHECK-LABEL: func.func @wide
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-dimension
func.func @wide(%x: tensor<1x1x70000x1x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x70000x1x!quant.uniform<i8:f32, 0.5>> {
  // expected-remark@+1 {{Tensor dimensions must be in the range [1, 65535] (IFM has shape [1, 1, 70000, 1])}}
  %0 = "tfl.add"(%x, %x) <{fused_activation_function = "NONE"}> : (tensor<1x1x70000x1x!quant.uniform<i8:f32, 0.5>>, tensor<1x1x70000x1x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x70000x1x!quant.uniform<i8:f32, 0.5>> loc("add")
  return %0 : tensor<1x1x70000x1x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A feature map quantised per channel. (per-axis-quantization)
// CHECK-LABEL: func.func @per_axis
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-per-axis-quantization
func.func @per_axis(%x: tensor<1x4x4x2x!quant.uniform<i8:f32:3, {0.5,0.25}>>) -> tensor<1x4x4x2x!quant.uniform<i8:f32:3, {0.5,0.25}>> {
  // expected-remark@+1 {{Per-axis quantization is only supported for the following op types: CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, TRANSPOSE_CONV (IFM is quantised per axis)}}
  %0 = "tfl.relu"(%x) : (tensor<1x4x4x2x!quant.uniform<i8:f32:3, {0.5,0.25}>>) -> tensor<1x4x4x2x!quant.uniform<i8:f32:3, {0.5,0.25}>> loc("relu")
  return %0 : tensor<1x4x4x2x!quant.uniform<i8:f32:3, {0.5,0.25}>>
}

// -----

// A batch of 2. (batch)
// CHECK-LABEL: func.func @batch
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-batch
func.func @batch(%x: tensor<2x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<2x2x2x8x!quant.uniform<i8:f32, 0.5>> {
  // expected-remark@+1 {{IFM Tensor batch size must be 1 (IFM has batch size 2)}}
  %0 = "tfl.max_pool_2d"(%x) <{filter_height = 2 : i32, filter_width = 2 : i32, fused_activation_function = "NONE", padding = "VALID", stride_h = 2 : i32, stride_w = 2 : i32}> : (tensor<2x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<2x2x2x8x!quant.uniform<i8:f32, 0.5>> loc("pool")
  return %0 : tensor<2x2x2x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// An unsupported fused activation. (fused-activation)
// CHECK-LABEL: func.func @sign_bit
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-fused-activation
func.func @sign_bit(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> {
  // expected-remark@+1 {{The fused activation function (if present) must be one of type: LOGISTIC, RELU, RELU6, RELU_0_TO_1, RELU_N1_TO_1, TANH (it is SIGN_BIT)}}
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
  // expected-remark@+1 {{Stride h must be between 1 and 3 when ofm height is greater than 1}}
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
  // expected-remark@+1 {{Dilated kernel height must be in the range [1, 64] (dilated kernel height 81)}}
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
  // expected-remark@+1 {{Weight tensor must be constant}}
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
  // expected-remark@+1 {{Optional Bias tensor values must fit within 40-bits}}
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
  // expected-remark@+1 {{Weights must be symmetric (zero point 0) for int8 and int16 IFMs (Vela: --force-symmetric-int-weights)}}
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
  // expected-remark@+1 {{For depth multipliers > 1, IFM channels must be 1 and OFM channels must be equal to the depth multiplier (IFM channels 2, OFM channels 4, depth multiplier 2)}}
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
  // expected-remark@+1 {{SAME padding: OFM dimensions must equal IFM dimensions multiplied by stride}}
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
  // expected-remark@+1 {{The width and height of the IFM and OFM must be equal, or the IFM 1x1, or the OFM 1x, 2x, 4x or 8x the IFM}}
  %0 = "tfl.resize_nearest_neighbor"(%x, %s) <{align_corners = false, half_pixel_centers = false}> : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<2xi32>) -> tensor<1x12x12x8x!quant.uniform<i8:f32, 0.5>> loc("resize")
  return %0 : tensor<1x12x12x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A maximum of differently scaled operands. (quant-mismatch)
// CHECK-LABEL: func.func @max_scales
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-quant-mismatch
func.func @max_scales(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, %y: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.25>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>> {
  // expected-remark@+1 {{MAXIMUM 'max' runs on the CPU: Both Input quantization parameters must match OFM quantization parameters}}
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
  // expected-remark@+1 {{The padding tensor must have the shape [3,2] or [4,2] (shape [2, 2])}}
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
  // expected-remark@+1 {{If Width axis is reduced its shape must be no greater than 4096 (width 5000)}}
  %0 = "tfl.mean"(%x, %a) <{keep_dims = true}> : (tensor<1x1x5000x8x!quant.uniform<i8:f32, 0.5>>, tensor<2xi32>) -> tensor<1x1x1x8x!quant.uniform<i8:f32, 0.5>> loc("mean")
  return %0 : tensor<1x1x1x8x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A reshape to a shape computed at run time. (non-constant)
// CHECK-LABEL: func.func @reshape_dynamic
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-non-constant
func.func @reshape_dynamic(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, %s: tensor<2xi32>) -> tensor<1x128x!quant.uniform<i8:f32, 0.5>> {
  // expected-remark@+1 {{RESHAPE 'flat' runs on the CPU: Shape must be constant}}
  %0 = "tfl.reshape"(%x, %s) : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>, tensor<2xi32>) -> tensor<1x128x!quant.uniform<i8:f32, 0.5>> loc("flat")
  return %0 : tensor<1x128x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A softmax over more than 65535 pixels. (softmax-size)
// CHECK-LABEL: func.func @softmax_big
// CHECK: {npu.placement = "cpu"}
// STATS: (S) 1 cpu-softmax-size
func.func @softmax_big(%x: tensor<1x300x300x2x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x300x300x2x!quant.uniform<i8:f32, 0.5>> {
  // expected-remark@+1 {{The product of IFM width and height must be in the range [1, 65535] (product 90000)}}
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
  // expected-remark@+1 {{STRIDED_SLICE 'ss' runs on the CPU: Slice 'end' values must be greater than 'begin' values (begin [0, 2, 0, 0], end [1, 2, 4, 8])}}
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
  // expected-remark@+1 {{DEQUANTIZE 'deq' runs on the CPU: DEQUANTIZE is a CPU only op}}
  %0 = "tfl.dequantize"(%x) : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8xf32> loc("deq")
  return %0 : tensor<1x4x4x8xf32>
}
